"""Fastest routes to a certificate: every chain of pathways from where a person stands to the target, with the
earliest date each step can be completed.

The engine decides what a person can be issued today (`answers.check`); this module projects that answer forward in
time, generically per requirement kind, never per certificate. The assumptions are data too: they are recorded as
skos:editorialNote on kb:CreditingLimit-Inland (kb/schbv2022/03_fahrzeit.ttl) and repeated here:

- Fahrzeit: future days are credited greedily at the pace of § 6 Abs. 4 SchBV read from the kb (at most 180 days in
  every window of 365 consecutive days; `--days-per-year` lowers it). A day is credited when the window ending on it
  holds fewer than the maximum, so the rolling window is never exceeded. Records give totals without dates, so the
  window is empty on the evaluation date. Sailing starts the day after it and, in each step, stops once the step's
  requirements are met: days while waiting for a birthday or for the end of a programme are not sailed.
- Days served in a role ("als Matrose geleistet", § 13 Z 1; "als Bootsmann", § 14 Z 1) accrue only after the
  certificate for that role is obtained; a holder serves in the highest role held.
- An approved programme (§ 132 SchFG) takes its minimum length in calendar months from the day the step starts,
  longer only if its days within cannot be credited at the pace in that time; days after it are credited from the
  day after it ends. A programme already completed counts as it is; one whose days within fall short is repeated.
- Age: the day of the birthday (`reached_on`). Exams are taken once the other requirements are met (no time).
  Documents (Sprechfunkzeugnis, medical fitness) take no time but are listed as remaining; a medical certificate that
  expires before a step's date is listed as remaining for that step.
- Sea time, work experience and vocational training are not accrued: a route that needs more of them is not
  plannable, and the answer says which requirement blocks it (`met_on: null`, route `earliest: null`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.rules.eligibility import birthday, completed_years, documents

#: requirement kinds the planner does not accrue: a route that lacks them is not plannable
NOT_ACCRUED = {"SeaTime", "ProfessionalExperience", "VocationalTraining"}


# ------------------------------------------------------------------------------------------------------------
# The crediting pace (§ 6 Abs. 4 SchBV)


@dataclass(frozen=True)
class Pace:
    """At most `days` credited Fahrzeit days in any `period` consecutive days."""

    days: int
    period: int
    citation: str

    @classmethod
    def from_kb(cls, kb: Path | None = None, days: int | None = None) -> Pace:
        """The inland crediting limit of the kb; `days` (from `--days-per-year`) may lower it, never raise it."""
        from crewkg.law.crediting import crediting_limits

        inland = crediting_limits(kb).get("InlandNavigation")
        if inland is None:
            raise InputError("kb", "crew:CreditingLimit", "a crediting limit for inland navigation in the kb "
                             "(§ 6 Abs. 4 SchBV); without it crewkg cannot project Fahrzeit")
        if days is None:
            return cls(inland.days, inland.period, inland.citation)
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= inland.days:
            raise InputError("--days-per-year", "days_per_year",
                             f"a whole number of days from 1 to {inland.days} ({inland.citation}: at most {inland.days} "
                             f"days credited in {inland.period} consecutive days)", days)
        return cls(days, inland.period, inland.citation)


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


def add_months(d: date, months: int) -> date:
    """The same day `months` calendar months later; the last day of the month where it lacks that day."""
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
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

    def date(self, offset: int) -> date:
        return self.as_of + timedelta(days=offset)

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


def _walk(items: list[dict[str, Any]]):
    for it in items:
        yield it
        yield from _walk(it.get("alternatives") or it.get("parts") or [])


def _plan_programme(ctx: Context, state: State, items: list[dict[str, Any]]) -> Programme | None:
    """The programme a step relies on: one already completed (met with its days within), or a new one from the
    step's start, lasting its minimum months or, if longer, until its days within are credited."""
    law = ctx.law
    prog = next((it for it in _walk(items) if it["kind"] == "Programme"), None)
    if prog is None:
        return None
    within = [it for it in _walk(items) if it["kind"] == "ProgrammeFahrzeit"
              and law.requirements[it["id"]].of_programme == prog["id"] and it.get("phase") == "WithinProgramme"]
    if prog["met"] and all(w["met"] for w in within):
        return Programme(prog["id"], new=False)
    end = ctx.offset(add_months(ctx.date(state.t), int(prog["needed"])))
    days_within = max((int(w["needed"]) for w in within), default=0)
    if days_within:
        end = max(end, kth_day(state.ledger, state.t + 1, days_within, ctx.pace))
    return Programme(prog["id"], new=True, end=end)


def _need(ctx: Context, state: State, it: dict[str, Any], prog: Programme | None) -> Need:
    """Project one answer entry to the step's start and say what it still needs (generic per kind)."""
    law, kind = ctx.law, it["kind"]
    item = {k: v for k, v in it.items() if k not in ("alternatives", "parts")}
    needed, have = it.get("needed"), it.get("have")
    if kind in ("AnyOf", "AllOf"):
        key = "alternatives" if kind == "AnyOf" else "parts"
        parts = [_need(ctx, state, c, prog) for c in it[key]]
        item[key] = [p.item for p in parts]
        item["have"] = sum(1 for p in parts if p.met)
        met = item["have"] >= 1 if kind == "AnyOf" else item["have"] == len(parts)
        item["met"] = met
        n = Need(item, met, parts=parts)
        if met:
            return n
        if kind == "AllOf":
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
    if kind == "MinimumAge":
        birth = ctx.person.birth_date if ctx.person else None
        if ctx.assume_age:
            n.met = True
        elif birth is None:
            n.blocked = "birth date missing"
        else:
            item["have"] = completed_years(birth, ctx.date(state.t))
            n.met = item["have"] >= needed
            if not n.met:
                n.not_before = ctx.offset(birthday(birth, needed))
    elif kind == "Fahrzeit":
        role = law.requirements[it["id"]].served_as
        if role is None:
            item["have"] = (have or 0) + state.credited
        elif role == state.role or state.role_added.get(role):
            item["have"] = (have or 0) + state.role_added.get(role, 0)
        n.met = item["have"] >= needed
        if not n.met:
            if role is not None and role != state.role:
                n.blocked = f"days as {role} accrue only while serving as {role}, after its certificate is obtained"
            else:
                n.sail = needed - item["have"]
    elif kind == "ProgrammeFahrzeit":
        phase = it.get("phase")
        new = prog is not None and prog.new
        if new:
            item["have"] = 0
        elif phase != "WithinProgramme":
            item["have"] = (have or 0) + state.credited  # every day from now on is after the completed programme
        n.met = item["have"] >= needed
        if not n.met:
            if new and phase == "AfterProgramme":
                n.after = needed
            elif new or phase != "WithinProgramme":
                n.sail = needed - item["have"]
            else:  # days within a completed programme cannot be added; _plan_programme then plans a new one
                n.blocked = "days within a completed programme cannot be added"
    elif kind == "Programme":
        if prog is not None and prog.new:
            n.met = False
            n.not_before = prog.end
        else:
            n.met = True
    elif kind in NOT_ACCRUED:
        if ctx.prior_met:
            n.met = True
        elif not n.met:
            n.blocked = f"{kind} is not accrued by the planner"
    elif kind == "CertificateHeld":
        item["have"] = [c for c in needed if c in state.held]
        n.met = bool(item["have"])
        if not n.met:
            n.blocked = "no accepted certificate is held on this route"
    elif kind in ("Exam", "Document"):
        n.at_step = not n.met
    item["met"] = n.met
    return n


def _finish(ctx: Context, state: State, n: Need, prog: Programme | None) -> int:
    """The day offset a single need is met on (for choosing among alternatives)."""
    if n.met:
        return state.t
    day = max(state.t, n.not_before)
    if n.sail:
        day = max(day, kth_day(state.ledger, state.t + 1, n.sail, ctx.pace))
    if n.after and prog is not None:
        day = max(day, kth_day(state.ledger, prog.end + 1, n.after, ctx.pace))
    return day


@dataclass
class StepResult:
    pathway: str
    certificate: str
    remaining: list[dict[str, Any]]
    earliest: int | None
    state: State | None
    blocked: list[dict[str, Any]]


def step(ctx: Context, state: State, pathway_id: str) -> StepResult:
    """Plan one pathway from `state`: what remains, the day it can be completed and the state after it."""
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
        last, ledger = accrue(ledger, s + 1, sail, ctx.pace)
    credited = sail
    end = max([s, last] + [n.not_before for n in open_] + ([prog.end] if prog and prog.new else []))
    if after and prog is not None:
        rest = after - _count(ledger, prog.end + 1, last)
        if rest > 0:
            last2, ledger = accrue(ledger, max(prog.end, last) + 1, rest, ctx.pace)
            credited += rest
            end = max(end, last2)
    # a document valid at the start may lapse before the step's date (medical fitness)
    if ctx.person is not None:
        valid = documents(ctx.person, ctx.date(end))
        for n in needs:
            if n.met and n.item["kind"] == "Document" and not valid.get(n.item.get("document") or "", True):
                n.met, n.at_step = False, True
                n.item["met"], n.item["have"] = False, False
                open_.append(n)
    for n in open_:
        _stamp(ctx, state, n, prog, end)
    role_added = dict(state.role_added)
    if state.role is not None and credited:
        role_added[state.role] = role_added.get(state.role, 0) + credited
    role = state.role
    new_role = law.certificates[w.certificate].role
    if new_role in ctx.depth and (role is None or ctx.depth[new_role] > ctx.depth.get(role, -1)):
        role = new_role
    lo = end - ctx.pace.period + 1
    after_state = State(t=end, ledger=tuple((a, b) for a, b in ledger if b >= lo), credited=state.credited + credited,
                        role=role, role_added=role_added, held=state.held | {w.certificate})
    return StepResult(pathway_id, w.certificate, [n.item for n in open_], end, after_state, [])


def _stamp(ctx: Context, state: State, n: Need, prog: Programme | None, end: int | None) -> None:
    """Write `met_on` (ISO date, or None where the planner cannot plan it) into an entry and its parts."""
    if n.met:
        n.item["met_on"] = ctx.date(state.t).isoformat()
    elif n.blocked:
        n.item["met_on"] = None
    elif n.at_step and not (n.sail or n.after or n.not_before):
        n.item["met_on"] = ctx.date(end).isoformat() if end is not None else None
    else:
        n.item["met_on"] = ctx.date(_finish(ctx, state, n, prog)).isoformat()
    for p in n.parts:
        _stamp(ctx, state, p, prog, end)
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
    return State(role=role, held=frozenset(held))


def _items_by_pathway(answer: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {w["id"]: w["requirements"] for c in answer.get("certificates", []) for w in c.get("pathways", [])}


@dataclass
class Planner:
    """Plans every route of one person, evaluating each shared prefix of routes once."""

    ctx: Context
    start: State
    memo: dict[tuple[str, ...], StepResult | None] = field(default_factory=dict)

    def walk(self, route: list[tuple[str, str, str]]) -> list[StepResult | None]:
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


def make_planner(law: Law, person: Person, answer: dict[str, Any], as_of: date, pace: Pace) -> Planner:
    ctx = Context(law, pace, as_of, person, _items_by_pathway(answer), role_depths(law))
    return Planner(ctx, initial_state(ctx, list(person.certificates)))


def _unplanned_step(answer_items: list[dict[str, Any]], held: set[str]) -> list[dict[str, Any]]:
    """A step after one that cannot be planned: what it lacks today, without dates."""
    rem = []
    for it in answer_items:
        if it["met"] or (it["kind"] == "CertificateHeld" and any(c in held for c in it["needed"])):
            continue
        entry = copy.deepcopy(it)
        for sub in _walk([entry]):
            sub["met_on"] = None
        rem.append(entry)
    return rem






# ------------------------------------------------------------------------------------------------------------
# Minimum time of a pathway (edge attribute of the career graph)


def _blank_items(law: Law, rids: tuple[str, ...]) -> list[dict[str, Any]]:
    """Answer-shaped entries for someone who has nothing yet (have 0, nothing met)."""
    out = []
    for rid in rids:
        r = law.requirements[rid]
        e: dict[str, Any] = {"id": rid, "kind": r.kind, "unit": r.unit, "met": False, "provision": law.citation(r.provision),
                             "text": r.label.get("de", rid)}
        if r.kind in ("AnyOf", "AllOf"):
            e["alternatives" if r.kind == "AnyOf" else "parts"] = _blank_items(law, r.children)
            e["needed"], e["have"] = (1 if r.kind == "AnyOf" else len(r.children)), 0
        elif r.kind == "Exam":
            e["needed"], e["have"] = list(r.exams), []
        elif r.kind == "CertificateHeld":
            e["needed"], e["have"] = list(r.certificates), []
        elif r.kind == "Document":
            e["needed"], e["have"], e["document"] = True, False, r.document
        else:
            e["needed"], e["have"] = r.minimum, (None if r.kind == "MinimumAge" else 0)
            if r.phase:
                e["phase"] = r.phase
        out.append(e)
    return out


def pathway_minimum_days(law: Law, pathway_id: str, pace: Pace) -> tuple[int | None, int | None]:
    """Fewest calendar days a pathway takes for someone who just obtained the certificate it presupposes: with sea
    time and prior experience already there, and without them (None when the pathway needs them). Age is not a
    duration; months are counted from the regulation's entry into force, so the figure does not change by date."""
    w = law.pathways[pathway_id]
    reg = law.regulations.get(law.certificates[w.certificate].regulation or "")
    ref = reg.in_force_from if reg else date(2000, 1, 1)
    out = []
    for prior in (True, False):
        ctx = Context(law, pace, ref, None, {pathway_id: _blank_items(law, w.requirements)}, role_depths(law),
                      assume_age=True, prior_met=prior)
        state = initial_state(ctx, [w.presupposes] if w.presupposes else [])
        res = step(ctx, state, pathway_id)
        out.append(res.earliest)
    return out[0], out[1]


