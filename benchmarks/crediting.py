"""Crediting a 40-year daily service log of one person (issue 10: at most 50 ms): one entry per day, changing role
every few years, with a dated programme, credited on the last day (records.dated.apply: every scope — each role,
any role, within / after / within or after the programme). Prints the median of several runs; asserts nothing."""

from __future__ import annotations

import statistics
import time
from datetime import date, timedelta

from crewkg.law.crediting import crediting_limits
from crewkg.law.statute import load_law
from crewkg.records.dated import apply
from crewkg.records.persons import Person, Programme, ServiceEntry

RUNS = 15
YEARS = 40


def log() -> list[ServiceEntry]:
    start = date(1985, 1, 1)
    roles = ["Decksmann", "Matrose", "Bootsmann", "Steuermann", "Schiffsfuehrer"]
    return [ServiceEntry(start + timedelta(days=i), start + timedelta(days=i), role=roles[min(i // (365 * 8), 4)],
                         validated=i % 97 != 0) for i in range(YEARS * 365)]


def main() -> None:
    law = load_law()
    crediting_limits()  # the kb's limits are read once per process (cached): not part of crediting
    entries = log()
    on = entries[-1].end
    times = []
    for _ in range(RUNS):
        p = Person(id="bench", service=list(entries), programmes=[Programme("Matrose", 0, start=date(1990, 1, 1),
                                                                            end=date(1991, 12, 31))])
        t = time.perf_counter()
        apply(p, law, on)
        times.append(time.perf_counter() - t)
    print(f"{len(entries)} daily entries over {YEARS} years, {len(p.credits)} scopes: credited in "
          f"{statistics.median(times) * 1000:.1f} ms (median of {RUNS}; budget 50 ms); "
          f"{p.any_role_days} of {p.credits['any'].recorded} days credited in any role")


if __name__ == "__main__":
    main()
