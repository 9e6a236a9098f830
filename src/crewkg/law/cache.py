"""Loading the kb and ontology graphs, and the on-disk cache of everything compiled from them.

Parsing Turtle costs more than a whole check, so every compiled view of the kb goes through `compiled`, keyed by
the content hash of every kb and ontology file and by the source of the module that compiles it."""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from crewkg.locations import cache_dir, kb_dir, ontology_dir

T = TypeVar("T")

def _files(kb: Path, onto: Path) -> list[Path]:
    return sorted(onto.glob("*.ttl")) + sorted(p for p in kb.rglob("*.ttl") if "examples" not in p.parts and "queries" not in p.parts)


def _digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.name).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def load_graph(kb: Path | None = None, onto: Path | None = None):
    """The merged ontology + kb graph (rdflib), for SPARQL, SHACL and the hygiene tests."""
    from rdflib import Graph

    g = Graph()
    for f in _files(kb or kb_dir(), onto or ontology_dir()):
        g.parse(f, format="turtle")
    return g


def compiled(name: str, version: str, compiler: str, build: Callable[[], T]) -> T:
    """Something compiled from the kb graph, cached on disk as a pickle keyed by the kb version and by the source of
    the module that compiles it (`compiler`, its __file__), so an edit to either rebuilds it. Parsing Turtle costs
    more than a whole check; every compiled view of the kb (law, manning tables, crediting limits) goes through here."""
    cdir = cache_dir()
    key = hashlib.sha256(version.encode() + Path(compiler).read_bytes()).hexdigest()[:16]
    cached = cdir / f"{name}-{key}.pickle" if cdir else None
    if cached and cached.exists():
        try:
            return pickle.loads(cached.read_bytes())
        except Exception:  # a stale or foreign pickle is rebuilt, never trusted
            pass
    value = build()
    if cached:
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(value))
        tmp.replace(cached)
    return value
