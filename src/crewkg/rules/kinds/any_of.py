"""AnyOf — alternatives inside one litera."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue

NAME = "AnyOf"
ORDER = 90
UNIT = "alternatives"
#: the answer key of the children, and how many of them must be met
PARTS = "alternatives"
CLAUSES = """
met(P, R) <= req_kind(R, 'AnyOf') & alternative(R, S) & met(P, S)
"""
PREDICATES = {"alternative": 2}


def kb_facts(r):
    return [("alternative", r.id, c) for c in r.children]


def needed(n_children: int) -> int:
    return 1


def figures(children: list[dict]) -> dict:
    """The unit, needed and have of the alternative that decides, the first one met: a litera with alternatives is
    answered in its own terms (§ 12 Z 2 lit. c SchBV: 360 days needed, 380 held), not as a count of alternatives;
    `decided_by` names it, `alternatives` keeps all. Where none is met, none decides: the entry counts the
    alternatives (needed 1, have 0) and each alternative says what it lacks."""
    decider = next((c for c in children if c["met"]), None)
    if decider is None:
        return {}
    return {"unit": decider["unit"], "needed": decider.get("needed"), "have": decider.get("have"),
            "decided_by": decider["id"]}


def missing(law, req, lang):
    from crewkg.rules.kinds import missing_sentence

    t = catalogue(lang)
    inner = [missing_sentence(law, a, lang, cite=False) for a in req["alternatives"]]
    return t["any_of"].format(items=t["or"].join(f"({x})" for x in inner))


def summary(law, r, lang):
    from crewkg.rules.kinds import requirement_summary

    return "(" + catalogue(lang)["kind.summary.or"].join(requirement_summary(law, c, lang) for c in r.children) + ")"
