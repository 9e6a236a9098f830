"""NotHeld — none of the listed certificates or functions is held (§ 47 Abs. 13 Z 4 SchBV: „sofern die Inhaberin
bzw. der Inhaber nicht auch ein Schiffsführerpatent D … besitzt“; § 47 Abs. 9, 11 SchBV: a Kapitänspatent „die einer
Einschränkung des örtlichen Geltungsbereichs unterliegen“, stated as a function of the record).

A condition the text sets as an exclusion, so it is a kind of its own rather than a reading of CertificateHeld or
FunctionHeld: its answer names the excluding items the person holds (`have`), and it is met when there are none.
"Held" is what those kinds count on the date (a lapsed certificate no longer excludes)."""

from __future__ import annotations

from crewkg.messages.wording import value
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing

NAME = "NotHeld"


class NotHeld(NotAGroup, RequirementKind):
    name = NAME
    order = 71
    role = None

    measured = False
    # negation on a bound person: `person(P)` binds it, `excluded` reads only record facts (stratified below `met`)
    clauses = """
excluded(P, R) <= req_kind(R, 'NotHeld') & req_excluded(R, C) & holds(P, C)
excluded(P, R) <= req_kind(R, 'NotHeld') & req_excluded(R, C) & holds_function(P, C)
met(P, R) <= person(P) & req_kind(R, 'NotHeld') & ~excluded(P, R)
"""
    predicates = {"req_excluded": 2, "holds_function": 2}

    def kb_facts(self, r):
        return [("req_excluded", r.id, c) for c in r.excluded]

    person_facts = nothing  # reads the generic holds facts and FunctionHeld's holds_function
    abstracted = ()
    abstraction = None  # certificates and functions are compared with no minimum

    unit = "document"
    action = None  # no action of the person meets it

    def answer(self, law, r, p, d, as_of):
        return {"needed": [], "have": self.have(r, p, d, as_of), "excluded": list(r.excluded)}

    def have(self, r, p, d, as_of):
        """The excluding certificates and functions the person holds on the date (none: the requirement is met)."""
        from crewkg.rules.validity import held

        return [c for c in held(p, as_of) if c in r.excluded] + [f for f in p.functions if f in r.excluded]

    lowered_minima = None  # no minimum

    messages = {
        "de": {"missing": "ausgeschlossen durch: {items}", "summary": "nicht: {items}",
               "facts": "Befähigungszeugnisse = {certificates}; Befähigungen = {functions}"},
        "en": {"missing": "excluded by: {items}", "summary": "not: {items}",
               "facts": "certificates = {certificates}; functions = {functions}"},
    }

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import labels_or, say

        return say(NAME, lang, "missing", items=labels_or(law, req.get("have") or req.get("excluded") or [], lang))

    def facts(self, req, p, lang):
        from crewkg.rules.kinds import say

        return say(NAME, lang, "facts", certificates=value(p.certificates, lang), functions=value(p.functions, lang))

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import labels_or, say

        return say(NAME, lang, "summary", items=labels_or(law, r.excluded, lang))

    #: the export names the excluding items held as terms of the kb
    item_terms = "kb"
    based_on = nothing  # the certificates and functions of the record: the export names the person

    def items(self, req):
        """Nothing is needed; the excluding items held, for the export."""
        return [], list(req.get("have") or [])

    #: decided on the step's date, without time of its own (the planner)
    takes_time = False
    obtained_on_the_day = False  # an exclusion held is not undone by any day

    def project(self, ctx, state, it, prog, n):
        """Met while nothing excluding is held at the step's start (a certificate held before or obtained on an
        earlier step; a function as the record states it); held, it blocks the route (no date ends it)."""
        functions = [x for x in it.get("have", []) if x not in ctx.law.certificates]
        n.item["have"] = [c for c in it.get("excluded", []) if c in ctx.law.certificates and c in state.held] + functions
        n.met = not n.item["have"]
        if not n.met:
            n.blocked = "excluded"

    def held_meets(self, req, held):
        """Met as the check found it, unless a certificate obtained on the route excludes it."""
        return bool(req.get("met")) and not set(req.get("excluded") or []) & set(held)

    lapsed = None  # not asked by the planner: the rules' verdict on the step's projected record decides
    assume = None  # the plan obtains nothing that excludes
