"""What each crew member of a roster can do on the date, for the roster check: the roles they can fill (the
eligibility program's can_fill with the role hierarchy), the deck roles and safety functions they hold, and what they
lack where they come near a role or a substitution (the near misses the verdict names)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.manning.tables import Substitution
from crewkg.records.persons import Person
from crewkg.rules.eligibility import completed_years
from crewkg.rules.kinds import KindRole, kind


@dataclass
class People:
    """What each person can do, from the eligibility program (can_fill) and the record."""

    persons: dict[str, Person]
    certified: dict[str, set[str]]  # roles from certificates and the hierarchy (eligibility can_fill)
    fills: dict[str, set[str]]  # certified plus deck roles held as functions and the roles below them
    top: dict[str, set[str]]  # roles named by certificates or held as deck-role functions
    functions: dict[str, set[str]]  # safety functions and certificate roles held
    below: dict[str, set[str]]  # role -> roles under it in the hierarchy
    #: roles named by held certificates whose validity the kb does not end (not a legacy qualification), each with
    #: the issue dates the record gives its certificates (None: not given)
    current: dict[str, dict[str, set[date | None]]] = field(default_factory=dict)
    #: role -> the certificate the record's own dated proofs make on the date (crew:heldByProof), per person
    proven: dict[str, dict[str, str]] = field(default_factory=dict)
    #: deck roles the record states as functions and no held certificate names (via: function, not certificate)
    stated: dict[str, set[str]] = field(default_factory=dict)
    #: person -> role -> (the provision of the vessel's proof, what the record lacks of the certificate's pathway that
    #: lacks least) for the certificates the vessel's waters let a person prove and the record does not
    proof_lacks: dict[str, dict[str, tuple[str, list[tuple[str, dict[str, Any]]]]]] = field(default_factory=dict)
    #: functions a person holds only through a certificate of another regulation than the one in force (kept by a
    #: transitional rule), held or derived from the record's dated proofs: a function rule accepts another function
    #: (crew:acceptsFunction) as its regulation defines it, which such a certificate need not rest on
    earlier: dict[str, set[str]] = field(default_factory=dict)
    #: person -> role -> (the provision of the role's minimum age, the age lacked) for the roles below a role held
    #: that the person is too young for (rule role-age): said as a near miss, not left unexplained
    too_young: dict[str, dict[str, tuple[str, list[tuple[str, dict[str, Any]]]]]] = field(default_factory=dict)


def people_of(law: Law, persons: list[Person], as_of: date, proven_functions: dict[str, str] | None = None,
              proofs: dict[str, str] | None = None) -> People:
    """Run the eligibility program for its can_fill rule. The roster check needs no pathway, so the program runs
    over the certificates and the role hierarchy alone: the same can_fill (with each role's minimum age), about
    four times faster; and over the pathways of the certificates the record's own proofs make, and of those the
    vessel's waters let a person prove by their requirements (`proofs`: certificate -> provision,
    crew:QualificationProof), with what each other person lacks of them (for the near misses)."""
    return people_dated(law, [(p, as_of) for p in persons], proven_functions, proofs)


def people_dated(law: Law, records: list[tuple[Person, date]], proven_functions: dict[str, str] | None = None,
                 proofs: dict[str, str] | None = None) -> People:
    """`people_of` for persons each on their own date, all under the regulation in force on the first one (the
    members of a fleet on the days their inputs change, `manning.forecast`): one run of the program, each record
    under its own id (a record per day needs an id per day)."""
    from crewkg.rules.eligibility import derive_roles_dated, role_ages

    reg = law.regulation_on(records[0][1]) if records else None
    d = derive_roles_dated(records, law, reg.id if reg else None, frozenset(proofs or {}))
    out = People({p.id: p for p, _ in records}, {}, {}, {}, {}, {r: set(law.below(r)) for pair in law.ranks_above for r in pair})
    ages = role_ages(law) | (role_ages(law, reg.id) if reg else {})  # the ages the rule role-age reads
    can_fill: dict[str, set[str]] = {}
    for pid, role in d.can_fill:
        can_fill.setdefault(pid, set()).add(role)
    for p, as_of in records:
        _person(law, out, p, as_of, d, can_fill.get(p.id, set()), ages, reg, proven_functions, proofs)
    return out


def _person(law: Law, out: People, p: Person, as_of: date, d, certified: set[str], ages: dict, reg,
            proven_functions: dict[str, str] | None, proofs: dict[str, str] | None) -> None:
    """What one person can do on the date, from the program's derivation `d` and the record."""
    from crewkg.rules.validity import held, passed

    below, deck = out.below, set(law.ids_of("DeckCrewRole"))
    counting = held(p, as_of, law)
    top = {law.certificates[c].role for c in counting if c in law.certificates and law.certificates[c].role}
    out.stated[p.id] = {f for f in p.functions if f in deck} - top
    top |= out.stated[p.id]
    fills = set(certified) | top | {r for t in top for r in below.get(t, set()) if (p.id, r) not in d.too_young}
    for r in {r for t in top for r in below.get(t, set())} - fills:
        if r in ages and (lack := _age_lack(p, ages[r].years, as_of)) is not None:
            provision = law.requirements[ages[r].requirements[0]].provision if ages[r].requirements else ""
            out.too_young.setdefault(p.id, {})[r] = (provision, [lack])
    out.certified[p.id] = certified
    out.top[p.id] = top
    out.fills[p.id] = fills
    # a function the record proves by an exam or training passed by the day (crew:provesFunction)
    by_exam = {f for e, f in (proven_functions or {}).items() if e in passed(p, as_of)}
    # a function the record states is a qualification held: not below the minimum age its own certificate asks
    # (§ 29 SchBV: „bei Vorliegen eines Mindestalters … gegeben“), as a role below a certificate held is not
    stated = set(p.functions)
    for f in sorted(stated - top):
        if f in ages and f not in certified and (lack := _age_lack(p, ages[f].years, as_of)) is not None:
            stated.discard(f)
            provision = law.requirements[ages[f].requirements[0]].provision if ages[f].requirements else ""
            out.too_young.setdefault(p.id, {})[f] = (provision, [lack])
    out.functions[p.id] = stated | by_exam | certified | top
    out.current[p.id] = {}
    for c in counting:
        if c in law.certificates and law.certificates[c].role and law.certificates[c].valid_until is None:
            out.current[p.id].setdefault(law.certificates[c].role, set()).add(p.certificate_issued.get(c))
    made = {c for pid, c in d.by_proof if pid == p.id}
    out.proven[p.id] = {law.certificates[c].role or "": c for c in sorted(made)}
    if reg is not None:  # held, or derived from the record's dated proofs (a proof of the earlier law keeps its term)
        roles = [(law.certificates[c].role, law.certificates[c].regulation in (None, reg.id))
                 for c in set(counting) | made if c in law.certificates and law.certificates[c].role]
        out.earlier[p.id] = ({r for r, own in roles if not own} - {r for r, own in roles if own} - set(p.functions)
                             - by_exam)
    for c, provision in sorted((proofs or {}).items()) if reg else ():
        role = law.certificates[c].role or ""
        if role and role not in out.proven[p.id] and role not in fills:
            lacks = min(([r for r in law.pathways[w].requirements if (p.id, r) not in d.met]
                         for w in law.certificates[c].pathways), key=len, default=[])
            out.proof_lacks.setdefault(p.id, {})[role] = (provision, [_lack(law, r, p, as_of) for r in lacks])


#: the fields of People that hold one entry per person
_PER_PERSON = ("certified", "fills", "top", "functions", "current", "proven", "stated", "proof_lacks", "earlier", "too_young")


def joined(parts: list[tuple[People, str, Person]], law: Law) -> People:
    """A roster's People from each member's own entry: (the People it was derived in, its id there, the record under
    the id it has on the roster). The fleet forecast derives each member on the days its inputs change, in batches,
    and checks a roster on a day from the members' entries in force then."""
    out = People({}, {}, {}, {}, {}, parts[0][0].below if parts else {r: set(law.below(r)) for pair in law.ranks_above for r in pair})
    for src, rid, p in parts:
        out.persons[p.id] = p
        for name in _PER_PERSON:
            value = getattr(src, name).get(rid)
            if value is not None:
                getattr(out, name)[p.id] = value
    return out


def _lack(law: Law, rid: str, p: Person, as_of: date) -> tuple[str, dict[str, Any]]:
    """One requirement of a pathway the record does not meet, as a near miss says it (the age with its day)."""
    r = law.requirements[rid]
    if kind(r.kind).role is KindRole.AGE and r.minimum is not None:
        return _age_lack(p, int(r.minimum), as_of) or ("lacks_requirement", {"item": rid})
    return "lacks_requirement", {"item": rid}


def _age_lack(p: Person, n: int, as_of: date) -> tuple[str, dict[str, Any]] | None:
    """A person younger than `n` years on the day (with the day the age is reached), or of unknown age; else None."""
    if p.birth_date is None:
        return "lacks_age_unknown", {"n": n}
    age = completed_years(p.birth_date, as_of)
    if age >= n:
        return None
    from crewkg.rules.eligibility import birthday

    return "lacks_age", {"have": age, "n": n, "on": birthday(p.birth_date, n).isoformat()}


def function_via(people: People, pid: str, role: str) -> str:
    """How a person holds a function: stated in the record (`function`), derived from the record's dated proofs
    (`record`), or through a certificate held (`certificate`)."""
    if role in people.persons[pid].functions:
        return "function"
    return "record" if role in people.proven.get(pid, {}) else "certificate"


def substitute_lacks(s: Substitution, p: Person, as_of: date) -> list[tuple[str, dict[str, Any]]]:
    """What a would-be substitute lacks, as (template, values); empty when the substitution's conditions hold."""
    lacks: list[tuple[str, dict[str, Any]]] = []
    if s.min_age is not None and (age := _age_lack(p, s.min_age, as_of)) is not None:
        lacks.append(age)
    if s.min_apprenticeship_year is not None and p.apprenticeship_year and not p.apprenticeship_contract:
        # 'sich mindestens im dritten Lehrjahr befinden': a year of an apprenticeship the record has no contract for
        lacks.append(("lacks_contract", {"have": p.apprenticeship_year, "n": s.min_apprenticeship_year}))
    elif s.min_apprenticeship_year is not None and (p.apprenticeship_year or 0) < s.min_apprenticeship_year:
        lacks.append(("lacks_year", {"have": p.apprenticeship_year, "n": s.min_apprenticeship_year}) if p.apprenticeship_year
                     else ("lacks_year_unknown", {"n": s.min_apprenticeship_year}))
    if s.min_fahrzeit_days is not None:
        # in any role: a service log's days credited once under the cap (a day in two roles is one Fahrtag), totals summed
        days = p.any_role_days if p.any_role_days is not None else sum(p.sailing_days.values())
        if days < s.min_fahrzeit_days:
            lacks.append(("lacks_days", {"have": days, "n": s.min_fahrzeit_days}))
    return lacks
