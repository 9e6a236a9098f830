"""rdflib's Dataset in memory as a store (`--store memory`): fine for a handful of persons, it answers as the Oxigraph
store does (stores.py). SPARQL is evaluated in Python, which checks a query's deadline only while it iterates
triples (deadline.py): the service runs its queries in worker processes it kills at the deadline (querying.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

from rdflib import BNode, Graph, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from crewkg.records.reading import ill_typed_literals_unlogged
from crewkg.service.dataset import DEFAULT_BASE, KB_GRAPH, PREFIXES, RECORDS_GRAPH, DatasetSpec, owned_closure
from crewkg.service.deadline import deadline_memory, evaluating_until
from crewkg.service.query_refusals import (
    PARSER_LOCK,
    MalformedQuery,
    close_rdflib,
    parser_message,
    refuse_if_update,
    refuse_service,
    refuse_service_in,
    refuse_surrogates,
)
from crewkg.service.results import GRAPH, TABULAR, Table, boolean_text, negotiate, tsv_results, xml_results
from crewkg.service.terms import Triple, from_ox, plain

close_rdflib()  # rdflib's engine cannot reach out, whatever its parser lets through (query_refusals.py)


def _negative_decimals_parsed() -> None:
    """rdflib 7.6's SPARQL parser negates a decimal with `Literal.__neg__`, which takes ints and floats but no
    Decimal: `VALUES ?x { -1.0 }` and `?s ?p -1.0` were refused as malformed, where Oxigraph answers them (issue 44).
    Its parse action looks `neg` up when it runs, so a decimal is negated here and anything else as before."""
    from decimal import Decimal

    from rdflib import Literal
    from rdflib.plugins.sparql import parser

    original = getattr(parser.neg, "rdflib_neg", parser.neg)

    def neg(literal):
        if isinstance(literal.value, Decimal):
            return Literal(-literal.value, datatype=literal.datatype)
        return original(literal)

    neg.rdflib_neg = original  # type: ignore[attr-defined]
    parser.neg = neg


_negative_decimals_parsed()


class MemoryStore:
    """rdflib Dataset in memory. SPARQL evaluation is pure Python (interruptible by the deadline), and a lock
    keeps writers and readers apart (rdflib's memory store is not safe under concurrent change)."""

    kind = "memory"
    interruptible = True

    def __init__(self) -> None:
        from rdflib import Dataset

        self.graph = Dataset(store=deadline_memory(), default_union=True)
        self._lock = threading.RLock()
        self.version = 0  # bumped by every change (the service's answer cache is keyed by it)

    def __len__(self) -> int:
        return len(self.graph)

    def quiescent(self) -> threading.RLock:
        """The lock that keeps writers and readers apart, held while the service forks its query workers' zygote
        (querying.py): a copy forked while another thread held it would wait for it for good."""
        return self._lock

    def add(self, triples: Iterable[Triple], graph: URIRef = RECORDS_GRAPH, bulk: bool = False) -> None:
        with self._lock:
            self.version += 1
            add = self.graph.get_context(graph).add
            for t in triples:
                add(t)

    def load_graph(self, g: Graph, graph: URIRef = KB_GRAPH) -> None:
        self.add(g, graph)

    def load_file(self, path: Path, fmt: str, graph: URIRef | None = None) -> None:
        """An RDF file into its own graph (its `file:` IRI); an N-Quads file's quads into the graphs they name."""
        if fmt == "nq":
            self.add_nquads(path.read_text(encoding="utf-8"))
            return
        with self._lock:
            self.version += 1
            self.graph.get_context(graph or URIRef(path.resolve().as_uri())).parse(
                path, format={"turtle": "turtle", "nt": "nt", "jsonld": "json-ld"}[fmt])

    def objects(self, subject: URIRef, predicate: URIRef) -> list:
        with self._lock:
            return list(self.graph.objects(subject, predicate))

    def triples_of(self, subject: URIRef, graph: URIRef) -> list[Triple]:
        """The triples of the subject and of what it owns (`_owned`) in one graph: a stored record."""
        with self._lock:
            ctx = self.graph.get_context(graph)
            return [t for s in owned_closure([subject], lambda s: ctx.objects(s, None)) for t in ctx.triples((s, None, None))]

    def add_nquads(self, text: str, bulk: bool = False) -> None:
        """Oxigraph's N-Quads parser, each distinct term made an rdflib term once, then one `addN`: rdflib's own
        parser took 5.0 s for the 151 000 quads of 100 persons, this 3.0 s. A blank node label names one new node
        within this text, as rdflib's parser reads it."""
        if not text:
            with self._lock:
                self.version += 1
            return
        import pyoxigraph as ox

        terms: dict = {}
        blanks: dict[str, BNode] = {}
        contexts: dict = {}

        def term(t):
            found = terms.get(t)
            if found is None:
                if isinstance(t, ox.BlankNode):
                    found = blanks.setdefault(t.value, BNode())
                else:
                    found = terms[t] = from_ox(t)
            return found

        def context(g):
            found = contexts.get(g)
            if found is None:
                found = contexts[g] = self.graph.get_context(URIRef(g.value) if isinstance(g, ox.NamedNode)
                                                               else DATASET_DEFAULT_GRAPH_ID)
            return found

        quads = [(term(q.subject), term(q.predicate), term(q.object), context(q.graph_name))
                 for q in ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS)]
        with self._lock:
            self.version += 1
            self.graph.addN(quads)

    def remove_subjects(self, subjects: Iterable[URIRef]) -> None:
        """Remove every triple of the subjects and of what they own (`_owned`), from every graph."""
        with self._lock:
            self.version += 1
            for s in owned_closure(subjects, lambda s: self.graph.objects(s, None)):
                self.graph.remove((s, None, None))

    def replace_subjects(self, subjects: Iterable[URIRef], text: str) -> None:
        """`remove_subjects`, then `add_nquads`: the N-Quads in place of what the subjects had."""
        self.remove_subjects(subjects)
        self.add_nquads(text)

    def _prepare(self, query: str, base: str | None):
        """The query parsed and translated; refused if the algebra rdflib would evaluate holds a SERVICE pattern,
        or if the query read as Oxigraph reads it does (a comment ends at CR there, at LF only in rdflib), so that
        both stores refuse the same queries. FROM <url> names a graph of the store, never a download (close_rdflib)."""
        from rdflib.plugins.sparql import prepareQuery

        refuse_surrogates(query)
        try:
            with PARSER_LOCK:
                prepared = prepareQuery(query, initNs=PREFIXES, base=base or DEFAULT_BASE)
        except Exception as exc:
            refuse_if_update(query, exc)
            refuse_service(query, parsed_only=True)  # a SERVICE behind a comment that a CR ends is named as such
            raise MalformedQuery(parser_message(exc)) from None
        refuse_service_in(prepared.algebra)
        if "\r" in query:  # otherwise read_query would parse the same text again
            refuse_service(query, parsed_only=True)
        return prepared

    def _view(self, spec: DatasetSpec):
        """The dataset a query sees under an explicit dataset: its default graph the merge of the given graphs,
        its named graphs only the given ones (a copy: the memory store serves small graphs)."""
        from rdflib import Dataset
        from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

        view = Dataset(store=deadline_memory(), default_union=False)
        target = view.get_context(DATASET_DEFAULT_GRAPH_ID)
        for iri in spec.default:
            for t in self.graph.get_context(URIRef(iri)):
                target.add(t)
        for iri in spec.named:
            ctx = view.get_context(URIRef(iri))
            for t in self.graph.get_context(URIRef(iri)):
                ctx.add(t)
        return view

    def _execute(self, query: str, use, deadline: float | None = None, dataset: DatasetSpec | None = None,
                 base: str | None = None):
        """Parse outside the lock, evaluate and read the lazy result inside it, stopping at the deadline. The
        protocol's dataset wins over the query's FROM / FROM NAMED; either is applied by `_view`, so both stores
        read a dataset alike."""
        with ill_typed_literals_unlogged():  # `BIND(99…9 AS ?x)`: no traceback of rdflib's on stderr
            prepared = self._prepare(query, base)
            clause = prepared.algebra.get("datasetClause")
            if not dataset and clause:
                dataset = DatasetSpec(tuple(str(d.default) for d in clause if d.get("default") is not None),
                                      tuple(str(d.named) for d in clause if d.get("named") is not None))
            if clause:
                prepared.algebra["datasetClause"] = None
            with evaluating_until(deadline), self._lock:
                target = self._view(dataset) if dataset else self.graph
                return use(target.query(prepared))

    def select(self, query: str, dataset: DatasetSpec | None = None, base: str | None = None) -> Table:
        def table(result) -> Table:
            if result.type == "SELECT":
                return Table("select", [str(v) for v in result.vars], [tuple(plain(t) for t in r) for r in result])
            if result.type == "ASK":
                return Table("ask", boolean=bool(result.askAnswer))
            return Table("graph", ["subject", "predicate", "object"], [tuple(t) for t in result.graph])

        return self._execute(query, table, None, dataset, base)

    def serialize(self, query: str, accept: str | None, deadline: float | None = None, dataset: DatasetSpec | None = None,
                  base: str | None = None) -> tuple[bytes, str]:
        def write(result) -> tuple[bytes, str]:
            if result.type in ("SELECT", "ASK"):
                key = negotiate(accept, TABULAR)
                if result.type == "ASK" and key in ("csv", "tsv"):
                    return boolean_text(bool(result.askAnswer)), TABULAR[key]
                if key == "tsv":
                    return tsv_results(result.vars, result), TABULAR[key]
                if key == "xml" and result.type == "SELECT":
                    return xml_results(result.vars, result), TABULAR[key]
                return result.serialize(format=key), TABULAR[key]
            key = negotiate(accept, GRAPH)
            fmt = {"turtle": "turtle", "nt": "nt", "rdfxml": "xml", "jsonld": "json-ld"}[key]
            return result.graph.serialize(format=fmt).encode("utf-8"), GRAPH[key]

        return self._execute(query, write, deadline, dataset, base)
