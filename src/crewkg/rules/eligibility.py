"""The Datalog program: generic rules per requirement kind, facts from the kb and the person records.

No certificate, day count or age is written here: thresholds, roles and the pathway structure are facts
loaded from the kb (`law.py`); a changed number in `kb/` changes the answer.

Every evaluation answers as a fresh database would (`datalog.evaluate`), so one call's facts never leak into another; facts
are keyed by person id, so a batch of persons can share one evaluation. Comparisons are always made on bound
variables (docs/architecture.md, engine notes).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from crewkg.law.calendar import birthday, completed_years  # noqa: F401 - re-exported for the roster check
from crewkg.law.statute import Law, Requirement
from crewkg.records.persons import Person
from crewkg.rules.datalog import evaluate, evaluate_apart
from crewkg.rules.kinds import KindRole, have_value, kind, kinds, with_role

THRESHOLD_RULE = """
# RULE threshold — a numeric requirement is met when what the person has reaches the minimum
met(P, R) <= have(P, R, V) & req_min(R, N) & (V >= N)

"""

#: the per-kind clauses live in `crewkg.rules.kinds` (one module per requirement kind); these are the generic ones
GENERIC_RULES = """
# RULE pathway — a Ziffer is satisfied when all of its literae are met. met(P, R) comes first in the count so it is
# resolved once with R free (one table) rather than once per requirement of every pathway (≈ 35 % of a check)
(n_required[W] == len_(R)) <= pathway_requirement(W, R)
(n_met[P, W] == len_(R)) <= met(P, R) & pathway_requirement(W, R)
pathway_satisfied(P, W) <= (n_met[P, W] == N) & (n_required[W] == N)

# RULE eligible — a certificate can be issued when one of its pathways is satisfied
eligible(P, C) <= pathway_satisfied(P, W) & leads_to(W, C)

# RULE by-proof — a certificate no authority issues (crew:heldByProof: the record's own dated proofs are the
# certificate) fills its role on every day one of its pathways is satisfied, under its own regulation and, where the
# kb gives it a last day (crew:validUntil, § 47 Abs. 2 SchBV), under the later ones (proof_under, from the kb)
proof_holds(P, C) <= eligible(P, C) & held_by_proof(C) & under(P, Reg) & proof_under(C, Reg)
can_fill(P, Role) <= proof_holds(P, C) & certifies(C, Role)

# RULE can-fill — roles from certificates held plus the hierarchy (INTERPRETATION, see kb:RoleHierarchy)
above(A, B) <= ranks_above(A, B)
above(A, B) <= ranks_above(A, X) & above(X, B)
can_fill(P, Role) <= holds(P, C) & certifies(C, Role)
reached(P, Role) <= holds(P, C) & certifies(C, Top) & above(Top, Role)

# RULE role-age — a role reached through the hierarchy still needs the age its own certificate asks under the law in
# force on the evaluation date (role_age_in: the least minimum age over the pathways of the role's certificate of that
# regulation, from the kb; under: the person's evaluation date falls in that regulation's time); an unknown birth date
# shows no age. A role whose certificate that regulation does not have keeps the least age over the whole law.
too_young(P, Role) <= under(P, Reg) & role_age_in(Reg, Role, N) & age(P, A) & (A < N)
too_young(P, Role) <= under(P, Reg) & role_age_in(Reg, Role, N) & age_unknown(P)
too_young(P, Role) <= under(P, Reg) & role_age(Role, N) & ~has_role_age(Reg, Role) & age(P, A) & (A < N)
too_young(P, Role) <= under(P, Reg) & role_age(Role, N) & ~has_role_age(Reg, Role) & age_unknown(P)
too_young(P, Role) <= no_regulation(P) & role_age(Role, N) & age(P, A) & (A < N)
too_young(P, Role) <= no_regulation(P) & role_age(Role, N) & age_unknown(P)
has_role_age(Reg, Role) <= role_age_in(Reg, Role, N)
can_fill(P, Role) <= reached(P, Role) & ~too_young(P, Role)
"""

#: the whole answer's query rules
DERIVED_RULES = """
# One query for everything: a single tabled evaluation, so met/have are not resolved again per question
derived(P, 'have', R, V) <= have(P, R, V)
derived(P, 'met', R, 1) <= met(P, R)
derived(P, 'pathway_satisfied', W, 1) <= pathway_satisfied(P, W)
derived(P, 'eligible', C, 1) <= eligible(P, C)
derived(P, 'can_fill', Role, 1) <= can_fill(P, Role)
derived(P, 'reached', Role, 1) <= reached(P, Role)
derived(P, 'too_young', Role, 1) <= too_young(P, Role)
derived(P, 'by_proof', C, 1) <= proof_holds(P, C)
"""


def rules() -> str:
    """The whole program: the measured kinds' clauses, the threshold rule, the other kinds' clauses, then the
    generic rules. The order is pyDatalog's resolution order; this one is the fastest measured."""
    measured = "".join(k.clauses for k in kinds().values() if k.measured)
    proved = "".join(k.clauses for k in kinds().values() if not k.measured)
    return measured + THRESHOLD_RULE + proved + GENERIC_RULES + DERIVED_RULES


def kb_facts(law: Law, pathways: frozenset[str] | None = None) -> list[tuple]:
    """The law as facts; only the named pathways and their requirements when `pathways` is given (the planner
    asks about one pathway at a time, and the program then does a tenth of the work)."""
    return pathway_facts(law, pathways) + law_facts(law)


def pathway_facts(law: Law, pathways: frozenset[str] | None = None) -> list[tuple]:
    """The pathways (all, or the named ones) and their requirements as facts."""
    chosen = [w for w in law.pathways.values() if pathways is None or w.id in pathways]
    wanted = None if pathways is None else set(_requirement_ids(law, [r for w in chosen for r in w.requirements]))
    facts: list[tuple] = []
    for r in law.requirements.values():
        if wanted is not None and r.id not in wanted:
            continue
        facts.append(("req_kind", r.id, r.kind))
        if r.minimum is not None:
            facts.append(("req_min", r.id, r.minimum))
        facts += kind(r.kind).kb_facts(r)
    for w in chosen:
        facts.append(("pathway", w.id))
        facts.append(("leads_to", w.id, w.certificate))
        facts += [("pathway_requirement", w.id, r) for r in w.requirements]
    return facts


def law_facts(law: Law) -> list[tuple]:
    """The facts of the law that name no pathway or requirement: what each certificate certifies, the certificates
    held by proof, the role hierarchy, the sea capacities and the role ages."""
    facts: list[tuple] = []
    for c in law.certificates.values():
        if c.role:
            facts.append(("certifies", c.id, c.role))
        if c.by_proof:
            facts.append(("held_by_proof", c.id))
            facts += [("proof_under", c.id, reg) for reg in proof_regulations(law, c.id)]
    facts += [("ranks_above", a, b) for a, b in law.ranks_above]
    facts += [("capacity_includes", a, b) for a, b in law.capacity_includes]
    facts += role_age_facts(law)
    return facts


def role_age_facts(law: Law) -> list[tuple]:
    """role_age over the whole law, and role_age_in per regulation (the rule role-age reads the one in force)."""
    facts: list[tuple] = [("role_age", role, age.years) for role, age in role_ages(law).items()]
    for reg in law.regulations:
        facts += [("role_age_in", reg, role, age.years) for role, age in role_ages(law, reg).items()]
    return facts


@dataclass(frozen=True)
class RoleAge:
    """The minimum age a role's own certificate asks: the least over its pathways (0 where one names none), with
    the provisions of the age requirements that ask it."""

    years: int
    requirements: tuple[str, ...]


def role_ages(law: Law, regulation: str | None = None) -> dict[str, RoleAge]:
    """Role -> the minimum age its certificate asks (`_role_ages`), remembered per law and regulation: asked for every
    record's event dates and every roster check."""
    return law.remembered_for("_role_ages", regulation, lambda: _role_ages(law, regulation))


def _role_ages(law: Law, regulation: str | None = None) -> dict[str, RoleAge]:
    """Role -> the minimum age its certificate asks, for the roles whose every pathway asks one (INTERPRETATION, recorded
    in kb:RoleHierarchy). A pathway counts with the age of its own MinimumAge requirements; one that names none
    lets the certificate be issued at any age, so the role asks none. Certificates without encoded pathways (a
    heading only, a third-country certificate) ask nothing encoded and are left out. Given a regulation, only its
    certificates count (the provisions an answer on a date cites)."""
    found: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    age = with_role(KindRole.AGE).name
    for c in law.certificates.values():
        if not c.role or not c.pathways or (regulation is not None and c.regulation != regulation):
            continue
        for wid in c.pathways:
            w = law.pathways.get(wid)
            if w is None or w.replacement:  # a replacement's holder met the earlier law's age (crew:ReplacementPathway)
                continue
            ages = [law.requirements[r] for r in w.requirements
                    if r in law.requirements and law.requirements[r].kind == age]
            years = max((r.minimum or 0 for r in ages), default=0)
            found.setdefault(c.role, []).append((years, tuple(r.id for r in ages if (r.minimum or 0) == years)))
    out: dict[str, RoleAge] = {}
    for role, per_pathway in found.items():
        least = min(years for years, _ in per_pathway)
        if least > 0:
            reqs = sorted({r for years, rs in per_pathway if years == least for r in rs},
                          key=lambda r: (law.requirements[r].provision, r))
            out[role] = RoleAge(least, tuple(reqs))
    return out


def _requirement_ids(law: Law, rids):
    for rid in rids:
        yield rid
        yield from _requirement_ids(law, law.requirements[rid].children)


def person_facts(p: Person, law: Law, as_of: date) -> list[tuple]:
    """A person record as facts: the generic ones here (the age, which the role-age rule reads too; the
    certificates held), the rest from each requirement kind."""
    f: list[tuple] = [("person", p.id)]
    reg = law.regulation_on(as_of)
    f.append(("under", p.id, reg.id) if reg is not None else ("no_regulation", p.id))
    if p.birth_date:
        f.append(("age", p.id, completed_years(p.birth_date, as_of)))
    else:
        f.append(("age_unknown", p.id))
    from crewkg.rules.validity import held

    f += [("holds", p.id, c) for c in held(p, as_of, law)]
    for k in kinds().values():
        f += k.person_facts(p, law, as_of)
    return f


@dataclass
class Derived:
    """What the Datalog program derived for a batch of persons."""

    have: dict[tuple[str, str], list]
    met: set[tuple[str, str]]
    satisfied: set[tuple[str, str]]
    eligible: set[tuple[str, str]]
    can_fill: set[tuple[str, str]]
    #: roles below a certificate held (the hierarchy), whether or not the age lets the person fill them
    reached: set[tuple[str, str]] = field(default_factory=set)
    #: (person, role) where the person is younger than the role's certificate asks, or the birth date is unknown
    too_young: set[tuple[str, str]] = field(default_factory=set)
    #: (person, certificate) held by the record's own proofs on the date (crew:heldByProof, a pathway satisfied)
    by_proof: set[tuple[str, str]] = field(default_factory=set)


def proof_regulations(law: Law, cid: str) -> list[str]:
    """The regulations under which a certificate held by proof makes its role: its own, and the later ones where the
    kb gives it a last day (a qualification kept by a transitional provision); none before its own took effect."""
    c = law.certificates[cid]
    own = law.regulations.get(c.regulation or "")
    if own is None:
        return [r.id for r in law.regulations.values()]
    later = [r.id for r in law.regulations.values() if r.in_force_from > own.in_force_from] if c.valid_until else []
    return [own.id, *later]


#: every fact predicate the rules read, with its arity (`datalog.evaluate` declares those that get no fact).
GENERIC_PREDICATES = {
    "req_kind": 2, "req_min": 2, "pathway": 1, "leads_to": 2, "pathway_requirement": 2, "certifies": 2,
    "ranks_above": 2, "person": 1, "holds": 2, "role_age": 2, "age": 2, "age_unknown": 1,
    "role_age_in": 3, "under": 2, "no_regulation": 1, "held_by_proof": 1, "proof_under": 2,
}


def fact_predicates() -> dict[str, int]:
    """The generic fact predicates and those every kind reads."""
    found = dict(GENERIC_PREDICATES)
    for k in kinds().values():
        found.update(k.predicates)
    return found


def derive(persons: list[Person], law: Law, as_of: date, *, extra_facts: list[tuple] | None = None) -> Derived:
    """Run the program once for a batch of persons (answers as a fresh database's: `datalog.evaluate`)."""
    return derive_dated([(p, as_of) for p in persons], law, extra_facts=extra_facts)


def derive_answered(persons: list[Person], law: Law, as_of: date) -> Derived:
    """`derive` over the pathways a check answer on the date reads (`register_pathways`): what it derives for them
    is the whole law's (a requirement's `have` and `met` depend on the requirement alone, a certificate's eligibility
    on its own pathways, the roles on the certificates held and those held by proof), and the pathways of an earlier
    regulation's certificates that no answer on the date lists are left out — a third of a new answer's Datalog run
    (measured: 16 synthetic records, 169 ms against 245 ms). The program and those facts stay loaded for the next
    batch of the law and date."""
    return derive_dated([(p, as_of) for p in persons], law, register_pathways(law, as_of))


def derive_dated(records: list[tuple[Person, date]], law: Law, pathways: frozenset[str] | None = None, *,
                 extra_facts: list[tuple] | None = None) -> Derived:
    """Run the program once for persons each evaluated on their own date (the planner's projected records),
    on every pathway or only on the named ones."""
    own = [fact for p, on in records for fact in person_facts(p, law, on)]
    if not extra_facts:  # the law's facts (or the named pathways') stay loaded for the next call with them
        base = kept_kb_facts(law, pathways)
        rows = evaluate(rules(), fact_predicates(), own, "derived(P, K, X, V)", base=base, base_key=base)
    else:
        rows = evaluate(rules(), fact_predicates(), kb_facts(law, pathways) + (extra_facts or []) + own,
                        "derived(P, K, X, V)")
    return _derived(rows)


def _derived(rows: list[tuple]) -> Derived:
    """The rows of the `derived` query as a Derived."""
    have: dict[tuple[str, str], list] = {}
    sets: dict[str, set[tuple[str, str]]] = {
        k: set() for k in ("met", "pathway_satisfied", "eligible", "can_fill", "reached", "too_young", "by_proof")}
    for pid, what, x, v in rows:
        if what == "have":
            have.setdefault((pid, x), []).append(v)
        else:
            sets[what].add((pid, x))
    return Derived(have=have, met=sets["met"], satisfied=sets["pathway_satisfied"], eligible=sets["eligible"],
                   can_fill=sets["can_fill"], reached=sets["reached"], too_young=sets["too_young"],
                   by_proof=sets["by_proof"])


#: the outcomes a register line reads (answers.register): no `have` rows, which are most of `derived`
OUTCOME_RULES = """
outcome(P, 'pathway_satisfied', W) <= pathway_satisfied(P, W)
outcome(P, 'eligible', C) <= eligible(P, C)
outcome(P, 'can_fill', Role) <= can_fill(P, Role)
"""
#: and the requirements met, which the register's second stage starts from (`derive_from_met`)
MET_OUTCOME_RULE = """outcome(P, 'met', R) <= met(P, R)
"""


def derive_outcomes(person_fact_lists: list[list[tuple]], law: Law, as_of: date | None = None) -> Derived:
    """Run the program once over already built person facts (`person_facts`) and derive only what a register line
    reads: satisfied pathways, eligible certificates, roles that can be filled. Given the evaluation date, only the
    pathways a register line can read are in the program (`register_pathways`). The program and the kb stay loaded
    for the next batch of the same law and date (`datalog.evaluate`'s base)."""
    base = kept_kb_facts(law, None if as_of is None else register_pathways(law, as_of))
    facts = [fact for facts in person_fact_lists for fact in facts]
    rows = evaluate(rules() + OUTCOME_RULES + MET_OUTCOME_RULE, fact_predicates(), facts, "outcome(P, K, X)",
                    base=base, base_key=base)
    return _outcome_sets(rows)


def _outcome_sets(rows: list[tuple]) -> Derived:
    sets: dict[str, set[tuple[str, str]]] = {k: set() for k in ("met", "pathway_satisfied", "eligible", "can_fill")}
    for pid, what, x in rows:
        sets[what].add((pid, x))
    return Derived(have={}, met=sets["met"], satisfied=sets["pathway_satisfied"], eligible=sets["eligible"],
                   can_fill=sets["can_fill"])


def derive_details(persons: list[Person], law: Law, as_of: date, pathways: frozenset[str]) -> Derived:
    """The whole program over the named pathways only, for the requirements a compact derivation graph writes
    (service/compact.py): what each person has toward them and which they meet. Whether a requirement is met, and what
    is had toward it, depends on the requirement alone, so the pathways' results are the whole law's; whether a
    certificate can be issued is not (its other pathways are not asked): a register run says that. About half the
    cost of the whole law (14 pathways of 69: 8.7 ms a person against 16.3, measured on a loaded machine). It runs in
    a thread of its own (`datalog.evaluate_apart`), so that a register's programs stay loaded beside it."""
    from crewkg.rules.datalog import evaluate_apart

    own = [fact for p in persons for fact in person_facts(p, law, as_of)]
    return _derived(evaluate_apart("details", rules(), fact_predicates(), kb_facts(law, pathways) + own,
                                   "derived(P, K, X, V)"))


def stage_two_rules() -> str:
    """The program of a register's second stage: the composite kinds' clauses and the generic rules, over the
    requirements met that the first stage found (asserted as `met` facts; `rules.signature.stage_two_key`)."""
    return "".join(k.clauses for k in kinds().values() if k.parts is not None) + GENERIC_RULES + OUTCOME_RULES


def derive_from_met(person_fact_lists: list[list[tuple]], law: Law, as_of: date) -> Derived:
    """`derive_outcomes` from the requirements met instead of the records' facts: each list holds a person's facts
    that the second stage's rules read and a `met` fact per requirement the person meets that is not composite.
    About half the cost of the whole program (measured: 2.6 ms a person against 4.6 ms). It runs in a thread of its
    own (`datalog.evaluate_apart`), so that the whole program stays loaded beside it."""
    from crewkg.rules.datalog import evaluate_apart

    base = kept_kb_facts(law, register_pathways(law, as_of))
    facts = [fact for facts in person_fact_lists for fact in facts]
    rows = evaluate_apart("stage two", stage_two_rules(), fact_predicates(), facts, "outcome(P, K, X)",
                          base=base, base_key=base)
    return _outcome_sets(rows)


def kept_kb_facts(law: Law, pathways: frozenset[str] | None = None) -> list[tuple]:
    """The kb's facts for the whole law or the named pathways, built once per law and kept on it: the same list
    object is the base key `datalog.evaluate` compares by identity, so the next call with it keeps the kb loaded.
    Kept on the law, not in a module cache, so a law dropped (another kb) takes its facts with it."""
    return law.remembered_for("_kept_kb_facts", pathways, lambda: kb_facts(law, pathways))


def register_pathways(law: Law, as_of: date) -> frozenset[str]:
    """The pathways a register line and a check answer read on a date: those of the certificates of the regulation
    in force (whose eligibility they name) and those of the certificates held by proof (which fill roles, whatever the regulation)."""
    reg = law.regulation_on(as_of)
    return frozenset(w.id for w in law.pathways.values()
                     if law.certificates[w.certificate].by_proof
                     or (reg is not None and law.certificates[w.certificate].regulation == reg.id))


def signature_law(law: Law, as_of: date) -> Law:
    """The law as a register's program on a date compares a person's numbers with it (`rules.signature`): the
    requirements of the pathways a register line reads (`register_pathways`), and every minimum age of the law, which
    the role-age rule reads from the whole law (`role_age_facts`). A minimum no pathway of the program asks cannot tell
    two persons apart (20 000 synthetic persons: 8 421 signatures instead of 9 633). Remembered per law and date."""
    return law.remembered_for("_signature_laws", as_of, lambda: _law_over(law, register_pathways(law, as_of)))


def satisfied_pathways(records: list[tuple[Person, date]], law: Law, pathways: frozenset[str]) -> set[tuple[str, str]]:
    """Which of the named pathways each person satisfies on their own date: (person id, pathway id) pairs. The
    planner's question about its projected records; it asks only for this, so nothing else is derived.

    Records the program over these pathways cannot tell apart (`rules.signature` under `pathways_law`) share one
    outcome: each is evaluated once, and its outcome is remembered per law (`_OUTCOMES`), so that a record alike
    one asked before, in this batch or an earlier one, is not evaluated again. A record's event dates and the
    planner's projected records are mostly alike there (600 synthetic records of the service's benchmark: 6 256
    records asked, 1 985 signatures). The law's facts that name no pathway stay loaded between runs; a process that
    answers batch after batch runs them in a thread of their own (`pathways_apart`)."""
    from crewkg.rules.signature import signature

    program = rules()
    compared = pathways_law(law, pathways)
    memo = _outcomes(law, program)
    found: set[tuple[str, str]] = set()
    asked: dict[str, object] = {}  # id of a record evaluated -> its signature
    first: dict[object, str] = {}  # signature -> the record evaluated for it
    same: dict[str, list[str]] = {}  # that record's id -> the ids of the records that share its outcome
    facts: list[tuple] = []
    for p, on in records:
        own = person_facts(p, law, on)
        sig = signature(p.id, own, compared)
        if sig is not None:
            with _OUTCOMES_LOCK:
                known = memo.get((pathways, sig))
            if known is not None:
                found |= {(p.id, w) for w in known}
                continue
            rep = first.setdefault(sig, p.id)
            if rep != p.id:
                same.setdefault(rep, []).append(p.id)
                continue
            asked[p.id] = sig
        facts += own
    if not facts:
        return found
    general = kept_kb_facts(law, frozenset())  # `law_facts` alone, kept loaded between runs (≈ 0.5 ms a run)
    run = evaluate_apart if _PATHWAYS_APART else _here
    rows = {(pid, w) for pid, w in run("pathways", program, fact_predicates(), pathway_facts(law, pathways) + facts,
                                       "pathway_satisfied(P, W)", base=general, base_key=general)}
    by_id: dict[str, set[str]] = {pid: set() for pid in asked}
    for pid, w in rows:
        by_id.setdefault(pid, set()).add(w)
    with _OUTCOMES_LOCK:
        for pid, sig in asked.items():
            memo[(pathways, sig)] = frozenset(by_id[pid])
    return found | rows | {(rid, w) for pid, w in rows for rid in same.get(pid, ())}


#: whether `satisfied_pathways` runs in a thread of its own (`pathways_apart`)
_PATHWAYS_APART: list[bool] = []


def pathways_apart() -> None:
    """Run the pathway runs of this process in a thread of their own (`datalog.evaluate_apart`) from now on: for a
    process that answers batch after batch (the service's evaluator workers), where each batch's pathway runs took
    the kept kb out of the database and the next batch's check asserted it again (≈ 10 ms a batch). A single command
    keeps them in its own thread: a second thread parses the program once more (≈ 40 ms of a cold `crewkg check`)."""
    _PATHWAYS_APART[:] = [True]


def _here(name: str, *args, **kwargs) -> list[tuple]:
    """`datalog.evaluate` with the signature of `evaluate_apart` (the thread's name unused)."""
    return evaluate(*args, **kwargs)


#: the outcomes `satisfied_pathways` remembers, per law (kept on it) and program: at most this many signatures
OUTCOMES_KEPT = 4096
_OUTCOMES_LOCK = threading.Lock()


def _outcomes(law: Law, program: str):
    """The remembered outcomes of `satisfied_pathways` for the law and the program (a program changed, as a test
    may change it, starts afresh)."""
    from cachetools import LRUCache

    with _OUTCOMES_LOCK:  # one program's at a time
        return law.remembered_for("_satisfied_outcomes", program, lambda: LRUCache(maxsize=OUTCOMES_KEPT), bound=1)


def pathways_law(law: Law, pathways: frozenset[str]) -> Law:
    """The law as a program over the named pathways compares a person's numbers with it (`rules.signature`): those
    pathways, their requirements and every minimum age of the law (as `signature_law`). Remembered per law and set
    of pathways (the sets a batch asks recur: one pathway of a planned step, the certificates issuable; they are few,
    but not bounded by the law: 256 kept at most)."""
    return law.remembered_for("_pathways_laws", pathways, lambda: _law_over(law, pathways), bound=256)


def _law_over(law: Law, pathways: Iterable[str]) -> Law:
    """The named pathways, their requirements and every minimum age of the law (`signature_law`, `pathways_law`)."""
    import dataclasses

    kept = {w: law.pathways[w] for w in pathways}
    wanted = set(_requirement_ids(law, [r for w in kept.values() for r in w.requirements]))
    age = with_role(KindRole.AGE).name
    reqs = {rid: r for rid, r in law.requirements.items() if rid in wanted or r.kind == age}
    return dataclasses.replace(law, requirements=reqs, pathways=kept)


def eligible_among(records: list[tuple[Person, date]], law: Law, certificates: set[str]) -> set[tuple[str, str]]:
    """Which of the named certificates each person can be issued on their own date: (person id, certificate id)
    pairs. Whether a certificate can be issued depends only on its own pathways (no requirement kind reads another
    certificate's eligibility), so the program runs over those pathways alone; a record's spells and
    `eligible_since` ask this on every event date, and a whole program each time was most of an `explain`."""
    chosen = frozenset(w.id for w in law.pathways.values() if w.certificate in certificates)
    if not chosen or not records:
        return set()
    return {(pid, law.pathways[w].certificate) for pid, w in satisfied_pathways(records, law, chosen)}


def derive_roles(persons: list[Person], law: Law, as_of: date, regulation: str | None = None,
                 proven: frozenset[str] = frozenset()) -> Derived:
    """The can_fill rule alone, for answers that need no other pathway (the roster check): the program runs over the
    certificates, the role hierarchy and only the pathways of the certificates the record's own proofs make
    (crew:heldByProof), whatever their regulation, as a whole check and a register line take them (a written proof
    of the SchBesV 2004 keeps its role under § 47 Abs. 2 SchBV); about four times faster than a whole check, with the
    role ages read from the whole law first so that the hierarchy keeps each role's minimum age. Without a regulation
    in force on the date, no proof makes a certificate. `proven` names further certificates that the requirements of
    their pathways prove under that regulation (a vessel's crew:QualificationProof, § 6 Abs. 6 SchBesV)."""
    return derive_roles_dated([(p, as_of) for p in persons], law, regulation, proven)


def derive_roles_dated(records: list[tuple[Person, date]], law: Law, regulation: str | None = None,
                       proven: frozenset[str] = frozenset()) -> Derived:
    """`derive_roles` for persons each evaluated on their own date, all under one regulation (a fleet's members on
    the days their inputs change, `manning.forecast`): one run of the program instead of one per day, and in it each
    signature once (`rules.signature`: records the rules cannot tell apart, most of a member's days, share the
    outcome of one of them)."""
    import dataclasses

    from crewkg.rules.signature import signature

    ages = role_age_facts(law)
    proven = frozenset() if regulation is None else proven
    ages += [fact for c in sorted(proven) for fact in (("held_by_proof", c), ("proof_under", c, regulation))]
    kept = {w.id: w for w in law.pathways.values()
            if regulation is not None and (law.certificates[w.certificate].by_proof or w.certificate in proven)}
    reqs = {rid: law.requirements[rid] for rid in _requirement_ids(law, [r for w in kept.values() for r in w.requirements])}
    small = dataclasses.replace(law, requirements=reqs, pathways=kept)
    age = with_role(KindRole.AGE).name  # the role-age rule compares an age with every minimum age of the law
    compared = dataclasses.replace(small, requirements=reqs | {r: q for r, q in law.requirements.items() if q.kind == age})
    first: dict[object, str] = {}  # signature -> the record evaluated for it
    same: dict[str, str] = {}  # record id -> the record whose outcome it shares
    own: list[tuple] = []
    for p, on in records:
        facts = person_facts(p, small, on)
        sig = signature(p.id, facts, compared)
        if sig is not None and sig in first:
            same[p.id] = first[sig]
            continue
        if sig is not None:
            first[sig] = p.id
        own += facts
    rows = evaluate(rules(), fact_predicates(), kb_facts(small) + ages + own, "derived(P, K, X, V)")
    sets: dict[str, set[tuple[str, str]]] = {
        k: set() for k in ("met", "pathway_satisfied", "eligible", "can_fill", "reached", "too_young", "by_proof")}
    have: dict[tuple[str, str], list] = {}
    for pid, what, x, v in rows:
        if what == "have":
            have.setdefault((pid, x), []).append(v)
        else:
            sets[what].add((pid, x))
    if same:  # the records that share an outcome take it under their own ids
        by_id: dict[str, list[str]] = {}
        for rid, rep in same.items():
            by_id.setdefault(rep, []).append(rid)
        for found in sets.values():
            found |= {(rid, x) for pid, x in list(found) for rid in by_id.get(pid, ())}
        have |= {(rid, r): v for (pid, r), v in list(have.items()) for rid in by_id.get(pid, ())}
    return Derived(have=have, met=sets["met"], satisfied=sets["pathway_satisfied"], eligible=sets["eligible"],
                   can_fill=sets["can_fill"], reached=sets["reached"], too_young=sets["too_young"],
                   by_proof=sets["by_proof"])


def requirement_have(r: Requirement, p: Person, d: Derived, as_of: date):
    """What the person has toward a requirement, for the answer (the kind's value, else the derived one)."""
    return have_value(r, p, d, as_of)
