"""Reckoning in months and years as the law does (§ 902 ABGB): the one home of adding months or years to a date.

Two readings of "N months (or years) from a day" appear in the law, and they differ only where the last month lacks
the day's number (31 January, 29 February, …):

- a *period* of months (§ 902 Abs. 2 ABGB: 'Fristen … enden mit dem Ablaufe desjenigen Tages des letzten Monates,
  welcher durch seine Zahl dem Tage entspricht, an welchem die Frist angefangen hat. Fehlt dieser Tag in dem letzten
  Monate, so endet die Frist mit dem Ablaufe des letzten Tages dieses Monates'): `months_later` is its last day — a
  proof not older than N months, the months a medical proof counts, grace months;
- months or years *completed* (§ 902 Abs. 1 ABGB, as for completed years of life, 'das N. Lebensjahr vollendet'):
  `completed_on` is the first day on which they count as completed; where the last month lacks the day they are
  completed at the end of its last day, so they count from the first day of the next month — a person born on
  29 February completes a year at the end of 28 February in common years and is that age from 1 March (`birthday`),
  a programme of 24 months from 31 January 2026 is completed from 1 February 2028, one from 29 February 2028 on
  1 March 2030 (its last day, `law.crediting.programme_end`, is the day before).

Both are `dateutil.relativedelta` (which takes the month's last day where it lacks the day), the second moved on by
one day where the month lacked it. A date after 31 December 9999 or before 1 January 1 cannot be named: both raise
ValueError there, as `datetime.date` does (OverflowError for a number of months beyond any date). Both are remembered
(a relativedelta costs ≈ 30 µs, and a register's answers ask the same birthdays and medical periods thousands of
times: 75 000 calls for 300 persons' compact graphs)."""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

from dateutil.relativedelta import relativedelta

DAY = timedelta(days=1)
#: answers remembered: the same birthdays and periods are asked again and again (a fleet's members on every day their
#: inputs can change: every renewal birthday of the medical schedule, every age of the kb), and relativedelta is slow
_REMEMBERED = 1 << 16


@lru_cache(maxsize=_REMEMBERED)
def months_later(day: date, months: int) -> date:
    """The last day of a period of `months` months from `day` (§ 902 Abs. 2 ABGB): the same day `months` months
    later, or the month's last day where it has no such day (31 January + 1 month: 28 or 29 February)."""
    years, month = divmod(day.month - 1 + months, 12)
    try:  # the month has the day: the same day (relativedelta's answer, without its cost)
        return day.replace(year=day.year + years, month=month + 1)
    except ValueError:
        return day + relativedelta(months=months)


@lru_cache(maxsize=_REMEMBERED)
def completed_on(start: date, months: int = 0, years: int = 0) -> date:
    """The first day on which `months` months and `years` years from `start` count as completed (§ 902 Abs. 1 ABGB):
    the same day that much later, or the first day of the next month where the month has no such day (29 February +
    1 year: 1 March; 31 January + 1 month: 1 March)."""
    if not months:
        try:  # the year has the day: the same day (relativedelta's answer, without its cost)
            return start.replace(year=start.year + years)
        except ValueError:
            pass
    later = start + relativedelta(years=years, months=months)
    return later if later.day == start.day else later + DAY


def birthday(birth: date, years: int) -> date:
    """The first day on which `years` years of life count as completed: the birthday, or 1 March for a person born
    on 29 February in common years (§ 902 ABGB)."""
    return completed_on(birth, years=years)


def completed_years(birth: date, on: date) -> int:
    """Completed years of life ('das N. Lebensjahr vollendet'): a year of life is completed at the end of the day
    before the birthday, so the age counts from the birthday. A person born on 29 February completes a year at the
    end of 28 February in common years (§ 902 ABGB), so the age counts from 1 March there."""
    return on.year - birth.year - (1 if on < birthday(birth, on.year - birth.year) else 0)
