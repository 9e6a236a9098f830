"""VocationalTraining — years of vocational training."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import amount
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing

NAME = "VocationalTraining"


class VocationalTraining(NotAGroup, RequirementKind):
    name = NAME
    order = 41
    role = None

    measured = True
    clauses = """
have(P, R, V) <= req_kind(R, 'VocationalTraining') & vocational(P, V)
"""
    predicates = {"vocational": 2}
    kb_facts = nothing  # the minimum is the generic req_min

    def person_facts(self, p, law, as_of):
        return [("vocational", p.id, p.vocational_training_years)]

    #: the years reach the program only through the threshold rule
    abstracted = ("vocational",)

    def abstraction(self, facts, law):
        """Which minimums of the kb the person's years reach."""
        from crewkg.rules.kinds import bands

        return bands(facts, law, NAME, "vocational")

    unit = "years"
    action = "complete_training"
    answer = None  # needed is the minimum, have the years the program derived
    have = None  # the years the program derived
    lowered_minima = None  # the record lowers no minimum

    messages = {}

    def missing(self, law, req, lang):
        return catalogue(lang)["vocational"].format(needed=req["needed"], have=amount(req["have"], "years", lang))

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.vocational"].format(n=p.vocational_training_years)

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.VocationalTraining"].format(n=r.minimum)

    item_terms = None  # names no items, an amount
    based_on = nothing  # the years the record states: the export names the person
    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # years take years
    project = None  # not accrued by the planner: a route that needs more of it is not plannable
    held_meets = None  # no certificate meets it
    lapsed = None  # years of training stay
    assume = None  # not accrued: nothing to assume
