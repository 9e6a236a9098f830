"""SeaTime — professional experience on a sea-going ship, in the capacity a requirement names.

A requirement in one capacity counts the days of every capacity the kb says that capacity includes
(crew:CapacityInclusion, e.g. § 2 Z 4 SchBV: the master is a member of the deck crew; 'in any capacity' includes
them all), added. No capacity is named here: the inclusions are facts (`capacity_includes`, from the kb). Sea time
asked in addition to a Fahrzeit ('zusätzlich', crew:inAdditionTo) counts, in a log of both waters, only on other
calendar days than the Fahrzeit needs (`apart_days`)."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import count
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind

NAME = "SeaTime"


class SeaTime(NotAGroup, RequirementKind):
    name = NAME
    order = 30
    role = None

    measured = True
    clauses = """
# RULE sea-capacity — a capacity counts its own days and those of every capacity it includes, transitively
counts_toward(C, C) <= req_capacity(R, C)
counts_toward(A, B) <= capacity_includes(A, B)
counts_toward(A, B) <= capacity_includes(A, X) & counts_toward(X, B)
(sea_in[P, A] == sum_(D, for_each=C)) <= counts_toward(A, C) & sea(P, C, D)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, A) & person(P) & ~sea_logged(P) & (sea_in[P, A] == V)
# a service log gives each capacity's credited days itself: those of the capacities it counts, credited together
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, A) & sea_credited(P, A, V) & ~ordered(P, R) & ~apart(P, R)
# RULE sea-in-addition — 'zusätzlich' (crew:inAdditionTo): where the log gives inland and sea days, only the sea days
# on other calendar days than those the Fahrzeit it is added to needs (computed from the log: sea_apart)
have(P, R, V) <= sea_apart(P, R, V)
# RULE sea-before-programme — 'vor der Einschreibung', 'danach' (crew:beforeProgramme): where the log and the qualifying
# programme are dated, only the sea days before the programme's first day count (the best qualifying programme's)
ordered(P, R) <= req_before(R, Q) & qualifying(P, Q, G) & sea_before(P, G, A, V)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, A) & req_before(R, Q) & qualifying(P, Q, G) & sea_before(P, G, A, V)
"""
    predicates = {"req_capacity": 2, "capacity_includes": 2, "sea": 3, "sea_logged": 1, "sea_credited": 3,
                  "req_before": 2, "sea_before": 4, "apart": 2, "sea_apart": 3}

    def kb_facts(self, r):
        return ([("req_capacity", r.id, r.capacity)] if r.capacity else []) + (
            [("req_before", r.id, r.before_programme)] if r.before_programme else [])

    def person_facts(self, p, law, as_of):
        if p.sea_credited is not None:
            return ([("sea_logged", p.id)] + [("sea_credited", p.id, cap, days) for cap, days in p.sea_credited.items()]
                    + [("sea_before", p.id, i, cap, days) for (i, cap), days in sorted(p.sea_before.items())]
                    + [f for r in in_addition(law) if (n := apart_days(law, r, p)) is not None
                       for f in (("apart", p.id, r.id), ("sea_apart", p.id, r.id, n))])
        return [("sea", p.id, cap, p.sea_days.get(cap, 0)) for cap in law.ids_of("SeaCapacity")]

    #: sea days reach the program only through the comparisons `abstraction` lists (and Fahrzeit's with sea days)
    abstracted = ("sea", "sea_credited", "sea_apart")

    def abstraction(self, facts, law):
        """Which minimums of the kb the sea days of each capacity a requirement names reach, summed as the
        sea-capacity rule sums them (the Fahrzeit kind compares them added to the inland days)."""
        from crewkg.rules.kinds import band, minima

        out = []
        for capacity in law.ids_of("SeaCapacity"):
            grid = minima(law, NAME, capacity=capacity)
            if grid:
                sea = sea_in(facts, law, capacity)
                out.append((capacity, band(sea, grid)))
        for f in sorted(facts.get("sea_apart", [])):  # compared with its own requirement's minimum, where the program
            if f[2] not in law.requirements:  # asks it (a register's program on a date keeps only its pathways)
                continue
            out.append((f[2], band(f[3], [law.requirements[f[2]].minimum or 0])))
        return tuple(out)

    unit = "days"
    action = "serve_sea_days"

    def answer(self, law, r, p, d, as_of):
        from crewkg.rules.kinds import credit_fields
        from crewkg.rules.kinds import have_value as requirement_have

        out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "capacity": r.capacity}
        if r.before_programme:
            of = law.requirements[r.before_programme]
            out["before_programme"] = of.programme_for
            # the dated qualifying programme whose earlier sea days the answer shows
            from crewkg.rules.kinds.programme import shown_scope

            shown = shown_scope(p, of, lambda i: f"sea:{r.capacity}:before:{i}", out["have"])
            if shown is not None:
                return out | {"before": shown[1].start.isoformat()} | credit_fields(p, shown[2], "sea", as_of)
        if apart_days(law, r, p) is not None:  # 'zusätzlich': the sea days on other days than the Fahrzeit's
            out |= {"in_addition_to": law.requirements[r.in_addition_to].minimum, "sea_credited": p.sea_credited[r.capacity]}
        return out | credit_fields(p, f"sea:{r.capacity}", "sea", as_of)

    have = None  # the days the program derived

    def lowered_minima(self, law, p):
        """No minimum is lowered; but where sea time is asked 'zusätzlich' and the log gives both waters, the days
        together are compared with the two minimums added (430 for § 12 Z 2 lit. c): the day a count reaches that
        number is an event date of the answer too (answers.eligibility.event_dates)."""
        if p.with_sea_credited is None:
            return set()
        return {(r.minimum or 0) + (law.requirements[r.in_addition_to].minimum or 0) for r in in_addition(law)}

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import credit_gap

        t = catalogue(lang)
        out = t[f"sea_{req['capacity']}"].format(n=count(req["needed"] - req["have"], "days", lang))
        if req.get("before_programme"):
            out += t["sea_before"].format(role=law.label(req["before_programme"], lang))
        if req.get("in_addition_to") is not None:
            from crewkg.messages.wording import amount

            out += t["sea_apart"].format(n=amount(req["in_addition_to"], "days", lang),
                                         logged=amount(req["sea_credited"], "days", lang))
        return out + credit_gap(req, lang)

    def facts(self, req, p, lang):
        if req.get("before"):
            return catalogue(lang)["kind.facts.sea_before"].format(n=req["have"], capacity=req["capacity"],
                                                                   before=req["before"])
        return catalogue(lang)["kind.facts.sea"].format(n=req["have"], capacity=req["capacity"])

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.SeaTime"].format(n=r.minimum, cap=law.label(r.capacity or "", lang))

    item_terms = None  # names no items, an amount

    def based_on(self, law, r, nodes):
        """Totals: the sea records of every capacity that counts; a sea log: the credited count of the
        requirement's own capacity (its scope already holds the days of every capacity that counts)."""
        own = f"sea-credited:{r.capacity}"
        if own in nodes:
            return [own]
        return [f"sea:{c}" for c in sorted(law.counted_capacities(r.capacity or ""))]

    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # days take days
    project = None  # not accrued by the planner: a route that needs more of it is not plannable
    held_meets = None  # no certificate meets it
    lapsed = None  # credited days stay credited
    assume = None  # not accrued: nothing to assume


def sea_in(facts, law, capacity):
    """The sea days a capacity counts, as the sea-capacity rule sums them (None where a log credits none)."""
    if facts.get("sea_logged"):
        return next((f[3] for f in facts.get("sea_credited", []) if f[2] == capacity), None)
    counted = law.counted_capacities(capacity)
    return sum(f[3] for f in facts.get("sea", []) if f[2] in counted)


def in_addition(law):
    """The sea-time requirements of the kb asked in addition to a Fahrzeit (crew:inAdditionTo; cached per law)."""
    return law.remembered("_in_addition", lambda: [r for r in law.requirements.values()
                                                   if r.kind == NAME and r.in_addition_to in law.requirements])


def apart_days(law, r, p) -> int | None:
    """The sea days a log credits on other calendar days than those the Fahrzeit `r` is added to needs: of the days
    credited inland (I) or at sea in the capacity (S), each once (U), the Fahrzeit takes as many days as it needs
    (at most I), inland-only days first, and the sea days left are the rest: min(S, U - min(I, minimum)). With that,
    the Fahrzeit's minimum and the sea minimum are met together exactly when the log has that many distinct days.
    None where the requirement is not asked in addition, or the log lacks inland or sea days (totals have no
    calendar: their days are taken as other days)."""
    if r.in_addition_to is None or p.with_sea_credited is None or r.capacity not in p.with_sea_credited:
        return None
    minimum = law.requirements[r.in_addition_to].minimum or 0
    inland, sea = p.any_role_days or 0, (p.sea_credited or {}).get(r.capacity, 0)
    return max(0, min(sea, p.with_sea_credited[r.capacity] - min(inland, minimum)))
