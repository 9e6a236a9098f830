"""VocationalTraining — years of vocational training."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import amount

NAME = "VocationalTraining"
ORDER = 41
UNIT = "years"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'VocationalTraining') & vocational(P, V)
"""
PREDICATES = {"vocational": 2}
#: the years reach the program only through the threshold rule
ABSTRACTED = ("vocational",)


def abstraction(facts, law):
    """Which minimums of the kb the person's years reach."""
    from crewkg.rules.kinds import bands

    return bands(facts, law, NAME, "vocational")


def person_facts(p, law, as_of):
    return [("vocational", p.id, p.vocational_training_years)]


def missing(law, req, lang):
    return catalogue(lang)["vocational"].format(needed=req["needed"], have=amount(req["have"], "years", lang))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.vocational"].format(n=p.vocational_training_years)


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.VocationalTraining"].format(n=r.minimum)
