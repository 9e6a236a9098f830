"""pyoxigraph's store (`--store oxigraph`, or a folder: an on-disk store that `crewkg export` fills and `crewkg serve`
reads), for registers: rdflib answers an aggregate over 230 k triples in seconds, pyoxigraph in tens of milliseconds
(docs/architecture.md, 'Engine notes'). It answers as the memory store does (stores.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from rdflib import Graph, URIRef

from crewkg.errors import InputError
from crewkg.service.dataset import DEFAULT_BASE, KB_GRAPH, PREFIXES, RECORDS_GRAPH, DatasetSpec, owned_closure
from crewkg.service.query_refusals import (
    MalformedQuery,
    ServiceRefused,
    names_a_dataset,
    parser_message,
    refuse_if_update,
    refuse_service,
)
from crewkg.service.results import GRAPH, TABULAR, Table, boolean_text, negotiate
from crewkg.service.sealing import refused_by_seal
from crewkg.service.terms import Triple, from_ox, nquads

T = TypeVar("T")
#: on-disk store handles a forked process inherited (kept, never closed there)
_INHERITED: list = []
#: quads of a bulk load above which RocksDB merges the loader's table files and `settle` compresses them: the loader
#: writes a batch of a million quads at a time, and six batches fit the levels below the first without a merge
SETTLE_ABOVE = 6_000_000
#: characters of N-Quads a bulk load passes between two quads of the sample `settle` writes again (≈ 0.25 %)
SAMPLE_EVERY = 1 << 16


def sample_of(text: str) -> list[str]:
    """Whole lines of N-Quads about every `SAMPLE_EVERY` characters of the text, for `OxigraphStore.settle`; none with
    a blank node: the bulk loader names a text's blank nodes anew, so such a quad written again would be another quad."""
    lines, at = [], 0
    while (start := text.find("\n", at)) >= 0 and (end := text.find("\n", start + 1)) >= 0:
        line = text[start + 1:end + 1]
        if "_:" in line:
            at = end
            continue
        lines.append(line)
        at = end + SAMPLE_EVERY
    return lines


class OxigraphStore:
    """pyoxigraph's in-memory store: Rust evaluation and serialization. Evaluation releases the GIL and
    cannot be interrupted in its thread; the service runs it in worker processes it can stop (querying.py)."""

    kind = "oxigraph"
    interruptible = False

    def __init__(self, path: Path | None = None, read_only: bool = False, hold: bool = False) -> None:
        """In memory, or on disk in the folder `path` (made if missing; what is written there stays); `read_only`:
        only read, without the folder's lock, so a folder another process writes or serves can be queried (what was
        on disk when it was opened); `hold`: only read, holding the folder's lock as a writer would (a service: no
        export writes into the folder while it serves it, and no writing handle of its own starts RocksDB's merging
        of the bulk-loaded table files, which would rewrite them uncompressed, docs/scale.md)."""
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
        self._bulk_loaded: tuple[int, str] = (0, "")  # what a bulk load wrote, for `settle`
        if hold and read_only and path is not None:
            self._lock = _held(path)
            if self._lock is None:
                raise InputError(str(path), "--store", "store_in_use")

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

    def bulk_stream(self, stream) -> None:
        """N-Quads read from a binary stream through Oxigraph's bulk loader, as they come (a register: gigabytes)."""
        self.version += 1
        self.store.bulk_load(stream, format=self._ox.RdfFormat.N_QUADS)

    def load_graph(self, g: Graph, graph: URIRef = KB_GRAPH) -> None:
        self.version += 1
        self.store.load(g.serialize(format="nt"), format=self._ox.RdfFormat.N_TRIPLES, to_graph=self._ox.NamedNode(str(graph)))

    def load_file(self, path: Path, fmt: str, graph: URIRef | None = None) -> None:
        """An RDF file into its own graph (its `file:` IRI); an N-Quads file's quads into the graphs they name (a
        partition's `crewkg export --format nq`: its records and derived facts where an export into a store puts
        them)."""
        ox = self._ox
        self.version += 1
        if fmt == "nq":
            self.store.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS)
            return
        self.store.bulk_load(path=str(path), format={"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES,
                                                      "jsonld": ox.RdfFormat.JSON_LD}[fmt],
                             to_graph=ox.NamedNode(str(graph or path.resolve().as_uri())))

    def objects(self, subject: URIRef, predicate: URIRef) -> list:
        ox = self._ox
        return [from_ox(q.object) for q in self.store.quads_for_pattern(ox.NamedNode(str(subject)),
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

    def triples_of(self, subject: URIRef, graph: URIRef) -> list[Triple]:
        """The triples of the subject and of what it owns (`_owned`) in one graph: a stored record."""
        name = self._ox.NamedNode(str(graph))
        return [(from_ox(q.subject), from_ox(q.predicate), from_ox(q.object)) for q in self._quads_of([subject])
                if q.graph_name == name]

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
        self.store.flush()
        self.store = None  # the last reference: RocksDB closes here
        # another process may take the folder in the moment between: then RocksDB's refusals are left to it
        self._lock, self.read_only = _held(self.path), True
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

    def bulk_loaded(self, quads: int, sample: str) -> None:
        """What a bulk load wrote: how many quads, and a sample of them as N-Quads (`settle`)."""
        self._bulk_loaded = (quads, sample)

    def settle(self, meanwhile: Callable[[OxigraphStore], T]) -> T | None:
        """After a bulk load of more than `SETTLE_ABOVE` quads, the loader's table files merged and then rewritten
        compressed; `meanwhile(self)` runs while they are rewritten (the store reads fast from the merge on) and its
        result is returned. None, with nothing done, after a smaller load or none: it stays as the loader wrote it,
        its batches fit the levels without a merge.

        The loader writes a compressed table file per batch of a million quads, and their key ranges overlap (every
        index is ordered by hashes), so RocksDB merges them once a writer holds the store. Oxigraph's RocksDB options
        compress a level only below the level merges land in, and that level is the last one while the last one is
        small: the first merge of a register writes everything uncompressed (100 000 synthetic persons, 18.5 M quads:
        5.2 GiB). Once the last level is large, a merge into it compresses what it rewrites; writing a sample spread
        over every index again (the quads are there already: nothing changes) and merging rewrites the whole last
        level: 2.9 GiB (docs/scale.md)."""
        import threading

        (quads, sample), self._bulk_loaded = self._bulk_loaded, (0, "")
        if self.path is None or self.read_only or quads <= SETTLE_ABOVE:
            return None
        self.store.optimize()  # every table file merged into the last level, uncompressed
        self.store.load(sample.encode("utf-8"), format=self._ox.RdfFormat.N_QUADS)
        self.store.flush()
        rewrite = threading.Thread(target=self._rewrite, name="crewkg-rewrite", daemon=True)
        rewrite.start()
        try:
            return meanwhile(self)
        finally:
            rewrite.join()

    def _rewrite(self) -> None:
        """The sample merged into the last level: every table file of it rewritten, compressed now that it is large."""
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
            refuse_if_update(query, exc)
            raise MalformedQuery(parser_message(exc)) from None
        except ValueError as exc:  # an IRI of the protocol dataset that is no IRI
            raise MalformedQuery(parser_message(exc)) from None

    def select(self, query: str, dataset: DatasetSpec | None = None, base: str | None = None) -> Table:
        try:
            return self._select(query, dataset, base)
        except OSError as exc:
            if refused_by_seal(exc):  # a SERVICE call a parser difference let through, stopped by the seal
                raise ServiceRefused from None
            raise

    def _select(self, query: str, dataset: DatasetSpec | None, base: str | None) -> Table:
        ox = self._ox
        result = self._run(query, dataset, base)
        if isinstance(result, ox.QuerySolutions):
            names = [v.value for v in result.variables]
            # a register's answers repeat the same certificates, provisions and dates: each term is converted once
            seen: dict[Any, Any] = {}

            def term(t):
                found = seen.get(t, seen)
                if found is seen:
                    found = seen[t] = from_ox(t)
                return found

            return Table("select", names, [tuple(term(sol[n]) for n in names) for sol in result])
        if isinstance(result, ox.QueryBoolean):
            return Table("ask", boolean=bool(result))
        return Table("graph", ["subject", "predicate", "object"],
                     [(from_ox(t.subject), from_ox(t.predicate), from_ox(t.object)) for t in result])

    def serialize(self, query: str, accept: str | None, deadline: float | None = None, dataset: DatasetSpec | None = None,
                  base: str | None = None) -> tuple[bytes, str]:
        """(The deadline cannot be enforced inside pyoxigraph; the service stops waiting instead.)"""
        try:
            return self._serialize(query, accept, dataset, base)
        except OSError as exc:
            if refused_by_seal(exc):  # a SERVICE call a parser difference let through, stopped by the seal
                raise ServiceRefused from None
            raise

    def _serialize(self, query: str, accept: str | None, dataset: DatasetSpec | None, base: str | None) -> tuple[bytes, str]:
        ox = self._ox
        result = self._run(query, dataset, base)
        if isinstance(result, (ox.QuerySolutions, ox.QueryBoolean)):
            key = negotiate(accept, TABULAR)
            if isinstance(result, ox.QueryBoolean) and key in ("csv", "tsv"):
                return boolean_text(bool(result)), TABULAR[key]
            fmt = {"json": ox.QueryResultsFormat.JSON, "xml": ox.QueryResultsFormat.XML, "csv": ox.QueryResultsFormat.CSV,
                   "tsv": ox.QueryResultsFormat.TSV}[key]
            return result.serialize(format=fmt), TABULAR[key]
        key = negotiate(accept, GRAPH)
        fmt = {"turtle": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "rdfxml": ox.RdfFormat.RDF_XML,
               "jsonld": ox.RdfFormat.JSON_LD}[key]
        return result.serialize(format=fmt) or b"", GRAPH[key]


def _held(path: Path):
    """The folder's lock file, locked as RocksDB's writer locks it (a POSIX lock on LOCK), or None where another
    process holds it."""
    import fcntl

    lock = open(path / "LOCK", "a+b")  # noqa: SIM115 - held as long as the store that keeps it
    try:
        fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None
    return lock
