"""Where the law and the ontology live: next to the package when installed as a wheel, at the
repository top level in a source checkout, or wherever CREWKG_KB / CREWKG_ONTOLOGY point (tests use this
to evaluate an edited copy of the kb without touching Python)."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _find(name: str, env: str) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env])
    for candidate in (_HERE / name, _HERE.parents[1] / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cannot find the {name}/ folder; set {env}")


def kb_dir() -> Path:
    return _find("kb", "CREWKG_KB")


def ontology_dir() -> Path:
    return _find("ontology", "CREWKG_ONTOLOGY")


def cache_dir() -> Path | None:
    """A private, writable cache folder, or None where there is none (then nothing is cached, nothing fails).

    The cache holds compiled law that is loaded back as Python objects and markers that skip SHACL, so it is used only
    where no other user can write: created with mode 0700, owned by the current user, not group- or world-writable.
    A cache path that is a file, read-only, someone else's or shared is ignored, never trusted.
    CREWKG_CACHE names the folder; without it, it is the platform's own place for a user's caches (`_platform_cache`)."""
    base = Path(os.environ.get("CREWKG_CACHE") or _platform_cache())
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = base.stat()
    except OSError:
        return None
    if not base.is_dir() or not os.access(base, os.W_OK | os.X_OK):
        return None
    if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
        return None
    return base


def _platform_cache() -> str:
    """The place this platform keeps a user's caches for crewkg (platformdirs): $XDG_CACHE_HOME/crewkg or
    ~/.cache/crewkg on Linux, ~/Library/Caches/crewkg on macOS, %LOCALAPPDATA%\\crewkg\\Cache on Windows."""
    from platformdirs import user_cache_dir  # only where CREWKG_CACHE does not name the folder

    return user_cache_dir("crewkg", appauthor=False)
