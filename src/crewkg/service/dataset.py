"""The RDF dataset every store holds, whichever store it is: the named graphs the ontology, the kb, the records and
the derived facts go into (their union the default graph of a query), the prefixes a query may use without
declaring them, the dataset a query may choose instead (SPARQL 1.1 Protocol `default-graph-uri` / `named-graph-uri`,
or FROM / FROM NAMED), and what a subject owns, which goes with it when a person's facts are replaced."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rdflib import BNode, URIRef

from crewkg.law.namespaces import CREW_IRI, KB_IRI, PERSON_IRI
from crewkg.service.derived_terms import DERIVED_IRI

#: prefixes every query may use without declaring them (queries that declare them work elsewhere too)
PREFIXES = {
    "crew": CREW_IRI,
    "kb": KB_IRI,
    "person": PERSON_IRI,
    "derived": DERIVED_IRI,
    "prov": "http://www.w3.org/ns/prov#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
}

GRAPH_IRI = "https://w3id.org/crewkg/graph/"
#: the named graphs every store holds (SPARQL 1.1 Protocol `default-graph-uri` / `named-graph-uri`, FROM, GRAPH)
ONTOLOGY_GRAPH = URIRef(GRAPH_IRI + "ontology")
KB_GRAPH = URIRef(GRAPH_IRI + "kb")
RECORDS_GRAPH = URIRef(GRAPH_IRI + "records")
DERIVED_GRAPH = URIRef(GRAPH_IRI + "derived")
#: the base IRI of relative IRIs in a query when the caller gives none
DEFAULT_BASE = "https://w3id.org/crewkg/sparql"


@dataclass(frozen=True)
class DatasetSpec:
    """A query's RDF dataset chosen by the protocol (or by FROM / FROM NAMED): the graphs merged into its default
    graph, and the named graphs GRAPH may reach. None of them given: every graph, their union the default graph."""

    default: tuple[str, ...] = ()
    named: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.default or self.named)


def owned_closure(subjects: Iterable, objects: Callable[[Any], Iterable]) -> list:
    """The subjects and, transitively, what they own (`_owned`), each once: what a person's replacement removes, in
    either store (`objects`: a node's objects in that store)."""
    found, todo, done = [], list(subjects), set()
    while todo:
        s = todo.pop()
        if s in done:
            continue
        done.add(s)
        found.append(s)
        todo += [o for o in objects(s) if _owned(s, o)]
    return found


def _owned(subject, obj) -> bool:
    """Whether a removed subject's object goes with it: a blank node (a record's dated exam or issued certificate,
    which nothing else can name) or an IRI under the subject's own (`person/<id>/sailing/Matrose` under `person/<id>`:
    a record entry the new record may no longer have)."""
    import pyoxigraph as ox

    def iri(t) -> str:
        return t.value if isinstance(t, ox.NamedNode) else str(t)

    if isinstance(obj, (BNode, ox.BlankNode)):
        return True
    return isinstance(obj, (URIRef, ox.NamedNode)) and iri(obj).startswith(iri(subject) + "/")
