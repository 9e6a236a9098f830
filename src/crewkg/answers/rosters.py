"""The roster check: can the people on a roster fill one alternative of the minimum crew, with its functions?

Every prescribed position and every passenger-safety function is a slot. A person fills a position through a
certificate for that role, through the role hierarchy (a higher certificate fills a lower position — an
INTERPRETATION recorded in kb:RoleHierarchy; the eligibility program's can_fill derives it), or through a substitution
of the kb whose conditions the person meets (age computed with eligibility.completed_years, apprenticeship year,
Fahrzeit). Which person fills which slot is a bipartite assignment solved as a min-cost maximum flow with networkx:
the flow fills as many slots as possible, prefers the higher positions when not all can be filled, and uses a
substitution only where no holder of the role is left.

Two kinds of slot take a person wholly: the prescribed Schiffsführer where the text excludes him from the functions
(or from counting for a qualification), and a function the text does not let the deck crew perform besides a
position. Those few slots are tried holder by holder; each try is one flow for the positions and one for the
functions. The answer names the assignment, or exactly which positions, functions and qualifications stay open and
what kind of person would fill each.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from crewkg.law.manning import FunctionRule, ManningLaw, Substitution, TransitionalRule
from crewkg.law.statute import Law
from crewkg.messages.sections import section
from crewkg.records.persons import Person
from crewkg.rules.eligibility import completed_years
from crewkg.rules.kinds import KindRole, kind
from crewkg.rules.manning import AlternativeNeed, Requirement

#: cost of an assignment edge: an exact certificate is free, each step down the hierarchy costs a little, a
#: substitution costs more, so the assignment uses a substitution only where it is needed
COST_HIERARCHY, COST_SUBSTITUTION = 1, 10
#: weight of filling a slot, times the rank of its role, so that unfilled slots are the lowest ones
SLOT_WEIGHT = 1000



def _words(lang: str) -> dict[str, str]:
    """The roster check's wording in one language (the `crew.roster.` section of the message catalogue)."""
    return section("crew.roster.", lang)


@dataclass
class Slot:
    id: str
    kind: str  # position | function
    role: str
    provision: str
    rank: int
    substitutions: list[Substitution] = field(default_factory=list)
    anchored: bool = False  # a position whose holder the text excludes from functions or qualifications
    whole: bool = False  # a function that cannot be held besides a position


@dataclass(frozen=True)
class Option:
    person: str
    via: str  # certificate | hierarchy | function | a substitution id
    cost: int


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


def _people(law: Law, persons: list[Person], as_of: date, proven_functions: dict[str, str] | None = None,
            proofs: dict[str, str] | None = None) -> People:
    """Run the eligibility program for its can_fill rule. The roster check needs no pathway, so the program runs
    over the certificates and the role hierarchy alone: the same can_fill (with each role's minimum age), about
    four times faster; and over the pathways of the certificates the record's own proofs make, and of those the
    vessel's waters let a person prove by their requirements (`proofs`: certificate -> provision,
    crew:QualificationProof), with what each other person lacks of them (for the near misses)."""
    from crewkg.answers.eligibility import regulation_in_force
    from crewkg.rules.eligibility import derive_roles, role_ages
    from crewkg.rules.validity import held, passed

    reg = regulation_in_force(law, as_of)
    d = derive_roles(persons, law, as_of, reg.id if reg else None, frozenset(proofs or {}))
    below = {r: set(law.below(r)) for pair in law.ranks_above for r in pair}
    deck = set(law.ids_of("DeckCrewRole"))
    out = People({p.id: p for p in persons}, {}, {}, {}, {}, below)
    ages = role_ages(law) | (role_ages(law, reg.id) if reg else {})  # the ages the rule role-age reads
    for p in persons:
        certified = {role for pid, role in d.can_fill if pid == p.id}
        top = {law.certificates[c].role for c in held(p, as_of, law) if c in law.certificates and law.certificates[c].role}
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
        for c in held(p, as_of, law):
            if c in law.certificates and law.certificates[c].role and law.certificates[c].valid_until is None:
                out.current[p.id].setdefault(law.certificates[c].role, set()).add(p.certificate_issued.get(c))
        out.proven[p.id] = {law.certificates[c].role or "": c for pid, c in sorted(d.by_proof) if pid == p.id}
        if reg is not None:  # held, or derived from the record's dated proofs (a proof of the earlier law keeps its term)
            made = {c for pid, c in d.by_proof if pid == p.id}
            roles = [(law.certificates[c].role, law.certificates[c].regulation in (None, reg.id))
                     for c in set(held(p, as_of, law)) | made if c in law.certificates and law.certificates[c].role]
            out.earlier[p.id] = ({r for r, own in roles if not own} - {r for r, own in roles if own} - set(p.functions)
                                 - by_exam)
        for c, provision in sorted((proofs or {}).items()) if reg else ():
            role = law.certificates[c].role or ""
            if role and role not in out.proven[p.id] and role not in fills:
                lacks = min(([r for r in law.pathways[w].requirements if (p.id, r) not in d.met]
                             for w in law.certificates[c].pathways), key=len, default=[])
                out.proof_lacks.setdefault(p.id, {})[role] = (provision, [_lack(law, r, p, as_of) for r in lacks])
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


def _lack_text(law: Law, key: str, values: dict[str, Any], lang: str) -> str:
    if key == "lacks_requirement":
        values = {"item": law.label(values["item"], lang)}
    elif key == "lacks_entry":
        values = values | {"certificate": law.certificate_short(values["certificate"], lang)}
    return _words(lang)[key].format(**values)


def _function_via(people: People, pid: str, role: str) -> str:
    """How a person holds a function: stated in the record (`function`), derived from the record's dated proofs
    (`record`), or through a certificate held (`certificate`)."""
    if role in people.persons[pid].functions:
        return "function"
    return "record" if role in people.proven.get(pid, {}) else "certificate"


def _conditions(s: Substitution, p: Person, as_of: date) -> list[tuple[str, dict[str, Any]]]:
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


def _position_options(slot: Slot, people: People, as_of: date, near: dict[str, list]) -> list[Option]:
    """Who can take a position: the role itself, a higher role (unless a substitution governs that step), or a
    substitute who meets the substitution's conditions."""
    out: list[Option] = []
    governed = {s.by for s in slot.substitutions}
    for pid, p in people.persons.items():
        best: Option | None = None
        if slot.role in people.top[pid]:
            best = Option(pid, "function" if slot.role in people.stated.get(pid, set()) else "certificate", 0)
        elif slot.role in people.proven.get(pid, {}):  # the record's own proofs make the role's certificate
            best = Option(pid, "record", 0)
        elif slot.role in people.fills[pid]:
            steps = [t for t in people.top[pid] if slot.role in people.below.get(t, set()) and t not in governed]
            if steps or (slot.role in people.certified[pid] and not (people.top[pid] & governed)):
                best = Option(pid, "hierarchy", COST_HIERARCHY)
        if best is None:
            for s in slot.substitutions:
                if s.by not in people.fills[pid]:
                    continue
                lacks = _conditions(s, p, as_of)
                if lacks:
                    near.setdefault(slot.id, []).append((pid, s.by, s.provision, lacks))
                    continue
                best = Option(pid, s.id, COST_SUBSTITUTION)
                break
        if best is None and slot.role in people.proof_lacks.get(pid, {}):  # the waters' proof, not yet met
            provision, lacks = people.proof_lacks[pid][slot.role]
            near.setdefault(slot.id, []).append((pid, slot.role, provision, lacks))
        elif best is None and slot.role in people.too_young.get(pid, {}):  # a higher role held, too young for this one
            provision, lacks = people.too_young[pid][slot.role]
            near.setdefault(slot.id, []).append((pid, slot.role, provision, lacks))
        if best is not None:
            out.append(best)
    return out


def _function_options(slot: Slot, people: People, subs: list[Substitution], near: dict | None = None) -> list[Option]:
    out = []
    for pid in people.persons:
        if slot.role in people.functions[pid]:
            out.append(Option(pid, _function_via(people, pid, slot.role), 0))
            continue
        if near is not None and slot.role in people.too_young.get(pid, {}):  # stated, but below the function's age
            provision, lacks = people.too_young[pid][slot.role]
            near.setdefault(slot.id, []).append((pid, slot.role, provision, lacks))
        for s in subs:
            if s.role == slot.role and s.by in people.functions[pid]:
                out.append(Option(pid, s.id, COST_SUBSTITUTION))
                break
    return out


def _assign(slots: list[Slot], options: dict[str, list[Option]], allowed: set[str]) -> dict[str, Option]:
    """Min-cost maximum flow from the allowed persons to the slots (networkx); one slot per person."""
    import networkx as nx

    if not slots:
        return {}
    g = nx.DiGraph()
    g.add_node("source")
    g.add_node("sink")
    for slot in slots:
        g.add_edge(("slot", slot.id), "sink", capacity=1, weight=-SLOT_WEIGHT * slot.rank)
        for o in options.get(slot.id, []):
            if o.person in allowed:
                g.add_edge("source", ("person", o.person), capacity=1, weight=0)
                g.add_edge(("person", o.person), ("slot", slot.id), capacity=1, weight=o.cost)
    flow = nx.max_flow_min_cost(g, "source", "sink")
    by_slot: dict[str, Option] = {}
    for slot in slots:
        for o in options.get(slot.id, []):
            if o.person in allowed and flow.get(("person", o.person), {}).get(("slot", slot.id), 0) > 0:
                by_slot[slot.id] = o
    return by_slot


@dataclass
class Attempt:
    alternative: AlternativeNeed
    positions: dict[str, Option]
    functions: dict[str, Option]
    qualifications: list[dict[str, Any]]
    slots: list[Slot]

    def open_slots(self) -> list[Slot]:
        return [s for s in self.slots if s.id not in self.positions and s.id not in self.functions]

    def substitutions(self) -> int:
        return sum(1 for o in [*self.positions.values(), *self.functions.values()] if o.cost >= COST_SUBSTITUTION)

    def score(self) -> tuple:
        """Positions first: an open position weighs more than an open function, which weighs more than a missing
        qualification; then as few substitutions and hierarchy steps as possible."""
        quals = sum(1 for q in self.qualifications if q["met"])
        subs = self.substitutions()
        cost = sum(o.cost for o in [*self.positions.values(), *self.functions.values()])
        return (len(self.positions), len(self.functions), quals, -subs, -cost)

    def complete(self) -> bool:
        return not self.open_slots() and all(q["met"] for q in self.qualifications)


def _slots(law: Law, req: Requirement, alt: AlternativeNeed) -> list[Slot]:
    """The position slots of one alternative and the function slots of the passenger-safety row."""
    table_cite = law.citation(req.table.provision) if req.table else ""
    slots: list[Slot] = []
    for role, n in alt.counts.items():
        base = alt.table_counts.get(role, 0)
        added = next((a for a in alt.adjustments if a.role == role and a.change > 0), None)
        order = law.terms[role].order if role in law.terms else 0
        subs = [s for s in alt.substitutions if s.role == role]
        for i in range(n):
            prescribed = i < base
            mine = [s for s in subs if prescribed and (s.max_per_alternative is None or i < s.max_per_alternative)]
            provision = table_cite if prescribed or added is None else law.citation(added.provision)
            slots.append(Slot(f"{role}#{i + 1}", "position", role, provision, order, mine))
    for need in req.functions:
        for i in range(need.count):
            slots.append(Slot(f"{need.function}#{i + 1}", "function", need.function, need.provision, 0))
    return slots


def _combinable(req: Requirement, alt: AlternativeNeed, function: str) -> tuple[bool, set[str]]:
    """Whether a function may be held besides a position, and the prescribed roles whose holder may not hold it."""
    size = sum(alt.counts.values())
    delegations = [g for g in req.delegations if function in g.functions]
    if any(g.when_crew_size == size for g in delegations):
        return True, set()
    general = [g for g in delegations if g.when_crew_size is None]
    if not general:
        return False, set()
    return True, {g.except_role for g in general if g.except_role}


def _qualifications(law: Law, rules: list[FunctionRule], people: People, anchor: dict[str, str | None]) -> list[dict[str, Any]]:
    """The function rules (engine, first aid, LNG): how many crew members hold the qualification, who counts."""
    out = []
    for r in rules:
        excluded = {anchor.get(r.except_role)} if r.except_role else set()
        holders = []
        for pid in people.persons:
            if pid in excluded:
                continue
            held = r.role in people.functions[pid] or any(f in people.functions[pid] - people.earlier.get(pid, set())
                                                           for f in r.accepts_functions)
            if not held and r.accepts_at_least:  # a certificate of the current law, not a legacy qualification
                held = r.accepts_at_least in people.certified[pid] and any(
                    (t == r.accepts_at_least or r.accepts_at_least in people.below.get(t, set()))
                    and any(_issued_after(d, r.accepts_issued_after) for d in issued)
                    for t, issued in people.current[pid].items())
            if held:
                holders.append(pid)
        met = len(holders) >= r.count
        entry: dict[str, Any] = {"function": r.role, "needed": r.count, "have": holders, "provision": law.citation(r.provision),
                                 "met": met, "rule": r.id}
        if r.required_of_role:
            who = anchor.get(r.required_of_role)
            entry["required_of"] = r.required_of_role
            entry["met"] = met and who is not None and who in holders
        out.append(entry)
    return out


def _issued_after(issued: date | None, after: date | None) -> bool:
    """Whether a certificate counts for a rule that asks for one issued after a day: yes without such a day, and
    yes where the record does not date the certificate (the kb's reading, crew:acceptsQualificationIssuedAfter)."""
    return after is None or issued is None or issued > after


def _attempts(law: Law, req: Requirement, alt: AlternativeNeed, people: People, as_of: date,
              near: dict[str, list]) -> Attempt:
    slots = _slots(law, req, alt)
    anchor_roles = {g.except_role for g in req.delegations if g.except_role} | {r.except_role for r in req.rules if r.except_role}
    anchor_roles |= {r.required_of_role for r in req.rules if r.required_of_role}
    options: dict[str, list[Option]] = {}
    combinable: dict[str, tuple[bool, set[str]]] = {}
    for s in slots:
        if s.kind == "position":
            options[s.id] = _position_options(s, people, as_of, near)
            s.anchored = s.role in anchor_roles
        else:
            options[s.id] = _function_options(s, people, req.function_substitutions, near)
            combinable[s.role] = _combinable(req, alt, s.role)
            s.whole = not combinable[s.role][0]
    anchors = [s for s in slots if s.kind == "position" and s.anchored]
    wholes = [s for s in slots if s.kind == "function" and s.whole]
    positions = [s for s in slots if s.kind == "position" and not s.anchored]
    functions = [s for s in slots if s.kind == "function" and not s.whole]
    lng_like = {r.required_of_role: r for r in req.rules if r.required_of_role}
    everyone = set(people.persons)

    def anchor_choices(s: Slot) -> list[Option | None]:
        opts = sorted(options[s.id], key=lambda o: o.cost)
        rule = lng_like.get(s.role)
        if rule is not None:  # prefer a holder of the qualification the rule asks of this position
            opts.sort(key=lambda o: (rule.role not in people.functions[o.person], o.cost))
        return opts or [None]  # leave the position open only when nobody can take it

    best: Attempt | None = None
    whole_people = sorted({o.person for s in wholes for o in options[s.id]})
    for chosen in itertools.product(*(anchor_choices(s) for s in anchors)):
        taken = [o.person for o in chosen if o is not None]
        if len(set(taken)) != len(taken):
            continue
        anchor_of = {s.role: (o.person if o else None) for s, o in zip(anchors, chosen, strict=True)}
        pool = [pid for pid in whole_people if pid not in taken]
        most = min(len(wholes), len(pool))
        # the largest groups first (only they can complete the roster); a smaller group keeps people free for
        # positions, which helps only while positions stay open
        groups = ((k, g) for k in range(most, -1, -1) for g in itertools.combinations(pool, k))
        positions_full_at: int | None = None
        for size, group in groups:
            if positions_full_at is not None and size < positions_full_at:
                break
            whole_fill = _assign(wholes, options, set(group))
            used = set(taken) | {o.person for o in whole_fill.values()}
            free = everyone - used
            pos_fill = _assign(positions, options, free)
            if len(pos_fill) == len(positions):
                positions_full_at = size
            fn_fill: dict[str, Option] = {}
            if functions:
                allowed_fn: dict[str, set[str]] = {}
                for s in functions:
                    ok = set(free)
                    _, excepted = combinable[s.role]
                    ok |= {anchor_of[r] for r in anchor_of if r not in excepted and anchor_of[r]}
                    allowed_fn[s.id] = ok
                fn_fill = _assign(functions, {k: [o for o in v if o.person in allowed_fn.get(k, set())] for k, v in options.items()},
                                  everyone)
            pos_all = {**pos_fill, **{s.id: o for s, o in zip(anchors, chosen, strict=True) if o is not None}}
            attempt = Attempt(alt, pos_all, {**fn_fill, **whole_fill}, _qualifications(law, req.rules, people, anchor_of), slots)
            if best is None or attempt.score() > best.score():
                best = attempt
            if attempt.complete() and attempt.substitutions() == 0:
                return attempt
    assert best is not None
    return best


def _label(law: Law, role: str, lang: str) -> str:
    return law.label(role, lang)


def _fill_with(law: Law, ml: ManningLaw, req: Requirement, slot: Slot, people: People, combinable: tuple[bool, set[str]] | None,
               lang: str) -> tuple[str, dict[str, Any]]:
    """What kind of person would fill an open slot, in words and as data (certificates, substitutions)."""
    t = _words(lang)
    role = _label(law, slot.role, lang)
    if slot.kind == "position":
        governed = {s.by for s in slot.substitutions}  # a step a substitution governs is taken only on its conditions
        higher = sorted((r for r, under in people.below.items() if slot.role in under and r not in governed),
                        key=lambda r: law.terms[r].order if r in law.terms else 0)
        certs = [c.id for c in law.certificates_in_order() if c.role == slot.role or c.role in higher]
        text = t["position"].format(role=role)
        if higher:
            text += t["higher"].format(roles=", ".join(_label(law, r, lang) for r in higher))
        proofs = []
        for q in req.proofs:  # a qualification these waters let a person prove by its pathway (§ 6 Abs. 6 SchBesV)
            c = law.certificates.get(q.certificate or "")
            if c is None or c.role != slot.role:
                continue
            needs = [law.label(r, lang) for w in c.pathways for r in law.pathways[w].requirements]
            text += t["proof"].format(needs=", ".join(dict.fromkeys(needs))) + f" ({law.citation(q.provision)})"
            proofs.append({"certificate": c.id, "provision": law.citation(q.provision)})
        subs = []
        for s in slot.substitutions:
            conds = [t[k].format(n=v) for k, v in (("age", s.min_age), ("year", s.min_apprenticeship_year), ("days", s.min_fahrzeit_days)) if v is not None]
            by = _label(law, s.by, lang) + (f" ({', '.join(conds)})" if conds else "")
            text += t["subst"].format(by=by) + f" ({law.citation(s.provision)})"
            subs.append({"by": s.by, "provision": law.citation(s.provision)} | (
                {"conditions": {k: v for k, v in (("min_age", s.min_age), ("min_apprenticeship_year", s.min_apprenticeship_year),
                                                  ("min_fahrzeit_days", s.min_fahrzeit_days)) if v is not None}} if conds else {}))
        return text, {"certificates": certs, "roles": [slot.role, *higher], "substitutions": subs} | (
            {"proofs": proofs} if proofs else {})
    text = t["function"].format(role=role)
    ok, excepted = combinable or (False, set())
    if ok:
        exc = "".join(t["except"].format(role=_label(law, r, lang)) for r in sorted(excepted))
        text += t["combinable"].format(exc=exc)
    else:
        text += t["alone"]
    subs = [s for s in req.function_substitutions if s.role == slot.role]
    if subs:
        text += t["accepts"].format(items=t["or"].join(_label(law, s.by, lang) for s in subs))
    return text, {"roles": [slot.role, *(s.by for s in subs)], "combinable_with_position": ok}


def _qualification_text(law: Law, q: dict[str, Any], rule: FunctionRule, lang: str) -> str:
    t = _words(lang)
    missing = max(q["needed"] - len(q["have"]), 0)
    if rule.required_of_role and missing == 0:
        return t["required_of"].format(of=_label(law, rule.required_of_role, lang), role=_label(law, rule.role, lang))
    text = t["qualification_one" if max(missing, 1) == 1 else "qualification"].format(n=max(missing, 1), role=_label(law, rule.role, lang))
    extra = [_label(law, f, lang) for f in rule.accepts_functions]
    if rule.accepts_at_least and rule.accepts_issued_after:
        extra.append(t["at_least_after"].format(role=_label(law, rule.accepts_at_least, lang),
                                                day=rule.accepts_issued_after.isoformat()))
    elif rule.accepts_at_least:
        extra.append(t["at_least"].format(role=_label(law, rule.accepts_at_least, lang)))
    if extra:
        text += t["accepts"].format(items=t["or"].join(extra))
    if rule.except_role:
        text += t["except"].format(role=_label(law, rule.except_role, lang))
    if rule.required_of_role:
        text += "; " + t["required_of"].format(of=_label(law, rule.required_of_role, lang), role=_label(law, rule.role, lang))
    return text


def _uncovered_roster(law: Law, ml: ManningLaw, req: Requirement, persons: list[Person], lang: str) -> dict[str, Any]:
    """Where the table (or the crew under a gap) is missing from the sources no position can be checked, but the
    function rules that govern the vessel still hold (two first-aiders, the engine qualification): a roster that
    cannot meet one of them is not satisfied whatever the missing table says. A rule that names a position is decided
    only where it cannot be met whoever takes the position: fewer holders than it asks, (held by the prescribed
    Schiffsführer) no holder who could take that position, or (not held by the Schiffsführer, § 14 Abs. 8 SchBesV) too
    few holders besides each member who could take it."""
    t = _words(lang)
    answer: dict[str, Any] = {"satisfied": None, "reason": t["not_covered"], "assignment": {}, "missing": []}
    if not req.rules and not req.functions:
        return answer
    people = _people(law, persons, req.as_of, ml.proven_functions)
    short_functions = []  # passenger-safety functions fewer members hold (or may hold instead) than the row asks
    for need in req.functions:
        holders = [pid for pid in people.persons if need.function in people.functions[pid]
                   or any(s.role == need.function and s.by in people.functions[pid] for s in req.function_substitutions)]
        if len(holders) < need.count:
            n = need.count - len(holders)
            short_functions.append({"kind": "function", "role": need.function, "provision": need.provision,
                                    "needed": need.count, "have": len(holders),
                                    "fill_with": t["qualification_one" if n == 1 else "qualification"].format(
                                        n=n, role=_label(law, need.function, lang))})
    decided = []
    for q in _qualifications(law, req.rules, people, {}):
        rule = ml.rules[q["rule"]]
        short = len(q["have"]) < q["needed"]  # nobody to exclude can give more holders
        if rule.required_of_role:  # whoever is prescribed in the position must be able to fill it
            short = short or not any(rule.required_of_role in people.fills[pid] for pid in q["have"])
        if rule.except_role:  # whoever takes the position does not count: short if so for everyone who could take it
            takers = [pid for pid in people.persons if rule.except_role in people.fills[pid]]
            if takers and all(sum(h != x for h in q["have"]) < q["needed"] for x in takers):
                short = True  # the holders that count are those besides the taker who leaves the most of them
                x = max(takers, key=lambda x: (sum(h != x for h in q["have"]), x))
                q = q | {"have": [h for h in q["have"] if h != x]}
        if short or not (rule.required_of_role or rule.except_role):
            decided.append(q | {"met": not short})
    missing = [{"kind": "qualification", "role": q["function"], "provision": q["provision"], "needed": q["needed"],
                "have": len(q["have"]), "fill_with": _qualification_text(law, q, ml.rules[q["rule"]], lang)}
               for q in decided if not q["met"]] + short_functions
    for q in decided:
        for pid in q["have"][: q["needed"]]:
            answer["assignment"].setdefault(pid, []).append(q["function"])
    if (x := _transitional(law, req, missing)) is not None:
        # only functions a transitional rule lets others take, in a form the sources lack (§ 47 second Abs. 13 SchBV)
        answer["reason"] = t["not_covered_transitional"].format(reason=_reason(x, lang))
    elif missing:
        answer |= {"satisfied": False, "reason": t["not_covered_rules"]}
    elif decided:
        answer["reason"] = t["not_covered_rules_met"]
    return answer | {"qualifications": [{k: v for k, v in q.items() if k != "rule"} for q in decided], "missing": missing}


def _transitional(law: Law, req: Requirement, missing: list[dict[str, Any]]) -> TransitionalRule | None:
    """The transitional rule in force that lets others take every missing function (§ 47 second Abs. 13 SchBV,
    kb:SchBV2022-P47-Abs13b: until its date, a Fahrgastbetreuer or Ersthelfer instead of the Sachkundige), in a form the sources lack — so the roster is
    neither complete nor short: each missing entry is marked with the rule; None where anything else is missing."""
    relaxed = {x.role: x for x in req.transitional if x.missing}
    if not missing or not all(m["kind"] == "function" and m["role"] in relaxed for m in missing):
        return None
    x = relaxed[missing[0]["role"]]
    for m in missing:
        m["transitional"] = {"provision": law.citation(x.provision), "until": x.until.isoformat() if x.until else None,
                             "covered": False}
    return x


def _reason(x: TransitionalRule, lang: str) -> str:
    """The transitional rule's reason in the language asked for, else in the one the kb gives."""
    return x.reason.get(lang) or next(iter(x.reason.values()), "")


def _standing_unknown(law: Law, ml: ManningLaw, people: People, waters: str | None) -> tuple[People, list[tuple[str, str, str]]] | None:
    """The people as they would be if every holder of a role whose standing the sources do not give
    (crew:standingUnknownFor) took the table roles it may perhaps stand for; None when nobody holds such a role. A
    role held only by certificates restricted to other waters than the vessel's (crew:restrictedToWaters) stands
    for nothing there: its standing is known."""
    def open_here(p: Person, role: str) -> bool:
        certs = [c for c in p.certificates if c in law.certificates and law.certificates[c].role == role]
        return not certs or any(ml.restricted_waters.get(c) in (None, waters) for c in certs)

    extra = [(pid, role, target) for pid in people.persons for role in sorted(people.top[pid])
             if open_here(people.persons[pid], role) for target in ml.standing_unknown.get(role, ((), ""))[0]]
    if not extra:
        return None
    top = {pid: set(v) for pid, v in people.top.items()}
    fills = {pid: set(v) for pid, v in people.fills.items()}
    for pid, _, target in extra:
        top[pid].add(target)
        fills[pid].add(target)
    return dataclasses.replace(people, top=top, fills=fills), extra


def _issuable_not_held(law: Law, people: People, as_of: date, slots: list[Slot], near: dict[str, list]) -> None:
    """A person who meets every condition of a certificate of the regulation in force but does not hold it (not
    issued, or under the SchBesV 2004 not entered in the Schifferdienstbuch, § 6 Abs. 1 Z 2) fills no position: said
    as a near miss of the open positions its role or a role below it would take, not left unexplained. Asked only when
    a position stays open: one run of the eligibility program over the roster's persons (its eligible rule)."""
    from crewkg.answers.eligibility import regulation_in_force
    from crewkg.rules.eligibility import derive

    reg = regulation_in_force(law, as_of)
    if reg is None:
        return
    eligible = derive(list(people.persons.values()), law, as_of).eligible
    certs = [c for c in law.certificates_in_order() if c.regulation == reg.id and c.role]
    for pid in people.persons:
        for cert in (c for c in certs if (pid, c.id) in eligible):
            roles = {cert.role} | people.below.get(cert.role, set())
            for slot in slots:
                if slot.kind != "position" or slot.role not in roles or slot.role in people.fills[pid]:
                    continue
                if any(m[0] == pid for m in near.get(slot.id, [])):
                    continue  # named already (with what they lack, or by a lower certificate met)
                near.setdefault(slot.id, []).append((pid, slot.role, cert.provision,
                                                     [("lacks_entry", {"certificate": cert.id})]))


def _proof_of(req: Requirement, cid: str):
    """The vessel's proof of qualification (crew:QualificationProof) that proves the certificate, if any."""
    return next((q for q in req.proofs if q.certificate == cid), None)


def _other_alternatives(chosen: Attempt, attempts: list[tuple[Attempt, dict[str, list]]]) -> list[dict[str, Any]]:
    """What each other alternative of the table row would lack with the same people: the verdict names one
    alternative, but a roster that fills none has as many ways out as the row has alternatives, and the nearest
    may be another one (Schiffsführer and Matrose lack a Leichtmatrose under one, a Bootsmann under the other)."""
    out = []
    for attempt, _ in attempts:
        if attempt is chosen:
            continue
        lacks: dict[tuple[str, str, str], int] = {}
        for slot in attempt.open_slots():
            key = (slot.kind, slot.role, slot.provision)
            lacks[key] = lacks.get(key, 0) + 1
        for q in attempt.qualifications:
            if not q["met"]:
                lacks[("qualification", q["function"], q["provision"])] = q["needed"] - len(q["have"])
        out.append({"alternative": attempt.alternative.index,
                    "missing": [{"kind": kind, "role": role, "provision": provision, "count": n}
                                for (kind, role, provision), n in lacks.items()]})
    return out


def check_roster(law: Law, ml: ManningLaw, req: Requirement, persons: list[Person], lang: str = "de") -> dict[str, Any]:
    """The roster verdict: satisfied, the assignment (person id -> positions and functions), and what is
    missing with its provision and the kind of person who would fill it."""
    if not req.covered:
        return _uncovered_roster(law, ml, req, persons, lang)
    as_of = req.as_of
    people = _people(law, persons, as_of, ml.proven_functions, {q.certificate: q.provision for q in req.proofs if q.certificate})
    attempts: list[tuple[Attempt, dict[str, list]]] = []
    for alt in req.alternatives:
        near: dict[str, list] = {}
        attempts.append((_attempts(law, req, alt, people, as_of, near), near))
    done = [a for a in attempts if a[0].complete()]
    unknown: list[tuple[str, str, str]] = []  # (person, role, table role) a complete roster would need
    waters = req.vessel.values.get("onWaters") if req.vessel is not None else None
    if not done and (perhaps := _standing_unknown(law, ml, people, waters)) is not None:
        if any(_attempts(law, req, alt, perhaps[0], as_of, {}).complete() for alt in req.alternatives):
            unknown = perhaps[1]
    chosen, near = done[0] if done else max(attempts, key=lambda an: (an[0].score(), -an[0].alternative.index))
    t = _words(lang)
    assignment: dict[str, list[str]] = {}
    details = []
    for slot in chosen.slots:
        o = chosen.positions.get(slot.id) or chosen.functions.get(slot.id)
        if o is None:
            continue
        assignment.setdefault(o.person, []).append(slot.role)
        via = o.via if o.via in ("certificate", "hierarchy", "function", "record") else "substitution"
        entry = {"kind": slot.kind, "role": slot.role, "person": o.person, "via": via, "provision": slot.provision}
        if via == "record":  # the function follows from the certificate the record's proofs make (crew:heldByProof)
            cid = people.proven[o.person][slot.role]
            entry |= {"certificate": cid, "certificate_provision": law.citation(law.certificates[cid].provision)}
            if (proof := _proof_of(req, cid)) is not None:  # proven on these waters (§ 6 Abs. 6 SchBesV)
                entry["proof_provision"] = law.citation(proof.provision)
        if via == "substitution":
            s = ml.rules[o.via]
            entry |= {"substitution": s.id, "substitution_provision": law.citation(s.provision), "as": s.by}
            cid = people.proven.get(o.person, {}).get(s.by or "")
            if cid and (proof := _proof_of(req, cid)) is not None:  # the substitute's role proven on these waters
                entry |= {"certificate": cid, "certificate_provision": law.citation(law.certificates[cid].provision),
                          "proof_provision": law.citation(proof.provision)}
        details.append(entry)
    for q in chosen.qualifications:  # the holders who meet a function rule, exact holders first
        rule = ml.rules[q["rule"]]
        derived = {pid: people.proven[pid][f] for pid in q["have"] for f in (rule.role, *rule.accepts_functions)
                   if f in people.proven.get(pid, {}) and f not in people.persons[pid].functions}
        if derived:  # who holds it through the certificate the record's own proofs make, not as stated
            q["derived"] = derived
        exact = [pid for pid in q["have"] if rule.role in people.functions[pid]]
        for pid in (exact + [pid for pid in q["have"] if pid not in exact])[: rule.count]:
            if rule.role not in assignment.setdefault(pid, []):
                assignment[pid].append(rule.role)
    deck = set(law.ids_of("DeckCrewRole"))
    for pid in assignment:
        assignment[pid].sort(key=lambda r: 0 if r in deck and r in {d["role"] for d in details if d["person"] == pid and d["kind"] == "position"} else 1)
    missing = []
    if any(slot.kind == "position" for slot in chosen.open_slots()):
        _issuable_not_held(law, people, as_of, chosen.open_slots(), near)
    for slot in chosen.open_slots():
        combinable = _combinable(req, chosen.alternative, slot.role) if slot.kind == "function" else None
        text, accepts = _fill_with(law, ml, req, slot, people, combinable, lang)
        entry = {"kind": slot.kind, "role": slot.role, "provision": slot.provision, "fill_with": text, "accepts": accepts}
        misses = sorted(near.get(slot.id, []), key=lambda m: (len(m[3]), m[0]))
        if misses:
            entry["near_misses"] = [{"person": pid, "as": role, "provision": law.citation(provision),
                                     "lacks": [_lack_text(law, k, v, lang) for k, v in lacks]}
                                    | ({"assigned": list(assignment[pid])} if pid in assignment else {})
                                    for pid, role, provision, lacks in misses]
        missing.append(entry)
    for q in chosen.qualifications:
        if not q["met"]:
            rule = ml.rules[q["rule"]]
            missing.append({"kind": "qualification", "role": q["function"], "provision": q["provision"], "needed": q["needed"],
                            "have": len(q["have"]), "fill_with": _qualification_text(law, q, rule, lang)}
                           | ({"of": rule.required_of_role} if rule.required_of_role else {}))
    satisfied: bool | None = not missing
    answer: dict[str, Any] = {}
    if (x := _transitional(law, req, missing)) is not None:
        satisfied = None
        answer["reason"] = t["transitional"].format(reason=_reason(x, lang), until=x.until.isoformat() if x.until else "")
    if unknown and satisfied is False:  # complete only if a holder whose standing the sources lack counts
        satisfied = None
        answer["reason"] = "; ".join(t["standing_unknown"].format(
            person=pid, role=_label(law, role, lang), target=_label(law, target, lang),
            provision=law.citation(ml.standing_unknown[role][1]))
            for pid, role, target in unknown)
        answer["standing_unknown"] = [{"person": pid, "role": role, "as": target} for pid, role, target in unknown]
    if not done and (others := _other_alternatives(chosen, attempts)):
        answer["other_alternatives"] = others
    from crewkg.answers.eligibility import lapsed_entries, medical_not_checked, not_yet_issued, undated_early

    lapsed = {p.id: found for p in persons if (found := lapsed_entries(law, p, as_of, lang))}
    if lapsed:  # the members whose held certificate gives no role on the date, and why (§ 22, § 47 SchBV)
        answer["lapsed"] = lapsed
    later = {p.id: found for p in persons if (found := not_yet_issued(law, p, as_of, lang))}
    if later:  # the members whose certificate is issued only after the date: not held yet, as `check` says
        answer["not_yet_issued"] = later
    early = {p.id: found for p in persons if (found := undated_early(law, p, as_of, lang))}
    if early:  # members named with a certificate their date cannot have, counted as read under the law then in force
        answer["undated_early"] = early
    unchecked = {p.id: found for p in persons if (found := medical_not_checked(law, p, as_of, lang))}
    if unchecked:  # members filling roles by a qualification kept valid by § 47 whose medical fitness is not checked
        answer["medical_not_checked"] = unchecked
    return {"satisfied": satisfied, "alternative": chosen.alternative.index, "assignment": assignment, "details": details,
            "qualifications": [{k: v for k, v in q.items() if k != "rule"} for q in chosen.qualifications],
            "missing": missing, **answer}
