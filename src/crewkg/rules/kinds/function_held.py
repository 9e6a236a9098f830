"""FunctionHeld — one of the listed functions is held (e.g. a Befähigung as Schiffsmaschinenwärter under the DKBG)."""

from __future__ import annotations

from crewkg.messages.wording import value

NAME = "FunctionHeld"
ORDER = 75
UNIT = "document"
#: the export names the needed and held items as terms of the kb
ITEM_TERMS = "kb"
#: met on the step's date, without time of its own (the planner)
TAKES_TIME = False
CLAUSES = """
met(P, R) <= req_kind(R, 'FunctionHeld') & req_held_function(R, F) & holds_function(P, F)
"""
PREDICATES = {"req_held_function": 2, "holds_function": 2}
MESSAGES = {
    "de": {"missing": "Befähigung fehlt: {items}", "summary": "{items}", "facts": "Befähigungen = {items}"},
    "en": {"missing": "qualification missing: {items}", "summary": "{items}", "facts": "functions = {items}"},
}


def kb_facts(r):
    return [("req_held_function", r.id, f) for f in r.functions]


def person_facts(p, law, as_of):
    return [("holds_function", p.id, f) for f in p.functions]


def have(r, p, d, as_of):
    return [f for f in p.functions if f in r.functions]


def answer(law, r, p, d, as_of):
    return {"needed": list(r.functions), "have": have(r, p, d, as_of)}


def missing(law, req, lang):
    from crewkg.rules.kinds import labels_or, say

    return say(NAME, lang, "missing", items=labels_or(law, req["needed"], lang))


def facts(req, p, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "facts", items=value(p.functions, lang))


def summary(law, r, lang):
    from crewkg.rules.kinds import labels_or, say

    return say(NAME, lang, "summary", items=labels_or(law, r.functions, lang))


def project(ctx, state, it, prog, n):
    """Obtained outside these rules (a DKBG Befähigung): listed as remaining at the step."""
    n.at_step = not n.met


def items(req):
    """The needed and the held items, for the export."""
    return list(req["needed"]), list(req.get("have") or [])


def assume(p, r, on):
    """Held from the step's date, as the plan assumes."""
    if r.functions and not any(f in p.functions for f in r.functions):
        p.functions = sorted(set(p.functions) | {r.functions[0]})
