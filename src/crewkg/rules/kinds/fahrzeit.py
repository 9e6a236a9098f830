"""Fahrzeit — in any deck role (§ 2 Z 3 SchBV: the sum over all roles) or served in a named role.

A record with a service log gives the credited days itself (records.dated): per role, and in any role as the days
credited of all its inland days together (the cap applies to them together, so that is no sum of the roles')."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count

NAME = "Fahrzeit"
ORDER = 20
UNIT = "days"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
(total_fahrzeit[P] == sum_(D, for_each=Role)) <= sailing(P, Role, D)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_any_role(R) & person(P) & ~inland_logged(P) & (total_fahrzeit[P] == V)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_any_role(R) & inland_credited(P, V)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_served_as(R, Role) & sailing(P, Role, V)
"""
PREDICATES = {"req_served_as": 2, "req_any_role": 1, "sailing": 3, "inland_logged": 1, "inland_credited": 2}


def kb_facts(r):
    return [("req_served_as", r.id, r.served_as) if r.served_as else ("req_any_role", r.id)]


def person_facts(p, law, as_of):
    facts = [("sailing", p.id, role, p.sailing_days.get(role, 0)) for role in law.ids_of("DeckCrewRole")]
    if p.any_role_days is not None:
        facts += [("inland_logged", p.id), ("inland_credited", p.id, p.any_role_days)]
    return facts


def answer(law, r, p, d, as_of):
    from crewkg.rules.kinds import credit_fields
    from crewkg.rules.kinds import have_value as requirement_have

    out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of)}
    if r.served_as:
        out["role"] = r.served_as
    return out | credit_fields(p, f"role:{r.served_as}" if r.served_as else "any", "inland")


def missing(law, req, lang):
    t = catalogue(lang)
    from crewkg.rules.kinds import credit_gap

    n = count(req["needed"] - req["have"], "days", lang)
    if req.get("role"):
        return t["days_role"].format(n=n, role=law.label(req["role"], lang)) + credit_gap(req, lang)
    return t["days"].format(n=n) + credit_gap(req, lang)


def facts(req, p, lang):
    t = catalogue(lang)
    if req.get("role"):
        return t["kind.facts.sailing_role"].format(role=req["role"], n=p.sailing_days.get(req["role"], 0))
    parts = ", ".join(f"{k} {v}" for k, v in p.sailing_days.items()) or t["none"]
    return t["kind.facts.sailing"].format(n=req["have"], parts=parts)


def summary(law, r, lang):
    t = catalogue(lang)
    if r.served_as:
        return t["kind.summary.FahrzeitRole"].format(n=r.minimum, role=law.short_label(r.served_as, lang))
    return t["kind.summary.Fahrzeit"].format(n=r.minimum)


def based_on(law, r, nodes):
    return [f"sailing:{r.served_as}"] if r.served_as else [k for k in nodes if k.startswith("sailing:")]


def project(ctx, state, it, prog, n):
    """Days credited from the step's start: any role counts every credited day; a named role only the days served
    in it, which accrue only while serving in that role (after its certificate is obtained)."""
    role = ctx.law.requirements[it["id"]].served_as
    have = it.get("have") or 0
    if role is None:
        n.item["have"] = have + state.credited
    elif role == state.role or state.role_added.get(role):
        n.item["have"] = have + state.role_added.get(role, 0)
    n.met = n.item["have"] >= it["needed"]
    if not n.met:
        if role is not None and role != state.role:
            n.blocked = "role_days"
        else:
            n.sail = it["needed"] - n.item["have"]
