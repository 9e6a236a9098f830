"""`crewkg export` of a synthetic register end to end (issue 46): the compact derivation graph by default, as
N-Triples into a file. Prints wall time, persons per second, triples per person, bytes per person, and peak memory —
the largest sum of the resident memory of the command and all its worker processes, sampled every 50 ms (forked
workers share the pages of the law with the command, so the sum counts those more than once: an upper bound), and
the proportional set size (each shared page divided among its processes) at the same moment. Asserts nothing (speed
is never a test).

    python benchmarks/export.py 300 3000 [--derivations full] [--format nt|nq|turtle] [--workers 2] [--store]

Each size is a register of benchmarks/synthetic.py (seed 1: the register of the issue's figures), written to a
temporary folder; `--store` exports into a new on-disk store instead of a file and prints its size on disk. CPU s is the user and
system time of the command and its workers (the kernel's account of the reaped processes): on a shared machine the
wall time says how busy the others were, and persons per CPU second times the cores is what the command would do
alone."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import synthetic  # noqa: E402

CREWKG = [sys.executable, "-m", "crewkg"]


def run(n: int, folder: Path, args) -> dict:
    register = folder / f"register-{n}.jsonl"
    with register.open("w", encoding="utf-8") as f:
        for record in synthetic.persons(n, seed=1):
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
    out = folder / (f"store-{n}" if args.store else f"export-{n}.{args.format}")
    cmd = [*CREWKG, "export", str(register), "--as-of", "2026-11-30", "--derivations", args.derivations,
           "--workers", str(args.workers)]
    cmd += ["--store", str(out)] if args.store else ["--out", str(out)]
    load = os.getloadavg()[0]
    errors = folder / "stderr.txt"
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors.open("w"),
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    peak = {"rss": 0, "pss": 0}
    stop = threading.Event()

    def sample() -> None:
        root = psutil.Process(proc.pid)
        while not stop.wait(0.05):
            try:
                procs = [root, *root.children(recursive=True)]
                rss = pss = 0
                for p in procs:
                    try:
                        info = p.memory_full_info()
                        rss, pss = rss + info.rss, pss + info.pss
                    except psutil.Error:
                        continue
                if rss > peak["rss"]:
                    peak.update(rss=rss, pss=pss)
            except psutil.Error:
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)  # the command's and its reaped workers' CPU time
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    stop.set()
    sampler.join()
    err = errors.read_text(encoding="utf-8")
    if proc.returncode != 0:
        raise SystemExit(f"export failed ({proc.returncode}): {err}")
    if args.store:
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        triples = int(err.rsplit("now ", 1)[1].split()[0])
    else:
        size = out.stat().st_size
        triples = sum(1 for line in out.open(encoding="utf-8") if line.strip() and not line.startswith("#")) \
            if args.format in ("nt", "nq") else int(err.rsplit(", ", 1)[1].split()[0])
    return {"n": n, "wall": wall, "rate": n / wall, "triples": triples / n, "bytes": size / n, "cpu": cpu,
            "rss": peak["rss"] / 2**20, "pss": peak["pss"] / 2**20, "load": load}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sizes", type=int, nargs="*", default=[300, 3000])
    ap.add_argument("--derivations", default="compact", choices=["compact", "full"])
    ap.add_argument("--format", default="nt", choices=["nt", "nq", "turtle"])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--store", action="store_true", help="into a new on-disk store instead of a file")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="crewkg-export-"))
    try:
        print(f"machine: {os.cpu_count()} cores; {args.derivations}, {'store' if args.store else args.format}, "
              f"{args.workers} workers")
        print(f"{'persons':>8} {'wall s':>8} {'persons/s':>10} {'CPU s':>7} {'persons/CPU s':>14} {'triples/p':>10} "
              f"{'bytes/p':>9} {'peak RSS sum':>13} {'PSS then':>9} {'load':>5}")
        for n in args.sizes:
            r = run(n, folder, args)
            print(f"{r['n']:>8} {r['wall']:>8.1f} {r['rate']:>10.1f} {r['cpu']:>7.1f} {r['n'] / r['cpu']:>14.1f} "
                  f"{r['triples']:>10.1f} {r['bytes']:>9.0f} {r['rss']:>10.0f} MiB {r['pss']:>5.0f} MiB {r['load']:>5.2f}",
                  flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
