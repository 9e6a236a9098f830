"""The smaller defects of issue 44 (defect 6): a TSV cell with a line break split its row on the memory store;
`VALUES ?x { -1.0 }` was malformed to rdflib; a 405 on /sparql said `Allow: GET` though POST answers; `lang=` was
allowed by the schema and refused by the routes; a store folder's persons were answered 404 (and listed as none)
while /health counted them; `Host: localhost:80@evil.example` was read as localhost; and half-sent requests were held
open as long as their senders liked (slowloris) — on either parser, h11 or httptools."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from crewkg.cli import app as cli
from crewkg.service.app import Service, Settings, create_app
from crewkg.service.guard import _Coalesced, bounded_h11, bounded_http, bounded_httptools, host_name
from crewkg.service.loading import build_store
from crewkg.service.stores import STORES, new_store

pytestmark = pytest.mark.xdist_group("test_service_edges")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
PERSONS = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
#: patience for a server to act on a deadline of a second or two on a loaded machine: a bound, not a timing
PATIENCE = 60.0


@pytest.fixture(scope="module", params=STORES)
def store(request):
    return new_store(request.param)


@pytest.fixture(scope="module")
def client(law):
    app = create_app(Service(law, new_store("memory"), {}, AS_OF, Settings(allowed_hosts=("localhost", "127.0.0.1",
                                                                                            "::1", "testserver"))))
    with TestClient(app) as c:
        yield c


def test_a_tsv_cell_with_line_breaks_keeps_its_row(store):
    body, media = store.serialize('SELECT ?x ?y { BIND("a\\nb" AS ?x) BIND("c\\r\\td"@de AS ?y) }',
                                  "text/tab-separated-values")
    assert media.startswith("text/tab-separated-values")
    assert body.decode("utf-8").split("\n") == ["?x\t?y", '"a\\nb"\t"c\\r\\td"@de', ""]


@pytest.mark.parametrize("values, expected", [("-1.0", [Decimal("-1.0")]), ("-1 -2.5 +3.25", [-1, Decimal("-2.5"), Decimal("3.25")])])
def test_negative_decimals_are_answered_by_both_stores(store, values, expected):
    table = store.select(f"SELECT ?x {{ VALUES ?x {{ {values} }} }}")
    assert [row[0].toPython() for row in table.rows] == expected
    assert store.select("ASK { ?s ?p ?o FILTER(-1.0 < 0) }").boolean is not None


def test_a_surrogate_escape_is_a_malformed_query_on_both_stores(store):
    """Found by the bad-request corpus: rdflib made a lone surrogate of `"\\uD800"` and failed writing the answer (500);
    Oxigraph refuses it as malformed, and so does the memory store now."""
    from crewkg.service.query_refusals import MalformedQuery

    for query in ('SELECT ?x { BIND("\\uD800" AS ?x) }', 'SELECT ?x { BIND("\\U0000DFFF" AS ?x) }'):
        with pytest.raises(MalformedQuery):
            store.serialize(query, "application/sparql-results+json")


def test_an_integer_of_5000_digits_in_a_query_leaves_no_rdflib_traceback(store, caplog):
    import logging

    with caplog.at_level(logging.WARNING):
        body, _ = store.serialize("SELECT ?x { BIND(" + "9" * 5000 + " AS ?x) }", "application/sparql-results+json")
    assert b"9999" in body
    assert [r for r in caplog.records if r.name.startswith("rdflib")] == []


def test_a_405_names_every_method_the_path_answers(client):
    r = client.put("/sparql")
    assert r.status_code == 405
    assert {m.strip() for m in r.headers["allow"].split(",")} >= {"GET", "POST"}
    r = client.put("/api/eligibility")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


def test_lang_takes_in_the_schema_what_the_routes_take(client):
    spec = client.get("/openapi.json").json()
    langs = [(path, method, p["schema"]) for path, item in spec["paths"].items() for method, op in item.items()
             for p in op.get("parameters", []) if p["name"] == "lang"]
    assert len(langs) >= 8
    for path, method, schema in langs:
        assert schema["enum"] == ["de", "en"] and schema["type"] == "string", (path, method, schema)
    for lang, status in (("", 422), ("xx", 422), ("en", 200), ("de", 200)):
        r = client.get("/api/terms", params={"lang": lang})
        assert r.status_code == status, (lang, r.text[:200])
        if status == 422:
            assert r.json()["field"] == "lang"


@pytest.mark.parametrize("header, name", [
    ("localhost", "localhost"), ("localhost:8080", "localhost"), ("[::1]:80", "::1"), ("LOCALHOST.", "localhost"),
    ("127.0.0.1:1", "127.0.0.1"), ("localhost:80@evil.example", None), ("user@localhost", None),
    ("localhost:80:80", None), ("localhost/x", None), ("localhost:", None), ("localhost:99999", None), ("", None),
])
def test_a_host_header_is_read_strictly(header, name):
    assert host_name(header) == name


@pytest.mark.parametrize("header", ["localhost:80@evil.example", "evil.example", "localhost:80/x", "localhost:x"])
def test_a_host_that_is_no_allowed_host_is_refused(client, header):
    assert client.get("/health", headers={"Host": "localhost:8080"}).status_code == 200
    r = client.get("/health", headers={"Host": header})
    assert r.status_code == 400 and "Host" in r.text


@pytest.fixture(scope="module")
def store_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("store") / "register"
    result = CliRunner().invoke(cli, ["export", str(PERSONS), "--store", str(folder), "--as-of", AS_OF.isoformat()])
    assert result.exit_code == 0, result.output
    return folder


def test_a_store_folders_persons_are_listed_and_answered(law, store_folder):
    """Served from a store folder alone (`crewkg serve --store DIR`): every exported person is listed, and answered
    as the record itself is answered — a total of days and a service log (credited counts left out) alike."""
    app = create_app(Service(law, build_store(str(store_folder), law, [], AS_OF), {}, AS_OF))
    with TestClient(app) as c:
        listed = c.get("/api/persons").json()
        assert len(listed) == c.get("/health").json()["persons"] == 20
        assert {p["source"] for p in listed} == {"register"}
        for pid, record in (("anna", "anna-matrose.yaml"), ("franz-huber", "20-franz-schifferdienstbuch.yaml")):
            stored = c.get(f"/api/persons/{pid}", params={"lang": "en"})
            assert stored.status_code == 200, stored.text[:300]
            body = json.dumps(yaml.safe_load((PERSONS / record).read_text()), default=str)
            direct = c.post("/api/eligibility", params={"lang": "en", "as_of": AS_OF.isoformat()}, content=body,
                            headers={"Content-Type": "application/json"})
            assert direct.status_code == 200, direct.text[:300]
            a, b = stored.json(), direct.json()
            assert a["roles"] == b["roles"] and a["as_of"] == b["as_of"] == AS_OF.isoformat()
            assert {c_["id"]: (c_["eligible"], c_.get("eligible_since")) for c_ in a["certificates"]} == \
                   {c_["id"]: (c_["eligible"], c_.get("eligible_since")) for c_ in b["certificates"]}
        assert c.get("/api/persons/nobody").status_code == 404
        assert c.get("/api/persons/..%2Fanna").status_code == 404


# ---- slow clients (slowloris) ---------------------------------------------------------------------------------------

async def _echo(scope, receive, send):
    """An app that reads the body and answers with its length."""
    if scope["type"] != "http":
        return
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": str(size).encode()})


#: the head's size bound of the servers below (`crewkg serve` allows 64 KiB or more)
HEAD_BYTES = 4096
#: the protocols `crewkg serve` may run: on httptools where it is installed (the service extra), else on h11
PROTOCOLS = {"h11": lambda: bounded_h11(1.0, 2.0), "httptools": lambda: bounded_httptools(1.0, 2.0, HEAD_BYTES)}


@pytest.fixture(params=sorted(PROTOCOLS))
def slow_guarded_server(request):
    import uvicorn

    if request.param == "httptools":
        pytest.importorskip("httptools")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(_echo, host="127.0.0.1", port=port, http=PROTOCOLS[request.param](),
                                           h11_max_incomplete_event_size=HEAD_BYTES, log_level="warning",
                                           loop="asyncio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + PATIENCE
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    assert server.started
    yield port
    server.should_exit = True
    thread.join(PATIENCE)


def _until_closed(conn: socket.socket) -> bytes:
    conn.settimeout(PATIENCE)
    got = b""
    while chunk := conn.recv(4096):
        got += chunk
    return got


def test_half_sent_requests_are_answered_408_and_closed(slow_guarded_server):
    port = slow_guarded_server
    heads = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    for i, conn in enumerate(heads):  # a head that never ends, or nothing at all
        if i % 3:
            conn.sendall(b"GET /x HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    for conn in heads:
        assert _until_closed(conn).startswith(b"HTTP/1.1 408 ")
        conn.close()


def test_a_body_that_stalls_ends_its_connection_and_a_whole_request_is_answered(slow_guarded_server):
    port = slow_guarded_server
    with socket.create_connection(("127.0.0.1", port)) as stalled:
        stalled.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nabc")
        assert _until_closed(stalled) == b""
    with socket.create_connection(("127.0.0.1", port)) as whole:
        whole.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        answer = _until_closed(whole)
    assert answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(b"\r\n\r\n1\r\n3\r\n0\r\n\r\n")  # chunked: "3"


def test_a_head_over_the_bound_is_refused_400_and_closed(slow_guarded_server):
    with socket.create_connection(("127.0.0.1", slow_guarded_server)) as conn:
        conn.sendall(b"GET /x HTTP/1.1\r\nHost: localhost\r\nX-Long: " + b"a" * (HEAD_BYTES + 1))
        assert _until_closed(conn).startswith(b"HTTP/1.1 400 ")
    with socket.create_connection(("127.0.0.1", slow_guarded_server)) as conn:  # a head just under it is answered
        head = b"GET /x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Long: "
        conn.sendall(head + b"a" * (HEAD_BYTES - len(head) - 4) + b"\r\n\r\n")
        assert _until_closed(conn).startswith(b"HTTP/1.1 200 ")


def test_a_long_body_and_the_next_request_in_one_read_are_both_answered(slow_guarded_server):
    # the bytes of the body before the second head are no part of that head: not refused as one over the bound
    body = b"x" * (3 * HEAD_BYTES)
    with socket.create_connection(("127.0.0.1", slow_guarded_server)) as conn:
        conn.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
                     + body + b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answers = _until_closed(conn)
    assert answers.count(b"HTTP/1.1 200 ") == 2 and str(len(body)).encode() in answers


def test_a_kept_alive_connection_has_its_head_deadline_again_after_each_answer(slow_guarded_server):
    with socket.create_connection(("127.0.0.1", slow_guarded_server)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\nGET / HTTP/1.1\r\nHost: lo")
        answers = _until_closed(conn)
    assert answers.startswith(b"HTTP/1.1 200 ") and b"HTTP/1.1 408 " in answers


def test_the_service_runs_on_httptools_where_it_is_installed_else_on_h11(monkeypatch):
    pytest.importorskip("httptools")
    assert bounded_http(1.0, 2.0, HEAD_BYTES).__name__ == "BoundedHttpToolsProtocol"
    monkeypatch.setitem(__import__("sys").modules, "httptools", None)  # not installed: importing it fails
    assert bounded_http(1.0, 2.0, HEAD_BYTES).__name__ == "BoundedH11Protocol"


class _Transport:
    def __init__(self):
        self.sent, self.closed = [], False

    def write(self, data):
        self.sent.append(data)

    def close(self):
        self.closed = True

    def is_closing(self):
        return self.closed

    def get_extra_info(self, name):
        return name


def test_an_answers_writes_leave_as_one_send_and_a_close_sends_what_is_written_first():
    import asyncio

    async def answer():
        transport = _Transport()
        coalesced = _Coalesced(transport, asyncio.get_running_loop())
        coalesced.write(b"HTTP/1.1 200 OK\r\n\r\n")
        coalesced.write(b"")
        coalesced.write(bytearray(b"body"))
        assert transport.sent == [] and coalesced.get_extra_info("peername") == "peername"
        await asyncio.sleep(0)
        assert transport.sent == [b"HTTP/1.1 200 OK\r\n\r\nbody"]
        coalesced.write(b"HTTP/1.1 200 OK\r\n\r\n")
        coalesced.write(b"whole")
        coalesced.flush()  # the protocol's, when the answer is complete: at once
        assert transport.sent[1:] == [b"HTTP/1.1 200 OK\r\n\r\nwhole"]
        await asyncio.sleep(0)
        coalesced.write(b"a" * _Coalesced.HELD)
        coalesced.write(b"b")  # past what is held: on to the transport at once
        assert transport.sent[2:] == [b"a" * _Coalesced.HELD + b"b"]
        await asyncio.sleep(0)
        coalesced.write(b"408")
        coalesced.close()
        coalesced.write(b"late")
        await asyncio.sleep(0)
        return transport

    transport = asyncio.run(answer())
    assert transport.sent[3:] == [b"408"] and transport.closed
