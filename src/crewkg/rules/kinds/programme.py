"""Programme — a completed approved programme (§ 132 SchFG) for the role, at least N months."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import number
from crewkg.records.dated import runs_to
from crewkg.rules.kinds.protocol import KindRole, NotAGroup, RequirementKind

NAME = "Programme"


class Programme(NotAGroup, RequirementKind):
    name = NAME
    order = 50
    role = KindRole.PROGRAMME

    measured = True
    clauses = """
have(P, R, V) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, V, W, A)
qualifying(P, R, G) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, M, W, A) & req_min(R, N) & (M >= N)
"""
    predicates = {"req_programme_for": 2, "programme": 7}

    def kb_facts(self, r):
        return [("req_programme_for", r.id, r.programme_for)] if r.programme_for else []

    def person_facts(self, p, law, as_of):
        """Every programme of the record (ProgrammeFahrzeit reads them too). One still running has completed nothing
        the law asks ("absolviert"): it has no months for the program, so neither it nor the days within it count
        yet."""
        return [("programme", p.id, i, g.role, g.months if g.completed else 0, g.sailing_days, g.sailing_days_after)
                for i, g in enumerate(p.programmes)]

    #: a programme's months and days reach the program only through comparisons with minimums: the months with this
    #: kind's, the days within, after, and within or after it with the ProgrammeFahrzeit kind's
    abstracted = ("programme",)

    def abstraction(self, facts, law):
        """Per programme of the record: its role, and which minimums its months, days within, days after and their
        sum reach."""
        from crewkg.rules.kinds import band, minima, with_role

        days = minima(law, with_role(KindRole.PROGRAMME_DAYS).name)
        out = []
        for _, _, g, role, months, within, after in sorted(facts.get("programme", []), key=lambda f: f[2]):
            both = None if within is None or after is None else within + after
            out.append((g, role, band(months, minima(law, NAME, programme_for=role)), band(within, days),
                        band(after, days), band(both, days)))
        return tuple(out)

    unit = "months"
    action = "complete_programme"

    def answer(self, law, r, p, d, as_of):
        from crewkg.rules.kinds import have_value as requirement_have

        out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "role": r.programme_for}
        # a running programme that will be long enough: the day it is completed, and its months so far
        running = [g for g in p.programmes if runs_to(g, r.programme_for, r.minimum)]
        if running and (out["have"] or 0) < (r.minimum or 0):
            g = min(running, key=lambda g: g.end)
            out |= {"programme_from": g.start.isoformat(), "programme_runs_until": g.end.isoformat(),
                    "months_so_far": g.months}
        return out

    have = None  # the months the program derived
    lowered_minima = None  # the record lowers no minimum

    messages = {}

    def missing(self, law, req, lang):
        """Said in the requirement's own words: an approved programme (§ 132 SchFG) under the SchBV, a completed
        apprenticeship under § 4 Abs. 2 Z 5 lit. a SchBesV 2004 — each label names its length. A programme still
        running counts only once completed, on its last day: that day is named."""
        r = law.requirements[req["id"]]
        what = r.label.get(lang) or r.label.get("de", r.id)
        if req.get("programme_runs_until"):
            return catalogue(lang)["programme_running"].format(what=what, start=req["programme_from"],
                                                               until=req["programme_runs_until"],
                                                               months=number(req["months_so_far"], lang))
        return catalogue(lang)["programme"].format(what=what, have=number(req["have"], lang))

    def facts(self, req, p, lang):
        return programmes_facts(p, lang)

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.Programme"].format(role=law.short_label(r.programme_for or "", lang),
                                                               n=r.minimum)

    item_terms = None  # names no items, an amount

    def based_on(self, law, r, nodes):
        return [f"programme:{r.programme_for}"]

    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # a programme takes months

    def project(self, ctx, state, it, prog, n):
        """Met by a completed programme; a new one (planned by the planner) and the record's running one are met on
        their last day, when they are completed."""
        if prog is not None and prog.running is not None:  # the record's running programme: met once completed
            n.met = bool(it.get("met")) or prog.completes <= state.t
            n.not_before = 0 if n.met else prog.completes
        elif prog is not None and prog.new:
            n.met = False
            n.not_before = prog.end
        else:
            n.met = True

    held_meets = None  # no certificate meets it
    lapsed = None  # a completed programme stays completed
    assume = None  # the projected record holds the planned programme itself (careers.planning)


def programmes_facts(p, lang) -> str:
    """The record's programmes, for `explain` (of this kind and of ProgrammeFahrzeit)."""
    t = catalogue(lang)
    progs = [t["cli.facts.programme"].format(role=g.role, months=g.months, within=g.sailing_days,
                                             after=g.sailing_days_after)
             for g in p.programmes]
    return t["kind.facts.programmes"].format(items="; ".join(progs) or t["none"])


def shown_scope(p, of, scope, have):
    """The record's qualifying programme (role and months the programme requirement `of` asks) whose scope
    (`scope(i)`: a key of the record's credits) credited the number an answer shows, as (index, programme, key);
    None where none did (the Datalog rule `qualifying` decides which count; this finds the one to explain)."""
    for i, g in enumerate(p.programmes):
        key = scope(i)
        if g.role == of.programme_for and g.completed and g.months >= (of.minimum or 0) and key in p.credits \
                and p.credits[key].credited == have:
            return i, g, key
    return None
