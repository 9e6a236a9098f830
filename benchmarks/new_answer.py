"""A new answer's CPU, as an evaluator worker of the service spends it (issue 44): synthetic records
(benchmarks/synthetic.py, the uncached mix's own: ids from 200 000) read as `POST /api/eligibility` reads a body,
then evaluated in batches exactly as `service/evaluator.py` hands them to a worker (`_texts`: the eligibility
check, the summary, the JSON text), with the collector held as in a worker. Prints CPU ms a record and the answer's
JSON size; `--profile` prints cProfile's top functions by cumulative and by own time. Asserts nothing — speed is
never a test.

    python benchmarks/new_answer.py [--records 200] [--batch 8] [--lang de] [--as-of 2026-11-30] [--seed 1]
                                    [--profile] [--dump DIR]

`--dump DIR` writes every answer's JSON text (one file a record), so that two builds can be compared answer by
answer (`diff -r`)."""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import gc
import os
import pstats
import random
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import person  # noqa: E402

AS_OF = date(2026, 11, 30)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=200)
    ap.add_argument("--batch", type=int, default=8, help="records a worker evaluates at once (the service: up to 16)")
    ap.add_argument("--lang", default="de")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--as-of", type=date.fromisoformat, default=AS_OF, help="the evaluation date (records as of 2026-11-30)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--dump", type=Path, default=None)
    args = ap.parse_args()

    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping
    from crewkg.service.evaluator import _texts

    try:  # as an evaluator worker does (`service.evaluator._start_worker`), where the build has it
        from crewkg.rules.eligibility import pathways_apart
    except ImportError:
        pathways_apart = None
    if pathways_apart is not None:
        pathways_apart()
    try:
        from crewkg.answers.eligibility import planning_in_check
    except ImportError:
        planning_in_check = None
    if planning_in_check is not None:
        planning_in_check()

    law = load_law()
    rng = random.Random(args.seed)
    records = [person(200_000 + i, rng) for i in range(args.records)]
    persons = [person_from_mapping(r, law, args.as_of, "request body") for r in records]
    # the worker's warm-up: the program loaded and the kb asserted before the first batch
    _texts(law, [person_from_mapping({"id": "warm", "birth_date": "2000-01-01"}, law, args.as_of, "warm")], ["warm"],
           args.as_of, args.lang)
    gc.freeze()
    gc.disable()
    from crewkg.workers import collect_now

    batches = [persons[i:i + args.batch] for i in range(0, len(persons), args.batch)]
    texts: list[bytes] = []
    prof = cProfile.Profile() if args.profile else None
    cpu, wall = time.process_time(), time.perf_counter()
    if prof:
        prof.enable()
    for batch in batches:
        renamed = [dataclasses.replace(p, id=f"{p.id}\u241f{i}") for i, p in enumerate(batch)]
        texts += _texts(law, renamed, [p.id for p in batch], args.as_of, args.lang)
        collect_now()
    if prof:
        prof.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    size = sum(len(t) for t in texts) / len(texts)
    print(f"{len(persons)} records in batches of {args.batch} ({args.lang}): {1000 * cpu / len(persons):.1f} ms CPU "
          f"a record ({1000 * wall / len(persons):.1f} ms wall), answer JSON {size / 1000:.1f} KB on average; "
          f"load average {os.getloadavg()[0]:.2f}")
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for p, t in zip(persons, texts, strict=True):
            (args.dump / f"{p.id}.json").write_bytes(t)
    if prof:
        stats = pstats.Stats(prof)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
