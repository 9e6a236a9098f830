"""The requirement-kind registry: one module per kind of requirement (MinimumAge, Fahrzeit, Exam, ...).

A kind module declares what the kind means to the Datalog program: its rule clauses (`CLAUSES`), the facts its
kb requirements give (`kb_facts`), the fact predicates it reads (`PREDICATES`), and what a person has toward it
for the answer (`have`). Modules are discovered with pkgutil over this package's `__path__`, so adding a kind is
adding a module (a test may append a folder to `__path__`). An unknown kind in the kb fails clearly at load.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One requirement kind, as its module declares it."""

    name: str
    order: int
    measured: bool
    clauses: str
    predicates: dict[str, int]
    kb_facts: Callable[[Any], list[tuple]]
    have: Callable[..., Any] | None


def _kind_of(module: ModuleType) -> Kind:
    return Kind(name=module.NAME, order=getattr(module, "ORDER", 100),
                measured=bool(getattr(module, "MEASURED", False)), clauses=getattr(module, "CLAUSES", ""),
                predicates=dict(getattr(module, "PREDICATES", {})),
                kb_facts=getattr(module, "kb_facts", lambda r: []), have=getattr(module, "have", None))


_FOUND: dict[tuple[str, ...], dict[str, Kind]] = {}


def kinds() -> dict[str, Kind]:
    """Every kind module of the package (discovered again when `__path__` changes, so an added folder counts)."""
    key = tuple(__path__)
    if key not in _FOUND:
        _FOUND[key] = _discover()
    return _FOUND[key]


def _discover() -> dict[str, Kind]:
    found: dict[str, Kind] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "NAME"):
            kind = _kind_of(module)
            found[kind.name] = kind
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


class UnknownKind(ValueError):
    """A requirement in the kb names a kind no module of this package declares."""


def kind(name: str) -> Kind:
    """The kind called `name`; an unknown kind fails clearly."""
    found = kinds()
    if name not in found:
        raise UnknownKind(f"requirement kind {name!r} has no module in crewkg.rules.kinds (known: {sorted(found)})")
    return found[name]
