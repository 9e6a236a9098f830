"""MinimumAge — 'das N. Lebensjahr vollendet'; age facts are completed years on the evaluation date."""

from __future__ import annotations

from crewkg.law.age import birthday, completed_years
from crewkg.messages.catalogue import catalogue

NAME = "MinimumAge"
ORDER = 10
UNIT = "years"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'MinimumAge') & age(P, V)
"""
#: age(P, V) is a generic fact (rules.eligibility.person_facts): the role-age rule reads it too
PREDICATES = {"age": 2}
#: the age reaches the program only through comparisons with minimum ages: those of this kind's requirements, and
#: the role ages of the hierarchy, which are minimums of the same requirements (rules.eligibility.role_ages)
ABSTRACTED = ("age",)


def abstraction(facts, law):
    """Which minimum ages of the kb the person has reached."""
    from crewkg.rules.kinds import bands

    return bands(facts, law, NAME, "age")


def have(r, p, d, as_of):
    values = d.have.get((p.id, r.id), [])
    return max(values) if values else None


def answer(law, r, p, d, as_of):
    out = {"needed": r.minimum, "have": have(r, p, d, as_of)}
    if p.birth_date is not None and r.minimum is not None:
        out["reached_on"] = birthday(p.birth_date, r.minimum).isoformat()
    return out


def missing(law, req, lang):
    t = catalogue(lang)
    if req.get("have") is None:
        return t["age_unknown"].format(needed=req["needed"])
    return t["age"].format(needed=req["needed"], have=req["have"], on=req.get("reached_on"))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.age"].format(birth=p.birth_date, age=req["have"])


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.MinimumAge"].format(n=r.minimum)


def project(ctx, state, it, prog, n):
    """The age on the step's date; unmet until the birthday."""
    birth = ctx.person.birth_date if ctx.person else None
    if ctx.assume_age:
        n.met = True
    elif birth is None:
        n.blocked = "birth_unknown"
    else:
        n.item["have"] = completed_years(birth, ctx.date(state.t))
        n.met = n.item["have"] >= it["needed"]
        if not n.met:
            n.not_before = ctx.offset(birthday(birth, it["needed"]))
