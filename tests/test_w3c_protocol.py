"""The W3C SPARQL 1.1 Protocol test suite (the `protocol` manifest of the W3C rdf-tests, copied unchanged into
tests/w3c_protocol/ with the data it names; requests.json is its list of requests, made by extract.py) against
`/sparql` on both stores. Every query test must pass; the update tests must be refused (the endpoint is read-only)
and leave the store as it was.

The manifest's tests name their data by http IRIs (`http://kasei.us/2009/09/sparql/data/data1.rdf`, …); the
fixture loads the copied N-Triples files as named graphs under exactly those names next to the ontology, the kb
and a person's records and derived facts — the service never downloads anything. Each test runs against a store
holding just the graphs it names (`ut:graphData`), so a dataset parameter that were ignored could not pass
by accident. The manifest's paths begin with `/sparql/`, which the manifest says to replace with the endpoint's
own path (`/sparql`)."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from rdflib import Graph, URIRef

from crewkg.records.persons import person_from_mapping
from crewkg.service.app import Service, create_app
from crewkg.service.loading import build_store
from crewkg.service.stores import STORES

pytestmark = pytest.mark.xdist_group("test_w3c_protocol")  # its module fixtures are made once, on one worker

HERE = Path(__file__).resolve().parent / "w3c_protocol"
TESTS = json.loads((HERE / "requests.json").read_text(encoding="utf-8"))
QUERY_TESTS = [t for t in TESTS if t["kind"] == "query"]
UPDATE_TESTS = [t for t in TESTS if t["kind"] == "update"]
AS_OF = date(2026, 11, 30)
SRX = "{http://www.w3.org/2005/sparql-results#}"

BOOLEAN = {"application/sparql-results+json", "application/sparql-results+xml"}
TABULAR = BOOLEAN | {"text/csv", "text/tab-separated-values"}
RDF = {"application/rdf+xml": "xml", "text/turtle": "turtle", "application/n-triples": "nt"}


@pytest.fixture(scope="module")
def clients(law):
    """A client per (store kind, graphs named by the test), built on first use; the query workers end with the
    module."""
    person = person_from_mapping({"id": "dora", "birth_date": "1990-01-01", "sailing_days": {"Decksmann": 400}},
                                 law, AS_OF, "w3c")
    apps, made = [], {}

    def client(kind: str, graph_data: list[dict]) -> TestClient:
        key = (kind, tuple(d["file"] for d in graph_data))
        if key not in made:
            store = build_store(kind, law, [person], AS_OF)
            for d in graph_data:
                store.load_file(HERE / d["file"], "nt", URIRef(d["name"]))
            app = create_app(Service(law, store, {person.id: person}, AS_OF))
            apps.append(app)
            made[key] = TestClient(app)
        return made[key]

    yield client
    for app in apps:
        app.fastapi.state.crewkg.runner.close()


def send(client: TestClient, req: dict):
    path = "/sparql" + req["path"].removeprefix("/sparql").rstrip("/")
    body = None if req["body"] is None else req["body"].encode(req["body_encoding"])
    return client.request(req["method"], path, params=req["params"], headers=req["headers"], content=body)


def _status_ok(status: int, expected: list[str]) -> bool:
    return f"{status // 100}xx" in expected


def _boolean(media: str, body: bytes) -> bool:
    if media == "application/sparql-results+json":
        return json.loads(body)["boolean"]
    text = ET.fromstring(body).find(f"{SRX}boolean").text
    return {"true": True, "false": False}[text.strip()]


def check(resp, expected: dict) -> None:
    """The manifest's expectations: a status class, a result format (boolean, tabular or RDF) and a boolean."""
    assert _status_ok(resp.status_code, expected["status"]), (resp.status_code, resp.text[:300])
    media = resp.headers.get("content-type", "").split(";")[0].strip()
    fmt = expected["format"]
    if fmt == "boolean":
        assert media in BOOLEAN, media
        value = _boolean(media, resp.content)
        if expected["boolean"] is not None:
            assert value is expected["boolean"]
    elif fmt == "tabular":
        assert media in TABULAR, media
        if media == "application/sparql-results+json":
            assert json.loads(resp.content)["results"]["bindings"] == [
                {"value": {"type": "literal", "value": "1", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}}]
        elif media in ("text/csv", "text/tab-separated-values"):
            assert list(csv.reader(io.StringIO(resp.text)))[0] in (["value"], ["?value"])
    elif fmt == "RDF":
        assert media in RDF, media
        Graph().parse(data=resp.content, format=RDF[media])  # well-formed in the format it names


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("test", QUERY_TESTS, ids=[t["id"] for t in QUERY_TESTS])
def test_query_tests_of_the_protocol_manifest(clients, kind, test):
    client = clients(kind, test["graph_data"])
    for req in test["requests"]:
        check(send(client, req), req["expected"])


def test_the_copy_holds_every_query_test_of_the_manifest():
    assert len(QUERY_TESTS) == 20 and len(UPDATE_TESTS) == 14
    assert {t["id"] for t in QUERY_TESTS} >= {"query_get", "query_post_form", "query_post_direct", "query_dataset_full",
                                               "query_multiple_dataset", "bad_query_non_utf8", "bad_query_method"}


@pytest.mark.parametrize("kind", STORES)
def test_a_dataset_parameter_is_honoured_not_ignored(clients, kind):
    """The control for the dataset tests: the same ASK the manifest sends, with one of its two default graphs
    left out of the protocol's dataset, is false."""
    test = next(t for t in QUERY_TESTS if t["id"] == "query_dataset_default_graphs_get")
    req = dict(test["requests"][0])
    req["params"] = [p for p in req["params"] if not p[1].endswith("data2.rdf")]
    resp = send(clients(kind, test["graph_data"]), req)
    assert resp.status_code == 200
    assert _boolean(resp.headers["content-type"].split(";")[0], resp.content) is False


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("test", UPDATE_TESTS, ids=[t["id"] for t in UPDATE_TESTS])
def test_update_tests_are_refused_and_change_nothing(clients, kind, test):
    """The endpoint is read-only: an update the manifest expects to succeed is refused with 403 (a malformed or
    misdirected one with 4xx, as the manifest expects), and the store keeps every graph it had."""
    client = clients(kind, [])
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    before = client.get("/sparql", params={"query": count}, headers={"accept": "text/csv"}).text
    first = test["requests"][0]
    resp = send(client, first)
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.text[:200])
    if first["expected"]["status"] != ["4xx"] and first["method"] == "POST":
        assert resp.status_code == 403, resp.text
    assert client.get("/sparql", params={"query": count}, headers={"accept": "text/csv"}).text == before
