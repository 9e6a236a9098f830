"""The register's store at N persons (default 100 000), built and asked in one run (issue 46):

1. a synthetic register of N persons (benchmarks/synthetic.py, seed 1) is exported into a new on-disk store by the
   product, `crewkg export REGISTER --store DIR` (the compact derivation graph, two workers): its wall time, the CPU
   time of the command and its workers, the quads and the size on disk;
2. `crewkg serve --store DIR` is started; the first answer of each canned query at /api/queries/<name> after the
   start is the cold figure (a query paged by persons: its first page of 50 persons; one answered whole: its first
   page, from what the export kept; one not paged: its whole answer, kept), then RUNS answers of each (a paged one:
   the first, a middle and the last page) give the warm p50 and p90, as SPARQL JSON results;
3. `crewkg sparql NAME --store DIR --format json` (a query paged by persons with `--persons 50`: its first page, as
   the service gives it) RUNS times, a new process each time, gives the CLI's p50 with Python's and crewkg's start;
   the same command run in this process (typer's test runner: the imports done, the store opened read-only and the
   kept answers read each time, as a new process does) gives the command's own p50.

Also, in this process, the store's own time for each query (a page, or the whole answer) as CPU seconds: on a shared
machine the wall times say how busy the others were. Asserts nothing (speed is never a test).

    python benchmarks/store.py 100000 [--dir DIR] [--runs 9] [--workers 2] [--lock /tmp/crewkg-bench.lock]

With --dir naming a folder that already holds a store, steps 2 and 3 are measured on it without building. With
--lock, the build and the measurements each hold that lock (flock) while they run, released between the two, so that
no other benchmark runs beside either and none holds the lock for long; the load average is printed as each starts."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import synthetic  # noqa: E402

AS_OF = "2026-11-30"
RUNS = 9
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
CREWKG = [sys.executable, "-m", "crewkg"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=100_000)
    ap.add_argument("--dir", type=Path, default=None, help="the store folder (default: a temporary one, removed)")
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lock", type=Path, default=None, help="a lock file held (flock) by the build and the measurements")
    args = ap.parse_args()
    temporary = args.dir is None
    folder = args.dir or Path(tempfile.mkdtemp(prefix="crewkg-store-")) / "store"
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f}",
          flush=True)
    try:
        if not (folder / "CURRENT").is_file():
            with _held(args.lock, "build"):
                build(args.n, folder, args.workers)
        size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
        print(f"store {folder}: {size / 2**30:.2f} GiB on disk ({size / 2**20:.0f} MiB)", flush=True)
        with _held(args.lock, "measurements"):
            store_times(folder, args.runs)
            service = serve(folder, args.runs)
            cli = cli_times(folder, args.runs)
            own = cli_own_times(folder, args.runs)
        print("\n  query                            cold service   warm p50   warm p90   CLI p50 (process; command)")
        for name, (cold, p50, p90, rows) in service.items():
            print(f"  {name:<32} {cold * 1000:9.1f} ms {p50 * 1000:7.1f} ms {p90 * 1000:7.1f} ms "
                  f"{cli[name] * 1000:8.0f} ms; {own[name] * 1000:6.1f} ms   {rows}", flush=True)
        print(f"  slowest warm p50 {max(v[1] for v in service.values()) * 1000:.1f} ms; slowest cold "
              f"{max(v[0] for v in service.values()) * 1000:.1f} ms; slowest CLI command "
              f"{max(own.values()) * 1000:.1f} ms; load average now {os.getloadavg()[0]:.2f}")
    finally:
        if temporary:
            shutil.rmtree(folder.parent, ignore_errors=True)


@contextlib.contextmanager
def _held(lock: Path | None, what: str):
    """The shared benchmark lock held for one phase (nothing without --lock)."""
    if lock is None:
        yield
        return
    with lock.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {what}: lock held; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(n: int, folder: Path, workers: int) -> None:
    """The register written, then exported into a new store by the product; wall and CPU time, quads."""
    register = folder.parent / f"register-{n}.jsonl"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with register.open("w", encoding="utf-8") as f:
        for record in synthetic.persons(n, seed=1):
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
    cmd = [*CREWKG, "export", str(register), "--store", str(folder), "--as-of", AS_OF, "--workers", str(workers)]
    load = os.getloadavg()[0]
    errors = folder.parent / "export.stderr"
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors.open("w"), env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    said = errors.read_text(encoding="utf-8").strip()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"export failed: {said}")
    print(f"built {n} persons in {wall:.0f} s wall ({wall / 60:.1f} min; load average {load:.2f} before), "
          f"{usage.ru_utime + usage.ru_stime:.0f} s CPU of the command and its workers; {said.splitlines()[-1]}",
          flush=True)
    register.unlink()


def store_times(folder: Path, runs: int) -> None:
    """In this process: the store's CPU time for each query as the service asks it (a page of 50 persons, or the whole
    answer) — what a query costs the store, whatever else the machine runs."""
    from crewkg.service.canned import canned_queries
    from crewkg.service.kept import kept
    from crewkg.service.paging import PAGE_PERSONS, page
    from crewkg.service.stores import open_store_dir

    store = open_store_dir(folder, must_exist=True, read_only=True)
    ready = kept(store)
    ids = ready.person_ids if ready else []
    print("  the store's own CPU time (this process), p50 of the runs:")
    for q in canned_queries():
        texts = [page(q, ids, after, PAGE_PERSONS).text for after in (None, ids[len(ids) // 2], ids[-PAGE_PERSONS - 1])] \
            if q.page and not q.whole and ids else [q.text]
        times = []
        for text in texts:
            for _ in range(max(1, runs // len(texts))):
                c = time.process_time()
                store.serialize(text, "application/sparql-results+json")
                times.append(time.process_time() - c)
        what = "a page of 50 persons" if len(texts) > 1 else ("whole: the export computes it once and keeps it"
                                                              if q.whole or q.page is None else "whole")
        print(f"    {q.name:<32} {statistics.median(times) * 1000:9.1f} ms CPU  ({what})", flush=True)
    del store


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[float, bytes]:
    t = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"}),
                                timeout=600) as r:
        body = r.read()
    return time.perf_counter() - t, body


def serve(folder: Path, runs: int) -> dict[str, tuple[float, float, float, int]]:
    """Cold (the first answer after the start) and warm (p50, p90) answers of the service, and the rows."""
    from crewkg.service.canned import canned_queries

    port = _free_port()
    start = time.perf_counter()
    proc = subprocess.Popen([*CREWKG, "serve", "--store", str(folder), "--port", str(port)], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=5).read()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - start > 600:
                    raise SystemExit("crewkg serve did not start") from None
                time.sleep(0.2)
        print(f"  crewkg serve answered /health {time.perf_counter() - start:.1f} s after it was started", flush=True)
        out = {}
        queries = canned_queries()
        for q in queries:
            cold, body = _get(f"{base}/api/queries/{q.name}")
            out[q.name] = [cold, 0.0, 0.0, len(json.loads(body)["results"]["bindings"])]
        for q in queries:
            urls = [f"{base}/api/queries/{q.name}"]
            if q.page:  # also one in the middle and the last page of the persons it pages by
                ids = _paged_by(folder, q)
                if len(ids) > 51:
                    urls += [f"{base}/api/queries/{q.name}?{urllib.parse.urlencode({'after': after})}"
                             for after in (ids[len(ids) // 2], ids[-51])]
            times = [_get(urls[i % len(urls)])[0] for i in range(runs)]
            out[q.name][1:3] = [statistics.median(times), sorted(times)[int(0.9 * (len(times) - 1))]]
        return {k: tuple(v) for k, v in out.items()}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _paged_by(folder: Path, q) -> list[str]:
    """The ids the service pages a query by: the store's persons, or those its kept whole answer names."""
    from crewkg.service.kept import kept
    from crewkg.service.stores import open_store_dir

    store = open_store_dir(folder, must_exist=True, read_only=True)
    try:
        ready = kept(store)
        if ready is None:
            return []
        if not q.whole:
            return ready.person_ids
        table = ready.answers[q.name]
        column = table.vars.index(q.page.lstrip("?"))
        return list(dict.fromkeys(str(row[column]) for row in table.rows))
    finally:
        del store


def cli_times(folder: Path, runs: int) -> dict[str, float]:
    """`crewkg sparql NAME --store DIR --format json`: p50 of the wall time of a new process each time."""
    from crewkg.service.canned import canned_queries

    out = {}
    for q in canned_queries():
        times = []
        for _ in range(max(3, runs // 3)):
            t = time.perf_counter()
            subprocess.run([*CREWKG, "sparql", q.name, "--store", str(folder), "--format", "json", *_page(q)], env=ENV,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t)
        out[q.name] = statistics.median(times)
    return out


def _page(q) -> list[str]:
    """A query paged by persons: its first page of 50, as /api/queries/NAME gives it."""
    return ["--persons", "50"] if q.page else []


def cli_own_times(folder: Path, runs: int) -> dict[str, float]:
    """The same command in this process (typer's test runner): p50 of the command's own time, Python and the
    imports already started; each run opens the store read-only and reads its kept answers, as a process does."""
    from typer.testing import CliRunner

    from crewkg.cli import app
    from crewkg.service.canned import canned_queries

    runner, out = CliRunner(), {}
    for q in canned_queries():
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            r = runner.invoke(app, ["sparql", q.name, "--store", str(folder), "--format", "json", *_page(q)])
            times.append(time.perf_counter() - t)
            if r.exit_code != 0:
                raise SystemExit(f"crewkg sparql {q.name} failed: {r.output}")
        out[q.name] = statistics.median(times)
    return out


if __name__ == "__main__":
    main()
