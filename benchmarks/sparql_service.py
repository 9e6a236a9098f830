"""The service under load, side by side in one run (prints figures; asserts nothing — speed is never a test):

1. a generated register of N persons (default 10,000) is evaluated once (Datalog, in worker processes) and
   written as N-Triples: records + derived facts with provenance;
2. `crewkg serve --graph register.nt` is started for the memory store and for the oxigraph store, and every
   canned query of kb/queries is sent through /sparql (loopback HTTP, SPARQL JSON); p50/p95 per query and store;
3. the eligibility API (POST /api/eligibility) is driven by 50 concurrent clients for a fixed time, counting
   requests per second and errors.

With `--mixed`, instead: `crewkg serve` on the example persons, vessel and roster (or on a generated register with
`--mixed-persons N`), on each store, takes a mixed load from 50 concurrent clients — every other request a canned
SPARQL query (GET /sparql, JSON results), the others the JSON API (POST /api/eligibility with one of 200 records,
GET /api/persons/ID, GET /api/queries) — a few thousand requests, repeated `--rounds` times; it prints requests/s,
p50, p99, errors (any status but 200: a 503 counts) and the server's resident memory before and after each round.

Bounded: every query has a per-store budget of runs and seconds, and the memory store's server a query timeout
(a query that exceeds it is reported as a timeout, not waited for). Everything binds to 127.0.0.1.

    python benchmarks/sparql_service.py [--persons 10000] [--clients 50] [--seconds 20]
    python benchmarks/sparql_service.py --mixed [--requests 3000] [--rounds 3] [--clients 50] [--mixed-persons N]
    python benchmarks/sparql_service.py --mixed --client-node     # also from autocannon (cd benchmarks/load_node && npm ci)

Each mixed round also prints the server's own figures from its request log: one Python process driving 50
connections queues requests itself on a 2-core machine, so its p99 is mostly the client's; `--client-node` sends the
same plan from autocannon (Node), whose figures are the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path

import httpx

AS_OF = date(2026, 11, 30)


# ------------------------------------------------------------------------------------------------------
# A register of generated persons
# ------------------------------------------------------------------------------------------------------
def generate_record(i: int, rng: random.Random, roles: list[str], cert_by_role: dict[str, str], exams: list[str]) -> dict:
    """A plausible crew member: a career level, days in the roles up to it, the certificates of the roles below."""
    level = rng.choices(range(len(roles)), weights=[10, 6, 12, 3, 8, 6, 4][: len(roles)])[0]
    age = rng.randint(15, 64)
    born = AS_OF - timedelta(days=age * 365 + rng.randint(0, 364))
    r: dict = {"id": f"p{i:05d}", "birth_date": born.isoformat()}
    m = rng.random()
    if m < 0.8:
        r["medical_fitness"] = True
    elif m < 0.95:
        r["medical_fitness"] = {"valid_until": (AS_OF + timedelta(days=rng.randint(-400, 700))).isoformat()}
    if rng.random() < 0.45:
        r["radio_certificate"] = True
    if rng.random() < 0.6:
        r["basic_safety_training"] = True
    if age < 20 and rng.random() < 0.5:
        r["apprenticeship"] = {"contract": True, "year": rng.randint(1, 3)}
    days = {roles[k]: rng.randint(20, 500) for k in range(level + 1) if rng.random() < 0.85}
    if days:
        r["sailing_days"] = days
    if rng.random() < 0.12:
        r["sea_days"] = {"deck_crew": rng.randint(50, 800)}
        if rng.random() < 0.3:
            r["sea_days"]["master"] = rng.randint(50, 800)
    if rng.random() < 0.3:
        r["professional_experience_years"] = rng.randint(0, 20)
    if rng.random() < 0.2:
        r["vocational_training_years"] = rng.choice([1, 2, 3, 4])
    if rng.random() < 0.15:
        within = rng.randint(0, 400)
        r["programmes"] = [{"for": rng.choice(roles), "months": rng.choice([9, 18, 24, 36]), "sailing_days": within,
                            "sailing_days_after": rng.randint(0, 200)}]
    passed = [e for e, p in zip(exams, (0.5, 0.2, 0.1, 0.05), strict=False) if rng.random() < p]
    if passed:
        r["exams"] = passed
    held = [cert_by_role[roles[k]] for k in range(level) if roles[k] in cert_by_role and rng.random() < 0.7]
    if held:
        r["certificates"] = held
    return r


def generate(n: int, seed: int = 2026) -> list[dict]:
    from crewkg.law.statute import load_law

    law = load_law()
    deck = law.ids_of("DeckCrewRole")
    roles = [r for r in deck if any(c.role == r for c in law.certificates.values() if c.pathways)]
    cert_by_role = {c.role: c.id for c in law.certificates_in_order() if c.role and c.pathways}
    exams = sorted(law.ids_of("Exam"), key=lambda e: (len(e), e))
    rng = random.Random(seed)
    return [generate_record(i, rng, roles, cert_by_role, exams) for i in range(n)]


def _evaluate_chunk(records: list[dict]) -> tuple[int, str]:
    """Worker process: schema-check the records, run Datalog once, return N-Triples of records + derived facts."""
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping
    from crewkg.service.derived import evaluate

    law = load_law()
    persons = [person_from_mapping(r, law, AS_OF, r["id"]) for r in records]
    lines = []
    for _p, record, derived in evaluate(law, persons, AS_OF):
        for s, p, o in record + derived:
            lines.append(f"{s.n3()} {p.n3()} {o.n3()} .\n")
    return len(lines), "".join(lines)


def write_register(records: list[dict], path: Path, workers: int, chunk: int = 250) -> tuple[int, float]:
    start = time.perf_counter()
    triples = 0
    parts = [records[i : i + chunk] for i in range(0, len(records), chunk)]
    with path.open("w", encoding="utf-8") as out, ProcessPoolExecutor(max_workers=workers) as pool:
        for n, text in pool.map(_evaluate_chunk, parts):
            triples += n
            out.write(text)
    return triples, time.perf_counter() - start


# ------------------------------------------------------------------------------------------------------
# Servers
# ------------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
EXAMPLE_DATA = ["--data", str(EXAMPLES / "persons"), "--crew",
                f"{EXAMPLES / 'vessels' / '01-ms-wachau-danube-day-trip.yaml'}:{EXAMPLES / 'rosters' / '01-ms-wachau-short.yaml'}"]


class Served:
    def __init__(self, store: str, register: Path | None, timeout: float, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log = log.open("w")
        data = ["--graph", str(register)] if register is not None else EXAMPLE_DATA
        cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", "serve", "--port", str(self.port), "--store", store,
               *data, "--timeout", str(timeout), "--as-of", AS_OF.isoformat()]
        start = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT)
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"crewkg serve --store {store} exited: {log.read_text()[-2000:]}")
            try:
                health = httpx.get(self.url + "/health", timeout=5)
                if health.status_code == 200:
                    self.triples = health.json()["triples"]
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        self.load_seconds = time.perf_counter() - start
        self.rss_mb = rss_mb(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(15)
        self._log.close()


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def measure_queries(url: str, queries, runs: int, budget: float) -> dict[str, dict]:
    """Per canned query: latencies of up to `runs` runs after one warm-up, stopping once `budget` s are spent."""
    out: dict[str, dict] = {}
    with httpx.Client(base_url=url, timeout=600) as client:
        for q in queries:
            lat: list[float] = []
            status, rows, spent = 200, None, 0.0
            for i in range(runs + 1):
                t0 = time.perf_counter()
                r = client.post("/sparql", data={"query": q.text}, headers={"Accept": "application/sparql-results+json"})
                dt = time.perf_counter() - t0
                spent += dt
                status = r.status_code
                if status != 200:
                    break
                rows = len(r.json()["results"]["bindings"])
                if i > 0 or dt > budget / 4:  # a slow query's first run counts; no point in warming it up
                    lat.append(dt)
                if spent > budget and lat:
                    break
            out[q.name] = {"lat": lat, "status": status, "rows": rows}
    return out


def eligibility_load(url: str, records: list[dict], clients: int, seconds: float) -> dict:
    """`clients` concurrent clients post records for `seconds`; requests per second, latency, errors."""

    async def run() -> dict:
        lat: list[float] = []
        errors: dict[str, int] = {}
        stop = time.perf_counter() + seconds
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:

            async def worker(k: int) -> None:
                i = k
                while time.perf_counter() < stop:
                    record = records[i % len(records)]
                    i += clients
                    t0 = time.perf_counter()
                    try:
                        r = await client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()}, json=record)
                        ok = r.status_code == 200 and r.json()["person"] == record["id"]
                        key = None if ok else f"HTTP {r.status_code}"
                    except httpx.HTTPError as exc:
                        key = type(exc).__name__
                    if key:
                        errors[key] = errors.get(key, 0) + 1
                    else:
                        lat.append(time.perf_counter() - t0)

            t0 = time.perf_counter()
            await asyncio.gather(*(worker(k) for k in range(clients)))
            elapsed = time.perf_counter() - t0
        return {"ok": len(lat), "errors": errors, "elapsed": elapsed, "lat": lat}

    return asyncio.run(run())


def mixed_plan(queries, records: list[dict], persons: list[str], requests: int) -> list[tuple[str, object]]:
    """Every other request a canned SPARQL query, the others the JSON API (1/3 eligibility, 1/12 a served person,
    1/12 the query list)."""
    plan: list[tuple[str, object]] = []
    for i in range(requests):
        if i % 2 == 0:
            plan.append(("sparql", queries[(i // 2) % len(queries)].text))
        elif i % 6 == 1:
            plan.append(("person", persons[(i // 6) % len(persons)]))
        elif i % 6 == 3:
            plan.append(("queries", None))
        else:
            plan.append(("eligibility", records[(i // 6) % len(records)]))
    return plan


NODE_CLIENT = Path(__file__).resolve().parent / "load_node"


def node_load(url: str, plan: list[tuple[str, object]], clients: int, tmp: Path) -> dict | None:
    """The same plan sent by autocannon (benchmarks/load_node, `npm ci` there first): None where node or the
    package is missing. Every answer but a 2xx is an error, as in `mixed_load`."""
    import json
    from urllib.parse import urlencode

    if shutil.which("node") is None or not (NODE_CLIENT / "node_modules" / "autocannon").is_dir():
        return None
    items = []
    for kind, arg in plan:
        if kind == "sparql":
            items.append({"method": "GET", "path": "/sparql?" + urlencode({"query": arg}),
                          "headers": {"accept": "application/sparql-results+json"}})
        elif kind == "person":
            items.append({"method": "GET", "path": f"/api/persons/{arg}", "headers": {}})
        elif kind == "queries":
            items.append({"method": "GET", "path": "/api/queries", "headers": {}})
        else:
            items.append({"method": "POST", "path": f"/api/eligibility?as_of={AS_OF.isoformat()}",
                          "headers": {"content-type": "application/json"}, "body": json.dumps(arg)})
    plan_file = tmp / "plan.json"
    plan_file.write_text(json.dumps(items))
    out = subprocess.run(["node", str(NODE_CLIENT / "mixed.js"), url, str(plan_file), str(clients), str(len(plan))],
                         capture_output=True, text=True, cwd=NODE_CLIENT, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def mixed_load(url: str, queries, records: list[dict], persons: list[str], clients: int, requests: int) -> dict:
    """`clients` concurrent clients send `requests` requests in all (`mixed_plan`). Every answer but a 200 is an
    error (a 503 for a query that found no slot included)."""
    plan = mixed_plan(queries, records, persons, requests)

    async def run() -> dict:
        lat: list[float] = []
        errors: dict[str, int] = {}
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        todo = iter(plan)
        async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:

            async def one(kind: str, arg) -> httpx.Response:
                if kind == "sparql":
                    return await client.get("/sparql", params={"query": arg}, headers={"Accept": "application/sparql-results+json"})
                if kind == "person":
                    return await client.get(f"/api/persons/{arg}")
                if kind == "queries":
                    return await client.get("/api/queries")
                return await client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()}, json=arg)

            async def worker() -> None:
                for kind, arg in todo:
                    t0 = time.perf_counter()
                    try:
                        r = await one(kind, arg)
                        key = None if r.status_code == 200 else f"{kind} HTTP {r.status_code}"
                    except httpx.HTTPError as exc:
                        key = f"{kind} {type(exc).__name__}"
                    lat.append(time.perf_counter() - t0)
                    if key:
                        errors[key] = errors.get(key, 0) + 1

            t0 = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(clients)))
            elapsed = time.perf_counter() - t0
        return {"n": len(lat), "errors": errors, "elapsed": elapsed, "lat": lat}

    return asyncio.run(run())


def run_mixed(args, tmp: Path) -> None:
    from crewkg.service.canned import canned_queries

    queries = canned_queries()
    register = None
    if args.mixed_persons:
        register = tmp / "register.nt"
        triples, _ = write_register(generate(args.mixed_persons), register, args.workers)
        print(f"register: {args.mixed_persons} generated persons, {triples:,} triples")
        queries = [q for q in queries if q.name != "rosters-failing"]  # a register has no vessels or rosters
    records = generate(200, seed=7)
    print(f"mixed load: {args.clients} concurrent clients, {args.requests} requests a round "
          f"(1/2 canned SPARQL over {len(queries)} queries, 1/3 POST /api/eligibility, 1/12 GET /api/persons/ID, "
          f"1/12 GET /api/queries), {args.rounds} rounds, query timeout {args.timeout:g} s")
    for store in [s.strip() for s in args.stores.split(",")]:
        srv = Served(store, register, args.timeout, tmp / f"serve-{store}.log")
        try:
            persons = [p["id"] for p in httpx.get(srv.url + "/api/persons", timeout=60).json()] or ["nobody"]
            print(f"{store:>8}: server up in {srv.load_seconds:.1f} s, {srv.triples:,} triples, RSS {srv.rss_mb:,.0f} MB")
            seen = len(server_ms(srv.log_path))
            for k in range(args.rounds):
                before = rss_mb(srv.proc.pid)
                res = mixed_load(srv.url, queries, records, persons, args.clients, args.requests)
                after = rss_mb(srv.proc.pid)
                errors = sum(res["errors"].values())
                inside = server_ms(srv.log_path)[seen:]
                seen += len(inside)
                print(f"{store:>8} round {k + 1}: {res['n'] / res['elapsed']:7.1f} req/s   p50 {ms(pct(res['lat'], 50))} ms   "
                      f"p99 {ms(pct(res['lat'], 99))} ms   max {ms(max(res['lat']))} ms   {errors} errors "
                      f"{res['errors'] or ''}  RSS {before:,.0f} -> {after:,.0f} MB")
                print(f"{'':>8}   in the server (its request log, request in to answer out): p50 {ms(pct(inside, 50))} ms   "
                      f"p99 {ms(pct(inside, 99))} ms   max {ms(max(inside, default=float('nan')))} ms")
            if args.client_node:
                plan = mixed_plan(queries, records, persons, args.requests)
                for k in range(args.rounds):
                    res = node_load(srv.url, plan, args.clients, tmp)
                    if res is None:
                        print(f"{store:>8} autocannon: not installed (cd benchmarks/load_node && npm ci)")
                        break
                    errors = res["non2xx"] + res["errors"] + res["timeouts"]
                    print(f"{store:>8} autocannon round {k + 1}: {res['rate']:7.1f} req/s   p50 {res['p50']:7.1f} ms   "
                          f"p99 {res['p99']:7.1f} ms   max {res['max']:7.1f} ms   {errors} errors ({res['requests']} requests)")
        finally:
            srv.stop()
    print("(targets on oxigraph: 0 errors, >= 300 req/s, p99 <= 250 ms; both stores: 0 errors, memory flat)")


def server_ms(log: Path) -> list[float]:
    """The seconds of every request in the server's request log ("… GET /path 200 12.3 ms"), in order. The client's
    figures include its own queueing: one Python process driving 50 connections is busy on a 2-core machine too."""
    out = []
    for line in log.read_text(errors="replace").splitlines():
        parts = line.split()
        if "crewkg.server" in parts and len(parts) > 2 and parts[-1] == "ms":
            try:
                out.append(float(parts[-2]) / 1000)
            except ValueError:
                pass
    return out


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def ms(x: float) -> str:
    return "      —" if x != x else f"{x * 1000:7.1f}"


# ------------------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--persons", type=int, default=10_000)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20.0, help="duration of the eligibility load")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for the Datalog evaluation")
    ap.add_argument("--memory-timeout", type=float, default=30.0, help="query timeout of the memory store's server")
    ap.add_argument("--stores", default="memory,oxigraph", help="which stores to measure (comma-separated)")
    ap.add_argument("--register", type=Path, help="keep the generated register here and reuse it when it exists")
    ap.add_argument("--mixed", action="store_true", help="the mixed SPARQL + JSON API load instead (see above)")
    ap.add_argument("--requests", type=int, default=3000, help="requests per round of the mixed load")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the mixed load (memory should stay flat)")
    ap.add_argument("--timeout", type=float, default=10.0, help="query timeout of the mixed load's servers")
    ap.add_argument("--client-node", action="store_true", help="after the Python rounds, the same plan from autocannon "
                    "(Node, benchmarks/load_node: `npm ci` there first), a client that is not the bottleneck")
    ap.add_argument("--mixed-persons", type=int, default=0, help="mixed load on a generated register of N persons "
                    "instead of the example persons")
    args = ap.parse_args()
    if args.mixed:
        tmp = Path(tempfile.mkdtemp(prefix="crewkg-bench-mixed-"))
        os.environ.setdefault("CREWKG_CACHE", str(tmp / "cache"))
        try:
            print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
            run_mixed(args, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return

    from crewkg.service.canned import canned_queries

    # a register has persons only: rosters-failing (vessels and rosters) is left out
    queries = [q for q in canned_queries() if q.name != "rosters-failing"]
    tmp = Path(tempfile.mkdtemp(prefix="crewkg-bench-service-"))
    os.environ.setdefault("CREWKG_CACHE", str(tmp / "cache"))
    try:
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        register = args.register or tmp / "register.nt"
        if args.register and args.register.exists():
            print(f"register: reusing {register} ({register.stat().st_size / 1e6:.0f} MB)")
        else:
            records = generate(args.persons)
            triples, derive_s = write_register(records, register, args.workers)
            print(f"register: {args.persons} generated persons -> {triples:,} triples (records + derived facts), "
                  f"evaluated in {derive_s:.1f} s ({args.persons / derive_s:.0f} persons/s, {args.workers} worker processes), "
                  f"{register.stat().st_size / 1e6:.0f} MB N-Triples")
        stores = [s.strip() for s in args.stores.split(",")]

        results, servers = {}, {}
        plan = [("oxigraph", 20, 10.0, 60.0), ("memory", 3, 40.0, args.memory_timeout)]
        load, first_sight = None, float("nan")
        for store, runs, budget, timeout in [p for p in plan if p[0] in stores]:
            srv = Served(store, register, timeout, tmp / f"serve-{store}.log")
            servers[store] = srv
            try:
                print(f"{store:>8}: server up in {srv.load_seconds:.1f} s, {srv.triples:,} triples, RSS {srv.rss_mb:,.0f} MB")
                results[store] = measure_queries(srv.url, queries, runs, budget)
                if store == "oxigraph":
                    pool = generate(200, seed=7)
                    t0 = time.perf_counter()
                    with httpx.Client(base_url=srv.url, timeout=120) as c:  # one request at a time: no batching
                        for r in pool:
                            c.post("/api/eligibility", params={"as_of": AS_OF.isoformat()}, json=r)
                    first_sight = time.perf_counter() - t0
                    load = eligibility_load(srv.url, pool, args.clients, args.seconds)
            finally:
                srv.stop()

        print()
        print(f"canned-query latency through POST /sparql, {args.persons} persons (ms; p50 over the runs, n = runs)")
        print(f"{'query':<28} {'rows':>6} | {'memory p50':>10} {'n':>2} | {'oxigraph p50':>12} {'p95':>7} {'n':>3} | {'ratio':>7}")
        all_ox, all_mem = [], []
        empty = {"lat": [], "status": 0, "rows": None}
        for q in queries:
            mem, ox = results.get("memory", {}).get(q.name, empty), results.get("oxigraph", {}).get(q.name, empty)
            all_ox += ox["lat"]
            all_mem += mem["lat"]
            m50 = statistics.median(mem["lat"]) if mem["lat"] else float("nan")
            o50 = statistics.median(ox["lat"]) if ox["lat"] else float("nan")
            mtxt = ms(m50) if mem["status"] == 200 else f"HTTP {mem['status']}".rjust(7)
            ratio = f"{m50 / o50:6.0f}x" if mem["lat"] and ox["lat"] else "      —"
            print(f"{q.name:<28} {ox['rows'] if ox['rows'] is not None else '-':>6} | {mtxt:>10} {len(mem['lat']):>2} | "
                  f"{ms(o50):>12} {ms(pct(ox['lat'], 95))} {len(ox['lat']):>3} | {ratio}")
        timeouts = [q.name for q in queries if results.get("memory", {}).get(q.name, empty)["status"] == 503]
        per_query = sorted(statistics.median(results["oxigraph"][q.name]["lat"]) for q in queries
                           if results.get("oxigraph", {}).get(q.name, empty)["lat"])
        print(f"{'all canned queries':<28} {'':>6} | {ms(statistics.median(all_mem)) if all_mem else '      —':>10} "
              f"{len(all_mem):>2} | {ms(statistics.median(all_ox)) if all_ox else '      —':>12} {ms(pct(all_ox, 95))} {len(all_ox):>3} |"
              f"   (target: oxigraph p50 <= 50 ms)")
        if per_query:
            print(f"{'median of the per-query p50s':<28} {'':>6} | {'':>10} {'':>2} | {ms(statistics.median(per_query)):>12}")
        if timeouts:
            print(f"memory store: {len(timeouts)} queries hit the {args.memory_timeout:g} s timeout (HTTP 503): {', '.join(timeouts)}")
        print()
        if load is None:
            return
        rate = load["ok"] / load["elapsed"]
        errors = sum(load["errors"].values())
        print(f"eligibility API, POST /api/eligibility, {args.clients} concurrent clients for {load['elapsed']:.1f} s, "
              f"200 distinct records:")
        print(f"  {rate:8.1f} requests/s   p50 {ms(pct(load['lat'], 50))} ms   p95 {ms(pct(load['lat'], 95))} ms   "
              f"{load['ok']} answers, {errors} errors {load['errors'] or ''}")
        print(f"  (the same 200 records one request at a time, one client: {first_sight:.1f} s, "
              f"{200 / first_sight:.1f} requests/s — concurrent requests share Datalog runs)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
