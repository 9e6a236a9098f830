"""`crewkg diff REGISTER --from D1 --to D2` against the register answer it is built from (`crewkg check REGISTER
--format jsonl`) on the same N synthetic persons (benchmarks/synthetic.py, dated logs included): wall time, persons
per second and the ratio diff / register. A diff answers the register on two days, so about 2 × is "as fast per
person as a register answer" (issue 45). Prints figures; asserts nothing (speed is never a test).

    python benchmarks/diff.py 5000 --workers 2
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from synthetic import persons  # noqa: E402  (the benchmarks' own synthetic register)


def _timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crewkg", *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=5000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--from", dest="start", default="2026-11-30")
    parser.add_argument("--to", dest="end", default="2027-11-30")
    a = parser.parse_args()
    import json

    with tempfile.TemporaryDirectory() as tmp:
        register = Path(tmp) / "register.jsonl"
        register.write_text("".join(json.dumps(p, separators=(",", ":")) + "\n" for p in persons(a.n)), encoding="utf-8")
        out = Path(tmp) / "out.jsonl"
        common = ["--format", "jsonl", "--workers", str(a.workers), "--lang", "en"]
        _timed(["check", str(register), "--as-of", a.start, *common, "--out", str(out)])  # the kb cache warmed
        check = _timed(["check", str(register), "--as-of", a.start, *common, "--out", str(out)])
        diff = _timed(["diff", str(register), "--from", a.start, "--to", a.end, *common])
    load = os.getloadavg()[0]
    print(f"{a.n} synthetic persons, {a.workers} workers, load average {load:.1f}")
    print(f"  crewkg check --format jsonl (one day):   {check:6.1f} s  {a.n / check:7.0f} persons/s")
    print(f"  crewkg diff --from {a.start} --to {a.end}: {diff:6.1f} s  {a.n / diff:7.0f} persons/s")
    print(f"  ratio diff / register: {diff / check:.2f} (two days asked: 2.00 is the register's pace per day)")


if __name__ == "__main__":
    main()
