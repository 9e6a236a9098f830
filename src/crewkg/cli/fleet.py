"""Looking ahead (issue 45): `crewkg fleet`, a fleet's minimum crew over a span of days, and `crewkg diff`, who gains
or loses which certificates and roles between two days. The answers come from crewkg.api; imports inside the
commands keep `crewkg check` fast."""

import json
import sys
from datetime import date
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Lang, _fail, app, json_text
from crewkg.errors import InputError


class FleetFormat(str, Enum):
    text = "text"
    json = "json"
    ics = "ics"


class DiffFormat(str, Enum):
    text = "text"
    jsonl = "jsonl"


def _date(value: str | None, option: str, lang: str) -> date:
    """An option's ISO date (today where it is not given)."""
    if value is None:
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError:
        _fail(InputError(option, option.lstrip("-").replace("-", "_"), "iso_date", value), lang)


@app.command()
def fleet(
    fleet_file: Annotated[Path, typer.Argument(metavar="FLEET", help="A fleet record (YAML or JSON): its vessels, each with its roster.")],
    start: Annotated[str | None, typer.Option("--from", help="First day of the forecast (ISO); default today.")] = None,
    until: Annotated[str | None, typer.Option("--until", help="Last day of the forecast (ISO).")] = None,
    fmt: Annotated[FleetFormat, typer.Option("--format", help="text for people, json for programs, ics for a calendar.")] = FleetFormat.text,
    out: Annotated[Path | None, typer.Option("--out", help="Draw the forecast (.svg, .png or .html).")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes (default: one per core).")] = None,
) -> None:
    """For each vessel of the fleet: whether its roster meets the minimum crew on the first day, and every day up to
    --until on which that changes, with the causes (who, which certificate, why, the provision) and the remedies
    (who can hold what is missing, from which day).

    Exit status: 0 when every vessel meets the minimum crew on every day of the span; 1 when a vessel does not (or it
    cannot be decided) on some day; 2 for bad input."""
    from crewkg.api.forecasts import PICTURES
    from crewkg.cli.careers import _write, _wrote
    from crewkg.extras import require

    first = _date(start, "--from", lang.value)
    if until is None:
        _fail(InputError("--until", "until", "iso_date", None), lang.value)
    last = _date(until, "--until", lang.value)
    try:
        if out is not None and out.suffix.lower() not in PICTURES:
            raise InputError(str(out), "--out", "picture_file", out.suffix)
        if out is not None and not out.parent.is_dir():
            raise InputError(str(out), "--out", "out_folder")
        if fmt is FleetFormat.ics:
            require("calendar")
        if out is not None:
            require("pictures")
        from crewkg import api
        from crewkg.api import forecasts

        law = api.law()
        result = forecasts.forecast(law, fleet_file, first, last, lang.value, workers)
        if out is not None:
            _write(out, forecasts.forecast_picture(law, result, PICTURES[out.suffix.lower()], lang.value))
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if out is not None:
        _wrote(lang.value, "cli.wrote.fleet", out=out, fleet=result["fleet"], start=result["from"], end=result["until"])
    if fmt is FleetFormat.json:
        sys.stdout.write(json_text(result))
    elif fmt is FleetFormat.ics:
        sys.stdout.buffer.write(forecasts.forecast_ics(law, result, lang.value))
        sys.stdout.flush()
    else:
        for line in forecasts.forecast_text(law, result, lang.value):
            typer.echo(line)
    if any(v["not_met_days"] for v in result["vessels"]):
        raise typer.Exit(1)  # a script can gate: only a fleet met on every day passes


@app.command()
def diff(
    register: Annotated[Path, typer.Argument(metavar="REGISTER", help="A register: a JSON Lines file, a CSV of flat records or a folder.")],
    start: Annotated[str | None, typer.Option("--from", help="The first day (ISO); default today.")] = None,
    end: Annotated[str | None, typer.Option("--to", help="The second day (ISO).")] = None,
    fmt: Annotated[DiffFormat, typer.Option("--format", help="text for people, jsonl for programs.")] = DiffFormat.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes (default: one per core).")] = None,
) -> None:
    """Who gains or loses which certificates and roles between two days (the new regulation of 17 Jan 2022, the end
    of the old qualifications on 18 Jan 2032, a validity or medical proof running out): one JSON line per person
    whose answer differs, or a table with the counts per certificate and, for those who lose a role, the replacement
    routes of § 47 SchBV open to them.

    Exit status: 0; 1 when a record could not be read (the others are answered); 2 for bad input."""
    first = _date(start, "--from", lang.value)
    if end is None:
        _fail(InputError("--to", "to", "iso_date", None), lang.value)
    second = _date(end, "--to", lang.value)
    from crewkg import api
    from crewkg.api import forecasts, records

    try:
        law = api.law()
        run = forecasts.diff_lines(law, register, first, second, workers, lang.value)
        lines = []
        for line in run:
            if fmt is DiffFormat.jsonl:
                sys.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            lines.append(line)
        if fmt is DiffFormat.text:
            report = forecasts.diff_report(law, run, lines, lang.value)
            for text in forecasts.diff_text(law, lines, report, first, second, lang.value):
                typer.echo(text)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    failed = sum(1 for x in lines if "error" in x)
    if failed:
        typer.echo(records.summary(failed, lang.value), err=True)
        raise typer.Exit(1)
