"""Dated evidence: the service log (Schifferdienstbuch) credited on an evaluation date.

A person record with a `service` log gives its Fahrzeit as dated entries; this module turns them into the totals the
Datalog program reads (days per role, in any role, per sea capacity, within and after each dated programme) and,
per scope, the Credit that explains a requirement's gap. The cap (at most so many days in so many consecutive days,
per navigation area) is the kb's crew:CreditingLimit (§ 6 Abs. 4 SchBV), the algorithm `law.crediting.credited_days`.

A scope's days are the calendar days its entries cover up to the evaluation date, each counted once; days of entries
not yet validated are shown, never credited (a day covered by a validated entry too is validated). Crediting is
chronological, so the credited days of every evaluation date follow from one crediting of all validated days: the
Ledger does that once and answers for any date (the eligible-since search evaluates many)."""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from crewkg.law.crediting import AREAS, Credit, completed_months, credited_days, crediting_limits
from crewkg.law.phases import AFTER, PHASES, WITHIN, WITHIN_OR_AFTER
from crewkg.law.statute import Law

#: a person record (records.persons.Person; not imported: persons calls this module)
Person = Any

@dataclass(frozen=True)
class Scope:
    """The days one requirement counts: every day (sorted day numbers), the validated ones, those only unvalidated
    entries cover, and the credited ones (over all validated days, whatever the date)."""

    recorded: list[int]
    validated: list[int]
    not_validated: list[int]
    credited: list[int]

    def on(self, day: int) -> Credit:
        credited = bisect_right(self.credited, day)
        validated = bisect_right(self.validated, day)
        return Credit(recorded=bisect_right(self.recorded, day), credited=credited,
                      not_validated=bisect_right(self.not_validated, day), capped=validated - credited)

    def nth(self, n: int) -> date | None:
        """The day the n-th day is credited (None: never, on this log)."""
        return date.fromordinal(self.credited[n - 1]) if 0 < n <= len(self.credited) else None


def _scope(valid: set[int], unvalid: set[int], cap: int, period: int) -> Scope:
    validated = sorted(valid)
    return Scope(recorded=sorted(valid | unvalid), validated=validated, not_validated=sorted(unvalid - valid),
                 credited=credited_days(validated, cap, period))


def _days(entries) -> tuple[set[int], set[int]]:
    valid: set[int] = set()
    unvalid: set[int] = set()
    for e in entries:
        (valid if e.validated else unvalid).update(range(e.start.toordinal(), e.end.toordinal() + 1))
    return valid, unvalid


def _within(days: tuple[set[int], set[int]], lo: int, hi: int | None) -> tuple[set[int], set[int]]:
    return tuple({d for d in s if d >= lo and (hi is None or d <= hi)} for s in days)  # type: ignore[return-value]


def ledger(p: Person, law: Law) -> dict[str, Scope]:
    """Every scope of a logged record, keyed `role:<id>`, `any`, `sea:<capacity>`, `sea:<capacity>:before:<i>`,
    `with-sea:<capacity>` (inland and sea days together, each day once) and `programme:<i>:<phase>`."""
    limits = crediting_limits()
    out: dict[str, Scope] = {}
    entries = p.service or []
    inland = [e for e in entries if e.waters == "inland"]
    sea = [e for e in entries if e.waters == "sea"]
    if inland:
        lim = limits[AREAS["inland"]]
        for role, (v, u) in _one_role_a_day(inland, law).items():
            out[f"role:{role}"] = _scope(v, u, lim.days, lim.period)
        every = _days(inland)
        out["any"] = _scope(*every, lim.days, lim.period)
        for i, g in enumerate(p.programmes):
            if g.start is None or g.end is None:
                continue
            lo, hi = g.start.toordinal(), g.end.toordinal()
            # each phase is the scope of the requirements that count it, credited under the cap on its own
            for phase in PHASES:
                out[f"programme:{i}:{phase.id}"] = _scope(*_within(every, *phase.window(lo, hi)), lim.days, lim.period)
    if sea:
        lim = limits[AREAS["sea"]]
        for cap in law.ids_of("SeaCapacity"):
            counted = law.counted_capacities(cap)
            days = _days(e for e in sea if e.capacity in counted)
            out[f"sea:{cap}"] = _scope(*days, lim.days, lim.period)
            for i, g in enumerate(p.programmes):  # gained before enrolling in a dated programme (crew:beforeProgramme)
                if g.start is not None:
                    out[f"sea:{cap}:before:{i}"] = _scope(*_within(days, 0, g.start.toordinal() - 1), lim.days, lim.period)
            if inland:
                out[f"with-sea:{cap}"] = _together(out["any"], out[f"sea:{cap}"])
    return out


def _together(inland: Scope, sea: Scope) -> Scope:
    """Inland and sea days together, each calendar day once (§ 2 Z 3 SchBV: Fahrzeit is 'die in Tagen berechnete
    Zeit', a day one Fahrtag whatever its entries say): a day credited in either area is credited once; each area's
    days are credited under its own limit (§ 6 Abs. 4 SchBV), as they are alone."""
    def union(a: list[int], b: list[int]) -> list[int]:
        return sorted(set(a) | set(b))

    validated = union(inland.validated, sea.validated)
    return Scope(recorded=union(inland.recorded, sea.recorded), validated=validated,
                 not_validated=sorted(set(union(inland.not_validated, sea.not_validated)) - set(validated)),
                 credited=union(inland.credited, sea.credited))


@dataclass(frozen=True)
class Overlap:
    """Two entries of the log of different waters that cover the same calendar days (1-based positions in the log):
    a day is one Fahrtag, inland or at sea, so this is almost always a typing error in the log."""

    first: int
    second: int
    start: date
    end: date

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def overlaps(p: Person) -> list[Overlap]:
    """Every pair of an inland and a sea entry of the log whose days overlap, in the log's order."""
    entries = p.service or []
    out = []
    for i, a in enumerate(entries):
        for j in range(i + 1, len(entries)):
            b = entries[j]
            if a.waters != b.waters and a.start <= b.end and b.start <= a.end:
                out.append(Overlap(i + 1, j + 1, max(a.start, b.start), min(a.end, b.end)))
    return out


def _one_role_a_day(inland: list, law: Law) -> dict[str, tuple[set[int], set[int]]]:
    """Each role's (validated, not validated) days, a calendar day in one role only: a Fahrtag is served in one role
    („als Matrosin bzw. Matrose geleistete Fahrzeit"), so a day two entries log in different roles counts for the
    higher one (the role with more roles below it; between equals the one the log names last) — validated before not
    validated — and not for both role-specific requirements (the reading is recorded on kb:CreditingLimit-Inland)."""
    roles = list(dict.fromkeys(e.role for e in inland))
    days = {role: _days(e for e in inland if e.role == role) for role in roles}
    if len(roles) < 2:
        return days
    last = {e.role: i for i, e in enumerate(inland)}
    rank = {role: (len(law.below(role)), last[role]) for role in roles}
    out: dict[str, tuple[set[int], set[int]]] = {role: (set(), set()) for role in roles}
    for kind in (0, 1):  # validated days first; a day validated in some role is no unvalidated day of another
        taken = set().union(*(v for v, _ in days.values())) if kind else set()
        owner: dict[int, str] = {}
        for role in sorted(roles, key=rank.__getitem__):  # the higher role last: it keeps the day
            owner.update(dict.fromkeys(days[role][kind] - taken, role))
        for day, role in owner.items():
            out[role][kind].add(day)
    return out


def credited_in_roles(p: Person, law: Law) -> dict[str, int]:
    """The days a log credits in any deck role on its evaluation date (`p.any_role_days`: every role's days under one
    limit), by the role each credited day was served in (one role a day, as `_one_role_a_day` decides): they add up
    to the credited total, which the roles' own counts (`p.sailing_days`, each role under the limit on its own) need
    not. Empty for a record without an inland log."""
    inland = [e for e in p.service or [] if e.waters == "inland"]
    if not inland or p.any_role_days is None:
        return {}
    lim = crediting_limits()[AREAS["inland"]]
    owner = {d: role for role, (valid, _) in _one_role_a_day(inland, law).items() for d in valid}
    out: dict[str, int] = {}
    # crediting is chronological: the days credited on the evaluation date are the first `any_role_days` of them
    for d in credited_days(sorted(_days(inland)[0]), lim.days, lim.period)[: p.any_role_days]:
        out[owner[d]] = out.get(owner[d], 0) + 1
    return out


def programme_on(g: Any, on: date) -> dict[str, Any]:
    """A dated programme as of `on`: the calendar months it has completed by then, and whether it is completed
    ("absolviert", on its last day). The one place both are said, for records and for the planner's projections."""
    return {"months": completed_months(g.start, date.fromordinal(min(g.end, on).toordinal() + 1)),
            "completed": g.end <= on}


def apply(p: Person, law: Law, on: date, scopes: dict[str, Scope] | None = None) -> Person:
    """Fill the totals of a record from its dated evidence as of `on` (in place; returns the record). A record
    without a log keeps its totals; dated programmes get their months (completed by `on`) either way, and are
    completed once their last day is reached."""
    for g in p.programmes:
        if g.start is not None and g.end is not None:
            now = programme_on(g, on)
            g.months, g.completed = now["months"], now["completed"]
    if p.service is None:
        return p
    scopes = ledger(p, law) if scopes is None else scopes
    day = on.toordinal()
    p.credits = {key: s.on(day) for key, s in scopes.items()}
    if p.logged("inland"):
        p.sailing_days = {key[5:]: c.credited for key, c in p.credits.items() if key.startswith("role:")}
        p.any_role_days = p.credits["any"].credited
        for i, g in enumerate(p.programmes):
            if g.start is not None and g.end is not None:
                g.sailing_days = p.credits[f"programme:{i}:{WITHIN.id}"].credited
                g.sailing_days_after = p.credits[f"programme:{i}:{AFTER.id}"].credited
                g.within_or_after = p.credits[f"programme:{i}:{WITHIN_OR_AFTER.id}"].credited
    if p.logged("sea"):
        p.sea_credited = {key[4:]: c.credited for key, c in p.credits.items() if key.startswith("sea:") and key.count(":") == 1}
        p.sea_before = {(int(key.split(":")[3]), key.split(":")[1]): c.credited for key, c in p.credits.items()
                        if key.startswith("sea:") and ":before:" in key}
        p.sea_days = {}  # the program reads sea_credited: a capacity's credited days are no sum of the capacities'
        if p.logged("inland"):  # a day logged inland and at sea counts once where both are added
            p.with_sea_credited = {key[9:]: c.credited for key, c in p.credits.items() if key.startswith("with-sea:")}
    return p


def at(p: Person, law: Law, on: date, scopes: dict[str, Scope] | None = None) -> Person:
    """A copy of the record evaluated on another date (its totals credited as of `on`)."""
    q = dataclasses.replace(p, programmes=[dataclasses.replace(g) for g in p.programmes],
                            sailing_days=dict(p.sailing_days), sea_days=dict(p.sea_days))
    return apply(q, law, on, scopes)


def full_months(g: Any) -> int:
    """The months a programme of the record lasts from its first to its last day (a dated one still running: once
    completed); the months the record states for an undated one."""
    if g.start is None or g.end is None:
        return g.months
    return completed_months(g.start, g.end + timedelta(days=1))


def runs_to(g: Any, role: str | None, minimum: int | None) -> bool:
    """A programme of the record for `role`, still running, that will have `minimum` months once completed (it
    counts for no requirement before then: "absolviert")."""
    return g.role == role and not g.completed and full_months(g) >= (minimum or 0)


def validated(p: Person, law: Law, on: date) -> Person | None:
    """The record as it would read once every entry of its service log awaiting validation is validated, credited as
    of `on`: the days the summary tells the person to have validated, and what they would give (None: nothing awaits
    validation). The same crediting as the record's own; only the flag differs."""
    if not p.service or all(e.validated for e in p.service):
        return None
    q = dataclasses.replace(p, service=[dataclasses.replace(e, validated=True) for e in p.service])
    return at(q, law, on)
