"""Bad requests to the HTTP service, as a careless client and as an attacker would send them (issue 44): `crewkg serve`
runs in a subprocess on each store, gets a corpus of bad bodies, uploads, SPARQL queries that try to reach out, Host
headers, methods and parameters, and then a schemathesis run (`schemathesis run …/openapi.json`, every operation,
positive and negative cases) against the same process. What counts is what the server itself saw: its request log
(one line per request with its status) and its standard error, so a 500 or a traceback cannot hide in a client.

- 5xx: a request the server answered with a server error;
- tracebacks: Python tracebacks in the server's output;
- connections: connections a loopback listener received (a SERVICE query that reached out);
- unexpected: a crafted request whose refusal is known (SERVICE 400, a foreign Host 400, a bad body 422) answered
  otherwise; dropped: no answer (a closed connection or none within the timeout).

    PYTHONPATH=src python benchmarks/bad_requests.py [--stores memory,oxigraph] [--examples 20] [--no-schemathesis]

bad_inputs.py runs it after the command-line corpus (`--no-http` leaves it out). Exits 1 on any 5xx, traceback,
connection or dropped request."""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "examples"
AS_OF = "2026-11-30"
STARTUP = 180.0  # seconds a server may take to answer /health on a loaded machine
VESSEL = {"id": "ms-wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5, "breadth_m": 11.4,
          "passengers": 300, "passengers_on_board": 250, "standard": "S1", "engine_kw": 800}
#: a person record's JSON text that once answered 500 (issue 44), and its relatives
BODIES = {
    "valid_until_9999": '{"id": "x", "birth_date": "1990-01-01", "medical_fitness": {"valid_until": "9999-12-31"}}',
    "examined_9999": '{"id": "x", "birth_date": "1990-01-01", "medical_fitness": {"examined": "9999-12-31"}}',
    "issued_9999": '{"id": "x", "birth_date": "1990-01-01", "certificates": [{"id": "UBZ-Matrose", "issued": "9999-12-31"}]}',
    "log_to_9999": '{"id": "x", "service": [{"from": "9999-12-01", "to": "9999-12-31", "role": "Matrose"}]}',
    "nested_1000_lists": '{"id": "x", "sailing_days": ' + "[" * 1000 + "]" * 1000 + "}",
    "nested_1000_objects": '{"id": "x", "exams": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + "}",
    "nested_100000": "[" * 100_000 + "]" * 100_000,
    "integer_5000_digits": '{"id": "x", "sailing_days": {"Matrose": ' + "9" * 5000 + "}}",
    "integer_5000_digits_negative": '{"id": "x", "professional_experience_years": -' + "9" * 5000 + "}",
    "float_1e400": '{"id": "x", "professional_experience_years": 1e400}',
    "surrogate_id": '{"id": "\\ud800"}',
    "surrogate_key": '{"id": "x", "\\udfff": 1}',
    "surrogate_vessel_text": '{"id": "x", "service": [{"from": "2024-03-01", "to": "2024-03-31", "role": "Matrose", '
                             '"vessel": "MS \\ud800"}]}',
    "duplicate_key": '{"id": "x", "id": "y"}',
    "json_null": "null",
    "json_array": "[]",
    "json_string": '"anna"',
    "not_json": "id: x",
    "nan": '{"id": "x", "professional_experience_years": NaN}',
}
#: raw bytes a JSON body may be
RAW = {"utf8_surrogate_bytes": b'{"id": "\xed\xa0\x80"}', "utf16": '{"id": "x"}'.encode("utf-16"),
       "invalid_utf8": b'{"id": "\xff"}', "empty": b"", "nul": b'{"id": "a\x00"}'}
ROUTES = [("/api/eligibility", {}), ("/api/explain", {"certificate": "UBZ-Matrose"}),
          ("/api/plan", {"target": "UBZ-Matrose"}), ("/api/report", {})]
#: SERVICE in every form the tester used (issue 44), and the plain ones
SERVICE = ["SELECT * {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
           "select * {{ service silent <http://127.0.0.1:{port}/x> {{ ?s ?p ?o }} }}",
           "SELECT ?x {{ #\rSERVICE <http://127.0.0.1:{port}/> {{?x ?p ?o}} }}",
           "SELECT ?l {{ BIND('0' AS ?a) FILTER(?a<'>') SERVICE <http://127.0.0.1:{port}/> {{?l ?p ?o}} FILTER(?a!='') }}",
           "SELECT * {{ \\u0053ERVICE <http://127.0.0.1:{port}/> {{?s ?p ?o}} }}",
           "SELECT * {{ SERVICE <file:///etc/hostname> {{?s ?p ?o}} }}",
           "ASK {{ FILTER EXISTS {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }} }}"]


def cases(port: int) -> list[tuple[str, str, str, dict, int | None]]:
    """(id, method, path, httpx keyword arguments, the status a known refusal must have or None)."""
    json_type = {"Content-Type": "application/json"}
    out: list[tuple[str, str, str, dict, int | None]] = []
    for path, params in ROUTES:
        q = params | {"as_of": AS_OF, "lang": "en"}
        for name, text in BODIES.items():
            out.append((f"{path}:{name}", "POST", path, {"params": q, "content": text.encode("utf-8"), "headers": json_type},
                        None))
        for name, raw in RAW.items():
            out.append((f"{path}:{name}", "POST", path, {"params": q, "content": raw, "headers": json_type}, None))
    for name, text in BODIES.items():  # inside a roster's member
        body = '{"vessel": ' + json.dumps(VESSEL) + ', "roster": {"crew": [' + text + "]}}"
        out.append((f"/api/crew:member:{name}", "POST", "/api/crew", {"params": {"as_of": AS_OF}, "content": body.encode(),
                                                                      "headers": json_type}, None))
    for name, body in {"vessel_path": {"vessel": "/etc/passwd"}, "vessel_example_path": {
                           "vessel": str(EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml")},
                       "roster_null": {"vessel": VESSEL, "roster": None}, "vessel_null": {"vessel": None},
                       "roster_path": {"vessel": VESSEL, "roster": "/etc/hostname"}}.items():
        out.append((f"/api/crew:{name}", "POST", "/api/crew", {"json": body}, 422))
    for path in ("/api/eligibility/upload", "/api/report/upload"):
        for name, (fname, data) in {"valid_until_9999": ("p.yaml", b"id: x\nmedical_fitness: {valid_until: 9999-12-31}\n"),
                                     "utf16_yaml": ("p.yaml", "id: x\n".encode("utf-16")),
                                     "deep_yaml": ("p.yaml", b"a: " + b"[" * 5000 + b"]" * 5000),
                                     "surrogate_yaml": ("p.yaml", b'id: "\\ud800"\n'),
                                     "surrogate_json": ("p.json", b'{"id": "\\ud800"}'),
                                     "ill_typed_turtle": ("p.ttl", TURTLE.encode()),
                                     "bigint_json": ("p.json", b'{"id": "x", "sailing_days": {"Matrose": ' + b"9" * 5000 + b"}}")}.items():
            out.append((f"{path}:{name}", "POST", path, {"params": {"as_of": AS_OF}, "files": {"file": (fname, data)}}, 422))
    for i, form in enumerate(SERVICE):
        query = form.format(port=port)
        out.append((f"/sparql:service:{i}:get", "GET", "/sparql", {"params": {"query": query}}, 400))
        out.append((f"/sparql:service:{i}:post", "POST", "/sparql", {"data": {"query": query}}, 400))
        out.append((f"/sparql:service:{i}:direct", "POST", "/sparql", {"content": query.encode(),
                                                                         "headers": {"Content-Type": "application/sparql-query"}}, 400))
    for name, query, accept in (("values_minus_decimal", "SELECT ?x { VALUES ?x { -1.0 } }", None),
                                ("tsv_newline", 'SELECT ?x { BIND("a\\nb" AS ?x) }', "text/tab-separated-values"),
                                ("surrogate_literal", 'SELECT ?x { BIND("\\uD800" AS ?x) }', None),
                                ("huge_integer", "SELECT ?x { BIND(" + "9" * 5000 + " AS ?x) }", None)):
        out.append((f"/sparql:{name}", "GET", "/sparql", {"params": {"query": query}, "headers": {"Accept": accept or "*/*"}},
                    None))
    for method in ("PUT", "DELETE", "PATCH"):
        out.append((f"/sparql:{method}", method, "/sparql", {}, 405))
    for host in ("localhost:80@evil.example", "evil.example", "localhost:x", "localhost/x", "[::1"):
        out.append((f"/health:host:{host}", "GET", "/health", {"headers": {"Host": host}}, 400))
    for lang in ("", "xx", "%ED%B3%BF", "%FF"):  # the last two: a surrogate's and an invalid byte's escapes
        out.append((f"/api/terms:lang:{lang!r}", "GET", f"/api/terms?lang={lang}", {}, 422))
    for pid in ("%ED%A0%80", "..%2F..%2Fetc", "x" * 5000, "anna%00"):
        out.append((f"/api/persons:{pid[:20]}", "GET", f"/api/persons/{pid}", {}, None))
    return out


TURTLE = ("@prefix crew: <https://w3id.org/crewkg/onto#> .\n@prefix kb: <https://w3id.org/crewkg/kb/> .\n"
          "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n<https://w3id.org/crewkg/person/t> a crew:Person ; "
          'crew:personId "t" ; crew:hasSailingRecord [ crew:inRole kb:Matrose ; crew:days "abc"^^xsd:integer ] .\n')


class Listener:
    """A loopback port that counts the connections it receives."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self.sock.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(kind: str, tmp: Path) -> tuple[subprocess.Popen, str, Path]:
    """`crewkg serve` on a free port with one person, its output in a log file; ready when /health answers."""
    import httpx

    port, log = _free_port(), tmp / f"serve-{kind}.log"
    env = dict(os.environ, CREWKG_CACHE=str(tmp / "cache"), PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "crewkg", "serve", "--port", str(port), "--store", kind, "--data",
                             str(EXAMPLES / "persons" / "anna-matrose.yaml"), "--as-of", AS_OF, "--timeout", "5"],
                            stdout=log.open("w"), stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url, end = f"http://127.0.0.1:{port}", time.monotonic() + STARTUP
    while time.monotonic() < end and proc.poll() is None:
        try:
            if httpx.get(url + "/health", timeout=5).status_code == 200:
                return proc, url, log
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit(f"crewkg serve --store {kind} did not start:\n{log.read_text()[-2000:]}")


_STATUS = re.compile(r" (\d{3}) [0-9.]+ ms$")


def server_counts(text: str) -> Counter:
    """Requests, 5xx and tracebacks in a server's output."""
    statuses = [int(m.group(1)) for line in text.splitlines() if (m := _STATUS.search(line))]
    return Counter(requests=len(statuses), fivexx=sum(s >= 500 for s in statuses),
                   tracebacks=text.count("Traceback (most recent call last)"))


def crafted(url: str, port: int) -> Counter:
    """Send every crafted case; count by outcome and print the ones that are not as they must be."""
    import httpx

    counts: Counter = Counter()
    with httpx.Client(base_url=url, timeout=60) as client:
        for cid, method, path, kw, expected in cases(port):
            try:
                r = client.request(method, path, **kw)
            except httpx.HTTPError as exc:
                counts["dropped"] += 1
                print(f"    dropped     {cid}: {type(exc).__name__}")
                continue
            counts["sent"] += 1
            if r.status_code >= 500:
                counts["5xx"] += 1
                print(f"    5xx         {cid}: {r.status_code} {r.text[:120]!r}")
            elif expected is not None and r.status_code != expected:
                counts["unexpected"] += 1
                print(f"    unexpected  {cid}: {r.status_code} (expected {expected}) {r.text[:120]!r}")
    return counts


def schemathesis_run(url: str, examples: int, tmp: Path) -> int:
    """schemathesis against the served process: every operation, positive and negative cases, `examples` each."""
    cmd = [str(Path(sys.executable).with_name("schemathesis")), "run", url + "/openapi.json", "--checks", "not_a_server_error",
           "--max-examples", str(examples), "--seed", "44", "--workers", "1", "--request-timeout", "60", "--no-color",
           "--suppress-health-check", "all", "--warnings", "off"]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
    tail = [line for line in done.stdout.splitlines() if line.strip()][-6:]
    print("    schemathesis: exit", done.returncode, "|", " | ".join(tail)[:600])
    return done.returncode


def run(stores: list[str], examples: int, with_schemathesis: bool = True) -> int:
    """The corpus and a schemathesis run on each store; the counts; 1 if anything went wrong."""
    listener = Listener()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="crewkg-bad-http-") as tmp:
        for kind in stores:
            proc, url, log = serve(kind, Path(tmp))
            try:
                t0 = time.monotonic()
                mine = crafted(url, listener.port)
                seen_before = server_counts(log.read_text())
                st_exit = schemathesis_run(url, examples, Path(tmp)) if with_schemathesis else 0
            finally:
                proc.terminate()
                proc.wait(30)
            seen = server_counts(log.read_text())
            fuzz = seen - seen_before
            print(f"  store {kind}: {mine['sent']} crafted requests: {seen_before['fivexx']} × 5xx, "
                  f"{mine['unexpected']} unexpected, {mine['dropped']} dropped; schemathesis: {fuzz['requests']} requests, "
                  f"{fuzz['fivexx']} × 5xx (exit {st_exit}); server tracebacks: {seen['tracebacks']}; "
                  f"{time.monotonic() - t0:.0f} s")
            failed += seen["fivexx"] + seen["tracebacks"] + mine["dropped"] + mine["unexpected"] + (st_exit != 0)
    print(f"  connections to the loopback listener (SERVICE reaching out): {listener.connections}")
    listener.close()
    return 1 if failed or listener.connections else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stores", default="memory,oxigraph")
    ap.add_argument("--examples", type=int, default=20, help="schemathesis examples per operation")
    ap.add_argument("--no-schemathesis", action="store_true")
    opts = ap.parse_args()
    return run(opts.stores.split(","), opts.examples, not opts.no_schemathesis)


if __name__ == "__main__":
    sys.exit(main())
