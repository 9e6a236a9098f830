"""The assignment of crew members to the places of one alternative of the minimum crew (`Attempt`).

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
functions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.manning.people import People, function_via, substitute_lacks
from crewkg.manning.requirement import AlternativeNeed, Requirement
from crewkg.manning.tables import FunctionRule, Substitution

#: cost of an assignment edge: an exact certificate is free, each step down the hierarchy costs a little, a
#: substitution costs more, so the assignment uses a substitution only where it is needed
COST_HIERARCHY, COST_SUBSTITUTION = 1, 10
#: weight of filling a slot, times the rank of its role, so that unfilled slots are the lowest ones
SLOT_WEIGHT = 1000


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
                lacks = substitute_lacks(s, p, as_of)
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
            out.append(Option(pid, function_via(people, pid, slot.role), 0))
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


def may_combine(req: Requirement, alt: AlternativeNeed, function: str) -> tuple[bool, set[str]]:
    """Whether a function may be held besides a position, and the prescribed roles whose holder may not hold it."""
    size = sum(alt.counts.values())
    delegations = [g for g in req.delegations if function in g.functions]
    if any(g.when_crew_size == size for g in delegations):
        return True, set()
    general = [g for g in delegations if g.when_crew_size is None]
    if not general:
        return False, set()
    return True, {g.except_role for g in general if g.except_role}


def qualifications(law: Law, rules: list[FunctionRule], people: People, anchor: dict[str, str | None]) -> list[dict[str, Any]]:
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


def best_attempt(law: Law, req: Requirement, alt: AlternativeNeed, people: People, as_of: date,
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
            combinable[s.role] = may_combine(req, alt, s.role)
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
            attempt = Attempt(alt, pos_all, {**fn_fill, **whole_fill}, qualifications(law, req.rules, people, anchor_of), slots)
            if best is None or attempt.score() > best.score():
                best = attempt
            if attempt.complete() and attempt.substitutions() == 0:
                return attempt
    assert best is not None
    return best
