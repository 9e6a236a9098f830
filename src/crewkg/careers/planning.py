"""Fastest routes to a certificate: every chain of pathways from where a person stands to the target, with the
earliest date each step can be completed.

The engine decides what a person can be issued today (`answers.check`); the planner projects that answer forward in
time, generically per requirement kind, never per certificate. This module is its way in (every name below is
importable from here) and holds the minimum time of a pathway; the planner itself is, by concept: the crediting pace
and ledger arithmetic (`careers.pace`), where a person stands on a route (`careers.route_state`), the projection of
one requirement to a step's start (`careers.projection`), one step of a route and the record it leads to
(`careers.steps`), and the planner of a person's routes whose steps the rules confirm (`careers.planner`). The assumptions are data too: they are recorded as
skos:editorialNote on kb:CreditingLimit-Inland (kb/schbv2022/03_fahrzeit.ttl) and repeated here:

- Fahrzeit: future days are credited greedily at the pace of § 6 Abs. 4 SchBV read from the kb (at most 180 days in
  every window of 365 consecutive days; `--days-per-year` lowers it). A day is credited when the window ending on it
  holds fewer than the maximum, so the rolling window is never exceeded. A record with totals gives no dates, so its
  window is empty on the evaluation date; a record with a service log starts from its real window (the days of the
  log credited in the period ending on the evaluation date delay when new days can be credited), and the record a
  step leads to is its log with the planned days appended as entries, credited by the real algorithm
  (`records.dated`). Each scope (a role, a programme phase) has its own window, which can be fuller than the any-role
  one the pace follows: a step the rules reject on its date then moves, sailing on in its role, to the first date a
  scope's crediting reaches a number an unmet requirement names and the rules confirm (`postpone_rejected`). Sailing starts the day after it and, in each step, stops once the step's
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

from datetime import date
from typing import Any

from crewkg.careers.pace import BeyondCalendar, Ledger, Pace, accrue, kth_day, programme_last_day
from crewkg.careers.planner import Planner, confirm, make_planner
from crewkg.careers.projection import Need, Programme, not_accrued
from crewkg.careers.route_state import Context, State, initial_state, role_depths, window
from crewkg.careers.steps import StepResult, step, unplanned_step
from crewkg.law.statute import Law
from crewkg.records.persons import Person

__all__ = ["BeyondCalendar", "Context", "Ledger", "Need", "Pace", "Planner", "Programme", "State", "StepResult", "accrue",
           "add_months", "confirm", "initial_state", "kth_day", "make_planner", "not_accrued", "pathway_minimum_days",
           "programme_last_day", "role_depths", "step", "unplanned_step", "window"]


def add_months(d: date, months: int) -> date:
    """The same day `months` calendar months later (or earlier), the month's last day where it lacks that day
    (`law.calendar.months_later`); a day past the calendar cannot be planned (BeyondCalendar)."""
    from crewkg.law.calendar import months_later

    try:
        return months_later(d, months)
    except (ValueError, OverflowError):
        raise BeyondCalendar(months) from None


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
