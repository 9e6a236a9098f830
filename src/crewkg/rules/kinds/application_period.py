"""ApplicationPeriod — the application is made on or before a last day (crew:lastDay): a pathway of a transitional
provision that can be used only until a deadline (e.g. the replacements of § 47 SchBV, until 17 Jan 2032).

The evaluation date is the day of the application. The last day is the kb's; no date is named here."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue

NAME = "ApplicationPeriod"
ORDER = 85
UNIT = "date"
#: met or not on the step's date, without time of its own. It declares no projection: the planner takes it as it is
#: today, and the rules, asked about each planned step on its own date, refuse a step after the last day.
TAKES_TIME = False
CLAUSES = """
met(P, R) <= req_kind(R, 'ApplicationPeriod') & within_period(P, R)
"""
PREDICATES = {"within_period": 2}


def person_facts(p, law, as_of):
    """The application periods still open on the evaluation date (up to and including their last day)."""
    return [("within_period", p.id, r.id) for r in law.requirements.values()
            if r.kind == NAME and r.last_day is not None and as_of <= r.last_day]


def answer(law, r, p, d, as_of):
    return {"needed": r.last_day.isoformat() if r.last_day else None, "have": as_of.isoformat()}


def missing(law, req, lang):
    return catalogue(lang)["application_period"].format(last=req["needed"], on=req["have"])


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.application_period"].format(on=req["have"])


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.ApplicationPeriod"].format(last=r.last_day.isoformat() if r.last_day else "—")

