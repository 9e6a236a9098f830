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
    """Every programme of the record (ProgrammeFahrzeit reads them too)."""
    return [("programme", p.id, i, g.role, g.months, g.sailing_days, g.sailing_days_after)
            for i, g in enumerate(p.programmes)]


def shown_scope(p, of, scope, have):
    """The record's qualifying programme (role and months the programme requirement `of` asks) whose scope
    (`scope(i)`: a key of the record's credits) credited the number an answer shows, as (index, programme, key);
    None where none did (the Datalog rule `qualifying` decides which count; this finds the one to explain)."""
    for i, g in enumerate(p.programmes):
        key = scope(i)
        if g.role == of.programme_for and g.months >= (of.minimum or 0) and key in p.credits \
                and p.credits[key].credited == have:
            return i, g, key
    return None


def answer(law, r, p, d, as_of):
    from crewkg.rules.kinds import have_value as requirement_have

    return {"needed": r.minimum, "have": requirement_have(r, p, d, as_of), "role": r.programme_for}


def missing(law, req, lang):
    """Said in the requirement's own words: an approved programme (§ 132 SchFG) under the SchBV, a completed
    apprenticeship under § 4 Abs. 2 Z 5 lit. a SchBesV 2004 — each label names its length."""
    r = law.requirements[req["id"]]
    return catalogue(lang)["programme"].format(what=r.label.get(lang) or r.label.get("de", r.id),
                                               have=number(req["have"], lang))


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
    """Met by a completed programme; a new one (planned by the planner) is met on its last day, the record's running
    one on the day its completed months reach the minimum."""
    if prog is not None and prog.running is not None:  # the record's running programme: met once long enough
        n.met = bool(it.get("met")) or prog.long_enough <= state.t
        n.not_before = 0 if n.met else prog.long_enough
    elif prog is not None and prog.new:
        n.met = False
        n.not_before = prog.end
    else:
        n.met = True
