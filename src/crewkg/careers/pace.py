"""The crediting pace (§ 6 Abs. 4 SchBV) and the arithmetic of credited days on a route: at most so many days in any
so many consecutive days, credited greedily (`accrue`); the days a route's ledger holds; the calendar's last day, after
which nothing can be planned.

A ledger is the credited days as sorted, disjoint, inclusive intervals of day offsets from the evaluation date."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError


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

def credited_in(ledger: Ledger, lo: int, hi: int) -> int:
    """Credited days in [lo, hi]."""
    n = 0
    for a, b in ledger:
        if b >= lo and a <= hi:
            n += min(b, hi) - max(a, lo) + 1
    return n


def add_span(ledger: Ledger, a: int, b: int) -> Ledger:
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
        return credited_in(ledger, d - period + 1, start - 1) + (d - start)

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
        return start + n - 1, add_span(ledger, start, start + n - 1)
    filled = add_span(ledger, start, full - 1)
    window = [(max(a, full - period), min(b, full - 1)) for a, b in filled if b >= full - period and a <= full - 1]
    cycles, index = divmod(n - fill - 1, cap)  # the window holds exactly `cap` days; they recur every `period` days
    new = filled
    for k in range(1, cycles + 2):
        for a, b in window:
            if k <= cycles:
                new = add_span(new, a + k * period, b + k * period)
                continue
            length = b - a + 1
            if index < length:
                last = a + index + k * period
                return last, add_span(new, a + k * period, last)
            new = add_span(new, a + k * period, b + k * period)
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
