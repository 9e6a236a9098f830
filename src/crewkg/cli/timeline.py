"""`crewkg timeline`: a person's credited days, issuable spells, certificates held, medical fitness and the fastest
planned route, as text, JSON or an iCalendar file, and as a picture (`--out`). Imports inside the command keep
`crewkg check` fast."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError
from crewkg.extras import require


class TimelineFormat(str, Enum):
    text = "text"
    json = "json"
    ics = "ics"


@app.command()
def timeline(
    person: Annotated[Path, typer.Argument(help="One person record (YAML, JSON or Turtle), best with a service log.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    fmt: Annotated[TimelineFormat, typer.Option("--format", help="text for people, json for programs, ics for a calendar.")] = TimelineFormat.text,
    out: Annotated[Path | None, typer.Option("--out", help="Draw the timeline (.svg, .png or .html).")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
    every: Annotated[bool, typer.Option("--all", help="Every certificate in the text, the calendar and the picture (default: those that concern the person).")] = False,
) -> None:
    """Credited days per role over time, when each certificate was issuable, the certificates held, the medical
    fitness and the fastest planned route ahead; `--format ics` gives the coming dates for a calendar."""
    from crewkg.api.careers import PICTURES
    from crewkg.cli.careers import _write, _wrote

    day = _as_of(as_of, lang.value)
    try:
        if out is not None and out.suffix.lower() not in PICTURES:
            raise InputError(str(out), "--out", "picture_file", out.suffix)
        if out is not None and not out.parent.is_dir():
            raise InputError(str(out), "--out", "out_folder")
        if fmt is TimelineFormat.ics:
            require("calendar")
        from crewkg import api
        from crewkg.api.careers import timeline as build
        from crewkg.api.careers import timeline_picture

        result = build(api.law(), api.person(person, day), day, lang.value, every)
        if out is not None:
            _write(out, timeline_picture(result, PICTURES[out.suffix.lower()], lang.value))
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if out is not None:
        _wrote(lang.value, "cli.wrote.timeline", out=out, person=result["person"], as_of=result["as_of"])
    if fmt is TimelineFormat.json:
        sys.stdout.write(json_text(result))
    elif fmt is TimelineFormat.ics:
        from crewkg.api.careers import timeline_ics

        sys.stdout.buffer.write(timeline_ics(result, lang.value))
        sys.stdout.flush()
    else:
        from crewkg.api.careers import timeline_text

        for line in timeline_text(result, lang.value):
            typer.echo(line)
