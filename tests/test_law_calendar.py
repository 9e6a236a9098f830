"""Months and years reckoned as § 902 ABGB reckons them (`crewkg.law.calendar`), at their edges: 29 February, the
31st of a month followed by a shorter one, and the end of the calendar (31 December 9999)."""

from __future__ import annotations

from datetime import date

import pytest

from crewkg.law.calendar import birthday, completed_on, completed_years, months_later
from crewkg.law.crediting import completed_months, programme_end

# --- a period of months ends on the day of the same number, or on the month's last day (§ 902 Abs. 2 ABGB) --------


@pytest.mark.parametrize("day, months, last", [
    (date(2026, 1, 31), 1, date(2026, 2, 28)),   # February lacks the 31st: its last day
    (date(2028, 1, 31), 1, date(2028, 2, 29)),   # a leap year's
    (date(2026, 1, 30), 1, date(2026, 2, 28)),
    (date(2026, 3, 31), 1, date(2026, 4, 30)),
    (date(2026, 1, 15), 1, date(2026, 2, 15)),   # the same number
    (date(2028, 2, 29), 12, date(2029, 2, 28)),  # 29 February a year on: 28 February
    (date(2028, 2, 29), 48, date(2032, 2, 29)),
    (date(2026, 11, 30), 0, date(2026, 11, 30)),
    (date(2026, 3, 31), -1, date(2026, 2, 28)),  # backwards too
    (date(2026, 11, 30), 25, date(2028, 12, 30)),
])
def test_a_period_of_months_ends_on_the_same_day_or_the_last_day_of_the_month(day, months, last):
    assert months_later(day, months) == last


def test_a_period_may_end_in_the_last_month_of_the_calendar_and_not_after_it():
    assert months_later(date(9999, 11, 30), 1) == date(9999, 12, 30)
    assert months_later(date(9999, 10, 31), 2) == date(9999, 12, 31)
    assert months_later(date(9999, 12, 31), 0) == date(9999, 12, 31)
    with pytest.raises(ValueError):
        months_later(date(9999, 12, 31), 1)
    with pytest.raises(ValueError):
        months_later(date(1, 1, 31), -1)


# --- months or years completed: from the same day, or from the first of the next month (§ 902 Abs. 1 ABGB) ----------


@pytest.mark.parametrize("start, months, years, first", [
    (date(2026, 1, 31), 1, 0, date(2026, 3, 1)),   # February lacks the 31st: completed at the end of the 28th
    (date(2028, 1, 31), 1, 0, date(2028, 3, 1)),   # … or of the 29th
    (date(2026, 1, 15), 1, 0, date(2026, 2, 15)),
    (date(2028, 2, 29), 24, 0, date(2030, 3, 1)),
    (date(2028, 2, 29), 0, 1, date(2029, 3, 1)),
    (date(2028, 2, 29), 0, 4, date(2032, 2, 29)),
    (date(2026, 11, 30), 24, 0, date(2028, 11, 30)),
])
def test_months_and_years_are_completed_from_the_same_day_or_the_first_of_the_next_month(start, months, years, first):
    assert completed_on(start, months, years) == first
    if not years:  # the inverse: the months counted as completed from that day on, one fewer the day before
        assert completed_months(start, first) == months
        assert completed_months(start, date.fromordinal(first.toordinal() - 1)) == months - 1


def test_completed_months_reach_the_last_day_of_the_calendar_and_not_after_it():
    assert completed_on(date(9999, 10, 31), 1) == date(9999, 12, 1)  # November lacks the 31st
    assert completed_on(date(9999, 11, 30), 1) == date(9999, 12, 30)
    with pytest.raises(ValueError):
        completed_on(date(9999, 12, 31), 1)
    with pytest.raises(ValueError):
        birthday(date(9990, 2, 28), 10)


# --- completed years of life ---------------------------------------------------------------------------------------


def test_a_person_born_on_29_february_is_a_year_older_from_1_march_in_common_years():
    born = date(2008, 2, 29)
    assert birthday(born, 18) == date(2026, 3, 1) and birthday(born, 20) == date(2028, 2, 29)
    assert completed_years(born, date(2026, 2, 28)) == 17 and completed_years(born, date(2026, 3, 1)) == 18
    assert completed_years(born, date(2028, 2, 28)) == 19 and completed_years(born, date(2028, 2, 29)) == 20


def test_a_year_of_life_is_completed_on_the_day_before_the_birthday_so_the_age_counts_from_the_birthday():
    born = date(2000, 1, 31)
    assert birthday(born, 16) == date(2016, 1, 31)
    assert completed_years(born, date(2016, 1, 30)) == 15 and completed_years(born, date(2016, 1, 31)) == 16
    assert completed_years(date(1, 1, 1), date(9999, 12, 31)) == 9998


# --- a programme's last day: the day before its months are completed (law.crediting) -------------------------------


@pytest.mark.parametrize("start, months, last", [
    (date(2026, 11, 30), 24, date(2028, 11, 29)),
    (date(2028, 2, 29), 24, date(2030, 2, 28)),  # not 27 February, the day before the same day a month lacks
    (date(2026, 1, 31), 1, date(2026, 2, 28)),
    (date(2026, 3, 31), 1, date(2026, 4, 30)),
    (date(9999, 11, 30), 1, date(9999, 12, 29)),
])
def test_a_programme_ends_on_the_day_before_its_months_are_completed(start, months, last):
    assert programme_end(start, months) == last


def test_a_programme_ending_after_the_calendar_cannot_be_dated():
    with pytest.raises(ValueError):
        programme_end(date(9999, 12, 31), 1)
