"""Fastest routes to a certificate: every chain of pathways from where a person stands to the target, with the
earliest date each step can be completed.

The engine decides what a person can be issued today (`answers.check`); this module projects that answer forward in
time, generically per requirement kind, never per certificate. The assumptions are data too: they are recorded as
skos:editorialNote on kb:CreditingLimit-Inland (kb/schbv2022/03_fahrzeit.ttl) and repeated here:

- Fahrzeit: future days are credited greedily at the pace of § 6 Abs. 4 SchBV read from the kb (at most 180 days in
  every window of 365 consecutive days; `--days-per-year` lowers it). A day is credited when the window ending on it
  holds fewer than the maximum, so the rolling window is never exceeded. A record with totals gives no dates, so its
  window is empty on the evaluation date; a record with a service log starts from its real window (the days of the
  log credited in the period ending on the evaluation date delay when new days can be credited), and the record a
  step leads to is its log with the planned days appended as entries, credited by the real algorithm
  (`records.dated`). Each scope (a role, a programme phase) has its own window, which can be fuller than the any-role
  one the pace follows: a step the rules reject on its date then moves, sailing on in its role, to the first date a
  scope's crediting reaches a number an unmet requirement names and the rules confirm (`_postpone`). Sailing starts the day after it and, in each step, stops once the step's
  requirements are met: days while waiting for a birthday or for the end of a programme are not sailed.
- Days served in a role ("als Matrose geleistet", § 13 Z 1; "als Bootsmann", § 14 Z 1) accrue only after the
  certificate for that role is obtained; a holder serves in the highest role held.
- An approved programme (§ 132 SchFG) takes its minimum length in calendar months from the day the step starts,
  longer only if its days within cannot be credited at the pace in that time; days after it are credited from the
  day after it ends. A programme already completed counts as it is; one whose days within fall short is repeated.
  A dated programme of the record still running is planned to its last day with its days so far, where its length
  is enough and its days within can be credited by then; one not yet begun likewise, the step sailing from its first
  day (the record says the person is enrolled in it: it is not replaced by a new one that would end sooner).
- Age: the day of the birthday (`reached_on`). Exams are taken once the other requirements are met (no time).
  Documents (Sprechfunkzeugnis, medical fitness) take no time but are listed as remaining; a medical certificate that
  expires before a step's date is listed as remaining for that step.
- Sea time, work experience and vocational training are not accrued: a route that needs more of them is not
  plannable, and the answer says which requirement blocks it (`met_on: null`, route `earliest: null`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from crewkg.errors import InputError
from crewkg.law.phases import WITHIN
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.records.persons import Programme as PersonProgramme
from crewkg.rules.kinds import KindRole, kind, with_role


def not_accrued(kind_name: str) -> bool:
    """A requirement kind the planner does not accrue (it declares no projection): a route lacking it is not
    plannable."""
    k = kind(kind_name)
    return k.project is None and k.parts is None


# ------------------------------------------------------------------------------------------------------------
# The crediting pace (§ 6 Abs. 4 SchBV)


@dataclass(frozen=True)
class Pace:
    """At most `days` credited Fahrzeit days in any `period` consecutive days; `legal`, the kb's maximum (§ 6 Abs. 4
    SchBV), which `days` is below where `--days-per-year` assumes fewer (`assumed`)."""

    days: int
    period: int
    citation: str
    legal: int = 0

    @property
    def assumed(self) -> bool:
        """Fewer days than the law allows: the user's assumption, to be said as one (not as the provision's)."""
        return self.days < self.legal

    def words(self, t: dict[str, str]) -> str:
        """The pace as a section of the catalogue says it (its keys `pace` and `pace_assumed`): an assumption
        below the law's maximum must never read as the provision's own figure."""
        return t["pace_assumed" if self.assumed else "pace"].format(d=self.days, p=self.period, prov=self.citation,
                                                                    max=self.legal)

    def attributes(self) -> dict[str, Any]:
        """The pace as scalar graph attributes (the career graph is written as GraphML and node-link JSON)."""
        return {"pace_days": self.days, "pace_period": self.period, "pace_provision": self.citation,
                "pace_max": self.legal}

    @classmethod
    def of_attributes(cls, attrs: dict[str, Any]) -> Pace:
        """The pace that `attributes` wrote."""
        return cls(attrs["pace_days"], attrs["pace_period"], attrs["pace_provision"], attrs["pace_max"])

    @classmethod
    def from_kb(cls, kb: Path | None = None, days: int | None = None) -> Pace:
        """The inland crediting limit of the kb; `days` (from `--days-per-year`) may lower it, never raise it."""
        from crewkg.law.crediting import AREAS, crediting_limits

        inland = crediting_limits(kb).get(AREAS["inland"])
        if inland is None:
            raise InputError("kb", "crew:CreditingLimit", "crediting_limit")
        if days is None:
            return cls(inland.days, inland.period, inland.citation, inland.days)
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= inland.days:
            raise InputError("--days-per-year", "days_per_year",
                             "days_per_year", days, max=inland.days, citation=inland.citation, period=inland.period)
        return cls(days, inland.period, inland.citation, inland.days)


Ledger = tuple[tuple[int, int], ...]  # credited days as sorted, disjoint, inclusive intervals of day offsets


def _count(ledger: Ledger, lo: int, hi: int) -> int:
    """Credited days in [lo, hi]."""
    n = 0
    for a, b in ledger:
        if b >= lo and a <= hi:
            n += min(b, hi) - max(a, lo) + 1
    return n


def _add(ledger: Ledger, a: int, b: int) -> Ledger:
    if b < a:
        return ledger
    if ledger and ledger[-1][1] + 1 >= a:
        return ledger[:-1] + ((ledger[-1][0], max(b, ledger[-1][1])),)
    return ledger + ((a, b),)


def accrue(ledger: Ledger, start: int, n: int, pace: Pace) -> tuple[int, Ledger]:
    """Credit `n` more days greedily from day `start`: the day the n-th is credited, and the new ledger.

    A day d may be credited when the window of `period` days ending on d holds fewer than `days` credited days.
    Greedy crediting first fills the window day by day; once a window is full it is periodic, because a day can
    then be credited exactly when the day `period` days earlier was (it drops out of the window). So the n-th day is
    found in closed form from the last full window: no day-by-day simulation."""
    if n <= 0:
        return start - 1, ledger
    cap, period = pace.days, pace.period

    def used(d: int) -> int:  # credited days in the window ending on d, if every day from start to d-1 was credited
        return _count(ledger, d - period + 1, start - 1) + (d - start)

    lo, hi = start, start + cap
    while lo < hi:  # the first day the window is full (used() never decreases)
        mid = (lo + hi) // 2
        if used(mid) >= cap:
            hi = mid
        else:
            lo = mid + 1
    full = lo
    fill = full - start
    if n <= fill:
        return start + n - 1, _add(ledger, start, start + n - 1)
    filled = _add(ledger, start, full - 1)
    window = [(max(a, full - period), min(b, full - 1)) for a, b in filled if b >= full - period and a <= full - 1]
    cycles, index = divmod(n - fill - 1, cap)  # the window holds exactly `cap` days; they recur every `period` days
    new = filled
    for k in range(1, cycles + 2):
        for a, b in window:
            if k <= cycles:
                new = _add(new, a + k * period, b + k * period)
                continue
            length = b - a + 1
            if index < length:
                last = a + index + k * period
                return last, _add(new, a + k * period, last)
            new = _add(new, a + k * period, b + k * period)
            index -= length
    raise AssertionError("the crediting window lost days")  # pragma: no cover - the window holds `cap` days


def kth_day(ledger: Ledger, start: int, n: int, pace: Pace) -> int:
    return accrue(ledger, start, n, pace)[0]


class BeyondCalendar(ArithmeticError):
    """A step would end after 31 December 9999, the last day a date can name: it cannot be planned."""


def programme_last_day(start: date, months: int) -> date:
    """The last day of a programme of `months` months from `start` (`law.crediting.programme_end`); one ending after
    31 December 9999 cannot be planned."""
    from crewkg.law.crediting import programme_end

    try:
        return programme_end(start, months)
    except (ValueError, OverflowError):
        raise BeyondCalendar(months) from None


def add_months(d: date, months: int) -> date:
    """The same day `months` calendar months later; the last day of the month where it lacks that day."""
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    if year > date.max.year:
        raise BeyondCalendar(months)
    for day in (d.day, 30, 29, 28):
        try:
            return date(year, month, min(d.day, day))
        except ValueError:
            continue
    raise AssertionError  # pragma: no cover


# ------------------------------------------------------------------------------------------------------------
# Route state and one step


@dataclass
class State:
    """Where a person stands at day offset `t` of a route (0 = the evaluation date)."""

    t: int = 0
    ledger: Ledger = ()
    credited: int = 0                                         # days credited since the evaluation date
    role: str | None = None                                   # the role served now
    role_added: dict[str, int] = field(default_factory=dict)  # days credited per role since the evaluation date
    held: frozenset[str] = frozenset()
    served: tuple[tuple[int, int, str | None], ...] = ()      # planned days on board: (first, last offset, role)


@dataclass
class Context:
    """What every step of one person's routes needs."""

    law: Law
    pace: Pace
    as_of: date
    person: Person | None
    items: dict[str, list[dict[str, Any]]]  # pathway id -> the answer's requirement entries for it
    depth: dict[str, int]                   # role -> level in the hierarchy (crew:ranksAbove)
    assume_age: bool = False                # edge minimum: age is not a duration
    prior_met: bool = False                 # edge minimum: sea time and prior experience are there
    lang: str = "de"                        # the language of the answers the rules' re-check builds

    def date(self, offset: int) -> date:
        try:
            return self.as_of + timedelta(days=offset)
        except OverflowError:
            raise BeyondCalendar(offset) from None

    def offset(self, d: date) -> int:
        return (d - self.as_of).days


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


def _first_day(state: State, prog: Programme | None) -> int:
    """The first day the step sails: the day after its start, or the first day of the record's programme it waits for."""
    return max(state.t + 1, prog.first if prog is not None else 0)


def _walk(items: list[dict[str, Any]]):
    for it in items:
        yield it
        yield from _walk(it.get("alternatives") or it.get("parts") or [])


def _plan_programme(ctx: Context, state: State, items: list[dict[str, Any]]) -> Programme | None:
    """The programme a step relies on: one already completed (met with its days within), or a new one from the
    step's start, lasting its minimum months or, if longer, until its days within are credited."""
    law = ctx.law
    programme, days = with_role(KindRole.PROGRAMME).name, with_role(KindRole.PROGRAMME_DAYS).name
    prog = next((it for it in _walk(items) if it["kind"] == programme), None)
    if prog is None:
        return None
    within = [it for it in _walk(items) if it["kind"] == days
              and law.requirements[it["id"]].of_programme == prog["id"] and it.get("phase") == WITHIN.id]
    if prog["met"] and all(w["met"] for w in within):
        return Programme(prog["id"], new=False)
    running = _running_programme(ctx, state, prog, within)
    if running is not None:
        return running
    # a programme from the step's start lasting N months ends on the day that completes them, as
    # crewkg.law.crediting.completed_months counts a dated programme's (programme_last_day)
    end = ctx.offset(programme_last_day(ctx.date(state.t), int(prog["needed"])))
    days_within = max((int(w["needed"]) for w in within), default=0)
    if days_within:
        end = max(end, kth_day(state.ledger, state.t + 1, days_within, ctx.pace))
    return Programme(prog["id"], new=True, end=end)


def _running_programme(ctx: Context, state: State, prog: dict[str, Any], within: list[dict[str, Any]]) -> Programme | None:
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


def _need(ctx: Context, state: State, it: dict[str, Any], prog: Programme | None) -> Need:
    """Project one answer entry to the step's start and say what it still needs (generic per kind)."""
    k = kind(it["kind"])
    item = {key: v for key, v in it.items() if key not in ("alternatives", "parts")}
    if k.parts is not None:
        key = k.parts
        parts = [_need(ctx, state, c, prog) for c in it[key]]
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
        i, best = min(plannable, key=lambda ip: (_finish(ctx, state, ip[1], prog), ip[0]))
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


def _finish(ctx: Context, state: State, n: Need, prog: Programme | None, sailed: Ledger | None = None) -> int:
    """The day offset a single need is met on (for choosing among alternatives). `sailed`: the ledger with the step's
    days before its programme ends, which share the window with the days after it (for the date written)."""
    if n.met:
        return state.t
    day = max(state.t, n.not_before)
    if n.sail:
        day = max(day, kth_day(state.ledger, _first_day(state, prog), n.sail, ctx.pace))
    if n.after and prog is not None:
        day = max(day, kth_day(state.ledger if sailed is None else sailed, prog.end + 1, n.after, ctx.pace))
    return day


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
        remaining = _unplanned_step(ctx.items[pathway_id], set(state.held))
        return StepResult(pathway_id, ctx.law.pathways[pathway_id].certificate, remaining, None, None, remaining)


def _step(ctx: Context, state: State, pathway_id: str) -> StepResult:
    law = ctx.law
    w = law.pathways[pathway_id]
    items = ctx.items[pathway_id]
    prog = _plan_programme(ctx, state, items)
    needs = [_need(ctx, state, it, prog) for it in items]
    s = state.t
    open_ = [n for n in needs if not n.met]
    blocked = [n.item for n in open_ if n.blocked]
    if blocked:
        for n in open_:
            _stamp(ctx, state, n, prog, None)
        return StepResult(pathway_id, w.certificate, [n.item for n in open_], None, None, blocked)
    sail = max((n.sail for n in open_), default=0)
    after = max((n.after for n in open_), default=0)
    ledger, last = state.ledger, s
    if sail:
        last, ledger = accrue(ledger, _first_day(state, prog), sail, ctx.pace)
    credited = sail
    sailed = ledger  # the step's days before its programme's end: the days after it are credited with them
    end = max([s, last] + [n.not_before for n in open_] + ([prog.end] if prog and prog.new else []))
    if after and prog is not None:
        rest = after - _count(ledger, prog.end + 1, last)
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
        _stamp(ctx, state, n, prog, end, sailed)
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
        projected = _projected(ctx, state, after_state, pathway_id, prog, ledger)
    return StepResult(pathway_id, w.certificate, [n.item for n in open_], end, after_state, [], projected,
                      state.role or min(ctx.depth, key=lambda r: ctx.depth[r]), state)


def _projected(ctx: Context, state: State, after: State, pathway_id: str, prog: Programme | None,
               ledger: Ledger) -> Person:
    """The record the person would hold on the step's date if the plan is followed: the credited days in the role
    served (the lowest deck role before any certificate), the new programme with its days within and after, the
    certificates of the earlier steps, and what each kind assumes obtained on the step's date (exams, documents)."""
    p = ctx.person
    assert p is not None
    law = ctx.law
    lowest = min(ctx.depth, key=lambda r: ctx.depth[r])
    if p.logged("inland"):
        return _projected_log(ctx, state, after, pathway_id, prog, lowest)
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
            sailing_days=(g.sailing_days or 0) + _count(ledger, state.t + 1, prog.end),
            sailing_days_after=(g.sailing_days_after or 0) + _count(ledger, prog.end + 1, after.t),
            within_or_after=None if g.within_or_after is None else g.within_or_after + after.credited)
    elif prog is not None and prog.new:
        r = law.requirements[prog.requirement]
        within = _count(ledger, state.t + 1, prog.end)
        programmes.append(PersonProgramme(role=r.programme_for or "", months=r.minimum or 0, sailing_days=within,
                                          sailing_days_after=_count(ledger, prog.end + 1, after.t)))
    q = replace(p, id=p.id, sailing_days=sailing, programmes=programmes, certificates=sorted(state.held),
                exams=list(p.exams),
                any_role_days=None if p.any_role_days is None else p.any_role_days + after.credited)
    for rid in _requirement_ids(law, law.pathways[pathway_id].requirements):
        assume = kind(law.requirements[rid].kind).assume
        if assume is not None:
            assume(q, law.requirements[rid], ctx.date(after.t))
    return q


def _projected_log(ctx: Context, state: State, after: State, pathway_id: str, prog: Programme | None,
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
    for rid in _requirement_ids(law, law.pathways[pathway_id].requirements):
        assume = kind(law.requirements[rid].kind).assume
        if assume is not None:
            assume(q, law.requirements[rid], on)
    return q


def _requirement_ids(law: Law, rids: tuple[str, ...]):
    for rid in rids:
        yield rid
        yield from _requirement_ids(law, law.requirements[rid].children)


def _stamp(ctx: Context, state: State, n: Need, prog: Programme | None, end: int | None,
           sailed: Ledger | None = None) -> None:
    """Write `met_on` (ISO date, or None where the planner cannot plan it) into an entry and its parts."""
    if n.met:
        n.item["met_on"] = ctx.date(state.t).isoformat()
    elif n.blocked:
        n.item["met_on"] = None
    elif n.at_step and not (n.sail or n.after or n.not_before):
        n.item["met_on"] = ctx.date(end).isoformat() if end is not None else None
    else:
        n.item["met_on"] = ctx.date(_finish(ctx, state, n, prog, sailed)).isoformat()
    for p in n.parts:
        _stamp(ctx, state, p, prog, end, sailed)
    if n.chosen is not None:
        n.item["plan"] = n.chosen + 1  # which alternative the plan follows (1-based, statute order)


# ------------------------------------------------------------------------------------------------------------
# Routes


def role_depths(law: Law) -> dict[str, int]:
    """Level of each deck role in the hierarchy (`Law.depth`), for the deck roles only."""
    return {r: law.depth(r) for r in law.ids_of("DeckCrewRole")}


def initial_state(ctx: Context, held: list[str]) -> State:
    roles = [ctx.law.certificates[c].role for c in held if c in ctx.law.certificates]
    roles = [r for r in roles if r in ctx.depth]
    role = max(roles, key=lambda r: ctx.depth[r]) if roles else None
    return State(role=role, held=frozenset(held), ledger=window(ctx))


def window(ctx: Context) -> Ledger:
    """The real crediting window on the evaluation date of a record with a service log: its inland days credited
    (in any role) in the `period` days ending on the evaluation date, as day offsets (0 = the evaluation date, so
    they are negative or 0). A lower pace (`--days-per-year`) keeps only the latest of them it allows. Empty for a
    record with totals."""
    p = ctx.person
    if p is None or not p.logged("inland"):
        return ()
    return _window_of(ctx, p, ctx.as_of)


def _window_of(ctx: Context, p: Person, on: date, scopes: dict[str, Any] | None = None) -> Ledger:
    """A logged record's inland days credited in any role in the `period` days ending on `on`, as day offsets from
    the evaluation date (the latest the pace allows)."""
    from bisect import bisect_left, bisect_right

    from crewkg.records.dated import ledger

    scope = (ledger(p, ctx.law) if scopes is None else scopes).get("any")
    if scope is None:
        return ()
    day0, end = ctx.as_of.toordinal(), on.toordinal()
    days = scope.credited[bisect_left(scope.credited, end - ctx.pace.period + 1): bisect_right(scope.credited, end)]
    out: Ledger = ()
    for d in days[max(0, len(days) - ctx.pace.days):]:
        out = _add(out, d - day0, d - day0)
    return out


def _items_by_pathway(answer: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {w["id"]: w["requirements"] for c in answer.get("certificates", []) for w in c.get("pathways", [])}


@dataclass
class Planner:
    """Plans every route of one person, evaluating each shared prefix of routes once.

    A step's date comes from projecting each requirement forward (its kind's `project`); whether the projected
    record then satisfies the pathway is the Datalog program's verdict (`confirm`), so the planner never decides
    "met" on its own. Steps are confirmed in batches: one Datalog run for every step of many planners."""

    ctx: Context
    start: State
    memo: dict[tuple[str, ...], StepResult | None] = field(default_factory=dict)
    routes: dict[tuple[str, ...], list[tuple[str, str, str]]] = field(default_factory=dict)

    def walk(self, route: list[tuple[str, str, str]]) -> list[StepResult | None]:
        self.routes.setdefault(tuple(k for _, _, k in route), route)
        out: list[StepResult | None] = []
        state: State | None = self.start
        for i in range(len(route)):
            key = tuple(k for _, _, k in route[: i + 1])
            if key not in self.memo:
                self.memo[key] = step(self.ctx, state, route[i][2]) if state is not None else None
            res = self.memo[key]
            out.append(res)
            state = res.state if res is not None else None
        return out

    def pending(self) -> list[tuple[tuple[str, ...], StepResult]]:
        return [(k, r) for k, r in self.memo.items() if r is not None and r.projected is not None]

    def settle(self, key: tuple[str, ...], res: StepResult, satisfied: bool, unmet: list[dict[str, Any]]) -> None:
        """Record the rules' verdict on a step: confirmed, or not plannable (and so every step after it)."""
        if self.memo.get(key) is not res:  # an earlier step of its route was not confirmed
            return
        if satisfied:
            self.memo[key] = replace(res, projected=None)
            return
        for m in unmet:
            for sub in _walk([m]):
                sub["met_on"] = None
        self.memo[key] = replace(res, earliest=None, state=None, projected=None, remaining=unmet or res.remaining,
                                 blocked=unmet or [{"id": res.pathway, "met": False, "met_on": None}])
        for later in [k for k in self.memo if len(k) > len(key) and k[: len(key)] == key]:
            self.memo[later] = None

    def postpone(self, key: tuple[str, ...], res: StepResult, later: StepResult) -> None:
        """The rules confirm the step on a later date than planned: it replaces the step, and the steps after it are
        planned again from it (the next walk)."""
        if self.memo.get(key) is not res:
            return
        self.memo[key] = later
        for k in [k for k in self.memo if len(k) > len(key) and k[: len(key)] == key]:
            del self.memo[k]


def confirm(planners: list[Planner], chunk: int = 400) -> None:
    """Ask the Datalog program, in batches, whether each planned step's projected record satisfies its pathway on
    the step's date. Steps the rules do not confirm become unplannable, with what the rules find missing."""
    while True:
        todo = [(pl, key, res) for pl in planners for key, res in pl.pending()]
        if not todo:
            return
        by_pathway: dict[str, list] = {}
        for item in todo:
            by_pathway.setdefault(item[2].pathway, []).append(item)
        for pathway, items in by_pathway.items():
            for i in range(0, len(items), chunk):
                _confirm_part(pathway, items[i: i + chunk])
        for pl in planners:  # the steps after a postponed one, planned again from it, wait for their verdict
            for route in pl.routes.values():
                pl.walk(route)


def _confirm_part(pathway: str, part: list[tuple[Planner, tuple[str, ...], StepResult]]) -> None:
    """One Datalog run on one pathway for a batch of projected records (the rest of the law is left out)."""
    from crewkg.answers.eligibility import person_answer
    from crewkg.rules.eligibility import derive_dated, satisfied_pathways

    law = part[0][0].ctx.law
    records = [(replace(res.projected, id=f"{n}"), pl.ctx.date(res.earliest)) for n, (pl, key, res) in enumerate(part)]
    satisfied = satisfied_pathways(records, law, frozenset({pathway}))
    rejected = []
    for (q, on), (pl, key, res) in zip(records, part, strict=True):
        ok = (q.id, pathway) in satisfied
        unmet: list[dict[str, Any]] = []
        if not ok:
            full = derive_dated([(q, on)], law)
            unmet = [m for c in person_answer(law, q, full, on, pl.ctx.lang)["certificates"] for w in c["pathways"]
                     if w["id"] == pathway for m in w["missing"]]
            if pl.ctx.person is not None and pl.ctx.person.logged("inland"):
                rejected.append((pl, key, res, unmet))
                continue
        pl.settle(key, res, ok, unmet)
    if rejected:
        _postpone(pathway, rejected)


def _postpone(pathway: str, rejected: list[tuple[Planner, tuple[str, ...], StepResult, list[dict[str, Any]]]]) -> None:
    """Steps of logged records the rules rejected on their planned date: the planner credits at the pace of the
    any-role window, but each scope has a window of its own (days served in a role, credited in that role while the
    any-role window was full of other days, keep the role's window full after they leave the other). Sailing goes on
    in the step's role; the dates on which each scope of the record reaches a number an unmet requirement names are
    asked of the rules (one batch), and the first they confirm is the step's. None confirmed: not plannable."""
    from crewkg.rules.eligibility import satisfied_pathways

    law = rejected[0][0].ctx.law
    candidates: list[tuple[Person, date]] = []
    spans: list[tuple[int, int, Any]] = []
    for n, (pl, _key, res, unmet) in enumerate(rejected):
        first = len(candidates)
        extended = _sailing_on(pl.ctx, res, unmet)
        if extended is not None:
            q, scopes, dates = extended
            candidates += [(_at(pl.ctx, q, d, scopes, res, f"{n}-{i}"), d) for i, d in enumerate(dates)]
        spans.append((first, len(candidates), extended))
    satisfied = satisfied_pathways(candidates, law, frozenset({pathway})) if candidates else set()
    for (pl, key, res, unmet), (lo, hi, extended) in zip(rejected, spans, strict=True):
        hit = next((candidates[i] for i in range(lo, hi) if (candidates[i][0].id, pathway) in satisfied), None)
        if hit is None or extended is None:
            pl.settle(key, res, False, unmet)
            continue
        pl.postpone(key, res, _later(pl.ctx, res, extended[0], extended[1], hit[1], unmet))


def _sailing_on(ctx: Context, res: StepResult, unmet: list[dict[str, Any]]):
    """The step's projected record with sailing going on, every day, in the step's role after its planned date, the
    scopes of that log, and the dates (after the planned one) on which a scope's credited days reach a number an unmet
    requirement names, in order."""
    from crewkg.law.crediting import AREAS, crediting_limits
    from crewkg.records.dated import ledger
    from crewkg.records.persons import ServiceEntry

    q = res.projected
    if q is None or res.earliest is None:
        return None
    numbers = sorted({int(m["needed"]) for m in _walk(unmet) if isinstance(m.get("needed"), int)
                      and not isinstance(m.get("needed"), bool) and m["needed"] > 0})
    if not numbers:
        return None
    lim = crediting_limits()[AREAS["inland"]]
    horizon = lim.period * (numbers[-1] // max(1, lim.days) + 2)
    start = ctx.date(res.earliest) + timedelta(days=1)
    try:
        end = start + timedelta(days=horizon)
    except OverflowError:
        return None
    q = replace(q, service=list(q.service or []) + [ServiceEntry(start=start, end=end, role=res.sailing_role)],
                programmes=[replace(g) for g in q.programmes])
    scopes = ledger(q, ctx.law)
    first = start.toordinal()
    dates = sorted({d for scope in scopes.values() for n in numbers
                    if (d := scope.nth(n)) is not None and d.toordinal() >= first})
    return q, scopes, dates


def _at(ctx: Context, q: Person, on: date, scopes, res: StepResult, pid: str) -> Person:
    """The extended record as it stands on `on` (credited then, with what the pathway assumes obtained then)."""
    from crewkg.records.dated import at

    r = at(replace(q, id=pid), ctx.law, on, scopes)
    for rid in _requirement_ids(ctx.law, ctx.law.pathways[res.pathway].requirements):
        assume = kind(ctx.law.requirements[rid].kind).assume
        if assume is not None:
            assume(r, ctx.law.requirements[rid], on)
    return r


def _later(ctx: Context, res: StepResult, q: Person, scopes, on: date, unmet: list[dict[str, Any]]) -> StepResult:
    """The step confirmed on `on`: sailed on until then; the state after it from the record's real crediting."""
    assert res.state is not None and res.earliest is not None
    t = ctx.offset(on)
    anyscope = scopes.get("any")
    gained = (anyscope.on(on.toordinal()).credited - anyscope.on(ctx.date(res.earliest).toordinal()).credited) if anyscope else 0
    role_added = dict(res.state.role_added)
    if res.sailing_role is not None:
        role_added[res.sailing_role] = role_added.get(res.sailing_role, 0) + gained
    state = replace(res.state, t=t, ledger=_window_of(ctx, q, on, scopes), credited=res.state.credited + gained,
                    role_added=role_added, served=res.state.served + ((res.earliest + 1, t, res.sailing_role),))
    ids = {m["id"] for m in _walk(unmet)}
    remaining = copy.deepcopy(res.remaining)
    for it in _walk(remaining):
        if it["id"] in ids and it.get("met_on") is not None:
            it["met_on"] = on.isoformat()
    return replace(res, earliest=t, state=state, remaining=remaining, projected=None)


def make_planner(law: Law, person: Person, answer: dict[str, Any], as_of: date, pace: Pace, lang: str = "de") -> Planner:
    ctx = Context(law, pace, as_of, person, _items_by_pathway(answer), role_depths(law), lang=lang)
    return Planner(ctx, initial_state(ctx, list(person.certificates)))


def _unplanned_step(answer_items: list[dict[str, Any]], held: set[str]) -> list[dict[str, Any]]:
    """A step after one that cannot be planned: what it lacks today, without dates."""
    rem = []
    for it in answer_items:
        held_meets = kind(it["kind"]).held_meets
        if it["met"] or (held_meets is not None and held_meets(it, held)):
            continue
        entry = copy.deepcopy(it)
        for sub in _walk([entry]):
            sub["met_on"] = None
        rem.append(entry)
    return rem






# ------------------------------------------------------------------------------------------------------------
# Minimum time of a pathway (edge attribute of the career graph)


def _blank_items(law: Law, rids: tuple[str, ...], on: date) -> list[dict[str, Any]]:
    """Answer entries for someone who has nothing yet (no record entries, nothing derived)."""
    from crewkg.answers.eligibility import requirement_entry
    from crewkg.rules.eligibility import Derived

    nobody = Person(id="nobody")
    nothing = Derived(have={}, met=set(), satisfied=set(), eligible=set(), can_fill=set())
    return [requirement_entry(law, rid, nobody, nothing, on, "de") for rid in rids]


def pathway_minimum_days(law: Law, pathway_id: str, pace: Pace) -> tuple[int | None, int | None]:
    """Fewest calendar days a pathway takes for someone who just obtained the certificate it presupposes: with sea
    time and prior experience already there, and without them (None when the pathway needs them). Age is not a
    duration; months are counted from the regulation's entry into force, so the figure does not change by date."""
    w = law.pathways[pathway_id]
    reg = law.regulations.get(law.certificates[w.certificate].regulation or "")
    ref = reg.in_force_from if reg else date(2000, 1, 1)
    out = []
    for prior in (True, False):
        ctx = Context(law, pace, ref, None, {pathway_id: _blank_items(law, w.requirements, ref)}, role_depths(law),
                      assume_age=True, prior_met=prior)
        state = initial_state(ctx, [w.presupposes] if w.presupposes else [])
        res = step(ctx, state, pathway_id)
        out.append(res.earliest)
    return out[0], out[1]


