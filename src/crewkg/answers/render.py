"""Text output for people (rich): one table per certificate with ✓/✗ per pathway and, for every ✗,
exactly what is missing (the derivation of one certificate for `crewkg explain`: answers.explanation)."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from rich.console import Console, ConsoleDimensions
from rich.padding import Padding
from rich.table import Table

from crewkg.answers.lines import Line
from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import T
from crewkg.rules.kinds import cited, missing_sentence

#: below this many columns a certificate's pathways are listed line by line instead of in a table
NARROW = 100


def output_width(piped: int = 140) -> int:
    """The width of text for people: COLUMNS where it is a whole number of at least 40 (`COLUMNS=80 crewkg check … |
    less`, a terminal and a pipe alike); else the terminal's width when the output is a terminal, and `piped` columns
    for a file or a pipe (lines a program or a pager reads whole). Read when text is written, not when this module is
    imported."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) >= 40:
        return int(columns)
    try:
        terminal = os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 0
    except (AttributeError, ValueError, OSError):  # no file behind it (a test's capture), or no terminal after all
        terminal = 0
    return max(40, terminal) if terminal else piped  # a pseudo-terminal may report 0 columns


class _OutputConsole(Console):
    """A console as wide as `output_width()` says each time it prints: a COLUMNS set after this module was imported
    (a second command in the same process) is honoured, and nothing is changed on the console to say it (threads
    that share it read the same width)."""

    @property
    def size(self) -> ConsoleDimensions:
        return ConsoleDimensions(output_width(), super().size.height)


# emoji=False: the law, ids and SPARQL values are printed as written (no ":name:" turned into a picture), and
# it spares a regex pass per cell (a third of the rendering time of a check).
console = _OutputConsole(highlight=False, soft_wrap=False, emoji=False)


def print_answer(law: Law, answer: dict[str, Any], lang: str, every: bool = True) -> None:
    """One person's check answer on the terminal: the summary first (`answers.overview`), then the certificates that
    concern the person, one line each, or (`every`) every certificate with every pathway in tables."""
    from crewkg.answers.overview import certificate_lines, summary_lines

    t = T[lang]
    regulation = answer["regulation"] or t["crew.cli.no_regulation"]  # before any encoded regulation: no empty slot
    console.print(f"[bold]{answer['person']}[/bold] — {regulation} — {answer['as_of']}")
    if not answer.get("covered", True):
        console.print(f"{t['not_covered']}: {_no_regulation(law, answer, lang)}")
        return
    print_lines(summary_lines(law, answer, lang, every))
    if not every and answer.get("summary"):
        print_lines(certificate_lines(law, answer, lang))
        _print_notes(law, answer, lang, summarised=True)
        console.print()
        return
    _print_tables(law, answer, lang)
    _print_notes(law, answer, lang, summarised=False)
    console.print()


def print_lines(lines: list[Line]) -> None:
    """Lines on the terminal; an indented line that opens with a mark (a number, a dash, ✓ or ✗) wraps under its own
    text, not under the mark (a hanging indent)."""
    from rich.text import Text

    for line in lines:
        m = _MARK.match(line.text)
        if m is None or not (m.group(1) or m.group(2)):
            console.print(line.text, style=line.style)
            continue
        lead = Text.from_markup(m.group(0))
        body = Text.from_markup(line.text[len(m.group(0)):])
        for i, part in enumerate(body.wrap(console, max(console.width - lead.cell_len, 20))):
            part.rstrip()
            console.print((lead if i == 0 else Text(" " * lead.cell_len)) + part, style=line.style, soft_wrap=True)


#: a line's indent and the mark it opens with ("1. ", "– ", "[green]✓[/green] ")
_MARK = re.compile(r"( *)((?:\d+\.|–|\[\w+\][✓✗]\[/\w+\]) )?")


def _print_tables(law: Law, answer: dict[str, Any], lang: str) -> None:
    """Every certificate of the regulation with every pathway: ✓/✗ and, for every ✗, exactly what is missing."""
    t = T[lang]
    for c in answer["certificates"]:
        if c["covered"]:
            verdict = f"[green]✓ {t['eligible']}[/green]" if c["eligible"] else f"[red]✗ {t['not_eligible']}[/red]"
        else:
            verdict = f"[yellow]? {t['not_covered']}[/yellow]"
        console.print(f"[bold]{c['label']}[/bold] ({c['provision']}) — {verdict}")
        if console.width < NARROW:
            _print_pathways_narrow(law, c, lang)
            continue
        table = Table(show_lines=False)
        table.add_column(t["pathway"], no_wrap=True)
        table.add_column(t["result"], justify="center")
        table.add_column(t["missing"])
        if not c["covered"]:
            table.add_row(c["provision"], "?", t["not_in_sources"].format(provision=c["provision"]))
        for w in c["pathways"]:
            mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
            missing = "\n".join(missing_sentence(law, m, lang) for m in w["missing"]) or t["none"]
            table.add_row(w["provision"], mark, missing + _open_until(w, lang))
        console.print(table)


def _print_notes(law: Law, answer: dict[str, Any], lang: str, summarised: bool) -> None:
    """The roles and what the record says that the verdicts alone do not; the roles and the lapses only where no
    summary said them first."""
    t = T[lang]
    if not summarised:
        console.print(f"{t['roles']}: {', '.join(law.label(r, lang) for r in answer['roles']) or t['none']}")
    for w in answer.get("roles_withheld", []):
        console.print(f"{t['roles_withheld']}: {law.label(w['role'], lang)} — {w['text']}")
    for x in [] if summarised else answer.get("lapsed", []):
        console.print(f"{t['lapsed']}: {x['text']} ({cited(x['provision'], lang)})")
    for x in answer.get("not_yet_issued", []):
        console.print(f"{t['not_yet_issued']}: {x['text']}")
    for x in answer.get("warnings", []):
        console.print(f"{t['warning']}: {x['text']}")
    for x in answer.get("other_readings", []):
        console.print(f"{t['other_reading']}: {x['text']} ({cited(x['provision'], lang)})")
    for x in answer.get("undated_early", []):
        console.print(f"{t['undated_early']}: {x['text']}")
    for x in answer.get("dated_forms", []):
        console.print(f"{t['dated_form']}: {x['text']}")
    for x in [] if summarised else answer.get("medical_not_checked", []):
        console.print(f"{t['medical_not_checked']}: {x['text']}")


def role_names(law: Law, lang: str) -> str:
    """Once per output: the names the text uses for the deck roles beside the regulation's own German terms. English
    output speaks the Directive's English; where every name is the regulation's own term (German output) there is
    nothing to explain and the line is left out."""
    roles = sorted(law.ids_of("DeckCrewRole"), key=law.depth)
    if all(law.short_label(r, lang) == law.short_label(r, "de") for r in roles):
        return ""
    t = catalogue(lang)
    names = ", ".join(t["cli.role_name"].format(name=law.short_label(r, lang), term=law.short_label(r, "de")) for r in roles)
    return t["cli.role_names"].format(names=names)


def print_role_names(law: Law, lang: str) -> None:
    text = role_names(law, lang)
    if text:
        console.print(text, style="dim")


def _print_pathways_narrow(law: Law, c: dict[str, Any], lang: str) -> None:
    """A certificate's pathways as lines for a narrow terminal: the provision with ✓/✗, then each missing
    requirement on its own line, wrapped at words under its own indent."""
    t = T[lang]
    if not c["covered"]:
        console.print(Padding(f"? {t['not_in_sources'].format(provision=c['provision'])}", (0, 0, 0, 2), expand=False))
    for w in c["pathways"]:
        mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
        console.print(Padding(f"{mark} {w['provision']}{_open_until(w, lang)}", (0, 0, 0, 2), expand=False))
        for m in w["missing"]:
            console.print(Padding(f"– {missing_sentence(law, m, lang)}", (0, 0, 0, 6), expand=False))


def _open_until(w: dict[str, Any], lang: str) -> str:
    """A pathway open only until a last day (a met requirement counted in dates, e.g. § 47 SchBV): that day."""
    days = [r for r in w["requirements"] if r.get("unit") == "date" and r.get("met")]
    return "".join("\n" + catalogue(lang)["cli.open_until"].format(last=r["needed"], provision=r["provision"]) for r in days)


def _no_regulation(law: Law, answer: dict[str, Any], lang: str) -> str:
    """Why a date is not covered, in `lang`: no encoded regulation governs certificates on it (the JSON `reason`
    says the same)."""
    first = law.first_regulation()
    return catalogue(lang)["cli.no_regulation"].format(as_of=answer["as_of"], first=first.name,
                                                      since=first.in_force_from.isoformat())
