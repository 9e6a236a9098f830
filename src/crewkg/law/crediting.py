"""Crediting limits as data (§ 6 Abs. 4 SchBV): at most so many Fahrzeit days credited in any so many consecutive days,
per navigation area. Read from the kb with SPARQL and cached like the compiled law."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from crewkg.law.cache import compiled, load_graph
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir, ontology_dir


@dataclass(frozen=True)
class CreditingLimit:
    """§ 6 Abs. 4 SchBV as data: at most `days` credited in any `period` consecutive days in one navigation area."""

    id: str
    area: str
    days: int
    period: int
    provision: str
    citation: str
    notes: tuple[str, ...] = ()


_LIMITS_QUERY = """
PREFIX crew: <https://w3id.org/crewkg/onto#>
SELECT ?limit ?area ?days ?period ?prov ?cit WHERE {
  ?limit a crew:CreditingLimit ; crew:inNavigationArea ?area ; crew:maximumCreditedDays ?days ;
         crew:periodDays ?period ; crew:provision ?prov .
  ?prov crew:citation ?cit .
}"""


def crediting_limits(kb: Path | None = None) -> dict[str, CreditingLimit]:
    """The crediting limits of the kb by navigation area ('InlandNavigation', 'SeaNavigation').

    `Law` does not compile them (they serve planning only), so they are read from the kb graph with SPARQL and
    cached like the compiled law: in memory and as a pickle keyed by the kb's content hash."""
    return _limits(Path(kb or kb_dir()).resolve(), load_law(kb).version)


@lru_cache(maxsize=8)
def _limits(kb: Path, version: str) -> dict[str, CreditingLimit]:
    return compiled("limits", version, __file__, lambda: _read_limits(kb), expect=dict)


def _read_limits(kb: Path) -> dict[str, CreditingLimit]:
    from rdflib.namespace import SKOS

    from crewkg.law.namespaces import local

    g = load_graph(kb, ontology_dir())
    out: dict[str, CreditingLimit] = {}
    for row in g.query(_LIMITS_QUERY):
        notes = tuple(sorted(str(n) for n in g.objects(row.limit, SKOS.editorialNote)))
        out[local(row.area)] = CreditingLimit(local(row.limit), local(row.area), int(row.days), int(row.period),
                                              local(row.prov), str(row.cit), notes)
    return out
