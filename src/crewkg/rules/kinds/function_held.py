"""FunctionHeld — one of the listed functions is held (e.g. a Befähigung as Schiffsmaschinenwärter under the DKBG)."""

from __future__ import annotations

from crewkg.messages.wording import value
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing

NAME = "FunctionHeld"


class FunctionHeld(NotAGroup, RequirementKind):
    name = NAME
    order = 75
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'FunctionHeld') & req_held_function(R, F) & holds_function(P, F)
"""
    predicates = {"req_held_function": 2, "holds_function": 2}

    def kb_facts(self, r):
        return [("req_held_function", r.id, f) for f in r.functions]

    def person_facts(self, p, law, as_of):
        return [("holds_function", p.id, f) for f in p.functions]

    abstracted = ()
    abstraction = None  # functions are compared with no minimum

    unit = "document"
    action = "obtain_function"

    def answer(self, law, r, p, d, as_of):
        return {"needed": list(r.functions), "have": self.have(r, p, d, as_of)}

    def have(self, r, p, d, as_of):
        return [f for f in p.functions if f in r.functions]

    lowered_minima = None  # no minimum

    messages = {
        "de": {"missing": "Befähigung fehlt: {items}", "summary": "{items}", "facts": "Befähigungen = {items}"},
        "en": {"missing": "qualification missing: {items}", "summary": "{items}", "facts": "functions = {items}"},
    }

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import labels_or, say

        return say(NAME, lang, "missing", items=labels_or(law, req["needed"], lang))

    def facts(self, req, p, lang):
        from crewkg.rules.kinds import say

        return say(NAME, lang, "facts", items=value(p.functions, lang))

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import labels_or, say

        return say(NAME, lang, "summary", items=labels_or(law, r.functions, lang))

    #: the export names the needed and held items as terms of the kb
    item_terms = "kb"
    based_on = nothing  # the functions of the record: the export names the person

    def items(self, req):
        """The needed and the held items, for the export."""
        return list(req["needed"]), list(req.get("have") or [])

    #: met on the step's date, without time of its own (the planner)
    takes_time = False
    # not begun on the day: what a replaced patent allowed (its scope, the § 30 proof the authority finds) is a fact
    # about the past no day gives
    obtained_on_the_day = False

    def project(self, ctx, state, it, prog, n):
        """Obtained outside these rules (a DKBG Befähigung): listed as remaining at the step."""
        n.at_step = not n.met

    held_meets = None  # no certificate meets it
    lapsed = None  # a function held stays held

    def assume(self, p, r, on):
        """Held from the step's date, as the plan assumes."""
        if r.functions and not any(f in p.functions for f in r.functions):
            p.functions = sorted(set(p.functions) | {r.functions[0]})
