"""ProfessionalExperience — years of professional experience."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count

NAME = "ProfessionalExperience"
ORDER = 40
UNIT = "years"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'ProfessionalExperience') & experience(P, V)
"""
PREDICATES = {"experience": 2}
#: the years reach the program only through the threshold rule
ABSTRACTED = ("experience",)


def abstraction(facts, law):
    """Which minimums of the kb the person's years reach."""
    from crewkg.rules.kinds import bands

    return bands(facts, law, NAME, "experience")


def person_facts(p, law, as_of):
    return [("experience", p.id, p.professional_experience_years)]


def missing(law, req, lang):
    return catalogue(lang)["experience"].format(n=count(req["needed"] - req["have"], "years", lang))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.experience"].format(n=p.professional_experience_years)


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.ProfessionalExperience"].format(n=r.minimum)
