"""RDF terms between the two stores and the text they load: rdflib's terms from pyoxigraph's, one form of a simple
literal for both, and triples written as N-Quads (the form both stores load fastest)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

#: a triple as the export writes it and the stores load it
Triple = tuple[URIRef, URIRef, URIRef | Literal]


def plain(term):
    """rdflib and pyoxigraph spell a simple literal differently (no datatype / xsd:string): one form."""
    if isinstance(term, Literal) and term.datatype == XSD.string:
        return Literal(str(term))
    return term


def from_ox(term):
    """A pyoxigraph term (or None, for an unbound variable) as the rdflib term the other store gives."""
    import pyoxigraph as ox

    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        if term.datatype.value == str(XSD.string):
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(term.datatype.value), normalize=False)
    raise TypeError(f"unexpected term {term!r}")


def _nt(term) -> str:
    """A term in N-Quads syntax. rdflib's `Literal.n3()` writes a literal with a line break in Turtle's long form
    (\"\"\"…\"\"\"), which N-Quads has not: such a record or reason would make the whole batch unreadable."""
    if not isinstance(term, Literal):
        return term.n3()
    text = str(term).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if term.language:
        return f'"{text}"@{term.language}'
    return f'"{text}"^^<{term.datatype}>' if term.datatype else f'"{text}"'


def nquads(triples: Iterable[Triple], graph: URIRef) -> str:
    """Triples as N-Quads in the named graph."""
    g = graph.n3()
    return "".join(f"{s.n3()} {p.n3()} {_nt(o)} {g} .\n" for s, p, o in triples)


class Text:
    """Triples as the text of one syntax — N-Triples (`nt`), N-Quads (`nq`, in a named graph) or Turtle (`turtle`, a
    block per subject with the prefixes of `prefixes`) — each term's text made once: a register's export writes the
    same predicates, kb resources and dates hundreds of thousands of times, and rdflib's `n3()` was a fifth of it."""

    def __init__(self, syntax: str, prefixes: dict[str, str] | None = None) -> None:
        self.syntax = syntax
        self.prefixes = sorted((prefixes or {}).items(), key=lambda kv: -len(kv[1]))
        self._made: dict = {}

    def term(self, t) -> str:
        made = self._made.get(t)
        if made is None:
            if len(self._made) >= _KEPT_TERMS:  # a register's persons' own IRIs come once each: forget them
                self._made.clear()
            made = self._made[t] = self._turtle(t) if self.syntax == "turtle" else _nt(t)
        return made

    def _turtle(self, t) -> str:
        """A term in Turtle: a prefixed name where the local part needs no escape, a bare number or boolean."""
        if isinstance(t, Literal):
            dt = str(t.datatype) if t.datatype is not None else None
            if dt == str(XSD.integer) and _INTEGER.fullmatch(str(t)) or dt == str(XSD.boolean) and str(t) in ("true", "false"):
                return str(t)
            text = _nt(t)
            return text if dt is None else text.replace(f"^^<{dt}>", "^^" + self._turtle(t.datatype))
        if isinstance(t, URIRef):
            iri = str(t)
            if iri == _RDF_TYPE:
                return "a"
            for prefix, ns in self.prefixes:
                if iri.startswith(ns) and _LOCAL.fullmatch(iri[len(ns):]):
                    return f"{prefix}:{iri[len(ns):]}"
        return t.n3()

    def triples(self, triples: Iterable[Triple], graph: URIRef | None = None) -> str:
        """The triples' text (N-Quads in `graph`)."""
        term = self.term
        if self.syntax == "turtle":
            subjects: dict = {}
            for s, p, o in triples:
                subjects.setdefault(s, []).append((p, o))
            return "".join(f"{term(s)} " + " ;\n    ".join(f"{term(p)} {term(o)}" for p, o in pos) + " .\n"
                           for s, pos in subjects.items())
        end = f" {graph.n3()} .\n" if self.syntax == "nq" and graph is not None else " .\n"
        return "".join(f"{term(s)} {term(p)} {term(o)}{end}" for s, p, o in triples)

    def head(self) -> str:
        """What a Turtle text declares before its first triple."""
        return "".join(f"@prefix {prefix}: <{ns}> .\n" for prefix, ns in sorted(self.prefixes)) if self.syntax == "turtle" else ""


#: the terms whose text a `Text` keeps (memory stays flat however many persons it writes)
_KEPT_TERMS = 50_000
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#: a local name a prefixed name may hold as it is (Turtle's PN_LOCAL without escapes, and no trailing dot)
_LOCAL = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_INTEGER = re.compile(r"[+-]?[0-9]+")
