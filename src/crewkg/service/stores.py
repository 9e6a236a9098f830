"""SPARQL over the ontology, the kb, person records and their derived facts, on one of two stores that give
identical answers: rdflib's in-memory graph (`memory`, fine for a handful of persons: memory_store.py) or pyoxigraph
(`oxigraph`, for registers: oxigraph_store.py), in memory or in a folder on disk. Every store holds one RDF dataset of
named graphs (dataset.py); both are read-only to SPARQL (query_refusals.py); persons are put into a store by Python
(loading.py), with delete-before-insert per person."""

from __future__ import annotations

from pathlib import Path

from rdflib import Graph

from crewkg.errors import InputError
from crewkg.service.dataset import KB_GRAPH, ONTOLOGY_GRAPH
from crewkg.service.memory_store import MemoryStore
from crewkg.service.oxigraph_store import OxigraphStore

STORES = ("memory", "oxigraph")

Store = MemoryStore | OxigraphStore


def is_store_dir(value: str) -> bool:
    """`--store` names a folder (an on-disk Oxigraph store) rather than a kind: anything but memory or oxigraph."""
    return value not in STORES


def open_store_dir(path: Path, must_exist: bool, read_only: bool = False, hold: bool = False) -> OxigraphStore:
    """The on-disk Oxigraph store in the folder; ontology + kb are (re)loaded into their graphs on every opening
    for writing, so a changed kb replaces the old one; persons stay until they are exported again. `read_only`:
    an existing store, only read (`OxigraphStore`), `hold`: holding its lock (a service)."""
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
    store = OxigraphStore(path, read_only=read_only and must_exist, hold=hold)
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


def ask(store: Store, query: str):
    """A client's query answered as a Table (`crewkg sparql`): SERVICE refused on the parsed query, and an Oxigraph
    query evaluated in a sealed child process that can open no socket (sealing.py), so no parser difference can make
    the engine reach another host. The memory store's engine is closed in this process (query_refusals.close_rdflib)."""
    from crewkg.service.query_refusals import refuse_service
    from crewkg.service.sealing import in_sealed_process

    if store.kind != "oxigraph":
        return store.select(query)
    refuse_service(query)  # decided here, before the fork: a parse is never begun in the child
    if not store.read_only:
        store.flush()  # what was put into a store folder is on disk for the child's own read-only handle
    return in_sealed_process(store.select, query, before=store.reopen_after_fork)
