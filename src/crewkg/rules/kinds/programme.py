"""Programme — a completed approved programme (§ 132 SchFG) for the role, at least N months."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import number

NAME = "Programme"
ORDER = 50
UNIT = "months"
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, V, W, A)
qualifying(P, R, G) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, M, W, A) & req_min(R, N) & (M >= N)
"""
PREDICATES = {"req_programme_for": 2, "programme": 7}
#: a programme's months and days reach the program only through comparisons with minimums: the months with this
#: kind's, the days within, after, and within or after it with the ProgrammeFahrzeit kind's
ABSTRACTED = ("programme",)


def abstraction(facts, law):
    """Per programme of the record: its role, and which minimums its months, days within, days after and their sum
    reach."""
    from crewkg.rules.kinds import band, minima

    days = minima(law, "ProgrammeFahrzeit")
    out = []
    for _, _, g, role, months, within, after in sorted(facts.get("programme", []), key=lambda f: f[2]):
        both = None if within is None or after is None else within + after
        out.append((g, role, band(months, minima(law, NAME, programme_for=role)), band(within, days),
                    band(after, days), band(both, days)))
    return tuple(out)


def kb_facts(r):
    return [("req_programme_for", r.id, r.programme_for)] if r.programme_for else []


def person_facts(p, law, as_of):
    """Every programme of the record (ProgrammeFahrzeit reads them too). One still running has completed nothing
    the law asks ("absolviert"): it has no months for the program, so neither it nor the days within it count yet."""
    return [("programme", p.id, i, g.role, g.months if g.completed else 0, g.sailing_days, g.sailing_days_after)
            for i, g in enumerate(p.programmes)]


def full_months(g) -> int:
    """The months a programme lasts from its first to its last day (a dated one still running: once completed)."""
    from datetime import timedelta

    from crewkg.law.crediting import completed_months

    if g.start is None or g.end is None:
        return g.months
    return completed_months(g.start, g.end + timedelta(days=1))


def runs_to(g, role: str | None, minimum: int | None) -> bool:
    """A programme of the record for `role`, still running, that will have `minimum` months once completed."""
    return g.role == role and not g.completed and full_months(g) >= (minimum or 0)


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


def answer(law, r, p, d, as_of):
    from crewkg.rules.kinds import have_value as requirement_have

    out = {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "role": r.programme_for}
    # a running programme that will be long enough: the day it is completed, and its months so far
    running = [g for g in p.programmes if runs_to(g, r.programme_for, r.minimum)]
    if running and (out["have"] or 0) < (r.minimum or 0):
        g = min(running, key=lambda g: g.end)
        out |= {"programme_from": g.start.isoformat(), "programme_runs_until": g.end.isoformat(), "months_so_far": g.months}
    return out


def missing(law, req, lang):
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


def facts(req, p, lang):
    t = catalogue(lang)
    progs = [t["cli.facts.programme"].format(role=g.role, months=g.months, within=g.sailing_days, after=g.sailing_days_after)
             for g in p.programmes]
    return t["kind.facts.programmes"].format(items="; ".join(progs) or t["none"])


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.Programme"].format(role=law.short_label(r.programme_for or "", lang), n=r.minimum)


def based_on(law, r, nodes):
    return [f"programme:{r.programme_for}"]


def project(ctx, state, it, prog, n):
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
