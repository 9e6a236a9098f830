"""SHACL validation of records (`ontology/shapes.ttl`) and of the kb (`ontology/kb-shapes.ttl`) with pySHACL.

pySHACL costs about half a second to import and run, more than a whole eligibility check, so a record
that passed once is remembered by the hash of its RDF form plus the shapes and kb version; an edited record
or an edited kb is validated again.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from crewkg.errors import InputError, Reason
from crewkg.law.cache import load_graph
from crewkg.law.statute import load_law
from crewkg.locations import cache_dir, ontology_dir
from crewkg.records.reading import ill_typed_literals_unlogged


@lru_cache(maxsize=2)
def _shapes(name: str = "shapes.ttl"):
    from rdflib import Graph

    g = Graph()
    g.parse(ontology_dir() / name, format="turtle")
    return g


@lru_cache(maxsize=1)
def _ontology_and_kb():
    return load_graph()


@lru_cache(maxsize=1)
def _class_facts():
    """Only what the record shapes' sh:class constraints look up: the types of kb terms and the class hierarchy.
    Validating a record against this small graph instead of the whole kb keeps an uncached check fast."""
    from rdflib import Graph
    from rdflib.namespace import RDF, RDFS

    full = _ontology_and_kb()
    g = Graph()
    for p in (RDF.type, RDFS.subClassOf):
        for triple in full.triples((None, p, None)):
            g.add(triple)
    return g


def _report(results_graph) -> list[tuple[str | None, str, str]]:
    from rdflib.namespace import SH

    out = []
    for r in results_graph.subjects(SH.resultSeverity, SH.Violation):
        if (r, SH.detail, None) in results_graph:
            continue  # a wrapper ("does not conform to shape X"); its sh:detail names the real field
        path = results_graph.value(r, SH.resultPath)
        node = results_graph.value(r, SH.focusNode)
        out.append((str(path).rsplit("#", 1)[-1] if path is not None else None, str(node), _message(results_graph, r)))
    return out


def _message(results_graph, result) -> str:
    """The result's message in English: the shape's `sh:message`, or pySHACL's own words. A message says itself in
    German from the catalogue (`Reason`): pySHACL drops the language tags of a SPARQL constraint's messages, so the
    shapes keep English only."""
    from rdflib.namespace import SH

    return str(results_graph.value(result, SH.resultMessage) or "")


def violations(data_graph, vocabulary, shapes, key: str, advanced: bool = False) -> list[tuple[str | None, str, str]]:
    """The SHACL violations of a record graph as (local name of the path or None, focus node, message); empty when it
    conforms. `vocabulary` is the part of the ontology and kb the shapes look up. A record that conformed once is
    remembered under `key` (its content hash with the shapes and kb version), so it costs no pySHACL run again."""
    if _seen(key):
        return []
    from pyshacl import validate
    from rdflib import Graph

    merged = Graph()
    for triple in vocabulary:
        merged.add(triple)
    for triple in data_graph:
        merged.add(triple)
    with ill_typed_literals_unlogged():  # pySHACL copies each literal into its report: rdflib would log a traceback
        conforms, results, _ = validate(merged, shacl_graph=shapes, inference="none", advanced=advanced)
    if not conforms:
        return _report(results) or [(None, "", "does not conform")]
    _remember(key)
    return []


def _remember(key: str) -> None:
    """Mark a conforming record in the cache; where the mark cannot be made (a file named `shacl-ok` where its
    folder belongs, a full disk) the record is only validated again next time."""
    cdir = cache_dir()
    if cdir is None:
        return
    try:
        (cdir / "shacl-ok").mkdir(exist_ok=True)
        (cdir / "shacl-ok" / key).touch()
    except OSError:
        pass


def _key(text: str) -> str:
    return hashlib.sha256((text + load_law().version + (ontology_dir() / "shapes.ttl").read_text()).encode()).hexdigest()[:24]


def _seen(key: str) -> bool:
    cdir = cache_dir()
    return cdir is not None and (cdir / "shacl-ok" / key).exists()


def shacl_check(data_graph, source: str, key: str | None = None) -> None:
    """Raise InputError naming the first violated shape of a record graph."""
    if key is None:
        key = _key("\n".join(sorted(data_graph.serialize(format="nt").splitlines())))
    # a violation with no path is named by its node, unless that is a blank node (a service entry), whose generated
    # label names nothing the user wrote: the message then says which entry
    found = sorted((path or (node if ":" in node else ""), msg)
                   for path, node, msg in violations(data_graph, _class_facts(), _shapes(), key, advanced=True))
    if found:
        field, msg = found[0]
        raise InputError(source, field, "shapes", reason=Reason(msg))


def validate_kb() -> list[tuple[str, str]]:
    """Violations of the kb shapes (every pathway and requirement has a provision, …); empty when clean."""
    from pyshacl import validate

    conforms, results, _ = validate(_ontology_and_kb(), shacl_graph=_shapes("kb-shapes.ttl"), inference="none")
    return [] if conforms else sorted((path or node, msg) for path, node, msg in _report(results))
