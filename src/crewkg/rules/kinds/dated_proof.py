"""DatedProof — every listed proof (an instruction, an exercise) taken no longer ago than N months.

The proofs are record exams (`exams: [{id: ..., passed: DATE}]`); a dated proof counts from the day it was taken up to
and including the same day N months later; one given without a date is taken as stated (as a plain exam id is)."""

from __future__ import annotations

from datetime import date

from crewkg.law.age import months_later
from crewkg.messages.wording import value

NAME = "DatedProof"
ORDER = 65
UNIT = "document"
#: the export names the needed and held items as terms of the kb
ITEM_TERMS = "kb"
#: met on the step's date, without time of its own (the planner)
TAKES_TIME = False
CLAUSES = """
met(P, R) <= req_kind(R, 'DatedProof') & proof_current(P, R)
"""
PREDICATES = {"proof_current": 2}
MESSAGES = {
    "de": {
        "missing": "Nachweis fehlt oder liegt länger als {months} Monate zurück: {items}",
        "summary": "Nachweis {items} (höchstens {months} Monate alt)",
        "facts": "Nachweise = {items}",
    },
    "en": {
        "missing": "proof missing or taken more than {months} months ago: {items}",
        "summary": "proof {items} (at most {months} months old)",
        "facts": "proofs = {items}",
    },
}


def last_day(p, proof: str, months: int | None) -> date | None:
    """The last day a dated proof counts; None for an undated one."""
    taken = p.exam_passed.get(proof)
    return months_later(taken, months) if taken is not None and months else None


def current(p, proof: str, months: int | None, as_of: date) -> bool:
    if proof not in p.exams:
        return False
    taken = p.exam_passed.get(proof)
    if taken is None:
        return True
    end = last_day(p, proof, months)
    return taken <= as_of and (end is None or as_of <= end)


def person_facts(p, law, as_of):
    return [("proof_current", p.id, r.id) for r in law.requirements.values()
            if r.kind == NAME and r.exams and all(current(p, e, r.max_months, as_of) for e in r.exams)]


def have(r, p, d, as_of):
    return [e for e in r.exams if current(p, e, r.max_months, as_of)]


def answer(law, r, p, d, as_of):
    out = {"needed": list(r.exams), "have": have(r, p, d, as_of), "not_older_than_months": r.max_months}
    ends = {e: last_day(p, e, r.max_months) for e in r.exams if e in p.exams}
    dated = {e: d_.isoformat() for e, d_ in ends.items() if d_ is not None}
    if dated:
        out["valid_until"] = dated
    return out


def _items(law, ids, lang):
    return ", ".join(law.label(e, lang) for e in ids)


def missing(law, req, lang):
    from crewkg.rules.kinds import say

    lacking = [e for e in req["needed"] if e not in req["have"]]
    return say(NAME, lang, "missing", months=req.get("not_older_than_months"), items=_items(law, lacking, lang))


def facts(req, p, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "facts", items=value([e for e in p.exams if e in req["needed"]], lang))


def summary(law, r, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "summary", months=r.max_months, items=_items(law, r.exams, lang))


def project(ctx, state, it, prog, n):
    """Taken once the other requirements are met: no time of its own."""
    n.at_step = not n.met


def items(req):
    """The needed and the held items, for the export."""
    return list(req["needed"]), list(req.get("have") or [])


def assume(p, r, on):
    """Taken on the step's date, as the plan assumes."""
    p.exams = sorted(set(p.exams) | set(r.exams))
    for e in r.exams:
        p.exam_passed[e] = on
