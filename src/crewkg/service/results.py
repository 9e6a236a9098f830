"""A query's result for people and programs, identical for both stores: the result as a `Table` of rdflib terms, the
media type an Accept header chooses, and the SPARQL 1.1 results formats (JSON, CSV, TSV, XML) written from it, or a
table printed for people (`crewkg sparql`)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from rdflib import XSD, BNode, Literal, URIRef

from crewkg.service.dataset import PREFIXES

#: result media types offered, per kind of result
TABULAR = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml", "csv": "text/csv",
           "tsv": "text/tab-separated-values"}
GRAPH = {"turtle": "text/turtle", "nt": "application/n-triples", "rdfxml": "application/rdf+xml",
         "jsonld": "application/ld+json"}
#: media types clients send for a result kind under another name: the first key the offers hold is taken
ALIASES = {"application/json": ("json", "jsonld"), "application/xml": ("xml", "rdfxml"), "text/xml": ("xml", "rdfxml"),
           "text/plain": ("nt",), "application/x-turtle": ("turtle",), "application/turtle": ("turtle",)}


class NotAcceptable(Exception):
    """No offered media type matches the Accept header."""


@dataclass
class Table:
    """A query result independent of the store: rdflib terms (None for unbound) in variable order."""

    form: str  # select | ask | graph
    vars: list[str] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)
    boolean: bool | None = None


# ------------------------------------------------------------------------------------------------------
# Content negotiation
# ------------------------------------------------------------------------------------------------------
def negotiate(accept: str | None, offers: dict[str, str]) -> str:
    """The key of the best offered media type for an Accept header (q-values, type/* and */*); the first
    offer when Accept is absent. Raises NotAcceptable."""
    if not accept or not accept.strip():
        return next(iter(offers))
    by_type = {v: k for k, v in offers.items()}
    best: tuple[float, int, str] | None = None
    for i, part in enumerate(accept.split(",")):
        items = [x.strip() for x in part.split(";")]
        mtype, q = items[0].lower(), 1.0
        for param in items[1:]:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if q <= 0:
            continue
        key = None
        if mtype in by_type:
            key = by_type[mtype]
        elif any(k in offers for k in ALIASES.get(mtype, ())):
            key = next(k for k in ALIASES[mtype] if k in offers)
        elif mtype == "*/*":
            key = next(iter(offers))
        elif mtype.endswith("/*"):
            key = next((k for k, v in offers.items() if v.startswith(mtype[:-1])), None)
        if key is not None and (best is None or q > best[0]):
            best = (q, -i, key)
    if best is None:
        raise NotAcceptable(f"none of {sorted(offers.values())} matches Accept: {accept}")
    return best[2]


# ------------------------------------------------------------------------------------------------------
# Results formats
# ------------------------------------------------------------------------------------------------------
def boolean_text(value: bool) -> bytes:
    """An ASK answer as CSV or TSV (the SPARQL 1.1 CSV/TSV note defines no boolean form; this is the common one)."""
    return b"true" if value else b"false"


#: what a TSV term escapes (SPARQL 1.1 Query Results CSV and TSV § 4: a string in Turtle's short form, so a tab,
#: a line feed or a carriage return never splits a row or a cell)
_TSV_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def tsv_results(variables, rows) -> bytes:
    """SPARQL 1.1 TSV results: `?var` headers, terms in Turtle/N-Triples syntax, empty for unbound. rdflib writes a
    literal with a line break in Turtle's long form (`\"\"\"a⏎b\"\"\"`), which splits the row: such a literal is written
    in the short form with its escapes, as Oxigraph writes it."""
    def term(t) -> str:
        if t is None:
            return ""
        if isinstance(t, Literal) and any(c in t for c in "\n\r\t"):
            suffix = f"@{t.language}" if t.language else (
                f"^^<{t.datatype}>" if t.datatype is not None and t.datatype != XSD.string else "")
            return '"' + str(t).translate(_TSV_ESCAPES) + '"' + suffix
        return t.n3().replace("\t", "\\t")

    lines = ["\t".join("?" + str(v) for v in variables)]
    lines += ["\t".join(term(t) for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def xml_results(variables, rows) -> bytes:
    """SPARQL Query Results XML for a SELECT. (rdflib's own writer drops every literal whose value is false in Python:
    0, 0.0, false and the empty string come out as empty elements.)"""
    from xml.sax.saxutils import escape, quoteattr

    def term(t) -> str:
        if isinstance(t, URIRef):
            return f"<uri>{escape(str(t))}</uri>"
        if isinstance(t, BNode):
            return f"<bnode>{escape(str(t))}</bnode>"
        attr = f" xml:lang={quoteattr(t.language)}" if t.language else (
            f" datatype={quoteattr(str(t.datatype))}" if t.datatype else "")
        return f"<literal{attr}>{escape(str(t))}</literal>"

    out = ['<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>']
    out += [f"<variable name={quoteattr(str(v))}/>" for v in variables]
    out.append("</head><results>")
    for row in rows:
        out.append("<result>")
        out += [f"<binding name={quoteattr(str(v))}>{term(t)}</binding>" for v, t in zip(variables, row, strict=True)
                if t is not None]
        out.append("</result>")
    out.append("</results></sparql>\n")
    return "".join(out).encode("utf-8")


def _json_term(term) -> dict[str, Any] | None:
    if term is None:
        return None
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    out: dict[str, Any] = {"type": "literal", "value": str(term)}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype is not None:
        out["datatype"] = str(term.datatype)
    return out


def to_json(t: Table) -> str:
    """SPARQL 1.1 Query Results JSON."""
    if t.form == "ask":
        return json.dumps({"head": {}, "boolean": t.boolean})
    rows = []
    for r in t.rows:
        rows.append({v: _json_term(x) for v, x in zip(t.vars, r, strict=True) if x is not None})
    return json.dumps({"head": {"vars": t.vars}, "results": {"bindings": rows}}, ensure_ascii=False, indent=1)


def to_csv(t: Table) -> str:
    """SPARQL 1.1 Query Results CSV (values only)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    if t.form == "ask":
        w.writerow(["boolean"])
        w.writerow(["true" if t.boolean else "false"])
        return buf.getvalue()
    w.writerow(t.vars)
    for r in t.rows:
        w.writerow(["" if x is None else str(x) for x in r])
    return buf.getvalue()


def serialize_table(t: Table, accept: str | None) -> tuple[bytes, str]:
    """A SELECT's rows in the results format the Accept header chooses, as the stores write it (/sparql)."""
    key = negotiate(accept, TABULAR)
    if key == "json":
        body = to_json(t)
    elif key == "csv":
        body = to_csv(t)
    else:
        return (tsv_results if key == "tsv" else xml_results)(t.vars, t.rows), TABULAR[key]
    return body.encode("utf-8"), TABULAR[key]


# ------------------------------------------------------------------------------------------------------
# For people
# ------------------------------------------------------------------------------------------------------
def short(term) -> str:
    """A term as people read it: prefixed names for the project's IRIs, literals by their value."""
    if term is None:
        return ""
    if isinstance(term, URIRef):
        s = str(term)
        for prefix, iri in PREFIXES.items():
            if s.startswith(iri) and prefix in ("crew", "kb", "person", "derived", "prov"):
                return f"{prefix}:{s[len(iri):]}"
        return s
    return str(term)


def print_table(t: Table) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    from crewkg.answers.render import output_width

    console = Console(highlight=False, soft_wrap=False, width=output_width(piped=160), emoji=False)
    if t.form == "ask":
        console.print("true" if t.boolean else "false")
        return
    table = RichTable(show_lines=False)
    for v in t.vars:
        table.add_column(v)
    for r in t.rows:
        table.add_row(*[short(x) for x in r])
    console.print(table)
    console.print(f"{len(t.rows)} row{'s' if len(t.rows) != 1 else ''}")
