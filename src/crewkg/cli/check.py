"""`crewkg check` and `crewkg explain`: eligibility per certificate, and the derivation of one certificate."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Format, Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


@app.command()
def check(
    person: Annotated[Path, typer.Argument(help="A person record (YAML, JSON, Turtle), a folder of records, or a register: "
                                                 "a JSON Lines file (.jsonl) or a CSV of flat records (.csv).")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    fmt: Annotated[CheckFormat, typer.Option("--format", help="text for people, json for programs, jsonl: one compact line per person (registers).")] = CheckFormat.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the text output.")] = Lang.de,
    out: Annotated[Path | None, typer.Option("--out", help="Write the answer to this file (atomically) instead of standard output; with --format json or jsonl.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes for a register (default: the cores).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Text: list every certificate with every pathway (default: the summary and the certificates that concern the person). JSON always lists every one.")] = False,
) -> None:
    """Which certificates can be issued to a person, and for every pathway exactly what is missing: the summary first
    (roles, issuable now, what no longer counts, the next steps)."""
    day = _as_of(as_of, lang.value)
    if workers is not None and workers < 1:
        _fail(InputError("--workers", "workers", "workers", workers), lang.value)
    if out is not None and fmt is CheckFormat.text:  # the tables are for a terminal; --out wrote an empty file
        _fail(InputError("--out", "out", "out_format", str(out)), lang.value)
    if fmt is CheckFormat.jsonl or person.suffix.lower() in (".jsonl", ".ndjson", ".csv"):
        from crewkg.cli.register import check_register

        check_register(person, day, fmt.value, lang.value, out, workers, every)
        return
    from crewkg import api
    from crewkg.api import records

    try:
        law = api.law()
        loaded = records.each(person, law, day)
        if not person.is_dir() and records.is_problem(loaded[0]):
            raise loaded[0].first
        # a folder: every good record answered in file order, every bad one named where it stands with all its
        # errors (records.problems), exit 1 if any failed
        results = list(records.answered(loaded, law, day, lang.value))
    except InputError as exc:
        _fail(exc, lang.value)
    failed = [x for x in results if records.is_problem(x)]
    if fmt is CheckFormat.json:
        entries = [x.entry(lang.value) if records.is_problem(x) else x for x in results]
        text = json_text(entries if person.is_dir() else entries[0])
        if out is not None:
            from crewkg.outputs import write_atomically

            try:
                write_atomically(out, [text], inputs=[person])
            except InputError as exc:
                _fail(exc, lang.value)
        else:
            sys.stdout.write(text)
    else:
        from crewkg.api.texts import print_answer, print_role_names

        for x in results:
            if records.is_problem(x):
                for line in x.lines(lang.value):
                    typer.echo(line, err=True)
            else:
                print_answer(law, x, lang.value, every)
        print_role_names(law, lang.value)
    if failed:
        typer.echo(records.summary(len(failed), lang.value), err=True)
        raise typer.Exit(1)


@app.command()
def explain(
    person: Annotated[Path, typer.Argument(help="A person record (YAML, JSON or Turtle).")],
    certificate: Annotated[str, typer.Argument(help="Certificate id, e.g. UBZ-Steuermann.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs: the derivation as a tree.")] = Format.text,
) -> None:
    """The derivation for one certificate: which facts met which requirement, with provision and quoted text."""
    day = _as_of(as_of, lang.value)
    try:
        from crewkg.api import explain as api_explain

        out = api_explain(person, certificate, day, lang.value, terminal=sys.stdout.isatty() and fmt is Format.text)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    sys.stdout.write(json_text(out["tree"]) if fmt is Format.json else out["text"])
