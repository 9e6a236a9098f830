"""NotHeld — none of the listed certificates or functions is held (§ 47 Abs. 13 Z 4 SchBV: „sofern die Inhaberin
bzw. der Inhaber nicht auch ein Schiffsführerpatent D … besitzt“; § 47 Abs. 9, 11 SchBV: a Kapitänspatent „die einer
Einschränkung des örtlichen Geltungsbereichs unterliegen“, stated as a function of the record).

A condition the text sets as an exclusion, so it is a kind of its own rather than a reading of CertificateHeld or
FunctionHeld: its answer names the excluding items the person holds (`have`), and it is met when there are none.
"Held" is what those kinds count on the date (a lapsed certificate no longer excludes)."""

from __future__ import annotations

from crewkg.messages.wording import value

NAME = "NotHeld"
ORDER = 71
UNIT = "document"
#: the export names the excluding items held as terms of the kb
ITEM_TERMS = "kb"
#: decided on the step's date, without time of its own (the planner)
TAKES_TIME = False
# negation on a bound person: `person(P)` binds it, `excluded` reads only record facts (stratified below `met`)
CLAUSES = """
excluded(P, R) <= req_kind(R, 'NotHeld') & req_excluded(R, C) & holds(P, C)
excluded(P, R) <= req_kind(R, 'NotHeld') & req_excluded(R, C) & holds_function(P, C)
met(P, R) <= person(P) & req_kind(R, 'NotHeld') & ~excluded(P, R)
"""
PREDICATES = {"req_excluded": 2, "holds_function": 2}
MESSAGES = {
    "de": {"missing": "ausgeschlossen durch: {items}", "summary": "nicht: {items}",
           "facts": "Befähigungszeugnisse = {certificates}; Befähigungen = {functions}"},
    "en": {"missing": "excluded by: {items}", "summary": "not: {items}",
           "facts": "certificates = {certificates}; functions = {functions}"},
}


def kb_facts(r):
    return [("req_excluded", r.id, c) for c in r.excluded]


def have(r, p, d, as_of):
    """The excluding certificates and functions the person holds on the date (none: the requirement is met)."""
    from crewkg.rules.kinds.certificate_held import held

    return [c for c in held(p, as_of) if c in r.excluded] + [f for f in p.functions if f in r.excluded]


def answer(law, r, p, d, as_of):
    return {"needed": [], "have": have(r, p, d, as_of), "excluded": list(r.excluded)}


def missing(law, req, lang):
    from crewkg.rules.kinds import labels_or, say

    return say(NAME, lang, "missing", items=labels_or(law, req.get("have") or req.get("excluded") or [], lang))


def facts(req, p, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "facts", certificates=value(p.certificates, lang), functions=value(p.functions, lang))


def summary(law, r, lang):
    from crewkg.rules.kinds import labels_or, say

    return say(NAME, lang, "summary", items=labels_or(law, r.excluded, lang))


def project(ctx, state, it, prog, n):
    """Met while nothing excluding is held at the step's start (a certificate held before or obtained on an earlier
    step; a function as the record states it); held, it blocks the route (no date ends it)."""
    functions = [x for x in it.get("have", []) if x not in ctx.law.certificates]
    n.item["have"] = [c for c in it.get("excluded", []) if c in ctx.law.certificates and c in state.held] + functions
    n.met = not n.item["have"]
    if not n.met:
        n.blocked = "excluded"


def items(req):
    """Nothing is needed; the excluding items held, for the export."""
    return [], list(req.get("have") or [])


def held_meets(req, held):
    """Met as the check found it, unless a certificate obtained on the route excludes it."""
    return bool(req.get("met")) and not set(req.get("excluded") or []) & set(held)
