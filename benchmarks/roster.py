"""Roster checks per second for a 12-person roster (the cabin ship MV Amadeus, kb/examples), in process, side by side:
the whole check (eligibility program for the 12 people + the networkx assignment of every alternative) and the
minimum-crew requirement itself (the manning Datalog program), plus one cold `crewkg crew` call. Prints figures;
asserts nothing (speed is never a test)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VESSEL = ROOT / "kb" / "examples" / "vessels" / "04-mv-amadeus-cabin-ship.yaml"
ROSTER = ROOT / "kb" / "examples" / "rosters" / "04-mv-amadeus-crew.yaml"
CREWKG = Path(sys.executable).with_name("crewkg")
AS_OF = date(2026, 11, 30)


def rate(fn, seconds: float = 8.0) -> tuple[float, float]:
    """Calls per second and the median time of one call, over at least `seconds`."""
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), statistics.median(times)


def main() -> None:
    cache = tempfile.mkdtemp(prefix="crewkg-bench-")
    os.environ["CREWKG_CACHE"] = cache
    cmd = [str(CREWKG), "crew", str(VESSEL), "--roster", str(ROSTER), "--as-of", AS_OF.isoformat(), "--format", "json"]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    first = time.perf_counter() - t  # compiles the law, validates 12 person records and the vessel with SHACL
    warm_cli = statistics.median(_timed(cmd) for _ in range(5))

    from crewkg.law.statute import load_law
    from crewkg.manning.compile import load_manning
    from crewkg.manning.crew import requirement
    from crewkg.manning.rosters import check_roster
    from crewkg.manning.vessels import load_roster, load_vessel

    law = load_law()
    ml = load_manning(law)
    vessel = load_vessel(VESSEL, law, ml)
    persons = load_roster(ROSTER, law, ml, AS_OF)
    req = requirement(law, ml, vessel, AS_OF)
    verdict = check_roster(law, ml, req, persons)
    assert len(persons) == 12 and verdict["satisfied"] is True

    roster_rate, roster_median = rate(lambda: check_roster(law, ml, req, persons))
    full_rate, full_median = rate(lambda: check_roster(law, ml, requirement(law, ml, vessel, AS_OF), persons))
    req_rate, req_median = rate(lambda: requirement(law, ml, vessel, AS_OF))

    print(f"12-person roster of {vessel.id} ({ROSTER.name}), {AS_OF.isoformat()}, {os.cpu_count()} cores")
    print(f"  roster checks per second (requirement known):   {roster_rate:6.2f}   median {roster_median * 1000:6.0f} ms")
    print(f"  requirement + roster check per second:          {full_rate:6.2f}   median {full_median * 1000:6.0f} ms")
    print(f"  requirement alone per second (manning Datalog): {req_rate:6.2f}   median {req_median * 1000:6.0f} ms")
    print(f"  crewkg crew, first call (SHACL of 13 records):  {first:6.2f} s")
    print(f"  crewkg crew, warm cache (median of 5):          {warm_cli:6.2f} s")


def _timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
