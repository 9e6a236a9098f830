"""Result formats of the SPARQL stores: SELECT/ASK in JSON, XML, CSV, TSV; CONSTRUCT/DESCRIBE in Turtle, N-Triples,
RDF/XML, JSON-LD; anything else is NotAcceptable (the endpoint's 406), never an error of the store."""

import io
import json

import pytest
from rdflib import Graph

from crewkg.service.results import GRAPH, TABULAR, NotAcceptable
from crewkg.service.stores import STORES, new_store

pytestmark = pytest.mark.xdist_group("test_sparql_formats")  # its module fixtures are made once, on one worker

SELECT = "SELECT ?c ?l WHERE { ?c a crew:Certificate ; rdfs:label ?l } ORDER BY ?c ?l LIMIT 3"
ASK = "ASK { ?c a crew:Certificate }"
CONSTRUCT = "CONSTRUCT { ?c a crew:Certificate } WHERE { ?c a crew:Certificate }"


@pytest.fixture(scope="module", params=STORES)
def store(request):
    return new_store(request.param)


@pytest.mark.parametrize("key", list(TABULAR))
def test_select_in_every_tabular_format(store, key):
    body, ctype = store.serialize(SELECT, TABULAR[key])
    assert ctype == TABULAR[key]
    text = body.decode("utf-8")
    if key == "json":
        assert len(json.loads(text)["results"]["bindings"]) == 3
    elif key == "xml":
        assert text.count("<result>") == 3
    elif key == "csv":
        assert text.splitlines()[0].strip() == "c,l" and len(text.strip().splitlines()) == 4
    else:
        lines = text.strip().splitlines()
        assert lines[0] == "?c\t?l" and len(lines) == 4
        assert lines[1].startswith("<https://w3id.org/crewkg/")


@pytest.mark.parametrize("key", list(TABULAR))
def test_ask_in_every_tabular_format(store, key):
    body, ctype = store.serialize(ASK, TABULAR[key])
    assert ctype == TABULAR[key]
    text = body.decode("utf-8")
    assert "true" in text and "false" not in text


@pytest.mark.parametrize("key", list(GRAPH))
def test_construct_in_every_graph_format(store, key):
    body, ctype = store.serialize(CONSTRUCT, GRAPH[key])
    assert ctype == GRAPH[key]
    fmt = {"turtle": "turtle", "nt": "nt", "rdfxml": "xml", "jsonld": "json-ld"}[key]
    g = Graph().parse(io.BytesIO(body), format=fmt)
    assert len(g) >= 8


@pytest.mark.parametrize("query,accept", [(SELECT, "text/turtle"), (ASK, "image/png"), (CONSTRUCT, "text/csv"),
                                          (CONSTRUCT, "application/sparql-results+json")])
def test_anything_else_is_not_acceptable(store, query, accept):
    with pytest.raises(NotAcceptable):
        store.serialize(query, accept)


def test_json_means_json_ld_for_a_graph(store):
    body, ctype = store.serialize(CONSTRUCT, "application/json")
    assert ctype == "application/ld+json"


def test_xml_results_keep_literals_whose_value_is_false(store):
    """0, false and "" are values too (rdflib's XML writer dropped them: a COUNT of nothing read as an empty literal)."""
    import xml.etree.ElementTree as ET

    query = 'SELECT ?zero ?no ?empty WHERE { BIND(0 AS ?zero) BIND(false AS ?no) BIND("" AS ?empty) }'
    body, _ = store.serialize(query, TABULAR["xml"])
    ns = {"s": "http://www.w3.org/2005/sparql-results#"}
    values = {b.get("name"): b.find("s:literal", ns) for b in ET.fromstring(body).findall(".//s:binding", ns)}
    assert (values["zero"].text, values["zero"].get("datatype")) == ("0", "http://www.w3.org/2001/XMLSchema#integer")
    assert (values["no"].text, values["no"].get("datatype")) == ("false", "http://www.w3.org/2001/XMLSchema#boolean")
    assert values["empty"].text in (None, "")
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?c a <urn:nothing> }"
    assert ET.fromstring(store.serialize(count, TABULAR["xml"])[0]).find(".//s:literal", ns).text == "0"
