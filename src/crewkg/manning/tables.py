"""The manning tables (Mindestbesatzung) as plain Python data: the records `compile.load_manning` reads from the kb
(tables, rows, alternatives, cases, the rules beside the tables, amendments, readings, vessel attributes) and the
ontology terms they are read by.

The law is data. Every table row, count, threshold, reduction, substitution and date comes from `kb/` (SchBV 2022
§§ 40–47, SchBesV 2004 §§ 3–19) and `ontology/manning.ttl`; the program (`program.py`) is generic over that data and
names no role, count or date. Where the sources lack a table (§ 41 Abs. 2 SchBV, the 2022 table of § 42 Abs. 1,
SchBesV 2004 § 12), where no row or two rows cover a vessel, where a gap in the sources governs it (§ 44 SchBV) or
where the date lies before the encoded law, the answer is `covered: false` with the reason and the provisions under
which the authority decides — never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rdflib import Namespace
from rdflib.namespace import DefinedNamespace
from rdflib.term import URIRef

from crewkg.law.namespaces import CREW_IRI
from crewkg.law.statute import Notes


class MANNING(DefinedNamespace):
    """The minimum-crew terms of ontology/manning.ttl used from Python (closed: a typo fails at import)."""

    _NS = Namespace(CREW_IRI)
    _fail = True

    Vessel: URIRef
    Roster: URIRef
    Fleet: URIRef
    fleetId: URIRef
    operates: URIRef
    crewedBy: URIRef
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
    maximumPeriodMonths: URIRef
    minimumIntervalMonths: URIRef
    onePeriodPerCalendarYear: URIRef
    notForSubstituteOf: URIRef
    SchoolAttendance: URIRef
    hasSchoolAttendance: URIRef
    attendingMember: URIRef
    attendsFrom: URIRef
    attendsUntil: URIRef
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
    #: a temporary one's limits on its periods (crew:maximumPeriodMonths, crew:minimumIntervalMonths,
    #: crew:onePeriodPerCalendarYear) and the substitutes whose place it never removes (crew:notForSubstituteOf)
    max_months: int | None = None
    interval_months: int | None = None
    once_a_year: bool = False
    not_for: tuple[str, ...] = ()


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
