"""The fleet forecast over HTTP (`POST /api/fleet`, `/api/fleet/upload`, the page `/fleet`): what a request brings,
checked before anything is evaluated, and the forecast of `crewkg fleet` computed off the event loop.

A fleet file given to the CLI names its vessel and roster records as files beside it; the service takes them inline
only — a text there would be read as a path on the server, whose file would be answered or quoted (as `/api/crew`
refuses one, issue 44). A forecast costs seconds and grows with the vessels, their members and the days of the span,
so each is bounded by the service's `Settings` and a fleet beyond them is refused naming its field before it is read
by the rules; the forecasts run in a thread, at most `Settings.max_concurrent_fleets` at once."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import anyio
from fastapi import Request
from fastapi.responses import JSONResponse, Response

from crewkg.errors import InputError
from crewkg.service.inputs import RequestError
from crewkg.service.state import Settings, State

#: the media type of each format of a forecast
MEDIA = {"json": "application/json", "ics": "text/calendar; charset=utf-8", "html": "text/html; charset=utf-8"}
#: the suffixes of an uploaded fleet file (YAML or JSON; a fleet has no Turtle form to upload)
SUFFIXES = (".json", ".yaml", ".yml")
#: where the forecast names the fleet when it was given in a body (api.forecasts.read_fleet)
BODY_SOURCE = "request body: fleet"


def format_of(value: str) -> str:
    if value not in MEDIA:
        raise RequestError("format", "format", "fleet_format", value, formats=", ".join(MEDIA))
    return value


def day_of(value: str | None, name: str) -> date:
    """A day of the span in the query parameter `name` (`from`: today when left out, as `crewkg fleet` takes it)."""
    if value is None or value == "":
        if name == "from":
            return date.today()
        raise RequestError(name, name, "iso_date", value)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RequestError(name, name, "iso_date", value) from None


def request_span(settings: Settings, start: str | None, end: str | None) -> tuple[date, date]:
    """The span of the query parameters `from` and `until`, checked before a body is read."""
    first, last = day_of(start, "from"), day_of(end, "until")
    span_of(settings, first, last)
    return first, last


def span_of(settings: Settings, start: date, end: date) -> None:
    """Refuse a span whose last day comes first, or longer than the service forecasts (`Settings.max_fleet_days`)."""
    if end < start:
        raise RequestError("until", "until", "span_order", end.isoformat(), start=start.isoformat())
    days = (end - start).days + 1
    if days > settings.max_fleet_days:
        raise RequestError("until", "until", "fleet_span", end.isoformat(), most=settings.max_fleet_days,
                           start=start.isoformat())


def check_fleet(data: Any, settings: Settings, source: str = "request body") -> None:
    """What the service refuses before the fleet's own schema check (`manning.fleet`, through `crewkg.api.fleet`)
    judges the rest: a vessel or roster named by a file, and a fleet beyond the service's bounds. Anything else that
    is wrong is left to that check, which names the field as the CLI does."""
    if not isinstance(data, dict):  # a text would be read as a fleet file's path, on the server
        raise RequestError(source, "", "fleet_mapping", type(data).__name__)
    if not isinstance(data.get("vessels"), list):
        return
    entries = data["vessels"]
    if len(entries) > settings.max_fleet_vessels:
        raise RequestError(source, "vessels", "fleet_size", f"{len(entries)}", most=settings.max_fleet_vessels)
    members = 0
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        for key in ("vessel", "roster"):
            if key in entry and not isinstance(entry[key], dict):
                raise RequestError(source, f"vessels[{i}].{key}", "fleet_inline", entry[key])
        crew = entry.get("roster", {}).get("crew")
        members += len(crew) if isinstance(crew, list) else 0
        if members > settings.max_fleet_members:
            raise RequestError(source, f"vessels[{i}].roster.crew", "fleet_members", f"{members}",
                               most=settings.max_fleet_members)


async def body(request: Request) -> Any:
    """The fleet in a JSON body, read as a record's JSON is (`inputs.json_body`: duplicate keys, depth, digits)."""
    from crewkg.service.inputs import json_body

    if not (await request.body()).strip():
        raise RequestError("request body", "", "fleet_json")
    return await json_body(request)


async def form_of(request: Request) -> Any:
    """The request's multipart form; none (no boundary, broken parts) is refused naming the field `file`."""
    from starlette.exceptions import HTTPException
    from starlette.formparsers import MultiPartException

    try:
        return await request.form()
    except (HTTPException, MultiPartException, ValueError):
        raise RequestError("request body", "file", "upload_form") from None


async def upload(request: Request) -> tuple[str, bytes]:
    """The uploaded fleet file's name and bytes (the form's field `file`), its suffix checked."""
    return await uploaded_file(await form_of(request))


async def uploaded_file(form: Any) -> tuple[str, bytes]:
    """The file in the field `file` of a parsed form (the API's upload and the page's form alike)."""
    item = form.get("file")
    if item is None or not hasattr(item, "read"):
        raise RequestError("request body", "file", "upload_form")
    name = Path(item.filename or "fleet").name or "fleet"
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise RequestError(name, "", "fleet_suffix", suffix or None, suffixes=", ".join(SUFFIXES))
    return name, await item.read()


def parse_upload(name: str, content: bytes) -> Any:
    """The uploaded file's mapping, read as the CLI reads a fleet file (`records.reading.read_mapping`: bounded
    size, UTF-8, duplicate keys and depth refused), from a temporary folder under its own name. Run in a thread:
    a YAML file of tens of thousands of keys takes seconds to parse."""
    from crewkg.records.reading import read_mapping

    with tempfile.TemporaryDirectory(prefix="crewkg-fleet-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        try:
            return read_mapping(path, "fleet")
        except InputError as exc:  # name the uploaded file, not the temporary path
            raise exc.at(name) from None


async def forecast(st: State, data: Any, start: date, end: date, lang: str, source: str = "request body") -> dict[str, Any]:
    """The answer of `crewkg fleet --format json` for a fleet given inline (`crewkg.api.fleet`), checked against
    the service's bounds first and computed in a thread, at most `Settings.max_concurrent_fleets` at once. An
    uploaded file's refusals name the file (`source`), a body's the request body."""
    check_fleet(data, st.settings, source)
    span_of(st.settings, start, end)
    if st.fleets is None:  # made on the event loop, where it is used (no await between the test and the assignment)
        st.fleets = anyio.CapacityLimiter(max(1, st.settings.max_concurrent_fleets))

    def run() -> dict[str, Any]:
        from crewkg.api import fleet

        try:
            return fleet(data, start, end, lang, workers=1)  # worker processes per request would multiply the cores
        except InputError as exc:
            if exc.file == BODY_SOURCE:
                raise exc.at(source) from None
            raise

    return await anyio.to_thread.run_sync(run, limiter=st.fleets)


def answer(st: State, result: dict[str, Any], fmt: str, lang: str) -> Response:
    """The forecast in the format asked: the JSON answer, the calendar file, or the page with the picture. Run in a
    thread (the calendar and the picture take their time)."""
    from crewkg.api import forecasts
    from crewkg.service.report import DRAW_LOCK

    if fmt == "json":
        return JSONResponse(result)
    if fmt == "ics":
        return Response(forecasts.forecast_ics(st.law, result, lang), media_type=MEDIA["ics"],
                        headers={"Content-Disposition": f'attachment; filename="{result["fleet"]}.ics"'})
    with DRAW_LOCK:  # matplotlib's text layout is not thread-safe
        page = forecasts.forecast_picture(st.law, result, "html", lang)
    return Response(page, media_type=MEDIA["html"])
