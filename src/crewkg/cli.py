"""The crewkg command line. Thin: every answer comes from the library calls in answers.py, so the CLI,
the HTTP API and the RDF export never disagree. Bad input exits 2 with one message, and nothing is written.

No `from __future__ import annotations` here or in cli_*.py: typer reads every command's signature on each call,
and string annotations would be evaluated again for every command (~20 ms of a cold `crewkg check`)."""

import json
import sys
from datetime import date
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from .errors import InputError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Austrian inland-navigation crew law as a knowledge graph.")


class Format(str, Enum):
    text = "text"
    json = "json"


class Lang(str, Enum):
    de = "de"
    en = "en"


def _fail(exc: InputError) -> None:
    typer.echo(f"crewkg: error: {exc.message()}", err=True)
    raise typer.Exit(2)


def json_text(value: object) -> str:
    """The JSON form every command prints or writes: UTF-8 as is (German wording stays readable), indented."""
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def _as_of(value: str | None) -> date:
    if value is None:
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError:
        _fail(InputError("--as-of", "as_of", "an ISO date YYYY-MM-DD", value))
    raise AssertionError  # unreachable


def _load(path: Path, as_of: date):
    from .law import load_law
    from .persons import load_persons

    law = load_law()
    return law, load_persons(path, law, as_of)


@app.command()
def check(
    person: Annotated[Path, typer.Argument(help="A person record (YAML, JSON, Turtle) or a folder of records.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the text output.")] = Lang.de,
) -> None:
    """Which certificates can be issued to a person, and for every pathway exactly what is missing."""
    day = _as_of(as_of)
    try:
        law, persons = _load(person, day)
        from .answers import check as run_check

        answers = run_check(law, persons, day, lang.value)
    except InputError as exc:
        _fail(exc)
        return
    if fmt is Format.json:
        out = answers if person.is_dir() else answers[0]
        sys.stdout.write(json_text(out))
        return
    from .render import print_answer

    for a in answers:
        print_answer(law, a, lang.value)


@app.command()
def explain(
    person: Annotated[Path, typer.Argument(help="A person record (YAML, JSON or Turtle).")],
    certificate: Annotated[str, typer.Argument(help="Certificate id, e.g. UBZ-Steuermann.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    lang: Annotated[Lang, typer.Option("--lang")] = Lang.de,
) -> None:
    """The derivation for one certificate: which facts met which requirement, with provision and quoted text."""
    day = _as_of(as_of)
    try:
        law, persons = _load(person, day)
        if len(persons) != 1:
            raise InputError(str(person), "", "exactly one person record")
        if certificate not in law.certificates:
            raise InputError("CERTIFICATE", "certificate", f"a certificate id, one of {sorted(law.certificates)}", certificate)
        from .answers import check as run_check

        answer = run_check(law, persons, day, lang.value)[0]
    except InputError as exc:
        _fail(exc)
        return
    from .render import print_explanation

    print_explanation(law, persons[0], answer, certificate, lang.value)


# Commands of the other capabilities register themselves on `app`; their modules import nothing heavy at
# module level, so `crewkg check` stays fast.
from . import cli_careers, cli_crew, cli_service  # noqa: E402,F401


def main() -> None:  # pragma: no cover - console entry for python -m
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
