"""School attendance on a roster, and the temporary reductions it allows on a date (§ 41 Abs. 4, § 42 Abs. 3, § 43
Abs. 7 and 8 SchBV; § 12 Abs. 3, § 13 Abs. 3, § 14 Abs. 6 and 7 SchBesV 2004): dated data of the roster, never a
switch.

A roster states the periods its school certificates give (`school_attendance: [{member, from, to}]`,
docs/vessels-and-rosters.md). On the evaluation date a member in such a period is at school, not on board, and the
minimum crew may be reduced by one Leichtmatrose — but only where every condition of the provision holds: the date
lies in a stated period; a member at school is a Leichtmatrose; the uninterrupted reduction period is within its
first months; it is the only one of its calendar year; the one before ended at least a month earlier; the provision
names the vessel's Stufe and standard; and the cell prescribes a Leichtmatrose to remove (never the place of a
Matrose a Leichtmatrose takes, „Diese Bestimmungen gelten nicht für den Leichtmatrosen gemäß Abs. …“). The numbers are
the kb's (crew:maximumPeriodMonths, crew:minimumIntervalMonths, crew:onePeriodPerCalendarYear on each reduction);
months are counted as § 902 Abs. 2 ABGB counts a period (`law.calendar`); the reading is recorded on
kb:SchBV2022-P41-Abs4-Reduction. The answer names every condition and which fails."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from crewkg.errors import InputError
from crewkg.law.calendar import DAY, completed_on
from crewkg.manning.tables import Adjustment, ManningLaw
from crewkg.messages.catalogue import say

#: the keys of one period of a roster's school_attendance
KEYS = ("member", "from", "to")


@dataclass(frozen=True)
class Attendance:
    """One period a roster states: `member` is at school from `start` to `end`, both inclusive."""

    member: str
    start: date
    end: date

    def covers(self, day: date) -> bool:
        return self.start <= day <= self.end

    def record(self) -> dict[str, str]:
        return {"member": self.member, "from": self.start.isoformat(), "to": self.end.isoformat()}


class Roster(list):
    """A roster: its crew, person records in roster order (a list, as every caller reads it), and the periods of
    school attendance it states (`attendance`)."""

    def __init__(self, persons=(), attendance: tuple[Attendance, ...] = ()) -> None:
        super().__init__(persons)
        self.attendance = tuple(attendance)


def read_attendance(raw: Any, crew: list[str], source: str) -> tuple[Attendance, ...]:
    """The roster's `school_attendance`, checked: a list of {member, from, to}, the member one of the crew, the dates
    ISO dates with `from` on or before `to` (every message names the file, the field and the expectation)."""
    if not isinstance(raw, list):
        raise InputError(source, "school_attendance", "attendance_list", raw)
    out = []
    for i, entry in enumerate(raw):
        at = f"school_attendance[{i}]"
        if not isinstance(entry, dict):
            raise InputError(source, at, "attendance_entry", entry)
        for k in entry:
            if k not in KEYS:
                raise InputError(source, f"{at}.{k}", "attendance_key", k)
        member = entry.get("member")
        if member not in crew:
            raise InputError(source, f"{at}.member", "attendance_member", member, ids=", ".join(crew))
        start, end = (_day(entry.get(k), source, f"{at}.{k}") for k in ("from", "to"))
        if end < start:
            raise InputError(source, f"{at}.to", "attendance_order", end.isoformat(), start=start.isoformat())
        out.append(Attendance(member, start, end))
    return tuple(out)


def _day(value: Any, source: str, field: str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise InputError(source, field, "iso_date", value) from None


def at_school(periods: tuple[Attendance, ...], day: date) -> list[str]:
    """The members at school on the day (not on board), in the order the roster states them."""
    return list(dict.fromkeys(a.member for a in periods if a.covers(day)))


def spells(periods: tuple[Attendance, ...]) -> list[tuple[date, date]]:
    """The uninterrupted reduction periods: the stated periods of every member merged where they overlap or adjoin
    (the reduction is the vessel's, whoever is at school)."""
    out: list[list[date]] = []
    for a in sorted(periods, key=lambda a: (a.start, a.end)):
        if out and a.start <= out[-1][1] + DAY:
            out[-1][1] = max(out[-1][1], a.end)
        else:
            out.append([a.start, a.end])
    return [(s, e) for s, e in out]


def date_conditions(rule: Adjustment, periods: tuple[Attendance, ...], day: date) -> list[dict[str, Any]]:
    """The conditions of a temporary reduction that the dates decide, each {condition, met, …the dates it names}: the
    day lies in a stated period; within the first `max_months` of its uninterrupted period; no earlier period lies in
    a calendar year that one reaches; the previous one ended `interval_months` before it began."""
    spell = next(((s, e) for s, e in spells(periods) if s <= day <= e), None)
    if spell is None:
        return [{"condition": "period", "met": False, "on": day.isoformat()}]
    start, end = spell
    out: list[dict[str, Any]] = [{"condition": "period", "met": True, "from": start.isoformat(), "to": end.isoformat()}]
    if rule.max_months:  # „für die ununterbrochene Dauer von höchstens drei Monaten“ (§ 902 Abs. 2 ABGB)
        last = completed_on(start, months=rule.max_months) - DAY
        out.append({"condition": "months", "met": day <= last, "months": rule.max_months, "from": start.isoformat(),
                    "last": last.isoformat()})
    earlier = [(s, e) for s, e in spells(periods) if e < start]
    if rule.once_a_year:  # „… in einem Kalenderjahr“: one uninterrupted period a year
        clash = next(((s, e) for s, e in reversed(earlier) if e.year >= start.year), None)
        out.append({"condition": "calendar_year", "met": clash is None}
                   | ({"earlier_from": clash[0].isoformat(), "earlier_to": clash[1].isoformat()} if clash else {}))
    if rule.interval_months and earlier:  # „mindestens (um) einen Monat unterbrochen“, a calendar month from the break
        prev = earlier[-1][1]
        first = completed_on(prev + DAY, months=rule.interval_months)
        out.append({"condition": "interval", "met": start >= first, "months": rule.interval_months,
                    "previous_to": prev.isoformat(), "first_allowed": first.isoformat()})
    return out


def dated_reductions(ml: ManningLaw, periods: tuple[Attendance, ...], day: date,
                     roles_at_school: dict[str, set[str]]) -> dict[str, list[dict[str, Any]]]:
    """Every temporary reduction of the kb with the conditions that the dates and the members at school decide
    (`roles_at_school`: member -> the roles they hold): the member condition is met where a member at school holds
    the role the reduction removes."""
    out = {}
    for r in sorted((r for r in ml.rules.values() if isinstance(r, Adjustment) and r.temporary), key=lambda r: r.id):
        conditions = date_conditions(r, periods, day)
        if conditions[0]["met"]:
            members = sorted(m for m, roles in roles_at_school.items() if r.role in roles)
            conditions.insert(1, {"condition": "member", "met": bool(members), "members": members or at_school(periods, day),
                                  "role": r.role})
        out[r.id] = conditions
    return out


def attendance_answer(law, ml: ManningLaw, req, dated: dict[str, list[dict[str, Any]]], periods: tuple[Attendance, ...],
                      day: date, lang: str) -> dict[str, Any]:
    """The answer's `school_attendance`: who is at school on the date, the uninterrupted period, and for each
    temporary reduction whose table governs the vessel whether it holds and every condition with its sentence."""
    d = req.derived
    spell = next(((s, e) for s, e in spells(periods) if s <= day <= e), None)
    out: dict[str, Any] = {"on": day.isoformat(), "at_school": at_school(periods, day),
                           "period": {"from": spell[0].isoformat(), "to": spell[1].isoformat()} if spell else None,
                           "periods": [a.record() for a in periods], "reductions": []}
    for rid in sorted(d.temporary_fits if d is not None else ()):
        r = ml.rules[rid]
        assert isinstance(r, Adjustment)  # the program derives temporary_fits only for a temporary adjustment
        conditions = list(dated.get(rid, [])) + _cell_conditions(ml, req, r)
        for c in conditions:
            c["text"] = _sentence(law, ml, r, c, lang)
        out["reductions"].append({"id": rid, "provision": law.citation(r.provision) if r.provision in law.provisions else r.provision,
                                  "text": r.label.get(lang, rid), "applies": all(c["met"] for c in conditions),
                                  "fails": [c["condition"] for c in conditions if not c["met"]], "conditions": conditions})
    return out


def _cell_conditions(ml: ManningLaw, req, r: Adjustment) -> list[dict[str, Any]]:
    """The conditions the table decides: the provision names the vessel's Stufe and standard (its cells), and the
    cell prescribes the role to remove (a place a substitute takes is never removed)."""
    d = req.derived
    alts = [a for m, a in sorted(d.adjusted | d.offered) if m == r.id]
    row = req.row
    stufe, standard = (row.stufe if row is not None else None), (d.columns.get(req.table.id) if req.table is not None else None)
    cell = {"condition": "cell", "met": bool(alts), "stufe": stufe, "standard": standard,
            "cells": [{"stufe": n, "standard": s} for n, s in r.cells]}
    if not alts:
        return [cell]
    place = any(dict(ml.alternatives[a].counts).get(r.role or "", 0) > 0 for a in alts)
    return [cell, {"condition": "table_place", "met": place, "role": r.role, "not_for": list(r.not_for)}]


def _sentence(law, ml: ManningLaw, r: Adjustment, c: dict[str, Any], lang: str) -> str:
    """The condition in the catalogue's words (crew.attendance.<condition>.met / .failed)."""
    from crewkg.messages.catalogue import say_plural

    key = f"crew.attendance.{c['condition']}.{'met' if c['met'] else 'failed'}"
    fields: dict[str, Any] = {k: v for k, v in c.items() if k not in ("condition", "met")}
    cited = ", ".join(dict.fromkeys(law.citation(ml.rules[s].provision) for s in c.get("not_for", []) if s in ml.rules))
    fields |= {"role": law.label(r.role, lang) if r.role else "", "members": ", ".join(c.get("members", [])),
               "period": say_plural(lang, "crew.attendance.months", c.get("months", 0), n=c.get("months", 0)),
               "cells": ", ".join(say(lang, "crew.attendance.cell_item", stufe=x["stufe"], standard=x["standard"])
                                  for x in c.get("cells", [])),
               "not_for": say(lang, "crew.attendance.not_for", provisions=cited) if cited else ""}
    return say(lang, key, **fields)
