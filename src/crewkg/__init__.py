"""crewkg — Austrian inland-navigation crew law as a knowledge graph and a logic program.

The Python API (``crewkg.law``, ``crewkg.person``, ``crewkg.check``, ``crewkg.explain``, ``crewkg.plan``,
``crewkg.crew``, ``crewkg.InputError``) lives in :mod:`crewkg.api` and is loaded on first use, so ``import crewkg``
stays light (no rdflib, no pyDatalog)."""

from typing import Any

import crewkg.law as _law_package  # noqa: F401 - loaded first, so the function below keeps the name `law`
from crewkg.version import __version__ as __version__  # its one home: crewkg/version.py (pyproject reads it)

__all__ = ["InputError", "check", "crew", "explain", "law", "person", "plan"]


def law() -> Any:
    """The compiled law (`crewkg.api.law`). The subpackage `crewkg.law` shares the name: importing it sets the
    package attribute once, when it is first loaded — above, before this function is defined — so `crewkg.law()`
    stays this function however much of the subpackage is imported later."""
    from crewkg import api

    return api.law()


def __getattr__(name: str) -> Any:
    if name in __all__:
        from crewkg import api

        return getattr(api, name)
    raise AttributeError(f"module 'crewkg' has no attribute {name!r}")
