"""The planner of one person's routes: each shared prefix of routes stepped once (careers.steps), every planned step's
projected record confirmed by the Datalog program in batches (`confirm`), a step the rules reject on its date moved
to the first later date they confirm (a logged record's scopes) or made unplannable, with what they find missing."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from crewkg.careers.pace import Pace
from crewkg.careers.projection import walk_items
from crewkg.careers.route_state import Context, State, initial_state, items_by_pathway, role_depths, window_of
from crewkg.careers.steps import StepResult, requirement_ids, step
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind


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
            for sub in walk_items([m]):
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
                confirm_part(pathway, items[i: i + chunk])
        for pl in planners:  # the steps after a postponed one, planned again from it, wait for their verdict
            for route in pl.routes.values():
                pl.walk(route)


def confirm_part(pathway: str, part: list[tuple[Planner, tuple[str, ...], StepResult]]) -> None:
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
        postpone_rejected(pathway, rejected)


def postpone_rejected(pathway: str, rejected: list[tuple[Planner, tuple[str, ...], StepResult, list[dict[str, Any]]]]) -> None:
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
        extended = sailing_on(pl.ctx, res, unmet)
        if extended is not None:
            q, scopes, dates = extended
            candidates += [(extended_on(pl.ctx, q, d, scopes, res, f"{n}-{i}"), d) for i, d in enumerate(dates)]
        spans.append((first, len(candidates), extended))
    satisfied = satisfied_pathways(candidates, law, frozenset({pathway})) if candidates else set()
    for (pl, key, res, unmet), (lo, hi, extended) in zip(rejected, spans, strict=True):
        hit = next((candidates[i] for i in range(lo, hi) if (candidates[i][0].id, pathway) in satisfied), None)
        if hit is None or extended is None:
            pl.settle(key, res, False, unmet)
            continue
        pl.postpone(key, res, confirmed_later(pl.ctx, res, extended[0], extended[1], hit[1], unmet))


def sailing_on(ctx: Context, res: StepResult, unmet: list[dict[str, Any]]):
    """The step's projected record with sailing going on, every day, in the step's role after its planned date, the
    scopes of that log, and the dates (after the planned one) on which a scope's credited days reach a number an unmet
    requirement names, in order."""
    from crewkg.law.crediting import AREAS, crediting_limits
    from crewkg.records.dated import ledger
    from crewkg.records.persons import ServiceEntry

    q = res.projected
    if q is None or res.earliest is None:
        return None
    numbers = sorted({int(m["needed"]) for m in walk_items(unmet) if isinstance(m.get("needed"), int)
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


def extended_on(ctx: Context, q: Person, on: date, scopes, res: StepResult, pid: str) -> Person:
    """The extended record as it stands on `on` (credited then, with what the pathway assumes obtained then)."""
    from crewkg.records.dated import at

    r = at(replace(q, id=pid), ctx.law, on, scopes)
    for rid in requirement_ids(ctx.law, ctx.law.pathways[res.pathway].requirements):
        assume = kind(ctx.law.requirements[rid].kind).assume
        if assume is not None:
            assume(r, ctx.law.requirements[rid], on)
    return r


def confirmed_later(ctx: Context, res: StepResult, q: Person, scopes, on: date, unmet: list[dict[str, Any]]) -> StepResult:
    """The step confirmed on `on`: sailed on until then; the state after it from the record's real crediting."""
    assert res.state is not None and res.earliest is not None
    t = ctx.offset(on)
    anyscope = scopes.get("any")
    gained = (anyscope.on(on.toordinal()).credited - anyscope.on(ctx.date(res.earliest).toordinal()).credited) if anyscope else 0
    role_added = dict(res.state.role_added)
    if res.sailing_role is not None:
        role_added[res.sailing_role] = role_added.get(res.sailing_role, 0) + gained
    state = replace(res.state, t=t, ledger=window_of(ctx, q, on, scopes), credited=res.state.credited + gained,
                    role_added=role_added, served=res.state.served + ((res.earliest + 1, t, res.sailing_role),))
    ids = {m["id"] for m in walk_items(unmet)}
    remaining = copy.deepcopy(res.remaining)
    for it in walk_items(remaining):
        if it["id"] in ids and it.get("met_on") is not None:
            it["met_on"] = on.isoformat()
    return replace(res, earliest=t, state=state, remaining=remaining, projected=None)


def make_planner(law: Law, person: Person, answer: dict[str, Any], as_of: date, pace: Pace, lang: str = "de") -> Planner:
    ctx = Context(law, pace, as_of, person, items_by_pathway(answer), role_depths(law), lang=lang)
    return Planner(ctx, initial_state(ctx, list(person.certificates)))
