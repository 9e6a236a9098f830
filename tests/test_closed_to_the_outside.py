"""No query makes crewkg reach another host: SERVICE is refused before either store sees it, and FROM names a graph
of the store, never a download. A local listener proves that nothing connects."""

import socket
import threading

import pytest

from crewkg.service.query_refusals import MalformedQuery, ServiceRefused, refuse_service
from crewkg.service.stores import STORES, new_store

pytestmark = pytest.mark.xdist_group("test_closed_to_the_outside")  # its module fixtures are made once, on one worker


@pytest.fixture()
def listener():
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
            hits.append(conn.recv(1024))
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


@pytest.mark.parametrize("form", [
    "SELECT * {{ SERVICE <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}",
    "select * {{ service silent <http://127.0.0.1:{port}/x> {{ ?s ?p ?o }} }}",
    "PREFIX x: <http://127.0.0.1:{port}/>\nASK {{ ?s ?p ?o . SERVICE\n x:q {{ ?a ?b ?c }} }}",
    "CONSTRUCT {{ ?s ?p ?o }} WHERE {{ SERVICE <http://127.0.0.1:{port}/> {{ ?s ?p ?o }} }}",
])
def test_service_is_refused_and_nothing_connects(store, listener, form):
    port, hits = listener
    query = form.format(port=port)
    with pytest.raises(ServiceRefused, match="SERVICE"):
        store.select(query)
    with pytest.raises(MalformedQuery):  # the endpoint answers 400 for this class
        store.serialize(query, "application/sparql-results+json")
    assert hits == []


def test_from_names_a_graph_and_downloads_nothing(store, listener):
    port, hits = listener
    table = store.select(f"SELECT (COUNT(*) AS ?n) FROM <http://127.0.0.1:{port}/g.ttl> WHERE {{ ?s ?p ?o }}")
    assert table.rows is not None
    assert hits == []


@pytest.mark.parametrize("query", [
    "SELECT ?service { ?service a <urn:x:SERVICE> }",
    'SELECT * { ?s <urn:p> "SERVICE <http://127.0.0.1/>" } # SERVICE <x> {}',
    "PREFIX ex: <urn:ex:> SELECT * { ?s ex:service ?o }",
])
def test_the_word_elsewhere_is_no_service_clause(query):
    refuse_service(query)  # does not raise
