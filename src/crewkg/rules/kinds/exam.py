"""Exam — every listed exam passed (by the evaluation date: `rules.validity.passed`)."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import value
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing
from crewkg.rules.validity import passed


class Exam(NotAGroup, RequirementKind):
    name = "Exam"
    order = 60
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'Exam') & person(P) & ~exam_lacking(P, R)
exam_lacking(P, R) <= person(P) & req_exam(R, E) & ~exam(P, E)
"""
    predicates = {"req_exam": 2, "exam": 2}

    def kb_facts(self, r):
        return [("req_exam", r.id, e) for e in r.exams]

    def person_facts(self, p, law, as_of):
        return [("exam", p.id, e) for e in passed(p, as_of)]

    abstracted = ()
    abstraction = None  # exams are compared with no minimum

    unit = "exams"
    action = "pass_exam"

    def answer(self, law, r, p, d, as_of):
        out = {"needed": list(r.exams), "have": self.have(r, p, d, as_of)}
        # an exam the record dates after the evaluation date: not passed on it, said as such rather than left out
        later = {e: p.exam_passed[e].isoformat() for e in r.exams if e in p.exam_passed and p.exam_passed[e] > as_of}
        return out | ({"passed_later": later} if later else {})

    def have(self, r, p, d, as_of):
        return [e for e in passed(p, as_of) if e in r.exams]

    lowered_minima = None  # no minimum

    messages = {}

    def missing(self, law, req, lang):
        t = catalogue(lang)
        lacking = [e for e in req["needed"] if e not in req["have"]]
        later = req.get("passed_later", {})
        return t["exam"].format(items=", ".join(t["exam_passed_later"].format(item=law.label(e, lang), passed=later[e])
                                                if e in later else law.label(e, lang) for e in lacking))

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.exams"].format(items=value(p.exams, lang))

    def summary(self, law, r, lang):
        numbers = ["".join(ch for ch in e if ch.isdigit()) or e for e in r.exams]  # 'Anlage9' → '9'
        return catalogue(lang)["kind.summary.Exam"].format(items="+".join(numbers))

    #: the export names the needed and held items as terms of the ontology
    item_terms = "crew"
    based_on = nothing  # the exams of the record: the export names the person

    def items(self, req):
        """The needed and the held items, for the export."""
        return list(req["needed"]), list(req.get("have") or [])

    #: met on the step's date, without time of its own (the planner)
    takes_time = False
    #: taken on a step's date: a replacement lacking only it may be begun on the evaluation date
    obtained_on_the_day = True

    def project(self, ctx, state, it, prog, n):
        """Taken once the other requirements are met: no time of its own."""
        n.at_step = not n.met

    held_meets = None  # no certificate meets it
    lapsed = None  # a passed exam stays passed

    def assume(self, p, r, on):
        """Passed on the step's date, as the plan assumes."""
        p.exams = sorted(set(p.exams) | set(r.exams))
