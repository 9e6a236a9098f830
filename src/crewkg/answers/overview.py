"""The answer first (`crewkg check` text): the summary a person reads before anything else — the roles they can
fill, what no longer counts and why, what is issuable now and since when, the next steps with their earliest day
and actions — then one line per certificate that concerns them (`answers.relevance`). Lines as data
(`answers.render.Line`), every sentence from the catalogue; `--all` adds today's full listing of every pathway."""

from __future__ import annotations

from typing import Any

from crewkg.answers import relevance
from crewkg.answers.lines import Line
from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds import cited

#: the next steps the text shows (the first by date); the JSON summary and `--all` give every one
SHOWN = 3


def summary_lines(law: Law, answer: dict[str, Any], lang: str, every: bool = False) -> list[Line]:
    """The summary: roles, lapses, issuable certificates, next steps (the first three, or `every` one; none of it for
    an answer without a summary)."""
    s = answer.get("summary")
    if not s:
        return []
    t = catalogue(lang)
    shown = len(s["next_steps"]) if every else SHOWN
    name = lambda cid: law.certificate_short(cid, lang) if cid in law.certificates else cid  # noqa: E731
    out = [Line(t["summary.roles"].format(roles=", ".join(law.label(r, lang) for r in s["roles"]) or t["none"]))]
    for x in s["lapsed"]:
        out.append(Line(t["summary.lapsed"].format(text=x["text"], provision=cited(x["provision"], lang)), "red"))
    if s["issuable"]:
        items = [t["summary.issuable_since" if x["since"] else "summary.issuable_item"].format(
            certificate=name(x["certificate"]), since=x["since"], via=", ".join(x["via"])) for x in s["issuable"]]
        out.append(Line(t["summary.issuable"].format(items="; ".join(items), as_of=answer["as_of"])))
    if not s["next_steps"]:
        out.append(Line(t["summary.next_none"]))
        return out
    out.append(Line(t["summary.next"], "bold"))
    for i, step in enumerate(s["next_steps"][:shown], 1):
        key = "summary.step" if step["earliest"] else "summary.step_unplanned"
        out.append(Line(t[key].format(n=i, certificate=name(step["certificate"]), earliest=step["earliest"],
                                      via=", ".join(step["via"]) or t["none"])))
        out += [Line(t["summary.action"].format(text=a["text"])) for a in step["actions"]]
    if len(s["next_steps"]) > shown:
        out.append(Line(t["summary.more_steps"].format(n=len(s["next_steps"]) - shown), "dim"))
    out.append(Line(t["summary.assumes"], "dim"))
    return out


def certificate_lines(law: Law, answer: dict[str, Any], lang: str) -> list[Line]:
    """One line per certificate that concerns the person (of the next steps, those the summary shows): its verdict
    and why it is listed."""
    s = answer.get("summary") or {}
    t = catalogue(lang)
    steps = {x["certificate"]: i for i, x in enumerate(s.get("next_steps", [])[:SHOWN], 1)}
    later = {x["certificate"] for x in s.get("next_steps", [])[SHOWN:]} - set(steps)
    held = {x["certificate"]: x["counts"] for x in s.get("held", [])}
    shown = [c for c in relevance.certificates(answer) if c["id"] not in later or c["id"] in held or c.get("eligible")]
    if not shown:
        return [Line(t["summary.certificates_none"], "dim")]
    out = [Line(t["summary.certificates"], "bold")]
    for c in shown:
        if c["id"] in held:
            status = t["summary.cert_held" if held[c["id"]] else "summary.cert_held_lapsed"]
        elif c.get("eligible"):
            status = t["summary.cert_since" if c.get("eligible_since") else "summary.cert_eligible"].format(
                since=c.get("eligible_since"))
        elif c["id"] in steps:
            status = t["summary.cert_step"].format(n=steps[c["id"]])
        else:
            status = t["not_eligible"]
        mark = "[green]✓[/green]" if c.get("eligible") or held.get(c["id"]) else "[red]✗[/red]"
        out.append(Line(f"  {mark} " + t["summary.cert"].format(certificate=c["label"], provision=c["provision"],
                                                               status=status)))
    return out
