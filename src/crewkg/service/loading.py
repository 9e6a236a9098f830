"""Putting what is asked about into a store: persons (their records and derived facts, evaluated by Datalog, in worker
processes for a register), crew checks of vessels and rosters, and RDF files as they are (`build_store`, the store of
`crewkg sparql` and `crewkg serve`; `put_persons`, `crewkg export --store`)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path

from crewkg.errors import InputError
from crewkg.law.namespaces import CREW_IRI
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service.crew_checks import crew_check_subjects, crew_check_triples
from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH
from crewkg.service.derived import COMPACT
from crewkg.service.derived_terms import D, derived_subjects, evaluation_iri
from crewkg.service.export import format_for_suffix
from crewkg.service.provenance import input_digest
from crewkg.service.stores import Store, is_store_dir, new_store, open_store_dir


def put_persons(store: Store, law: Law, persons: Iterable[Person], as_of: date, replace: bool = True,
                keep_unchanged: bool = False, workers: int = 1, shape: str = COMPACT, batch: int | None = None) -> int:
    """Evaluate the persons (`streaming.blocks`: worker processes where there are more than one) and put their records
    and derived facts into the store in the `shape`, removing whatever an earlier evaluation of the same person left
    there (delete-before-insert; without `replace` the store is taken to hold none of them). With `keep_unchanged`, a
    person whose evaluation in the store read exactly what this one would (`crew:inputDigest`) keeps their facts and
    is not evaluated again. A person's input digest is written after their facts, so that a person with a digest is
    complete. Into a new on-disk store every quad goes through one run of Oxigraph's bulk loader, fed as the persons
    are evaluated (`_bulk`). `batch`: persons a worker evaluates at a time. Returns how many persons were kept so."""
    from crewkg.service.streaming import BATCH, parts

    kept = [0]

    def todo() -> Iterator[Person]:
        for p in persons:
            if keep_unchanged and store.objects(evaluation_iri(p.id), D.inputDigest) == [input_digest(law, p, as_of)]:
                kept[0] += 1
            else:
                yield p

    written = parts(law, todo(), as_of, shape, "nq", workers, digest_apart=True, marks=False, batch=batch or BATCH)
    if not replace and getattr(store, "path", None) is not None:
        _bulk(store, written)
        return kept[0]
    for part in written:  # a batch's persons replace their earlier selves, each digest last (one transaction)
        facts = part.whole()
        if replace:
            store.replace_subjects([s for pid in part.persons for s in person_subjects(law, pid)], facts)
        else:
            store.add_nquads(facts)
        store.add_nquads(part.digests)
    return kept[0]


def person_subjects(law: Law, pid: str) -> list:
    """Every subject a person's record and evaluation can have (and, through them, what they own)."""
    from crewkg.law.namespaces import PERSON

    return [PERSON[pid], *derived_subjects(law, pid)]


def _bulk(store, written: Iterator) -> None:
    """Parts into a new on-disk store through one run of Oxigraph's bulk loader, in a thread of its own, reading the
    N-Quads as the workers write them (the digests after every fact, from a file beside the store). One run: each run
    leaves its own table files, and while a writer holds the store RocksDB merges overlapping ones, the first time
    into a level it keeps uncompressed — 10 000 synthetic persons, 2.3 million quads: 448 MiB as the bulk loader
    writes them, 691 MiB once merged (docs/scale.md). What was loaded and a sample of it are handed to the store for
    `OxigraphStore.settle`, which the caller runs before it closes the store (`crewkg export`)."""
    import queue
    import tempfile
    import threading

    from crewkg.service.oxigraph_store import sample_of

    pieces: queue.Queue = queue.Queue(maxsize=16)
    failed: list[BaseException] = []

    def load() -> None:
        try:
            store.bulk_stream(_Pipe(pieces))
        except BaseException as exc:  # handed to the writing thread
            failed.append(exc)
            while pieces.get() is not None:  # let the writer finish its puts
                pass

    loader = threading.Thread(target=load, name="crewkg-bulk-load", daemon=True)
    loader.start()
    quads, sample = 0, []
    with tempfile.TemporaryFile("w+b", dir=store.path.parent) as digests:
        try:
            for part in written:
                for piece in part.pieces():
                    if failed:
                        raise failed[0]
                    pieces.put(piece.encode("utf-8"))
                    sample += sample_of(piece)
                quads += part.triples
                digests.write(part.digests.encode("utf-8"))
            digests.seek(0)
            while block := digests.read(1 << 20):
                pieces.put(block)
        finally:
            pieces.put(None)
            loader.join()
    if failed:
        raise failed[0]
    store.bulk_loaded(quads, "".join(sample))


class _Pipe(io.RawIOBase):
    """The bulk loader's input: the pieces put into a queue, read as one stream (None ends it)."""

    def __init__(self, pieces) -> None:
        self._pieces, self._left, self._done = pieces, memoryview(b""), False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not len(self._left) and not self._done:
            piece = self._pieces.get()
            if piece is None:
                self._done = True
            else:
                self._left = memoryview(piece)
        n = min(len(buffer), len(self._left))
        buffer[:n] = self._left[:n]
        self._left = self._left[n:]
        return n


def load_graph_files(store: Store, paths: Iterable[Path]) -> None:
    """Add RDF files as they are (an earlier `crewkg export`, a register's records): Turtle, N-Triples or
    JSON-LD by suffix. A file that does not parse is an InputError naming it."""
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
                lang: str = "de", shape: str = COMPACT) -> Store:
    """A store with ontology + kb, the persons' records and derived facts (evaluated by `workers` processes where
    there are more than one run's persons, `put_persons`), crew checks of vessels and rosters, and any extra RDF
    files. A store folder with nothing to put into it is only read: with `only_read` (one question, `crewkg
    sparql`: a folder `crewkg serve` holds can be asked too) without its lock, else holding it (`crewkg serve`). `lang`: the language of the crew checks' sentences;
    `shape`: of the persons' derivation graphs (derived.py). A store folder written into gets a new version, so that
    what an export kept for it is no longer taken for its answers (kept.py)."""
    graphs, crews = list(graphs), list(crews)
    if is_store_dir(kind):
        if not persons and not graphs and not crews:  # only read: a service holds the folder's lock, a question not
            return open_store_dir(Path(kind), must_exist=True, read_only=True, hold=not only_read)
        store = open_store_dir(Path(kind), must_exist=True)
        if persons or graphs or crews:
            from crewkg.service.kept import touch

            touch(store)
        put_persons(store, law, persons, as_of, replace=True, workers=workers, shape=shape)
    else:
        store = new_store(kind)
        put_persons(store, law, persons, as_of, replace=False, workers=workers, shape=shape)
    put_crew_checks(store, law, crews, as_of, lang)
    load_graph_files(store, graphs)
    if only_read and is_store_dir(kind):  # a question's sealed process opens the folder read-only: no compaction
        store.only_read_from_now()  # deleting table files under its feet ("Corruption: … No such file")
    return store


def other_kb_evaluations(store: Store, law: Law) -> int:
    """How many evaluations in the store were made with another version of the kb (`crew:kbVersion`): their facts,
    and the summary triples the canned queries start from, are that version's until they are exported again, so a
    store left from an earlier crewkg answers about them as it did then, or not at all. A store folder's export
    counted them for its version (kept.py): a question to the folder does not count them again (a scan of every
    evaluation, 0.25 s at 100 000 persons)."""
    from crewkg.service.kept import kept

    ready = kept(store)
    if ready is not None and ready.kb_versions:
        return sum(n for v, n in ready.kb_versions.items() if v != law.version)
    query = (f"PREFIX crew: <{CREW_IRI}>\nSELECT (COUNT(?ev) AS ?n) WHERE {{ ?ev crew:kbVersion ?v . "
             f"FILTER(STR(?v) != {json.dumps(law.version)}) }}")
    rows = store.select(query).rows
    return int(rows[0][0].toPython()) if rows and rows[0][0] is not None else 0
