"""ProgrammeFahrzeit — Fahrzeit within / after / within or after 'this programme' (the qualifying one). The phases are
the ontology's (`law.phases`)."""

from __future__ import annotations

from crewkg.law.phases import AFTER, WITHIN, phase
from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import amount, count
from crewkg.records.dated import runs_to
from crewkg.rules.kinds.programme import programmes_facts, shown_scope
from crewkg.rules.kinds.protocol import KindRole, NotAGroup, RequirementKind

NAME = "ProgrammeFahrzeit"


class ProgrammeFahrzeit(NotAGroup, RequirementKind):
    name = NAME
    order = 51
    role = KindRole.PROGRAMME_DAYS

    measured = True
    clauses = """
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'WithinProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, V, A)
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'AfterProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, W, V)
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'WithinOrAfterProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, W, A) & ~programme_logged(P, G) & (V == W + A)
# with a service log, the days within or after a dated programme are credited together (the cap applies to them together)
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'WithinOrAfterProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme_from_on(P, G, V)
"""
    predicates = {"req_of_programme": 2, "req_phase": 2, "programme_logged": 2, "programme_from_on": 3}

    def kb_facts(self, r):
        facts = [("req_of_programme", r.id, r.of_programme)] if r.of_programme else []
        return facts + ([("req_phase", r.id, r.phase)] if r.phase else [])

    def person_facts(self, p, law, as_of):
        facts = []
        for i, g in enumerate(p.programmes):
            if g.within_or_after is not None:
                facts += [("programme_logged", p.id, i), ("programme_from_on", p.id, i, g.within_or_after)]
        return facts

    #: the credited days within or after a dated programme reach the program only through the threshold rule
    abstracted = ("programme_from_on",)

    def abstraction(self, facts, law):
        """Per dated programme: which minimums of this kind its credited days within or after it reach."""
        from crewkg.rules.kinds import band, minima

        return tuple(sorted((f[2], band(f[3], minima(law, NAME))) for f in facts.get("programme_from_on", [])))

    unit = "days"
    action = "serve_days"

    def answer(self, law, r, p, d, as_of):
        from crewkg.rules.kinds import credit_fields
        from crewkg.rules.kinds import have_value as requirement_have

        out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "phase": r.phase}
        if r.of_programme:
            out["role"] = law.requirements[r.of_programme].programme_for
            of = law.requirements[r.of_programme]
            # the dated programme the days are counted in: the qualifying one whose days the answer shows
            shown = shown_scope(p, of, lambda i: f"programme:{i}:{r.phase}", out["have"])
            if shown is not None:
                out |= credit_fields(p, shown[2], "inland", as_of)
            # days recorded in a programme of the role that does not count (yet): too short, or still running (not
            # completed); name them, not just 0
            days = phase(r.phase).days
            short = [g for g in p.programmes if g.role == of.programme_for
                     and (g.months < (of.minimum or 0) or not g.completed) and days(g) > 0]
            if not out["have"] and short:
                g = max(short, key=days)
                out["in_short_programme"] = days(g)
                if runs_to(g, of.programme_for, of.minimum):  # still running, long enough once completed
                    out["programme_runs_until"] = g.end.isoformat()
        return out

    have = None  # the days the program derived
    lowered_minima = None  # the record lowers no minimum

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import credit_gap

        role = law.label(req["role"], lang) if req.get("role") else ""
        t = catalogue(lang)
        if (req.get("in_short_programme") or 0) >= req["needed"] - req["have"] > 0:
            # the days are there, in a programme that does not count (yet): the gap is the programme, not the days
            key = "days_served_running" if req.get("programme_runs_until") else "days_served_short"
            return t[key].format(n=amount(req["in_short_programme"], "days", lang), role=role,
                                 needed=amount(req["needed"], "days", lang),
                                 until=req.get("programme_runs_until")) + credit_gap(req, lang)
        out = t[f"days_{req['phase']}"].format(n=count(req["needed"] - req["have"], "days", lang), role=role)
        if req.get("in_short_programme"):
            days = amount(req["in_short_programme"], "days", lang)
            if req.get("programme_runs_until"):
                out += t["days_in_running_programme"].format(n=days, until=req["programme_runs_until"])
            else:
                out += t["days_in_short_programme"].format(n=days)
        return out + credit_gap(req, lang)

    def facts(self, req, p, lang):
        return programmes_facts(p, lang)

    def summary(self, law, r, lang):
        return catalogue(lang)[f"kind.summary.{r.phase or WITHIN.id}"].format(n=r.minimum)

    item_terms = None  # names no items, an amount

    def based_on(self, law, r, nodes):
        return [f"programme:{law.requirements[r.of_programme].programme_for}"] if r.of_programme else []

    items = None  # names no items, an amount

    takes_time = True
    obtained_on_the_day = False  # days take days

    def project(self, ctx, state, it, prog, n):
        """Days within a new programme start at zero; days after a programme (or within or after a completed one)
        accrue from the step's start; days within a completed programme cannot be added."""
        ph = phase(it.get("phase"))
        new = prog is not None and prog.new
        have = it.get("have") or 0
        if new:  # a new programme starts at zero; the record's running one has its days so far
            n.item["have"] = ph.days(ctx.person.programmes[prog.running]) if prog.running is not None else 0
        elif ph is not WITHIN:
            n.item["have"] = have + state.credited  # every day from now on is after the completed programme
        n.met = n.item["have"] >= it["needed"]
        if not n.met:
            if new and ph is AFTER:
                n.after = it["needed"]
            elif new or ph is not WITHIN:
                n.sail = it["needed"] - n.item["have"]
            else:  # the planner then plans a new programme (careers.projection.plan_programme)
                n.blocked = "programme_days"

    held_meets = None  # no certificate meets it
    lapsed = None  # credited days stay credited
    assume = None  # the projected record holds the planned days themselves (careers.planning)
