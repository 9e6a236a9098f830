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

    def notes(self, s) -> dict[str, tuple[str, ...]]:
        """skos:editorialNote per language ('de', 'en'; an untagged note counts as English, the language the
        maintainers write readings in). A language without notes falls back to the other, so an answer in either
        language lists the readings the kb gives."""
        from rdflib.namespace import SKOS

        out: dict[str, list[str]] = {}
        for o in self.g.objects(s, SKOS.editorialNote):
            out.setdefault(getattr(o, "language", None) or "en", []).append(str(o))
        return per_language({k: tuple(sorted(v)) for k, v in out.items()})


#: The languages of the kb's texts; each falls back to the other.
LANGUAGES = ("de", "en")


def per_language(texts: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Texts per language with the fallback filled in: a language the kb gives none in takes the other's."""
    out = {lang: texts[lang] for lang in LANGUAGES if texts.get(lang)}
    for a, b in (("de", "en"), ("en", "de")):
        if a not in out and b in out:
            out[a] = out[b]
    return out

