"""One step of a route: a pathway planned from a state — what remains, the day it can be completed, the state after
it, and the record the plan leads to on that day (`projected_record`), which the rules then confirm (careers.planner)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

from crewkg.careers.pace import BeyondCalendar, Ledger, accrue, credited_in
from crewkg.careers.projection import Need, Programme, finish_day, first_day, need_of, plan_programme, walk_items
from crewkg.careers.route_state import Context, State
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.records.persons import Programme as PersonProgramme
from crewkg.rules.kinds import kind


@dataclass
class StepResult:
    pathway: str
    certificate: str
    remaining: list[dict[str, Any]]
    earliest: int | None
    state: State | None
    blocked: list[dict[str, Any]]
    projected: Person | None = None  # the record the plan leads to on the step's date, for the rules to confirm
    sailing_role: str | None = None  # the role the step's days on board are served in (a logged record's entries)
    start: State | None = None       # the state the step started from


def step(ctx: Context, state: State, pathway_id: str) -> StepResult:
    """Plan one pathway from `state`: what remains, the day it can be completed and the state after it. A step
    that would end after the last day of the calendar cannot be planned (an evaluation date near 9999, or a
    record's numbers far beyond any the law asks)."""
    try:
        return _step(ctx, state, pathway_id)
    except BeyondCalendar:
        remaining = unplanned_step(ctx.items[pathway_id], set(state.held))
        return StepResult(pathway_id, ctx.law.pathways[pathway_id].certificate, remaining, None, None, remaining)


def _step(ctx: Context, state: State, pathway_id: str) -> StepResult:
    law = ctx.law
    w = law.pathways[pathway_id]
    items = ctx.items[pathway_id]
    prog = plan_programme(ctx, state, items)
    needs = [need_of(ctx, state, it, prog) for it in items]
    s = state.t
    open_ = [n for n in needs if not n.met]
    blocked = [n.item for n in open_ if n.blocked]
    if blocked:
        for n in open_:
            stamp(ctx, state, n, prog, None)
        return StepResult(pathway_id, w.certificate, [n.item for n in open_], None, None, blocked)
    sail = max((n.sail for n in open_), default=0)
    after = max((n.after for n in open_), default=0)
    ledger, last = state.ledger, s
    if sail:
        last, ledger = accrue(ledger, first_day(state, prog), sail, ctx.pace)
    credited = sail
    sailed = ledger  # the step's days before its programme's end: the days after it are credited with them
    end = max([s, last] + [n.not_before for n in open_] + ([prog.end] if prog and prog.new else []))
    if after and prog is not None:
        rest = after - credited_in(ledger, prog.end + 1, last)
        if rest > 0:
            last2, ledger = accrue(ledger, max(prog.end, last) + 1, rest, ctx.pace)
            credited += rest
            end = max(end, last2)
    # a document valid at the start may lapse before the step's date (medical fitness)
    if ctx.person is not None:
        on = ctx.date(end)
        for n in needs:
            lapsed = kind(n.item["kind"]).lapsed
            if n.met and lapsed is not None and lapsed(ctx.person, n.item, on):
                n.met, n.at_step = False, True
                n.item["met"], n.item["have"] = False, False
                open_.append(n)
    for n in open_:
        stamp(ctx, state, n, prog, end, sailed)
    role_added = dict(state.role_added)
    if state.role is not None and credited:
        role_added[state.role] = role_added.get(state.role, 0) + credited
    role = state.role
    new_role = law.certificates[w.certificate].role
    if new_role in ctx.depth and (role is None or ctx.depth[new_role] > ctx.depth.get(role, -1)):
        role = new_role
    lo = end - ctx.pace.period + 1
    sailed = tuple((max(a, s + 1), b, state.role) for a, b in ledger if b > s)
    after_state = State(t=end, ledger=tuple((a, b) for a, b in ledger if b >= lo), credited=state.credited + credited,
                        role=role, role_added=role_added, held=state.held | {w.certificate},
                        served=state.served + sailed)
    projected = None
    if ctx.person is not None and end > s:  # the rules decide it (Planner.confirm), the projection only schedules
        projected = projected_record(ctx, state, after_state, pathway_id, prog, ledger)
    return StepResult(pathway_id, w.certificate, [n.item for n in open_], end, after_state, [], projected,
                      state.role or min(ctx.depth, key=lambda r: ctx.depth[r]), state)


def projected_record(ctx: Context, state: State, after: State, pathway_id: str, prog: Programme | None,
               ledger: Ledger) -> Person:
    """The record the person would hold on the step's date if the plan is followed: the credited days in the role
    served (the lowest deck role before any certificate), the new programme with its days within and after, the
    certificates of the earlier steps, and what each kind assumes obtained on the step's date (exams, documents)."""
    p = ctx.person
    assert p is not None
    law = ctx.law
    lowest = min(ctx.depth, key=lambda r: ctx.depth[r])
    if p.logged("inland"):
        return projected_log(ctx, state, after, pathway_id, prog, lowest)
    served = {**after.role_added}
    served[lowest] = served.get(lowest, 0) + after.credited - sum(after.role_added.values())
    sailing = dict(p.sailing_days)
    for role, days in served.items():
        if days:
            sailing[role] = sailing.get(role, 0) + days
    # a record with a service log states its credited days in any role and within-or-after a dated programme
    # itself (records.dated); the days the plan credits are added there too
    programmes = [replace(g, sailing_days_after=g.sailing_days_after + after.credited,
                          within_or_after=None if g.within_or_after is None else g.within_or_after + after.credited)
                  for g in p.programmes]
    if prog is not None and prog.running is not None:  # the running programme: its full length, the days planned in it
        from crewkg.records.dated import programme_on

        g = p.programmes[prog.running]
        assert g.start is not None and g.end is not None
        programmes[prog.running] = replace(
            g, **programme_on(g, ctx.date(after.t)),
            sailing_days=(g.sailing_days or 0) + credited_in(ledger, state.t + 1, prog.end),
            sailing_days_after=(g.sailing_days_after or 0) + credited_in(ledger, prog.end + 1, after.t),
            within_or_after=None if g.within_or_after is None else g.within_or_after + after.credited)
    elif prog is not None and prog.new:
        r = law.requirements[prog.requirement]
        within = credited_in(ledger, state.t + 1, prog.end)
        programmes.append(PersonProgramme(role=r.programme_for or "", months=r.minimum or 0, sailing_days=within,
                                          sailing_days_after=credited_in(ledger, prog.end + 1, after.t)))
    q = replace(p, id=p.id, sailing_days=sailing, programmes=programmes, certificates=sorted(state.held),
                exams=list(p.exams),
                any_role_days=None if p.any_role_days is None else p.any_role_days + after.credited)
    for rid in requirement_ids(law, law.pathways[pathway_id].requirements):
        assume = kind(law.requirements[rid].kind).assume
        if assume is not None:
            assume(q, law.requirements[rid], ctx.date(after.t))
    return q


def projected_log(ctx: Context, state: State, after: State, pathway_id: str, prog: Programme | None,
                   lowest: str) -> Person:
    """The record of a logged person on the step's date: the log with the planned days on board appended as validated
    entries (in the role served then), a new programme as a dated one, credited by the real algorithm on that date."""
    from crewkg.records.dated import apply
    from crewkg.records.persons import ServiceEntry

    p = ctx.person
    assert p is not None
    law = ctx.law
    planned = [ServiceEntry(start=ctx.date(a), end=ctx.date(b), role=role or lowest) for a, b, role in after.served]
    programmes = [replace(g) for g in p.programmes]
    if prog is not None and prog.new and prog.running is None:  # a running one is in the log's programmes already
        r = law.requirements[prog.requirement]
        programmes.append(PersonProgramme(role=r.programme_for or "", months=r.minimum or 0,
                                          start=ctx.date(state.t), end=ctx.date(prog.end)))
    q = replace(p, service=list(p.service or []) + planned, programmes=programmes, certificates=sorted(state.held),
                exams=list(p.exams), sailing_days=dict(p.sailing_days), sea_days=dict(p.sea_days))
    on = ctx.date(after.t)
    apply(q, law, on)
    for rid in requirement_ids(law, law.pathways[pathway_id].requirements):
        assume = kind(law.requirements[rid].kind).assume
        if assume is not None:
            assume(q, law.requirements[rid], on)
    return q


def requirement_ids(law: Law, rids: tuple[str, ...]):
    for rid in rids:
        yield rid
        yield from requirement_ids(law, law.requirements[rid].children)


def stamp(ctx: Context, state: State, n: Need, prog: Programme | None, end: int | None,
           sailed: Ledger | None = None) -> None:
    """Write `met_on` (ISO date, or None where the planner cannot plan it) into an entry and its parts."""
    if n.met:
        n.item["met_on"] = ctx.date(state.t).isoformat()
    elif n.blocked:
        n.item["met_on"] = None
    elif n.at_step and not (n.sail or n.after or n.not_before):
        n.item["met_on"] = ctx.date(end).isoformat() if end is not None else None
    else:
        n.item["met_on"] = ctx.date(finish_day(ctx, state, n, prog, sailed)).isoformat()
    for p in n.parts:
        stamp(ctx, state, p, prog, end, sailed)
    if n.chosen is not None:
        n.item["plan"] = n.chosen + 1  # which alternative the plan follows (1-based, statute order)


def unplanned_step(answer_items: list[dict[str, Any]], held: set[str]) -> list[dict[str, Any]]:
    """A step after one that cannot be planned: what it lacks today, without dates."""
    rem = []
    for it in answer_items:
        held_meets = kind(it["kind"]).held_meets
        if it["met"] or (held_meets is not None and held_meets(it, held)):
            continue
        entry = copy.deepcopy(it)
        for sub in walk_items([entry]):
            sub["met_on"] = None
        rem.append(entry)
    return rem
