"""Text output for people (rich): one table per certificate with ✓/✗ per pathway and, for every ✗,
exactly what is missing; and the derivation of one certificate for `crewkg explain`."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from crewkg.law.statute import Law
from crewkg.messages.wording import T, missing_sentence
from crewkg.records.persons import Person

# emoji=False: the law, ids and SPARQL values are printed as written (no ":name:" turned into a picture), and
# it spares a regex pass per cell (a third of the rendering time of a check).
console = Console(highlight=False, soft_wrap=False, width=140, emoji=False)


def print_answer(law: Law, answer: dict[str, Any], lang: str) -> None:
    t = T[lang]
    console.print(f"[bold]{answer['person']}[/bold] — {answer['regulation'] or ''} — {answer['as_of']}")
    if not answer.get("covered", True):
        console.print(f"{t['not_covered']}: {answer['reason']}")
        return
    for c in answer["certificates"]:
        if c["covered"]:
            verdict = f"[green]✓ {t['eligible']}[/green]" if c["eligible"] else f"[red]✗ {t['not_eligible']}[/red]"
        else:
            verdict = f"[yellow]? {t['not_covered']}[/yellow]"
        console.print(f"[bold]{c['label']}[/bold] ({c['provision']}) — {verdict}")
        table = Table(show_lines=False)
        table.add_column(t["pathway"], no_wrap=True)
        table.add_column(t["result"], justify="center")
        table.add_column(t["missing"])
        if not c["covered"]:
            table.add_row(c["provision"], "?", t["not_in_sources"].format(provision=c["provision"]))
        for w in c["pathways"]:
            mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
            missing = "\n".join(missing_sentence(law, m, lang) for m in w["missing"]) or t["none"]
            table.add_row(w["provision"], mark, missing)
        console.print(table)
    console.print(f"{t['roles']}: {', '.join(law.label(r, lang) for r in answer['roles']) or t['none']}")
    console.print()


def _facts(req: dict[str, Any], p: Person) -> str:
    """The record entries the requirement was decided on."""
    kind = req["kind"]
    if kind == "MinimumAge":
        return f"birth_date = {p.birth_date}, age = {req['have']}"
    if kind == "Fahrzeit":
        if req.get("role"):
            return f"sailing_days.{req['role']} = {p.sailing_days.get(req['role'], 0)}"
        parts = ", ".join(f"{k} {v}" for k, v in p.sailing_days.items()) or "none"
        return f"sailing_days = {req['have']} ({parts})"
    if kind == "SeaTime":
        return f"sea_days = {req['have']} ({req['capacity']})"
    if kind in ("Programme", "ProgrammeFahrzeit"):
        progs = [f"{g.role} {g.months} months, {g.sailing_days} days within, {g.sailing_days_after} after" for g in p.programmes]
        return "programmes: " + ("; ".join(progs) or "none")
    if kind == "ProfessionalExperience":
        return f"professional_experience_years = {p.professional_experience_years}"
    if kind == "VocationalTraining":
        return f"vocational_training_years = {p.vocational_training_years}"
    if kind == "Exam":
        return f"exams = {p.exams or 'none'}"
    if kind == "CertificateHeld":
        return f"certificates = {p.certificates or 'none'}"
    if kind == "Document":
        return f"{req['document']} = {req['have']}" + (f" (valid until {req['valid_until']})" if req.get("valid_until") else "")
    return ""


def _explain_req(law: Law, req: dict[str, Any], p: Person, lang: str, depth: int) -> None:
    pad = "    " * depth
    mark = "[green]✓[/green]" if req["met"] else "[red]✗[/red]"
    console.print(f"{pad}{mark} {req['text']} — {req['provision']}")
    if depth == 1 or req["kind"] not in ("AnyOf", "AllOf"):
        wording = law.provisions[law.requirements[req["id"]].provision].wording
        if depth == 1:
            console.print(f"{pad}    „{wording}“", style="italic")
    if req["kind"] in ("AnyOf", "AllOf"):
        for child in req.get("alternatives") or req.get("parts") or []:
            _explain_req(law, child, p, lang, depth + 1)
        return
    needed = req["needed"]
    console.print(f"{pad}    {_facts(req, p)}; needed {needed} {req['unit']}, have {req['have']}")
    if not req["met"]:
        console.print(f"{pad}    → {missing_sentence(law, req, lang)}")


def print_explanation(law: Law, p: Person, answer: dict[str, Any], cert_id: str, lang: str) -> None:
    c = next((c for c in answer["certificates"] if c["id"] == cert_id), None)
    if c is None:
        console.print(f"{cert_id}: {T[lang]['not_covered']} ({answer.get('reason', 'not in the regulation in force')})")
        return
    verdict = T[lang]["eligible"] if c["eligible"] else (T[lang]["not_eligible"] if c["covered"] else T[lang]["not_covered"])
    console.print(f"[bold]{p.id}[/bold]: {c['label']} ({c['provision']}) — {verdict} — {answer['as_of']}")
    if not c["covered"]:
        console.print(c["reason"])
    for w in c["pathways"]:
        mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
        console.print(f"\n{mark} [bold]{w['label']}[/bold]")
        wid = w["id"]
        console.print(f"  „{law.provisions[law.pathways[wid].provision].wording}“", style="italic")
        for req in w["requirements"]:
            _explain_req(law, req, p, lang, 1)
        for rid in [w["id"]]:
            for note in law.provisions[law.pathways[rid].provision].notes:
                console.print(f"  Note: {note}", style="dim")
