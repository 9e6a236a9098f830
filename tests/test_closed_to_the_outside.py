"""No query makes crewkg reach another host or read a local file: SERVICE is refused on the parsed query before either
engine sees it, FROM names a graph of the store, never a download — and behind that refusal the engines themselves
cannot reach out: rdflib's SERVICE evaluation is a refusal, and Oxigraph evaluates a client's query only in a process
that can open no socket (issue 44). A listener on a loopback port counts every connection; each test asserts none."""

import socket
import threading
from datetime import date

import pytest
from typer.testing import CliRunner

from crewkg.cli.common import app as cli
from crewkg.service.query_refusals import MalformedQuery, ServiceRefused, refuse_service
from crewkg.service.sealing import CAN_SEAL, in_sealed_process
from crewkg.service.stores import STORES, ask, new_store

pytestmark = pytest.mark.xdist_group("test_closed_to_the_outside")  # its module fixtures are made once, on one worker


@pytest.fixture()
def listener():
    """A loopback port and the connections it received (the first bytes of each)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    hits: list[bytes] = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            conn.settimeout(2)
            try:
                hits.append(conn.recv(1024))
            except OSError:
                hits.append(b"")
            conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield srv.getsockname()[1], hits
    stop.set()
    t.join(1)
    srv.close()


@pytest.fixture(scope="module", params=STORES)
def store(request):
    return new_store(request.param)


#: the plain forms and every trick the tester used (issue 44): a comment ended by CR (Oxigraph's parser ends it
#: there, the old refusal only at LF), `<'>'` read as an IRI by the old refusal and as a comparison by the parsers,
#: a \\u escape that rdflib expands before parsing, and a `file:` IRI that rdflib opened with urllib
FORMS = {
    "plain": "SELECT * {{ SERVICE <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}",
    "silent_lower_case": "select * {{ service silent <http://127.0.0.1:{port}/x> {{ ?s ?p ?o }} }}",
    "prefixed_name": "PREFIX x: <http://127.0.0.1:{port}/>\nASK {{ ?s ?p ?o . SERVICE\n x:q {{ ?a ?b ?c }} }}",
    "construct": "CONSTRUCT {{ ?s ?p ?o }} WHERE {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
    "in_exists": "SELECT * {{ ?s ?p ?o FILTER EXISTS {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }} }}",
    "in_subquery": "SELECT * {{ {{ SELECT * {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }} }} }}",
    "comment_ended_by_cr": "SELECT ?x {{ #\rSERVICE <http://127.0.0.1:{port}/> {{?x ?p ?o}} }}",
    "lt_quote_gt": "SELECT ?l {{ BIND('0' AS ?a) FILTER(?a<'>') SERVICE <http://127.0.0.1:{port}/> {{?l ?p ?o}} "
                   "FILTER(?a!='') }}",
    "unicode_escape": "SELECT * {{ \\u0053ERVICE <http://127.0.0.1:{port}/> {{?s ?p ?o}} }}",
    "file_iri": "SELECT * {{ SERVICE <file:///etc/hostname> {{?s ?p ?o}} }}",
    # found while closing it: rdflib compares a keyword's upper case, so a long s and a dotless i spell SERVICE to it
    "long_s": "SELECT * {{ \u017fERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
    "dotless_i": "SELECT * {{ SERV\u0131CE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
    "escaped_long_s": "SELECT * {{ \\u017FERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
}


@pytest.mark.parametrize("form", FORMS)
def test_service_is_refused_and_nothing_connects(store, listener, form):
    port, hits = listener
    query = FORMS[form].format(port=port)
    with pytest.raises(ServiceRefused, match="SERVICE"):
        store.select(query)
    with pytest.raises(ServiceRefused):  # a MalformedQuery: the endpoint answers 400
        store.serialize(query, "application/sparql-results+json")
    with pytest.raises(ServiceRefused):  # as `crewkg sparql` asks: Oxigraph in a sealed child process
        ask(store, query)
    assert hits == []


def test_a_service_refusal_is_a_malformed_query():
    assert issubclass(ServiceRefused, MalformedQuery)


def test_from_names_a_graph_and_downloads_nothing(store, listener):
    port, hits = listener
    table = store.select(f"SELECT (COUNT(*) AS ?n) FROM <http://127.0.0.1:{port}/g.ttl> WHERE {{ ?s ?p ?o }}")
    assert table.rows is not None
    assert int(store.select("SELECT (COUNT(*) AS ?n) FROM <file:///etc/hostname> WHERE { ?s ?p ?o }").rows[0][0]) == 0
    assert hits == []


@pytest.mark.parametrize("query", [
    "SELECT ?service { ?service a <urn:x:SERVICE> }",
    'SELECT * { ?s <urn:p> "SERVICE <http://127.0.0.1/>" } # SERVICE <x> {}',
    "PREFIX ex: <urn:ex:> SELECT * { ?s ex:service ?o }",
    "SELECT * { ?s ?p ?o } # SERVICE <http://127.0.0.1/> { ?s ?p ?o }\n",
])
def test_the_word_elsewhere_is_no_service_clause(store, query):
    refuse_service(query)  # does not raise
    store.select(query)  # and both stores answer it


# ---- the engines themselves, whatever a parser lets through --------------------------------------------------------

def test_rdflib_cannot_evaluate_service_even_unrefused(listener):
    """rdflib's own SERVICE evaluation (urllib, `file:` included) is closed once the memory store is imported."""
    from rdflib import Dataset

    import crewkg.service.memory_store  # noqa: F401 - closes rdflib's engine

    port, hits = listener
    for iri in (f"http://127.0.0.1:{port}/", "file:///etc/hostname"):
        with pytest.raises(ServiceRefused):
            list(Dataset().query(f"SELECT * {{ SERVICE <{iri}> {{ ?s ?p ?o }} }}"))
    assert hits == []


def test_the_listener_counts_an_unsealed_engine(listener):
    """The listener sees a connection when nothing stops it (so its zero above means something): plain pyoxigraph,
    in this unsealed process, calls it."""
    import pyoxigraph as ox

    port, hits = listener
    assert _evaluated(ox.Store(), f"SELECT * {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}").startswith(
        "refused")  # the listener answers nothing SPARQL can read
    assert len(hits) == 1 and hits[0].startswith((b"POST", b"GET"))


def _evaluated(store, query):
    """pyoxigraph's answer as text, or its error (caught here: its results object must not outlive this thread)."""
    try:
        return [s[0].value for s in store.query(query)]
    except OSError as exc:
        return f"refused: {exc}"


@pytest.mark.skipif(not CAN_SEAL, reason="sealing needs Linux seccomp on x86-64 or AArch64")
def test_a_sealed_process_cannot_reach_out(listener):
    """In a sealed process pyoxigraph's SERVICE call fails at the socket, unrefused by any parser: no connection,
    no name lookup, and a plain query still answers."""
    import pyoxigraph as ox

    port, hits = listener

    def evaluate(query):
        return _evaluated(ox.Store(), query)

    said = in_sealed_process(evaluate, f"SELECT * {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}")
    assert said.startswith("refused") and "os error 13" in said
    said = in_sealed_process(evaluate, "SELECT * { SERVICE <http://sealed.invalid/> { ?s ?p ?o } }")
    assert said.startswith("refused")
    assert in_sealed_process(evaluate, "SELECT ?x { VALUES ?x { 1 } }") == ["1"]
    assert hits == []


@pytest.mark.skipif(not CAN_SEAL, reason="sealing needs Linux seccomp on x86-64 or AArch64")
def test_the_service_query_workers_are_sealed(listener, monkeypatch):
    """With the refusal on the parsed query taken away, the service's Oxigraph worker still makes no connection and
    the endpoint still refuses: the zygote the workers are forked from is sealed."""
    from crewkg.service import oxigraph_store
    from crewkg.service.querying import CAN_ISOLATE, QueryRunner

    if not CAN_ISOLATE:
        pytest.skip("query workers need fork, pidfds and fd passing")
    monkeypatch.setattr(oxigraph_store, "refuse_service", lambda query: None)
    port, hits = listener
    runner = QueryRunner(new_store("oxigraph"), timeout=20.0, slots=1)
    try:
        with pytest.raises(ServiceRefused):
            runner.run(f"SELECT * {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}", None)
        body, _ = runner.run("ASK {}", "application/sparql-results+json")
        assert b"true" in body
    finally:
        runner.close()
    assert hits == []


# ---- the faces: the endpoint and the CLI ----------------------------------------------------------------------------

@pytest.fixture(scope="module", params=STORES)
def client(request, law):
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app

    served = create_app(Service(law, new_store(request.param), {}, date(2026, 11, 30)))
    with TestClient(served) as c:
        yield c
    served.fastapi.state.crewkg.runner.close()


@pytest.mark.parametrize("form", FORMS)
def test_the_endpoint_refuses_service_in_its_language(client, listener, form):
    port, hits = listener
    query = FORMS[form].format(port=port)
    r = client.post("/sparql", data={"query": query}, headers={"Accept": "application/sparql-results+json"})
    assert r.status_code == 400, r.text
    assert "SERVICE" in r.text and "network" in r.text
    r = client.get("/sparql", params={"query": query, "lang": "de"})
    assert r.status_code == 400 and "Netzwerkanfrage" in r.text
    assert hits == []


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("form", ["plain", "comment_ended_by_cr", "lt_quote_gt", "unicode_escape", "file_iri"])
def test_crewkg_sparql_refuses_service(listener, kind, form):
    port, hits = listener
    result = CliRunner().invoke(cli, ["sparql", FORMS[form].format(port=port), "--store", kind])
    assert result.exit_code == 2, result.output
    assert "field 'query'" in result.stderr and "SERVICE" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert hits == []


def test_load_from_and_the_protocols_dataset_fetch_nothing(client, listener):
    """LOAD is an update (refused with every update); FROM, FROM NAMED and the protocol's dataset parameters name
    graphs of the store: none of them is downloaded."""
    port, hits = listener
    iri = f"http://127.0.0.1:{port}/g.ttl"
    r = client.post("/sparql", content=f"LOAD <{iri}>".encode(), headers={"Content-Type": "application/sparql-update"})
    assert r.status_code == 403
    r = client.post("/sparql", data={"update": f"LOAD <{iri}> INTO GRAPH <urn:g>"})
    assert r.status_code == 403
    for query in (f"ASK FROM <{iri}> {{ ?s ?p ?o }}", f"ASK FROM NAMED <{iri}> {{ GRAPH ?g {{ ?s ?p ?o }} }}"):
        assert client.get("/sparql", params={"query": query}).status_code == 200
    r = client.get("/sparql", params={"query": "ASK { ?s ?p ?o }", "default-graph-uri": iri, "named-graph-uri": iri})
    assert r.status_code == 200
    assert hits == []
