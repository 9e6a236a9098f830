"""Crediting limits as data (§ 6 Abs. 4 SchBV): at most so many Fahrzeit days credited in any so many consecutive days,
per navigation area. Read from the kb with SPARQL and cached like the compiled law."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from crewkg.law.cache import compiled, load_graph
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir, ontology_dir

#: the navigation area (the ontology's crew:NavigationArea) whose crediting limit governs each kind of waters a
#: service log names; the one home of this mapping, asked by crediting, checking and planning alike
AREAS = {"inland": "InlandNavigation", "sea": "SeaNavigation"}


@dataclass(frozen=True)
class CreditingLimit:
    """§ 6 Abs. 4 SchBV as data: at most `days` credited in any `period` consecutive days in one navigation area."""

    id: str
    area: str
    days: int
    period: int
    provision: str
    citation: str
    notes: tuple[str, ...] = ()
    #: the regulation of its provision: an answer under that regulation cites this limit
    regulation: str | None = None


@dataclass(frozen=True)
class Credit:
    """Days of one scope (a role, any role, a sea capacity, a programme phase) on the evaluation date: recorded in
    the log, credited, left out because not yet validated, left out by the cap."""

    recorded: int
    credited: int
    not_validated: int
    capped: int


_LIMITS_QUERY = """
PREFIX crew: <https://w3id.org/crewkg/onto#>
SELECT ?limit ?area ?days ?period ?prov ?cit ?reg WHERE {
  ?limit a crew:CreditingLimit ; crew:inNavigationArea ?area ; crew:maximumCreditedDays ?days ;
         crew:periodDays ?period ; crew:provision ?prov .
  ?prov crew:citation ?cit .
  OPTIONAL { ?prov crew:inRegulation ?reg }
}"""


def crediting_limits(kb: Path | None = None) -> dict[str, CreditingLimit]:
    """The crediting limits of the kb by navigation area ('InlandNavigation', 'SeaNavigation'), those of the newest
    regulation that sets one: the service log is credited by them (the older regulation's figures are the same, see
    `limit_on`).

    `Law` does not compile them (they serve crediting and planning only), so they are read from the kb graph with
    SPARQL and cached like the compiled law: in memory and as a pickle keyed by the kb's content hash."""
    law = load_law(kb)
    newest: dict[str, CreditingLimit] = {}
    for lim in _limits(Path(kb or kb_dir()).resolve(), law.version):
        old = newest.get(lim.area)
        if old is None or _start(law, lim) > _start(law, old):
            newest[lim.area] = lim
    return newest


def limit_on(area: str, day: date, kb: Path | None = None) -> CreditingLimit:
    """The limit an answer on `day` cites: the one the regulation in force then sets for the area (§ 3 Abs. 6
    SchBesV 2004 before 17 Jan 2022), else the newest."""
    law = load_law(kb)
    reg = law.regulation_on(day)
    mine = [lim for lim in _limits(Path(kb or kb_dir()).resolve(), law.version)
            if lim.area == area and reg is not None and lim.regulation == reg.id]
    return mine[0] if mine else crediting_limits(kb)[area]


def all_limits(kb: Path | None = None) -> tuple[CreditingLimit, ...]:
    """Every crediting limit of the kb, of every regulation (a reading of the limits names those it reads otherwise)."""
    return _limits(Path(kb or kb_dir()).resolve(), load_law(kb).version)


def _start(law, lim: CreditingLimit) -> date:
    reg = law.regulations.get(lim.regulation or "")
    return reg.in_force_from if reg is not None else date.min


@lru_cache(maxsize=8)
def _limits(kb: Path, version: str) -> tuple[CreditingLimit, ...]:
    return compiled("limits", version, __file__, lambda: _read_limits(kb), expect=tuple)


def _read_limits(kb: Path) -> tuple[CreditingLimit, ...]:
    from rdflib.namespace import SKOS

    from crewkg.law.namespaces import local

    g = load_graph(kb, ontology_dir())
    out: list[CreditingLimit] = []
    for row in g.query(_LIMITS_QUERY):
        notes = tuple(sorted(str(n) for n in g.objects(row.limit, SKOS.editorialNote)))
        out.append(CreditingLimit(local(row.limit), local(row.area), int(row.days), int(row.period), local(row.prov),
                                  str(row.cit), notes, local(row.reg) if row.reg is not None else None))
    return tuple(sorted(out, key=lambda lim: lim.id))


def credited_days(days: list[int], cap: int, period: int) -> list[int]:
    """The days credited out of `days` (sorted, distinct day numbers): at most `cap` in any `period` consecutive days.

    Crediting chronologically — a day is credited when the `period` days ending on it hold fewer than `cap` credited
    days — chooses the most days any choice can, and it is the same on every evaluation date: the days credited on a
    date D are the credited days up to D (a day's fate depends only on the days before it)."""
    from bisect import bisect_left

    # no window holds more than `cap` days: all count
    if all(b - a >= period for a, b in zip(days, days[cap:], strict=False)):
        return list(days)
    out: list[int] = []
    append = out.append
    n = j = i = 0  # credited so far; the first credited day inside the window ending on days[i]; the day looked at
    total = len(days)
    while i < total:
        d = days[i]
        lo = d - period
        while j < n and out[j] <= lo:
            j += 1
        if n - j < cap:
            append(d)
            n += 1
            i += 1
        else:  # the window is full until its first credited day leaves it: skip the days before that at once
            i = bisect_left(days, out[j] + period, i + 1)
    return out


def programme_end(start: date, months: int) -> date:
    """The last day of a programme of `months` months from `start`: the day before the first day on which
    `completed_months` reaches them (`law.calendar.completed_on`: 24 months from 2026-11-30 end on 2028-11-29; from
    2028-02-29 on 2030-02-28, as 2030-02-27 completes only 23)."""
    from crewkg.law.calendar import DAY, completed_on

    return completed_on(start, months) - DAY


def completed_months(start: date, after_end: date) -> int:
    """Completed calendar months from `start` to `after_end` (the day after the last day): 2023-09-01 to 2025-09-01
    is 24 months, to 2025-08-31 is 23."""
    months = (after_end.year - start.year) * 12 + after_end.month - start.month
    return max(0, months - (after_end.day < start.day))
