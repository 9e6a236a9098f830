"""A fleet of 50 vessels with 10 crew members each over 24 months (`crewkg fleet`, target ≤ 10 s on two cores): the
time to read the fleet and to forecast it, in process (the phases apart: the requirements, the members' states, the
roster checks, the events with their causes and remedies) and as the whole command. The vessels are sister ships of
three classes (the bundled day-trip ship, lake boat and cabin ship); the crews are synthetic, ten to a vessel as its
class needs them: boatmasters of every age with medical proofs of every date, holders of old qualifications and
patents, apprentices turning 17, passenger-safety staff. A second run
gives every vessel a record of its own (no two alike), so the minimum-crew program is asked once per vessel.
Prints figures; asserts nothing (speed is never a test)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
VESSELS = ROOT / "kb" / "examples" / "vessels"
CLASSES = ["01-ms-wachau-danube-day-trip.yaml", "02-ms-wolfgang-lake-boat.yaml", "04-mv-amadeus-cabin-ship.yaml"]
START, END = date(2026, 11, 30), date(2028, 11, 30)
CREWKG = Path(sys.executable).with_name("crewkg")


def _day(rnd: random.Random, first: date, last: date) -> str:
    return (first + timedelta(days=rnd.randint(0, (last - first).days))).isoformat()


def member(rnd: random.Random, i: int, kind: str) -> dict:
    """One synthetic crew member of a kind, with dates drawn so that some change within the span: boatmasters turning
    60 or 70 with older medical proofs, apprentices turning 17, holders of old patents and qualifications."""
    m: dict = {"id": f"m{i:04d}"}
    if kind == "boatmaster":
        m |= {"birth_date": _day(rnd, date(1956, 1, 1), date(1990, 12, 31)), "radio_certificate": True,
              "medical_fitness": {"examined": _day(rnd, date(2020, 6, 1), date(2026, 11, 1))},
              "certificates": [{"id": "UBZ-Schiffsfuehrer", "issued": _day(rnd, date(2022, 2, 1), date(2026, 6, 1))}],
              "functions": ["FirstAid"]}
    elif kind == "patent":
        m |= {"birth_date": _day(rnd, date(1958, 1, 1), date(1975, 12, 31)), "functions": ["FirstAid"],
              "medical_fitness": {"examined": _day(rnd, date(2023, 1, 1), date(2026, 11, 1))},
              "certificates": [{"id": "Kapitaenspatent-B", "issued": _day(rnd, date(1998, 1, 1), date(2015, 12, 31))}]}
    elif kind == "steuermann":
        m |= {"birth_date": _day(rnd, date(1965, 1, 1), date(1998, 12, 31)), "certificates": ["UBZ-Steuermann"],
              "functions": ["FirstAid"]}
    elif kind in ("matrose", "old-matrose"):
        cert = ({"id": "SchBesV2004-Matrose", "issued": _day(rnd, date(2005, 1, 1), date(2021, 12, 31))} if kind == "old-matrose"
                else {"id": "UBZ-Matrose", "issued": _day(rnd, date(2022, 2, 1), date(2026, 6, 1))})
        m |= {"birth_date": _day(rnd, date(1962, 1, 1), date(2004, 12, 31)), "certificates": [cert],
              "medical_fitness": {"valid_until": _day(rnd, date(2027, 6, 1), date(2033, 12, 31))},
              "functions": ["FahrgastErsthelfer"] if rnd.random() < 0.5 else []}
    elif kind == "decksmann":
        m |= {"birth_date": _day(rnd, date(1970, 1, 1), date(2006, 12, 31)), "certificates": ["UBZ-Decksmann"],
              "functions": ["FahrgastErsthelfer"]}
    elif kind in ("apprentice", "apprentice-3"):
        born = _day(rnd, date(2009, 12, 1), date(2011, 10, 31)) if kind == "apprentice-3" else _day(rnd, date(2008, 1, 1), date(2011, 6, 30))
        m |= {"birth_date": born, "certificates": ["UBZ-Leichtmatrose"],
              "apprenticeship": {"contract": True, "year": 3 if kind == "apprentice-3" else rnd.randint(1, 3)},
              "sailing_days": {"Leichtmatrose": rnd.randint(360, 420) if kind == "apprentice-3" else rnd.randint(60, 300)}}
    elif kind == "expert":
        m |= {"birth_date": _day(rnd, date(1970, 1, 1), date(2000, 12, 31)),
              "certificates": ["UBZ-SachkundigerFahrgastschifffahrt"], "functions": ["FirstAid"]}
    else:  # hotel staff with a passenger-safety function: the kind names it
        m |= {"birth_date": _day(rnd, date(1970, 1, 1), date(2004, 12, 31)), "functions": [kind]}
    return m


#: the crew of a vessel of each class: ten members, the first four of the class drawn with variants
CREWS = {
    "01": lambda rnd: [rnd.choice(["boatmaster"] * 5 + ["patent"]), rnd.choice(["matrose"] * 3 + ["apprentice-3"]),
                       "apprentice", rnd.choice(["matrose", "old-matrose", "decksmann"]), "expert",
                       "FahrgastErsthelfer", "FahrgastErsthelfer", "Fahrgastbetreuer", "apprentice", "decksmann"],
    "02": lambda rnd: [rnd.choice(["boatmaster"] * 3 + ["patent"]), rnd.choice(["decksmann", "apprentice-3"]),
                       "Fahrgastbetreuer", "FahrgastErsthelfer", "decksmann", "expert", "matrose", "apprentice",
                       "Fahrgastbetreuer", "FahrgastErsthelfer"],
    "04": lambda rnd: ["boatmaster", rnd.choice(["steuermann"] * 3 + ["boatmaster"]), "matrose",
                       rnd.choice(["matrose", "old-matrose"]), "apprentice", "apprentice", "expert",
                       "Atemschutzgeraetetraeger", "Atemschutzgeraetetraeger", "Maschinist"],
}


def roster(rnd: random.Random, first: int, cls: str) -> dict:
    crew = [member(rnd, first + i, k) for i, k in enumerate(CREWS[cls](rnd))]
    if cls == "04":  # two passenger first-aiders among the deck crew
        for m in crew[2:4] + crew[4:6]:
            m.setdefault("functions", [])
        crew[2]["functions"] = ["FahrgastErsthelfer"]
        crew[4]["functions"] = ["FahrgastErsthelfer"]
    return {"crew": crew}


def write_fleet(folder: Path, n: int = 50, distinct: bool = False, seed: int = 45) -> Path:
    """A fleet file of `n` vessels (sister ships of the classes; `distinct`: each its own record) and their rosters."""
    rnd = random.Random(seed)
    (folder / "rosters").mkdir(parents=True, exist_ok=True)
    entries = []
    for v in range(n):
        record = yaml.safe_load((VESSELS / CLASSES[v % len(CLASSES)]).read_text(encoding="utf-8"))
        record["id"] = f"v{v:02d}-{record['id']}"
        if distinct:  # another length and beam: the same Stufe, but a record of its own
            record["length_m"] = round(float(record["length_m"]) + 0.01 * (v + 1), 2)
        cls = CLASSES[v % len(CLASSES)][:2]
        (folder / "rosters" / f"{record['id']}.yaml").write_text(yaml.safe_dump(roster(rnd, 10 * v, cls), sort_keys=False),
                                                                  encoding="utf-8")
        entries.append({"vessel": record, "roster": f"rosters/{record['id']}.yaml"})
    path = folder / "fleet.yaml"
    path.write_text(yaml.safe_dump({"id": "benchmark-fleet", "vessels": entries}, sort_keys=False), encoding="utf-8")
    return path


def cpu() -> float:
    """CPU seconds of this process and of its finished children (the forked workers)."""
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def in_process(path: Path, workers: int) -> dict:
    from crewkg import api

    t, c = time.perf_counter(), cpu()
    result = api.fleet(path, START, END, "en", workers=workers)
    return {"seconds": time.perf_counter() - t, "cpu": cpu() - c, "result": result}


def main() -> None:
    os.environ.setdefault("CREWKG_CACHE", tempfile.mkdtemp(prefix="crewkg-bench-"))
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"fleet forecast {START} .. {END} (24 months), {cores} cores, load average {load:.1f} at the start")
    from crewkg import api

    api.law()
    for distinct in (False, True):
        kind = "every vessel its own record" if distinct else "sister ships of 3 classes"
        with tempfile.TemporaryDirectory() as tmp:
            path = write_fleet(Path(tmp), distinct=distinct)
            from crewkg.api.forecasts import timings

            for workers in sorted({1, min(2, cores)}):
                for run_no in ("cold", "warm"):  # cold: the records' SHACL shapes are checked; warm: remembered
                    run = in_process(path, workers)
                    vessels = run["result"]["vessels"]
                    events = sum(len(v["events"]) for v in vessels)
                    print(f"  {kind}, {workers} worker(s), {run_no}: 50 vessels, 500 members, {events} events: "
                          f"{run['seconds']:.2f} s wall, {run['cpu']:.2f} s CPU  ({timings()})")
            cmd = [str(CREWKG), "fleet", str(path), "--from", START.isoformat(), "--until", END.isoformat(),
                   "--format", "json"]
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)  # exit 1: a vessel is not manned on a day
            print(f"  {kind}: crewkg fleet --format json, a new process, every core: {time.perf_counter() - t:.2f} s wall")


if __name__ == "__main__":
    main()
