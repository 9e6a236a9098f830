"""MinimumAge — 'das N. Lebensjahr vollendet'; age facts are completed years on the evaluation date."""

from __future__ import annotations

from crewkg.law.calendar import birthday, completed_years
from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import KindRole, NotAGroup, RequirementKind, nothing

NAME = "MinimumAge"


class MinimumAge(NotAGroup, RequirementKind):
    name = NAME
    order = 10
    role = KindRole.AGE

    measured = True
    clauses = """
have(P, R, V) <= req_kind(R, 'MinimumAge') & age(P, V)
"""
    #: age(P, V) is a generic fact (rules.eligibility.person_facts): the role-age rule reads it too
    predicates = {"age": 2}
    kb_facts = nothing  # the minimum is the generic req_min
    person_facts = nothing  # the age is a generic fact (above)
    #: the age reaches the program only through comparisons with minimum ages: those of this kind's requirements,
    #: and the role ages of the hierarchy, which are minimums of the same requirements (rules.eligibility.role_ages)
    abstracted = ("age",)

    def abstraction(self, facts, law):
        """Which minimum ages of the kb the person has reached."""
        from crewkg.rules.kinds import bands

        return bands(facts, law, NAME, "age")

    unit = "years"
    action = "reach_age"

    def answer(self, law, r, p, d, as_of):
        out = {"needed": r.minimum, "have": self.have(r, p, d, as_of)}
        if p.birth_date is not None and r.minimum is not None:
            out["reached_on"] = birthday(p.birth_date, r.minimum).isoformat()
        return out

    def have(self, r, p, d, as_of):
        values = d.have.get((p.id, r.id), [])
        return max(values) if values else None

    lowered_minima = None  # the record lowers no minimum age

    messages = {}

    def missing(self, law, req, lang):
        t = catalogue(lang)
        if req.get("have") is None:
            return t["age_unknown"].format(needed=req["needed"])
        return t["age"].format(needed=req["needed"], have=req["have"], on=req.get("reached_on"))

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.age"].format(birth=p.birth_date, age=req["have"])

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.MinimumAge"].format(n=r.minimum)

    item_terms = None  # names no items, an age
    based_on = nothing  # the birth date: the export names the person
    items = None  # names no items, an age

    takes_time = True
    obtained_on_the_day = False  # a birthday comes when it comes

    def project(self, ctx, state, it, prog, n):
        """The age on the step's date; unmet until the birthday."""
        birth = ctx.person.birth_date if ctx.person else None
        if ctx.assume_age:
            n.met = True
        elif birth is None:
            n.blocked = "birth_unknown"
        else:
            n.item["have"] = completed_years(birth, ctx.date(state.t))
            n.met = n.item["have"] >= it["needed"]
            if not n.met:
                n.not_before = ctx.offset(birthday(birth, it["needed"]))

    held_meets = None  # no certificate meets it
    lapsed = None  # an age reached stays reached
    assume = None  # the projected record is evaluated on the step's date: its age is that day's
