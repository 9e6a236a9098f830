"""Which certificates concern a person: the one rule every face applies by default (the check text, the timeline, its
calendar file, the pictures, the compact derivation graph of `crewkg export`); `--all` shows every certificate of
the regulation instead. The JSON check answer keeps listing every certificate (programs rely on it).

A certificate concerns the person when the summary names it: held (counting or not), issuable, lapsed, or a next
step up (`careers.summary`, which already leaves out the replacement routes of § 47 SchBV for persons who hold no
qualification of earlier law, and national certificates the record does not touch). The next steps are planned among
the `candidates` this module names: the certificates of the deck roles above the highest role the person reaches.

The summary costs a planner run per person (20–60 ms). A register's derivation graph (`crewkg export`, compact)
asks the same question for 100 000 persons, so `reach` answers it without planning: held, issuable and lapsed as the
summary has them; for the next steps every candidate the planner chooses among, each with its closest pathways — of
the pathways that concern the person, those with the fewest missing requirements (`trimmed`; the planner's fastest
route is one of them for 583 of the 629 next steps of 300 synthetic persons, and a pathway that lacks a single
requirement, the near miss a register is searched for, always is). Of a certificate that is not issuable, the
pathways that concern the person are those that are no replacement of earlier law, and a replacement only for a
holder of a certificate it names. Every next step of the summary is a candidate (tests/test_relevance.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.records.persons import Person

#: the lapse a person ends by renewing the medical proof (`rules.validity` names the reasons)
MEDICAL_LAPSE = "medical_overdue"
#: a pathway this many requirements short of satisfied is a near miss: every one concerns the person
NEAR_MISS = 1


def concerned(answer: dict[str, Any]) -> set[str]:
    """The ids of the certificates the answer's summary names (empty without a summary)."""
    s = answer.get("summary") or {}
    return ({x["certificate"] for x in s.get("held", [])} | {x["certificate"] for x in s.get("issuable", [])}
            | {x["certificate"] for x in s.get("lapsed", [])} | {x["certificate"] for x in s.get("next_steps", [])})


def certificates(answer: dict[str, Any], every: bool = False) -> list[dict[str, Any]]:
    """The answer's certificate entries a person sees, in statute order: all of them with `every`, else those
    that concern the person."""
    if every:
        return list(answer["certificates"])
    ids = concerned(answer)
    return [c for c in answer["certificates"] if c["id"] in ids]


def rank(law: Law, role: str | None) -> int:
    """A role's place in the hierarchy: how many roles rank below it (-1: no role)."""
    return len(set(law.below(role))) if role else -1


def candidates(law: Law, p: Person, as_of: date, eligible: Iterable[str], roles: Iterable[str],
               counting: Iterable[str], renewable: Iterable[str]) -> list[str]:
    """The certificates of the deck roles above every role the person fills (`roles`), holds (`counting`, or lapsed
    only for want of a medical proof: `renewable`) or can be issued (`eligible`); of the regulation in force, covered,
    not national, not held, not issuable; in statute order. The summary plans its next steps among them."""
    reg = law.regulation_on(as_of)
    if reg is None:
        return []
    deck = set(law.ids_of("DeckCrewRole"))
    eligible = set(eligible)
    reached = set(roles) | {law.certificates[c].role for c in eligible | set(counting) | set(renewable)
                            if c in law.certificates and law.certificates[c].role}
    top = max((rank(law, r) for r in reached if r in deck), default=-1)
    return [c.id for c in law.certificates_in_order()
            if c.regulation == reg.id and c.pathways and c.id not in eligible and c.id not in p.certificates
            and not c.national and c.role in deck and rank(law, c.role) > top]


@dataclass(frozen=True)
class Reach:
    """What concerns a person, decided without planning (`reach`): each certificate with the pathways of it that
    concern them (certificate id -> pathway ids, in statute order; a certificate held that counts with none), and the
    next steps, of which only the closest pathways concern them (`closest`, `trimmed`)."""

    pathways: dict[str, list[str]]
    closest: frozenset[str] = frozenset()


def reach(law: Law, p: Person, as_of: date, satisfied: dict[str, list[str]], roles: Iterable[str]) -> Reach:
    """What concerns the person, decided without planning (see the module's docstring).

    `satisfied` names each issuable certificate with its satisfied pathways (a register line's `eligible`, by pathway
    id), `roles` the roles the person can fill. An issuable certificate comes with its satisfied pathways; a lapsed
    one of the regulation in force and every next-step candidate with the pathways of it that concern the person
    (`pathways`), for what is missing, of a candidate only the closest staying (`closest`, `trimmed`); a certificate
    held that counts and is not issuable, and a lapsed one of an earlier regulation, with none (nothing of it is asked
    under the regulation in force)."""
    from crewkg.rules.validity import all_lapses, held

    reg = law.regulation_on(as_of)
    if reg is None:
        return Reach({})
    counting = set(held(p, as_of, law))
    lapses = all_lapses(p, law, as_of)
    renewable = {x.certificate for x in lapses if x.reason == MEDICAL_LAPSE}
    out: dict[str, list[str]] = {c: list(ws) for c, ws in satisfied.items()}
    steps = candidates(law, p, as_of, satisfied, roles, counting, renewable)
    for cid in [x.certificate for x in lapses] + steps:  # an old regulation's lapse is said by its holding alone
        if cid not in out and cid in law.certificates:
            out[cid] = pathways(law, p, cid) if law.certificates[cid].regulation == reg.id else []
    for cid in p.certificates:  # held and counting: the holding says so, no pathway is asked
        out.setdefault(cid, [])
    order = {c.id: i for i, c in enumerate(law.certificates_in_order())}
    lapsed = {x.certificate for x in lapses}
    return Reach({c: out[c] for c in sorted(out, key=lambda c: order.get(c, len(order)))},
                 frozenset(c for c in steps if c not in lapsed))


def trimmed(r: Reach, entry: dict[str, Any]) -> dict[str, Any]:
    """A certificate entry of an answer (`answers.eligibility.certificate_entry`) with only the pathways that concern
    the person: of a next step (`closest`), every pathway that lacks a single requirement, else the first in statute
    order of those with the fewest missing requirements."""
    if entry["id"] not in r.closest or not entry["pathways"]:
        return entry
    fewest = min(len(w["missing"]) for w in entry["pathways"])
    kept = [w for w in entry["pathways"] if len(w["missing"]) == fewest]
    return {**entry, "pathways": kept if fewest == NEAR_MISS else sorted(kept, key=_days_short)[:1]}


def _days_short(w: dict[str, Any]) -> int:
    """The most days any missing requirement of a pathway lacks (a tie-break of the closest pathways: the one that
    the days served least hold up)."""
    return max((r["needed"] - r["have"] for r in w["missing"]
                if r.get("unit") == "days" and isinstance(r.get("needed"), int) and isinstance(r.get("have"), int)),
               default=0)


def pathways(law: Law, p: Person, cid: str) -> list[str]:
    """The pathways of a certificate that concern the person: those that replace no qualification of earlier law, and
    a replacement (§ 47 SchBV) only where the record holds a certificate its requirements name."""
    held = set(p.certificates)

    def named(rid: str) -> set[str]:
        r = law.requirements[rid]
        return set(r.certificates).union(*(named(c) for c in r.children))

    return [w for w in law.certificates[cid].pathways
            if not law.pathways[w].replacement or held & set().union(*(named(r) for r in law.pathways[w].requirements))]
