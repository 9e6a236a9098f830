"""The crewkg command line. Thin: every answer comes from the library calls in answers.py, so the CLI,
the HTTP API and the RDF export never disagree. Bad input exits 2 with one message, and nothing is written.

No `from __future__ import annotations` here or in cli_*.py: typer reads every command's signature on each call,
and string annotations would be evaluated again for every command (~20 ms of a cold `crewkg check`)."""

import json
from datetime import date
from enum import Enum
from typing import NoReturn

import typer

from crewkg.cli.usage import CatalogueGroup
from crewkg.errors import InputError
from crewkg.messages.catalogue import say

app = typer.Typer(cls=CatalogueGroup, add_completion=False, no_args_is_help=True, help="Austrian inland-navigation crew law as a knowledge graph.")


class Format(str, Enum):
    text = "text"
    json = "json"


class Lang(str, Enum):
    de = "de"
    en = "en"


def _fail(exc: InputError, lang: str) -> NoReturn:
    """Bad input: one message in the command's language (`--lang`; English for the commands without it), exit 2."""
    typer.echo(say(lang, "error.line", message=exc.message(lang)), err=True)
    raise typer.Exit(2)


def json_text(value: object) -> str:
    """The JSON form every command prints or writes: UTF-8 as is (German wording stays readable), indented."""
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def _as_of(value: str | None, lang: str) -> date:
    if value is None:
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError:
        _fail(InputError("--as-of", "as_of", "iso_date", value), lang)
