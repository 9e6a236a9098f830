"""Readings of doubtful provisions that decide eligibility and validity (kb crew:Reading with crew:readingOf): the
reading the kb's rules apply, the other one, and the rules each reading concerns, so that an answer can say what the
other reading would decide where it differs (`rules.validity.other_verdicts`).

The manning tables' readings (crew:appliesToTable) are compiled with the tables (`manning.compile`); these are the
others: a reading here names the kb resources whose encoding it is (a medical examination schedule or one of its
steps, a validity rule) and, where it extends a rule to certificates the rule does not name itself, those
certificates (crew:appliesToCertificate). Read from the kb graph (not compiled by `Law`: only validity and its answers
ask them) and cached like the compiled law: in memory and on disk, keyed by the kb's content hash."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from crewkg.law.cache import compiled, load_graph
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir, ontology_dir


@dataclass(frozen=True)
class Reading:
    """One doubtful provision read one way (`applied`) with the other way stated (`other`), in German and English."""

    id: str
    provisions: tuple[str, ...]
    label: dict[str, str]
    applied: dict[str, str]
    other: dict[str, str]
    #: the kb resources whose encoding this reading is (crew:readingOf)
    of: tuple[str, ...] = ()
    #: the certificates the reading extends the rules it reads to (crew:appliesToCertificate)
    certificates: tuple[str, ...] = ()
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)


def eligibility_readings(kb: Path | None = None) -> dict[str, Reading]:
    """Every reading of the kb that names the rules it reads (crew:readingOf), by id."""
    law = load_law(kb)
    return _readings(Path(kb or kb_dir()).resolve(), law.version)


def reading_of(resource: str, kb: Path | None = None) -> Reading | None:
    """The reading whose encoding the kb resource is (None: the resource is read as written, no doubt recorded)."""
    return next((r for r in eligibility_readings(kb).values() if resource in r.of), None)


def extended_to(resource: str, kb: Path | None = None) -> dict[str, str]:
    """The certificates a reading extends the rule `resource` to, each with that reading's id."""
    return {c: r.id for r in eligibility_readings(kb).values() if resource in r.of for c in r.certificates}


@lru_cache(maxsize=8)
def _readings(kb: Path, version: str) -> dict[str, Reading]:
    return compiled("readings", version, __file__, lambda: _read(kb), expect=dict)


def _texts(g, s, p) -> dict[str, str]:
    return {o.language or "de": str(o) for o in g.objects(s, p)}


def _read(kb: Path) -> dict[str, Reading]:
    from rdflib import RDF

    from crewkg.law.namespaces import CREW, local
    from crewkg.law.reading import GraphReader

    g = load_graph(kb, ontology_dir())
    r = GraphReader(g)
    out = {}
    for s in g.subjects(RDF.type, CREW.Reading):
        of = r.many(s, CREW.readingOf)
        if not of:  # a reading of a manning table: compiled with the tables
            continue
        out[local(s)] = Reading(local(s), r.many(s, CREW.provision), r.labels(s), _texts(g, s, CREW.appliedReading),
                                _texts(g, s, CREW.otherReading), of, r.many(s, CREW.appliesToCertificate), r.notes(s))
    return out
