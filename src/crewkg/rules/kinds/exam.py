"""Exam — every listed exam passed."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import value

NAME = "Exam"
ORDER = 60
UNIT = "exams"
#: the export names the needed and held items as terms of the ontology
ITEM_TERMS = "crew"
#: met on the step's date, without time of its own (the planner)
TAKES_TIME = False
CLAUSES = """
met(P, R) <= req_kind(R, 'Exam') & person(P) & ~exam_lacking(P, R)
exam_lacking(P, R) <= person(P) & req_exam(R, E) & ~exam(P, E)
"""
PREDICATES = {"req_exam": 2, "exam": 2}


def kb_facts(r):
    return [("req_exam", r.id, e) for e in r.exams]


def passed(p, as_of):
    """The exams passed by the evaluation date (a dated exam counts from the day it was passed)."""
    return [e for e in p.exams if e not in p.exam_passed or p.exam_passed[e] <= as_of]


def person_facts(p, law, as_of):
    return [("exam", p.id, e) for e in passed(p, as_of)]


def have(r, p, d, as_of):
    return [e for e in passed(p, as_of) if e in r.exams]


def answer(law, r, p, d, as_of):
    out = {"needed": list(r.exams), "have": have(r, p, d, as_of)}
    # an exam the record dates after the evaluation date: not passed on it, said as such rather than left out
    later = {e: p.exam_passed[e].isoformat() for e in r.exams if e in p.exam_passed and p.exam_passed[e] > as_of}
    return out | ({"passed_later": later} if later else {})


def missing(law, req, lang):
    t = catalogue(lang)
    lacking = [e for e in req["needed"] if e not in req["have"]]
    later = req.get("passed_later", {})
    return t["exam"].format(items=", ".join(t["exam_passed_later"].format(item=law.label(e, lang), passed=later[e])
                                            if e in later else law.label(e, lang) for e in lacking))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.exams"].format(items=value(p.exams, lang))


def summary(law, r, lang):
    numbers = ["".join(ch for ch in e if ch.isdigit()) or e for e in r.exams]  # 'Anlage9' → '9'
    return catalogue(lang)["kind.summary.Exam"].format(items="+".join(numbers))


def project(ctx, state, it, prog, n):
    """Taken once the other requirements are met: no time of its own."""
    n.at_step = not n.met


def items(req):
    """The needed and the held items, for the export."""
    return list(req["needed"]), list(req.get("have") or [])


def assume(p, r, on):
    """Passed on the step's date, as the plan assumes."""
    p.exams = sorted(set(p.exams) | set(r.exams))
