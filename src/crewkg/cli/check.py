"""`crewkg check` and `crewkg explain`: eligibility per certificate, and the derivation of one certificate."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Format, Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError


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
        from crewkg.api import check as api_check
        from crewkg.api import law as api_law

        law = api_law()
        answers = api_check(person, day, lang.value)
    except InputError as exc:
        _fail(exc)
        return
    if fmt is Format.json:
        sys.stdout.write(json_text(answers))
        return
    from crewkg.answers.render import print_answer

    for a in answers if isinstance(answers, list) else [answers]:
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
        from crewkg.api import explain as api_explain

        out = api_explain(person, certificate, day, lang.value)
    except InputError as exc:
        _fail(exc)
        return
    sys.stdout.write(out["text"])
