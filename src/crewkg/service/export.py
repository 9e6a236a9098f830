"""`crewkg export`: persons' records and derived facts as RDF with PROV-O provenance, in a file, on standard output
or as one rdflib graph.

The triples come from compact.py (the default shape: what concerns each person, issue 46) or derived.py (`--derivations
full`: every requirement of every pathway), both transcriptions of what the Datalog program concluded, records_rdf.py
(the record, its entries under stable IRIs so that provenance can point at them) and provenance.py; crew checks from
crew_checks.py. N-Triples, N-Quads and Turtle are streamed a block per person as the register is evaluated
(streaming.py), so an export holds a bounded number of persons whatever the register's size; JSON-LD is one document,
built as a graph. Identifiers are deterministic (derived_terms.py), so a person exported again into an earlier export
replaces their facts (their block, or delete-before-insert in a graph) and never accumulates stale or duplicate
results. Two exports into one file never lose each other's persons (`export_file`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path

from rdflib import BNode, Graph, URIRef

from crewkg.law.namespaces import PERSON
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service.derived import COMPACT, evaluate
from crewkg.service.derived_terms import PREFIXES, derived_subjects
from crewkg.service.records_rdf import record_subjects
from crewkg.service.terms import Triple


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


def export_graph(law: Law, persons: list[Person], as_of: date, into: Graph | None = None,
                 shape: str = COMPACT) -> Graph:
    """The persons' records and derived facts (of the `shape`), merged into `into` (an earlier export) with
    replacement. The records travel with the results so that the file alone answers the canned queries (`crewkg
    sparql --graph FILE`: who a result is about, crew:personId; the sailing and sea records the credited days and the
    sea-time answers name) and the PROV chain (result -> credited count -> entries) can be followed in it."""
    g = bind_prefixes(into if into is not None else Graph())
    if shape == COMPACT:
        from crewkg.service.compact import engine_triples, evaluate_compact

        for t in engine_triples():
            g.add(t)
        evaluated = evaluate_compact(law, persons, as_of)
    else:
        evaluated = evaluate(law, persons, as_of)
    for p, record, derived in evaluated:
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
FORMATS = {"turtle": ("turtle", (".ttl",)), "nt": ("nt", (".nt",)), "nq": ("nquads", (".nq",)),
           "jsonld": ("json-ld", (".jsonld", ".json"))}


def format_for_suffix(suffix: str) -> str | None:
    for name, (_, suffixes) in FORMATS.items():
        if suffix.lower() in suffixes:
            return name
    return None


class Written:
    """What an export wrote: persons and triples (their records and derived facts)."""

    def __init__(self) -> None:
        self.persons = 0
        self.triples = 0


def export_text(law: Law, persons: Iterable[Person], as_of: date, fmt: str, shape: str = COMPACT, workers: int = 1,
                written: Written | None = None) -> Iterator[str]:
    """The export as text, in pieces as the persons are evaluated: a block per person in N-Triples, N-Quads or
    Turtle (`streaming.blocks`), or, for JSON-LD, one document at the end."""
    from crewkg.service.streaming import SYNTAXES, head, parts

    written = written if written is not None else Written()
    if fmt not in SYNTAXES:
        people = list(persons)
        graph = export_graph(law, people, as_of, shape=shape)
        written.persons, written.triples = len(people), len(graph)
        yield serialize(graph, fmt)
        return
    yield head(fmt, shape)
    for part in parts(law, persons, as_of, shape, fmt, workers):
        written.persons += len(part.persons)
        written.triples += part.triples
        yield from part.pieces()


def export_file(law: Law, persons: Iterable[Person], as_of: date, out: Path, fmt: str, shape: str = COMPACT,
                workers: int = 1) -> Written:
    """Merge the persons' derived facts into the export at `out` and replace it in one rename.

    Two exports into one file must not lose each other's persons, and an interrupted export must leave neither a
    half-written file nor a stray temporary one: the read-merge-write runs under an exclusive lock on a sibling lock
    file, the text goes to a unique temporary name in the same folder, and any failure (Ctrl-C included) removes it.
    An earlier export of the same syntax written in blocks by person is merged as it is read: the new persons' blocks,
    then the earlier blocks of every other person; any other earlier export is read whole into a graph and merged
    there. A missing folder is refused: an export does not invent where it goes."""
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
    written = Written()
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if out.exists() and not _in_blocks(out, fmt):
            graph = export_graph(law, list(persons), as_of, _earlier(out, fmt), shape)
            written.triples = len(graph)
            write_atomically(out, [serialize(graph, fmt)])
            return written
        ids: set[str] = set()

        def chunks() -> Iterator[str]:
            yield from export_text(law, _noted(persons, ids), as_of, fmt, shape, workers, written)
            if out.exists():  # the earlier persons' blocks, but those exported now (the earlier head: as the new one)
                yield from (text for pid, text in _earlier_blocks(out) if pid is not None and pid not in ids)

        write_atomically(out, chunks())
    return written


def _noted(persons: Iterable[Person], ids: set[str]) -> Iterator[Person]:
    for p in persons:
        ids.add(p.id)
        yield p


def _in_blocks(out: Path, fmt: str) -> bool:
    """Whether the file at `out` is a streamed export of this syntax (its first line says so)."""
    from crewkg.service.streaming import HEAD_MARK

    with out.open(encoding="utf-8", errors="replace") as f:
        first = f.readline()
    return first == f"{HEAD_MARK}{fmt}\n"


def _earlier_blocks(out: Path) -> Iterator[tuple[str | None, str]]:
    """The blocks of a streamed export: (person id, text); the head comes as (None, text)."""
    pid: str | None = None
    lines: list[str] = []
    with out.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("# person "):
                if lines:
                    yield pid, "".join(lines)
                pid, lines = line[len("# person "):].rstrip("\n"), []
            lines.append(line)
    if lines:
        yield pid, "".join(lines)


def _earlier(out: Path, fmt: str) -> Graph:
    """An earlier export that is no stream of blocks of this syntax, read whole (its syntax by its suffix)."""
    from crewkg.errors import InputError

    earlier = Graph()
    read_as = format_for_suffix(out.suffix) or fmt
    try:
        if read_as == "nq":  # a graph holds no named graphs: only an export in blocks merges
            raise ValueError("an N-Quads file that crewkg export did not write in blocks by person")
        earlier.parse(out, format=FORMATS[read_as][0])
    except Exception as exc:  # any parser failure: the earlier export cannot be merged
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise InputError(str(out), "", "earlier_export", format=read_as, reason=first) from None
    return earlier
