"""Fahrzeit — in any deck role (§ 2 Z 3 SchBV: the sum over all roles) or served in a named role.

A record with a service log gives the credited days itself (records.dated): per role, and in any role as the days
credited of all its inland days together (the cap applies to them together, so that is no sum of the roles').

A requirement with a sea capacity (crew:seaCapacity) counts Fahrzeit in inland and sea navigation together: the days in
any deck role plus the days at sea in that capacity (each credited under its own cap); where a log gives both, each
calendar day once (a day is one Fahrtag, § 2 Z 3 SchBV: a day inland and at sea counts once, `records.dated`). A requirement with a reduction
(crew:reducibleBy, a crew:FahrzeitReduction of the kb) needs fewer days when the person presents the reduction's
evidence: as many fewer as the evidence lasted, at most the reduction's maximum."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind

NAME = "Fahrzeit"


class Fahrzeit(NotAGroup, RequirementKind):
    name = NAME
    order = 20
    role = None

    measured = True
    clauses = """
(total_fahrzeit[P] == sum_(D, for_each=Role)) <= sailing(P, Role, D)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_any_role(R) & person(P) & ~inland_logged(P) & (total_fahrzeit[P] == V)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_any_role(R) & inland_credited(P, V)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_served_as(R, Role) & sailing(P, Role, V)
# RULE fahrzeit-with-sea — inland days in any deck role plus the sea days of the capacity the requirement names
inland_any(P, V) <= person(P) & ~inland_logged(P) & (total_fahrzeit[P] == V)
inland_any(P, V) <= inland_credited(P, V)
have(P, R, V) <= req_with_sea(R, A) & inland_any(P, F) & ~sea_logged(P) & (sea_in[P, A] == S) & (V == F + S)
have(P, R, V) <= req_with_sea(R, A) & inland_any(P, F) & sea_credited(P, A, S) & ~days_together(P) & (V == F + S)
# a log with inland and sea entries: the calendar days credited in either, each day once (§ 2 Z 3 SchBV)
have(P, R, V) <= req_with_sea(R, A) & with_sea_credited(P, A, V)
# RULE fahrzeit-reduction — the minimum a reduction lowers for this person (computed from the kb's maximum and the
# length of the person's evidence); the threshold rule still compares with the full minimum
met(P, R) <= reduced_min(P, R, N) & have(P, R, V) & (V >= N)
"""
    predicates = {"req_served_as": 2, "req_any_role": 1, "sailing": 3, "inland_logged": 1, "inland_credited": 2,
                  "req_with_sea": 2, "reduced_min": 3, "days_together": 1, "with_sea_credited": 3}

    def kb_facts(self, r):
        if r.served_as:
            return [("req_served_as", r.id, r.served_as)]
        if r.capacity:  # the SeaTime kind's capacity rule counts the capacities it includes (req_capacity)
            return [("req_with_sea", r.id, r.capacity), ("req_capacity", r.id, r.capacity)]
        return [("req_any_role", r.id)]

    def person_facts(self, p, law, as_of):
        facts = [("sailing", p.id, role, p.sailing_days.get(role, 0)) for role in law.ids_of("DeckCrewRole")]
        if p.any_role_days is not None:
            facts += [("inland_logged", p.id), ("inland_credited", p.id, p.any_role_days)]
        if p.with_sea_credited is not None:
            facts += [("days_together", p.id)] + [("with_sea_credited", p.id, cap, n)
                                                  for cap, n in sorted(p.with_sea_credited.items())]
        for r in reducible(law):
            cut = reduction(law, r, p)
            if cut:
                facts.append(("reduced_min", p.id, r.id, max(0, (r.minimum or 0) - cut)))
        return facts

    #: sailing days and the credited total reach the program only through the comparisons `abstraction` lists
    abstracted = ("sailing", "inland_credited", "with_sea_credited")

    def abstraction(self, facts, law):
        """Which minimums of the kb the person's Fahrzeit reaches, as the clauses above compare them: each role's days
        against the minimums served in that role; the total in any deck role (the sum of the roles, or the credited
        total of a log) against those in any role; that total plus the sea days of a capacity (sea_in: the capacities
        it counts, or a log's credited days) against those with sea days. A person's own lowered minimum
        (reduced_min) is compared exactly: the days themselves are kept."""
        from crewkg.rules.kinds import band, minima
        from crewkg.rules.kinds.sea_time import sea_in

        if facts.get("reduced_min"):
            return tuple(sorted((name, *f[2:]) for name in self.abstracted for f in facts.get(name, [])))  # by kind:
            # a role's days (a name and a number) and a credited total (a number) never compared with each other
        days = {f[2]: f[3] for f in facts.get("sailing", [])}
        out: list = [(role, band(d, minima(law, NAME, served_as=role, capacity=None))) for role, d in sorted(days.items())]
        credited = facts.get("inland_credited")
        total = credited[0][2] if credited else sum(days.values())
        out.append(band(total, minima(law, NAME, served_as=None, capacity=None)))
        together = {f[2]: f[3] for f in facts.get("with_sea_credited", [])}
        for capacity in law.ids_of("SeaCapacity"):
            grid = minima(law, NAME, capacity=capacity)
            if grid and capacity in together:  # a log of both waters: its days together, each once
                out.append((capacity, band(together[capacity], grid)))
            elif grid:
                sea = sea_in(facts, law, capacity)
                out.append((capacity, None if sea is None else band(total + sea, grid)))
        return tuple(out)

    unit = "days"
    action = "serve_days"

    def answer(self, law, r, p, d, as_of):
        from crewkg.rules.kinds import credit_fields
        from crewkg.rules.kinds import have_value as requirement_have

        out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of)}
        if r.served_as:
            out["role"] = r.served_as
        elif r.id in inland_shares(law):
            out["inland_share"] = True
        red = law.reductions.get(r.reduction or "")
        if red is not None:
            cut = reduction(law, r, p)
            out |= {"minimum": r.minimum, "reduced_by": cut, "needed": max(0, (r.minimum or 0) - cut),
                    "reducible_by": red.max_days, "reduction_provision": law.citation(red.provision)}
        if r.capacity and not r.served_as:
            out["with_sea"] = r.capacity
            if p.with_sea_credited is not None:  # inland and sea days of one log: each calendar day once
                return out | credit_fields(p, f"with-sea:{r.capacity}", "inland", as_of)
            sea = credit_fields(p, f"sea:{r.capacity}", "sea", as_of)
            inland = credit_fields(p, "any", "inland", as_of)
            cited = {k: v for k, v in (sea | inland).items() if k == "cap_provision"}
            return out | cited | {k: inland.get(k, 0) + sea.get(k, 0) for k in dict.fromkeys([*inland, *sea])
                                  if k not in cited}
        return out | credit_fields(p, f"role:{r.served_as}" if r.served_as else "any", "inland", as_of)

    have = None  # the days the program derived

    def lowered_minima(self, law, p):
        """The minimums a reduction shortens for this person (`reduction`)."""
        return {n for r in reducible(law) if (n := (r.minimum or 0) - reduction(law, r, p)) > 0}

    messages = {}

    def missing(self, law, req, lang):
        t = catalogue(lang)
        from crewkg.rules.kinds import credit_gap

        n = count(req["needed"] - req["have"], "days", lang)
        if req.get("role"):
            out = t["days_role"].format(n=n, role=law.label(req["role"], lang))
        elif req.get("with_sea"):
            out = t["days_with_sea"].format(n=n)
        elif req.get("inland_share"):
            out = t["days_inland_share"].format(n=n)
        else:
            out = t["days"].format(n=n)
        if req.get("reduced_by"):
            out += t["days_reduced"].format(minimum=req["minimum"], cut=req["reduced_by"], needed=req["needed"],
                                            have=req["have"], provision=req["reduction_provision"])
        elif "reducible_by" in req:
            out += t["days_reducible"].format(most=req["reducible_by"], provision=req["reduction_provision"])
        return out + credit_gap(req, lang)

    def facts(self, req, p, lang):
        """The days the record gives, and where a recognised training shortened the minimum (§ 47 Abs. 5 SchBV), by
        how much: a met requirement says why it needed fewer days than its label names. A count in any role is said
        as the parts that add up to it — the days credited in each role (with a log, those of the count of every role
        together, `credited_in_roles`, which the explanation gives the entry), and with sea days the days at sea — and
        where a crediting limit left days of a log out, a line says so."""
        from crewkg.rules.kinds import limit_said

        t = catalogue(lang)
        cut = t["kind.facts.reduced"].format(minimum=req["minimum"], cut=req["reduced_by"],
                                             provision=req["reduction_provision"]) if req.get("reduced_by") else ""
        if req.get("role"):
            role = req["role"]
            return (t["kind.facts.sailing_role"].format(role=role, n=p.sailing_days.get(role, 0)) + cut
                    + limit_said("kind.facts.limit_role", p.credits.get(f"role:{role}"), "inland", req, lang, role=role))
        inland = req.get("credited_in_roles") or {r: n for r, n in p.sailing_days.items() if n}
        logged = p.logged("inland")
        parts = [t["kind.facts.part_alone" if logged and p.sailing_days.get(r, 0) != n else "kind.facts.part"].format(
            n=n, role=r, alone=p.sailing_days.get(r, 0)) for r, n in inland.items()]
        key = "kind.facts.sailing"
        if req.get("with_sea"):
            key = "kind.facts.sailing_with_sea"
            parts.append(t["kind.facts.part_sea"].format(n=req["have"] - sum(inland.values()), capacity=req["with_sea"]))
        return (t[key].format(n=req["have"], parts=" + ".join(parts) or t["none"]) + cut
                + limit_said("kind.facts.limit_together", p.credits.get("any"), "inland", req, lang)
                + (limit_said("kind.facts.limit_sea", p.credits.get(f"sea:{req['with_sea']}"), "sea", req, lang)
                   if req.get("with_sea") else ""))

    def summary(self, law, r, lang):
        t = catalogue(lang)
        if r.served_as:
            return t["kind.summary.FahrzeitRole"].format(n=r.minimum, role=law.short_label(r.served_as, lang))
        if r.capacity:
            return t["kind.summary.FahrzeitWithSea"].format(n=r.minimum)
        return t["kind.summary.Fahrzeit"].format(n=r.minimum)

    item_terms = None  # names no items, an amount

    def based_on(self, law, r, nodes):
        if r.served_as:
            return [f"sailing:{r.served_as}"]
        inland = [k for k in nodes if k.startswith("sailing:")]
        if not r.capacity:
            return inland
        own = f"sea-credited:{r.capacity}"
        return inland + ([own] if own in nodes else [f"sea:{c}" for c in sorted(law.counted_capacities(r.capacity))])

    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # days take days

    def project(self, ctx, state, it, prog, n):
        """Days credited from the step's start: any role counts every credited day; a named role only the days served
        in it, which accrue only while serving in that role (after its certificate is obtained)."""
        role = ctx.law.requirements[it["id"]].served_as
        have = it.get("have") or 0
        if role is None:
            n.item["have"] = have + state.credited
        elif role == state.role or state.role_added.get(role):
            n.item["have"] = have + state.role_added.get(role, 0)
        n.met = n.item["have"] >= it["needed"]
        if not n.met:
            if role is not None and role != state.role:
                n.blocked = "role_days"
            else:
                n.sail = it["needed"] - n.item["have"]

    held_meets = None  # no certificate meets it
    lapsed = None  # credited days stay credited
    assume = None  # the projected record holds the planned days themselves (careers.planning)


def reducible(law):
    """The Fahrzeit requirements of the kb that a reduction may shorten (cached per law)."""
    return law.remembered("_reducible", lambda: [r for r in law.requirements.values()
                                                 if r.kind == NAME and r.reduction in law.reductions])


def reduction(law, r, p) -> int:
    """By how many days the requirement's minimum is shortened for this person: the length of the reduction's
    evidence the person presents, at most the reduction's maximum (0 without a reduction or without evidence)."""
    from crewkg.rules.validity import document_days

    red = law.reductions.get(r.reduction or "")
    return min(red.max_days, document_days(p, red.evidence)) if red else 0


def inland_shares(law) -> frozenset[str]:
    """The Fahrzeit requirements in any role that stand beside one with sea time in the same pathway (§ 47 Abs. 4
    SchBV: '… Tage Fahrzeit, davon … in der Binnenschifffahrt'): their days are said to be the inland share, so that
    the two gaps cannot be read as one (cached per law)."""
    def make() -> frozenset[str]:
        found: set[str] = set()
        for w in law.pathways.values():
            reqs = [law.requirements[x] for x in w.requirements if x in law.requirements]
            if any(r.kind == NAME and r.capacity and not r.served_as for r in reqs):
                found |= {r.id for r in reqs if r.kind == NAME and not r.capacity and not r.served_as}
        return frozenset(found)

    return law.remembered("_inland_shares", make)
