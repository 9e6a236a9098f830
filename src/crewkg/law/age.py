"""Age in the law's sense: 'das N. Lebensjahr vollendet' (completed years of life, § 902 ABGB)."""

from __future__ import annotations

from datetime import date, timedelta


def completed_years(birth: date, on: date) -> int:
    """Completed years of life ('das N. Lebensjahr vollendet'): a year of life is completed at the end of the day
    before the birthday, so the age counts from the birthday. A person born on 29 February completes a year at the
    end of 28 February in common years (§ 902 ABGB), so the age counts from 1 March there."""
    anniversary = birthday(birth, on.year - birth.year)
    return on.year - birth.year - (1 if on < anniversary else 0)


def birthday(birth: date, years: int) -> date:
    """The first day on which `years` of life count as completed (1 March for 29 February in common years)."""
    try:
        return birth.replace(year=birth.year + years)
    except ValueError:
        return date(birth.year + years, 3, 1)


def months_later(day: date, months: int) -> date:
    """The same day `months` months later; the month's last day where it has no such day (§ 902 Abs. 2 ABGB: a period
    in months ends on the day of the last month that bears the same number, or on its last day)."""
    y, m = divmod(day.month - 1 + months, 12)
    first = date(day.year + y, m + 1, 1)
    nxt = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    return min(first + timedelta(days=day.day - 1), nxt - timedelta(days=1))
