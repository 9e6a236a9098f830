"""crewkg — Austrian inland-navigation crew law as a knowledge graph and a logic program.

The Python API (``crewkg.law``, ``crewkg.person``, ``crewkg.check``, ``crewkg.explain``, ``crewkg.InputError``)
lives in :mod:`crewkg.api` and is loaded on first use, so ``import crewkg`` stays light (no rdflib, no pyDatalog)."""

from typing import Any

__version__ = "0.1.0"
__all__ = ["InputError", "check", "crew", "explain", "law", "person", "plan"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from crewkg import api

        return getattr(api, name)
    raise AttributeError(f"module 'crewkg' has no attribute {name!r}")
