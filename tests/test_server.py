"""`crewkg serve` as clients see it: a server on a free loopback port (a subprocess, one per store), queried with
SPARQLWrapper (a real SPARQL client) and httpx. The endpoint answers SELECT with the right bindings, refuses
updates with 4xx, answers malformed queries with 400 and the parser's message, refuses over-long queries and
passes its limits to the service; the JSON API gives the same answers as the CLI; the pages use only the package's assets."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
import urllib.error
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
import yaml
from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed
from typer.testing import CliRunner

from crewkg.cli.common import app
from servers import Served, free_port

pytestmark = pytest.mark.xdist_group("test_server")  # its module fixtures are made once, on one worker

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
VESSEL = EXAMPLES.parent / "vessels" / "01-ms-wachau-danube-day-trip.yaml"
SHORT_ROSTER = EXAMPLES.parent / "rosters" / "01-ms-wachau-short.yaml"
HAS_MANNING = True  # every module ships; kept so the crew tests read as before
MAX_QUERY = 4000
#: long enough for every ordinary query on a loaded machine (a DISTINCT over the whole derived graph took more than 5 s
#: with both cores taken by other work); runaway queries are stopped in process (tests/test_sparql_load.py)
TIMEOUT = 60.0
PERSON = "https://w3id.org/crewkg/person/"
STEUERMANN = """PREFIX crew: <https://w3id.org/crewkg/onto#>
PREFIX kb: <https://w3id.org/crewkg/kb/>
SELECT ?person WHERE { ?e crew:forCertificate kb:UBZ-Steuermann ; crew:eligible true ; crew:evaluatedPerson ?person }"""
STEUERMANN_PERSONS = {"eva-schneider", "henrik-jansen", "jonas-leitner", "katharina-pichler"}
MALFORMED = "SELECT ?x WHERE { ?x ?y }"
#: a Bootsmann holder toward the Steuermann UBZ: § 14 Z 1 SchBV needs 180 days as Bootsmann and a radio certificate
BOOTSMANN = {"id": "maria", "birth_date": "1998-02-10", "medical_fitness": True, "radio_certificate": True,
             "certificates": ["UBZ-Bootsmann"], "sailing_days": {"Matrose": 400, "Bootsmann": 179}}


class Server(Served):
    """`crewkg serve` over the example persons and a crew check, with the limits the tests below probe."""

    def __init__(self, tmp: Path, store: str) -> None:
        args = ["--data", str(EXAMPLES), "--as-of", "2026-11-30", "--store", store, "--timeout", str(TIMEOUT),
                "--max-query-bytes", str(MAX_QUERY), "--max-body-bytes", "200000"]  # no --host: loopback is the default
        if HAS_MANNING:
            args += ["--crew", f"{VESSEL}:{SHORT_ROSTER}"]
        super().__init__(tmp, args, f"serve-{store}")


@pytest.fixture(scope="module", params=["memory", "oxigraph"])
def server(request, tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp(f"serve-{request.param}"), request.param)
    srv.store = request.param
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def wrapper(server, query: str, method: str | None = None) -> SPARQLWrapper:
    w = SPARQLWrapper(server.url + "/sparql")
    w.setQuery(query)
    w.setReturnFormat(JSON)
    if method:
        w.setMethod(method)
    return w


def persons_of(bindings: list[dict]) -> set[str]:
    return {b["person"]["value"][len(PERSON):] for b in bindings}


# ------------------------------------------------------------------------------------------------------
# SPARQL 1.1 Protocol
# ------------------------------------------------------------------------------------------------------
def test_sparqlwrapper_select_returns_who_can_be_issued_the_Steuermann_UBZ(server):
    for method in (None, POST):
        result = wrapper(server, STEUERMANN, method).query().convert()
        assert result["head"]["vars"] == ["person"]
        assert persons_of(result["results"]["bindings"]) == STEUERMANN_PERSONS


def test_httpx_get_post_form_and_post_query_give_the_same_bindings(client):
    accept = {"Accept": "application/sparql-results+json"}
    answers = [
        client.get("/sparql", params={"query": STEUERMANN}, headers=accept),
        client.post("/sparql", data={"query": STEUERMANN}, headers=accept),
        client.post("/sparql", content=STEUERMANN.encode(), headers=accept | {"Content-Type": "application/sparql-query"}),
    ]
    for r in answers:
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/sparql-results+json")
        assert persons_of(r.json()["results"]["bindings"]) == STEUERMANN_PERSONS


def test_results_as_xml_and_csv_by_accept(client):
    xml = client.get("/sparql", params={"query": STEUERMANN}, headers={"Accept": "application/sparql-results+xml"})
    assert xml.status_code == 200 and "sparql-results+xml" in xml.headers["content-type"]
    ns = {"s": "http://www.w3.org/2005/sparql-results#"}
    uris = {u.text[len(PERSON):] for u in ET.fromstring(xml.content).findall(".//s:binding/s:uri", ns)}
    assert uris == STEUERMANN_PERSONS
    csv = client.get("/sparql", params={"query": STEUERMANN}, headers={"Accept": "text/csv"})
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    lines = csv.text.strip().splitlines()
    assert lines[0] == "person" and {line.strip()[len(PERSON):] for line in lines[1:]} == STEUERMANN_PERSONS


def test_ask_and_construct(client):
    ask = client.get("/sparql", params={"query": "ASK { kb:UBZ-Steuermann a crew:Certificate }"})
    assert ask.status_code == 200 and ask.json()["boolean"] is True
    graph = client.get("/sparql", params={"query": "CONSTRUCT { ?c crew:provision ?p } WHERE { ?c a crew:Certificate ; crew:provision ?p }"},
                       headers={"Accept": "text/turtle"})
    assert graph.status_code == 200 and graph.headers["content-type"].startswith("text/turtle")
    from rdflib import Graph

    assert len(Graph().parse(data=graph.text, format="turtle")) >= 8


def test_an_unacceptable_media_type_gets_406(client):
    assert client.get("/sparql", params={"query": STEUERMANN}, headers={"Accept": "image/png"}).status_code == 406


def test_sparqlwrapper_insert_is_refused_with_4xx_and_changes_nothing(server, client):
    insert = "PREFIX kb: <https://w3id.org/crewkg/kb/> INSERT DATA { kb:intruder kb:says kb:hello }"
    w = SPARQLWrapper(server.url + "/sparql")
    w.setQuery(insert)
    w.setMethod(POST)
    with pytest.raises(urllib.error.HTTPError) as refused:
        w.query()
    assert 400 <= refused.value.code < 500
    for r in (client.post("/sparql", data={"update": insert}),
              client.post("/sparql", content=insert.encode(), headers={"Content-Type": "application/sparql-update"}),
              client.post("/sparql", data={"query": insert}),
              client.get("/sparql", params={"query": "DELETE WHERE { ?s ?p ?o }"}),
              client.get("/sparql", params={"update": "CLEAR DEFAULT"})):
        assert 400 <= r.status_code < 500, r.text
        assert "read-only" in r.text
    still = client.get("/sparql", params={"query": "ASK { <https://w3id.org/crewkg/kb/intruder> ?p ?o }"}).json()
    assert still["boolean"] is False
    assert persons_of(client.get("/sparql", params={"query": STEUERMANN}).json()["results"]["bindings"]) == STEUERMANN_PERSONS


def _parser_message(store: str, query: str) -> str:
    """What the store's own SPARQL parser says about the query."""
    if store == "memory":
        from rdflib.plugins.sparql import prepareQuery

        try:
            prepareQuery(query)
        except Exception as exc:
            return str(exc).strip()
    else:
        import pyoxigraph

        try:
            pyoxigraph.Store().query(query)
        except SyntaxError as exc:
            return str(exc).strip()
    raise AssertionError("the query parsed")


def test_a_malformed_query_gets_400_with_the_parsers_message(server, client):
    expected = _parser_message(server.store, MALFORMED)
    r = client.get("/sparql", params={"query": MALFORMED})
    assert r.status_code == 400
    assert expected in r.text
    with pytest.raises(QueryBadFormed) as bad:
        wrapper(server, MALFORMED).query()
    assert expected.splitlines()[0] in str(bad.value)


def test_an_over_long_query_is_refused(server, client):
    long_query = STEUERMANN + "\n#" + "x" * MAX_QUERY
    assert client.get("/sparql", params={"query": long_query}).status_code == 414
    r = client.post("/sparql", data={"query": long_query})
    assert r.status_code == 413 and "query too long" in r.text
    with pytest.raises(urllib.error.HTTPError) as refused:
        wrapper(server, long_query, POST).query()
    assert refused.value.code == 413
    # just under the limit is fine
    ok = STEUERMANN + "\n#" + "x" * (MAX_QUERY - len(STEUERMANN.encode()) - 3)
    assert client.post("/sparql", data={"query": ok}).status_code == 200


def test_an_over_large_request_body_is_refused(client):
    r = client.post("/api/eligibility", content=b"{" + b" " * 300_000 + b"}", headers={"Content-Type": "application/json"})
    assert r.status_code == 413


GRAPH = "https://w3id.org/crewkg/graph/"
COUNT_CERTIFICATES = "SELECT (COUNT(*) AS ?n) WHERE { ?c a <https://w3id.org/crewkg/onto#Certificate> }"
NAMED = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
JSON_RESULTS = {"Accept": "application/sparql-results+json"}


def _count(r) -> int:
    assert r.status_code == 200, r.text
    return int(r.json()["results"]["bindings"][0]["n"]["value"])


def _graphs(r) -> set[str]:
    assert r.status_code == 200, r.text
    return {b["g"]["value"] for b in r.json()["results"]["bindings"]}


# The requests of the W3C SPARQL 1.1 Protocol test suite's query tests (rdf-tests, sparql11/protocol), written
# against this endpoint's own graphs: the dataset parameters, GET / POST form / POST direct, one `query` only.
def test_protocol_default_graph_uri_chooses_the_default_graph(client):
    kb_only = _count(client.get("/sparql", params={"query": COUNT_CERTIFICATES, "default-graph-uri": GRAPH + "kb"}, headers=JSON_RESULTS))
    onto_only = _count(client.get("/sparql", params={"query": COUNT_CERTIFICATES, "default-graph-uri": GRAPH + "ontology"},
                                  headers=JSON_RESULTS))
    assert kb_only > 5 and onto_only == 0
    posted = client.post("/sparql", data={"query": COUNT_CERTIFICATES, "default-graph-uri": GRAPH + "kb"}, headers=JSON_RESULTS)
    assert _count(posted) == kb_only
    direct = client.post("/sparql", params={"default-graph-uri": GRAPH + "kb"}, content=COUNT_CERTIFICATES,
                         headers=JSON_RESULTS | {"Content-Type": "application/sparql-query"})
    assert _count(direct) == kb_only


def test_protocol_named_graph_uri_chooses_the_named_graphs(client):
    one = client.get("/sparql", params={"query": NAMED, "named-graph-uri": GRAPH + "kb"}, headers=JSON_RESULTS)
    assert _graphs(one) == {GRAPH + "kb"}
    two = client.post("/sparql", data={"query": NAMED, "named-graph-uri": [GRAPH + "kb", GRAPH + "ontology"]}, headers=JSON_RESULTS)
    assert _graphs(two) == {GRAPH + "kb", GRAPH + "ontology"}
    full = client.get("/sparql", params={"query": NAMED, "default-graph-uri": GRAPH + "records",
                                         "named-graph-uri": GRAPH + "derived"}, headers=JSON_RESULTS)
    assert _graphs(full) == {GRAPH + "derived"}
    # the protocol's dataset wins over the query's FROM NAMED (§ 2.1.4)
    from_named = f"SELECT DISTINCT ?g FROM NAMED <{GRAPH}ontology> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}"
    wins = client.get("/sparql", params={"query": from_named, "named-graph-uri": GRAPH + "kb"}, headers=JSON_RESULTS)
    assert _graphs(wins) == {GRAPH + "kb"}


def test_protocol_two_query_parameters_are_refused(client):
    assert client.get("/sparql", params=[("query", STEUERMANN), ("query", COUNT_CERTIFICATES)]).status_code == 400
    assert client.post("/sparql", data={"query": [STEUERMANN, COUNT_CERTIFICATES]}).status_code == 400


def test_protocol_update_dataset_parameters_are_refused(client):
    r = client.get("/sparql", params={"query": STEUERMANN, "using-graph-uri": GRAPH + "kb"})
    assert r.status_code == 400


def test_answers_vary_with_accept(client):
    r = client.get("/sparql", params={"query": STEUERMANN}, headers=JSON_RESULTS)
    assert r.status_code == 200 and r.headers["vary"] == "Accept"
    refused = client.get("/sparql", params={"query": STEUERMANN}, headers={"Accept": "image/png"})
    assert refused.status_code == 406 and refused.headers["vary"] == "Accept"


# ------------------------------------------------------------------------------------------------------
# Client matrix: rdflib's SPARQLStore (plain and with a named graph) and a Node client (tests/clients/)
# ------------------------------------------------------------------------------------------------------
CREW = "https://w3id.org/crewkg/onto#"
KB = "https://w3id.org/crewkg/kb/"


def _sparqlstore(server, identifier=None):
    from rdflib import Graph
    from rdflib.plugins.stores.sparqlstore import SPARQLStore

    store = SPARQLStore(server.url + "/sparql")
    return Graph(store=store, identifier=identifier) if identifier else Graph(store=store)


def test_rdflib_sparqlstore_select_ask_construct_describe(server):
    from rdflib import URIRef

    g = _sparqlstore(server)
    rows = g.query(STEUERMANN)
    assert {str(r.person)[len(PERSON):] for r in rows} == STEUERMANN_PERSONS
    assert g.query(f"ASK {{ <{KB}UBZ-Steuermann> a <{CREW}Certificate> }}").askAnswer is True
    assert g.query(f"ASK {{ <{KB}UBZ-Nobody> a <{CREW}Certificate> }}").askAnswer is False
    built = g.query(f"CONSTRUCT {{ ?c <{CREW}provision> ?p }} WHERE {{ ?c a <{CREW}Certificate> ; <{CREW}provision> ?p }}").graph
    assert (URIRef(KB + "UBZ-Steuermann"), URIRef(CREW + "provision"), None) in built and len(built) >= 8
    described = g.query(f"DESCRIBE <{KB}UBZ-Steuermann>").graph
    assert (URIRef(KB + "UBZ-Steuermann"), None, URIRef(CREW + "Certificate")) in described
    # the store's triple interface (a SELECT rdflib writes itself)
    assert (URIRef(KB + "UBZ-Steuermann"), None, URIRef(CREW + "Certificate")) in g


def test_rdflib_sparqlstore_with_a_named_graph_sees_that_graph_only(server):
    """Graph(store, identifier=IRI) sends default-graph-uri: the kb holds the certificates, the ontology none."""
    from rdflib import URIRef

    count = f"SELECT (COUNT(*) AS ?n) WHERE {{ ?c a <{CREW}Certificate> }}"
    kb = _sparqlstore(server, URIRef(GRAPH + "kb"))
    onto = _sparqlstore(server, URIRef(GRAPH + "ontology"))
    records = _sparqlstore(server, URIRef(GRAPH + "records"))
    whole = int(next(iter(_sparqlstore(server).query(count))).n)
    assert int(next(iter(kb.query(count))).n) == whole > 5
    assert int(next(iter(onto.query(count))).n) == 0
    assert kb.query(f"ASK {{ <{KB}UBZ-Steuermann> a <{CREW}Certificate> }}").askAnswer is True
    assert records.query(f"ASK {{ <{KB}UBZ-Steuermann> a <{CREW}Certificate> }}").askAnswer is False
    assert len(kb.query(f"CONSTRUCT {{ ?c a <{CREW}Certificate> }} WHERE {{ ?c a <{CREW}Certificate> }}").graph) == whole
    assert (URIRef(KB + "UBZ-Steuermann"), None, URIRef(CREW + "Certificate")) in kb
    assert (URIRef(KB + "UBZ-Steuermann"), None, URIRef(CREW + "Certificate")) not in records


CLIENTS = Path(__file__).resolve().parent / "clients"


@pytest.fixture(scope="session")
def node():
    """Node with the client of tests/clients/package-lock.json (installed there by `npm ci` when missing); the test
    is skipped where node or npm is absent or the install fails (no registry)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        pytest.skip("node and npm are not installed: the Node SPARQL client is not run")
    if not (CLIENTS / "node_modules" / "fetch-sparql-endpoint").is_dir():
        try:
            done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=CLIENTS,
                                  capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            pytest.skip("npm ci took over 5 minutes: the Node SPARQL client is not run")
        if done.returncode != 0:
            pytest.skip(f"npm ci failed, the Node SPARQL client is not run: {done.stderr[-300:]}")
    return node


def test_a_node_sparql_client_reads_every_query_form(server, node):
    """fetch-sparql-endpoint (npm), by POST and by GET: SELECT, ASK, CONSTRUCT and DESCRIBE answers it can read."""
    done = subprocess.run([node, str(CLIENTS / "sparql-client.mjs"), server.url + "/sparql", STEUERMANN],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {p[len(PERSON):] for p in report["select"]} == STEUERMANN_PERSONS
    assert report["ask"] is True and report["askFalse"] is False
    assert report["construct"] >= 8 and report["describe"] >= 3
    assert report["malformed"] == 400


# ------------------------------------------------------------------------------------------------------
# JSON API
# ------------------------------------------------------------------------------------------------------
def _cli_answer(tmp_path, record) -> dict:
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(("days", "eligible"), [(179, False), (180, True)])
def test_eligibility_api_at_the_threshold_of_paragraph_14_Z1_equals_the_cli(client, tmp_path, days, eligible):
    record = {**BOOTSMANN, "sailing_days": {"Matrose": 400, "Bootsmann": days}}
    r = client.post("/api/eligibility", params={"as_of": "2026-11-30"}, json=record)
    assert r.status_code == 200
    answer = r.json()
    steuermann = next(c for c in answer["certificates"] if c["id"] == "UBZ-Steuermann")
    assert steuermann["eligible"] is eligible
    z1 = next(w for w in steuermann["pathways"] if w["provision"] == "§ 14 Z 1 SchBV")
    if not eligible:
        assert [(m["provision"], m["needed"], m["have"]) for m in z1["missing"]] == [("§ 14 Z 1 lit. a SchBV", 180, 179)]
    assert answer == _cli_answer(tmp_path, record)


def test_bad_records_get_422_naming_the_field(client):
    r = client.post("/api/eligibility", json={"id": "x", "sailing_days": {"Bootsmann": -1}})
    assert r.status_code == 422
    assert r.json()["field"] == "sailing_days.Bootsmann" and "not negative" in r.json()["error"]
    assert client.post("/api/eligibility", content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 422
    assert client.post("/api/eligibility", params={"as_of": "30.11.2026"}, json=BOOTSMANN).json()["field"] == "as_of"


def test_upload_of_a_turtle_record(client):
    path = EXAMPLES / "12-markus-sea-to-boatmaster-programme.ttl"
    r = client.post("/api/eligibility/upload", params={"as_of": "2026-11-30"},
                    files={"file": (path.name, path.read_bytes(), "text/turtle")})
    assert r.status_code == 200, r.text
    sf = next(c for c in r.json()["certificates"] if c["id"] == "UBZ-Schiffsfuehrer")
    assert sf["eligible"] is True
    assert [w["provision"] for w in sf["pathways"] if w["satisfied"]] == ["§ 15 Z 4 SchBV"]
    bad = client.post("/api/eligibility/upload", files={"file": ("x.txt", b"id: x", "text/plain")})
    assert bad.status_code == 422 and "x.txt" in bad.json()["error"]


def test_explain_quotes_the_provision_and_gives_the_cli_text(client):
    record = {**BOOTSMANN, "sailing_days": {"Matrose": 400, "Bootsmann": 140}}
    r = client.post("/api/explain", params={"certificate": "UBZ-Steuermann", "as_of": "2026-11-30"}, json=record)
    assert r.status_code == 200
    data = r.json()
    z1 = next(w for w in data["certificate"]["pathways"] if w["provision"] == "§ 14 Z 1 SchBV")
    lit_a = next(q for q in z1["requirements"] if q["provision"] == "§ 14 Z 1 lit. a SchBV")
    assert "als Bootsfrau bzw. Bootsmann geleistete Mindestfahrzeit von 180 Tagen" in lit_a["wording"]
    assert "sailing_days.Bootsmann = 140" in data["text"]
    tree = data["tree"]  # the derivation as data, as `crewkg explain --format json` prints it
    assert (tree["certificate"]["id"], tree["as_of"], tree["verdict"]) == ("UBZ-Steuermann", "2026-11-30", "not_eligible")
    assert [w["provision"] for w in tree["pathways"]] == [w["provision"] for w in data["certificate"]["pathways"]]
    assert client.post("/api/explain", params={"certificate": "UBZ-Kapitaen"}, json=record).status_code == 422


def test_concurrent_requests_get_their_own_answers(client):
    """Requests are evaluated in shared Datalog batches; two records with the same id must not mix."""
    results: dict[int, dict] = {}

    def ask(days: int) -> None:
        record = {**BOOTSMANN, "id": "same", "sailing_days": {"Matrose": 400, "Bootsmann": days}}
        with httpx.Client(base_url=str(client.base_url), timeout=60) as c:
            results[days] = c.post("/api/eligibility", params={"as_of": "2026-11-30"}, json=record).json()

    threads = [threading.Thread(target=ask, args=(d,)) for d in range(170, 190)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for days, answer in results.items():
        assert answer["person"] == "same"
        steuermann = next(c for c in answer["certificates"] if c["id"] == "UBZ-Steuermann")
        assert steuermann["eligible"] is (days >= 180), days
        z1 = next(w for w in steuermann["pathways"] if w["provision"] == "§ 14 Z 1 SchBV")
        assert z1["requirements"][0]["have"] == days
    assert len(results) == 20


def test_loaded_persons_and_canned_queries_are_listed(client):
    ids = {p["id"] for p in client.get("/api/persons").json()}
    assert "anna" in ids and len(ids) == len([p for p in EXAMPLES.iterdir() if p.suffix in {".yaml", ".json", ".ttl"}])
    anna = client.get("/api/persons/anna").json()
    assert anna["as_of"] == "2026-11-30" and anna["roles"] == ["Decksmann", "Leichtmatrose", "Matrose"]
    assert client.get("/api/persons/nobody").status_code == 404
    names = {q["name"] for q in client.get("/api/queries").json()}
    assert {"eligible-steuermann", "within-30-days-of-fahrzeit"} <= names


def test_plan_endpoint_where_the_careers_modules_exist(client):
    if not client.get("/health").json()["optional"]["plan"]:
        pytest.skip("crewkg.planning is not installed: /api/plan is left out")
    record = {**BOOTSMANN, "sailing_days": {"Matrose": 400, "Bootsmann": 140}}
    r = client.post("/api/plan", params={"target": "UBZ-Steuermann", "as_of": "2026-11-30"}, json=record)
    assert r.status_code == 200, r.text
    routes = r.json()["routes"]
    assert routes and routes[0]["steps"][-1]["certificate"] == "UBZ-Steuermann"
    assert client.post("/api/plan", params={"target": "UBZ-Kapitaen"}, json=record).status_code == 422
    # a SchBV 2022 target on a day the SchBesV 2004 governs: refused, not a server error
    old_law = client.post("/api/plan", params={"target": "UBZ-Steuermann", "as_of": "2015-06-01"}, json=record)
    assert old_law.status_code == 422 and "2022-01-17" in old_law.text, old_law.text


@pytest.mark.skipif(not HAS_MANNING, reason="crewkg.manning is not installed: /api/crew is left out")
def test_crew_api_gives_the_answer_of_crewkg_crew(client):
    vessel, roster = (json.loads(json.dumps(yaml.safe_load(p.read_text(encoding="utf-8")), default=str))
                      for p in (VESSEL, SHORT_ROSTER))  # YAML dates as the ISO strings a JSON client sends
    r = client.post("/api/crew", params={"as_of": "2026-11-30"}, json={"vessel": vessel, "roster": roster})
    assert r.status_code == 200, r.text
    answer = r.json()
    cli = CliRunner().invoke(app, ["crew", str(VESSEL), "--roster", str(SHORT_ROSTER), "--as-of", "2026-11-30", "--format", "json"])
    assert cli.exit_code == 1, cli.output  # the roster is short: the status says so, the answer is the same
    expected = json.loads(cli.stdout)
    # crewkg.manning lists its notes in an order that varies between processes; compare them as a set
    assert sorted(answer.pop("notes")) == sorted(expected.pop("notes"))
    assert answer == expected
    assert answer["provision"] == "§ 43 Abs. 2 Z 1 SchBV" and answer["roster"]["satisfied"] is False
    assert client.post("/api/crew", json={"vessel": {**vessel, "passengers": -1}}).status_code == 422


@pytest.mark.skipif(not HAS_MANNING, reason="crewkg.manning is not installed: no --crew")
def test_sparqlwrapper_asks_which_rosters_fail(server):
    from crewkg.service.canned import canned_queries

    query = next(q.text for q in canned_queries() if q.name == "rosters-failing")
    bindings = wrapper(server, query).query().convert()["results"]["bindings"]
    assert {(b["roster"]["value"], b["gap"]["value"]) for b in bindings} == {
        ("01-ms-wachau-short", "Matrose"), ("01-ms-wachau-short", "FahrgastErsthelfer"), ("01-ms-wachau-short", "FirstAid")}


def test_the_pages_report_has_missing_sentences_and_the_career_graph_with_the_route(client):
    record = {**BOOTSMANN, "sailing_days": {"Matrose": 400, "Bootsmann": 140}}
    r = client.post("/api/report", params={"as_of": "2026-11-30", "target": "UBZ-Steuermann"}, json=record)
    assert r.status_code == 200, r.text
    data = r.json()
    steuermann = next(c for c in data["view"]["certificates"] if c["id"] == "UBZ-Steuermann")
    z1 = next(w for w in steuermann["pathways"] if w["provision"] == "§ 14 Z 1 SchBV")
    assert [m["sentence"] for m in z1["missing"]] == ["noch 40 Tage Fahrzeit als Bootsfrau bzw. Bootsmann (§ 14 Z 1 lit. a SchBV)"]
    if not client.get("/health").json()["optional"]["career_graph"]:
        assert data["career"] is None and "crewkg.careers" in data["career_note"]
        return
    assert data["career_note"] is None, data["career_note"]
    import base64

    svg = base64.b64decode(data["career"]["svg"]).decode("utf-8")
    assert "<svg" in svg and data["career"]["target"] == "UBZ-Steuermann"
    assert data["career"]["steps"][-1]["certificate"] == "UBZ-Steuermann"
    assert client.post("/api/report", params={"target": "UBZ-Kapitaen"}, json=record).status_code == 422


def test_openapi_documents_the_api(client):
    spec = client.get("/openapi.json").json()
    for path in ("/sparql", "/api/eligibility", "/api/eligibility/upload", "/api/explain", "/api/report", "/api/terms"):
        assert path in spec["paths"], path
    assert "birth_date" in json.dumps(spec["paths"]["/api/eligibility"]["post"]["requestBody"])
    assert client.get("/docs").status_code == 200


# ------------------------------------------------------------------------------------------------------
# Pages and service behaviour
# ------------------------------------------------------------------------------------------------------
def test_pages_load_only_assets_served_by_the_package(client):
    seen = set()
    for page in ("/", "/queries", "/docs"):
        r = client.get(page)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        refs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
        assert refs
        for ref in refs:
            assert ref.startswith("/"), f"{page} references {ref}"
            assert client.get(ref).status_code == 200, ref
            seen.add(ref)
    for asset in [s for s in seen if s.startswith("/static/")]:
        text = client.get(asset).text
        # no script, style or font is fetched from elsewhere (IRIs used as data in queries.js are not fetched)
        assert not re.search(r"""(?:src|href)\s*=\s*["']https?://|@import|url\(\s*["']?https?://|fetch\(\s*["']https?://""", text), asset


def test_the_server_binds_to_loopback_and_logs_every_request(server, client):
    client.get("/health")
    client.get("/sparql", params={"query": MALFORMED})
    log = server.wait_for("GET /sparql 400")
    assert f"serving http://127.0.0.1:{server.port}/" in log
    assert "GET /health 200" in log and "GET /sparql 400" in log
    try:
        public = [a for a in socket.gethostbyname_ex(socket.gethostname())[2] if not a.startswith("127.")]
    except OSError:  # a host name that does not resolve: nothing but loopback to try
        public = []
    for address in public:
        with socket.socket() as s, pytest.raises(OSError):
            s.settimeout(1)
            s.connect((address, server.port))


def test_serve_passes_its_limits_to_the_service(monkeypatch, tmp_path):
    """`serve --timeout` and the size limits reach the service's settings (the runaway queries the timeout stops are
    tested in process, with a timeout switched per query: tests/test_sparql_load.py)."""
    import crewkg.service.app as service_app

    got = {}
    monkeypatch.setattr(service_app, "run", lambda service, host, port: got.update(settings=service.settings, port=port))
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--timeout", "7.5", "--max-query-bytes", "1234",
                                      "--max-body-bytes", "5678"])
    assert result.exit_code == 0, result.output
    assert (got["settings"].query_timeout, got["settings"].max_query_bytes, got["settings"].max_body_bytes) == (7.5, 1234, 5678)


def test_a_foreign_host_name_is_refused(server):
    """DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends Host: evil.example; the service answers
    only to the loopback names (and those given with --allow-host)."""
    with httpx.Client(timeout=30) as c:
        assert c.get(server.url + "/health").status_code == 200
        assert c.get(server.url + "/health", headers={"Host": f"localhost:{server.port}"}).status_code == 200
        refused = c.get(server.url + "/sparql", params={"query": STEUERMANN}, headers={"Host": "evil.example"})
        assert refused.status_code == 400 and "Host" in refused.text


def test_a_chunked_body_over_the_limit_gets_413(server):
    def chunks():
        for _ in range(30):
            yield b"x" * 10_000

    with httpx.Client(timeout=30) as c:
        r = c.post(server.url + "/api/eligibility", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_a_canned_querys_name_as_the_query_is_named_as_such_and_refusals_speak_german_when_asked(client):
    r = client.get("/sparql", params={"query": "eligible-count"})
    assert r.status_code == 400 and "'eligible-count' is the name of a canned query, not SPARQL" in r.text
    assert "/api/queries" in r.text
    r = client.get("/sparql", params={"query": "eligible-count", "lang": "de"})
    assert r.status_code == 400 and "ist der Name einer vorbereiteten Abfrage, kein SPARQL" in r.text
    r = client.get("/sparql", params={"lang": "de"})
    assert r.status_code == 400 and r.text == "der Parameter 'query' fehlt (SPARQL 1.1 Protocol)"
    r = client.post("/sparql", params={"lang": "de"}, content=b"x", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/sparql-query senden" in r.text


def test_a_port_in_use_is_named_before_the_service_announces_itself():
    """`serve --port P` on a held port logged 'serving http://…:P/' and then failed with uvicorn's own message, exit 3."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"crewkg: error: --port: field 'port': expected a free port (this one is in use) (got {port})"
