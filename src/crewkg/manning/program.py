"""The manning program: the Datalog rules that decide which table, row, Stufe, column and alternatives govern a
vessel on a date. Generic over the table data compiled in `crewkg.manning.tables`; names no role, count or date.

Like `rules.eligibility.derive`, every evaluation is a fresh database (`rules.datalog.evaluate`) asked one union
query."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from crewkg.law.statute import Law
from crewkg.manning.tables import ManningLaw, RowPrecedence

# ------------------------------------------------------------------------------------------------------------------
# The Datalog program
# ------------------------------------------------------------------------------------------------------------------
RULES = """
# The regulation in force on the evaluation date is a fact, in_force(Reg), from `Law.regulation_on`: the one answer
# both programs ask (the eligibility program gets it as under(P, Reg)). Dates are day numbers.

# RULE condition — one condition on one vessel attribute
holds(V, K) <= cond_ge(K, A, X) & num(V, A, Y) & (Y >= X)
holds(V, K) <= cond_gt(K, A, X) & num(V, A, Y) & (Y > X)
holds(V, K) <= cond_le(K, A, X) & num(V, A, Y) & (Y <= X)
holds(V, K) <= cond_lt(K, A, X) & num(V, A, Y) & (Y < X)
holds(V, K) <= cond_is(K, A, X) & cat(V, A, X)

# RULE wording — a case or rule worded by an amendment counts only while that wording is in force; one that belongs to
# an other reading of a doubtful provision only while that reading is evaluated (both are 'amended' facts)
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

# RULE stufe — the rows of a governing table that cover the vessel; where a precedence prefers another row that covers
# it too, the row set aside does not apply
row_match(V, R) <= table_applies(V, T) & row_table(R, T) & row_case(R, C) & case_ok(V, C)
row_set_aside(V, R) <= row_match(V, R) & prec_over(P, R) & prec_row(P, W) & row_match(V, W) & ~stale(P)
row_applies(V, R) <= row_match(V, R) & ~row_set_aside(V, R)

# RULE adjustment — reductions and additions of a governing table whose cases hold; a temporary one only on a date
# whose conditions its periods meet (want_temporary: the roster's school attendance, manning.attendance)
adj_fits(V, M) <= table_applies(V, T) & adj_table(M, T) & adj_always(M)
adj_fits(V, M) <= table_applies(V, T) & adj_table(M, T) & adj_case(M, C) & case_ok(V, C)
adj_wanted(V, M) <= adj_fits(V, M) & ~adj_temporary(M)
adj_wanted(V, M) <= adj_fits(V, M) & adj_temporary(M) & want_temporary(V, M)
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
adj_offered(V, M, A) <= adj_fits(V, M) & adj_temporary(M) & ~want_temporary(V, M) & alternative(V, A) & alt_table(A, T) & adj_table(M, T) & alt_cell(A, N, S) & adj_cell(M, N, S)

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
rule_applies(V, F) <= rule_table(F, T) & table_applies(V, T) & rule_always(F) & ~stale(F)
rule_applies(V, F) <= rule_table(F, T) & table_applies(V, T) & rule_case(F, C) & case_ok(V, C) & ~stale(F)

# RULE substitutions — who may take a prescribed place, in the whole table or in the cells a footnote names
sub_applies(V, S) <= sub_table(S, T) & table_applies(V, T) & sub_always(S)
sub_applies(V, S) <= sub_table(S, T) & table_applies(V, T) & sub_case(S, C) & case_ok(V, C)
sub_reaches(V, S, A) <= sub_applies(V, S) & alternative(V, A) & alt_table(A, T) & sub_table(S, T) & sub_all_cells(S)
sub_reaches(V, S, A) <= sub_applies(V, S) & alternative(V, A) & alt_table(A, T) & sub_table(S, T) & alt_cell(A, N, Std) & sub_cell(S, N, Std)

# RULE proof — a qualification proven on the vessels of a case by the requirements of its pathway, while the rule's
# regulation is in force (§ 6 Abs. 6 SchBesV: a Decksmann on other waters by age and medical report)
proof_applies(V, Q) <= proof_regulation(Q, Reg) & in_force(Reg) & proof_case(Q, C) & case_ok(V, C) & vessel(V)

# RULE delegation, transitional — who may perform a function besides a position; rules that end on a date
delegation_applies(V, G) <= delegation_table(G, T) & table_applies(V, T) & ~stale(G)

# RULE reading — an other reading of a doubtful provision reaches the vessel: one of its tables governs it and, where
# it names cases, one of them holds
reading_applies(V, Rd) <= reading_table(Rd, T) & table_applies(V, T) & reading_always(Rd)
reading_applies(V, Rd) <= reading_table(Rd, T) & table_applies(V, T) & reading_case(Rd, C) & case_ok(V, C)
transitional_applies(V, X) <= transitional_table(X, T) & table_applies(V, T) & today(D) & transitional_until(X, U) & (D <= U)

# RULE verdict — whether the vessel is covered, and if not the one reason why, in the order the answer checks them:
# no regulation in force, a gap in the sources, no nautical table, more than one, a table the sources lack, no row,
# several rows, no column for the vessel's equipment standard, not exactly one row of the passenger-safety table
regime(V) <= vessel(V) & in_force(Reg)
uncovered(V, 'no_regulation', '') <= vessel(V) & ~regime(V)
has_gap(V) <= gap_applies(V, G)
uncovered(V, 'gap', G) <= gap_applies(V, G)
nautical(V, T) <= table_applies(V, T) & ~table_functions(T) & ~has_gap(V)
has_nautical(V) <= nautical(V, T)
(n_nautical[V] == len_(T)) <= nautical(V, T)
uncovered(V, 'no_table', '') <= regime(V) & ~has_gap(V) & ~has_nautical(V)
uncovered(V, 'several_tables', T) <= nautical(V, T) & (n_nautical[V] == N) & (N > 1)
the_table(V, T) <= nautical(V, T) & (n_nautical[V] == N) & (N == 1)
uncovered(V, 'missing_table', T) <= the_table(V, T) & table_missing(T)
open_table(V, T) <= the_table(V, T) & ~table_missing(T)
covering_row(V, R) <= open_table(V, T) & row_applies(V, R) & row_table(R, T)
has_row(V) <= covering_row(V, R)
(n_rows[V] == len_(R)) <= covering_row(V, R)
uncovered(V, 'no_row', T) <= open_table(V, T) & ~has_row(V)
uncovered(V, 'several_rows', R) <= covering_row(V, R) & (n_rows[V] == N) & (N > 1)
the_row(V, R) <= covering_row(V, R) & (n_rows[V] == N) & (N == 1)
has_column(V) <= the_row(V, R) & alternative(V, A) & alt_row(A, R)
uncovered(V, 'no_column', R) <= the_row(V, R) & ~has_column(V)
function_table(V, T) <= table_applies(V, T) & table_functions(T)
has_function_table(V) <= function_table(V, T)
(n_function_rows[V] == len_(R)) <= function_row(V, R)
one_function_row(V) <= function_row(V, R) & (n_function_rows[V] == N) & (N == 1)
uncovered(V, 'function_rows', T) <= the_row(V, R) & has_column(V) & function_table(V, T) & ~one_function_row(V)
covered(V) <= the_row(V, R) & has_column(V) & ~has_function_table(V)
covered(V) <= the_row(V, R) & has_column(V) & one_function_row(V)

# RULE function-merge — what the function rules add to the answer's functions object: a flag for a required function,
# the largest count of a counted function (the passenger-safety row's count or a rule's), the engine qualification
function_required(V, Fn, F) <= rule_applies(V, F) & rule_kind(F, 'RequiredFunction') & rule_role(F, Fn)
function_counted(V, Fn, F) <= rule_applies(V, F) & rule_kind(F, 'CountedFunction') & rule_role(F, Fn)
function_source(V, Fn, N) <= function_counted(V, Fn, F) & rule_count(F, N)
function_source(V, Fn, N) <= one_function_row(V) & function_row(V, R) & row_count(R, Fn, N)
(function_max[V, Fn] == max_(N, order_by=N)) <= function_source(V, Fn, N)
function_count(V, Fn, N) <= function_source(V, Fn, X) & (function_max[V, Fn] == N)
engine(V, Role, F) <= rule_applies(V, F) & rule_kind(F, 'EngineQualification') & rule_role(F, Role)

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
derived(V, 'proof', Q, '', 0) <= proof_applies(V, Q)
derived(V, 'transitional', X, '', 0) <= transitional_applies(V, X)
derived(V, 'uncovered', Reason, X, 0) <= uncovered(V, Reason, X)
derived(V, 'covered', '', '', 0) <= covered(V)
derived(V, 'the_table', T, '', 0) <= the_table(V, T)
derived(V, 'the_row', R, '', 0) <= the_row(V, R)
derived(V, 'function_table', T, '', 0) <= function_table(V, T)
derived(V, 'function_required', Fn, F, 0) <= function_required(V, Fn, F)
derived(V, 'function_counted', Fn, F, 0) <= function_counted(V, Fn, F)
derived(V, 'function_count', Fn, '', N) <= function_count(V, Fn, N)
derived(V, 'engine', Role, F, 0) <= engine(V, Role, F)
derived(V, 'reading', Rd, '', 0) <= reading_applies(V, Rd)
derived(V, 'temporary_fits', M, '', 0) <= adj_fits(V, M) & adj_temporary(M)
"""

#: every fact predicate the rules read, with its arity (`datalog.evaluate` declares those that get no fact)
FACT_PREDICATES = {
    "today": 1, "in_force": 1, "vessel": 1, "num": 3, "cat": 3, "want_temporary": 2, "amended": 1,
    "cond_ge": 3, "cond_gt": 3, "cond_le": 3, "cond_lt": 3, "cond_is": 3, "case_condition": 2,
    "introduced_by": 2, "replaced_by": 2, "table_regulation": 2, "table_case": 2, "table_functions": 1,
    "gap_regulation": 2, "gap_case": 2, "row_table": 2, "row_case": 2, "alt": 5, "alt_count": 3, "adj_table": 2, "adj_always": 1, "adj_case": 2, "adj_temporary": 1, "adj_supersedes": 2,
    "adj_base": 2, "adj_all_cells": 1, "adj_cell": 3, "adj_role": 2, "adj_change": 2, "rule_table": 2, "rule_always": 1,
    "rule_case": 2, "sub_table": 2, "sub_always": 1, "sub_case": 2, "sub_all_cells": 1, "sub_cell": 3,
    "delegation_table": 2, "transitional_table": 2, "transitional_until": 2, "table_missing": 1, "rule_kind": 2,
    "rule_role": 2, "rule_count": 2, "row_count": 3, "prec_over": 2, "prec_row": 2, "reading_table": 2,
    "reading_always": 1, "reading_case": 2, "proof_regulation": 2, "proof_case": 2,
}


_FACTS: dict[str, tuple[tuple, ...]] = {}  # compiled-law version -> its facts


def kb_facts(ml: ManningLaw) -> tuple[tuple, ...]:
    """The manning law as Datalog facts (cached per compiled law)."""
    if ml.version not in _FACTS:
        _FACTS[ml.version] = _kb_facts(ml)
    return _FACTS[ml.version]


def _kb_facts(ml: ManningLaw) -> tuple[tuple, ...]:
    f: list[tuple] = []
    for c in ml.cases.values():
        for k in c.conditions:
            f.append(("case_condition", c.id, k.id))
            f.append((f"cond_{k.op}", k.id, k.attribute, k.value))
        if c.introduced_by:
            f.append(("introduced_by", c.id, c.introduced_by))
        if c.replaced_by:
            f.append(("replaced_by", c.id, c.replaced_by))
    for rd in ml.readings.values():
        f += [("reading_table", rd.id, t) for t in rd.tables]
        f += [("reading_case", rd.id, c) for c in rd.cases] if rd.cases else [("reading_always", rd.id)]
    for t in ml.tables.values():
        f.append(("table_regulation", t.id, t.regulation))
        f += [("table_case", t.id, c) for c in t.cases]
        if t.kind == "functions":
            f.append(("table_functions", t.id))
        if t.missing:
            f.append(("table_missing", t.id))
    for r in ml.rows.values():
        f.append(("row_table", r.id, r.table))
        f += [("row_case", r.id, c) for c in r.cases]
        f += [("row_count", r.id, fn, n) for fn, n in r.counts]
    for a in ml.alternatives.values():
        row = ml.rows[a.row]
        f.append(("alt", a.id, a.row, row.table, a.standard, row.stufe or 0))
        f += [("alt_count", a.id, role, n) for role, n in a.counts]
    for r in ml.rules.values():
        if r.introduced_by:
            f.append(("introduced_by", r.id, r.introduced_by))
        if r.replaced_by:
            f.append(("replaced_by", r.id, r.replaced_by))
        if isinstance(r, RowPrecedence):
            f += [("prec_row", r.id, r.preferred), ("prec_over", r.id, r.over)]
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
            f += [("rule_kind", r.id, r.function_kind), ("rule_count", r.id, r.count)]
            f += [("rule_role", r.id, r.role)] if r.role else []
        elif r.kind == "FunctionDelegation":
            f += [("delegation_table", r.id, t) for t in r.tables]
        elif r.kind == "QualificationProof":
            f.append(("proof_regulation", r.id, r.regulation))
            f += [("proof_case", r.id, c) for c in r.cases]
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
    proofs: set[str] = field(default_factory=set)
    transitional: set[str] = field(default_factory=set)
    #: not covered: reason id -> what it names (a gap, tables, rows; '' where nothing), one reason per vessel
    uncovered: dict[str, list[str]] = field(default_factory=dict)
    covered: bool = False
    table: str | None = None  # the one nautical table that governs the vessel
    row: str | None = None  # its one row that covers the vessel
    function_tables: set[str] = field(default_factory=set)  # passenger-safety tables that govern the vessel
    function_required: set[tuple[str, str]] = field(default_factory=set)  # (function, rule)
    function_counted: set[tuple[str, str]] = field(default_factory=set)  # (function, rule)
    function_counts: dict[str, int] = field(default_factory=dict)  # function -> the largest count that applies
    engines: set[tuple[str, str]] = field(default_factory=set)  # (role, rule)
    readings: set[str] = field(default_factory=set)  # other readings of doubtful provisions that reach the vessel
    temporary_fits: set[str] = field(default_factory=set)  # temporary reductions of a table that governs the vessel

    def key(self) -> tuple:
        """Everything an answer depends on, to compare two scenarios of an uncertain amendment date or two readings."""
        return (tuple(sorted(self.in_force)), tuple(sorted(self.tables)), tuple(sorted(self.gaps)), tuple(sorted(self.rows)),
                tuple(sorted(self.columns.items())), tuple(sorted((a, tuple(sorted(c.items()))) for a, c in self.required.items())),
                tuple(sorted(self.function_rows)), tuple(sorted(self.rules)), tuple(sorted(self.delegations)))


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


def scenarios(ml: ManningLaw, as_of: date) -> list[tuple[frozenset[str], str | None]]:
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
    "delegation": ("delegations", "add1"), "proof": ("proofs", "add1"), "transitional": ("transitional", "add1"), "adjusted": ("adjusted", "add2"),
    "idle": ("idle", "add2"), "offered": ("offered", "add2"), "substitution": ("substitutions", "add2"),
    "function_required": ("function_required", "add2"), "function_counted": ("function_counted", "add2"),
    "engine": ("engines", "add2"), "function_table": ("function_tables", "add1"), "reading": ("readings", "add1"),
    "temporary_fits": ("temporary_fits", "add1"),
}


def derive(ml: ManningLaw, law: Law, vessels: list, as_of: date, reductions=(),
           amended: frozenset[str] = frozenset()) -> dict[str, Derived]:
    """Run the program once for a batch of vessels on one date and amendment scenario (answers as a fresh database's:
    `datalog.evaluate`). `reductions`: the temporary reductions whose dated conditions hold on the date (the roster's
    school attendance, `manning.attendance`); none where falsy."""
    from crewkg.rules.datalog import evaluate  # pyDatalog is imported only when a vessel is evaluated

    facts = list(kb_facts(ml))
    reg = law.regulation_on(as_of)  # the one answer to 'which regulation governs on the date'
    if reg is not None:
        facts.append(("in_force", reg.id))
    for v in vessels:
        facts += vessel_facts(v, ml)
        facts += [("want_temporary", v.id, m) for m in sorted(reductions or ())]
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
        elif kind == "uncovered":
            d.uncovered.setdefault(x, []).append(y)
        elif kind == "covered":
            d.covered = True
        elif kind == "the_table":
            d.table = x
        elif kind == "the_row":
            d.row = x
        elif kind == "function_count":
            d.function_counts[x] = int(n)
        else:
            name, how = _KINDS[kind]
            getattr(d, name).add(x if how == "add1" else (x, y))
    return out
