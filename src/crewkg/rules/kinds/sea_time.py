"""SeaTime — professional experience on a sea-going ship, in one capacity or in any."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count
from crewkg.records.persons import SEA_KEYS

NAME = "SeaTime"
ORDER = 30
UNIT = "days"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
(total_sea[P] == sum_(D, for_each=C)) <= sea(P, C, D)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, 'AnyCapacity') & person(P) & (total_sea[P] == V)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, C) & sea(P, C, V)
"""
PREDICATES = {"req_capacity": 2, "sea": 3}


def kb_facts(r):
    return [("req_capacity", r.id, r.capacity)] if r.capacity else []


def person_facts(p, law, as_of):
    return [("sea", p.id, cap, p.sea_days.get(cap, 0)) for cap in SEA_KEYS.values()]


def answer(law, r, p, d, as_of):
    from crewkg.rules.kinds import have_value as requirement_have

    return {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "capacity": r.capacity}


def missing(law, req, lang):
    return catalogue(lang)[f"sea_{req['capacity']}"].format(n=count(req["needed"] - req["have"], "days", lang))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.sea"].format(n=req["have"], capacity=req["capacity"])


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.SeaTime"].format(n=r.minimum, cap=law.label(r.capacity or "", lang))


def based_on(law, r, nodes):
    return [k for k in nodes if k.startswith("sea:")] if r.capacity == "AnyCapacity" else [f"sea:{r.capacity}"]
