"""Readings of doubtful provisions (kb crew:Reading): the reading the kb's rules apply, the other one, and what the
other one would change, so that an answer can say what it would decide where it differs. Two families live here:

- readings of validity and medical rules (crew:readingOf names the kb resources whose encoding the reading is):
  `validity_readings`, `reading_of`, `extended_to`; answered by `rules.validity.other_verdicts`;
- readings of the eligibility law (crew:replacedBy, crew:countsServiceOf, crew:otherCrediting): `eligibility_readings`
  and `law_under`; answered by `answers.readings`, which runs the same Datalog program on the law or the record as
  the other reading reads them and states it where its verdict differs, never counting it in its own.

The manning tables' readings (crew:appliesToTable) are compiled with the tables (`manning.compile`). A validity
reading names the kb resources whose encoding it is (a medical examination schedule or one of its steps, a validity
rule) and, where it extends a rule to certificates the rule does not name itself, those certificates
(crew:appliesToCertificate). Both families are read from the kb graph (not compiled by `Law`: only their answers ask
them) and cached like the compiled law: in memory and on disk, keyed by the kb's content hash."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from crewkg.law.cache import compiled, load_graph
from crewkg.law.statute import Law, Notes, load_law, notes_in
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


def validity_readings(kb: Path | None = None) -> dict[str, Reading]:
    """Every reading of the kb that names the rules it reads (crew:readingOf), by id."""
    law = load_law(kb)
    return _readings(Path(kb or kb_dir()).resolve(), law.version)


def reading_of(resource: str, kb: Path | None = None) -> Reading | None:
    """The reading whose encoding the kb resource is (None: the resource is read as written, no doubt recorded)."""
    return next((r for r in validity_readings(kb).values() if resource in r.of), None)


def extended_to(resource: str, kb: Path | None = None) -> dict[str, str]:
    """The certificates a reading extends the rule `resource` to, each with that reading's id."""
    return {c: r.id for r in validity_readings(kb).values() if resource in r.of for c in r.certificates}


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


@dataclass(frozen=True)
class EligibilityReading:
    """A doubtful provision of the eligibility law: the reading applied, the other one, and what the other changes."""

    id: str
    provision: str
    applied: dict[str, str]
    other: dict[str, str]
    notes: Notes = field(default_factory=dict, hash=False)
    #: requirements (and pathways) of the reading applied that give way under the other reading (crew:replacedBy)
    replaced: tuple[str, ...] = ()
    #: (the role whose days count, the role they count as) under the other reading (crew:countsServiceOf, asServiceOf)
    service: tuple[str, str] | None = None
    #: the requirements whose certificates the answer compares (crew:concernsRequirement; none: every certificate)
    concerns: tuple[str, ...] = ()
    #: the crediting scope the other reading applies (crew:otherCrediting), and the limits it reads otherwise
    crediting: str | None = None
    limits: tuple[str, ...] = ()

    def text(self, which: str, lang: str) -> str:
        """The reading applied (`applied`) or the other one (`other`) in the language asked (else the kb's other)."""
        texts = getattr(self, which)
        return texts.get(lang) or next(iter(texts.values()), "")

    def said_notes(self, lang: str) -> list[str]:
        return list(notes_in(self.notes, lang))


def eligibility_readings(law: Law) -> dict[str, EligibilityReading]:
    """The readings of the eligibility law the kb gives, by id, those whose every term the law knows (a law compiled
    from another kb than the one read here keeps only what it can evaluate)."""
    found = _eligibility(Path(kb_dir()).resolve(), Path(ontology_dir()).resolve(), law.version)
    known = set(law.requirements) | set(law.pathways)
    return {rid: rd for rid, rd in found.items()
            if set(rd.replaced) <= known and set(rd.concerns) <= set(law.requirements)
            and (rd.service is None or set(rd.service) <= set(law.terms))}


@lru_cache(maxsize=8)
def _eligibility(kb: Path, onto: Path, version: str) -> dict[str, EligibilityReading]:
    return compiled("eligibility-readings", version, __file__, lambda: _read_eligibility(kb, onto), expect=dict)


def _read_eligibility(kb: Path, onto: Path) -> dict[str, EligibilityReading]:
    """Every crew:Reading that names neither a manning table nor the rules it reads, with what its other reading
    changes."""
    from crewkg.law.namespaces import CREW, RDF, local
    from crewkg.law.reading import GraphReader

    g = load_graph(kb, onto)
    r = GraphReader(g)
    out: dict[str, EligibilityReading] = {}
    for s in g.subjects(RDF.type, CREW.Reading):
        if (s, CREW.appliesToTable, None) in g or (s, CREW.readingOf, None) in g:
            continue  # a reading of the minimum-crew law (manning.compile), or of a validity rule (above)
        served, counted = r.opt(s, CREW.countsServiceOf), r.opt(s, CREW.asServiceOf)
        out[local(s)] = EligibilityReading(
            id=local(s), provision=r.opt(s, CREW.provision) or "", applied=_texts(g, s, CREW.appliedReading),
            other=_texts(g, s, CREW.otherReading), notes=r.notes(s),
            replaced=tuple(sorted(local(x) for x in g.subjects(CREW.replacedBy, s))),
            service=(served, counted) if served and counted else None, concerns=r.many(s, CREW.concernsRequirement),
            crediting=r.opt(s, CREW.otherCrediting), limits=r.many(s, CREW.appliesToLimit))
    return out



def law_under(law: Law, rd: EligibilityReading) -> Law:
    """The law as the other reading reads it: without the requirements and pathways that give way to it (from every
    pathway and every group that names them). The same law where the reading replaces nothing. Remembered per law."""
    if not rd.replaced:
        return law
    def make() -> Law:
        gone = set(rd.replaced)
        requirements = {rid: dataclasses.replace(r, children=tuple(c for c in r.children if c not in gone))
                        for rid, r in law.requirements.items() if rid not in gone}
        pathways = {wid: dataclasses.replace(w, requirements=tuple(q for q in w.requirements if q not in gone))
                    for wid, w in law.pathways.items() if wid not in gone}
        certificates = {cid: dataclasses.replace(c, pathways=tuple(w for w in c.pathways if w in pathways))
                        for cid, c in law.certificates.items()}
        return dataclasses.replace(law, requirements=requirements, pathways=pathways, certificates=certificates)

    return law.remembered_for("_under", rd.id, make)


def touched(law: Law, rd: EligibilityReading) -> dict[str, set[str]]:
    """Pathway -> the requirements of the reading applied in it (directly or inside a group) that give way to the
    other reading: the pathways whose verdict the other reading can change."""
    gone = set(rd.replaced)
    out: dict[str, set[str]] = {}
    for wid, w in law.pathways.items():
        if wid in gone:
            out[wid] = set(w.requirements)
            continue
        hit = {q for q in w.requirements if q in gone or _inside(law, q, gone)}
        if hit:
            out[wid] = hit
    return out


def concerned(law: Law, requirements: set[str]) -> set[str]:
    """The pathways that ask one of the requirements (directly or inside a group)."""
    return {wid for wid, w in law.pathways.items() if any(q in requirements or _inside(law, q, requirements)
                                                             for q in w.requirements)}


def _inside(law: Law, rid: str, ids: set[str]) -> bool:
    r = law.requirements.get(rid)
    return r is not None and any(c in ids or _inside(law, c, ids) for c in r.children)
