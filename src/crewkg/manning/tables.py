"""Minimum crew (Mindestbesatzung): the manning tables read from the kb, the Datalog program that decides which
table, Stufe, column and alternatives govern a vessel on a date, and the minimum-crew answer.

The law is data. Every table row, count, threshold, reduction, substitution and date comes from `kb/` (SchBV 2022
§§ 40–47, SchBesV 2004 §§ 3–19) and `ontology/manning.ttl`; the rules below are generic over that data and name no
role, count or date. Where the sources lack a table (§ 41 Abs. 2 SchBV, the 2022 table of § 42 Abs. 1, SchBesV 2004
§ 12), where no row or two rows cover a vessel, where a gap in the sources governs it (§ 44 SchBV) or where the date
lies before the encoded law, the answer is `covered: false` with the reason and the provisions under which the
authority decides — never a guess.

Like `eligibility.derive`, every evaluation is a fresh database (`datalog.evaluate`) asked one union query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from rdflib import Namespace
from rdflib.namespace import DefinedNamespace
from rdflib.term import URIRef

from crewkg.law.namespaces import CREW_IRI
from crewkg.law.statute import Law, Notes


class MANNING(DefinedNamespace):
    """The minimum-crew terms of ontology/manning.ttl used from Python (closed: a typo fails at import)."""

    _NS = Namespace(CREW_IRI)
    _fail = True

    Vessel: URIRef
    Roster: URIRef
    VesselKind: URIRef
    Waters: URIRef
    EquipmentStandard: URIRef
    Case: URIRef
    RangeCondition: URIRef
    ValueCondition: URIRef
    NauticalTable: URIRef
    SafetyFunctionTable: URIRef
    TableRow: URIRef
    CrewAlternative: URIRef
    Reduction: URIRef
    Addition: URIRef
    Substitution: URIRef
    FunctionRule: URIRef
    FunctionDelegation: URIRef
    CoverageGap: URIRef
    QualificationProof: URIRef
    Amendment: URIRef
    TransitionalRule: URIRef
    LighterEquivalence: URIRef
    Reading: URIRef
    RowPrecedence: URIRef
    appliedReading: URIRef
    otherReading: URIRef
    preferredRow: URIRef
    overRow: URIRef
    NoStandard: URIRef
    hasCrewMember: URIRef
    requiresAttribute: URIRef
    recordKey: URIRef
    vesselId: URIRef
    appliesWhen: URIRef
    hasCondition: URIRef
    onAttribute: URIRef
    requiredValue: URIRef
    atLeast: URIRef
    greaterThan: URIRef
    atMost: URIRef
    lessThan: URIRef
    inTable: URIRef
    stufe: URIRef
    quotedText: URIRef
    ofRow: URIRef
    forStandard: URIRef
    hasRoleCount: URIRef
    countsRole: URIRef
    count: URIRef
    notInSources: URIRef
    reason: URIRef
    authorityDecidesUnder: URIRef
    lastKnown: URIRef
    appliesToTable: URIRef
    otherVesselsUnder: URIRef
    standingUnknownFor: URIRef
    appliesToCell: URIRef
    adjustsRole: URIRef
    changeBy: URIRef
    temporary: URIRef
    baseStandard: URIRef
    supersedes: URIRef
    replacesRole: URIRef
    byRole: URIRef
    maxPerAlternative: URIRef
    substituteMinimumAge: URIRef
    substituteMinimumApprenticeshipYear: URIRef
    substituteMinimumFahrzeitDays: URIRef
    requiresFunction: URIRef
    acceptsFunction: URIRef
    provesFunction: URIRef
    provesCertificate: URIRef
    acceptsQualificationAtLeast: URIRef
    acceptsQualificationIssuedAfter: URIRef
    requiredOfRole: URIRef
    exceptRequiredRole: URIRef
    delegatesFunction: URIRef
    whenNauticalCrewSize: URIRef
    relaxesFunction: URIRef
    introducedBy: URIRef
    replacedBy: URIRef
    inForceFromEarliest: URIRef
    reportedIn: URIRef
    restrictedToWaters: URIRef
    inForceFromLatest: URIRef
    maxGroupLength: URIRef
    maxGroupBreadth: URIRef
    functionKind: URIRef
    EngineQualification: URIRef
    CountedFunction: URIRef
    RequiredFunction: URIRef


#: The `functions` object of the minimum-crew answer: these keys count crew members, ANSWER_FLAGS say whether a rule
#: applies, and every other function a function rule requires is the `engine` entry. They are the answer contract;
#: which counts apply comes from the kb (the keys are the kb ids of the functions).
FUNCTION_KEYS = ("SachkundigerFahrgastschifffahrt", "FahrgastErsthelfer", "Fahrgastbetreuer", "Atemschutzgeraetetraeger")
ANSWER_COUNTS = (*FUNCTION_KEYS, "FirstAid")
ANSWER_FLAGS = ("SachkundigerLNG",)
_OPEN_END = date.max.toordinal()

#: The kinds of function rule (crew:FunctionKind) and where the answer puts them: the `engine` entry, a count of crew
#: members, or a flag. A function rule of any other kind, or of none, is refused when the kb is loaded.
FUNCTION_KINDS = ("EngineQualification", "CountedFunction", "RequiredFunction")


class ManningDataError(ValueError):
    """The manning tables of the kb break a rule the answer relies on (named in the message); raised at kb load."""


# ------------------------------------------------------------------------------------------------------------------
# The compiled manning law
# ------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Condition:
    id: str
    attribute: str
    op: str  # ge | gt | le | lt | is
    value: Any


@dataclass(frozen=True, kw_only=True)
class Case:
    id: str
    provision: str | None
    conditions: tuple[Condition, ...]
    label: dict[str, str]
    introduced_by: str | None = None
    replaced_by: str | None = None
    notes: Notes = field(default_factory=dict, hash=False)


@dataclass(frozen=True, kw_only=True)
class Table:
    id: str
    kind: str  # nautical | functions
    label: dict[str, str]
    provision: str
    regulation: str
    cases: tuple[str, ...]
    missing: bool = False
    reason: dict[str, str] = field(default_factory=dict)  # language -> why the table is not in the sources
    authority: tuple[str, ...] = ()
    last_known: str | None = None
    notes: Notes = field(default_factory=dict, hash=False)


@dataclass(frozen=True, kw_only=True)
class Row:
    id: str
    table: str
    provision: str
    quoted: str
    cases: tuple[str, ...]
    stufe: int | None = None
    counts: tuple[tuple[str, int], ...] = ()
    notes: Notes = field(default_factory=dict, hash=False)


@dataclass(frozen=True, kw_only=True)
class Alternative:
    id: str
    row: str
    standard: str
    order: int
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class Rule:
    """What every rule beside the tables has; one record type per kind below adds what that kind says."""

    id: str
    kind: str  # Reduction | Addition | Substitution | FunctionRule | FunctionDelegation | CoverageGap | QualificationProof | TransitionalRule | LighterEquivalence | RowPrecedence
    provision: str
    label: dict[str, str]
    tables: tuple[str, ...] = ()  # appliesToTable
    cases: tuple[str, ...] = ()  # appliesWhen
    regulation: str | None = None  # inRegulation
    notes: Notes = field(default_factory=dict, hash=False)
    introduced_by: str | None = None  # an amendment or an other reading the rule belongs to
    replaced_by: str | None = None  # an amendment or an other reading the rule gives way to


@dataclass(frozen=True, kw_only=True)
class Adjustment(Rule):
    """A reduction or an addition: a role's count changes by `change` in the cells named (all cells when none)."""

    role: str | None = None  # adjustsRole
    cells: tuple[tuple[int, str], ...] = ()
    change: int = 0
    temporary: bool = False
    base_standard: str | None = None
    supersedes: str | None = None


@dataclass(frozen=True, kw_only=True)
class Substitution(Rule):
    """Who may take a prescribed place (`role`) instead: `by`, under the conditions given."""

    role: str | None = None  # replacesRole
    by: str | None = None
    cells: tuple[tuple[int, str], ...] = ()
    max_per_alternative: int | None = None
    min_age: int | None = None
    min_apprenticeship_year: int | None = None
    min_fahrzeit_days: int | None = None


@dataclass(frozen=True, kw_only=True)
class FunctionRule(Rule):
    """A qualification the crew must hold (engine, first aid, LNG): `count` members with `role`."""

    role: str | None = None  # requiresFunction
    count: int = 0
    accepts_functions: tuple[str, ...] = ()
    accepts_at_least: str | None = None
    #: the certificate accepted by accepts_at_least must be issued after this day (where the record dates it)
    accepts_issued_after: date | None = None
    required_of_role: str | None = None
    except_role: str | None = None
    function_kind: str | None = None  # one of FUNCTION_KINDS


@dataclass(frozen=True, kw_only=True)
class FunctionDelegation(Rule):
    """Who may perform a passenger-safety function besides a position."""

    functions: tuple[str, ...] = ()  # delegatesFunction
    when_crew_size: int | None = None
    except_role: str | None = None


@dataclass(frozen=True, kw_only=True)
class CoverageGap(Rule):
    """A provision the sources lack that governs the vessels in its cases."""

    reason: dict[str, str] = field(default_factory=dict)  # language -> why the sources do not decide
    authority: tuple[str, ...] = ()
    last_known: str | None = None


@dataclass(frozen=True, kw_only=True)
class QualificationProof(Rule):
    """On the vessels of its cases, while its regulation is in force, a qualification (`certificate`) is proven by the
    requirements of one of its pathways instead of being held (§ 6 Abs. 6 SchBesV: a Decksmann on other waters)."""

    certificate: str | None = None  # provesCertificate


@dataclass(frozen=True, kw_only=True)
class TransitionalRule(Rule):
    """A rule that relaxes a function (`role`) until a date."""

    role: str | None = None  # relaxesFunction
    until: date | None = None
    missing: bool = False
    reason: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class LighterEquivalence(Rule):
    """Lighters in line that count as one (SchBesV 2004 § 13 Abs. 1 footnote *2)."""

    max_length: float | None = None
    max_breadth: float | None = None
    quoted: str = ""


@dataclass(frozen=True, kw_only=True)
class RowPrecedence(Rule):
    """Where both rows cover a vessel, `preferred` applies and `over` does not (a reading of the table)."""

    preferred: str | None = None
    over: str | None = None


@dataclass(frozen=True, kw_only=True)
class Reading:
    """A doubtful provision: the reading applied and the other one. Cases and rules introduced by the reading
    hold only when the answer evaluates it; those it replaces give way then."""

    id: str
    provision: str
    applied: dict[str, str]  # language -> the reading applied
    other: dict[str, str]  # language -> the other reading
    tables: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    #: the amendment whose reported wording the other reading is (not stated before its earliest day)
    amendment: str | None = None
    notes: Notes = field(default_factory=dict, hash=False)


@dataclass(frozen=True, kw_only=True)
class Amendment:
    id: str
    label: dict[str, str]
    gazette: str
    in_force_from: date | None
    earliest: date | None
    latest: date | None
    notes: Notes = field(default_factory=dict, hash=False)

    @property
    def first_possible_day(self) -> date | None:
        """The first day its wording can have been in force: its day, or the earliest one where the sources lack it."""
        return self.in_force_from or self.earliest


@dataclass(frozen=True, kw_only=True)
class Attribute:
    """A vessel attribute: its property id, record key, German/English label and value type."""

    id: str
    key: str
    label: dict[str, str]
    type: str  # number | integer | boolean | term | litera | string
    range: str | None = None


@dataclass(frozen=True, kw_only=True)
class Value:
    """An individual a record names by token: a vessel kind, a kind of waters, an equipment standard."""

    id: str
    key: str
    cls: str
    label: dict[str, str]
    requires: tuple[str, ...] = ()


@dataclass(kw_only=True)
class ManningLaw:
    version: str
    tables: dict[str, Table]
    rows: dict[str, Row]
    alternatives: dict[str, Alternative]
    cases: dict[str, Case]
    rules: dict[str, Rule]
    amendments: dict[str, Amendment]
    attributes: dict[str, Attribute]
    values: dict[str, Value]
    s1_literae: tuple[str, ...]
    provision_litera: dict[str, str] = field(default_factory=dict)
    readings: dict[str, Reading] = field(default_factory=dict)
    #: exam id -> the function a crew member who proves it holds for the function rules (crew:provesFunction)
    proven_functions: dict[str, str] = field(default_factory=dict)
    #: regulation -> the provisions under which the authority fixes the crew of vessels no table governs
    other_vessels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: role -> (the table roles whose positions its holder may perhaps take, which the sources do not say; the role's
    #: provision)
    standing_unknown: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    #: certificate -> the waters it is restricted to (crew:restrictedToWaters)
    restricted_waters: dict[str, str] = field(default_factory=dict)

    def rules_of(self, kind: str) -> list[Rule]:
        return [r for r in self.rules.values() if r.kind == kind]

    def attribute_by_key(self, key: str) -> Attribute | None:
        return next((a for a in self.attributes.values() if a.key == key), None)

    def value_by_key(self, cls: str, key: str) -> Value | None:
        return next((v for v in self.values.values() if v.cls == cls and v.key == key), None)

    def tokens(self, cls: str) -> list[str]:
        return [v.key for v in self.values.values() if v.cls == cls]


def load_manning(law: Law, kb: Path | None = None, onto: Path | None = None) -> ManningLaw:
    """The manning law of the kb the Law was read from (pass the same kb/ontology folders as to load_law), compiled
    once and cached like the Law itself, keyed by the Law's content hash."""
    return _load_manning(law.version, None if kb is None else Path(kb).resolve(), None if onto is None else Path(onto).resolve())


@lru_cache(maxsize=8)
def _load_manning(version: str, kb: Path | None, onto: Path | None) -> ManningLaw:
    from crewkg.law.cache import compiled, load_graph

    return compiled("manning", version, __file__, lambda: _compile(load_graph(kb, onto), version))


def _compile(g, version: str) -> ManningLaw:
    from rdflib import RDF, RDFS, XSD, Literal
    from rdflib.namespace import OWL

    from crewkg.law.namespaces import local

    M = MANNING

    from crewkg.law.reading import GraphReader

    r = GraphReader(g)
    labels, one, opt, many, num, text, notes = r.labels, r.one, r.opt, r.many, r.value, r.text, r.notes

    def texts(s, p) -> dict[str, str]:
        """A language-tagged text per language (untagged counts as German); a language without one falls back to the
        other, so an answer always has the text the kb gives."""
        out: dict[str, str] = {}
        for o in g.objects(s, p):
            out.setdefault(getattr(o, "language", None) or "de", str(o))
        for a, b in (("de", "en"), ("en", "de")):
            if a not in out and b in out:
                out[a] = out[b]
        return out

    def counts(s) -> tuple[tuple[str, int], ...]:
        out = []
        for rc in g.objects(s, M.hasRoleCount):
            out.append((local(one(rc, M.countsRole)), int(one(rc, M.count).toPython())))
        return tuple(sorted(out))

    def as_date(v) -> date | None:
        return None if v is None else v.toPython()

    cases: dict[str, Case] = {}
    for s in g.subjects(RDF.type, M.Case):
        conds = []
        for i, c in enumerate(sorted(g.objects(s, M.hasCondition), key=lambda c: sorted(str(o) for o in g.objects(c)))):
            attr = local(one(c, M.onAttribute))
            cid = f"{local(s)}#{i}"
            if (c, RDF.type, M.ValueCondition) in g:
                v = one(c, M.requiredValue)
                value = ("true" if v.toPython() else "false") if isinstance(v, Literal) and v.datatype == XSD.boolean else (
                    str(v) if isinstance(v, Literal) else local(v))
                conds.append(Condition(id=cid, attribute=attr, op="is", value=value))
            for p, op in ((M.atLeast, "ge"), (M.greaterThan, "gt"), (M.atMost, "le"), (M.lessThan, "lt")):
                v = one(c, p)
                if v is not None:
                    conds.append(Condition(id=f"{cid}{op}", attribute=attr, op=op, value=float(v.toPython())))
        cases[local(s)] = Case(id=local(s), provision=opt(s, _CREW("provision")), conditions=tuple(conds), label=labels(s),
                               introduced_by=opt(s, M.introducedBy), replaced_by=opt(s, M.replacedBy), notes=notes(s))

    tables: dict[str, Table] = {}
    for cls, kind in ((M.NauticalTable, "nautical"), (M.SafetyFunctionTable, "functions")):
        for s in g.subjects(RDF.type, cls):
            tables[local(s)] = Table(
                id=local(s), kind=kind, label=labels(s), provision=opt(s, _CREW("provision")) or "",
                regulation=opt(s, _CREW("inRegulation")) or "", cases=many(s, M.appliesWhen),
                missing=bool(num(s, M.notInSources)), reason=texts(s, M.reason), authority=many(s, M.authorityDecidesUnder),
                last_known=opt(s, M.lastKnown), notes=notes(s))

    rows: dict[str, Row] = {}
    for s in g.subjects(RDF.type, M.TableRow):
        st = num(s, M.stufe)
        rows[local(s)] = Row(id=local(s), table=opt(s, M.inTable) or "", provision=opt(s, _CREW("provision")) or "",
                             quoted=text(s, M.quotedText), cases=many(s, M.appliesWhen), stufe=None if st is None else int(st),
                             counts=counts(s), notes=notes(s))

    alternatives: dict[str, Alternative] = {}
    for s in g.subjects(RDF.type, M.CrewAlternative):
        alternatives[local(s)] = Alternative(id=local(s), row=opt(s, M.ofRow) or "", standard=opt(s, M.forStandard) or "",
                                             order=int(num(s, _CREW("statuteOrder")) or 1), counts=counts(s))

    rules: dict[str, Rule] = {}
    kinds = {M.Reduction: "Reduction", M.Addition: "Addition", M.Substitution: "Substitution", M.FunctionRule: "FunctionRule",
             M.FunctionDelegation: "FunctionDelegation", M.CoverageGap: "CoverageGap",
             M.QualificationProof: "QualificationProof", M.TransitionalRule: "TransitionalRule",
             M.LighterEquivalence: "LighterEquivalence", M.RowPrecedence: "RowPrecedence"}
    for cls, kind in kinds.items():
        for s in g.subjects(RDF.type, cls):
            rules[local(s)] = _RULE_READERS[kind](s, _RuleFields(r=r, M=M, s=s, kind=kind, texts=texts))

    amendments: dict[str, Amendment] = {}
    for s in g.subjects(RDF.type, M.Amendment):
        amendments[local(s)] = Amendment(id=local(s), label=labels(s), gazette=text(s, _CREW("gazette")),
                                         in_force_from=as_date(one(s, _CREW("inForceFrom"))),
                                         earliest=as_date(one(s, M.inForceFromEarliest)),
                                         latest=as_date(one(s, M.inForceFromLatest)), notes=notes(s))

    readings: dict[str, Reading] = {}
    for s in g.subjects(RDF.type, M.Reading):
        readings[local(s)] = Reading(id=local(s), provision=opt(s, _CREW("provision")) or "", applied=texts(s, M.appliedReading),
                                     other=texts(s, M.otherReading), tables=many(s, M.appliesToTable),
                                     cases=many(s, M.appliesWhen), amendment=opt(s, M.reportedIn), notes=notes(s))

    attributes: dict[str, Attribute] = {}
    for s, key in g.subject_objects(M.recordKey):
        is_property = any((s, RDF.type, t) in g for t in (OWL.DatatypeProperty, OWL.ObjectProperty))
        if not is_property:
            continue
        rng = one(s, RDFS.range)
        if rng in (XSD.decimal, XSD.double):
            typ = "number"
        elif rng == XSD.integer:
            typ = "integer"
        elif rng == XSD.boolean:
            typ = "boolean"
        elif rng == XSD.string:
            typ = "litera" if local(s) == "s1Unmet" else "string"
        else:
            typ = "term"
        attributes[local(s)] = Attribute(id=local(s), key=str(key), label=labels(s), type=typ,
                                         range=None if rng is None else local(rng))

    values: dict[str, Value] = {}
    for cls in (M.VesselKind, M.Waters, M.EquipmentStandard):
        for s in g.subjects(RDF.type, cls):
            values[local(s)] = Value(id=local(s), key=str(one(s, M.recordKey)), cls=local(cls), label=labels(s),
                                     requires=many(s, M.requiresAttribute))

    # the literae of the S1 definition that a record may list as unmet (SchBesV 2004 § 11 Abs. 1 Z 1 lit. a–m)
    s1_defs = set(g.objects(_CREW("S1"), _CREW("provision")))
    literae = sorted({str(one(p, _CREW("litera"))) for p in g.subjects(_CREW("partOf"), None)
                      if one(p, _CREW("partOf")) in s1_defs and one(p, _CREW("litera")) is not None})
    provision_litera = {local(p): str(lit) for p, lit in g.subject_objects(_CREW("litera"))}
    return ManningLaw(version=version, tables=tables, rows=rows, alternatives=alternatives, cases=cases, rules=rules,
                      amendments=amendments, attributes=attributes, values=values, s1_literae=tuple(literae),
                      provision_litera=provision_litera, readings=readings,
                      proven_functions={local(e): local(f) for e, f in g.subject_objects(M.provesFunction)},
                      other_vessels={local(reg): many(reg, M.otherVesselsUnder) for reg in set(g.subjects(M.otherVesselsUnder, None))},
                      standing_unknown={local(r): (many(r, M.standingUnknownFor), opt(r, _CREW("provision")) or "")
                                        for r in set(g.subjects(M.standingUnknownFor, None))},
                      restricted_waters={local(c): local(w) for c, w in g.subject_objects(M.restrictedToWaters)})


@dataclass(frozen=True, kw_only=True)
class _RuleFields:
    """Reads one rule's properties from the kb graph: the shared fields and each kind's own."""

    r: Any  # law.reading.GraphReader
    M: Any
    s: Any
    kind: str
    texts: Any

    def common(self) -> dict[str, Any]:
        r, M, s = self.r, self.M, self.s
        return {"id": _local(s), "kind": self.kind, "provision": r.opt(s, _CREW("provision")) or "", "label": r.labels(s),
                "tables": r.many(s, M.appliesToTable), "cases": r.many(s, M.appliesWhen),
                "regulation": r.opt(s, _CREW("inRegulation")), "notes": r.notes(s),
                "introduced_by": r.opt(s, M.introducedBy), "replaced_by": r.opt(s, M.replacedBy)}

    def integer(self, p) -> int | None:
        v = self.r.value(self.s, p)
        return None if v is None else int(v)

    def real(self, p) -> float | None:
        v = self.r.value(self.s, p)
        return None if v is None else float(v)

    def cells(self) -> tuple[tuple[int, str], ...]:
        r, M = self.r, self.M
        return tuple(sorted((int(r.value(c, M.stufe)), r.opt(c, M.forStandard) or "") for c in r.g.objects(self.s, M.appliesToCell)))

    def opt(self, p) -> str | None:
        return self.r.opt(self.s, p)


def _adjustment(s, f: _RuleFields) -> Adjustment:
    M = f.M
    return Adjustment(**f.common(), role=f.opt(M.adjustsRole), cells=f.cells(), change=f.integer(M.changeBy) or 0,
                      temporary=bool(f.r.value(s, M.temporary)), base_standard=f.opt(M.baseStandard),
                      supersedes=f.opt(M.supersedes))


def _substitution(s, f: _RuleFields) -> Substitution:
    M = f.M
    return Substitution(**f.common(), role=f.opt(M.replacesRole), by=f.opt(M.byRole), cells=f.cells(),
                        max_per_alternative=f.integer(M.maxPerAlternative), min_age=f.integer(M.substituteMinimumAge),
                        min_apprenticeship_year=f.integer(M.substituteMinimumApprenticeshipYear),
                        min_fahrzeit_days=f.integer(M.substituteMinimumFahrzeitDays))


def _function_rule(s, f: _RuleFields) -> FunctionRule:
    M = f.M
    return FunctionRule(**f.common(), role=f.opt(M.requiresFunction), count=f.integer(M.count) or 0,
                        accepts_functions=f.r.many(s, M.acceptsFunction), accepts_at_least=f.opt(M.acceptsQualificationAtLeast),
                        accepts_issued_after=f.r.value(s, M.acceptsQualificationIssuedAfter),
                        required_of_role=f.opt(M.requiredOfRole), except_role=f.opt(M.exceptRequiredRole),
                        function_kind=_function_kind(_local(s), f.opt(M.functionKind)))


def _delegation(s, f: _RuleFields) -> FunctionDelegation:
    M = f.M
    return FunctionDelegation(**f.common(), functions=f.r.many(s, M.delegatesFunction),
                              when_crew_size=f.integer(M.whenNauticalCrewSize), except_role=f.opt(M.exceptRequiredRole))


def _gap(s, f: _RuleFields) -> CoverageGap:
    M = f.M
    return CoverageGap(**f.common(), reason=f.texts(s, M.reason), authority=f.r.many(s, M.authorityDecidesUnder),
                       last_known=f.opt(M.lastKnown))


def _proof(s, f: _RuleFields) -> QualificationProof:
    return QualificationProof(**f.common(), certificate=f.opt(f.M.provesCertificate))


def _transitional(s, f: _RuleFields) -> TransitionalRule:
    M = f.M
    until = f.r.one(s, _CREW("inForceUntil"))
    return TransitionalRule(**f.common(), role=f.opt(M.relaxesFunction), until=None if until is None else until.toPython(),
                            missing=bool(f.r.value(s, M.notInSources)), reason=f.texts(s, M.reason))


def _equivalence(s, f: _RuleFields) -> LighterEquivalence:
    M = f.M
    return LighterEquivalence(**f.common(), max_length=f.real(M.maxGroupLength), max_breadth=f.real(M.maxGroupBreadth),
                              quoted=f.r.text(s, M.quotedText))


def _precedence(s, f: _RuleFields) -> RowPrecedence:
    M = f.M
    return RowPrecedence(**f.common(), preferred=f.opt(M.preferredRow), over=f.opt(M.overRow))


_RULE_READERS = {"Reduction": _adjustment, "Addition": _adjustment, "Substitution": _substitution,
                 "FunctionRule": _function_rule, "FunctionDelegation": _delegation, "CoverageGap": _gap, "QualificationProof": _proof,
                 "TransitionalRule": _transitional, "LighterEquivalence": _equivalence, "RowPrecedence": _precedence}


def _local(s) -> str:
    from crewkg.law.namespaces import local

    return local(s)


def _function_kind(rule_id: str, kind: str | None) -> str:
    """Every function rule names its kind in the kb; an unknown kind never falls back to the engine entry."""
    if kind not in FUNCTION_KINDS:
        raise ManningDataError(f"function rule kb:{rule_id}: crew:functionKind must be one of "
                               f"{', '.join('crew:' + k for k in FUNCTION_KINDS)} (got {'none' if kind is None else 'crew:' + kind})")
    return kind


def _CREW(name: str) -> URIRef:
    """A term of ontology/crew.ttl that namespaces.CREW does not list (statuteOrder is there; these are read here only)."""
    return URIRef(CREW_IRI + name)


