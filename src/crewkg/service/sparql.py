"""SPARQL over the ontology, the kb, person records and their derived facts, on one of two stores that give
identical answers: rdflib's in-memory graph (`memory`, fine for a handful of persons) or pyoxigraph
(`oxigraph`, for registers: docs/architecture.md, 'Engine notes' — rdflib answers an aggregate over 230 k triples in
seconds, pyoxigraph in tens of milliseconds).

Both stores are read-only to SPARQL: only queries are evaluated; an update is refused before it reaches a
store (`UpdateRefused`), a query that does not parse raises `MalformedQuery` with the store's own parser
message. Persons are put into a store by Python (`put_persons`), with delete-before-insert per person.

The canned queries live in `kb/queries/*.rq`; each begins with `# title:` and `# description:` lines (the service
also has them in German, in the message catalogue under `service.query.<name>.`). Every module a query's facts come
from ships with crewkg (the rosters' checks are loaded with `--crew`), so every canned query is always listed.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.namespace import XSD

from crewkg.errors import InputError, os_reason
from crewkg.law.namespaces import CREW_IRI, KB_IRI, PERSON_IRI
from crewkg.law.statute import Law
from crewkg.service.export import DERIVED_IRI, Triple, derived_subjects, evaluate, record_subjects

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

#: result media types offered, per kind of result
TABULAR = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml", "csv": "text/csv",
           "tsv": "text/tab-separated-values"}
GRAPH = {"turtle": "text/turtle", "nt": "application/n-triples", "rdfxml": "application/rdf+xml",
         "jsonld": "application/ld+json"}
#: media types clients send for a result kind under another name: the first key the offers hold is taken
ALIASES = {"application/json": ("json", "jsonld"), "application/xml": ("xml", "rdfxml"), "text/xml": ("xml", "rdfxml"),
           "text/plain": ("nt",), "application/x-turtle": ("turtle",), "application/turtle": ("turtle",)}

STORES = ("memory", "oxigraph")


class MalformedQuery(Exception):
    """The query does not parse; the message is the parser's."""


class UpdateRefused(Exception):
    """A SPARQL Update was sent: the stores answer queries only."""


class ServiceRefused(MalformedQuery):
    """A federated query (SERVICE) was sent: crewkg never makes a network request on a query's behalf, since anyone
    who can query the endpoint could otherwise use it to probe the network behind it."""


class NotAcceptable(Exception):
    """No offered media type matches the Accept header."""


class QueryTimeout(Exception):
    """The query ran past its deadline."""


#: the deadline (time.monotonic) of the query the current thread evaluates, if any
_deadline = threading.local()
#: rdflib's SPARQL parser (pyparsing) is not thread-safe: parsed in two threads at once, queries fail with
#: spurious errors ("Param.postParse2() missing 1 required positional argument"), so one parse at a time
_PARSER_LOCK = threading.Lock()


def _make_deadline_memory():
    """rdflib's Memory store whose triple iteration checks the evaluating thread's deadline: rdflib evaluates
    SPARQL in Python by iterating triples, so a runaway query stops itself (cooperatively, no thread killing)."""
    from rdflib.plugins.stores.memory import Memory

    class DeadlineMemory(Memory):
        def triples(self, triple_pattern, context=None):
            until = getattr(_deadline, "value", None)
            if until is None:
                yield from super().triples(triple_pattern, context)
                return
            if time.monotonic() > until:
                raise QueryTimeout("query timeout")
            n = 0
            for item in super().triples(triple_pattern, context):
                n += 1
                if not n & 1023 and time.monotonic() > until:
                    raise QueryTimeout("query timeout")
                yield item

    return DeadlineMemory()


@dataclass
class Table:
    """A query result independent of the store: rdflib terms (None for unbound) in variable order."""

    form: str  # select | ask | graph
    vars: list[str] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)
    boolean: bool | None = None


# ------------------------------------------------------------------------------------------------------
# Content negotiation
# ------------------------------------------------------------------------------------------------------
def negotiate(accept: str | None, offers: dict[str, str]) -> str:
    """The key of the best offered media type for an Accept header (q-values, type/* and */*); the first
    offer when Accept is absent. Raises NotAcceptable."""
    if not accept or not accept.strip():
        return next(iter(offers))
    by_type = {v: k for k, v in offers.items()}
    best: tuple[float, int, str] | None = None
    for i, part in enumerate(accept.split(",")):
        items = [x.strip() for x in part.split(";")]
        mtype, q = items[0].lower(), 1.0
        for param in items[1:]:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if q <= 0:
            continue
        key = None
        if mtype in by_type:
            key = by_type[mtype]
        elif any(k in offers for k in ALIASES.get(mtype, ())):
            key = next(k for k in ALIASES[mtype] if k in offers)
        elif mtype == "*/*":
            key = next(iter(offers))
        elif mtype.endswith("/*"):
            key = next((k for k, v in offers.items() if v.startswith(mtype[:-1])), None)
        if key is not None and (best is None or q > best[0]):
            best = (q, -i, key)
    if best is None:
        raise NotAcceptable(f"none of {sorted(offers.values())} matches Accept: {accept}")
    return best[2]


def _refuse_if_update(query: str, parse_error: Exception) -> None:
    """A text that is no query but parses as an update is refused as such (not reported as malformed)."""
    from rdflib.plugins.sparql.parser import parseUpdate

    try:
        with _PARSER_LOCK:
            parseUpdate(query)
    except Exception:  # not an update either: the query parser's message stands
        return
    raise UpdateRefused("SPARQL Update is not allowed: this endpoint is read-only") from parse_error


#: what a query's text holds besides keywords: IRIs, strings (long and short), comments
_NOT_KEYWORDS = re.compile("|".join((
    r"<[^<>\"{}|^`\\\s]*>",              # IRI
    r"'{3}(?:[^\\]|\\.)*?'{3}",          # long strings
    r'"{3}(?:[^\\]|\\.)*?"{3}',
    r"'(?:[^'\\\n]|\\.)*'",             # short strings
    r'"(?:[^"\\\n]|\\.)*"',
    r"#[^\n]*",                          # comment
)))
#: the SERVICE keyword, not a variable, a prefixed name or a part of one
_SERVICE = re.compile(r"(?<![\w:?$.-])SERVICE(?![\w:-])", re.IGNORECASE)
#: the FROM keyword (FROM and FROM NAMED), likewise
_FROM = re.compile(r"(?<![\w:?$.-])FROM(?![\w:-])", re.IGNORECASE)


def names_a_dataset(query: str) -> bool:
    """Whether the query chooses its own dataset (FROM / FROM NAMED)."""
    return bool(_FROM.search(_NOT_KEYWORDS.sub(" ", query)))


def refuse_service(query: str) -> None:
    """Refuse a query with a SERVICE clause before either store sees it (both would send the request)."""
    if _SERVICE.search(_NOT_KEYWORDS.sub(" ", query)):
        raise ServiceRefused("SERVICE (federated query) is not allowed: this endpoint makes no network requests")


def _message(exc: Exception) -> str:
    return str(exc).strip() or type(exc).__name__


# ------------------------------------------------------------------------------------------------------
# Stores: one RDF dataset of named graphs, the union of them all the default graph of a query
# ------------------------------------------------------------------------------------------------------
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


class MemoryStore:
    """rdflib Dataset in memory. SPARQL evaluation is pure Python (interruptible by the deadline), and a lock
    keeps writers and readers apart (rdflib's memory store is not safe under concurrent change)."""

    kind = "memory"
    interruptible = True

    def __init__(self) -> None:
        from rdflib import Dataset

        self.graph = Dataset(store=_make_deadline_memory(), default_union=True)
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
                    found = terms[t] = _from_ox(t)
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
            with _PARSER_LOCK:
                return prepareQuery(query, initNs=PREFIXES, base=base or DEFAULT_BASE)
        except Exception as exc:
            _refuse_if_update(query, exc)
            raise MalformedQuery(_message(exc)) from None

    def _view(self, spec: DatasetSpec):
        """The dataset a query sees under an explicit dataset: its default graph the merge of the given graphs,
        its named graphs only the given ones (a copy: the memory store serves small graphs)."""
        from rdflib import Dataset
        from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

        view = Dataset(store=_make_deadline_memory(), default_union=False)
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
        _deadline.value = deadline
        try:
            with self._lock:
                target = self._view(dataset) if dataset else self.graph
                return use(target.query(prepared))
        finally:
            _deadline.value = None

    def select(self, query: str, dataset: DatasetSpec | None = None, base: str | None = None) -> Table:
        def table(result) -> Table:
            if result.type == "SELECT":
                return Table("select", [str(v) for v in result.vars], [tuple(_plain(t) for t in r) for r in result])
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
                    return _boolean_text(bool(result.askAnswer)), TABULAR[key]
                if key == "tsv":
                    return _tsv(result.vars, result), TABULAR[key]
                if key == "xml" and result.type == "SELECT":
                    return _xml(result.vars, result), TABULAR[key]
                return result.serialize(format=key), TABULAR[key]
            key = negotiate(accept, GRAPH)
            fmt = {"turtle": "turtle", "nt": "nt", "rdfxml": "xml", "jsonld": "json-ld"}[key]
            return result.graph.serialize(format=fmt).encode("utf-8"), GRAPH[key]

        return self._execute(query, write, deadline, dataset, base)


#: on-disk store handles a forked process inherited (kept, never closed there)
_INHERITED: list = []


class OxigraphStore:
    """pyoxigraph's in-memory store: Rust evaluation and serialization. Evaluation releases the GIL and
    cannot be interrupted in its thread; the service runs it in worker processes it can stop (querying.py)."""

    kind = "oxigraph"
    interruptible = False

    def __init__(self, path: Path | None = None, read_only: bool = False) -> None:
        """In memory, or on disk in the folder `path` (made if missing; what is written there stays); `read_only`:
        only read, without the folder's lock, so a folder another process writes or serves can be queried (what was
        on disk when it was opened)."""
        import pyoxigraph as ox

        self._ox = ox
        self.path = path
        if path is None:
            self.store = ox.Store()
        else:
            try:
                self.store = ox.Store.read_only(str(path)) if read_only else ox.Store(str(path))
            except OSError as exc:
                if "lock" in str(exc).lower():  # RocksDB's "While lock file: …/LOCK": another process has it open
                    raise InputError(str(path), "--store", "store_in_use") from None
                raise InputError(str(path), "--store", "store_dir", reason=str(exc).splitlines()[0][:200]) from None
        self.version = 0  # bumped by every change (the service's answer cache is keyed by it)
        self.read_only = read_only  # also set by `only_read_from_now`
        self._lock = None  # the folder's lock file while the store is only read

    def __len__(self) -> int:
        return len(self.store)

    def add(self, triples: Iterable[Triple], graph: URIRef = RECORDS_GRAPH, bulk: bool = False) -> None:
        """`bulk`: Oxigraph's bulk loader, three times faster on disk (300 000 quads: 7.6 s → 2.4 s) but not one
        transaction: a run stopped half-way leaves part of the triples (put_persons writes the input digests last,
        in a transaction, so such a person is evaluated again)."""
        self.add_nquads(nquads(triples, graph), bulk)

    def add_nquads(self, text: str, bulk: bool = False) -> None:
        self.version += 1
        if text:
            load = self.store.bulk_load if bulk and self.path is not None else self.store.load
            load(text.encode("utf-8"), format=self._ox.RdfFormat.N_QUADS)

    def load_graph(self, g: Graph, graph: URIRef = KB_GRAPH) -> None:
        self.version += 1
        self.store.load(g.serialize(format="nt"), format=self._ox.RdfFormat.N_TRIPLES, to_graph=self._ox.NamedNode(str(graph)))

    def load_file(self, path: Path, fmt: str, graph: URIRef | None = None) -> None:
        ox = self._ox
        self.version += 1
        self.store.bulk_load(path=str(path), format={"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES,
                                                      "jsonld": ox.RdfFormat.JSON_LD}[fmt],
                             to_graph=ox.NamedNode(str(graph or path.resolve().as_uri())))

    def objects(self, subject: URIRef, predicate: URIRef) -> list:
        ox = self._ox
        return [_from_ox(q.object) for q in self.store.quads_for_pattern(ox.NamedNode(str(subject)),
                                                                          ox.NamedNode(str(predicate)), None, None)]

    def remove_subjects(self, subjects: Iterable[URIRef]) -> None:
        """Remove every quad of the subjects and of what they own (`_owned`)."""
        self.version += 1
        for q in self._quads_of(subjects):
            self.store.remove(q)

    def replace_subjects(self, subjects: Iterable[URIRef], text: str) -> None:
        """The N-Quads in place of every quad of the subjects and of what they own, writing only what changed: a
        person evaluated again on unchanged facts (a new kb version, `--force`) differs in the times of its results,
        about a twelfth of its quads, and removing and loading all of them was most of a re-export (400 persons:
        14 s of 32). A quad with a blank node is always replaced: each evaluation names its nodes anew."""
        ox = self._ox
        self.version += 1
        old = self._quads_of(subjects)
        new = list(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS)) if text else []

        def named(q) -> bool:
            return not isinstance(q.subject, ox.BlankNode) and not isinstance(q.object, ox.BlankNode)

        kept_old, kept_new = {q for q in old if named(q)}, {q for q in new if named(q)}
        for q in old:
            if q not in kept_new:
                self.store.remove(q)
        added = [q for q in new if q not in kept_old]
        if added:
            (self.store.bulk_extend if self.path is not None else self.store.extend)(added)

    def _quads_of(self, subjects: Iterable[URIRef]) -> list:
        """Every quad of the subjects and of what they own (`_owned`), found by index lookups."""
        ox = self._ox
        found: list = []

        def objects(s):
            quads = list(self.store.quads_for_pattern(s, None, None, None))
            found.extend(quads)
            return [q.object for q in quads]

        owned_closure([ox.NamedNode(str(s)) for s in subjects], objects)
        return found

    def clear_graph(self, graph: URIRef) -> None:
        self.version += 1
        self.store.clear_graph(self._ox.NamedNode(str(graph)))

    def only_read_from_now(self) -> None:
        """A service reads its store and its query workers open it read-only (`reopen_after_fork`). An on-disk
        store opened for writing goes on compacting in the background after a bulk load, and a compaction deletes
        table files that a worker's read-only handle still lists: the worker then fails ("Corruption: … No such
        file", seen right after an export). So the writing handle is flushed and closed (RocksDB waits for its
        background work) and the store opened read-only; this process keeps the folder's lock (the POSIX lock
        RocksDB takes on LOCK), so an export into the folder is still refused while the service runs."""
        if self.path is None or self.read_only:
            return
        import fcntl

        self.store.flush()
        self.store = None  # the last reference: RocksDB closes here
        lock = open(self.path / "LOCK", "a+b")  # noqa: SIM115 - held as long as this store
        try:
            fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another process took the folder in the moment between: leave it to RocksDB's refusals
            lock.close()
            lock = None
        self._lock, self.read_only = lock, True
        self.store = self._ox.Store.read_only(str(self.path))

    def reopen_after_fork(self) -> None:
        """A forked query worker opens an on-disk store again, read-only: RocksDB's handle and threads do not
        survive fork."""
        if self.path is not None:
            _INHERITED.append(self.store)  # never dropped here: its destructor would join threads this process lacks
            self.store = self._ox.Store.read_only(str(self.path))

    def flush(self) -> None:
        """Everything written so far is on disk (an on-disk store)."""
        if self.path is not None:
            self.store.flush()

    def compact(self) -> None:
        """Compact an on-disk store fully (RocksDB). A bulk load leaves many table files that only later background
        work merges, and a service never does that work: it reads its store through read-only handles. Pages of the
        100 000-person store took 105–147 ms before, 11–17 ms after (docs/scale.md)."""
        if self.path is not None:
            self.store.optimize()

    def _run(self, query: str, dataset: DatasetSpec | None = None, base: str | None = None):
        ox = self._ox
        refuse_service(query)
        # the union of all graphs is the default graph unless the query (FROM) or the protocol names a dataset
        kw: dict[str, Any] = {} if names_a_dataset(query) else {"use_default_graph_as_union": True}
        if dataset:
            kw = {"default_graph": [ox.NamedNode(i) for i in dataset.default] or [ox.DefaultGraph()],
                  "named_graphs": [ox.NamedNode(i) for i in dataset.named]}
        try:
            return self.store.query(query, prefixes=PREFIXES, base_iri=base or DEFAULT_BASE, **kw)
        except SyntaxError as exc:
            _refuse_if_update(query, exc)
            raise MalformedQuery(_message(exc)) from None
        except ValueError as exc:  # an IRI of the protocol dataset that is no IRI
            raise MalformedQuery(_message(exc)) from None

    def select(self, query: str, dataset: DatasetSpec | None = None, base: str | None = None) -> Table:
        ox = self._ox
        result = self._run(query, dataset, base)
        if isinstance(result, ox.QuerySolutions):
            names = [v.value for v in result.variables]
            # a register's answers repeat the same certificates, provisions and dates: each term is converted once
            seen: dict[Any, Any] = {}

            def term(t):
                found = seen.get(t, seen)
                if found is seen:
                    found = seen[t] = _from_ox(t)
                return found

            return Table("select", names, [tuple(term(sol[n]) for n in names) for sol in result])
        if isinstance(result, ox.QueryBoolean):
            return Table("ask", boolean=bool(result))
        return Table("graph", ["subject", "predicate", "object"],
                     [(_from_ox(t.subject), _from_ox(t.predicate), _from_ox(t.object)) for t in result])

    def serialize(self, query: str, accept: str | None, deadline: float | None = None, dataset: DatasetSpec | None = None,
                  base: str | None = None) -> tuple[bytes, str]:
        """(The deadline cannot be enforced inside pyoxigraph; the service stops waiting instead.)"""
        ox = self._ox
        result = self._run(query, dataset, base)
        if isinstance(result, (ox.QuerySolutions, ox.QueryBoolean)):
            key = negotiate(accept, TABULAR)
            if isinstance(result, ox.QueryBoolean) and key in ("csv", "tsv"):
                return _boolean_text(bool(result)), TABULAR[key]
            fmt = {"json": ox.QueryResultsFormat.JSON, "xml": ox.QueryResultsFormat.XML, "csv": ox.QueryResultsFormat.CSV,
                   "tsv": ox.QueryResultsFormat.TSV}[key]
            return result.serialize(format=fmt), TABULAR[key]
        key = negotiate(accept, GRAPH)
        fmt = {"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "rdfxml": ox.RdfFormat.RDF_XML,
               "jsonld": ox.RdfFormat.JSON_LD}[key]
        return result.serialize(format=fmt) or b"", GRAPH[key]


Store = MemoryStore | OxigraphStore


def _boolean_text(value: bool) -> bytes:
    """An ASK answer as CSV or TSV (the SPARQL 1.1 CSV/TSV note defines no boolean form; this is the common one)."""
    return b"true" if value else b"false"


def _tsv(variables, rows) -> bytes:
    """SPARQL 1.1 TSV results: `?var` headers, terms in Turtle/N-Triples syntax, empty for unbound."""
    def term(t) -> str:
        return "" if t is None else t.n3().replace("\t", "\\t")

    lines = ["\t".join("?" + str(v) for v in variables)]
    lines += ["\t".join(term(t) for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _xml(variables, rows) -> bytes:
    """SPARQL Query Results XML for a SELECT. (rdflib's own writer drops every literal whose value is false in Python:
    0, 0.0, false and the empty string come out as empty elements.)"""
    from xml.sax.saxutils import escape, quoteattr

    def term(t) -> str:
        if isinstance(t, URIRef):
            return f"<uri>{escape(str(t))}</uri>"
        if isinstance(t, BNode):
            return f"<bnode>{escape(str(t))}</bnode>"
        attr = f" xml:lang={quoteattr(t.language)}" if t.language else (
            f" datatype={quoteattr(str(t.datatype))}" if t.datatype else "")
        return f"<literal{attr}>{escape(str(t))}</literal>"

    out = ['<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>']
    out += [f"<variable name={quoteattr(str(v))}/>" for v in variables]
    out.append("</head><results>")
    for row in rows:
        out.append("<result>")
        out += [f"<binding name={quoteattr(str(v))}>{term(t)}</binding>" for v, t in zip(variables, row, strict=True)
                if t is not None]
        out.append("</result>")
    out.append("</results></sparql>\n")
    return "".join(out).encode("utf-8")


def _plain(term):
    """rdflib and pyoxigraph spell a simple literal differently (no datatype / xsd:string): one form."""
    if isinstance(term, Literal) and term.datatype == XSD.string:
        return Literal(str(term))
    return term


def _from_ox(term):
    import pyoxigraph as ox

    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        if term.datatype.value == str(XSD.string):
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(term.datatype.value), normalize=False)
    raise TypeError(f"unexpected term {term!r}")


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


def is_store_dir(value: str) -> bool:
    """`--store` names a folder (an on-disk Oxigraph store) rather than a kind: anything but memory or oxigraph."""
    return value not in STORES


def open_store_dir(path: Path, must_exist: bool, read_only: bool = False) -> OxigraphStore:
    """The on-disk Oxigraph store in the folder; ontology + kb are (re)loaded into their graphs on every opening
    for writing, so a changed kb replaces the old one; persons stay until they are exported again. `read_only`:
    an existing store, only read (`OxigraphStore`)."""
    if must_exist and not (path / "CURRENT").is_file():
        raise InputError(str(path), "--store", "store_missing")
    if path.exists() and not path.is_dir():
        raise InputError(str(path), "--store", "store_dir", reason="not a folder")
    if not must_exist and path.is_dir() and not (path / "CURRENT").is_file() and any(path.iterdir()):
        raise InputError(str(path), "--store", "store_new")
    if not must_exist:  # made if missing, with the folders above it, as `crewkg export --store` promises
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(str(path), "--store", "store_dir", reason=str(exc)[:200]) from None
    store = OxigraphStore(path, read_only=read_only and must_exist)
    if not must_exist:
        store.clear_graph(ONTOLOGY_GRAPH)
        store.clear_graph(KB_GRAPH)
        _load_law_files(store)
    return store


def new_store(kind: str, law_graph: Graph | None = None) -> Store:
    """An empty store of the kind, holding ontology + kb."""
    if kind not in STORES:
        raise InputError("--store", "store", "store", kind, ids=list(STORES))
    store: Store = MemoryStore() if kind == "memory" else OxigraphStore()
    if law_graph is not None:
        store.load_graph(law_graph, KB_GRAPH)
        return store
    _load_law_files(store)
    return store


def _load_law_files(store: Store) -> None:
    from crewkg.law.cache import _files
    from crewkg.locations import kb_dir, ontology_dir

    onto = ontology_dir().resolve()
    for f in _files(kb_dir(), ontology_dir()):
        store.load_file(f, "turtle", ONTOLOGY_GRAPH if f.resolve().is_relative_to(onto) else KB_GRAPH)


def _nt(term) -> str:
    """A term in N-Quads syntax. rdflib's `Literal.n3()` writes a literal with a line break in Turtle's long form
    (\"\"\"…\"\"\"), which N-Quads has not: such a record or reason would make the whole batch unreadable."""
    if not isinstance(term, Literal):
        return term.n3()
    text = str(term).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if term.language:
        return f'"{text}"@{term.language}'
    return f'"{text}"^^<{term.datatype}>' if term.datatype else f'"{text}"'


def nquads(triples: Iterable[Triple], graph: URIRef) -> str:
    """Triples as N-Quads in the named graph."""
    g = graph.n3()
    return "".join(f"{s.n3()} {p.n3()} {_nt(o)} {g} .\n" for s, p, o in triples)


def _evaluated(law: Law, part: list, as_of: date) -> tuple[str, str]:
    """(N-Quads of the batch's records and derived facts, N-Quads of their input digests): one Datalog run."""
    from crewkg.service.export import D

    facts, digests = [], []
    for _, record, derived in evaluate(law, part, as_of):
        facts.append(nquads(record, RECORDS_GRAPH))
        facts.append(nquads([t for t in derived if t[1] != D.inputDigest], DERIVED_GRAPH))
        digests.append(nquads([t for t in derived if t[1] == D.inputDigest], DERIVED_GRAPH))
    return "".join(facts), "".join(digests)


def _evaluated_in_worker(args: tuple[list, date, Path]) -> tuple[Path, str]:
    """A worker's run: its facts go to a file, not through the pool's pipe (a batch is tens of megabytes, and a pool
    terminated while such a result is in the pipe hangs on it), the digests come back."""
    part, as_of, folder = args
    from crewkg.workers import collect_now, inherited

    facts, digests = _evaluated(inherited("law"), part, as_of)
    collect_now(every=1)
    path = folder / f"{os.getpid()}-{part[0].id}.nq"
    path.write_text(facts, encoding="utf-8")
    return path, digests


def put_persons(store: Store, law: Law, persons: list, as_of: date, replace: bool = True, chunk: int = 200,
                keep_unchanged: bool = False, workers: int = 1) -> int:
    """Evaluate the persons (Datalog, `chunk` a run) and put their records and derived facts into the store,
    removing whatever an earlier evaluation of the same person left there (delete-before-insert). With
    `keep_unchanged`, a person whose evaluation in the store read exactly what this one would (`crew:inputDigest`)
    keeps their facts and is not evaluated again. With more than one worker, the runs are evaluated in worker
    processes (fork: they inherit the compiled law; they leave an interrupt to this process) while this one
    writes, in input order. Returns how many persons were kept so."""
    import tempfile

    from crewkg.service.export import D, evaluation_iri, input_digest

    if keep_unchanged:
        todo = [p for p in persons if store.objects(evaluation_iri(p.id), D.inputDigest) != [input_digest(law, p, as_of)]]
    else:
        todo = list(persons)
    parts = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    if not parts:
        return len(persons)
    pool = None
    with tempfile.TemporaryDirectory(prefix="crewkg-export-") as folder:
        if workers > 1 and len(parts) > 1:
            from crewkg.workers import fork_pool

            pool = fork_pool(min(workers, len(parts)), law=law)
            done = pool.imap(_evaluated_in_worker, [(part, as_of, Path(folder)) for part in parts])
        else:
            done = (_evaluated(law, part, as_of) for part in parts)
        try:
            for part, (facts, digests) in zip(parts, done, strict=True):
                if isinstance(facts, Path):
                    facts, path = facts.read_text(encoding="utf-8"), facts
                    path.unlink()
                if replace:
                    store.replace_subjects([s for p in part for s in record_subjects(p) + derived_subjects(law, p.id)],
                                           facts)
                else:
                    store.add_nquads(facts, bulk=True)
                store.add_nquads(digests)  # last, in one transaction: a person with a digest is complete
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    return len(persons) - len(todo)


def load_graph_files(store: Store, paths: Iterable[Path]) -> None:
    """Add RDF files as they are (an earlier `crewkg export`, a register's records): Turtle, N-Triples or
    JSON-LD by suffix. A file that does not parse is an InputError naming it."""
    from crewkg.service.export import format_for_suffix

    for path in paths:
        fmt = format_for_suffix(path.suffix)
        if fmt is None:
            raise InputError(str(path), "", "rdf_suffix")
        if not path.is_file():
            raise InputError(str(path), "", "rdf_file")
        try:
            store.load_file(path, fmt)
        except Exception as exc:  # rdflib and pyoxigraph raise several parser types
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            raise InputError(str(path), "", "rdf_syntax", format=fmt, reason=first) from None


def parse_crew_option(value: str) -> tuple[Path, Path | None]:
    """--crew VESSEL[:ROSTER]"""
    vessel, _, roster = value.partition(":")
    pair = (Path(vessel), Path(roster) if roster else None)
    for path in pair:
        if path is not None and not path.is_file():
            raise InputError(str(path), "--crew", "crew_option", value)
    return pair


def put_crew_checks(store: Store, law: Law, pairs: Iterable[tuple[Path, Path | None]], as_of: date, lang: str = "de") -> None:
    """The minimum crew of each vessel and the verdict on its roster (crewkg.manning, the `crewkg crew` call), as
    records and derived facts in the store, replacing an earlier check of the same vessel and roster."""
    import importlib.util

    pairs = list(pairs)
    if not pairs:
        return
    if importlib.util.find_spec("crewkg.manning.crew") is None:
        raise InputError("--crew", "crew", "manning_module")
    from crewkg.manning.compile import load_manning
    from crewkg.manning.crew import crew_answer
    from crewkg.manning.vessels import load_roster, load_vessel, roster_key, roster_name, vessel_graph
    from crewkg.service.export import crew_check_subjects, crew_check_triples

    ml = load_manning(law)
    for vessel_path, roster_path in pairs:
        vessel = load_vessel(vessel_path, law, ml)
        crew = load_roster(roster_path, law, ml, as_of) if roster_path is not None else None
        answer = crew_answer(law, ml, vessel, as_of, crew, False, lang)
        roster = roster_name(roster_path) if roster_path is not None else None
        store.remove_subjects(crew_check_subjects(vessel.id, roster_key(roster, crew) if roster and crew else None))
        store.add(list(vessel_graph(vessel, ml)), RECORDS_GRAPH)
        store.add(crew_check_triples(law, answer, roster, crew, lang), DERIVED_GRAPH)


def build_store(kind: str, law: Law, persons: list, as_of: date, graphs: Iterable[Path] = (),
                crews: Iterable[tuple[Path, Path | None]] = (), only_read: bool = False, workers: int = 1,
                lang: str = "de") -> Store:
    """A store with ontology + kb, the persons' records and derived facts (evaluated by `workers` processes where
    there are more than one run's persons, `put_persons`), crew checks of vessels and rosters, and any extra RDF
    files. `only_read`: a store folder with nothing to put into it is opened read-only (one question, `crewkg
    sparql`: a folder `crewkg serve` holds can be asked too). `lang`: the language of the crew checks' sentences."""
    graphs, crews = list(graphs), list(crews)
    if is_store_dir(kind):
        nothing_to_put = only_read and not persons and not graphs and not crews
        store = open_store_dir(Path(kind), must_exist=True, read_only=nothing_to_put)
        if nothing_to_put:
            return store
        put_persons(store, law, persons, as_of, replace=True, workers=workers)
    else:
        store = new_store(kind)
        put_persons(store, law, persons, as_of, replace=False, workers=workers)
    put_crew_checks(store, law, crews, as_of, lang)
    load_graph_files(store, graphs)
    return store


def other_kb_evaluations(store: Store, law: Law) -> int:
    """How many evaluations in the store were made with another version of the kb (`crew:kbVersion`): their facts,
    and the summary triples the canned queries start from, are that version's until they are exported again, so a
    store left from an earlier crewkg answers about them as it did then, or not at all."""
    query = (f"PREFIX crew: <{CREW_IRI}>\nSELECT (COUNT(?ev) AS ?n) WHERE {{ ?ev crew:kbVersion ?v . "
             f"FILTER(STR(?v) != {json.dumps(law.version)}) }}")
    rows = store.select(query).rows
    return int(rows[0][0].toPython()) if rows and rows[0][0] is not None else 0


# ------------------------------------------------------------------------------------------------------
# Canned queries
# ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CannedQuery:
    name: str
    title: str
    description: str
    text: str
    path: Path
    #: `# page: ?var` in the header: the variable holding crew:personId, the first key of the query's ORDER BY; the
    #: service answers such a query a page of persons at a time (paging.py)
    page: str | None = None
    #: `# answer: whole` in the header (with a page variable): the store can find the query's rows only for the whole
    #: register at once, so the service computes the whole answer once and gives it a page of persons at a time
    #: (paging.Answers)
    whole: bool = False


def queries_dir() -> Path:
    from crewkg.locations import kb_dir

    return kb_dir() / "queries"


def _header(text: str) -> dict[str, str]:
    """`# key: value` lines at the top; indented `#` lines continue the previous value."""
    fields: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:]
        head, sep, rest = body.strip().partition(":")
        if sep and head.isidentifier() and not body.startswith("  "):
            key = head.lower()
            fields[key] = rest.strip()
        elif key and body.strip():
            fields[key] = (fields[key] + " " + body.strip()).strip()
    return fields


def canned_queries() -> list[CannedQuery]:
    out = []
    folder = queries_dir()
    for path in sorted(folder.glob("*.rq")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        h = _header(text)
        out.append(CannedQuery(path.stem, h.get("title", path.stem), h.get("description", ""), text, path,
                               h.get("page") or None, h.get("answer") == "whole"))
    return out


def canned_words(q: CannedQuery, lang: str | None) -> tuple[str, str]:
    """(title, description) of a canned query: the .rq file's own without a language, else the catalogue's."""
    from crewkg.messages.catalogue import catalogue

    words = catalogue(lang) if lang is not None else {}
    return (words.get(f"service.query.{q.name}.title", q.title),
            words.get(f"service.query.{q.name}.description", q.description))


def resolve_query(arg: str) -> str:
    """The `query` argument: a .rq file, the name of a canned query, or the query text itself."""
    one_word = arg.strip() and not any(c.isspace() for c in arg.strip())
    if one_word and (arg.endswith(".rq") or Path(arg).is_file()):
        try:
            return Path(arg).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(arg, "", "query_file", os_reason(exc)) from None
    canned = {q.name: q for q in canned_queries()}
    if arg in canned:
        return canned[arg].text
    if one_word:
        raise InputError("", "query", "query_name", arg, ids=sorted(canned))
    return arg


# ------------------------------------------------------------------------------------------------------
# Output for people and programs (identical for both stores)
# ------------------------------------------------------------------------------------------------------
def short(term) -> str:
    """A term as people read it: prefixed names for the project's IRIs, literals by their value."""
    if term is None:
        return ""
    if isinstance(term, URIRef):
        s = str(term)
        for prefix, iri in PREFIXES.items():
            if s.startswith(iri) and prefix in ("crew", "kb", "person", "derived", "prov"):
                return f"{prefix}:{s[len(iri):]}"
        return s
    return str(term)


def _json_term(term) -> dict[str, Any] | None:
    if term is None:
        return None
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    out: dict[str, Any] = {"type": "literal", "value": str(term)}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype is not None:
        out["datatype"] = str(term.datatype)
    return out


def to_json(t: Table) -> str:
    """SPARQL 1.1 Query Results JSON."""
    if t.form == "ask":
        return json.dumps({"head": {}, "boolean": t.boolean})
    rows = []
    for r in t.rows:
        rows.append({v: _json_term(x) for v, x in zip(t.vars, r, strict=True) if x is not None})
    return json.dumps({"head": {"vars": t.vars}, "results": {"bindings": rows}}, ensure_ascii=False, indent=1)


def serialize_table(t: Table, accept: str | None) -> tuple[bytes, str]:
    """A SELECT's rows in the results format the Accept header chooses, as the stores write it (/sparql)."""
    key = negotiate(accept, TABULAR)
    if key == "json":
        body = to_json(t)
    elif key == "csv":
        body = to_csv(t)
    else:
        return (_tsv if key == "tsv" else _xml)(t.vars, t.rows), TABULAR[key]
    return body.encode("utf-8"), TABULAR[key]


def to_csv(t: Table) -> str:
    """SPARQL 1.1 Query Results CSV (values only)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    if t.form == "ask":
        w.writerow(["boolean"])
        w.writerow(["true" if t.boolean else "false"])
        return buf.getvalue()
    w.writerow(t.vars)
    for r in t.rows:
        w.writerow(["" if x is None else str(x) for x in r])
    return buf.getvalue()


def print_table(t: Table) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    console = Console(highlight=False, soft_wrap=False, width=160, emoji=False)
    if t.form == "ask":
        console.print("true" if t.boolean else "false")
        return
    table = RichTable(show_lines=False)
    for v in t.vars:
        table.add_column(v)
    for r in t.rows:
        table.add_row(*[short(x) for x in r])
    console.print(table)
    console.print(f"{len(t.rows)} row{'s' if len(t.rows) != 1 else ''}")
