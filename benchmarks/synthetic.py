"""Synthetic person records with realistic shapes, for the register benchmark and the register tests: apprentices,
deckhands with Fahrzeit in several roles, sea-going career changers, programme graduates, exam holders, boatmasters;
some with medical fitness expired, some without a birth date; about one in five keeps a dated service log
(Schifferdienstbuch: seasons per year, a role that rises, sea seasons, dated exams and certificates, some entries
not yet validated). Deterministic for a seed.

    python benchmarks/synthetic.py 100000 > register.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from datetime import date, timedelta

ROLES = ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann"]
EXAMS = ["Anlage8", "Anlage9", "Anlage10", "Anlage11"]
CERTS = ["UBZ-Decksmann", "UBZ-Leichtmatrose", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann", "UBZ-Schiffsfuehrer"]


def person(i: int, rng: random.Random, as_of: date = date(2026, 11, 30)) -> dict:
    rec: dict = {"id": f"p{i:06d}"}
    if rng.random() > 0.02:
        rec["birth_date"] = (as_of - timedelta(days=rng.randint(15 * 365, 65 * 365))).isoformat()
    r = rng.random()
    rec["medical_fitness"] = True if r < 0.8 else {"valid_until": (as_of + timedelta(days=rng.randint(-400, 400))).isoformat()}
    if rng.random() < 0.7:
        rec["radio_certificate"] = True
    if rng.random() < 0.5:
        rec["basic_safety_training"] = True
    kind = rng.random()
    if kind >= 0.8:  # a dated service log
        return rec | dated(rng, as_of)
    if kind < 0.15:  # apprentice
        rec["apprenticeship"] = {"contract": True, "year": rng.randint(1, 3)}
        rec["sailing_days"] = {"Leichtmatrose": rng.randint(0, 500)}
    else:
        depth = rng.randint(1, len(ROLES))
        rec["sailing_days"] = {role: rng.choice([rng.randint(0, 400), 180, 179, 360, 359, 540])
                               for role in ROLES[:depth] if rng.random() < 0.8}
        if rng.random() < 0.15:
            rec["sea_days"] = {"deck_crew": rng.randint(0, 900), "master": rng.choice([0, 0, rng.randint(0, 600)])}
        if rng.random() < 0.2:
            rec["professional_experience_years"] = rng.randint(0, 10)
        if rng.random() < 0.1:
            rec["vocational_training_years"] = rng.choice([2, 3])
        if rng.random() < 0.15:
            role = rng.choice(["Matrose", "Schiffsfuehrer"])
            rec["programmes"] = [{"for": role, "months": rng.choice([9, 18, 24, 36]),
                                  "sailing_days": rng.randint(60, 400), "sailing_days_after": rng.randint(0, 200)}]
        if rng.random() < 0.3:
            rec["exams"] = sorted(rng.sample(EXAMS, rng.randint(1, 3)))
        if rng.random() < 0.5:
            rec["certificates"] = [CERTS[min(depth - 1, len(CERTS) - 1)]]
    return rec


def dated(rng: random.Random, as_of: date) -> dict:
    """A service log of seasons (March to November), rising from Decksmann; some sea seasons; dated exams."""
    out: dict = {}
    log: list[dict] = []
    year = as_of.year - rng.randint(1, 8)
    level = 0
    while year <= as_of.year:
        if rng.random() < 0.15:
            start = date(year, rng.randint(1, 3), rng.randint(1, 28))
            log.append({"from": start.isoformat(), "to": (start + timedelta(days=rng.randint(60, 270))).isoformat(),
                        "waters": "sea", "capacity": "deck_crew", "vessel": "MV Sea"})
        else:
            start = date(year, rng.randint(3, 5), rng.randint(1, 28))
            end = min(start + timedelta(days=rng.randint(30, 200)), as_of)
            if end > start:
                entry = {"from": start.isoformat(), "to": end.isoformat(), "role": ROLES[level], "vessel": "MS River"}
                if year == as_of.year and rng.random() < 0.3:
                    entry["validated"] = False
                log.append(entry)
        if rng.random() < 0.4 and level < 2:
            level += 1
        year += 1
    out["service"] = log
    if rng.random() < 0.5:
        passed = as_of - timedelta(days=rng.randint(0, 900))
        out["exams"] = [{"id": rng.choice(EXAMS[:2]), "passed": passed.isoformat()}]
    if level and rng.random() < 0.5:
        out["certificates"] = [{"id": CERTS[level - 1], "issued": (as_of - timedelta(days=rng.randint(0, 700))).isoformat()}]
    return out


def persons(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    return [person(i, rng) for i in range(n)]


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    out = sys.stdout
    for i in range(n):
        out.write(json.dumps(person(i, rng), separators=(",", ":")) + "\n")
