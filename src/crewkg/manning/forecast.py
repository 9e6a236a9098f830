"""A fleet's minimum crew over a span of days (`crewkg fleet`): the roster verdict of every vessel on the first day
and on every day its verdict can change, with what changed that day.

Nothing here reads the law a second time. The days come from the law: for each member, the days on which an input of
the record can change (`answers.eligibility.event_dates`: the kb's ages, the validity ends and medical due dates of
`rules.validity`, exams, issue dates, dated Fahrzeit reaching the kb's day counts) and the ages and day counts of the
kb's substitutions (§ 43 Abs. 6 SchBV: an apprentice of 17); for each vessel, the days on which the minimum-crew
program's answer can change (the regulations' days, the amendments', the last days of transitional rules) and the
roster's school-attendance periods. On those days (and on the day after each) the members are evaluated in batches,
one run of the eligibility program for many (`people.people_dated`); a vessel's roster is checked by the roster
solver (`rosters.check_roster`) only on the days on which what a member can do, or the requirement, changes. Between
two such days the verdict is the same, because everything the solver reads is.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from crewkg.law.statute import Law
from crewkg.manning.fleet import Fleet, FleetVessel
from crewkg.manning.people import People, joined, people_dated, substitute_lacks
from crewkg.manning.requirement import Requirement
from crewkg.manning.tables import ManningLaw, Substitution, TransitionalRule
from crewkg.records.persons import Person

DAY = timedelta(days=1)
#: member records per run of the eligibility program (the register's measure: runs of 70–150 are fastest)
BATCH = 100


@dataclass
class State:
    """A member as of `day` (and until the next state): the record credited on that day, what the member can do
    (the entry `rid` of `people`) and the part of it the roster verdict reads (`key`)."""

    day: date
    person: Person
    people: People
    rid: str
    key: tuple


@dataclass
class Member:
    """A crew member of one vessel of the fleet and the states it passes through in the span."""

    vessel: str
    person: Person
    scopes: dict[str, Any]
    days: list[date] = field(default_factory=list)
    states: list[State] = field(default_factory=list)

    def on(self, day: date) -> State:
        """The state in force on `day` (the last one that began by then)."""
        found = self.states[0]
        for s in self.states:
            if s.day > day:
                break
            found = s
        return found


@dataclass
class Check:
    """The roster verdict of a vessel on `day`, in force until the next check."""

    day: date
    verdict: dict[str, Any]
    requirement: Requirement
    key: tuple
    on_board: list[str]
    #: the temporary reductions that hold on `day` (school attendance, `reductions_on`)
    reductions: frozenset[str] = frozenset()


# ------------------------------------------------------------------------------------------------------------------
# The days the law gives


def manning_days(law: Law, ml: ManningLaw) -> set[date]:
    """The days on which the minimum-crew program's answer for a vessel can change: a regulation's first day and the
    day after its last, an amendment's day (or the first and last of the days the sources leave for it), the day after
    a transitional rule's last day."""
    found: set[date] = set()
    for reg in law.regulations.values():
        found.add(reg.in_force_from)
        if reg.in_force_until is not None:
            found.add(reg.in_force_until + DAY)
    for a in ml.amendments.values():
        found |= {d for d in (a.in_force_from, a.earliest, a.latest) if d is not None}
    for r in ml.rules.values():
        if isinstance(r, TransitionalRule) and r.until is not None:
            found.add(r.until + DAY)
    return found


def substitutions(ml: ManningLaw) -> list[Substitution]:
    """The kb's substitutions that ask something of the substitute (an age, an apprenticeship year, Fahrzeit)."""
    return sorted((r for r in ml.rules.values() if isinstance(r, Substitution)
                   and (r.min_age, r.min_apprenticeship_year, r.min_fahrzeit_days) != (None, None, None)),
                  key=lambda r: r.id)


def member_days(law: Law, ml: ManningLaw, p: Person, scopes: dict[str, Any], start: date, end: date) -> set[date]:
    """The days from `start` to `end` on which an input of the member's roster verdict can change: the record's event
    dates (`answers.eligibility.event_dates`), the birthdays reaching the ages of the kb's substitutions and the days
    a service log reaches their Fahrzeit, and the regulations' days."""
    from crewkg.answers.eligibility import event_dates
    from crewkg.law.calendar import birthday

    found = set(event_dates(law, p, scopes, start, end))
    for s in substitutions(ml):
        if s.min_age is not None and p.birth_date is not None:
            found.add(birthday(p.birth_date, s.min_age))
        if s.min_fahrzeit_days is not None and "any" in scopes:
            found.add(scopes["any"].nth(s.min_fahrzeit_days))
    for reg in law.regulations.values():
        found |= {reg.in_force_from, *((reg.in_force_until + DAY,) if reg.in_force_until else ())}
    return {d for d in found if d is not None and start <= d <= end}


# ------------------------------------------------------------------------------------------------------------------
# The members over the span


def members_of(law: Law, ml: ManningLaw, fleet: Fleet, start: date, end: date) -> dict[tuple[str, str], Member]:
    """Every member of every vessel, keyed (vessel id, person id), with the days it is evaluated on: the first day,
    every day an input can change, and the day after each (a change read at the end of a day shows the next)."""
    from crewkg.records.dated import ledger

    out: dict[tuple[str, str], Member] = {}
    for fv in fleet.vessels:
        for p in fv.crew:
            scopes = ledger(p, law) if p.service else {}
            days = member_days(law, ml, p, scopes, start, end)
            days |= {d + DAY for d in days if d < end} | {start}
            out[(fv.vessel.id, p.id)] = Member(fv.vessel.id, p, scopes, sorted(days))
    return out


def evaluate_members(law: Law, ml: ManningLaw, members: dict[tuple[str, str], Member],
                     proofs: dict[tuple[str, date], dict[str, str]]) -> None:
    """Each member's states: the record on each of its days and what it can do then, in runs of the eligibility
    program of `BATCH` records that share a regulation and a vessel's proofs (`proofs`: (vessel, day) -> the
    certificates its waters let a person prove); a day whose verdict key equals the day before's adds no state."""
    from crewkg.records.dated import at

    groups: dict[tuple, list[tuple[Member, Person, date]]] = {}
    n = 0
    for m in members.values():
        for day in m.days:
            reg = law.regulation_on(day)
            proof = proofs.get((m.vessel, day), {})
            q = dataclasses.replace(at(m.person, law, day, m.scopes or None), id=f"{m.person.id}@{n}")
            n += 1
            groups.setdefault((reg.id if reg else None, tuple(sorted(proof.items()))), []).append((m, q, day))
    subs = substitutions(ml)
    found: dict[tuple[str, str], list[State]] = {}
    for (_, proof), records in groups.items():
        for i in range(0, len(records), BATCH):
            chunk = records[i:i + BATCH]
            people = people_dated(law, [(q, day) for _, q, day in chunk], ml.proven_functions, dict(proof))
            for m, q, day in chunk:
                key = verdict_key(people, q.id, tuple(not substitute_lacks(s, q, day) for s in subs))
                found.setdefault((m.vessel, m.person.id), []).append(State(day, q, people, q.id, key))
    for k, m in members.items():
        states = sorted(found[k], key=lambda s: s.day)
        m.states = [s for i, s in enumerate(states) if i == 0 or s.key != states[i - 1].key]


def verdict_key(people: People, rid: str, substitutes: tuple[bool, ...]) -> tuple:
    """What the roster solver reads of a member (the roles it fills, the functions it holds, the certificates of the
    current law with their issue dates, the roles its proofs make, whether it meets each substitution's conditions):
    two days with the same keys for every member and the same requirement have the same verdict."""
    return (frozenset(people.certified[rid]), frozenset(people.fills[rid]), frozenset(people.top[rid]),
            frozenset(people.functions[rid]),
            frozenset((r, frozenset(d)) for r, d in people.current.get(rid, {}).items()),
            frozenset(people.proven.get(rid, {}).items()), frozenset(people.stated.get(rid, ())),
            frozenset(people.earlier.get(rid, ())), substitutes)


# ------------------------------------------------------------------------------------------------------------------
# The vessels over the span


def vessel_signature(v, ml: ManningLaw) -> str:
    """A vessel record without its id: two vessels with the same record have the same minimum crew on every day."""
    import json

    return json.dumps({k: x for k, x in v.record(ml).items() if k != "id"}, sort_keys=True, default=str)


@dataclass
class Requirements:
    """The requirement of each vessel over the span: asked on the first day, and again on a day of `manning_days`
    only where the program's answer can change then for that vessel — another regulation or amendment scenario, or
    the end of a transitional rule its requirement applies (the one rule of the program that reads the day). Vessels
    with the same record share one answer (the program reads the record, not the id); with the temporary reductions
    only on the days a member is at school."""

    law: Law
    ml: ManningLaw
    fleet: Fleet
    start: date
    end: date
    lang: str
    #: vessel signature -> [(first day of a period, the requirement then)], in date order
    periods: dict[str, list[tuple[date, Requirement]]] = field(default_factory=dict)
    _temporary: dict[tuple[str, date, frozenset[str]], Requirement] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.periods:
            vessels = {vessel_signature(fv.vessel, self.ml): fv.vessel for fv in self.fleet.vessels}
            self.periods = requirement_periods(self.law, self.ml, vessels, self.start, self.end, self.lang)

    def days(self) -> set[date]:
        """Every day a vessel's requirement is asked anew."""
        return {d for ps in self.periods.values() for d, _ in ps}

    def period(self, fv: FleetVessel, day: date) -> tuple[date, Requirement]:
        """The first day of the vessel's period of unchanged requirement that `day` lies in, and the requirement."""
        return [p for p in self.periods[vessel_signature(fv.vessel, self.ml)] if p[0] <= day][-1]

    def on(self, fv: FleetVessel, day: date, reductions: frozenset[str] = frozenset()) -> Requirement:
        """The vessel's requirement on `day`, with the temporary reductions whose dated conditions hold that day
        (`reductions`, `manning.attendance`: asked on the period's first day, or on `day` itself)."""
        first, req = self.period(fv, day)
        if reductions:
            from crewkg.manning.crew import requirement

            key = (vessel_signature(fv.vessel, self.ml), first, reductions)
            if key not in self._temporary:
                self._temporary[key] = requirement(self.law, self.ml, fv.vessel, max(first, day), reductions, self.lang)
            req = self._temporary[key]
        answer = dict(req.answer, vessel=fv.vessel.id, as_of=day.isoformat())
        return dataclasses.replace(req, vessel=fv.vessel, as_of=day, answer=answer)


def requirement_periods(law: Law, ml: ManningLaw, vessels: dict[str, Any], start: date, end: date,
                        lang: str = "de") -> dict[str, list[tuple[date, Requirement]]]:
    """Vessel signature -> [(first day of a period, the requirement then)] for the vessels named by their signature:
    asked on the first day, and again on a day of `manning_days` where the program's answer can change for the
    vessel (see `Requirements`)."""
    from crewkg.manning.crew import requirements
    from crewkg.manning.program import scenarios

    first = requirements(law, ml, list(vessels.values()), start, False, lang, readings=False)
    periods = {sig: [(start, r)] for sig, r in zip(vessels, first, strict=True)}
    for day in sorted(d for d in manning_days(law, ml) if start < d <= end):
        moved = law.regulation_on(day) != law.regulation_on(day - DAY) or scenarios(ml, day) != scenarios(ml, day - DAY)
        due = [sig for sig, ps in periods.items()
               if moved or any(x.until is not None and x.until + DAY == day for x in ps[-1][1].transitional)]
        if due:
            again = requirements(law, ml, [vessels[s] for s in due], day, False, lang, readings=False)
            for sig, r in zip(due, again, strict=True):
                periods[sig].append((day, r))
    return periods


def at_school(fv: FleetVessel, day: date) -> set[str]:
    """The members at school on `day` (the roster's school-attendance periods)."""
    from crewkg.manning import attendance

    return set(attendance.at_school(fv.school, day))


def school_days(ml: ManningLaw, fv: FleetVessel) -> set[date]:
    """The days the school attendance can change a verdict: a period's first day and the day after its last, and
    the first day beyond the months a temporary reduction may last (from each uninterrupted period's start)."""
    from crewkg.law.calendar import completed_on
    from crewkg.manning import attendance
    from crewkg.manning.tables import Adjustment

    months = {r.max_months for r in ml.rules.values() if isinstance(r, Adjustment) and r.temporary and r.max_months}
    days = {d for s in fv.school for d in (s.start, s.end + DAY)}
    return days | {completed_on(start, months=m) for start, _ in attendance.spells(fv.school) for m in months}


def reductions_on(law: Law, ml: ManningLaw, fv: FleetVessel, reqs: Requirements, day: date) -> frozenset[str]:
    """The temporary reductions of the vessel's table that hold on `day`: every dated condition met
    (`manning.attendance`), the members at school read by the roles they hold that day, as `crewkg crew` reads them."""
    from crewkg.manning import attendance
    from crewkg.manning.crew import roles_at_school

    away = attendance.at_school(fv.school, day)
    if not away:
        return frozenset()
    dated = attendance.dated_reductions(ml, fv.school, day, roles_at_school(law, ml, fv.crew, away, day))
    derived = reqs.period(fv, day)[1].derived
    fits = derived.temporary_fits if derived is not None else ()
    return frozenset(r for r, cs in dated.items() if r in fits and all(c["met"] for c in cs))


def vessel_checks(law: Law, ml: ManningLaw, fv: FleetVessel, members: dict[tuple[str, str], Member],
                  reqs: Requirements, start: date, end: date, lang: str) -> list[Check]:
    """The roster verdict on the first day and on every day what a member can do, the requirement, or who is at
    school changes; a day whose keys equal the last check's keeps that check's verdict (no new check is listed)."""
    from crewkg.manning.rosters import check_roster

    mine = [members[(fv.vessel.id, p.id)] for p in fv.crew]
    days = {start} | {s.day for m in mine for s in m.states} | {d for d, _ in reqs.periods[vessel_signature(fv.vessel, ml)]}
    days |= school_days(ml, fv)
    checks: list[Check] = []
    for day in sorted(d for d in days if start <= d <= end):
        away = at_school(fv, day)
        board = [m for m in mine if m.person.id not in away]
        reduced = reductions_on(law, ml, fv, reqs, day)
        req = reqs.on(fv, day, reduced)
        key = (reqs.period(fv, day)[0], tuple(sorted(away)), reduced, tuple((m.person.id, m.on(day).key) for m in board))
        if checks and checks[-1].key == key:
            continue
        states = [m.on(day) for m in board]
        persons = [dataclasses.replace(s.person, id=m.person.id) for m, s in zip(board, states, strict=True)]
        people = joined([(s.people, s.rid, p) for s, p in zip(states, persons, strict=True)], law)
        verdict = check_roster(law, ml, req, persons, lang, people=people, notes=False) if persons else _empty(req)
        checks.append(Check(day, verdict, req, key, [m.person.id for m in board], reduced))
    return checks


def _empty(req: Requirement) -> dict[str, Any]:
    """The verdict on a day nobody of the roster is on board: nothing filled (the roster check needs members)."""
    return {"satisfied": False if req.covered else None, "assignment": {}, "missing": [
        {"kind": "position", "role": role, "provision": req.answer.get("provision")}
        for alt in req.alternatives[:1] for role, n in alt.counts.items() for _ in range(n)]}


def proof_days(fleet: Fleet, members: dict[tuple[str, str], Member], reqs: Requirements) -> dict[tuple[str, date], dict[str, str]]:
    """(vessel, day) -> the certificates the vessel's waters let a person prove on that day (crew:QualificationProof),
    for every day a member of the vessel is evaluated on."""
    from crewkg.manning.rosters import proofs_of

    out: dict[tuple[str, date], dict[str, str]] = {}
    for fv in fleet.vessels:
        for p in fv.crew:
            for day in members[(fv.vessel.id, p.id)].days:
                if (fv.vessel.id, day) not in out:
                    out[(fv.vessel.id, day)] = proofs_of(reqs.on(fv, day))
    return out


def prepare(law: Law, ml: ManningLaw, fleet: Fleet, start: date, end: date, lang: str = "de",
            periods: dict[str, list[tuple[date, Requirement]]] | None = None,
            ) -> tuple[Requirements, dict[tuple[str, str], Member], dict[tuple[str, date], dict[str, str]]]:
    """The requirements over the span (`periods` where the caller asked them already, `requirement_periods`), the
    members with the days they are evaluated on (not yet evaluated: `evaluate_members`) and each vessel's proofs on
    those days."""
    reqs = Requirements(law, ml, fleet, start, end, lang, periods or {})
    members = members_of(law, ml, fleet, start, end)
    return reqs, members, proof_days(fleet, members, reqs)


def timelines(law: Law, ml: ManningLaw, fleet: Fleet, start: date, end: date,
              lang: str = "de") -> tuple[dict[str, list[Check]], dict[tuple[str, str], Member], Requirements]:
    """Every vessel's checks over the span, the members with their states, and the requirements asked (in this
    process; `careers.fleet.forecast` runs the same steps over worker processes)."""
    reqs, members, proofs = prepare(law, ml, fleet, start, end, lang)
    evaluate_members(law, ml, members, proofs)
    checks = {fv.vessel.id: vessel_checks(law, ml, fv, members, reqs, start, end, lang) for fv in fleet.vessels}
    return checks, members, reqs


# ------------------------------------------------------------------------------------------------------------------
# What changed on a day


def cause(person: str | None, certificate: str | None, reason: str, provision: str | None, **more: Any) -> dict[str, Any]:
    """One cause of a change of verdict (design contract: person, certificate, reason, provision)."""
    return {"person": person, "certificate": certificate, "reason": reason, "provision": provision or None} | more


def causes(law: Law, ml: ManningLaw, fv: FleetVessel, members: dict[tuple[str, str], Member], reqs: Requirements,
           day: date) -> list[dict[str, Any]]:
    """What changed on `day` for the vessel's roster: each member whose verdict key changed (a certificate that no
    longer counts and why, one that counts from that day, a role or a substitution an age or Fahrzeit opens, a
    function a proof makes or loses), a member who leaves for school or returns, and a requirement that changed."""
    out: list[dict[str, Any]] = []
    before, after = day - DAY, day
    req = reqs.on(fv, day)
    reaching = {s.id for alt in req.alternatives for s in alt.substitutions}
    # another regulation from that day: what its members can do changes with it, said once as the law's change
    law_changed = law.regulation_on(before) != law.regulation_on(after)
    for p in fv.crew:
        m = members[(fv.vessel.id, p.id)]
        was, now = m.on(before), m.on(after)
        away0, away1 = p.id in at_school(fv, before), p.id in at_school(fv, after)
        if away0 != away1:
            out.append(cause(p.id, None, "school_attendance" if away1 else "school_return", None))
        if was.key != now.key:
            out += [x for x in member_causes(law, ml, p.id, was, now, day, reaching)
                    if not (law_changed and x["reason"] == "changed")]
    if fv.school and before >= reqs.start:  # a temporary reduction begins or ends to hold (its dated conditions)
        held, holds = reductions_on(law, ml, fv, reqs, before), reductions_on(law, ml, fv, reqs, after)
        for rid in sorted(held ^ holds):
            r = ml.rules[rid]
            out.append(cause(None, None, "school_reduction" if rid in holds else "school_reduction_ends",
                             law.citation(r.provision) if r.provision in law.provisions else r.provision))
    if (law_changed or reqs.period(fv, before)[0] != reqs.period(fv, after)[0]) and before >= reqs.start:
        out.append(cause(None, None, "law", req.answer.get("provision")))
    return out


def member_causes(law: Law, ml: ManningLaw, pid: str, was: State, now: State, day: date,
                  reaching: set[str]) -> list[dict[str, Any]]:
    """Why a member's verdict key changed on `day`, from the rules' own answers on the day before and the day."""
    from crewkg.rules.validity import held, lapses

    p0, p1 = was.person, now.person
    h0, h1 = set(held(p0, day - DAY, law)), set(held(p1, day, law))
    out = []
    for c in [c for c in p1.certificates if c in h0 - h1]:
        x = next(iter(lapses(p1, law, c, day)), None)
        out.append(cause(pid, c, x.reason if x else "lapsed", law.citation(x.provision) if x else None))
    for c in [c for c in p1.certificates if c in h1 - h0]:
        issued = p1.certificate_issued.get(c) == day
        provision = law.certificates[c].provision if c in law.certificates else None
        out.append(cause(pid, c, "issued" if issued else "counts_again", law.citation(provision) if provision else None))
    e0, e1 = was.people, now.people
    gained = (e1.fills[now.rid] - e0.fills[was.rid]) | (e1.functions[now.rid] - e0.functions[was.rid])
    for role in sorted(gained):  # a role or a function stated in the record whose minimum age is reached
        if role in e0.too_young.get(was.rid, {}):
            provision, _ = e0.too_young[was.rid][role]
            out.append(cause(pid, _by(law, p1, h1, role), "age_reached", law.citation(provision), role=role))
    for s, f0, f1 in zip(substitutions(ml), was.key[-1], now.key[-1], strict=True):
        if f0 != f1 and s.id in reaching:
            lacks = substitute_lacks(s, p0, day - DAY) if f1 else substitute_lacks(s, p1, day)
            reason = _LACK_REASON.get(lacks[0][0], "substitution") if lacks else "substitution"
            out.append(cause(pid, _by(law, p1, h1, s.by or ""), reason if f1 else "substitution_lost",
                             law.citation(s.provision), role=s.by, instead_of=s.role))
    for f in sorted(e0.proven.get(was.rid, {}).keys() - e1.proven.get(now.rid, {}).keys()):
        out.append(cause(pid, e0.proven[was.rid][f], "proof_lapsed", law.citation(law.certificates[e0.proven[was.rid][f]].provision)))
    for f in sorted(e1.proven.get(now.rid, {}).keys() - e0.proven.get(was.rid, {}).keys()):
        out.append(cause(pid, e1.proven[now.rid][f], "proof_made", law.citation(law.certificates[e1.proven[now.rid][f]].provision)))
    if not out:  # the rules' answer changed, and no rule of the kinds above says why: the day is named all the same
        out.append(cause(pid, None, "changed", None))
    return out


#: what a would-be substitute lacked (`people.substitute_lacks`) -> the reason its reaching names
_LACK_REASON = {"lacks_age": "age_reached", "lacks_days": "days_reached", "lacks_year": "apprenticeship_year",
                "lacks_contract": "apprenticeship_year", "lacks_year_unknown": "apprenticeship_year"}


def _by(law: Law, p: Person, counting: set[str], role: str) -> str | None:
    """The certificate by which the member fills `role` (its own, or one of a role above it)."""
    for c in p.certificates:
        cert = law.certificates.get(c)
        if c in counting and cert is not None and cert.role and (cert.role == role or role in law.below(cert.role)):
            return c
    return None
