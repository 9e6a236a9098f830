"""RDF terms between the two stores and the text they load: rdflib's terms from pyoxigraph's, one form of a simple
literal for both, and triples written as N-Quads (the form both stores load fastest)."""

from __future__ import annotations

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
