"""Minimum crew (Mindestbesatzung): the manning tables read from the kb, the Datalog program that decides which
table, Stufe, column and alternatives govern a vessel on a date, and the answer of design.md.

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

from .law import Law, Regulation
from .namespaces import CREW_IRI


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


#: The `functions` object of the answer (design.md): these keys count crew members, ANSWER_FLAGS say whether a rule
#: applies, and every other function a function rule requires is the `engine` entry. They are the answer contract;
#: which counts apply comes from the kb (the keys are the kb ids of the functions).
FUNCTION_KEYS = ("SachkundigerFahrgastschifffahrt", "FahrgastErsthelfer", "Fahrgastbetreuer", "Atemschutzgeraetetraeger")
ANSWER_COUNTS = (*FUNCTION_KEYS, "FirstAid")
ANSWER_FLAGS = ("SachkundigerLNG",)
_OPEN_END = date.max.toordinal()


# ------------------------------------------------------------------------------------------------------------------
# The compiled manning law
# ------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Condition:
    id: str
    attribute: str
    op: str  # ge | gt | le | lt | is
    value: Any


@dataclass(frozen=True)
class Case:
    id: str
    provision: str | None
    conditions: tuple[Condition, ...]
    label: dict[str, str]
    introduced_by: str | None = None
    replaced_by: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    id: str
    kind: str  # nautical | functions
    label: dict[str, str]
    provision: str
    regulation: str
    cases: tuple[str, ...]
    missing: bool = False
    reason: str = ""
    authority: tuple[str, ...] = ()
    last_known: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    id: str
    table: str
    provision: str
    quoted: str
    cases: tuple[str, ...]
    stufe: int | None = None
    counts: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Alternative:
    id: str
    row: str
    standard: str
    order: int
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
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
    reason: str = ""
    authority: tuple[str, ...] = ()
    last_known: str | None = None
    until: date | None = None
    missing: bool = False
    max_length: float | None = None
    max_breadth: float | None = None
    quoted: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Amendment:
    id: str
    label: dict[str, str]
    gazette: str
    in_force_from: date | None
    earliest: date | None
    latest: date | None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attribute:
    """A vessel attribute: its property id, record key, German/English label and value type."""

    id: str
    key: str
    label: dict[str, str]
    type: str  # number | integer | boolean | term | litera | string
    range: str | None = None


@dataclass(frozen=True)
class Value:
    """An individual a record names by token: a vessel kind, a kind of waters, an equipment standard."""

    id: str
    key: str
    cls: str
    label: dict[str, str]
    requires: tuple[str, ...] = ()


@dataclass
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
    from .law import compiled, load_graph

    return compiled("manning", version, __file__, lambda: _compile(load_graph(kb, onto), version))


def _compile(g, version: str) -> ManningLaw:
    from rdflib import RDF, RDFS, XSD, Literal
    from rdflib.namespace import OWL, SKOS

    from .namespaces import local

    M = MANNING

    def labels(s) -> dict[str, str]:
        out: dict[str, str] = {}
        for o in g.objects(s, RDFS.label):
            if isinstance(o, Literal):
                out.setdefault(o.language or "de", str(o))
        if "en" not in out and "de" in out:
            out["en"] = out["de"]
        return out

    def one(s, p):
        return g.value(s, p)

    def opt(s, p) -> str | None:
        v = one(s, p)
        return None if v is None else local(v)

    def many(s, p) -> tuple[str, ...]:
        return tuple(sorted(local(o) for o in g.objects(s, p)))

    def num(s, p):
        v = one(s, p)
        return None if v is None else v.toPython()

    def text(s, p) -> str:
        v = one(s, p)
        return "" if v is None else str(v)

    def notes(s) -> tuple[str, ...]:
        return tuple(sorted(str(o) for o in g.objects(s, SKOS.editorialNote)))

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
                conds.append(Condition(cid, attr, "is", value))
            for p, op in ((M.atLeast, "ge"), (M.greaterThan, "gt"), (M.atMost, "le"), (M.lessThan, "lt")):
                v = one(c, p)
                if v is not None:
                    conds.append(Condition(f"{cid}{op}", attr, op, float(v.toPython())))
        cases[local(s)] = Case(local(s), opt(s, _CREW("provision")), tuple(conds), labels(s),
                               opt(s, M.introducedBy), opt(s, M.replacedBy), notes(s))

    tables: dict[str, Table] = {}
    for cls, kind in ((M.NauticalTable, "nautical"), (M.SafetyFunctionTable, "functions")):
        for s in g.subjects(RDF.type, cls):
            tables[local(s)] = Table(
                local(s), kind, labels(s), opt(s, _CREW("provision")) or "", opt(s, _CREW("inRegulation")) or "",
                many(s, M.appliesWhen), bool(num(s, M.notInSources)), text(s, M.reason), many(s, M.authorityDecidesUnder),
                opt(s, M.lastKnown), notes(s))

    rows: dict[str, Row] = {}
    for s in g.subjects(RDF.type, M.TableRow):
        st = num(s, M.stufe)
        rows[local(s)] = Row(local(s), opt(s, M.inTable) or "", opt(s, _CREW("provision")) or "", text(s, M.quotedText),
                             many(s, M.appliesWhen), None if st is None else int(st), counts(s), notes(s))

    alternatives: dict[str, Alternative] = {}
    for s in g.subjects(RDF.type, M.CrewAlternative):
        alternatives[local(s)] = Alternative(local(s), opt(s, M.ofRow) or "", opt(s, M.forStandard) or "",
                                             int(num(s, _CREW("statuteOrder")) or 1), counts(s))

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
                local(s), kind, opt(s, _CREW("provision")) or "", labels(s), many(s, M.appliesToTable), many(s, M.appliesWhen),
                cells, role, opt(s, M.byRole), ival(M.changeBy) or 0, bool(num(s, M.temporary)), opt(s, M.baseStandard),
                opt(s, M.supersedes), ival(M.maxPerAlternative), ival(M.substituteMinimumAge),
                ival(M.substituteMinimumApprenticeshipYear), ival(M.substituteMinimumFahrzeitDays), ival(M.count) or 0,
                many(s, M.acceptsFunction), opt(s, M.acceptsQualificationAtLeast), opt(s, M.requiredOfRole),
                opt(s, M.exceptRequiredRole), many(s, M.delegatesFunction), ival(M.whenNauticalCrewSize),
                opt(s, _CREW("inRegulation")), text(s, M.reason), many(s, M.authorityDecidesUnder), opt(s, M.lastKnown),
                as_date(until), bool(num(s, M.notInSources)), None if length is None else float(length),
                None if breadth is None else float(breadth), text(s, M.quotedText), notes(s))

    amendments: dict[str, Amendment] = {}
    for s in g.subjects(RDF.type, M.Amendment):
        amendments[local(s)] = Amendment(local(s), labels(s), text(s, _CREW("gazette")), as_date(one(s, _CREW("inForceFrom"))),
                                         as_date(one(s, M.inForceFromEarliest)), as_date(one(s, M.inForceFromLatest)), notes(s))

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
        attributes[local(s)] = Attribute(local(s), str(key), labels(s), typ, None if rng is None else local(rng))

    values: dict[str, Value] = {}
    for cls in (M.VesselKind, M.Waters, M.EquipmentStandard):
        for s in g.subjects(RDF.type, cls):
            values[local(s)] = Value(local(s), str(one(s, M.recordKey)), local(cls), labels(s), many(s, M.requiresAttribute))

    # the literae of the S1 definition that a record may list as unmet (SchBesV 2004 § 11 Abs. 1 Z 1 lit. a–m)
    s1_defs = set(g.objects(_CREW("S1"), _CREW("provision")))
    literae = sorted({str(one(p, _CREW("litera"))) for p in g.subjects(_CREW("partOf"), None)
                      if one(p, _CREW("partOf")) in s1_defs and one(p, _CREW("litera")) is not None})
    provision_litera = {local(p): str(lit) for p, lit in g.subject_objects(_CREW("litera"))}
    return ManningLaw(version, tables, rows, alternatives, cases, rules, amendments, attributes, values, tuple(literae),
                      provision_litera)


def _CREW(name: str) -> URIRef:
    """A term of ontology/crew.ttl that namespaces.CREW does not list (statuteOrder is there; these are read here only)."""
    return URIRef(CREW_IRI + name)


# ------------------------------------------------------------------------------------------------------------------
# The Datalog program
# ------------------------------------------------------------------------------------------------------------------
RULES = """
# RULE regime — the regulation in force on the evaluation date (dates as day numbers)
in_force(Reg) <= today(D) & reg_window(Reg, F, U) & (F <= D) & (D <= U)

# RULE condition — one condition on one vessel attribute
holds(V, K) <= cond_ge(K, A, X) & num(V, A, Y) & (Y >= X)
holds(V, K) <= cond_gt(K, A, X) & num(V, A, Y) & (Y > X)
holds(V, K) <= cond_le(K, A, X) & num(V, A, Y) & (Y <= X)
holds(V, K) <= cond_lt(K, A, X) & num(V, A, Y) & (Y < X)
holds(V, K) <= cond_is(K, A, X) & cat(V, A, X)

# RULE wording — a case worded by an amendment counts only while that wording is in force
stale(C) <= introduced_by(C, M) & ~amended(M)
stale(C) <= replaced_by(C, M) & amended(M)

# RULE case — every condition of a case holds (counted; negation inside the recursion would be slower)
case(C) <= case_condition(C, K)
(n_conditions[C] == len_(K)) <= case_condition(C, K)
(n_holding[V, C] == len_(K)) <= case_condition(C, K) & holds(V, K)
case_ok(V, C) <= vessel(V) & case(C) & ~stale(C) & (n_conditions[C] == N) & (n_holding[V, C] == N)

# RULE table — a table of the regulation in force governs the vessel when one of its cases holds
table_applies(V, T) <= table_regulation(T, Reg) & in_force(Reg) & table_case(T, C) & case_ok(V, C)

# RULE gap — a provision the sources lack governs the vessel
gap_applies(V, G) <= gap_regulation(G, Reg) & in_force(Reg) & gap_case(G, C) & case_ok(V, C)

# RULE stufe — the rows of a governing table that cover the vessel
row_applies(V, R) <= table_applies(V, T) & row_table(R, T) & row_case(R, C) & case_ok(V, C)

# RULE adjustment — reductions and additions of a governing table whose cases hold; temporary ones only when asked for
adj_fits(V, M) <= table_applies(V, T) & adj_table(M, T) & adj_always(M)
adj_fits(V, M) <= table_applies(V, T) & adj_table(M, T) & adj_case(M, C) & case_ok(V, C)
adj_wanted(V, M) <= adj_fits(V, M) & ~adj_temporary(M)
adj_wanted(V, M) <= adj_fits(V, M) & adj_temporary(M) & want_temporary(V)
adj_overridden(V, M) <= adj_supersedes(M2, M) & adj_wanted(V, M2)
adj_effective(V, M) <= adj_wanted(V, M) & ~adj_overridden(V, M)

# RULE column — the column of the vessel's equipment standard, or the base column of an addition for a vessel below S1
alt_row(A, R) <= alt(A, R, T, S, N)
alt_table(A, T) <= alt(A, R, T, S, N)
alt_standard(A, S) <= alt(A, R, T, S, N)
alt_cell(A, N, S) <= alt(A, R, T, S, N) & (N > 0)
table_standard(T, S) <= alt(A, R, T, S, N)
column(V, T, S) <= table_applies(V, T) & cat(V, 'equipmentStandard', S) & table_standard(T, S)
column(V, T, S) <= table_applies(V, T) & adj_effective(V, M) & adj_table(M, T) & adj_base(M, S)

# RULE alternative — each alternative ('1 oder') of a covering row in the vessel's column
alternative(V, A) <= row_applies(V, R) & alt_row(A, R) & row_table(R, T) & column(V, T, S) & alt_standard(A, S)

# RULE reach — an adjustment reaches the alternatives of its table, or only those in the cells it names
adj_reaches(V, M, A) <= adj_effective(V, M) & alternative(V, A) & alt_table(A, T) & adj_table(M, T) & adj_all_cells(M)
adj_reaches(V, M, A) <= adj_effective(V, M) & alternative(V, A) & alt_table(A, T) & adj_table(M, T) & alt_cell(A, N, S) & adj_cell(M, N, S)
adj_offered(V, M, A) <= adj_fits(V, M) & adj_temporary(M) & ~want_temporary(V) & alternative(V, A) & alt_table(A, T) & adj_table(M, T) & alt_cell(A, N, S) & adj_cell(M, N, S)

# RULE required — role counts of an alternative after the adjustments that reach it; a count never drops below zero
contribution(V, A, Role, 'table', N) <= alternative(V, A) & alt_count(A, Role, N)
contribution(V, A, Role, M, D) <= adj_reaches(V, M, A) & adj_role(M, Role) & adj_change(M, D)
(total[V, A, Role] == sum_(N, for_each=Src)) <= contribution(V, A, Role, Src, N)
required(V, A, Role, N) <= contribution(V, A, Role, Src, X) & (total[V, A, Role] == N) & (N >= 0)
required(V, A, Role, 0) <= contribution(V, A, Role, Src, X) & (total[V, A, Role] == N) & (N < 0)
alt_has(A, Role) <= alt_count(A, Role, N)
idle(V, M, A) <= adj_reaches(V, M, A) & adj_role(M, Role) & adj_change(M, D) & (D < 0) & ~alt_has(A, Role)

# RULE functions — the passenger-safety row that covers the vessel (by passengers on board and length)
function_row(V, R) <= table_applies(V, T) & table_functions(T) & row_table(R, T) & row_case(R, C) & case_ok(V, C)

# RULE function-rules — qualifications the crew must hold: engine power, first aid, LNG
rule_applies(V, F) <= rule_table(F, T) & table_applies(V, T) & rule_always(F)
rule_applies(V, F) <= rule_table(F, T) & table_applies(V, T) & rule_case(F, C) & case_ok(V, C)

# RULE substitutions — who may take a prescribed place, in the whole table or in the cells a footnote names
sub_applies(V, S) <= sub_table(S, T) & table_applies(V, T) & sub_always(S)
sub_applies(V, S) <= sub_table(S, T) & table_applies(V, T) & sub_case(S, C) & case_ok(V, C)
sub_reaches(V, S, A) <= sub_applies(V, S) & alternative(V, A) & alt_table(A, T) & sub_table(S, T) & sub_all_cells(S)
sub_reaches(V, S, A) <= sub_applies(V, S) & alternative(V, A) & alt_table(A, T) & sub_table(S, T) & alt_cell(A, N, Std) & sub_cell(S, N, Std)

# RULE delegation, transitional — who may perform a function besides a position; rules that end on a date
delegation_applies(V, G) <= delegation_table(G, T) & table_applies(V, T)
transitional_applies(V, X) <= transitional_table(X, T) & table_applies(V, T) & today(D) & transitional_until(X, U) & (D <= U)

# One query for everything
derived(V, 'in_force', Reg, '', 0) <= vessel(V) & in_force(Reg)
derived(V, 'table', T, '', 0) <= table_applies(V, T)
derived(V, 'gap', G, '', 0) <= gap_applies(V, G)
derived(V, 'row', R, '', 0) <= row_applies(V, R)
derived(V, 'case', C, '', 0) <= case_ok(V, C)
derived(V, 'column', T, S, 0) <= column(V, T, S)
derived(V, 'alternative', A, '', 0) <= alternative(V, A)
derived(V, 'required', A, Role, N) <= required(V, A, Role, N)
derived(V, 'adjusted', M, A, 0) <= adj_reaches(V, M, A)
derived(V, 'effective', M, '', 0) <= adj_effective(V, M)
derived(V, 'idle', M, A, 0) <= idle(V, M, A)
derived(V, 'offered', M, A, 0) <= adj_offered(V, M, A)
derived(V, 'function_row', R, '', 0) <= function_row(V, R)
derived(V, 'rule', F, '', 0) <= rule_applies(V, F)
derived(V, 'substitution', S, A, 0) <= sub_reaches(V, S, A)
derived(V, 'substitution_table', S, '', 0) <= sub_applies(V, S)
derived(V, 'delegation', G, '', 0) <= delegation_applies(V, G)
derived(V, 'transitional', X, '', 0) <= transitional_applies(V, X)
"""

#: every fact predicate the rules read, with its arity (`datalog.evaluate` declares those that get no fact)
FACT_PREDICATES = {
    "today": 1, "reg_window": 3, "vessel": 1, "num": 3, "cat": 3, "want_temporary": 1, "amended": 1,
    "cond_ge": 3, "cond_gt": 3, "cond_le": 3, "cond_lt": 3, "cond_is": 3, "case_condition": 2,
    "introduced_by": 2, "replaced_by": 2, "table_regulation": 2, "table_case": 2, "table_functions": 1,
    "gap_regulation": 2, "gap_case": 2, "row_table": 2, "row_case": 2, "alt": 5, "alt_count": 3, "adj_table": 2, "adj_always": 1, "adj_case": 2, "adj_temporary": 1, "adj_supersedes": 2,
    "adj_base": 2, "adj_all_cells": 1, "adj_cell": 3, "adj_role": 2, "adj_change": 2, "rule_table": 2, "rule_always": 1,
    "rule_case": 2, "sub_table": 2, "sub_always": 1, "sub_case": 2, "sub_all_cells": 1, "sub_cell": 3,
    "delegation_table": 2, "transitional_table": 2, "transitional_until": 2,
}


_FACTS: dict[tuple, tuple[tuple, ...]] = {}


def kb_facts(ml: ManningLaw, regulations: tuple[tuple[str, int, int], ...]) -> tuple[tuple, ...]:
    """The manning law as Datalog facts (cached per compiled law and regulation windows)."""
    key = (ml.version, regulations)
    if key not in _FACTS:
        _FACTS[key] = _kb_facts(ml, regulations)
    return _FACTS[key]


def _kb_facts(ml: ManningLaw, regulations: tuple[tuple[str, int, int], ...]) -> tuple[tuple, ...]:
    f: list[tuple] = [("reg_window", r, a, b) for r, a, b in regulations]
    for c in ml.cases.values():
        for k in c.conditions:
            f.append(("case_condition", c.id, k.id))
            f.append((f"cond_{k.op}", k.id, k.attribute, k.value))
        if c.introduced_by:
            f.append(("introduced_by", c.id, c.introduced_by))
        if c.replaced_by:
            f.append(("replaced_by", c.id, c.replaced_by))
    for t in ml.tables.values():
        f.append(("table_regulation", t.id, t.regulation))
        f += [("table_case", t.id, c) for c in t.cases]
        if t.kind == "functions":
            f.append(("table_functions", t.id))
    for r in ml.rows.values():
        f.append(("row_table", r.id, r.table))
        f += [("row_case", r.id, c) for c in r.cases]
    for a in ml.alternatives.values():
        row = ml.rows[a.row]
        f.append(("alt", a.id, a.row, row.table, a.standard, row.stufe or 0))
        f += [("alt_count", a.id, role, n) for role, n in a.counts]
    for r in ml.rules.values():
        if r.kind in ("Reduction", "Addition"):
            f += [("adj_table", r.id, t) for t in r.tables]
            f += [("adj_case", r.id, c) for c in r.cases] if r.cases else [("adj_always", r.id)]
            f += [("adj_cell", r.id, n, s) for n, s in r.cells] if r.cells else [("adj_all_cells", r.id)]
            f += [("adj_role", r.id, r.role), ("adj_change", r.id, r.change)]
            if r.temporary:
                f.append(("adj_temporary", r.id))
            if r.supersedes:
                f.append(("adj_supersedes", r.id, r.supersedes))
            if r.base_standard:
                f.append(("adj_base", r.id, r.base_standard))
        elif r.kind == "Substitution":
            f += [("sub_table", r.id, t) for t in r.tables]
            f += [("sub_case", r.id, c) for c in r.cases] if r.cases else [("sub_always", r.id)]
            f += [("sub_cell", r.id, n, s) for n, s in r.cells] if r.cells else [("sub_all_cells", r.id)]
        elif r.kind == "FunctionRule":
            f += [("rule_table", r.id, t) for t in r.tables]
            f += [("rule_case", r.id, c) for c in r.cases] if r.cases else [("rule_always", r.id)]
        elif r.kind == "FunctionDelegation":
            f += [("delegation_table", r.id, t) for t in r.tables]
        elif r.kind == "CoverageGap":
            f.append(("gap_regulation", r.id, r.regulation))
            f += [("gap_case", r.id, c) for c in r.cases]
        elif r.kind == "TransitionalRule" and r.tables and r.until:
            f += [("transitional_table", r.id, t) for t in r.tables]
            f.append(("transitional_until", r.id, r.until.toordinal()))
    return tuple(f)


@dataclass
class Derived:
    """What the Datalog program derived for one vessel."""

    in_force: set[str] = field(default_factory=set)
    tables: set[str] = field(default_factory=set)
    gaps: set[str] = field(default_factory=set)
    rows: set[str] = field(default_factory=set)
    cases: set[str] = field(default_factory=set)
    columns: dict[str, str] = field(default_factory=dict)
    alternatives: set[str] = field(default_factory=set)
    required: dict[str, dict[str, int]] = field(default_factory=dict)
    adjusted: set[tuple[str, str]] = field(default_factory=set)
    effective: set[str] = field(default_factory=set)
    idle: set[tuple[str, str]] = field(default_factory=set)
    offered: set[tuple[str, str]] = field(default_factory=set)
    function_rows: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)
    substitutions: set[tuple[str, str]] = field(default_factory=set)
    substitution_tables: set[str] = field(default_factory=set)
    delegations: set[str] = field(default_factory=set)
    transitional: set[str] = field(default_factory=set)

    def key(self) -> tuple:
        """Everything an answer depends on, to compare two scenarios of an uncertain amendment date."""
        return (tuple(sorted(self.in_force)), tuple(sorted(self.tables)), tuple(sorted(self.gaps)), tuple(sorted(self.rows)),
                tuple(sorted(self.columns.items())), tuple(sorted((a, tuple(sorted(c.items()))) for a, c in self.required.items())),
                tuple(sorted(self.function_rows)), tuple(sorted(self.rules)))


def vessel_facts(vessel, ml: ManningLaw) -> list[tuple]:
    """A vessel record as facts: numeric attributes as num/3, terms, booleans and literae as cat/3."""
    f: list[tuple] = [("vessel", vessel.id)]
    for attr_id, value in vessel.values.items():
        attr = ml.attributes[attr_id]
        if attr.type in ("number", "integer"):
            f.append(("num", vessel.id, attr_id, float(value)))
        elif attr.type == "boolean":
            f.append(("cat", vessel.id, attr_id, "true" if value else "false"))
        elif attr.type == "litera":
            f += [("cat", vessel.id, attr_id, v) for v in value]
        elif attr.type == "term":
            f.append(("cat", vessel.id, attr_id, value))
    return f


def _scenarios(ml: ManningLaw, as_of: date) -> list[tuple[frozenset[str], str | None]]:
    """Which amendments are in force on the date. An amendment whose day the sources do not give (only a window)
    makes two scenarios inside that window: with and without it."""
    certain: set[str] = set()
    unsure: list[str] = []
    for a in ml.amendments.values():
        if a.in_force_from is not None:
            if a.in_force_from <= as_of:
                certain.add(a.id)
        elif a.earliest is not None and a.latest is not None:
            if as_of >= a.latest:
                certain.add(a.id)
            elif as_of >= a.earliest:
                unsure.append(a.id)
    out = [(frozenset(certain), None)]
    for u in unsure:
        out = [(s | {u}, u) for s, _ in out] + [(s, u) for s, _ in out]
    return out


_KINDS = {  # derived kind -> how it is stored in Derived
    "in_force": ("in_force", "add1"), "table": ("tables", "add1"), "gap": ("gaps", "add1"), "row": ("rows", "add1"),
    "case": ("cases", "add1"), "alternative": ("alternatives", "add1"), "effective": ("effective", "add1"),
    "function_row": ("function_rows", "add1"), "rule": ("rules", "add1"), "substitution_table": ("substitution_tables", "add1"),
    "delegation": ("delegations", "add1"), "transitional": ("transitional", "add1"), "adjusted": ("adjusted", "add2"),
    "idle": ("idle", "add2"), "offered": ("offered", "add2"), "substitution": ("substitutions", "add2"),
}


def derive(ml: ManningLaw, law: Law, vessels: list, as_of: date, temporary: bool = False,
           amended: frozenset[str] = frozenset()) -> dict[str, Derived]:
    """Run the program once for a batch of vessels on one date and amendment scenario (a fresh database each call)."""
    from .datalog import evaluate  # pyDatalog is imported only when a vessel is evaluated

    windows = tuple(sorted((r.id, r.in_force_from.toordinal(), (r.in_force_until or date.max).toordinal())
                           for r in law.regulations.values()))
    facts = list(kb_facts(ml, windows))
    for v in vessels:
        facts += vessel_facts(v, ml)
        if temporary:
            facts.append(("want_temporary", v.id))
    facts.append(("today", as_of.toordinal()))
    facts += [("amended", a) for a in sorted(amended)]
    rows = evaluate(RULES, FACT_PREDICATES, facts, "derived(V, K, X, Y, N)")
    out = {v.id: Derived() for v in vessels}
    for vid, kind, x, y, n in rows:
        d = out[vid]
        if kind == "column":
            d.columns[x] = y
        elif kind == "required":
            d.required.setdefault(x, {})[y] = int(n)
        else:
            name, how = _KINDS[kind]
            getattr(d, name).add(x if how == "add1" else (x, y))
    return out


# ------------------------------------------------------------------------------------------------------------------
# The requirement and the answer
# ------------------------------------------------------------------------------------------------------------------
@dataclass
class AlternativeNeed:
    """One alternative after the adjustments: what the roster check fills."""

    id: str
    index: int
    counts: dict[str, int]  # role -> count, zero counts omitted
    table_counts: dict[str, int]  # the counts as the table prescribes them
    substitutions: list[Rule]  # substitutions that reach this alternative
    adjustments: list[Rule] = field(default_factory=list)  # reductions and additions that changed it


@dataclass
class FunctionNeed:
    function: str
    count: int
    provision: str
    table: str


@dataclass
class Requirement:
    """The answer's data for the roster check (rosters.py) besides the JSON answer itself."""

    vessel: Any
    as_of: date
    regulation: Regulation | None
    covered: bool
    table: Table | None = None
    row: Row | None = None
    alternatives: list[AlternativeNeed] = field(default_factory=list)
    functions: list[FunctionNeed] = field(default_factory=list)
    function_table: Table | None = None
    function_substitutions: list[Rule] = field(default_factory=list)
    delegations: list[Rule] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    transitional: list[Rule] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=dict)


T = {
    "de": {"ge": "mindestens", "gt": "mehr als", "le": "höchstens", "lt": "weniger als", "is": "=",
           "true": "ja", "false": "nein"},
    "en": {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than", "is": "=",
           "true": "yes", "false": "no"},
}


def regulation_name(reg: Regulation) -> str:
    """'SchBV 2022', 'SchBesV 2004': the abbreviation and the year of its gazette number."""
    year = reg.gazette.rsplit("/", 1)[-1].strip() if "/" in reg.gazette else str(reg.in_force_from.year)
    return f"{reg.abbreviation} {year}"


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:g}"
    return str(x)


def explain_case(ml: ManningLaw, vessel, case: Case, lang: str) -> list[str]:
    """The conditions of a case with the vessel's values, for people: 'zulässige Anzahl der Fahrgäste 300: mindestens 76'."""
    t = T[lang]
    out = []
    for k in case.conditions:
        attr = ml.attributes[k.attribute]
        name = attr.label.get(lang, attr.id)
        have = vessel.values.get(k.attribute)
        if attr.type == "term":
            have_s = ml.values[have].label.get(lang, have) if have in ml.values else str(have)
            want = ml.values[k.value].label.get(lang, k.value) if k.value in ml.values else str(k.value)
            out.append(f"{name}: {have_s} (= {want})")
        elif attr.type == "boolean":
            out.append(f"{name}: {t['true'] if have else t['false']}")
        elif attr.type == "litera":
            out.append(f"{name}: {', '.join(have or [])} (∋ {k.value})")
        else:
            out.append(f"{name} {_fmt(have)}: {t[k.op]} {_fmt(k.value)}")
    return out


def _condition_json(ml: ManningLaw, vessel, case: Case) -> list[dict[str, Any]]:
    out = []
    for k in case.conditions:
        attr = ml.attributes[k.attribute]
        out.append({"attribute": attr.key, "op": k.op, "value": k.value, "have": vessel.values.get(k.attribute)})
    return out


def _cite(law: Law, pid: str | None) -> str | None:
    return None if not pid else law.citation(pid) if pid in law.provisions else pid


def _role_label(law: Law, role: str, lang: str) -> str:
    return law.label(role, lang)


def _rule_json(law: Law, r: Rule, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.id, "kind": r.kind, "provision": _cite(law, r.provision), "text": r.label.get(lang, r.id)}
    if r.kind in ("Reduction", "Addition"):
        out |= {"role": r.role, "change": r.change, "temporary": r.temporary}
    elif r.kind == "Substitution":
        out |= {"replaces": r.role, "by": r.by}
        cond = {k: v for k, v in (("min_age", r.min_age), ("min_apprenticeship_year", r.min_apprenticeship_year),
                                  ("min_fahrzeit_days", r.min_fahrzeit_days), ("at_most", r.max_per_alternative)) if v is not None}
        if cond:
            out["conditions"] = cond
    elif r.kind == "FunctionRule":
        out |= {"function": r.role, "count": r.count}
        if r.except_role:
            out["except"] = r.except_role
        if r.required_of_role:
            out["required_of"] = r.required_of_role
    return out


def _missing_table_answer(law: Law, ml: ManningLaw, base: dict[str, Any], table: Table, vessel, as_of: date, d: Derived,
                          temporary: bool, lang: str) -> dict[str, Any]:
    ans = base | {"covered": False, "provision": _cite(law, table.provision), "table": table.id,
                  "reason": table.reason or f"the table {table.label.get(lang, table.id)} is not in the sources",
                  "provisions": [_cite(law, p) for p in table.authority]}
    known = [ml.rules[r] for r in sorted(d.rules)] + [ml.rules[s] for s in sorted(d.substitution_tables)]
    known += [ml.rules[m] for m in sorted(d.effective)]
    ans["known_rules"] = [_rule_json(law, r, lang) for r in known]
    if table.last_known:
        ans["last_known"] = _last_known(law, ml, vessel, table.last_known, temporary, lang)
    return ans


def _last_known(law: Law, ml: ManningLaw, vessel, target: str, temporary: bool, lang: str) -> dict[str, Any] | None:
    """The answer of the preceding regulation on its last day, as information only (never the answer)."""
    owner = ml.tables[target].regulation if target in ml.tables else ml.rules[target].regulation or _rule_regulation(law, ml, target)
    reg = law.regulations.get(owner or "")
    if reg is None or reg.in_force_until is None:
        return None
    old = requirement(law, ml, vessel, reg.in_force_until, temporary, lang).answer
    old = {k: v for k, v in old.items() if k not in ("vessel", "last_known")}
    return {"information_only": True,
            "note": (f"the {regulation_name(reg)} was in force until {reg.in_force_until.isoformat()}; its answer for this "
                     "vessel on that day is shown as information only because the current provision is not in the sources — "
                     "it is not the answer"),
            "valid_until": reg.in_force_until.isoformat(), **old}


def _rule_regulation(law: Law, ml: ManningLaw, rule_id: str) -> str | None:
    r = ml.rules[rule_id]
    for t in r.tables:
        return ml.tables[t].regulation
    return None


def requirement(law: Law, ml: ManningLaw, vessel, as_of: date, temporary: bool = False, lang: str = "de") -> Requirement:
    """What the law in force on the date requires for the vessel: table row, alternatives and functions — or why it
    is not covered."""
    return requirements(law, ml, [vessel], as_of, temporary, lang)[0]


def requirements(law: Law, ml: ManningLaw, vessels: list, as_of: date, temporary: bool = False,
                 lang: str = "de") -> list[Requirement]:
    """The requirement for a batch of vessels on one date, from one Datalog run per amendment scenario. Amendments
    whose day the sources lack are evaluated both ways; where the results differ the answer is 'not covered'."""
    if len({v.id for v in vessels}) != len(vessels):
        from .errors import InputError

        raise InputError("", "id", "vessel ids that are unique within one evaluation", sorted(v.id for v in vessels))
    runs = [(derive(ml, law, vessels, as_of, temporary, amended), unsure) for amended, unsure in _scenarios(ml, as_of)]
    return [_requirement(law, ml, v, as_of, [(run[v.id], unsure) for run, unsure in runs], temporary, lang) for v in vessels]


def _requirement(law: Law, ml: ManningLaw, vessel, as_of: date, results: list[tuple[Derived, str | None]],
                 temporary: bool, lang: str) -> Requirement:
    d = results[0][0]
    base: dict[str, Any] = {"vessel": vessel.id, "as_of": as_of.isoformat()}
    if len({r.key() for r, _ in results}) > 1:
        am = ml.amendments[next(u for _, u in results if u)]
        reg = law.regulations.get(next(iter(d.in_force), ""))
        return Requirement(vessel, as_of, reg, False, answer=base | {
            "regulation": regulation_name(reg) if reg else None, "covered": False, "alternatives": [], "functions": None,
            "reason": (f"on {as_of.isoformat()} it is not known from the sources whether {am.gazette} was already in force "
                       f"(the reference names only a period); the answer differs between its wording and the one before"),
            "provisions": []})
    if not d.in_force:
        first = min(law.regulations.values(), key=lambda r: r.in_force_from)
        return Requirement(vessel, as_of, None, False, answer=base | {
            "regulation": None, "covered": False, "alternatives": [], "functions": None,
            "reason": (f"no encoded regulation on minimum crew is in force on {as_of.isoformat()}; the encoded law starts "
                       f"with the {regulation_name(first)} on {first.in_force_from.isoformat()}"),
            "provisions": []})
    reg = law.regulations[sorted(d.in_force)[0]]
    base["regulation"] = regulation_name(reg)
    req = Requirement(vessel, as_of, reg, False)
    nautical = sorted(t for t in d.tables if ml.tables[t].kind == "nautical")
    empty = {"alternatives": [], "functions": None}

    def uncovered(**kw) -> Requirement:
        req.answer = base | empty | {"covered": False} | kw
        return req

    if d.gaps:
        gap = ml.rules[sorted(d.gaps)[0]]
        extra: dict[str, Any] = {}
        if gap.last_known:
            extra["last_known"] = _last_known(law, ml, vessel, gap.last_known, temporary, lang)
        return uncovered(provision=_cite(law, gap.provision), reason=gap.reason,
                         provisions=[_cite(law, p) for p in gap.authority], **extra)
    if not nautical:
        authority = sorted({p for t in ml.tables.values() if t.regulation == reg.id for p in t.authority})
        kind = ml.values.get(vessel.values.get("vesselKind", ""))
        what = kind.label.get(lang, kind.id) if kind else "vessel"
        return uncovered(reason=f"no table of the {regulation_name(reg)} covers this vessel ({what})",
                         provisions=[_cite(law, p) for p in authority])
    if len(nautical) > 1:
        return uncovered(reason="more than one table covers the vessel: " + ", ".join(_cite(law, ml.tables[t].provision) or t for t in nautical),
                         provisions=sorted({_cite(law, p) for t in nautical for p in ml.tables[t].authority}))
    table = ml.tables[nautical[0]]
    req.table = table
    if table.missing:
        req.answer = _missing_table_answer(law, ml, base | empty, table, vessel, as_of, d, temporary, lang)
        return req
    rows = sorted((ml.rows[r] for r in d.rows if ml.rows[r].table == table.id), key=lambda r: (r.stufe or 0, r.id))
    authority = [_cite(law, p) for p in table.authority]
    if not rows:
        return uncovered(provision=_cite(law, table.provision), table=table.id, provisions=authority, notes=list(table.notes),
                         reason=f"no Stufe of the table of {_cite(law, table.provision)} covers the vessel")
    if len(rows) > 1:
        return uncovered(provision=_cite(law, table.provision), table=table.id, provisions=authority,
                         reason=f"{len(rows)} rows of the table of {_cite(law, table.provision)} cover the vessel "
                                f"(Stufen {', '.join(str(r.stufe) for r in rows)}); the text does not say which applies",
                         rows=[{"stufe": r.stufe, "row": r.quoted} for r in rows], notes=list(table.notes))
    row = rows[0]
    req.row = row
    column = d.columns.get(table.id)
    alts = sorted((ml.alternatives[a] for a in d.alternatives if ml.alternatives[a].row == row.id), key=lambda a: a.order)
    if not alts:
        return uncovered(provision=_cite(law, table.provision), table=table.id, stufe=row.stufe, provisions=authority,
                         reason=f"Stufe {row.stufe} of {_cite(law, table.provision)} has no column for the vessel's equipment standard")
    req.covered = True
    for i, a in enumerate(alts):
        counts = {role: n for role, n in sorted(d.required.get(a.id, {}).items(), key=lambda rn: _role_order(law, rn[0])) if n > 0}
        subs = [ml.rules[s] for s, alt in sorted(d.substitutions) if alt == a.id]
        adjs = [ml.rules[m] for m, alt in sorted(d.adjusted) if alt == a.id and (m, alt) not in d.idle]
        req.alternatives.append(AlternativeNeed(a.id, i, counts, dict(a.counts), subs, adjs))

    # functions: the passenger-safety row and the function rules
    ftables = sorted(t for t in d.tables if ml.tables[t].kind == "functions")
    frows = sorted((ml.rows[r] for r in d.function_rows), key=lambda r: r.id)
    notes: list[str] = list(table.notes) + list(row.notes)
    functions: dict[str, Any] = {k: 0 for k in FUNCTION_KEYS}
    provisions: dict[str, str] = {}
    if ftables:
        req.function_table = ml.tables[ftables[0]]
        notes += list(req.function_table.notes)
        if len(frows) != 1:
            return uncovered(provision=_cite(law, table.provision), table=table.id, stufe=row.stufe, provisions=authority,
                             reason=(f"{len(frows)} rows of the table of {_cite(law, req.function_table.provision)} cover the vessel"
                                     + (f" ({'; '.join(r.quoted for r in frows)})" if frows else "")
                                     + "; the passenger-safety functions cannot be determined"))
        frow = frows[0]
        for fn, n in frow.counts:
            functions[fn] = n
            provisions[fn] = _cite(law, frow.provision)
            if n > 0:
                req.functions.append(FunctionNeed(fn, n, _cite(law, frow.provision) or "", frow.table))
    rules = sorted((ml.rules[r] for r in d.rules), key=lambda r: r.id)
    req.rules = rules
    engine = None
    functions["FirstAid"] = 0
    for flag in ANSWER_FLAGS:
        functions[flag] = False
    for r in rules:
        if r.role in ANSWER_FLAGS:
            functions[r.role] = True
            provisions[r.role] = _cite(law, r.provision)
        elif r.role in ANSWER_COUNTS:
            functions[r.role] = max(functions[r.role], r.count)
            provisions[r.role] = _cite(law, r.provision)
        else:
            engine = r.role
            provisions["engine"] = _cite(law, r.provision)
        notes += list(r.notes)
    functions["engine"] = engine
    req.delegations = [ml.rules[g] for g in sorted(d.delegations)]
    req.function_substitutions = [ml.rules[s] for s in sorted(d.substitution_tables) if ml.rules[s].tables
                                  and all(ml.tables[t].kind == "functions" for t in ml.rules[s].tables)]
    req.transitional = [ml.rules[x] for x in sorted(d.transitional)]

    adjusted = sorted({m for m, _ in d.adjusted})
    offered = sorted({m for m, _ in d.offered})
    case_ids = [c for c in row.cases if c in d.cases]
    why = [line for c in case_ids for line in explain_case(ml, vessel, ml.cases[c], lang)]
    notes = [n for c in case_ids for n in ml.cases[c].notes] + notes
    req.answer = base | {
        "covered": True,
        "provision": _cite(law, table.provision),
        "table": table.id,
        "stufe": row.stufe,
        "row": row.quoted,
        "why": why,
        "conditions": [c for cid in case_ids for c in _condition_json(ml, vessel, ml.cases[cid])],
        "standard": column,
        "alternatives": [a.counts for a in req.alternatives],
        "table_alternatives": [{k: v for k, v in sorted(a.table_counts.items(), key=lambda rn: _role_order(law, rn[0]))}
                               for a in req.alternatives],
        "adjustments": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in req.alternatives if (m, a.id) in d.adjusted],
            "no_effect_on": [a.index for a in req.alternatives if (m, a.id) in d.idle]} for m in adjusted],
        "temporary_reductions_available": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in req.alternatives if (m, a.id) in d.offered]} for m in offered],
        "substitutions": [_rule_json(law, s, lang) | {"alternatives": [a.index for a in req.alternatives if s in a.substitutions]}
                          for s in _unique(s for a in req.alternatives for s in a.substitutions)]
                         + [_rule_json(law, s, lang) for s in req.function_substitutions],
        "functions": functions,
        "function_provisions": provisions,
        "transitional": [{"provision": _cite(law, x.provision), "until": x.until.isoformat() if x.until else None,
                          "relaxes": x.role, "covered": not x.missing, "reason": x.reason} for x in req.transitional],
        "notes": _unique(notes),
    }
    if req.function_table is not None:
        req.answer["function_row"] = frows[0].quoted
    return req


def _unique(items) -> list:
    seen: list = []
    for i in items:
        if i not in seen:
            seen.append(i)
    return seen


def _role_order(law: Law, role: str) -> tuple[int, str]:
    """Roles from the top (Schiffsführer) down, as the tables list them."""
    t = law.terms.get(role)
    return (-(t.order if t else 0), role)


def crew_answer(law: Law, ml: ManningLaw, vessel, as_of: date, persons=None, temporary: bool = False,
                lang: str = "de") -> dict[str, Any]:
    """The minimum-crew answer of design.md, with the roster verdict when persons are given."""
    req = requirement(law, ml, vessel, as_of, temporary, lang)
    answer = dict(req.answer)
    if persons is not None:
        from .rosters import check_roster

        answer["roster"] = check_roster(law, ml, req, persons, lang)
    return answer
