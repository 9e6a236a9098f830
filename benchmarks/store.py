"""The canned queries (kb/queries/*.rq) on an on-disk Oxigraph store holding N persons (default 100 000), as
`crewkg export REGISTER --store DIR` writes it and `crewkg serve --store DIR` reads it. Prints the p50 and p90 of
each query (RUNS runs each unless --runs; the whole answer serialised as SPARQL JSON results, as `crewkg serve`
sends it) and its rows, the store's size, and the time to re-export one person into the full store (the per-person
update). A query about each person (`# page: ?person`) is measured as `crewkg serve` answers it at
/api/queries/<name>: a page of 50 persons (the first, one in the middle, the last), with the rows it held; its whole
answer, as /sparql gives it, only with --whole (minutes at 100 000 persons). A query answered whole once
(`# answer: whole`) is measured by the time to compute it (once, from serve's start) and by its pages of 50 of the
persons it names, served from that answer as SPARQL JSON results. The summary gives the median and the
slowest of the service's answers (a page where there are pages, else the whole answer). Asserts nothing (speed is never a test).

    python benchmarks/store.py 100000

Evaluating 100 000 persons with the full answers takes most of an hour on two cores, and the queries' speed depends
on what is in the store, not on how it got there: so BASE synthetic persons are evaluated by the product
(`service.loading.put_persons`'s own evaluation), and their records and derived facts are copied under new person
ids until the store holds N persons. The last step re-exports one person through `put_persons` (delete, then
insert). The loaded store is compacted, as `crewkg export` compacts a store it made (a bulk load leaves many table
files, and a served store is only read, so nothing else would merge them)."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import synthetic  # noqa: E402

AS_OF = date(2026, 11, 30)
RUNS = 9


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=100_000)
    ap.add_argument("--base", type=int, default=1000, help="persons evaluated by the product, then copied")
    ap.add_argument("--dir", type=Path, default=None, help="store folder (default: a temporary one, removed); "
                    "a folder that already holds a store is measured as it is, without loading")
    ap.add_argument("--runs", type=int, default=RUNS, help="runs of each query (p50 and p90 over them)")
    ap.add_argument("--whole", action="store_true", help="also the whole answers of the paged queries (/sparql), "
                    "which take minutes at 100 000 persons")
    args = ap.parse_args()
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping
    from crewkg.service.canned import canned_queries
    from crewkg.service.loading import put_persons
    from crewkg.service.paging import PAGE_PERSONS, page, person_ids
    from crewkg.service.stores import open_store_dir

    law = load_law()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="crewkg-store-")) / "store"
    base = [person_from_mapping(r, law, AS_OF, "synthetic") for r in synthetic.persons(args.base, seed=5)]
    if args.dir is not None and (folder / "CURRENT").is_file():
        store = open_store_dir(folder, must_exist=True)
        written, evaluated, loaded = -1, 0.0, 0.0
    else:
        store, written, evaluated, loaded = _load(folder, args.n, base, law)
    quads = len(store)

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f}")
    print(f"store {folder}: {written if written >= 0 else 'as found:'} persons, {quads} quads ({args.base} evaluated in {evaluated:.1f} s, "
          f"loaded in {loaded:.1f} s, {sum(f.stat().st_size for f in folder.iterdir()) / 2**20:.0f} MiB on disk)")
    t = time.perf_counter()
    ids = person_ids(store)
    print(f"{'the person ids, read once by serve':<34} {(time.perf_counter() - t) * 1000:9.1f} ms ({len(ids)} ids)")
    medians, served = [], []
    print("  the whole answer as SPARQL JSON results (/sparql), then rows; a paged query's pages of "
          f"{PAGE_PERSONS} persons (/api/queries/<name>)")
    for q in canned_queries():
        if q.whole:
            served.append(_whole_once(store, q, args.runs))
            continue
        if q.page is None or args.whole:
            p50, p90 = _timed(store, q.text, args.runs)
            medians.append(p50)
            rows = len(store.select(q.text).rows)
            print(f"  {q.name:<32} p50 {p50 * 1000:9.1f} ms   p90 {p90 * 1000:9.1f} ms   {rows:8} rows")
        else:
            print(f"  {q.name:<32} (paged; its whole answer with --whole)")
        if q.page is None:
            served.append(p50)
            continue
        slowest = 0.0
        for where, after in (("first", None), ("middle", ids[len(ids) // 2]), ("last", ids[-PAGE_PERSONS - 1])):
            text = page(q, ids, after, PAGE_PERSONS).text
            p50, p90 = _timed(store, text, args.runs)
            slowest = max(slowest, p50)
            print(f"    {where + ' page':<30} p50 {p50 * 1000:9.1f} ms   p90 {p90 * 1000:9.1f} ms   "
                  f"{len(store.select(text).rows):8} rows")
        served.append(slowest)
    if args.whole:
        print(f"{'median of the whole answers p50':<34} {statistics.median(medians) * 1000:9.1f} ms")
        print(f"{'slowest whole answer p50':<34} {max(medians) * 1000:9.1f} ms")
    print(f"{'median of the service answers p50':<34} {statistics.median(served) * 1000:9.1f} ms   (target p50 <= 50 ms; "
          "a page where the query is paged)")
    print(f"{'slowest service answer p50':<34} {max(served) * 1000:9.1f} ms")

    one = base[0]
    one.sailing_days = {**one.sailing_days, "Matrose": one.sailing_days.get("Matrose", 0) + 1}
    t = time.perf_counter()
    put_persons(store, law, [one], AS_OF, replace=True)
    store.flush()
    print(f"{'re-export one person into the store':<34} {(time.perf_counter() - t) * 1000:9.1f} ms (no rebuild)")
    t = time.perf_counter()
    kept = put_persons(store, law, base, AS_OF, replace=True, keep_unchanged=True)
    store.flush()
    print(f"{f're-export {len(base)} persons, none changed':<34} {(time.perf_counter() - t) * 1000:9.1f} ms "
          f"({kept} kept: their inputs' digest is unchanged)")
    if args.dir is None:
        del store
        shutil.rmtree(folder.parent, ignore_errors=True)


def _whole_once(store, q, runs: int) -> float:
    """The time to compute a whole answer once, and the p50 of its pages (first, middle, last) as the service gives
    them; returns the slowest page's p50."""
    from crewkg.service.paging import PAGE_PERSONS, Answers
    from crewkg.service.results import serialize_table

    answers = Answers(store)
    t = time.perf_counter()
    ids = answers.persons(q)
    once = time.perf_counter() - t
    print(f"  {q.name:<32} computed once {once * 1000:9.1f} ms   {len(ids):8} persons (answered whole, from serve's start)")
    slowest = 0.0
    for where, after in (("first", None), ("middle", ids[len(ids) // 2] if ids else None),
                         ("last", ids[-PAGE_PERSONS - 1] if len(ids) > PAGE_PERSONS else None)):
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            rows = answers.page(q, after, PAGE_PERSONS, None)
            serialize_table(rows.table, "application/sparql-results+json")
            times.append(time.perf_counter() - t)
        p50, p90 = statistics.median(times), sorted(times)[int(0.9 * (runs - 1))]
        slowest = max(slowest, p50)
        print(f"    {where + ' page':<30} p50 {p50 * 1000:9.1f} ms   p90 {p90 * 1000:9.1f} ms   {len(rows.table.rows):8} rows")
    return slowest


def _timed(store, text: str, runs: int) -> tuple[float, float]:
    """p50 and p90 of `runs` runs of a query, the answer serialised as the service sends it."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        store.serialize(text, "application/sparql-results+json")
        times.append(time.perf_counter() - t)
    return statistics.median(times), sorted(times)[int(0.9 * (runs - 1))]


def _load(folder: Path, n: int, base: list, law):
    """Evaluate the base persons and copy their records and derived facts until the store holds n persons."""
    from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH
    from crewkg.service.derived import evaluate
    from crewkg.service.stores import open_store_dir

    start = time.perf_counter()
    chunks = []
    triples = [t for i in range(0, len(base), 200) for t in evaluate(law, base[i:i + 200], AS_OF)]
    for p, record, derived in triples:
        text = "".join(f"{s.n3()} {q.n3()} {o.n3()} {RECORDS_GRAPH.n3()} .\n" for s, q, o in record)
        text += "".join(f"{s.n3()} {q.n3()} {o.n3()} {DERIVED_GRAPH.n3()} .\n" for s, q, o in derived)
        chunks.append((p.id, text))
    evaluated = time.perf_counter() - start

    store = open_store_dir(folder, must_exist=False)
    ox = store._ox
    start = time.perf_counter()
    copies = -(-n // len(base))
    written = 0
    for r in range(copies):
        part = []
        for pid, text in chunks:
            if written >= n:
                break
            part.append(text if r == 0 else text.replace(pid, f"c{r:03d}{pid}").replace("_:", f"_:c{r}x"))
            written += 1
        if part:
            store.store.bulk_load("".join(part).encode("utf-8"), format=ox.RdfFormat.N_QUADS)
    store.flush()
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    store.compact()  # as `crewkg export` compacts a new store
    print(f"loaded in {loaded:.1f} s, compacted in {time.perf_counter() - start:.1f} s", flush=True)
    return store, written, evaluated, loaded


if __name__ == "__main__":
    main()
