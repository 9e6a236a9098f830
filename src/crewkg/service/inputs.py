"""What a request brings, read and checked the same way by every router: the evaluation date, the language, a
JSON person record in the body or an uploaded record file. A bad value raises `RequestError`: an InputError (so
the 422 body keeps its fields `error`, `file`, `field`, `expected`, `got`, in English as the CLI gives them), and
the answer's `detail` says it in the request's language (errors.py)."""

from __future__ import annotations

import json
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import anyio
from fastapi import Request

from crewkg.errors import InputError
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person


class RequestError(InputError):
    """A bad request value the service itself found: an InputError whose expectation is a catalogue key
    (`error.expected.<key>`) like every other; the English text is the `expected` field, the request's language goes
    to `detail`."""


def day(value: str | None) -> date:
    if value is None or value == "":
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RequestError("as_of", "as_of", "iso_date", value) from None


def language(value: str) -> str:
    if value not in ("de", "en"):
        raise RequestError("lang", "lang", "lang", value)
    return value


def certificate_id(law, value: str, name: str) -> str:
    """A certificate id of the kb in the query parameter `name` (explain's certificate, the report's target)."""
    if value not in law.certificates:
        raise RequestError(name, name, "certificate", value, ids=sorted(law.certificates))
    return value


#: a body up to this size is parsed on the event loop (well under a millisecond); a larger one in a thread
_PARSED_INLINE = 64 * 1024


async def json_body(request: Request) -> Any:
    """The body read as a record file's JSON is (records.reading): a duplicate key, nesting deeper than a record's,
    an integer of thousands of digits, a lone surrogate — each a 422 naming its field, never a 500 (issue 44)."""
    return await _json(await request.body())


async def _json(raw: bytes) -> Any:
    if not raw.strip():
        raise RequestError("request body", "", "json_record")
    if len(raw) <= _PARSED_INLINE:
        return _parsed(raw)
    return await anyio.to_thread.run_sync(_parsed, raw)


def _parsed(raw: bytes) -> Any:
    from crewkg.records.reading import check_shape, load_json

    try:
        data = load_json(raw.decode(json.detect_encoding(raw), "surrogatepass"), "request body")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = say("de", "service.json_position", line=exc.lineno, column=exc.colno) if isinstance(exc, json.JSONDecodeError) \
            else say("de", "service.json_encoding")
        raise RequestError("request body", "", "valid_json", reason={"en": str(exc), "de": where}) from None
    check_shape(data, "request body")
    return data


def person_from_body(state, data: Any, as_of: date) -> Person:
    """The schema check of the CLI on a JSON record (and the SHACL shapes where the service was told so)."""
    from crewkg.records.load import shacl_check_person
    from crewkg.records.persons import person_from_mapping

    person = person_from_mapping(data, state.law, as_of, "request body")
    if state.settings.shacl_json:
        shacl_check_person(person)
    return person


async def person_of_body(state, request: Request, as_of: str | None) -> tuple[Person, date]:
    """The person of the JSON record in the body (`json_body`, `person_from_body`) and the evaluation date (`day`),
    a bad body refused before a bad date as always. The person is read once for each body and date while
    `state.records` keeps it (`Settings.record_cache_bytes`): a body asked again — the warm load mix, a form asked in
    the other language, a client retrying — is looked up on the event loop instead of parsed and checked again in a
    thread (150–300 µs of the schema check, holding the GIL the event loop waited for). For a route that only reads
    the person (the evaluator keys its answers by it and sends its workers a copy)."""
    from cachetools import LRUCache

    raw = await request.body()
    try:
        day_ = day(as_of)
    except RequestError:
        await _json(raw)
        raise
    if state.records is None:
        state.records = LRUCache(state.settings.record_cache_bytes, getsizeof=lambda kept: kept[1])
    kept = state.records.get((day_, raw))
    if kept is None:
        data = await _json(raw)
        kept = (await anyio.to_thread.run_sync(person_from_body, state, data, day_), _RECORD_COST * len(raw) + 1024)
        if kept[1] <= state.records.maxsize:
            state.records[(day_, raw)] = kept
    return kept[0], day_


#: the bytes a person read from a JSON record of n bytes is kept for: about this many times n (its objects)
_RECORD_COST = 8


async def person_from_upload(state, request: Request, as_of: date) -> Person:
    """An uploaded record file read the CLI's way (load_person_file: schema check and SHACL). The file is parsed in
    a worker thread, as a JSON body's record is checked: a record of 50 000 YAML keys took 1.5–2.6 s to parse and,
    parsed on the event loop, stalled every other request (/health included) meanwhile."""
    from starlette.exceptions import HTTPException
    from starlette.formparsers import MultiPartException

    from crewkg.records.persons import SUFFIXES

    try:
        form = await request.form()
    except (HTTPException, MultiPartException, ValueError):  # no multipart form (no boundary, broken parts)
        raise RequestError("request body", "file", "upload_form") from None
    upload = form.get("file")
    if upload is None or not hasattr(upload, "read"):
        raise RequestError("request body", "file", "upload_form")
    name = Path(upload.filename or "record").name
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise RequestError(name, "", "record_suffix", suffix or None, suffixes=sorted(SUFFIXES))
    content = await upload.read()
    return await anyio.to_thread.run_sync(_read_upload, state, name, content, as_of)


def _read_upload(state, name: str, content: bytes, as_of: date) -> Person:
    """The uploaded file's record, read from a temporary folder under its own name (its suffix says its format)."""
    from crewkg.records.load import load_person_file

    with tempfile.TemporaryDirectory(prefix="crewkg-upload-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        try:
            return load_person_file(path, state.law, as_of, shacl=True)
        except InputError as exc:  # name the uploaded file, not the temporary path
            raise exc.at(name) from None
