"""A line of text for people, as data: what the check summary and an explanation are made of, so every face (the
terminal, the web page, a program through the API) renders the same lines its own way."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One line for people, as data: its text (rich markup: [bold], [green]✓[/green] …) and the style of the whole
    line (italic for the law's wording, dim for notes)."""

    text: str
    style: str | None = None
