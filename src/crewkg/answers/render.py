"""Text output for people (rich): one table per certificate with ✓/✗ per pathway and, for every ✗,
exactly what is missing; and the derivation of one certificate for `crewkg explain`."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import T, missing_sentence
from crewkg.records.persons import Person

# emoji=False: the law, ids and SPARQL values are printed as written (no ":name:" turned into a picture), and
# it spares a regex pass per cell (a third of the rendering time of a check).
console = Console(highlight=False, soft_wrap=False, width=140, emoji=False)


def print_answer(law: Law, answer: dict[str, Any], lang: str) -> None:
    t = T[lang]
    console.print(f"[bold]{answer['person']}[/bold] — {answer['regulation'] or ''} — {answer['as_of']}")
    if not answer.get("covered", True):
        console.print(f"{t['not_covered']}: {_no_regulation(law, answer, lang)}")
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
    for w in answer.get("roles_withheld", []):
        console.print(f"{t['roles_withheld']}: {law.label(w['role'], lang)} — {w['text']}")
    console.print()


def _no_regulation(law: Law, answer: dict[str, Any], lang: str) -> str:
    """Why a date is not covered, in `lang`: no encoded regulation governs certificates on it (the JSON `reason`
    says the same in English)."""
    with_paths = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
    first = min((r for r in law.regulations.values() if r.id in with_paths), key=lambda r: r.in_force_from)
    return catalogue(lang)["cli.no_regulation"].format(as_of=answer["as_of"], first=first.name,
                                                      since=first.in_force_from.isoformat())


def _value(x: Any, t: dict[str, str]) -> str:
    """A needed/have value for people: yes/no for a document, ids joined for a list, "—" for nothing."""
    if isinstance(x, bool):
        return t["cli.yes"] if x else t["cli.no"]
    if isinstance(x, (list, tuple)):
        return ", ".join(str(v) for v in x) or t["none"]
    return "—" if x is None else str(x)


def _facts(req: dict[str, Any], p: Person, lang: str = "de") -> str:
    """The record entries the requirement was decided on."""
    t = catalogue(lang)
    none = t["none"]
    kind = req["kind"]
    if kind == "MinimumAge":
        return f"birth_date = {p.birth_date}, age = {req['have']}"
    if kind == "Fahrzeit":
        if req.get("role"):
            return f"sailing_days.{req['role']} = {p.sailing_days.get(req['role'], 0)}"
        parts = ", ".join(f"{k} {v}" for k, v in p.sailing_days.items()) or none
        return f"sailing_days = {req['have']} ({parts})"
    if kind == "SeaTime":
        return f"sea_days = {req['have']} ({req['capacity']})"
    if kind in ("Programme", "ProgrammeFahrzeit"):
        progs = [t["cli.facts.programme"].format(role=g.role, months=g.months, within=g.sailing_days, after=g.sailing_days_after)
                 for g in p.programmes]
        return "programmes: " + ("; ".join(progs) or none)
    if kind == "ProfessionalExperience":
        return f"professional_experience_years = {p.professional_experience_years}"
    if kind == "VocationalTraining":
        return f"vocational_training_years = {p.vocational_training_years}"
    if kind == "Exam":
        return f"exams = {_value(p.exams, t)}"
    if kind == "CertificateHeld":
        return f"certificates = {_value(p.certificates, t)}"
    if kind == "Document":
        until = t["cli.facts.valid_until"].format(until=req["valid_until"]) if req.get("valid_until") else ""
        return f"{req['document']} = {_value(req['have'], t)}{until}"
    return ""


def _explain_req(law: Law, req: dict[str, Any], p: Person, lang: str, depth: int) -> None:
    pad = "    " * depth
    mark = "[green]✓[/green]" if req["met"] else "[red]✗[/red]"
    console.print(f"{pad}{mark} {req['text']} — {req['provision']}")
    if depth == 1 or req["kind"] not in ("AnyOf", "AllOf"):
        wording = law.provisions[law.requirements[req["id"]].provision].wording
        if depth == 1:
            console.print(f"{pad}    " + catalogue(lang)["cli.explain.wording"].format(wording=wording), style="italic")
    if req["kind"] in ("AnyOf", "AllOf"):
        for child in req.get("alternatives") or req.get("parts") or []:
            _explain_req(law, child, p, lang, depth + 1)
        return
    t = catalogue(lang)
    unit = t.get(f"cli.unit.{req['unit']}", req["unit"])
    needed = t["cli.explain.needed"].format(needed=_value(req["needed"], t), unit=unit, have=_value(req["have"], t))
    console.print(f"{pad}    {_facts(req, p, lang)}; {needed}")
    if not req["met"]:
        console.print(f"{pad}    → {missing_sentence(law, req, lang)}")


def print_explanation(law: Law, p: Person, answer: dict[str, Any], cert_id: str, lang: str) -> None:
    t = catalogue(lang)
    c = next((c for c in answer["certificates"] if c["id"] == cert_id), None)
    if c is None:
        why = _no_regulation(law, answer, lang) if not answer.get("covered", True) else t["cli.not_in_force"]
        console.print(f"{cert_id}: {t['not_covered']} ({why})")
        return
    verdict = T[lang]["eligible"] if c["eligible"] else (T[lang]["not_eligible"] if c["covered"] else T[lang]["not_covered"])
    console.print(f"[bold]{p.id}[/bold]: {c['label']} ({c['provision']}) — {verdict} — {answer['as_of']}")
    if not c["covered"]:
        console.print(t["not_in_sources"].format(provision=c["provision"]))
    for w in c["pathways"]:
        mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
        console.print(f"\n{mark} [bold]{w['label']}[/bold]")
        wid = w["id"]
        console.print("  " + t["cli.explain.wording"].format(wording=law.provisions[law.pathways[wid].provision].wording),
                      style="italic")
        for req in w["requirements"]:
            _explain_req(law, req, p, lang, 1)
        for rid in [w["id"]]:
            for note in law.provisions[law.pathways[rid].provision].notes:
                console.print("  " + t["cli.explain.note"].format(note=note), style="dim")
