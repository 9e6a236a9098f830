"""ProfessionalExperience — years of professional experience."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing

NAME = "ProfessionalExperience"


class ProfessionalExperience(NotAGroup, RequirementKind):
    name = NAME
    order = 40
    role = None

    measured = True
    clauses = """
have(P, R, V) <= req_kind(R, 'ProfessionalExperience') & experience(P, V)
"""
    predicates = {"experience": 2}
    kb_facts = nothing  # the minimum is the generic req_min

    def person_facts(self, p, law, as_of):
        return [("experience", p.id, p.professional_experience_years)]

    #: the years reach the program only through the threshold rule
    abstracted = ("experience",)

    def abstraction(self, facts, law):
        """Which minimums of the kb the person's years reach."""
        from crewkg.rules.kinds import bands

        return bands(facts, law, NAME, "experience")

    unit = "years"
    action = "gain_experience"
    answer = None  # needed is the minimum, have the years the program derived
    have = None  # the years the program derived
    lowered_minima = None  # the record lowers no minimum

    messages = {}

    def missing(self, law, req, lang):
        return catalogue(lang)["experience"].format(n=count(req["needed"] - req["have"], "years", lang))

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.experience"].format(n=p.professional_experience_years)

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.ProfessionalExperience"].format(n=r.minimum)

    item_terms = None  # names no items, an amount
    based_on = nothing  # the years the record states: the export names the person
    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # years take years
    project = None  # not accrued by the planner: a route that needs more of it is not plannable
    held_meets = None  # no certificate meets it
    lapsed = None  # years of experience stay
    assume = None  # not accrued: nothing to assume
