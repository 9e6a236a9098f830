"""The eligibility answer (README, 'Using it'; docs/architecture.md): every certificate of the regulation, every
pathway, every requirement with needed/have/unit/provision, and what is missing. Built from what the
Datalog program derived; this module only arranges it."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.law.statute import Law, Regulation
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person
from crewkg.rules.eligibility import Derived, derive, requirement_have
from crewkg.rules.kinds import kind


def regulation_in_force(law: Law, as_of: date) -> Regulation | None:
    """The regulation with UBZ pathways in force on the date, or None (then nothing is covered)."""
    with_paths = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
    for reg in law.regulations.values():
        if reg.id in with_paths and reg.in_force_from <= as_of and (reg.in_force_until is None or as_of <= reg.in_force_until):
            return reg
    return None


def requirement_entry(law: Law, rid: str, p: Person, d: Derived, as_of: date, lang: str) -> dict[str, Any]:
    """One answer entry: what the requirement's kind says the person has and needs (`crewkg.rules.kinds`)."""
    r = law.requirements[rid]
    k = kind(r.kind)
    entry: dict[str, Any] = {
        "id": rid,
        "text": r.label.get(lang) or r.label.get("de", rid),
        "provision": law.citation(r.provision),
        "met": (p.id, rid) in d.met,
        "kind": r.kind,
        "unit": k.unit,
    }
    if k.parts is not None:
        children = [requirement_entry(law, c, p, d, as_of, lang) for c in r.children]
        entry["needed"] = k.needed(len(children)) if k.needed else len(children)
        entry["have"] = sum(1 for c in children if c["met"])
        entry[k.parts] = children
    elif k.answer is not None:
        entry |= {key: v for key, v in k.answer(law, r, p, d, as_of).items() if v is not None or key in ("needed", "have")}
    else:
        entry |= {"needed": r.minimum, "have": requirement_have(r, p, d, as_of)}
    return entry


def person_answer(law: Law, p: Person, d: Derived, as_of: date, lang: str = "de") -> dict[str, Any]:
    reg = regulation_in_force(law, as_of)
    base: dict[str, Any] = {"person": p.id, "as_of": as_of.isoformat()}
    if reg is None:
        with_paths = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
        first = min((r for r in law.regulations.values() if r.id in with_paths), key=lambda r: r.in_force_from)
        return base | {
            "regulation": None,
            "covered": False,
            "reason": say(lang, "cli.no_regulation", as_of=as_of.isoformat(), first=first.name,
                          since=first.in_force_from.isoformat()),
            "certificates": [],
            "roles": [],
        }
    certs = []
    for c in law.certificates_in_order():
        if c.regulation != reg.id:
            continue
        entry: dict[str, Any] = {"id": c.id, "label": c.label.get(lang, c.id), "provision": law.citation(c.provision)}
        if not c.pathways:
            entry |= {"eligible": None, "covered": False,
                      "reason": say(lang, "not_in_sources", provision=law.citation(c.provision)),
                      "pathways": []}
            certs.append(entry)
            continue
        pathways = []
        for wid in c.pathways:
            w = law.pathways[wid]
            reqs = [requirement_entry(law, rid, p, d, as_of, lang) for rid in w.requirements]
            pathways.append({
                "id": wid,
                "provision": law.citation(w.provision),
                "label": w.label.get(lang, wid),
                "satisfied": (p.id, wid) in d.satisfied,
                "requirements": reqs,
                "missing": [r for r in reqs if not r["met"]],
            })
        entry |= {"eligible": (p.id, c.id) in d.eligible, "covered": True, "pathways": pathways}
        certs.append(entry)
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    roles = sorted({role for pid, role in d.can_fill if pid == p.id}, key=lambda r: (order.get(r, 99), r))
    withheld = roles_withheld(law, p, d, as_of, lang)
    return base | {"regulation": reg.name, "covered": True,
                   "certificates": certs, "roles": roles} | ({"roles_withheld": withheld} if withheld else {})


def roles_withheld(law: Law, p: Person, d: Derived, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """Roles below a certificate held that the person cannot fill because of the minimum age the role's own
    certificate asks, each with that age, the person's, the day it is reached and its provision (the program's
    can_fill decides; this only says why)."""
    from crewkg.law.age import birthday, completed_years
    from crewkg.rules.eligibility import role_ages
    from crewkg.rules.kinds import missing_sentence

    ages = role_ages(law)
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    out = []
    for role in sorted({r for pid, r in d.reached if pid == p.id}, key=lambda r: (order.get(r, 99), r)):
        if (p.id, role) in d.can_fill or (p.id, role) not in d.too_young or role not in ages:
            continue
        age = ages[role]
        entry: dict[str, Any] = {
            "role": role, "kind": "MinimumAge", "unit": "years", "met": False,
            "provision": ", ".join(law.citation(law.requirements[r].provision) for r in age.requirements),
            "needed": age.years,
            "have": completed_years(p.birth_date, as_of) if p.birth_date else None,
        }
        if p.birth_date is not None:
            entry["reached_on"] = birthday(p.birth_date, age.years).isoformat()
        entry["text"] = missing_sentence(law, entry, lang)
        out.append(entry)
    return out


def check(law: Law, persons: list[Person], as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """Evaluate a batch of persons in one Datalog run and build one answer per person."""
    d = derive(persons, law, as_of)
    return [person_answer(law, p, d, as_of, lang) for p in persons]
