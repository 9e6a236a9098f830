"""A cohort of 1,000 synthetic trainees: time to read, evaluate and plan them (target ≤ 10 s), in process with the
CLI's settings (one worker process per core) and single-process, plus the whole `crewkg cohort … --out report.html`
command. Prints figures; asserts nothing (speed is never a test)."""

from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

AS_OF = date(2026, 11, 30)
N = 1000
TARGET = "UBZ-Steuermann"
CREWKG = Path(sys.executable).with_name("crewkg")
COLUMNS = ["id", "birth_date", "medical_fitness", "radio_certificate", "basic_safety_training", "apprenticeship.contract",
           "sailing_days.Leichtmatrose", "sailing_days.Decksmann", "sailing_days.Matrose", "sailing_days.Bootsmann",
           "sea_days.deck_crew", "professional_experience_years", "programme.for", "programme.months",
           "programme.sailing_days", "exams", "certificates"]


def synthetic(n: int, seed: int = 2026) -> list[dict[str, str]]:
    """Trainees of a training school: apprentices, programme graduates, career changers, deckhands, Matrosen,
    Bootsleute and seafarers, in random proportions with random days."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        kind = rnd.choice(["apprentice", "graduate", "changer", "deckhand", "matrose", "bootsmann", "seafarer"])
        age = {"apprentice": rnd.randint(15, 18)}.get(kind, rnd.randint(18, 50))
        r = {"id": f"t{i:04d}", "birth_date": date(AS_OF.year - age, rnd.randint(1, 12), rnd.randint(1, 28)).isoformat(),
             "medical_fitness": rnd.choice(["true"] * 9 + ["2026-06-30"]), "radio_certificate": rnd.choice(["true", ""]),
             "basic_safety_training": rnd.choice(["true", ""])}
        if kind == "apprentice":
            r |= {"apprenticeship.contract": "true", "sailing_days.Leichtmatrose": str(rnd.randint(0, 400))}
        elif kind == "graduate":
            days = rnd.randint(85, 130)
            r |= {"sailing_days.Leichtmatrose": str(days), "programme.for": "Matrose", "programme.months": rnd.choice(["24", "36"]),
                  "programme.sailing_days": str(days)}
        elif kind == "changer":
            r |= {"professional_experience_years": str(rnd.randint(3, 10)), "sailing_days.Decksmann": str(rnd.randint(0, 120))}
        elif kind == "deckhand":
            r |= {"sailing_days.Decksmann": str(rnd.randint(100, 400)), "exams": rnd.choice(["Anlage8", ""]), "certificates": "UBZ-Decksmann"}
        elif kind == "matrose":
            r |= {"sailing_days.Decksmann": str(rnd.randint(180, 400)), "sailing_days.Matrose": str(rnd.randint(0, 200)),
                  "exams": "Anlage8", "certificates": "UBZ-Matrose"}
        elif kind == "bootsmann":
            r |= {"sailing_days.Matrose": str(rnd.randint(180, 400)), "sailing_days.Bootsmann": str(rnd.randint(0, 200)),
                  "exams": "Anlage8", "certificates": "UBZ-Bootsmann"}
        else:
            r |= {"sea_days.deck_crew": str(rnd.randint(100, 700)), "sailing_days.Decksmann": str(rnd.randint(0, 200))}
        rows.append(r)
    return rows


def main() -> None:
    from crewkg.careers.cohorts import evaluate_cohort, load_cohort
    from crewkg.careers.graph import career_graph
    from crewkg.careers.planning import Pace
    from crewkg.law.statute import load_law

    folder = Path(tempfile.mkdtemp(prefix="crewkg-cohort-bench-"))
    path = folder / "cohort.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, COLUMNS)
        w.writeheader()
        w.writerows(synthetic(N))

    law = load_law()
    pace = Pace.from_kb()
    g = career_graph(law, days_per_period=pace.days)
    start = time.perf_counter()
    trainees = load_cohort(path, law, AS_OF)
    read = time.perf_counter() - start
    timings = {}
    for workers in (os.cpu_count() or 1, 1):
        start = time.perf_counter()
        rows = evaluate_cohort(law, trainees, TARGET, AS_OF, pace, workers=workers, g=g)
        timings[workers] = time.perf_counter() - start
    errors = sum(1 for r in rows if r["error"])
    planned = sum(1 for r in rows if r["earliest"])

    report = folder / "report.html"
    start = time.perf_counter()
    subprocess.run([str(CREWKG), "cohort", str(path), "--target", TARGET, "--as-of", AS_OF.isoformat(), "--out", str(report),
                    "--format", "csv"], check=True, stdout=subprocess.DEVNULL)
    cli = time.perf_counter() - start

    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores, Python {sys.version.split()[0]}")
    print(f"{'synthetic trainees (target ' + TARGET + ')':<56} {N:8d}")
    print(f"{'read and schema-check the CSV':<56} {read:8.2f} s")
    print(f"{f'evaluate + plan, {cores} worker processes (CLI default)':<56} {timings[cores]:8.2f} s   (target <= 10 s)")
    if cores != 1:
        print(f"{'evaluate + plan, one process':<56} {timings[1]:8.2f} s")
    print(f"{'crewkg cohort … --out report.html (whole command)':<56} {cli:8.2f} s")
    print(f"{'trainees with errors / with a planned date':<56} {errors:4d} / {planned}")
    print(f"{'report size':<56} {report.stat().st_size / 1024:8.0f} KiB")


if __name__ == "__main__":
    main()
