"""`crewkg export`: persons' records and derived facts as one RDF graph or file, with PROV-O provenance.

The triples come from derived.py (what the Datalog program concluded about each person, a transcription of the
eligibility answer), records_rdf.py (the record, its entries under stable IRIs so that provenance can point at them)
and provenance.py; crew checks from crew_checks.py. Identifiers are deterministic (derived_terms.py), so a person
exported again into an earlier export replaces their facts (delete-before-insert) and never accumulates stale or
duplicate results. Two exports into one file never lose each other's persons (`export_file`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

from rdflib import BNode, Graph, URIRef
from rdflib.namespace import PROV, RDFS, XSD

from crewkg.law.namespaces import CREW_IRI, KB, PERSON
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service.derived import evaluate
from crewkg.service.derived_terms import DERIVED_IRI, derived_subjects
from crewkg.service.records_rdf import record_subjects
from crewkg.service.terms import Triple

#: the prefixes of an export, every one declared in its Turtle (a PROV reader turns IRIs into qualified names by them)
PREFIXES = {"crew": CREW_IRI, "kb": str(KB), "person": str(PERSON), "derived": DERIVED_IRI, "prov": str(PROV),
            "xsd": str(XSD), "rdfs": str(RDFS)}


def bind_prefixes(g: Graph) -> Graph:
    for prefix, iri in PREFIXES.items():
        g.bind(prefix, iri)
    return g


def serialize(graph: Graph, fmt: str) -> str:
    """The export's text in `fmt` (a FORMATS key). rdflib writes only the Turtle prefixes a compact name uses, and
    no derived IRI has one (its local part holds '/'), so the prefixes are declared here, every one of them."""
    if fmt == "jsonld":  # compact names in JSON-LD too: the prefixes as its @context
        return graph.serialize(format="json-ld", context=dict(PREFIXES), auto_compact=True)
    text = graph.serialize(format=FORMATS[fmt][0])
    if fmt != "turtle":
        return text
    missing = [f"@prefix {prefix}: <{iri}> .\n" for prefix, iri in PREFIXES.items() if f"@prefix {prefix}: " not in text]
    return "".join(missing) + text


def replace_person(g: Graph, law: Law, pid: str, triples: Iterable[Triple]) -> None:
    """Delete-before-insert: drop every derived subject of the person, then add the new results."""
    for s in derived_subjects(law, pid):
        g.remove((s, None, None))
    for t in triples:
        g.add(t)


def export_graph(law: Law, persons: list[Person], as_of: date, into: Graph | None = None) -> Graph:
    """The persons' records and derived facts, merged into `into` (an earlier export) with replacement. The records
    travel with the results so that the file alone answers the canned queries (`crewkg sparql --graph FILE`: who a
    result is about, crew:personId; the sailing and sea records the credited days and the sea-time answers name) and
    the PROV chain (result -> credited count -> entries) can be followed in it."""
    g = bind_prefixes(into if into is not None else Graph())
    for p, record, derived in evaluate(law, persons, as_of):
        # the earlier record, entries and links included, goes with its results (also the entries it had that the
        # record read now lacks: every node under the person's IRI that the person links to)
        own = str(PERSON[p.id]) + "/"
        _drop(g, [*record_subjects(p), *(o for o in g.objects(PERSON[p.id], None)
                                         if isinstance(o, URIRef) and str(o).startswith(own))])
        replace_person(g, law, p.id, derived + record)
    return g


def _drop(g: Graph, subjects: Iterable[URIRef]) -> None:
    """Remove the subjects' triples and the blank nodes they describe (a record's certificate issues, exam results)."""
    todo: list = list(subjects)
    while todo:
        s = todo.pop()
        todo += [o for o in g.objects(s, None) if isinstance(o, BNode)]
        g.remove((s, None, None))


#: --format value -> rdflib serializer name and the file suffixes that imply it
FORMATS = {"turtle": ("turtle", (".ttl",)), "nt": ("nt", (".nt",)), "jsonld": ("json-ld", (".jsonld", ".json"))}


def format_for_suffix(suffix: str) -> str | None:
    for name, (_, suffixes) in FORMATS.items():
        if suffix.lower() in suffixes:
            return name
    return None


def export_file(law: Law, persons: list[Person], as_of: date, out: Path, fmt: str) -> Graph:
    """Merge the persons' derived facts into the export at `out` and replace it in one rename.

    Two exports into one file must not lose each other's persons, and an interrupted export must leave neither a
    half-written file nor a stray temporary one: the read-merge-write runs under an exclusive lock on a sibling lock
    file, the text goes to a unique temporary name in the same folder, and any failure (Ctrl-C included) removes it.
    A missing folder is refused: an export does not invent where it goes."""
    import fcntl

    from crewkg.errors import InputError
    from crewkg.outputs import write_atomically

    if not out.parent.is_dir():
        raise InputError(str(out), "--out", "out_folder", str(out.parent))
    lock_path = out.with_name(f".{out.name}.lock")
    try:
        lock = open(lock_path, "a")  # noqa: SIM115 - held for the whole update
    except OSError as exc:
        raise InputError(str(out), "--out", "writable_folder", reason=exc.strerror) from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        earlier = None
        if out.exists():
            earlier = Graph()
            read_as = format_for_suffix(out.suffix) or fmt
            try:
                earlier.parse(out, format=FORMATS[read_as][0])
            except Exception as exc:  # any parser failure: the earlier export cannot be merged
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
                raise InputError(str(out), "", "earlier_export", format=read_as, reason=first) from None
        graph = export_graph(law, persons, as_of, earlier)
        write_atomically(out, [serialize(graph, fmt)])
    return graph
