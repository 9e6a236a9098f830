"""The service under load when the answers are new (issue 44). Prints figures; asserts nothing — speed is never a test.

`crewkg export` writes 200 synthetic persons (benchmarks/synthetic.py) into an on-disk Oxigraph store, `crewkg
serve --store DIR` serves it, and a load generator of its own (asyncio, raw HTTP/1.1 on keep-alive connections: a
few lines, and far lighter than an HTTP library, so that on two cores the client leaves the server most of the
machine) sends three mixes over 50 connections, one after the other:

1. **first** — every other request a canned SPARQL query (GET /sparql, SPARQL JSON), a third POST /api/eligibility
   with one of 200 new records (each asked about five times), a sixth GET /api/queries: the first round, when the
   records are new to the service;
2. **warm** — the same requests again: every answer is in the service's caches;
3. **uncached** — the mix of 1, but every /api/eligibility body is a record the service has never seen.

Meanwhile a probe asks GET /health every 50 ms on a connection of its own. Each mix prints requests/s, p50, p99 and
max latency, errors (any status but 200) and the /health probe's p50/p99/max, also per kind of request, and the
server's own figures from its request log (request in to answer out). The machine's load average is printed
before and after each mix: the figures mean little on a machine that other work shares.

    python benchmarks/service_load.py [--connections 50] [--requests 3000] [--uncached-requests 1500] [--persons 200]

Targets (issue 44, on two cores at 50 connections): uncached p99 <= 1 s with 0 errors; warm >= 400 req/s and
p99 <= 250 ms; /health p99 <= 50 ms throughout."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sparql_service import free_port, pct, rss_mb  # noqa: E402
from synthetic import person  # noqa: E402

AS_OF = "2026-11-30"


# ------------------------------------------------------------------------------------------------------
# A raw HTTP/1.1 client: one keep-alive connection, one request at a time
# ------------------------------------------------------------------------------------------------------
class Connection:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            head.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b""))
        assert self.reader is not None
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length, chunked, closing = 0, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                closing = True
        data = await self._chunked() if chunked else await self.reader.readexactly(length)
        if closing:
            self.close()
        return status, data

    async def _chunked(self) -> bytes:
        assert self.reader is not None
        out = bytearray()
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return bytes(out)
            out += await self.reader.readexactly(size)
            await self.reader.readline()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# ------------------------------------------------------------------------------------------------------
# The mixes
# ------------------------------------------------------------------------------------------------------
def plan(queries: list[str], records: list[dict], requests: int) -> list[tuple[str, str, str, bytes | None, dict]]:
    """(kind, method, path, body, headers) per request: 1/2 canned SPARQL, 1/3 eligibility, 1/6 the query list."""
    out = []
    json_headers = {"Content-Type": "application/json"}
    for i in range(requests):
        if i % 2 == 0:
            path = "/sparql?" + urlencode({"query": queries[(i // 2) % len(queries)]})
            out.append(("sparql", "GET", path, None, {"Accept": "application/sparql-results+json"}))
        elif i % 6 == 3:
            out.append(("queries", "GET", "/api/queries", None, {}))
        else:
            record = records[(i // 3) % len(records)]
            out.append(("eligibility", "POST", f"/api/eligibility?as_of={AS_OF}", json.dumps(record).encode(), json_headers))
    return out


async def drive(port: int, requests: list, connections: int) -> dict:
    """Send the requests over `connections` connections (each takes the next request when its answer came), and
    probe /health every 50 ms on a connection of its own until they are done."""
    todo = iter(requests)
    lat: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    health: list[float] = []
    done = asyncio.Event()

    async def worker() -> None:
        conn = Connection("127.0.0.1", port)
        for kind, method, path, body, headers in todo:
            t0 = time.perf_counter()
            try:
                status, _ = await conn.request(method, path, body, headers)
                key = None if status == 200 else f"{kind} HTTP {status}"
            except (OSError, ConnectionError, asyncio.IncompleteReadError) as exc:
                conn.close()
                key = f"{kind} {type(exc).__name__}"
            lat.setdefault(kind, []).append(time.perf_counter() - t0)
            if key:
                errors[key] = errors.get(key, 0) + 1
        conn.close()

    async def probe() -> None:
        conn = Connection("127.0.0.1", port)
        while not done.is_set():
            t0 = time.perf_counter()
            status, _ = await conn.request("GET", "/health")
            health.append(time.perf_counter() - t0)
            if status != 200:
                errors[f"health HTTP {status}"] = errors.get(f"health HTTP {status}", 0) + 1
            try:
                await asyncio.wait_for(done.wait(), 0.05)
            except TimeoutError:
                pass
        conn.close()

    prober = asyncio.create_task(probe())
    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    elapsed = time.perf_counter() - t0
    done.set()
    await prober
    return {"lat": lat, "errors": errors, "elapsed": elapsed, "health": health}


# ------------------------------------------------------------------------------------------------------
# The store and the server
# ------------------------------------------------------------------------------------------------------
def crewkg(*args: str, env: dict) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", *args]
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)


def serve(store: Path, env: dict, log: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", "serve", "--port", str(port), "--store", str(store),
           "--as-of", AS_OF]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)

    async def healthy() -> None:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"crewkg serve exited: {log.read_text()[-2000:]}")
            try:
                status, _ = await Connection("127.0.0.1", port).request("GET", "/health")
                if status == 200:
                    return
            except OSError:
                await asyncio.sleep(0.2)

    asyncio.run(healthy())
    return proc, port


def _tree(pid: int) -> list[int]:
    """The process and every process it forked (evaluation and query workers), as /proc lists them now."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            children.setdefault(int(stat.read_text().rsplit(")", 1)[1].split()[1]), []).append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of the server and its workers, the ended ones included (reaped children count
    in their parent's cutime/cstime; a killed query worker of the zygote is not counted)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / tick
    return total


def descendants_rss(pid: int) -> float:
    """MB resident in the server and every process it forked (evaluation and query workers)."""
    total = 0.0
    for p in _tree(pid):
        mb = rss_mb(p)
        total += mb if mb == mb else 0.0  # NaN: the process ended meanwhile
    return total


def server_ms(log: Path) -> list[float]:
    """The seconds of every request but /health in the server's request log ("… GET /path 200 12.3 ms")."""
    out = []
    for line in log.read_text(errors="replace").splitlines():
        parts = line.split()
        if "crewkg.server" in parts and parts[-1] == "ms" and "/health" not in parts:
            try:
                out.append(float(parts[-2]) / 1000)
            except ValueError:
                pass
    return out


def ms(x: float) -> str:
    return "     —" if x != x else f"{x * 1000:6.0f}"


def report(name: str, res: dict, inside: list[float]) -> None:
    every = [x for v in res["lat"].values() for x in v]
    errors = sum(res["errors"].values())
    print(f"{name:>9}: {len(every) / res['elapsed']:6.1f} req/s  p50 {ms(pct(every, 50))} ms  p99 {ms(pct(every, 99))} ms  "
          f"max {ms(max(every))} ms  {errors} errors {res['errors'] or ''}")
    for kind, lat in sorted(res["lat"].items()):
        print(f"{'':>11}{kind:<12} n {len(lat):5}  p50 {ms(pct(lat, 50))} ms  p99 {ms(pct(lat, 99))} ms  max {ms(max(lat))} ms")
    h = res["health"]
    print(f"{'':>11}{'/health':<12} n {len(h):5}  p50 {ms(pct(h, 50))} ms  p99 {ms(pct(h, 99))} ms  max {ms(max(h, default=float('nan')))} ms")
    print(f"{'':>11}in the server (its request log): p50 {ms(pct(inside, 50))} ms  p99 {ms(pct(inside, 99))} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--requests", type=int, default=3000, help="requests of the first and the warm mix")
    ap.add_argument("--uncached-requests", type=int, default=1500, help="requests of the uncached mix")
    ap.add_argument("--persons", type=int, default=200, help="persons in the served store, and records of the first mix")
    ap.add_argument("--keep", type=Path, help="keep the store in this folder and reuse it when it exists")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="crewkg-bench-load-"))
    env = dict(os.environ, CREWKG_CACHE=str(tmp / "cache"))
    proc = None
    try:
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}")
        rng = random.Random(44)
        store = args.keep or tmp / "store"
        if not (store / "CURRENT").is_file():
            register = tmp / "register.jsonl"
            register.write_text("".join(json.dumps(person(i, rng)) + "\n" for i in range(args.persons)))
            t0 = time.perf_counter()
            crewkg("export", str(register), "--store", str(store), "--as-of", AS_OF, env=env)
            print(f"store: {args.persons} synthetic persons exported in {time.perf_counter() - t0:.1f} s")
        first = [person(100_000 + i, rng) for i in range(args.persons)]
        new = [person(200_000 + i, rng) for i in range(args.uncached_requests // 3 + 1)]
        log = tmp / "serve.log"
        proc, port = serve(store, env, log)
        print(f"server: RSS {descendants_rss(proc.pid):,.0f} MB with its workers")
        from crewkg.service.canned import canned_queries

        queries = [q.text for q in canned_queries() if q.name != "rosters-failing" and q.page is None]
        print(f"{args.connections} connections; 1/2 canned SPARQL over {len(queries)} queries, 1/3 POST /api/eligibility, "
              f"1/6 GET /api/queries; /health every 50 ms on a connection of its own")
        mixes = [("first", plan(queries, first, args.requests)), ("warm", plan(queries, first, args.requests)),
                 ("uncached", plan(queries, new, args.uncached_requests))]
        seen = len(server_ms(log))
        for name, requests in mixes:
            before, cpu, mine = os.getloadavg()[0], cpu_seconds(proc.pid), time.process_time()
            res = asyncio.run(drive(port, requests, args.connections))
            cpu, mine = cpu_seconds(proc.pid) - cpu, time.process_time() - mine
            inside = server_ms(log)[seen:]
            seen += len(inside)
            report(name, res, inside)
            n = sum(len(v) for v in res["lat"].values())
            print(f"{'':>11}CPU: server and workers {cpu:.1f} s ({cpu / res['elapsed']:.2f} cores, "
                  f"{cpu / n * 1000:.1f} ms a request), this client {mine:.1f} s; load average {before:.1f} -> "
                  f"{os.getloadavg()[0]:.1f}; RSS with the workers {descendants_rss(proc.pid):,.0f} MB")
        print("(targets: uncached p99 <= 1000 ms, 0 errors; warm >= 400 req/s, p99 <= 250 ms; /health p99 <= 50 ms)")
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
