"""rdflib's Dataset in memory as a store (`--store memory`): fine for a handful of persons, it answers as the Oxigraph
store does (stores.py). SPARQL is evaluated in Python, so a query stops itself at its deadline (deadline.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

from rdflib import BNode, Graph, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

from crewkg.service.dataset import DEFAULT_BASE, KB_GRAPH, PREFIXES, RECORDS_GRAPH, DatasetSpec, owned_closure
from crewkg.service.deadline import deadline_memory, evaluating_until
from crewkg.service.query_refusals import PARSER_LOCK, MalformedQuery, parser_message, refuse_if_update, refuse_service
from crewkg.service.results import GRAPH, TABULAR, Table, boolean_text, negotiate, tsv_results, xml_results
from crewkg.service.terms import Triple, from_ox, plain


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
        from rdflib.plugins import sparql as rdflib_sparql
        from rdflib.plugins.sparql import prepareQuery

        refuse_service(query)
        rdflib_sparql.SPARQL_LOAD_GRAPHS = False  # FROM <url> names a graph of the store, never a download
        try:
            with PARSER_LOCK:
                return prepareQuery(query, initNs=PREFIXES, base=base or DEFAULT_BASE)
        except Exception as exc:
            refuse_if_update(query, exc)
            raise MalformedQuery(parser_message(exc)) from None

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
