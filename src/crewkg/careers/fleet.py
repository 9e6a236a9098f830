"""The fleet forecast (`crewkg fleet`, design contract "Fleet forecast", docs/fleet.md): for each vessel the verdict on
the first day and every day it changes, with its causes and the remedies.

The days and causes are `manning.forecast`'s. A remedy is a fleet member (or the member concerned) who can hold what
is missing, from a day the rules give, and never a second reading of the law:
- the member concerned renews the medical proof whose lapse ended a certificate (`rules.validity.counts` says the
  certificate counts again with a proof examined that day);
- a member of the vessel can be issued a certificate the open place accepts: from the first day of a spell in which
  the rules let it be issued, and by the last day of that spell where the spell ends before the day of the change (an
  application period, a medical proof): `answers.eligibility.eligible_spells`, as `eligible_since` asks the program;
- a member of another vessel who fills the place on that day (the roster solver decides with the member added), or a
  member of the vessel from a later day on which the solver's own verdict leaves less open because of a change of
  that member (an apprentice's birthday);
- otherwise the planner's earliest day for the member concerned to obtain a certificate the place accepts.
Every remedy but the planner's is confirmed by the roster solver: the roster with it leaves less open."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from crewkg.law.statute import Law
from crewkg.manning.fleet import Fleet, FleetVessel
from crewkg.manning.forecast import (
    Check,
    Member,
    Requirements,
    State,
    causes,
    evaluate_members,
    prepare,
    requirement_periods,
    vessel_checks,
    vessel_signature,
)
from crewkg.manning.tables import ManningLaw
from crewkg.records.persons import Person

DAY = timedelta(days=1)
#: at most this many remedies of each kind per open verdict (the solver confirms each; the nearest are named)
MOST = 3
#: the reasons of a cause that end what a member held (`rules.validity` names them)
LOSSES = {"end_of_validity", "validity_period", "medical_overdue", "issued_after_regulation", "issued_before_regulation",
          "outside_regulation", "proof_lapsed", "substitution_lost", "lapsed"}


@dataclass
class Context:
    """What a forecast is made of: the law, the fleet, the span, the members' states and the requirements."""

    law: Law
    ml: ManningLaw
    fleet: Fleet
    start: date
    end: date
    members: dict[tuple[str, str], Member]
    reqs: Requirements
    lang: str


#: seconds of the last forecast's phases in this process (benchmarks/fleet.py prints them)
TIMINGS: dict[str, float] = {}


def forecast(law: Law, ml: ManningLaw, fleet: Fleet, start: date, end: date, lang: str = "de",
             workers: int = 1) -> dict[str, Any]:
    """The `crewkg fleet --format json` answer (design contract "Fleet forecast"). With `workers` > 1 the members'
    states and then the vessels are shared out among forked worker processes (pyDatalog keeps one database per
    process), which inherit what is computed before they start; the answer is the same."""
    import time

    from crewkg.workers import collection_held

    clock = time.perf_counter()
    with collection_held():
        vessels = {vessel_signature(fv.vessel, ml): fv.vessel for fv in fleet.vessels}
        sigs = list(vessels)
        parts = [sigs[i::2 * workers] for i in range(min(len(sigs), 2 * workers))] if workers > 1 and len(sigs) > 2 else [sigs]
        periods: dict[str, Any] = {}
        _shared(workers, parts, _periods_chunk, (law, ml, vessels, start, end, lang), periods.update)
        reqs, members, proofs = prepare(law, ml, fleet, start, end, lang, periods)
        TIMINGS["requirements"] = time.perf_counter() - clock
        chunks = _chunks(fleet, workers)
        _shared(workers, chunks, _members_chunk, (law, ml, members, proofs), lambda found: members.update(found))
        TIMINGS["members"] = time.perf_counter() - clock - TIMINGS["requirements"]
        ctx = Context(law, ml, fleet, start, end, members, reqs, lang)
        entries: dict[str, dict[str, Any]] = {}
        _shared(workers, chunks, _vessels_chunk, ctx, lambda found: entries.update(found))
        TIMINGS["vessels"] = time.perf_counter() - clock - TIMINGS["requirements"] - TIMINGS["members"]
    return {"fleet": fleet.id, "from": start.isoformat(), "until": end.isoformat(),
            "vessels": [entries[fv.vessel.id] for fv in fleet.vessels]}


def _chunks(fleet: Fleet, workers: int) -> list[list[str]]:
    """The vessel ids in about four chunks per worker (one chunk in this process)."""
    ids = [fv.vessel.id for fv in fleet.vessels]
    n = 1 if workers <= 1 else min(len(ids), 4 * workers)
    return [ids[i::n] for i in range(n)]


def _shared(workers: int, chunks: list[list[str]], job, inherit: Any, take) -> None:
    """Run `job` on each chunk, here or in forked workers that inherit `inherit`; `take` each result."""
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            take(job(chunk, inherit))
        return
    from crewkg.workers import fork_pool

    pool = fork_pool(min(workers, len(chunks)), fleet_forecast=inherit)
    try:
        for found in pool.imap_unordered(_in_worker, [(job, chunk) for chunk in chunks]):
            take(found)
    finally:
        pool.terminate()


def _in_worker(args: tuple) -> Any:
    from crewkg.workers import inherited

    job, chunk = args
    return job(chunk, inherited("fleet_forecast"))


def _periods_chunk(chunk: list[str], inherit: tuple) -> dict[str, Any]:
    """The requirement periods of the chunk's distinct vessel records."""
    law, ml, vessels, start, end, lang = inherit
    return requirement_periods(law, ml, {sig: vessels[sig] for sig in chunk}, start, end, lang)


def _members_chunk(chunk: list[str], inherit: tuple) -> dict[tuple[str, str], Member]:
    """The states of the members of the chunk's vessels."""
    law, ml, members, proofs = inherit
    mine = {k: m for k, m in members.items() if k[0] in set(chunk)}
    evaluate_members(law, ml, mine, proofs)
    return mine


def _vessels_chunk(chunk: list[str], ctx: Context) -> dict[str, dict[str, Any]]:
    """The answer entry of each vessel of the chunk."""
    return {fv.vessel.id: vessel_entry(ctx, fv) for fv in ctx.fleet.vessels if fv.vessel.id in set(chunk)}


def vessel_entry(ctx: Context, fv: FleetVessel) -> dict[str, Any]:
    """One vessel's verdict on the first day, its events (with causes and remedies) and the days not met."""
    cs = vessel_checks(ctx.law, ctx.ml, fv, ctx.members, ctx.reqs, ctx.start, ctx.end, ctx.lang)
    first = cs[0]
    entry: dict[str, Any] = {"vessel": fv.vessel.id, "satisfied": first.verdict["satisfied"],
                             "missing": _missing(first), "events": []}
    if first.verdict["satisfied"] is not True:
        entry["remedies"] = remedies(ctx, fv, first, [], cs[1:])
    for i, (prev, c) in enumerate(zip(cs, cs[1:], strict=False), 2):
        if c.verdict["satisfied"] == prev.verdict["satisfied"]:
            continue
        found = causes(ctx.law, ctx.ml, fv, ctx.members, ctx.reqs, c.day)
        entry["events"].append({"date": c.day.isoformat(), "satisfied": c.verdict["satisfied"], "causes": found,
                                "remedies": remedies(ctx, fv, c, found, cs[i:]) if c.verdict["satisfied"] is not True else [],
                                "missing": _missing(c)})
    entry["not_met_days"] = _not_met_days(cs, ctx.end)
    return entry


def _missing(c: Check) -> list[dict[str, Any]]:
    """What stays open on the check's day: kind, role and provision of each open place or unmet rule."""
    return [{"kind": m["kind"], "role": m["role"], "provision": m.get("provision")} for m in c.verdict.get("missing", [])]


def _not_met_days(cs: list[Check], end: date) -> int:
    """How many days of the span the verdict is not `satisfied: true`."""
    n = 0
    for c, nxt in zip(cs, [*cs[1:], None], strict=True):
        last = nxt.day if nxt is not None else end + DAY
        if c.verdict["satisfied"] is not True:
            n += (last - c.day).days
    return n


# ------------------------------------------------------------------------------------------------------------------
# Remedies


def remedies(ctx: Context, fv: FleetVessel, c: Check, found: list[dict[str, Any]],
             after: list[Check]) -> list[dict[str, Any]]:
    """Who can hold what is missing on the check's day, and from when (see the module's docstring); `after` are the
    vessel's later checks."""
    concerned = [x["person"] for x in found if x["person"] and x["reason"] in LOSSES]
    out = _renewals(ctx, fv, c, found)
    out += _applications(ctx, fv, c, concerned)
    out += _later(ctx, fv, c, after)
    out += _assignments(ctx, fv, c)
    helped = {r["person"] for r in out}
    for pid in dict.fromkeys(concerned):
        if pid not in helped:
            out += _planned(ctx, fv, c, pid)
    seen: set[tuple] = set()
    unique = []
    for r in out:
        key = (r["person"], r["certificate"], r["from"], r["action"])
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def remedy(person: str, certificate: str | None, start: date, provision: str | None, action: str,
           **more: Any) -> dict[str, Any]:
    """One remedy (design contract: person, certificate, from, provision) and how it is obtained (`action`)."""
    return {"person": person, "certificate": certificate, "from": start.isoformat(), "provision": provision,
            "action": action} | more


def _fills(ctx: Context, fv: FleetVessel, c: Check, changed: dict[str, tuple[Any, str, Person]],
           day: date | None = None) -> dict[str, Any] | None:
    """The roster solver's verdict on `day` (the check's by default) for the roster of the check's day with the
    members in `changed` (person id -> (People, id there, the record)) as given there, where it leaves less open than
    the check; else None."""
    from crewkg.manning.people import joined
    from crewkg.manning.rosters import check_roster

    day = day or c.day
    parts = []
    for pid in c.on_board:
        s = ctx.members[(fv.vessel.id, pid)].on(c.day)
        parts.append((s.people, s.rid, dataclasses.replace(s.person, id=pid)))
    parts = [changed.pop(p.id) if p.id in changed else (src, rid, p) for src, rid, p in parts] + list(changed.values())
    req = ctx.reqs.on(fv, day, c.reductions)
    verdict = check_roster(ctx.law, ctx.ml, req, [p for _, _, p in parts], ctx.lang,
                           people=joined(parts, ctx.law), notes=False)
    less = verdict["satisfied"] is True or len(verdict["missing"]) < len(c.verdict["missing"])
    return verdict if less else None


def _basis(ctx: Context, verdict: dict[str, Any], pid: str, fallback: str | None) -> str | None:
    """The provision by which the solver's verdict lets the member fill its place: a substitution's, else the
    certificate's."""
    for d in verdict.get("details", []):
        if d["person"] == pid and d.get("substitution_provision"):
            return d["substitution_provision"]
    return fallback


def _derived(ctx: Context, fv: FleetVessel, q: Person, day: date, pid: str) -> tuple[Any, str, Person]:
    """What a changed record can do on `day` (one run of the eligibility program), as `_fills` takes it."""
    from crewkg.manning.people import people_dated
    from crewkg.manning.rosters import proofs_of

    rid = f"{pid}@remedy"
    people = people_dated(ctx.law, [(dataclasses.replace(q, id=rid), day)], ctx.ml.proven_functions,
                          proofs_of(ctx.reqs.on(fv, day)))
    return people, rid, dataclasses.replace(q, id=pid)


def _renewals(ctx: Context, fv: FleetVessel, c: Check, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The member concerned renews the medical proof whose lapse ended a certificate on that day."""
    from crewkg.records.dated import at
    from crewkg.rules.validity import counts

    out = []
    for x in found:
        if x["reason"] != "medical_overdue" or x["person"] not in c.on_board:
            continue
        m = ctx.members[(fv.vessel.id, x["person"])]
        q = dataclasses.replace(at(m.person, ctx.law, c.day, m.scopes or None), medical_fitness=True,
                                medical_examined=c.day, medical_valid_until=None)
        if counts(q, ctx.law, x["certificate"], c.day) and _fills(ctx, fv, c, {q.id: _derived(ctx, fv, q, c.day, q.id)}) is not None:
            out.append(remedy(q.id, x["certificate"], c.day, x["provision"], "renew_medical"))
    return out


def _accepted(ctx: Context, c: Check) -> set[str]:
    """The certificates that would fill an open place of the check: those the verdict names for an open position,
    and those of the roles an open function accepts."""
    out: set[str] = set()
    for m in c.verdict.get("missing", []):
        accepts = m.get("accepts") or {}
        out |= set(accepts.get("certificates", []))
        if m["kind"] == "function":
            roles = set(accepts.get("roles", []))
            out |= {cert.id for cert in ctx.law.certificates.values() if cert.role in roles}
    reg = ctx.law.regulation_on(c.day)
    return {x for x in out if x in ctx.law.certificates and reg is not None and ctx.law.certificates[x].regulation == reg.id}


def _applications(ctx: Context, fv: FleetVessel, c: Check, concerned: list[str]) -> list[dict[str, Any]]:
    """A member of the vessel who can be issued a certificate the open place accepts: the member concerned from the
    first day of its latest spell in which the rules let it be issued (by that spell's last day where it ends before
    the day of the check: an application period, a medical proof), another member of the vessel where the rules let
    it be issued on the day; each confirmed by the solver with the certificate issued on that first day (and, where the
    member's medical proof would not let it count on the day of the check, renewed)."""
    from crewkg.answers.eligibility import eligible_spells
    from crewkg.records.dated import at
    from crewkg.rules.eligibility import eligible_among

    wanted = _accepted(ctx, c)
    reg = ctx.law.regulation_on(c.day)
    if not wanted or reg is None:
        return []
    board = [ctx.members[(fv.vessel.id, pid)] for pid in c.on_board]
    today = eligible_among([(at(m.person, ctx.law, c.day, m.scopes or None), c.day) for m in board], ctx.law, wanted)
    out = []
    for m in sorted(board, key=lambda m: (m.person.id not in concerned, c.on_board.index(m.person.id))):
        pid = m.person.id
        certs = {x for x in wanted if x not in m.person.certificates and (pid in concerned or (pid, x) in today)}
        spells = eligible_spells(ctx.law, m.person, certs, reg.in_force_from, c.day) if certs else {}
        for cert, runs in sorted(spells.items(), key=lambda kv: ctx.law.certificates[kv[0]].order):
            found = _applied(ctx, fv, c, m, cert, runs[-1])
            if found is not None:
                out.append(found)
                break  # the lowest certificate that fills it is enough
        if len(out) >= MOST:
            break
    return out


def _applied(ctx: Context, fv: FleetVessel, c: Check, m: Member, cert: str,
             spell: tuple[date, date]) -> dict[str, Any] | None:
    """The remedy of an application for `cert` in `spell`, where the solver confirms it fills what is open."""
    from crewkg.records.dated import at
    from crewkg.rules.validity import counts

    first, last = spell
    pid = m.person.id
    q = at(m.person, ctx.law, c.day, m.scopes or None)
    q = dataclasses.replace(q, certificates=[*q.certificates, cert], certificate_issued={**q.certificate_issued, cert: first})
    actions = ["apply"]
    if not counts(q, ctx.law, cert, c.day):
        q = dataclasses.replace(q, medical_fitness=True, medical_examined=c.day, medical_valid_until=None)
        actions.append("renew_medical")
    if not counts(q, ctx.law, cert, c.day) or _fills(ctx, fv, c, {pid: _derived(ctx, fv, q, c.day, pid)}) is None:
        return None
    more = {"apply_by": last.isoformat()} if last < c.day else {}
    return remedy(pid, cert, first, _pathways(ctx, m.person, cert, first), "apply", actions=actions, **more)


def _pathways(ctx: Context, p: Person, cert: str, on: date) -> str | None:
    """The provisions of the certificate's pathways the record satisfies on `on` (where the rules said it can be issued)."""
    from crewkg.records.dated import at
    from crewkg.rules.eligibility import satisfied_pathways

    chosen = frozenset(ctx.law.certificates[cert].pathways)
    found = satisfied_pathways([(at(p, ctx.law, on), on)], ctx.law, chosen)
    cites = [ctx.law.citation(ctx.law.pathways[w].provision) for w in ctx.law.certificates[cert].pathways if (p.id, w) in found]
    return ", ".join(dict.fromkeys(cites)) or None


def _later(ctx: Context, fv: FleetVessel, c: Check, after: list[Check]) -> list[dict[str, Any]]:
    """The members of the vessel whose change on a later day of the span lets the roster leave less open than on the
    check's day: the roster solver's own verdict on that day (the vessel's next check that leaves less open), named
    by the members it reads a change of then (`manning.forecast.causes`)."""
    for later in after:
        if later.verdict["satisfied"] is True or len(later.verdict["missing"]) < len(c.verdict["missing"]):
            found = causes(ctx.law, ctx.ml, fv, ctx.members, ctx.reqs, later.day)
            return [remedy(x["person"], x["certificate"], later.day, x["provision"], "later")
                    for x in found if x["person"] and x["reason"] not in LOSSES | {"changed"}][:MOST]
    return []


def _assignments(ctx: Context, fv: FleetVessel, c: Check) -> list[dict[str, Any]]:
    """A member of another vessel of the fleet who fills what is open on the check's day: the roster solver decides
    with the member added; those whose highest role is lowest first (a Matrose for a Matrose's place, not a
    Schiffsführer)."""
    wanted = {m["role"] for m in c.verdict.get("missing", [])}
    candidates = []
    for (vid, pid), m in ctx.members.items():
        if vid == fv.vessel.id:
            continue
        s = m.on(c.day)
        can = s.people.fills[s.rid] | s.people.functions[s.rid]
        if can & wanted:
            candidates.append((len(can), vid, pid, s))
    out = []
    for _, vid, pid, s in sorted(candidates, key=lambda x: x[0])[: 4 * MOST]:
        name = f"{vid}/{pid}" if any(p.id == pid for p in fv.crew) else pid
        verdict = _fills(ctx, fv, c, {name: (s.people, s.rid, dataclasses.replace(s.person, id=name))})
        if verdict is not None:
            out.append(remedy(pid, _holding(ctx, s), c.day, _basis(ctx, verdict, name, _provision_of(ctx, s)), "assign",
                              vessel=vid))
            if len(out) >= MOST:
                break
    return out


def _holding(ctx: Context, s: State) -> str | None:
    """The highest certificate the member's state counts (the one by which it fills a place), if any."""
    from crewkg.rules.validity import held

    counting = [x for x in held(s.person, s.day, ctx.law) if x in ctx.law.certificates]
    return max(counting, key=lambda x: len(set(ctx.law.below(ctx.law.certificates[x].role or ""))), default=None)


def _provision_of(ctx: Context, s: State) -> str | None:
    cert = _holding(ctx, s)
    return ctx.law.citation(ctx.law.certificates[cert].provision) if cert else None


def _planned(ctx: Context, fv: FleetVessel, c: Check, pid: str) -> list[dict[str, Any]]:
    """The planner's earliest day for the member concerned to obtain the first certificate the open place accepts
    (its fastest route; every step confirmed by the rules on its own day)."""
    from crewkg.answers.eligibility import check
    from crewkg.careers.graph import Careers
    from crewkg.careers.planning import Pace, make_planner
    from crewkg.careers.routes import plan
    from crewkg.records.dated import at

    m = ctx.members.get((fv.vessel.id, pid))
    wanted = sorted(_accepted(ctx, c), key=lambda x: ctx.law.certificates[x].order)
    if m is None or not wanted:
        return []
    p = at(m.person, ctx.law, c.day, m.scopes or None)
    answer = check(ctx.law, [p], c.day, ctx.lang)[0]
    pace = Pace.from_kb()
    planner = make_planner(ctx.law, p, answer, c.day, pace, ctx.lang)
    for cert in wanted:
        result = plan(ctx.law, p, answer, cert, c.day, pace, graph=Careers(ctx.law), planner=planner, lang=ctx.lang, memo={})
        route = result["routes"][0] if result.get("routes") else None
        if route and route.get("earliest"):
            via = route["steps"][-1]["provision"] if route.get("steps") else None
            return [remedy(pid, cert, date.fromisoformat(route["earliest"]), via, "plan")]
    return []
