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
    """A writable cache folder, or None where there is none (then nothing is cached)."""
    base = Path(os.environ.get("CREWKG_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "crewkg")
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base if os.access(base, os.W_OK) else None
