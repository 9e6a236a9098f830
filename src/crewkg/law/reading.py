"""Reading terms of the kb graph: the few accessors every compiler of the law (certificates and pathways, manning
tables) needs, defined once."""

from __future__ import annotations

from typing import Any

from crewkg.law.namespaces import local


class GraphReader:
    """Accessors over one rdflib graph: labels per language, single values, local names, editorial notes."""

    def __init__(self, g) -> None:
        self.g = g

    def labels(self, s) -> dict[str, str]:
        """rdfs:label per language; an untagged label counts as German, and English falls back to German."""
        from rdflib import RDFS, Literal

        out: dict[str, str] = {}
        for o in self.g.objects(s, RDFS.label):
            if isinstance(o, Literal):
                out.setdefault(o.language or "de", str(o))
        if "en" not in out and "de" in out:
            out["en"] = out["de"]
        return out

    def one(self, s, p):
        return self.g.value(s, p)

    def value(self, s, p) -> Any:
        v = self.one(s, p)
        return None if v is None else v.toPython()

    def num(self, s, p) -> int | None:
        v = self.one(s, p)
        return None if v is None else int(v.toPython())

    def opt(self, s, p) -> str | None:
        v = self.one(s, p)
        return None if v is None else local(v)

    def many(self, s, p) -> tuple[str, ...]:
        return tuple(sorted(local(o) for o in self.g.objects(s, p)))

    def text(self, s, p) -> str:
        v = self.one(s, p)
        return "" if v is None else str(v)

    def notes(self, s) -> tuple[str, ...]:
        from rdflib.namespace import SKOS

        return tuple(sorted(str(o) for o in self.g.objects(s, SKOS.editorialNote)))
