"""Loading the kb and ontology graphs, and the on-disk cache of everything compiled from them.

Parsing Turtle costs more than a whole check, so every compiled view of the kb goes through `compiled`, keyed by
the content hash of every kb and ontology file and by the source of the module that compiles it."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import stat
import tempfile
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


def compiled(name: str, version: str, compiler: str, build: Callable[[], T], expect: type | None = None) -> T:
    """Something compiled from the kb graph, cached on disk keyed by the kb version and by the source of the module
    that compiles it (`compiler`, its __file__), so an edit to either rebuilds it. Parsing Turtle costs more than a
    whole check; every compiled view of the kb (law, manning tables, crediting limits) goes through here.

    The cache is a pickle, so it is trusted only as far as it is provably ours: it lives in the private cache folder
    (`locations.cache_dir`) and carries an HMAC under a key that only this user can read (`_secret`). A file without
    a valid HMAC, of the wrong type, truncated or unreadable is rebuilt, never unpickled; a cache that cannot be
    written is skipped."""
    cdir = cache_dir()
    key = hashlib.sha256(version.encode() + Path(compiler).read_bytes()).hexdigest()[:16]
    cached = cdir / f"{name}-{key}.pickle" if cdir else None
    secret = _secret(cdir) if cdir else None
    if cached is not None and secret is not None:
        value = _read(cached, secret, expect)
        if value is not None:
            return value
    value = build()
    if cached is not None and secret is not None:
        _write(cached, secret, value)
    return value


_MAC = 32  # bytes of the HMAC-SHA256 in front of a cached pickle


def _secret(cdir: Path) -> bytes | None:
    """This user's cache key: 32 random bytes in a file of mode 0600 in the private cache folder, made once."""
    path = cdir / "cache.key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o077:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return data if len(data) == 32 else None


def _read(path: Path, secret: bytes, expect: type | None):
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    mac, body = blob[:_MAC], blob[_MAC:]
    if len(mac) != _MAC or not hmac.compare_digest(mac, hmac.new(secret, body, hashlib.sha256).digest()):
        return None  # not written by this user's crewkg: never unpickled
    try:
        value = pickle.loads(body)
    except Exception:
        return None
    return value if expect is None or isinstance(value, expect) else None


def _write(path: Path, secret: bytes, value: object) -> None:
    body = pickle.dumps(value)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(hmac.new(secret, body, hashlib.sha256).digest() + body)
        os.replace(tmp, path)
    except OSError:  # a full disk or a cache that vanished: the answer does not depend on the cache
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
