"""Both stores hold one dataset of named graphs (ontology, kb, records, derived facts) whose union is a query's
default graph; GRAPH, FROM, FROM NAMED and the protocol's dataset read it alike on both stores; relative IRIs
resolve against a base."""

from datetime import date

import pytest

from crewkg.law.statute import load_law
from crewkg.records.persons import person_from_mapping
from crewkg.service.dataset import DEFAULT_BASE, DERIVED_GRAPH, KB_GRAPH, ONTOLOGY_GRAPH, RECORDS_GRAPH, DatasetSpec
from crewkg.service.loading import build_store
from crewkg.service.results import short
from crewkg.service.stores import STORES

pytestmark = pytest.mark.xdist_group("test_sparql_datasets")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)


@pytest.fixture(scope="module")
def stores():
    law = load_law()
    p = person_from_mapping({"id": "dora", "birth_date": "1990-01-01", "sailing_days": {"Decksmann": 400}}, law, AS_OF, "t")
    return {kind: build_store(kind, law, [p], AS_OF) for kind in STORES}


def _rows(store, q, **kw):
    t = store.select(q, **kw)
    return t.boolean if t.form == "ask" else sorted(tuple(short(x) if x is not None else None for x in r) for r in t.rows)


def _both(stores, q, **kw):
    answers = {k: _rows(s, q, **kw) for k, s in stores.items()}
    assert answers["memory"] == answers["oxigraph"], answers
    return answers["memory"]


def test_graph_var_lists_the_named_graphs(stores):
    rows = _both(stores, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert {r[0] for r in rows} >= {short(g) for g in (ONTOLOGY_GRAPH, KB_GRAPH, RECORDS_GRAPH, DERIVED_GRAPH)}


def test_the_default_graph_is_the_union(stores):
    assert _both(stores, "ASK { kb:UBZ-Matrose a crew:Certificate . crew:Certificate a owl:Class . person:dora a crew:Person }") is True


def test_from_restricts_the_default_graph_alike(stores):
    q = f"SELECT (COUNT(*) AS ?n) FROM <{ONTOLOGY_GRAPH}> WHERE {{ ?s a crew:Certificate }}"
    assert _both(stores, q) == [("0",)]
    q = f"SELECT (COUNT(*) AS ?n) FROM <{KB_GRAPH}> WHERE {{ ?s a crew:Certificate }}"
    n = _both(stores, q)[0][0]
    assert int(n) > 5


def test_from_named_restricts_graph_alike(stores):
    q = f"SELECT DISTINCT ?g FROM NAMED <{KB_GRAPH}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}"
    assert _both(stores, q) == [(short(KB_GRAPH),)]


def test_the_protocol_dataset_wins_over_from(stores):
    q = f"SELECT (COUNT(*) AS ?n) FROM <{KB_GRAPH}> WHERE {{ ?s a crew:Certificate }}"
    assert _both(stores, q, dataset=DatasetSpec(default=(str(ONTOLOGY_GRAPH),))) == [("0",)]
    q = "ASK { GRAPH ?g { person:dora a crew:Person } }"
    assert _both(stores, q, dataset=DatasetSpec(named=(str(RECORDS_GRAPH),))) is True
    assert _both(stores, q, dataset=DatasetSpec(named=(str(KB_GRAPH),))) is False


def test_relative_iris_resolve_against_a_base(stores):
    q = "CONSTRUCT { <thing> <rel> <other> } WHERE {}"
    for store in stores.values():
        rows = store.select(q).rows
        assert [str(x) for x in rows[0]][0] == DEFAULT_BASE.rsplit("/", 1)[0] + "/thing"
        rows = store.select(q, base="http://example.org/sparql/").rows
        assert str(rows[0][0]) == "http://example.org/sparql/thing"
