"""The projection of one requirement to a step's start: what it still needs (days to sail, days after a programme, a
day before which it cannot be met, the step's own date, or why it cannot be planned), generically per requirement kind
(its `project`), and the programme a step relies on (one completed, the record's running one, or a new one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from crewkg.careers.pace import Ledger, kth_day, programme_last_day
from crewkg.careers.route_state import Context, State
from crewkg.law.phases import WITHIN
from crewkg.rules.kinds import KindRole, kind, with_role


def not_accrued(kind_name: str) -> bool:
    """A requirement kind the planner does not accrue (it declares no projection): a route lacking it is not
    plannable."""
    k = kind(kind_name)
    return k.project is None and k.parts is None


@dataclass
class Need:
    """What one requirement still needs at the start of a step."""

    item: dict[str, Any]
    met: bool
    sail: int = 0                 # credited days needed from the step's start
    after: int = 0                # credited days needed after the step's new programme ends
    not_before: int = 0           # day offset before which it cannot be met (a birthday, a programme's end)
    at_step: bool = False         # met on the step's date without time (exam, document)
    blocked: str | None = None    # why it cannot be planned
    parts: list[Need] = field(default_factory=list)
    chosen: int | None = None     # the alternative the plan follows (any-of)


@dataclass
class Programme:
    requirement: str
    new: bool
    end: int = 0
    #: a dated programme of the record still running when the route starts (its index): planned within it, not anew
    running: int | None = None
    #: running: the day offset it is completed and counts (its last day, or the step's start if later)
    completes: int = 0
    #: the first day offset the step sails on: the first day of a programme of the record not yet begun (days on
    #: board before it are not within it), else 0 (from the step's start)
    first: int = 0


def first_day(state: State, prog: Programme | None) -> int:
    """The first day the step sails: the day after its start, or the first day of the record's programme it waits for."""
    return max(state.t + 1, prog.first if prog is not None else 0)


def walk_items(items: list[dict[str, Any]]):
    for it in items:
        yield it
        yield from walk_items(it.get("alternatives") or it.get("parts") or [])


def plan_programme(ctx: Context, state: State, items: list[dict[str, Any]]) -> Programme | None:
    """The programme a step relies on: one already completed (met with its days within), or a new one from the
    step's start, lasting its minimum months or, if longer, until its days within are credited."""
    law = ctx.law
    programme, days = with_role(KindRole.PROGRAMME).name, with_role(KindRole.PROGRAMME_DAYS).name
    prog = next((it for it in walk_items(items) if it["kind"] == programme), None)
    if prog is None:
        return None
    within = [it for it in walk_items(items) if it["kind"] == days
              and law.requirements[it["id"]].of_programme == prog["id"] and it.get("phase") == WITHIN.id]
    if prog["met"] and all(w["met"] for w in within):
        return Programme(prog["id"], new=False)
    running = running_programme(ctx, state, prog, within)
    if running is not None:
        return running
    # a programme from the step's start lasting N months ends on the day that completes them, as
    # crewkg.law.crediting.completed_months counts a dated programme's (programme_last_day)
    end = ctx.offset(programme_last_day(ctx.date(state.t), int(prog["needed"])))
    days_within = max((int(w["needed"]) for w in within), default=0)
    if days_within:
        end = max(end, kth_day(state.ledger, state.t + 1, days_within, ctx.pace))
    return Programme(prog["id"], new=True, end=end)


def running_programme(ctx: Context, state: State, prog: dict[str, Any], within: list[dict[str, Any]]) -> Programme | None:
    """A dated programme of the record for the role, running or not yet begun when the route starts (nothing planned
    before this step), long enough once it ends, and whose days within can still be credited by its last day: the step
    goes on in it (or waits for it and sails from its first day) rather than in a new one: the record says the person
    is enrolled in it."""
    from crewkg.law.crediting import completed_months

    p = ctx.person
    if p is None or state.credited:
        return None
    needed = int(prog["needed"])
    role = ctx.law.requirements[prog["id"]].programme_for
    today = ctx.date(state.t)
    for i, g in enumerate(p.programmes):
        if g.role != role or g.start is None or g.end is None or not today < g.end:
            continue
        if completed_months(g.start, g.end + timedelta(days=1)) < needed:
            continue
        end = ctx.offset(g.end)
        first = ctx.offset(g.start) if today < g.start else 0
        rest = max((int(w["needed"]) - WITHIN.days(g) for w in within), default=0)
        if rest > 0 and kth_day(state.ledger, max(state.t + 1, first), rest, ctx.pace) > end:
            continue  # its days within cannot be credited by its last day at this pace: a new one
        # completed ("absolviert") on its last day, not when its months so far reach the minimum
        return Programme(prog["id"], new=True, end=end, running=i, completes=max(end, state.t), first=first)
    return None


def need_of(ctx: Context, state: State, it: dict[str, Any], prog: Programme | None) -> Need:
    """Project one answer entry to the step's start and say what it still needs (generic per kind)."""
    k = kind(it["kind"])
    item = {key: v for key, v in it.items() if key not in ("alternatives", "parts")}
    if k.parts is not None:
        key = k.parts
        parts = [need_of(ctx, state, c, prog) for c in it[key]]
        item[key] = [p.item for p in parts]
        at_least = k.needed(len(parts)) if k.needed else len(parts)
        met = sum(1 for p in parts if p.met) >= at_least
        item["met"] = met
        # the figures the answer entry gives, as of the step (answers.eligibility.requirement_entry)
        for stale in ("decided_by", "figures_of"):
            item.pop(stale, None)
        item |= {"unit": k.unit, "needed": at_least, "have": sum(1 for p in parts if p.met)}
        if k.figures is not None and parts:
            item |= k.figures(item[key])
        n = Need(item, met, parts=parts)
        if met:
            return n
        if at_least == len(parts):  # every part: the slowest open one decides
            open_ = [p for p in parts if not p.met]
            n.sail = max(p.sail for p in open_)
            n.after = max(p.after for p in open_)
            n.not_before = max(p.not_before for p in open_)
            n.at_step = any(p.at_step for p in open_)
            n.blocked = next((p.blocked for p in open_ if p.blocked), None)
            return n
        plannable = [(i, p) for i, p in enumerate(parts) if not p.blocked]
        if not plannable:
            n.blocked = parts[0].blocked
            return n
        i, best = min(plannable, key=lambda ip: (finish_day(ctx, state, ip[1], prog), ip[0]))
        n.chosen = i
        n.sail, n.after, n.not_before, n.at_step = best.sail, best.after, best.not_before, best.at_step
        return n

    n = Need(item, bool(it["met"]))
    project = k.project
    if project is not None:
        project(ctx, state, it, prog, n)
    elif ctx.prior_met:  # a kind the planner does not accrue (sea time, prior experience): there, or not plannable
        n.met = True
    elif not n.met:
        n.blocked = "not_accrued"
    item["met"] = n.met
    return n


def finish_day(ctx: Context, state: State, n: Need, prog: Programme | None, sailed: Ledger | None = None) -> int:
    """The day offset a single need is met on (for choosing among alternatives). `sailed`: the ledger with the step's
    days before its programme ends, which share the window with the days after it (for the date written)."""
    if n.met:
        return state.t
    day = max(state.t, n.not_before)
    if n.sail:
        day = max(day, kth_day(state.ledger, first_day(state, prog), n.sail, ctx.pace))
    if n.after and prog is not None:
        day = max(day, kth_day(state.ledger if sailed is None else sailed, prog.end + 1, n.after, ctx.pace))
    return day
