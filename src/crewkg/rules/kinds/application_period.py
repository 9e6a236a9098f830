"""ApplicationPeriod — the application is made on or before a last day (crew:lastDay): a pathway of a transitional
provision that can be used only until a deadline (e.g. the replacements of § 47 SchBV, until 17 Jan 2032).

The evaluation date is the day of the application. The last day is the kb's; no date is named here."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing


class ApplicationPeriod(NotAGroup, RequirementKind):
    name = "ApplicationPeriod"
    order = 85
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'ApplicationPeriod') & within_period(P, R)
"""
    predicates = {"within_period": 2}
    kb_facts = nothing  # the last day is read from the requirement itself (person_facts)

    def person_facts(self, p, law, as_of):
        """The application periods still open on the evaluation date (up to and including their last day)."""
        return [("within_period", p.id, r.id) for r in law.requirements.values()
                if r.kind == self.name and r.last_day is not None and as_of <= r.last_day]

    abstracted = ()
    abstraction = None  # the evaluation date is compared with no minimum

    unit = "date"
    action = None  # no action of the person meets it

    def answer(self, law, r, p, d, as_of):
        return {"needed": r.last_day.isoformat() if r.last_day else None, "have": as_of.isoformat()}

    have = None  # the evaluation date (answer)
    lowered_minima = None  # a last day, no minimum

    messages = {}

    def missing(self, law, req, lang):
        return catalogue(lang)["application_period"].format(last=req["needed"], on=req["have"])

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.application_period"].format(on=req["have"])

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.ApplicationPeriod"].format(
            last=r.last_day.isoformat() if r.last_day else "—")

    item_terms = None  # names no items
    based_on = nothing  # decided on the evaluation date, no record entry: the export names the person
    items = None  # names no items

    #: met or not on the step's date, without time of its own
    takes_time = False
    obtained_on_the_day = False  # a closed period is not opened by any day
    # no projection: the planner takes it as it is today, and the rules, asked about each planned step on its own
    # date, refuse a step after the last day
    project = None
    held_meets = None  # no certificate meets it
    lapsed = None  # the rules decide it on each step's date
    assume = None  # the projected record needs nothing: the step's date decides
