"""The law as plain Python data, read from the kb graph.

The engine never names a certificate, a day count or an age: everything it needs is read here from
`kb/` and `ontology/`. Parsing Turtle costs more than a whole check, so the compiled law is cached
(pickle keyed by the content hash of every kb and ontology file); an edit to any file rebuilds it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

from crewkg.law.cache import _digest, _files, compiled, load_graph
from crewkg.law.calendar import months_later
from crewkg.law.remembering import Remembering
from crewkg.locations import kb_dir, ontology_dir

#: Editorial notes (skos:editorialNote) per language, 'de' and 'en': the kb gives each reading in both.
Notes = dict[str, tuple[str, ...]]


def notes_in(notes: Notes, lang: str) -> tuple[str, ...]:
    """The editorial notes in the language asked (the other language when the kb gives none in it)."""
    return notes.get(lang) or next(iter(notes.values()), ())


@dataclass(frozen=True)
class Provision:
    id: str
    citation: str
    wording: str
    notes: Notes = field(default_factory=dict, hash=False)
    part_of: str | None = None
    #: the wording's language: "de", the official text, or "en" where the kb paraphrases a provision the bundled
    #: texts lack (the answer then says it is no official wording)
    wording_lang: str = "de"
    #: the German paraphrase of such a provision (crew:paraphrase), so that a German answer says it in German
    paraphrase: str | None = None
    #: the regulation it belongs to (crew:inRegulation): what it sets is law only from that regulation's first day
    regulation: str | None = None

    @property
    def paraphrased(self) -> bool:
        """The kb words it, the bundled texts lacking it: an answer quoting or citing it says so (the one test)."""
        return self.wording_lang != "de"


@dataclass(frozen=True)
class Requirement:
    id: str
    kind: str
    provision: str
    label: dict[str, str]
    order: int
    minimum: int | None = None
    served_as: str | None = None
    capacity: str | None = None
    of_programme: str | None = None
    phase: str | None = None
    programme_for: str | None = None
    exams: tuple[str, ...] = ()
    certificates: tuple[str, ...] = ()
    #: the certificates and functions whose holder does not meet it (crew:excludesCertificate, crew:excludesFunction: NotHeld)
    excluded: tuple[str, ...] = ()
    document: str | None = None
    children: tuple[str, ...] = ()
    notes: Notes = field(default_factory=dict, hash=False)
    #: a dated proof counts while it lies no more than this many months back (crew:notOlderThanMonths)
    max_months: int | None = None
    #: functions of which one must be held (crew:requiresFunction)
    functions: tuple[str, ...] = ()
    #: a dated proof must show at least these hours (crew:minimumHours) and lie before this day (crew:takenBefore)
    min_hours: float | None = None
    taken_before: date | None = None
    #: a validated service-log entry in this role, begun before `taken_before`, proves it too (crew:provenByServiceAs)
    proven_by_service_as: str | None = None
    #: a validated service-log entry in any role, begun before `taken_before`, proves it too (crew:provenByServiceInAnyRole)
    proven_by_any_service: bool = False
    #: the last day, inclusive, an application period requirement is met (crew:lastDay)
    last_day: date | None = None
    #: the reduction that may shorten a Fahrzeit minimum (crew:reducibleBy)
    reduction: str | None = None
    #: sea time must lie before the first day of the programme this programme requirement asks for (crew:beforeProgramme)
    before_programme: str | None = None
    #: sea time counted on other days than the Fahrzeit this requirement asks ('zusätzlich', crew:inAdditionTo)
    in_addition_to: str | None = None
    #: a proof that stands in for the first medical report only: not once this schedule asks a renewal (crew:untilRenewalOf)
    until_renewal: str | None = None


@dataclass(frozen=True)
class Reduction:
    """A rule that shortens a Fahrzeit minimum (crew:FahrzeitReduction): by the length in days of the evidence the
    person presents (a document of the ontology), at most by `max_days`."""

    id: str
    provision: str
    max_days: int
    evidence: str
    label: dict[str, str]


@dataclass(frozen=True)
class Pathway:
    id: str
    certificate: str
    provision: str
    label: dict[str, str]
    order: int
    requirements: tuple[str, ...]
    presupposes: str | None = None
    #: a replacement of a qualification held under earlier law (crew:ReplacementPathway): it sets no role's minimum age
    replacement: bool = False
    waives: tuple[str, ...] = ()  # conditions of its certificate's own section it does not ask (crew:waivesRequirement)


@dataclass(frozen=True)
class Certificate:
    id: str
    role: str | None
    provision: str
    label: dict[str, str]
    order: int
    regulation: str | None
    pathways: tuple[str, ...] = ()
    #: the last day a held certificate counts (crew:validUntil) and the provision that sets it
    valid_until: date | None = None
    validity_provision: str | None = None
    #: a national certificate (crew:NationalCertificate) is named by its label, not by the regulation's abbreviation
    national: bool = False
    #: no authority issues it: the record's own dated proofs are the certificate (crew:heldByProof)
    by_proof: bool = False
    #: an authorisation (crew:Authorisation): the role whose holder it extends; it fills no role itself
    authorisation_for: str | None = None
    #: the window of issue dates that make a certificate of it (crew:issuedFrom, crew:issuedUntil; None: open)
    issued_from: date | None = None
    issued_until: date | None = None
    #: the certificates a record may name for it when the issue date lies in its window (crew:datedFormOf)
    dated_form_of: tuple[str, ...] = ()
    #: the regulation that makes it count (crew:countsUnder): on a date another one governs it gives no role
    counts_under: str | None = None
    #: the kb's editorial notes on the certificate itself (what of it the sources lack, the reading chosen)
    notes: Notes = field(default_factory=dict, hash=False, compare=False)

    def issued_within(self, day: date) -> bool:
        """Whether an issue date lies in the certificate's window (crew:issuedFrom to crew:issuedUntil, inclusive)."""
        return (self.issued_from is None or day >= self.issued_from) and (self.issued_until is None or day <= self.issued_until)


@dataclass(frozen=True)
class ValidityRule:
    """How many years a certificate is valid from its issue date (crew:CertificateValidityRule)."""

    id: str
    regulation: str | None
    provision: str
    years: int
    certificates: tuple[str, ...]

    def last_day(self, issued: date) -> date:
        """The last day a certificate issued on `issued` counts under this rule: the anniversary, as every period
        counted from a day ends (§ 902 Abs. 2 ABGB, `months_later`: one of 29 February ends on 28 February)."""
        return months_later(issued, 12 * self.years)


@dataclass(frozen=True)
class ScheduleStep:
    """From the birthday completing `from_age` years a proof of medical fitness counts `months` months after the
    examination; during the first `grace` months from that birthday an older proof still counts."""

    id: str
    from_age: int
    months: int
    grace: int = 0
    #: after the grace months only a proof examined on or after the step's birthday counts (crew:renewedAfterBirthday)
    renewed_after_birthday: bool = False
    #: the renewal falls due again after every birthday this many years apart (crew:renewalEveryYears; 0: once)
    every_years: int = 0


@dataclass(frozen=True)
class MedicalSchedule:
    """When a holder proves medical fitness again (crew:MedicalExaminationSchedule), with the certificates whose roles
    an overdue proof removes; the steps in order of age."""

    id: str
    regulation: str | None
    provision: str
    certificates: tuple[str, ...]
    steps: tuple[ScheduleStep, ...]


@dataclass(frozen=True)
class Term:
    """A role, function, exam, document, capacity or phase: anything a record may name by id."""

    id: str
    kinds: frozenset[str]
    label: dict[str, str]
    order: int = 0


@dataclass
class Regulation:
    id: str
    abbreviation: str
    title: str
    gazette: str
    in_force_from: date
    in_force_until: date | None
    notes: Notes = field(default_factory=dict, hash=False)
    certificate_abbreviation: str | None = None
    #: the first issue date a certificate of it can bear (crew:certificatesIssuedFrom); None: earlier dates count
    certificates_issued_from: date | None = None

    @property
    def name(self) -> str:
        """'SchBV 2022', 'SchBesV 2004': abbreviation and gazette year, the one name of a regulation in every answer."""
        year = self.gazette.rsplit("/", 1)[-1].strip() if "/" in self.gazette else str(self.in_force_from.year)
        return f"{self.abbreviation} {year}"

    def in_force_on(self, day: date) -> bool:
        """Whether the regulation governs on the day (from its first day up to and including its last, if any)."""
        return self.in_force_from <= day and (self.in_force_until is None or day <= self.in_force_until)


@dataclass
class Law(Remembering):
    version: str
    regulations: dict[str, Regulation]
    provisions: dict[str, Provision]
    requirements: dict[str, Requirement]
    pathways: dict[str, Pathway]
    certificates: dict[str, Certificate]
    terms: dict[str, Term]
    ranks_above: list[tuple[str, str]] = field(default_factory=list)
    #: (including, included) sea capacities, direct statements only (crew:CapacityInclusion)
    capacity_includes: list[tuple[str, str]] = field(default_factory=list)
    #: certificate validity periods (crew:validityYears) and medical examination schedules, by rule id
    validity_rules: dict[str, ValidityRule] = field(default_factory=dict)
    medical_schedules: dict[str, MedicalSchedule] = field(default_factory=dict)
    #: rules that shorten a Fahrzeit minimum (crew:FahrzeitReduction), by id
    reductions: dict[str, Reduction] = field(default_factory=dict)

    def enacted_by(self, provision: str | None, day: date) -> bool:
        """Whether the provision is law by the day: its regulation in force from then or earlier (a provision of a
        later regulation, e.g. the end § 47 SchBV sets an older qualification, says nothing on an earlier day)."""
        p = self.provisions.get(provision or "")
        reg = self.regulations.get(p.regulation or "") if p is not None else None
        return reg is None or reg.in_force_from <= day

    def regulation_on(self, day: date) -> Regulation | None:
        """The regulation with pathways in force on the day, or None (then nothing is covered): the law an answer on
        that day applies. The one home of that question: the eligibility program (`under`), the minimum-crew program
        (`in_force`) and every answer ask it, so they never disagree on which regulation governs a day."""
        return next((reg for reg in self._with_pathways() if reg.in_force_on(day)), None)

    def first_regulation(self) -> Regulation:
        """The earliest regulation with pathways: what an answer on a day before every one of them names as the law
        that begins to govern (the JSON `reason`, the text, the refusal of a date to plan from)."""
        return min(self._with_pathways(), key=lambda r: r.in_force_from)

    def _with_pathways(self) -> list[Regulation]:
        """The regulations some pathway's certificate belongs to, in the kb's order (remembered: asked for every
        person of a register)."""
        cache = self.__dict__.setdefault("_with_paths", {})
        if len(self.pathways) not in cache:
            ids = {self.certificates[w.certificate].regulation for w in self.pathways.values()}
            cache[len(self.pathways)] = [reg for reg in self.regulations.values() if reg.id in ids]
        return cache[len(self.pathways)]

    def ids_of(self, kind: str) -> list[str]:
        """Ids of terms of one ontology class (e.g. 'DeckCrewRole', 'Exam', 'Function'), in statute order (remembered
        per law: a register asks it for every person; a changed number of terms reads them again)."""
        cache = self.__dict__.setdefault("_ids_of", {})
        key = (kind, len(self.terms))
        if key not in cache:
            found = [t for t in self.terms.values() if kind in t.kinds]
            cache[key] = [t.id for t in sorted(found, key=lambda t: (t.order, t.id))]
        return list(cache[key])

    def citation(self, provision_id: str) -> str:
        return self.provisions[provision_id].citation

    def label(self, term_id: str, lang: str = "de") -> str:
        for table in (self.terms, self.certificates, self.requirements):
            if term_id in table:
                lab = table[term_id].label
                return lab.get(lang) or lab.get("de") or term_id
        return term_id

    def short_label(self, term_id: str, lang: str = "de") -> str:
        """A term's label for a crowded line: 'Matrosin bzw. Matrose' → 'Matrose' (the law's own second form)."""
        return self.label(term_id, lang).split(" bzw. ")[-1]

    def certificate_short(self, cid: str, lang: str = "de") -> str:
        """'UBZ Matrose' for a certificate of a role whose regulation names its certificates by an abbreviation
        (crew:certificateAbbreviation); the certificate's label otherwise."""
        cert = self.certificates.get(cid)
        reg = self.regulations.get(cert.regulation or "") if cert else None
        abbreviation = reg.certificate_abbreviation if reg else None
        if cert and cert.role and abbreviation and not cert.national:
            return f"{abbreviation} {self.short_label(cert.role, lang)}"
        return self.label(cid, lang)

    def certificate_named(self, name: str) -> str | None:
        """The certificate a person means by `name`: its id ('UBZ-Steuermann'), the role it certifies ('Steuermann',
        'Schiffsführer'), or a label of either, in any case; None when nothing or more than one matches."""
        if name in self.certificates:
            return name

        def fold(x: str) -> str:
            return x.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss").strip()

        wanted = fold(name)
        found = set()
        for cid, c in self.certificates.items():
            names = {cid, *c.label.values()}
            if c.role:
                names |= {c.role, *(self.label(c.role, lang) for lang in ("de", "en"))}
                names |= {self.short_label(c.role, lang) for lang in ("de", "en")}
            if wanted in {fold(n) for n in names}:
                found.add(cid)
        if len(found) > 1:  # a role's own UBZ before a certificate that only stands in for it (third country)
            found = {cid for cid in found if self.certificates[cid].pathways}
        if len(found) > 1:  # the current certificate before a legacy one whose validity ends (crew:validUntil)
            found = {cid for cid in found if self.certificates[cid].valid_until is None}
        return found.pop() if len(found) == 1 else None

    def below(self, role: str) -> frozenset[str]:
        """The roles `role` ranks above, transitively (crew:ranksAbove): the one reading of the role hierarchy."""
        return self._hierarchy()[0].get(role, frozenset())

    def counted_capacities(self, capacity: str) -> frozenset[str]:
        """The sea capacities whose days count toward a requirement in `capacity`: itself and every capacity it
        includes, transitively (crew:CapacityInclusion) — the one reading of sea capacities outside the rules."""
        cache = self.__dict__.setdefault("_counted", {})
        key = (capacity, len(self.capacity_includes))
        if key not in cache:
            cache[key] = self._counted_capacities(capacity)
        return cache[key]

    def _counted_capacities(self, capacity: str) -> frozenset[str]:
        found, todo = {capacity}, [capacity]
        while todo:
            c = todo.pop()
            for a, b in self.capacity_includes:
                if a == c and b not in found:
                    found.add(b)
                    todo.append(b)
        return frozenset(found)

    def depth(self, role: str) -> int:
        """The role's level in the hierarchy: the longest chain of crew:ranksAbove below it (0 for the lowest)."""
        return self._hierarchy()[1].get(role, 0)

    def _hierarchy(self) -> tuple[dict[str, frozenset[str]], dict[str, int]]:
        return self.remembered("_hierarchy_cache", self._make_hierarchy)

    def _make_hierarchy(self) -> tuple[dict[str, frozenset[str]], dict[str, int]]:
        direct: dict[str, set[str]] = {}
        for a, b in self.ranks_above:
            direct.setdefault(a, set()).add(b)
        below: dict[str, frozenset[str]] = {}
        depth: dict[str, int] = {}

        def walk(r: str, seen: frozenset[str] = frozenset()) -> frozenset[str]:
            if r not in below:
                out: set[str] = set()
                d = 0
                for lower in direct.get(r, ()):
                    if lower in seen:
                        continue
                    out |= {lower} | walk(lower, seen | {r})
                    d = max(d, depth.get(lower, 0) + 1)
                below[r], depth[r] = frozenset(out), d
            return below[r]

        for r in {x for pair in self.ranks_above for x in pair}:
            walk(r)
        return below, depth

    def dated_form(self, cid: str, issued: date | None) -> str:
        """The certificate a record means by naming `cid` issued on `issued`: `cid` itself when the date lies in its
        window (or no date is given), else the one certificate that is its dated form (crew:datedFormOf) whose window
        holds the date; `cid` as named where none does. A dated form named with a date outside its own window is read
        as what each certificate it is a form of would be with that date, where they agree (a Kapitänspatent A of
        1990–1997 named with an issue date in 2005 is the Kapitänspatent A); as named where they do not."""
        c = self.certificates.get(cid)
        if c is None or issued is None or c.issued_within(issued):
            return cid
        if c.dated_form_of:
            read = {self._form_on(b, issued) for b in c.dated_form_of}
            return read.pop() if len(read) == 1 else cid
        return self._form_on(cid, issued)

    def _form_on(self, cid: str, issued: date) -> str:
        c = self.certificates.get(cid)
        if c is None or c.issued_within(issued):
            return cid
        found = [d.id for d in self.certificates.values() if cid in d.dated_form_of and d.issued_within(issued)]
        return found[0] if len(found) == 1 else cid

    def certificates_in_order(self) -> list[Certificate]:
        return sorted(self.certificates.values(), key=lambda c: (c.order, c.id))


@lru_cache(maxsize=8)
def _load(kb: Path, onto: Path) -> Law:
    version = _digest(_files(kb, onto))
    return compiled("law", version, __file__, lambda: _compile(load_graph(kb, onto), version), expect=Law)


def load_law(kb: Path | None = None, onto: Path | None = None) -> Law:
    """The law compiled from `kb` and `onto` (the bundled ones, or where CREWKG_KB / CREWKG_ONTOLOGY point)."""
    if kb is None and onto is None:  # asked per person and requirement: the bundled law without resolving paths
        return _bundled(os.environ.get("CREWKG_KB"), os.environ.get("CREWKG_ONTOLOGY"), os.getcwd())
    return _load(Path(kb or kb_dir()).resolve(), Path(onto or ontology_dir()).resolve())


@lru_cache(maxsize=8)
def _bundled(*where: str | None) -> Law:
    """The bundled law by where it is looked for (the environment's paths, the working folder for relative ones)."""
    return _load(kb_dir().resolve(), ontology_dir().resolve())


def _compile(g, version: str) -> Law:
    """The law of the merged kb and ontology graph, concept by concept (rdflib only here: a cached law needs none)."""
    from crewkg.law.namespaces import CREW, RDF, local
    from crewkg.law.reading import GraphReader

    r = GraphReader(g)
    pathways = _pathways(r)
    ranks = sorted((local(a), local(b)) for a, b in g.subject_objects(CREW.ranksAbove))
    includes = sorted({(local(r.one(s, CREW.includingCapacity)), local(r.one(s, CREW.includedCapacity)))
                       for s in g.subjects(RDF.type, CREW.CapacityInclusion)})
    reductions = {local(s): Reduction(id=local(s), provision=local(r.one(s, CREW.provision)),
                                      max_days=r.num(s, CREW.maximumDays) or 0,
                                      evidence=local(r.one(s, CREW.reductionEvidence)), label=r.labels(s))
                  for s in g.subjects(RDF.type, CREW.FahrzeitReduction)}
    validity, schedules = _validity(r)
    return Law(version, _regulations(r), _provisions(r), _requirements(r), pathways, _certificates(r, pathways),
               _terms(r), ranks, includes, validity_rules=validity, medical_schedules=schedules, reductions=reductions)


def _regulations(r) -> dict[str, Regulation]:
    """crew:Regulation: in force from and until, and the first issue date its certificates can bear."""
    from crewkg.law.namespaces import CREW, RDF, local

    one = r.one
    return {local(s): Regulation(
        id=local(s), abbreviation=str(one(s, CREW.abbreviation)), title=r.labels(s).get("de", local(s)),
        gazette=str(one(s, CREW.gazette)), in_force_from=one(s, CREW.inForceFrom).toPython(),
        in_force_until=r.value(s, CREW.inForceUntil), notes=r.notes(s),
        certificate_abbreviation=str(one(s, CREW.certificateAbbreviation) or "") or None,
        certificates_issued_from=r.value(s, CREW.certificatesIssuedFrom)) for s in r.g.subjects(RDF.type, CREW.Regulation)}


def _provisions(r) -> dict[str, Provision]:
    """crew:Provision: its citation, the wording (or a paraphrase) and the regulation it belongs to."""
    from crewkg.law.namespaces import CREW, RDF, local

    one, opt = r.one, r.opt
    return {local(s): Provision(
        id=local(s), citation=str(one(s, CREW.citation) or r.labels(s).get("de", local(s))),
        wording=str(one(s, CREW.wording) or ""), notes=r.notes(s), part_of=opt(s, CREW.partOf),
        wording_lang=getattr(one(s, CREW.wording), "language", None) or "de",
        paraphrase=str(one(s, CREW.paraphrase)) if one(s, CREW.paraphrase) is not None else None,
        regulation=opt(s, CREW.inRegulation)) for s in r.g.subjects(RDF.type, CREW.Provision)}


def _in_statute_order(r, nodes, missing: int) -> list:
    """Nodes in the order of the statute (crew:statuteOrder, `missing` where none is given), then by IRI."""
    from crewkg.law.namespaces import CREW

    return sorted(nodes, key=lambda c: (r.num(c, CREW.statuteOrder) or missing, str(c)))


def _requirements(r) -> dict[str, Requirement]:
    """Every requirement of a kind the ontology defines (a subclass of crew:Requirement, its name the kind's)."""
    from crewkg.law.namespaces import CREW, RDF, RDFS, local

    g = r.g
    kinds = {local(c)[: -len("Requirement")]: c for c in g.subjects(RDFS.subClassOf, CREW.Requirement)}
    return {local(s): _requirement(r, s, kind) for kind, cls in kinds.items() for s in g.subjects(RDF.type, cls)}


def _requirement(r, s, kind: str) -> Requirement:
    """One requirement: its minimum (days, years or months), what it asks and its alternatives or parts in order."""
    from crewkg.law.namespaces import CREW, local

    g, one, num, opt = r.g, r.one, r.num, r.opt
    minimum = num(s, CREW.minimumDays)
    for p in (CREW.minimumYears, CREW.minimumMonths):
        minimum = minimum if minimum is not None else num(s, p)
    children = _in_statute_order(r, [*g.objects(s, CREW.hasAlternative), *g.objects(s, CREW.hasPart)], 0)
    return Requirement(
        id=local(s), kind=kind, provision=local(one(s, CREW.provision)), label=r.labels(s),
        order=num(s, CREW.statuteOrder) or 0, minimum=minimum,
        served_as=opt(s, CREW.servedAs), capacity=opt(s, CREW.seaCapacity),
        of_programme=opt(s, CREW.ofProgramme), phase=opt(s, CREW.programmePhase),
        before_programme=opt(s, CREW.beforeProgramme), in_addition_to=opt(s, CREW.inAdditionTo),
        programme_for=opt(s, CREW.programmeFor),
        exams=tuple(sorted((local(o) for o in g.objects(s, CREW.requiresExam)), key=lambda e: (len(e), e))),
        certificates=tuple(local(o) for o in _in_statute_order(r, g.objects(s, CREW.acceptsCertificate), 999)),
        excluded=tuple(local(o) for o in _in_statute_order(
            r, [*g.objects(s, CREW.excludesCertificate), *g.objects(s, CREW.excludesFunction)], 999)),
        document=opt(s, CREW.requiresDocument), children=tuple(local(c) for c in children), notes=r.notes(s),
        max_months=num(s, CREW.notOlderThanMonths),
        functions=tuple(sorted(local(o) for o in g.objects(s, CREW.requiresHeldFunction))),
        min_hours=float(one(s, CREW.minimumHours).toPython()) if one(s, CREW.minimumHours) is not None else None,
        taken_before=r.value(s, CREW.takenBefore),
        proven_by_service_as=opt(s, CREW.provenByServiceAs),
        proven_by_any_service=r.value(s, CREW.provenByServiceInAnyRole) is True,
        last_day=r.value(s, CREW.lastDay),
        reduction=opt(s, CREW.reducibleBy), until_renewal=opt(s, CREW.untilRenewalOf))


def _pathways(r) -> dict[str, Pathway]:
    """crew:Pathway: the certificate it leads to and its requirements in statute order."""
    from crewkg.law.namespaces import CREW, RDF, local

    g, one, num = r.g, r.one, r.num
    return {local(s): Pathway(
        id=local(s), certificate=local(one(s, CREW.leadsTo)), provision=local(one(s, CREW.provision)),
        label=r.labels(s), order=num(s, CREW.statuteOrder) or 0,
        requirements=tuple(local(q) for q in _in_statute_order(r, g.objects(s, CREW.hasRequirement), 0)),
        presupposes=r.opt(s, CREW.presupposes), replacement=(s, RDF.type, CREW.ReplacementPathway) in g,
        waives=r.many(s, CREW.waivesRequirement))
        for s in g.subjects(RDF.type, CREW.Pathway)}


def _certificates(r, pathways: dict[str, Pathway]) -> dict[str, Certificate]:
    """crew:Certificate and crew:Authorisation, each with the pathways leading to it (in their order)."""
    from crewkg.law.namespaces import CREW, RDF, local

    g, one, num, opt = r.g, r.one, r.num, r.opt
    certificates = {}
    for s in dict.fromkeys([*g.subjects(RDF.type, CREW.Certificate), *g.subjects(RDF.type, CREW.Authorisation)]):
        cid = local(s)
        mine = sorted((p for p in pathways.values() if p.certificate == cid), key=lambda p: p.order)
        certificates[cid] = Certificate(
            id=cid, role=opt(s, CREW.certifiesRole), provision=local(one(s, CREW.provision)), label=r.labels(s),
            order=num(s, CREW.statuteOrder) or 999, regulation=opt(s, CREW.inRegulation),
            pathways=tuple(p.id for p in mine), valid_until=r.value(s, CREW.validUntil),
            validity_provision=opt(s, CREW.validityProvision), authorisation_for=opt(s, CREW.authorisationFor),
            national=(s, RDF.type, CREW.NationalCertificate) in g,
            by_proof=r.value(s, CREW.heldByProof) is True,
            issued_from=r.value(s, CREW.issuedFrom), issued_until=r.value(s, CREW.issuedUntil),
            dated_form_of=tuple(sorted(local(o) for o in g.objects(s, CREW.datedFormOf))),
            counts_under=opt(s, CREW.countsUnder), notes=r.notes(s))
    return certificates


#: the ontology classes of the terms a record may name by id (a crew:DeckCrewRole is a crew:Role too)
_TERM_CLASSES = ("Role", "DeckCrewRole", "Function", "Exam", "Document", "SeaCapacity", "ProgrammePhase")


def _terms(r) -> dict[str, Term]:
    """Roles, functions, exams, documents, sea capacities and programme phases, each with every class it has."""
    from crewkg.law.namespaces import CREW, RDF, local

    terms: dict[str, Term] = {}
    for cls in _TERM_CLASSES:
        for s in r.g.subjects(RDF.type, getattr(CREW, cls)):
            old = terms.get(local(s))
            kinds_of = (old.kinds if old else frozenset()) | {cls}
            if cls == "DeckCrewRole":
                kinds_of |= {"Role"}
            terms[local(s)] = Term(local(s), frozenset(kinds_of), r.labels(s), r.num(s, CREW.statuteOrder) or 0)
    return terms


def _validity(r) -> tuple[dict[str, ValidityRule], dict[str, MedicalSchedule]]:
    """How long what a person holds counts: crew:CertificateValidityRule with its years (a rule without them is no
    period) and crew:MedicalExaminationSchedule with its steps in order of age (a schedule without steps is none)."""
    from crewkg.law.namespaces import CREW, RDF, local

    g, num = r.g, r.num
    validity = {}
    for s in g.subjects(RDF.type, CREW.CertificateValidityRule):
        years = num(s, CREW.validityYears)
        if years is not None:
            validity[local(s)] = ValidityRule(local(s), r.opt(s, CREW.inRegulation), local(r.one(s, CREW.provision)), years,
                                              r.many(s, CREW.appliesToCertificate))
    schedules = {}
    for s in g.subjects(RDF.type, CREW.MedicalExaminationSchedule):
        steps = sorted((ScheduleStep(local(x), num(x, CREW.fromAge) or 0, num(x, CREW.proofValidMonths) or 0,
                                     num(x, CREW.renewalGraceMonths) or 0, r.value(x, CREW.renewedAfterBirthday) is True,
                                     num(x, CREW.renewalEveryYears) or 0)
                        for x in g.objects(s, CREW.hasScheduleStep)),
                       key=lambda x: x.from_age)
        if steps:
            schedules[local(s)] = MedicalSchedule(local(s), r.opt(s, CREW.inRegulation), local(r.one(s, CREW.provision)),
                                                  r.many(s, CREW.appliesToCertificate), tuple(steps))
    return validity, schedules
