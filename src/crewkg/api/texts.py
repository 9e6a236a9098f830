"""The answers as text for people, for the CLI: the check tables and the line that names the roles (crewkg.answers.render
writes them; the faces ask here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkg.law.statute import Law


def output_width(piped: int = 140) -> int:
    """How wide text for people is written: COLUMNS (a whole number of at least 40), else the terminal's width, else
    `piped` columns for a file or a pipe (crewkg.answers.render.output_width, the one home of the width)."""
    from crewkg.answers.render import output_width as width

    return width(piped)


def cited(citation: str, lang: str) -> str:
    """A provision as text for people cites it, said to be paraphrased where the kb paraphrases it (the one home:
    crewkg.rules.kinds.cited)."""
    from crewkg.rules.kinds import cited as said

    return said(citation, lang)


def print_answer(law: Law, answer: dict[str, Any], lang: str, every: bool = False) -> None:
    """One person's check answer on the terminal: its summary, then the certificates that concern the person, or
    (`every`) every certificate with every pathway."""
    from crewkg.answers.render import print_answer as show

    show(law, answer, lang, every)


def role_names(law: Law, lang: str) -> str:
    """The line that maps the output's role names to the regulation's German terms ('' where they are the same)."""
    from crewkg.answers.render import role_names as names

    return names(law, lang)


def print_role_names(law: Law, lang: str) -> None:
    """That line, once per output, where there is one."""
    from crewkg.answers.render import print_role_names as show

    show(law, lang)


def explained(law: Law, person: Any, answer: dict[str, Any], certificate: str, lang: str,
              terminal: bool = False) -> dict[str, Any]:
    """The derivation of one certificate from its answer: ``{"tree": <as data>, "text": <as `crewkg explain` prints
    it>}`` (crewkg.answers.explanation)."""
    from crewkg.answers.explanation import derivation, lines, text_of

    tree = derivation(law, person, answer, certificate, lang)
    return {"tree": tree, "text": text_of(lines(tree), terminal)}
