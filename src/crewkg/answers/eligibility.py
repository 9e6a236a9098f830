"""The eligibility answer (README, 'Using it'; docs/architecture.md): every certificate of the regulation, every
pathway, every requirement with needed/have/unit/provision, and what is missing. Built from what the
Datalog program derived; this module only arranges it."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.law.statute import Law, Regulation
from crewkg.records.persons import Person
from crewkg.rules.eligibility import Derived, derive, requirement_have


def regulation_in_force(law: Law, as_of: date) -> Regulation | None:
    """The regulation with UBZ pathways in force on the date, or None (then nothing is covered)."""
    with_paths = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
    for reg in law.regulations.values():
        if reg.id in with_paths and reg.in_force_from <= as_of and (reg.in_force_until is None or as_of <= reg.in_force_until):
            return reg
    return None


def _requirement(law: Law, rid: str, p: Person, d: Derived, as_of: date, lang: str) -> dict[str, Any]:
    r = law.requirements[rid]
    met = (p.id, rid) in d.met
    entry: dict[str, Any] = {
        "id": rid,
        "text": r.label.get(lang) or r.label.get("de", rid),
        "provision": law.citation(r.provision),
        "met": met,
        "kind": r.kind,
        "unit": r.unit,
    }
    if r.kind in ("AnyOf", "AllOf"):
        children = [_requirement(law, c, p, d, as_of, lang) for c in r.children]
        entry["needed"] = 1 if r.kind == "AnyOf" else len(children)
        entry["have"] = sum(1 for c in children if c["met"])
        entry["alternatives" if r.kind == "AnyOf" else "parts"] = children
    elif r.kind == "Exam":
        entry["needed"] = list(r.exams)
        entry["have"] = requirement_have(r, p, d, as_of)
    elif r.kind == "CertificateHeld":
        entry["needed"] = list(r.certificates)
        entry["have"] = requirement_have(r, p, d, as_of)
    elif r.kind == "Document":
        entry["needed"] = True
        entry["have"] = requirement_have(r, p, d, as_of)
        entry["document"] = r.document
        if r.document == "MedicalFitness" and p.medical_valid_until:
            entry["valid_until"] = p.medical_valid_until.isoformat()
    else:
        entry["needed"] = r.minimum
        entry["have"] = requirement_have(r, p, d, as_of)
        if r.served_as:
            entry["role"] = r.served_as
        if r.capacity:
            entry["capacity"] = r.capacity
        if r.phase:
            entry["phase"] = r.phase
        if r.programme_for:
            entry["role"] = r.programme_for
        if r.of_programme:
            entry["role"] = law.requirements[r.of_programme].programme_for
        if r.kind == "MinimumAge" and p.birth_date is not None and r.minimum is not None:
            from crewkg.rules.eligibility import birthday

            entry["reached_on"] = birthday(p.birth_date, r.minimum).isoformat()
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
            "reason": f"no encoded regulation governs Unionsbefähigungszeugnisse on {as_of.isoformat()}; "
                      f"the encoded certificate law starts with {first.name} on {first.in_force_from.isoformat()}",
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
                      "reason": f"the requirements of {law.citation(c.provision)} are not in the sources (heading only)",
                      "pathways": []}
            certs.append(entry)
            continue
        pathways = []
        for wid in c.pathways:
            w = law.pathways[wid]
            reqs = [_requirement(law, rid, p, d, as_of, lang) for rid in w.requirements]
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
    from crewkg.messages.wording import missing_sentence
    from crewkg.rules.eligibility import birthday, completed_years, role_ages

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
