"""Cold `crewkg check` against `python -c "import rdflib"` — of a record never seen before (issue 12's figure: a new
record's first check) and of one checked before — and warm in-process checks per second, side by side in one run.
Prints figures and ratios; asserts nothing (speed is never a test)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "kb" / "examples" / "persons" / "anna-matrose.yaml"
CREWKG = Path(sys.executable).with_name("crewkg")
RUNS = 9


def timed(cmd: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def median_of(cmd: list[str], env: dict[str, str] | None = None, runs: int = RUNS) -> float:
    return statistics.median(timed(cmd, env) for _ in range(runs))


def main() -> None:
    # An installed wheel ships compiled bytecode; an editable install under PYTHONDONTWRITEBYTECODE=1 (set on this
    # machine) would recompile src/ on every call, so compile it once as an install would.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src")], check=True)
    check = [str(CREWKG), "check", str(EXAMPLE), "--format", "json", "--as-of", "2026-11-30"]
    text = [str(CREWKG), "check", str(EXAMPLE), "--as-of", "2026-11-30"]  # the default: rich tables for people
    cache = tempfile.mkdtemp(prefix="crewkg-bench-")
    env = dict(os.environ, CREWKG_CACHE=cache)
    first = timed(check, env)  # builds the compiled-law cache
    records = Path(cache) / "new"
    records.mkdir()
    example = EXAMPLE.read_text(encoding="utf-8")
    # Interleaved, so a drift in machine speed (shared cores) hits every side alike.
    checks, texts, news, new_texts, imports = [], [], [], [], []
    for i in range(RUNS):
        new = records / f"new-{i}.yaml"  # another person with other days: nothing of it is remembered anywhere
        new.write_text(example.replace("id: anna", f"id: new-{i}").replace("Matrose: 180", f"Matrose: {181 + i}"),
                       encoding="utf-8")
        news.append(timed([str(CREWKG), "check", str(new), "--format", "json", "--as-of", "2026-11-30"], env))
        other = records / f"new-text-{i}.yaml"  # the text a person reads first (the summary, then what concerns them)
        other.write_text(example.replace("id: anna", f"id: text-{i}").replace("Matrose: 180", f"Matrose: {201 + i}"),
                         encoding="utf-8")
        new_texts.append(timed([str(CREWKG), "check", str(other), "--as-of", "2026-11-30"], env))
        checks.append(timed(check, env))
        texts.append(timed(text, env))
        imports.append(timed([sys.executable, "-c", "import rdflib"]))
    cold, cold_text, rdflib_import = statistics.median(checks), statistics.median(texts), statistics.median(imports)
    cold_new, cold_new_text = statistics.median(news), statistics.median(new_texts)

    uncached = []
    for _ in range(3):
        empty = tempfile.mkdtemp(prefix="crewkg-bench-empty-")
        uncached.append(timed(check, dict(os.environ, CREWKG_CACHE=empty)))
        shutil.rmtree(empty, ignore_errors=True)

    os.environ["CREWKG_CACHE"] = cache
    from crewkg.answers.eligibility import check as run_check
    from crewkg.law.statute import load_law
    from crewkg.records.load import load_persons

    law = load_law()
    persons = load_persons(EXAMPLE, law, date(2026, 11, 30))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 3.0:
        run_check(law, persons, date(2026, 11, 30))
        n += 1
    warm = n / (time.perf_counter() - start)
    batch = persons * 100
    start = time.perf_counter()
    run_check(law, [p.__class__(**{**p.__dict__, "id": f"{p.id}-{i}"}) for i, p in enumerate(batch)], date(2026, 11, 30))
    batch_rate = len(batch) / (time.perf_counter() - start)
    shutil.rmtree(cache, ignore_errors=True)

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    label_new = f"first check of a new record, --format json (median of {RUNS})"
    label_new_text = f"first check of a new record, text (median of {RUNS})"
    label_cold = f"cold crewkg check --format json (median of {RUNS})"
    label_text = f"cold crewkg check, text (median of {RUNS})"
    label_rdflib = f"python -c 'import rdflib' (median of {RUNS})"
    print(f"{label_new:<60} {cold_new:8.3f} s")
    print(f"{label_new_text:<60} {cold_new_text:8.3f} s")
    print(f"{label_cold:<60} {cold:8.3f} s")
    print(f"{label_text:<60} {cold_text:8.3f} s")
    print(f"{label_rdflib:<60} {rdflib_import:8.3f} s")
    print(f"{'ratio first check of a new record / rdflib import':<60} {cold_new / rdflib_import:8.2f} x   (target <= 2.5 x)")
    print(f"{'ratio first check of a new record, text / rdflib import':<60} {cold_new_text / rdflib_import:8.2f} x   (target <= 2.5 x)")
    print(f"{'ratio cold check json / rdflib import':<60} {cold / rdflib_import:8.2f} x   (target <= 2.5 x, <= 0.4 s)")
    print(f"{'ratio cold check text / rdflib import':<60} {cold_text / rdflib_import:8.2f} x")
    print(f"{'first check ever (compiles the kb into the cache)':<60} {first:8.3f} s")
    print(f"{'check with an empty cache (median of 3)':<60} {statistics.median(uncached):8.3f} s")
    print(f"{'warm in-process checks, one person per call':<60} {warm:8.1f} /s")
    print(f"{'warm in-process, 100 persons in one batch':<60} {batch_rate:8.1f} persons/s")


if __name__ == "__main__":
    main()
