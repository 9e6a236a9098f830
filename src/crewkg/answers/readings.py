"""The other reading of a doubtful provision of the eligibility law, stated where its verdict differs (the answer's
`readings`; docs/answers.md).

The readings are data of the kb (`law.readings`). For each one that reaches a person, the same Datalog program runs
once more on the law or the record as the other reading reads them; the answer keeps its own verdict and adds an
entry only where the other reading's differs — a certificate that could or could not be issued, a role that could or
could not be filled — with both readings and a sentence from the catalogue. A reading reaches a person only where it
can change something: a pathway whose other requirements the person meets, days in the role it counts otherwise,
a service log the cap per person credits otherwise. So a check whose record no doubt touches runs nothing more."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.law.readings import EligibilityReading, concerned, eligibility_readings, law_under, touched
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person


def add_readings(law: Law, persons: list[Person], answers: list[dict[str, Any]], as_of: date, lang: str) -> None:
    """Each answer of a covered date gets `readings` where the other reading of a doubtful provision gives another
    verdict (nothing is added where none does)."""
    found = eligibility_readings(law)
    if not found:
        return
    for p, a in zip(persons, answers, strict=True):
        if not a.get("covered"):
            continue
        entries = [e for rd in found.values() if (e := _entry(law, rd, p, a, as_of, lang)) is not None]
        if entries:
            a["readings"] = entries


def _entry(law: Law, rd: EligibilityReading, p: Person, a: dict[str, Any], as_of: date, lang: str) -> dict[str, Any] | None:
    """The reading's entry for one person, or None where it does not reach the person or gives the same verdict."""
    other = _other_view(law, rd, p, a, as_of)
    if other is None:
        return None
    law_o, p_o, certificates = other
    satisfied, roles = _verdict(law_o, p_o, certificates, as_of, set(a["roles"]))
    eligible = {c["id"]: bool(c.get("eligible")) for c in a["certificates"] if c["id"] in certificates}
    changed = [{"certificate": cid, "eligible": not was,
                "pathways": [law.citation(law_o.pathways[w].provision) for w in law_o.certificates[cid].pathways
                             if w in satisfied]}
               for cid, was in eligible.items() if any(w in satisfied for w in law_o.certificates[cid].pathways) != was]
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    role_changes = [{"role": r, "fills": r in roles}
                    for r in sorted(roles ^ set(a["roles"]), key=lambda r: (order.get(r, 99), r))]
    if not changed and not role_changes:
        return None
    return {"id": rd.id, "provision": _provision(law, rd, as_of), "applied": rd.text("applied", lang),
            "other": rd.text("other", lang), "verdict_other": {"certificates": changed, "roles": role_changes},
            "text": _sentence(law, changed, role_changes, lang), "notes": rd.said_notes(lang)}


def _verdict(law: Law, p: Person, certificates: set[str], as_of: date, roles: set[str]) -> tuple[set[str], set[str]]:
    """The pathways the person satisfies and the roles the person fills under the other reading. Where no certificate
    compared is held by the record's own proofs (crew:heldByProof), its verdict gives no role, and the program runs over
    the pathways of those certificates alone (a tenth of the work); else the whole program runs."""
    from crewkg.rules.eligibility import derive, satisfied_pathways

    if not any(law.certificates[c].by_proof for c in certificates):
        chosen = frozenset(w for c in certificates for w in law.certificates[c].pathways)
        return {w for _, w in satisfied_pathways([(p, as_of)], law, chosen)}, roles
    d = derive([p], law, as_of)
    return {w for pid, w in d.satisfied if pid == p.id}, {r for pid, r in d.can_fill if pid == p.id}


def _other_view(law: Law, rd: EligibilityReading, p: Person, a: dict[str, Any],
                as_of: date) -> tuple[Law, Person, set[str]] | None:
    """The law and the record as the other reading reads them, and the certificates (of the regulation the answer
    applies) whose verdict it can change; None where it cannot change any."""
    from crewkg.records.dated import read_otherwise

    listed = {c["id"] for c in a["certificates"] if c.get("covered")}
    if rd.replaced:
        reach = touched(law, rd)
        # a pathway can change its verdict only where the person meets every requirement the reading does not touch
        met = {w["id"]: {r["id"] for r in w["requirements"] if r["met"]} for c in a["certificates"] for w in c["pathways"]}
        open_ = {wid for wid, hit in reach.items() if wid in met
                 and set(law.pathways[wid].requirements) - hit <= met[wid]}
        certificates = {law.pathways[w].certificate for w in open_} & listed
        return (law_under(law, rd), p, certificates) if certificates else None
    if rd.service is None and rd.crediting is None:
        return None
    q = read_otherwise(p, law, as_of, per_person=rd.crediting is not None, counts_as=rd.service)
    if q is None:
        return None
    certificates = {law.pathways[w].certificate for w in concerned(law, set(rd.concerns))} & listed if rd.concerns else listed
    return (law, q, certificates) if certificates else None


def _provision(law: Law, rd: EligibilityReading, as_of: date) -> str:
    """The provision the doubt is about: for a reading of the crediting limits, the one the law in force sets (§ 3
    Abs. 6 SchBesV 2004, § 6 Abs. 4 SchBV); else the reading's own."""
    if rd.limits:
        from crewkg.law.crediting import crediting_limits, limit_on

        areas = {lim.area for lid, lim in _limits_by_id().items() if lid in rd.limits}
        cited = [limit_on(area, as_of).citation for area in sorted(areas) if area in crediting_limits()]
        if cited:
            return ", ".join(dict.fromkeys(cited))
    return law.citation(rd.provision) if rd.provision in law.provisions else rd.provision


def _limits_by_id() -> dict[str, Any]:
    from crewkg.law.crediting import all_limits

    return {lim.id: lim for lim in all_limits()}


def _sentence(law: Law, changed: list[dict[str, Any]], roles: list[dict[str, Any]], lang: str) -> str:
    """What the other reading would decide otherwise, in the catalogue's words."""
    parts = []
    gained = [c for c in changed if c["eligible"]]
    lost = [c for c in changed if not c["eligible"]]
    if gained:
        parts.append(say(lang, "check.reading.eligible_other",
                         certificates=", ".join(law.certificate_short(c["certificate"], lang) for c in gained),
                         provisions=", ".join(dict.fromkeys(x for c in gained for x in c["pathways"]))))
    if lost:
        parts.append(say(lang, "check.reading.not_eligible_other",
                         certificates=", ".join(law.certificate_short(c["certificate"], lang) for c in lost)))
    for key, fills in (("check.reading.roles_other", True), ("check.reading.roles_lost_other", False)):
        named = [law.label(r["role"], lang) for r in roles if r["fills"] is fills]
        if named:
            parts.append(say(lang, key, roles=", ".join(named)))
    return "; ".join(parts)
