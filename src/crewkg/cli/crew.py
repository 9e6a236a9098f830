"""Minimum crew commands (issue 3): `crewkg crew`. Imports inside the commands keep `crewkg check` fast.

The command is thin: the answer comes from crewkg.api.crew (the same call the HTTP API makes); this module
only prints it — JSON for programs, and for people the table row that applies, why, and the roster verdict.
"""

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from crewkg.cli.common import Format, Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError
from crewkg.messages.sections import section


@app.command()
def crew(
    vessel: Annotated[Path, typer.Argument(help="A vessel record (YAML or JSON).")],
    roster: Annotated[Path | None, typer.Option("--roster", help="A roster record (YAML or JSON) to check against the minimum crew.")] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); selects the law in force. Default today.")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the text output.")] = Lang.de,
    school_attendance: Annotated[bool, typer.Option("--school-attendance", help="Apply the temporary reductions for school or programme attendance (at most three months a year).")] = False,
) -> None:
    """The minimum crew of a vessel under the law in force on a date, and whether a roster fills it.

    Exit status (text and JSON alike): 0 when the roster fills the minimum crew, or no roster is given; 1 when a
    roster is given and does not fill it or cannot be confirmed to (not satisfied, cannot be decided, the minimum crew
    not covered by the sources); 2 for bad input (one message on standard error, nothing on standard output)."""
    day = _as_of(as_of, lang.value)
    try:
        from crewkg import api

        law = api.law()
        answer = api.crew(vessel, roster, day, lang.value, school_attendance)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if fmt is Format.json:
        sys.stdout.write(json_text(answer))
    else:
        print_crew(law, answer, lang.value)
    if roster is not None and answer["roster"]["satisfied"] is not True:
        raise typer.Exit(1)  # a script can gate on the roster: only a confirmed verdict passes


def _counts(law, counts: dict[str, int], lang: str) -> str:
    """'1 × Schiffsführer…, 2 × Matrosin bzw. Matrose': the labels are singular (the kb has no plural forms)."""
    return ", ".join(f"{n} × {law.label(role, lang)}" for role, n in counts.items()) or section("crew.cli.", lang)["none"]


def print_crew(law, a: dict[str, Any], lang: str) -> None:
    """The answer for people: the row that applies, why, the functions, and the roster verdict."""
    from rich.console import Console

    from crewkg.api.texts import output_width

    t = section("crew.cli.", lang)
    con = Console(highlight=False, soft_wrap=True, width=output_width(), emoji=False)
    con.print(f"[bold]{a['vessel']}[/bold] — {a.get('regulation') or t['no_regulation']} — {a['as_of']}")
    if not a["covered"]:
        con.print(f"[yellow]? {t['not_covered']}[/yellow]" + (f" ({a['provision']})" if a.get("provision") else ""))
        con.print(f"{t['reason']}: {a['reason']}")
        if a.get("provisions"):
            con.print(f"{t['authority']}: {', '.join(a['provisions'])}")
        for r in a.get("rows", []):
            con.print(f"  {t['rows']}: " + t["stufe"].format(stufe=r["stufe"]) + f": „{r['row']}“")
        if a.get("known_rules"):
            con.print(f"{t['rules']}:")
            for r in a["known_rules"]:
                con.print(f"  • {r['text']}" + ("" if r["provision"] in r["text"] else f" ({r['provision']})"))
        if a.get("function_row"):  # the passenger-safety row holds without a nautical row
            _print_functions(con, law, a, t, lang)
        if a.get("last_known"):
            lk = a["last_known"]
            con.print(f"\n[bold]{t['last_known']}[/bold]: {lk['note']}")
            if lk.get("covered"):
                con.print(f"  {lk['provision']}, " + t["stufe"].format(stufe=lk["stufe"]) + f": „{lk['row']}“")
                for i, alt in enumerate(lk["alternatives"]):
                    con.print(f"  {t['alternative']} {i + 1}: {_counts(law, alt, lang)}")
            else:
                con.print(f"  {lk.get('reason', '')}")
        _print_roster(law, a, con, t, lang)
        _print_readings(law, a, con, t, lang)
        _print_role_names(law, con, lang)
        return
    con.print(f"{t['crew']}: [bold]{a['provision']}, " + t["stufe"].format(stufe=a["stufe"]) + "[/bold] "
              + t["column"].format(standard=a["standard"]))
    con.print(f"  {t['row']}: „{a['row']}“", style="italic")
    con.print(f"  {t['why']}: " + "; ".join(a["why"]))
    for i, alt in enumerate(a["alternatives"]):
        prefix = f"{t['alternative']} {i + 1}: " if len(a["alternatives"]) > 1 else ""
        con.print(f"  → {prefix}[bold]{_counts(law, alt, lang)}[/bold]")
    for adj in a["adjustments"]:
        idle = len(adj.get("no_effect_on", [])) == len(adj.get("alternatives", [])) > 0  # nothing to remove in the cell
        con.print(f"  {t['adjusted']}: {adj['text']}" + (t["no_effect"] if idle else ""))
    for adj in a["temporary_reductions_available"]:
        con.print(f"  {t['temporary']}: {adj['text']}")
    if a["substitutions"]:
        con.print(f"{t['substitutions']}: " + "; ".join(f"{s['text']}" for s in a["substitutions"]))
    for q in a.get("qualification_proofs", []):
        con.print(f"{t['proofs']}: {q['text']}")
    _print_functions(con, law, a, t, lang)
    for x in a["transitional"]:
        con.print(t["transitional_line"].format(provision=x["provision"], until=x["until"], reason=x["reason"]), style="dim")
    if a["notes"]:
        con.print(f"{t['notes']}:", style="dim")
        for n in a["notes"]:
            con.print(f"  • {n}", style="dim")
    _print_roster(law, a, con, t, lang)
    _print_readings(law, a, con, t, lang)
    _print_role_names(law, con, lang)


def _print_role_names(law, con, lang: str) -> None:
    from crewkg.api.texts import role_names

    text = role_names(law, lang)
    if text:
        con.print(text, style="dim")


def _print_readings(law, a: dict[str, Any], con, t: dict[str, str], lang: str) -> None:
    """Each doubtful provision that reaches the vessel: the reading applied, the other reading, what the other one
    would require, and the roster verdict under it."""
    if not a.get("readings"):
        return
    con.print(f"\n[bold]{t['readings']}[/bold]")
    for r in a["readings"]:
        con.print(f"  {r['provision']}")
        con.print(f"    {t['reading_applied']}: {r['applied']}")
        con.print(f"    {t['reading_other']}: {r['other']}")
        u = r["under_other_reading"]
        if not r["differs"] or (u.get("covered") and u["alternatives"] == a.get("alternatives") and u["functions"] == a.get("functions")):
            con.print(f"    {t['reading_same']}")
        elif u.get("covered"):
            alts = " | ".join(_counts(law, alt, lang) for alt in u["alternatives"])
            con.print(f"    {t['reading_would']}: {u['provision']}, Stufe {u['stufe']}: {alts}")
            f = u["functions"]
            parts = [f"{n} × {law.label(k, lang)}" for k, n in f.items() if isinstance(n, int) and not isinstance(n, bool) and k != "FirstAid"
                     and n != a["functions"].get(k)] if a.get("functions") else []
            if a.get("functions") and f.get("engine") != a["functions"].get("engine"):
                parts.append(f"{t['engine']}: {law.label(f['engine'], lang) if f['engine'] else t['none']}")
            if parts:
                con.print(f"      {t['functions']}: " + "; ".join(parts))
        else:
            con.print(f"    {t['reading_would']}: {t['not_covered']} — {u.get('reason', '')}")
        ro = r.get("roster")
        if ro is None:
            continue
        verdict = {True: t["satisfied"], False: t["not_satisfied"], None: t["undecided"]}[ro["satisfied"]]
        same = t["reading_differs"] if ro["verdict_differs"] else t["reading_agrees"]
        con.print(f"    {t['reading_roster']}: {verdict} ({same})")
        for x in ro["fills"]:
            con.print(f"      {t['reading_fills']}: {law.label(x['role'], lang)} ({', '.join(x['persons']) or t['none']})")
        for x in ro["not_required"]:
            con.print(f"      {t['reading_not_required']}: {law.label(x['role'], lang)}")
        for m in ro["leaves_open"]:
            con.print(f"      {t['reading_opens']}: {m['fill_with']} ({m['provision']})")


def _print_roster(law, a: dict[str, Any], con, t: dict[str, str], lang: str) -> None:
    from rich.markup import escape

    from crewkg.api.texts import cited

    r = a.get("roster")
    if r is None:
        return
    verdict = {True: f"[green]✓ {t['satisfied']}[/green]", False: f"[red]✗ {t['not_satisfied']}[/red]",
               None: f"[yellow]? {t['undecided']}[/yellow]"}[r["satisfied"]]
    alt = f" ({t['alternative']} {r['alternative'] + 1})" if r.get("alternative") is not None and len(a.get("alternatives") or []) > 1 else ""
    con.print(f"\n[bold]{t['roster']}[/bold]: {verdict}{alt}")
    if r.get("reason"):
        con.print(f"  {r['reason']}")
    for d in r.get("details", []):
        via = t[f"via_{d['via']}"] + (f" {law.label(d['as'], lang)} ({d['substitution_provision']})" if d["via"] == "substitution" else "")
        if d.get("proof_provision"):  # a qualification the vessel's waters let the record prove (§ 6 Abs. 6 SchBesV)
            proven = f"{t['via_waters']} {law.label(d['certificate'], lang)} ({d['certificate_provision']}, {d['proof_provision']})"
            via = f"{via}; {proven}" if d["via"] == "substitution" else proven
        elif d["via"] == "record":
            via += f" {law.label(d['certificate'], lang)} ({d['certificate_provision']})"
        con.print(f"  {d['person']} → {law.label(d['role'], lang)} " + escape(f"[{via}]"))  # '[' starts rich markup
    for key in ("lapsed", "not_yet_issued", "undated_early", "medical_not_checked"):
        for pid, found in r.get(key, {}).items():
            for x in found:
                cite = x.get("provision") if x.get("provision") and x["provision"] not in x["text"] else None
                con.print(f"  [yellow]![/yellow] {pid}: {x['text']}" + (f" ({cited(cite, lang)})" if cite else ""))
    for q in r.get("qualifications", []):
        mark = "[green]✓[/green]" if q["met"] else "[red]✗[/red]"
        con.print(f"  {mark} {law.label(q['function'], lang)}: {len(q['have'])}/{q['needed']} "
                  f"({', '.join(q['have']) or t['none']}) ({q['provision']})")
    if r.get("missing"):
        con.print(f"  {t['missing']}:")
        shown: list[tuple[str, str]] = []
        for m in r["missing"]:
            line = (m["fill_with"], m["provision"])
            if line in shown:  # a second open place of the same kind: counted on the first one's line
                continue
            times = sum(1 for x in r["missing"] if (x["fill_with"], x["provision"]) == line)
            shown.append(line)
            count = f"{times} × " if times > 1 else ""
            con.print(f"   [red]✗[/red] {count}{m['fill_with']} ({m['provision']})")
            for nm in m.get("near_misses", []):
                con.print("      " + t["near_miss"].format(person=nm["person"], role=law.label(nm["as"], lang),
                                                   lacks="; ".join(nm["lacks"]), provision=nm["provision"]))
    for other in r.get("other_alternatives", []):  # the other ways out of the same table row
        lacks = "; ".join(f"{m['count']} × {law.label(m['role'], lang)} ({m['provision']})" for m in other["missing"])
        con.print("  " + t["other_alternative"].format(n=other["alternative"] + 1, lacks=lacks))


def _print_functions(con, law, a: dict, t: dict, lang: str) -> None:
    """The functions the vessel needs ('n × label', as _counts writes roles: the kb's labels are singular) and the
    passenger-safety row they come from."""
    f = a["functions"]
    parts = [f"{n} × {law.label(k, lang)}" for k, n in f.items() if isinstance(n, int) and not isinstance(n, bool) and n > 0 and k != "FirstAid"]
    parts.append(f"{t['first_aid']}: {f['FirstAid']}")
    parts.append(f"{t['engine']}: {law.label(f['engine'], lang) if f['engine'] else t['none']}")
    if f.get("SachkundigerLNG"):
        parts.append(t["lng"])
    con.print(f"{t['functions']}: " + "; ".join(parts))
    if a.get("function_row"):
        con.print(f"  „{a['function_row']}“ ({a['function_provisions'].get('FahrgastErsthelfer', '')})", style="italic")
