"""Where a person stands on a route: the state at a day offset (credited days, the role served, the certificates
held), what every step of one person's routes needs (`Context`), and the state a route starts from (the real crediting
window of a record with a service log)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from crewkg.careers.pace import BeyondCalendar, Ledger, Pace, add_span
from crewkg.law.statute import Law
from crewkg.records.persons import Person


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
    return window_of(ctx, p, ctx.as_of)


def window_of(ctx: Context, p: Person, on: date, scopes: dict[str, Any] | None = None) -> Ledger:
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
        out = add_span(out, d - day0, d - day0)
    return out


def items_by_pathway(answer: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {w["id"]: w["requirements"] for c in answer.get("certificates", []) for w in c.get("pathways", [])}
