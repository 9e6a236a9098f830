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
from crewkg.law.statute import Law


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
    Amendment: URIRef
    TransitionalRule: URIRef
    LighterEquivalence: URIRef
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
    acceptsQualificationAtLeast: URIRef
    requiredOfRole: URIRef
    exceptRequiredRole: URIRef
    delegatesFunction: URIRef
    whenNauticalCrewSize: URIRef
    relaxesFunction: URIRef
    introducedBy: URIRef
    replacedBy: URIRef
    inForceFromEarliest: URIRef
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
    notes: tuple[str, ...] = ()


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
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Row:
    id: str
    table: str
    provision: str
    quoted: str
    cases: tuple[str, ...]
    stufe: int | None = None
    counts: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Alternative:
    id: str
    row: str
    standard: str
    order: int
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True, kw_only=True)
class Rule:
    """A rule beside the tables: adjustment, substitution, function rule, delegation, gap or transitional rule."""

    id: str
    kind: str  # Reduction | Addition | Substitution | FunctionRule | FunctionDelegation | CoverageGap | TransitionalRule | LighterEquivalence
    provision: str
    label: dict[str, str]
    tables: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    cells: tuple[tuple[int, str], ...] = ()
    role: str | None = None  # adjustsRole | replacesRole | requiresFunction | relaxesFunction
    by: str | None = None  # byRole
    change: int = 0
    temporary: bool = False
    base_standard: str | None = None
    supersedes: str | None = None
    max_per_alternative: int | None = None
    min_age: int | None = None
    min_apprenticeship_year: int | None = None
    min_fahrzeit_days: int | None = None
    count: int = 0
    accepts_functions: tuple[str, ...] = ()
    accepts_at_least: str | None = None
    required_of_role: str | None = None
    except_role: str | None = None
    functions: tuple[str, ...] = ()  # delegatesFunction
    when_crew_size: int | None = None
    regulation: str | None = None
    reason: dict[str, str] = field(default_factory=dict)  # language -> why the sources do not decide
    authority: tuple[str, ...] = ()
    last_known: str | None = None
    until: date | None = None
    missing: bool = False
    max_length: float | None = None
    max_breadth: float | None = None
    quoted: str = ""
    notes: tuple[str, ...] = ()
    function_kind: str | None = None  # FunctionRule only: one of FUNCTION_KINDS


@dataclass(frozen=True, kw_only=True)
class Amendment:
    id: str
    label: dict[str, str]
    gazette: str
    in_force_from: date | None
    earliest: date | None
    latest: date | None
    notes: tuple[str, ...] = ()


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
             M.FunctionDelegation: "FunctionDelegation", M.CoverageGap: "CoverageGap", M.TransitionalRule: "TransitionalRule",
             M.LighterEquivalence: "LighterEquivalence"}
    for cls, kind in kinds.items():
        for s in g.subjects(RDF.type, cls):
            cells = tuple(sorted((int(num(c, M.stufe)), opt(c, M.forStandard) or "") for c in g.objects(s, M.appliesToCell)))

            def ival(p, s=s):
                v = num(s, p)
                return None if v is None else int(v)

            role = opt(s, M.adjustsRole) or opt(s, M.replacesRole) or opt(s, M.requiresFunction) or opt(s, M.relaxesFunction)
            until = one(s, _CREW("inForceUntil"))
            length, breadth = num(s, M.maxGroupLength), num(s, M.maxGroupBreadth)
            rules[local(s)] = Rule(
                id=local(s), kind=kind, provision=opt(s, _CREW("provision")) or "", label=labels(s),
                tables=many(s, M.appliesToTable), cases=many(s, M.appliesWhen), cells=cells, role=role, by=opt(s, M.byRole),
                change=ival(M.changeBy) or 0, temporary=bool(num(s, M.temporary)), base_standard=opt(s, M.baseStandard),
                supersedes=opt(s, M.supersedes), max_per_alternative=ival(M.maxPerAlternative),
                min_age=ival(M.substituteMinimumAge), min_apprenticeship_year=ival(M.substituteMinimumApprenticeshipYear),
                min_fahrzeit_days=ival(M.substituteMinimumFahrzeitDays), count=ival(M.count) or 0,
                accepts_functions=many(s, M.acceptsFunction), accepts_at_least=opt(s, M.acceptsQualificationAtLeast),
                required_of_role=opt(s, M.requiredOfRole), except_role=opt(s, M.exceptRequiredRole),
                functions=many(s, M.delegatesFunction), when_crew_size=ival(M.whenNauticalCrewSize),
                regulation=opt(s, _CREW("inRegulation")), reason=texts(s, M.reason),
                authority=many(s, M.authorityDecidesUnder), last_known=opt(s, M.lastKnown), until=as_date(until),
                missing=bool(num(s, M.notInSources)), max_length=None if length is None else float(length),
                max_breadth=None if breadth is None else float(breadth), quoted=text(s, M.quotedText), notes=notes(s),
                function_kind=_function_kind(local(s), opt(s, M.functionKind)) if kind == "FunctionRule" else None)

    amendments: dict[str, Amendment] = {}
    for s in g.subjects(RDF.type, M.Amendment):
        amendments[local(s)] = Amendment(id=local(s), label=labels(s), gazette=text(s, _CREW("gazette")),
                                         in_force_from=as_date(one(s, _CREW("inForceFrom"))),
                                         earliest=as_date(one(s, M.inForceFromEarliest)),
                                         latest=as_date(one(s, M.inForceFromLatest)), notes=notes(s))

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
                      provision_litera=provision_litera)


def _function_kind(rule_id: str, kind: str | None) -> str:
    """Every function rule names its kind in the kb; an unknown kind never falls back to the engine entry."""
    if kind not in FUNCTION_KINDS:
        raise ManningDataError(f"function rule kb:{rule_id}: crew:functionKind must be one of "
                               f"{', '.join('crew:' + k for k in FUNCTION_KINDS)} (got {'none' if kind is None else 'crew:' + kind})")
    return kind


def _CREW(name: str) -> URIRef:
    """A term of ontology/crew.ttl that namespaces.CREW does not list (statuteOrder is there; these are read here only)."""
    return URIRef(CREW_IRI + name)


