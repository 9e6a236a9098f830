"""Fleets and registers over time for the faces: the fleet forecast (`crewkg fleet`) and the register diff (`crewkg
diff`), as data, text, a calendar file and a picture. The CLI and the service only print or send what these return;
the forecast itself is crewkg.careers.fleet's, the diff crewkg.answers.diff's."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkg.errors import InputError

if TYPE_CHECKING:
    from crewkg.law.statute import Law

#: the pictures a fleet forecast is drawn as, by file suffix
PICTURES = {".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}


def span(start: date, end: date, fields: tuple[str, str] = ("--from", "--until")) -> None:
    """Refuse a span whose last day comes before its first."""
    if end < start:
        raise InputError(fields[1], fields[1].lstrip("-"), "span_order", end.isoformat(), start=start.isoformat())


def workers_of(workers: int | None) -> int:
    """The worker processes asked for (None: one per core); fewer than one is bad input."""
    if workers is not None and workers < 1:
        raise InputError("--workers", "workers", "workers", workers)
    return workers or os.cpu_count() or 1


def read_fleet(law: Law, fleet: Mapping[str, Any] | str | Path, start: date):
    """A fleet file (vessel and roster paths relative to it) or a fleet mapping (paths relative to the working
    folder), read and checked (`manning.fleet`)."""
    from crewkg.manning.compile import load_manning
    from crewkg.manning.fleet import fleet_from_mapping, load_fleet

    ml = load_manning(law)
    if isinstance(fleet, str | Path):
        return ml, load_fleet(Path(fleet), law, ml, start)
    return ml, fleet_from_mapping(dict(fleet), law, ml, start, "request body: fleet", None)


def forecast(law: Law, fleet: Mapping[str, Any] | str | Path, start: date, end: date, lang: str = "de",
             workers: int | None = 1) -> dict[str, Any]:
    """The fleet forecast of `crewkg fleet --format json` (design contract "Fleet forecast")."""
    from crewkg.careers.fleet import forecast as run

    span(start, end)
    ml, f = read_fleet(law, fleet, start)
    return run(law, ml, f, start, end, lang, workers_of(workers))


def timings() -> str:
    """The seconds of the last forecast's phases in this process, for the benchmark: 'requirements 1.2 s, …'."""
    from crewkg.careers.fleet import TIMINGS

    return ", ".join(f"{k} {v:.2f} s" for k, v in TIMINGS.items())


def forecast_text(law: Law, result: dict[str, Any], lang: str = "de") -> list[str]:
    """The forecast for people: the summary first, then one line per event in date order."""
    from crewkg.careers.fleet_text import lines

    return lines(law, result, lang)


def forecast_ics(law: Law, result: dict[str, Any], lang: str = "de") -> bytes:
    """The forecast as an iCalendar file: one event with an alarm per change of verdict, the remedies in it."""
    from crewkg.extras import require

    require("calendar")
    from crewkg.careers.fleet_text import ics

    return ics(law, result, lang)


def forecast_picture(law: Law, result: dict[str, Any], fmt: str, lang: str = "de") -> bytes | str:
    """The forecast drawn: one row per vessel over the span, red where the minimum crew is not met, the causes
    labelled (svg, png, or an html page with the picture and the text)."""
    from crewkg.extras import require

    require("pictures")
    from crewkg.careers.fleet_picture import draw, html_page

    if fmt == "html":
        return html_page(law, result, draw(law, result, "svg", lang), lang)
    return draw(law, result, fmt, lang)


def diff_lines(law: Law, register: str | Path, start: date, end: date, workers: int | None = 1,
               lang: str = "de") -> Any:
    """The register diff of `crewkg diff --format jsonl` (design contract "Register diff"): iterate it for one line
    per person whose answer differs between the two days and an error line per record that failed, in input order;
    once iterated it knows the persons who lose a role (`diff_report`)."""
    from crewkg.answers.diff import diff_register

    path = Path(register)
    if not path.exists():
        raise InputError(str(path), "", "register_path")
    return diff_register(law, path, start, end, workers_of(workers), lang)


def diff_report(law: Law, run: Any, lines: list[dict[str, Any]], lang: str = "de") -> dict[str, Any]:
    """What the text of `crewkg diff` adds to the lines: the counts per certificate and role, and for each person
    who loses a role the replacement routes of the transitional provisions open on the first day (`answers.diff`)."""
    from crewkg.answers.diff import counts, replacement_routes

    return {"counts": counts(lines), "routes": replacement_routes(law, run.losers, run.start, lang),
            "read": run.read, "failed": run.failed}


def diff_text(law: Law, lines: list[dict[str, Any]], report: dict[str, Any], start: date, end: date,
              lang: str = "de") -> list[str]:
    """The diff for people: a table of the persons, then the counts per certificate and the summary of the routes."""
    from crewkg.answers.diff import text

    return text(law, lines, report, start, end, lang)
