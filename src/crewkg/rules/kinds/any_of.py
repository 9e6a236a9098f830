"""AnyOf — alternatives inside one litera."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import RequirementKind, nothing

#: the units of the alternatives whose figures can stand for a litera none of whose alternatives is met
COUNTED = ("days", "months", "years")


class AnyOf(RequirementKind):
    name = "AnyOf"
    order = 90
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'AnyOf') & alternative(R, S) & met(P, S)
"""
    predicates = {"alternative": 2}

    def kb_facts(self, r):
        return [("alternative", r.id, c) for c in r.children]

    person_facts = nothing  # a person record gives a group no facts of its own
    abstracted = ()
    abstraction = None  # its alternatives' kinds abstract their own facts

    unit = "alternatives"
    action = None  # a group: its parts name the actions
    #: the answer key of the children
    parts = "alternatives"

    def needed(self, n_children: int) -> int:
        return 1

    def figures(self, children: list[dict]) -> dict:
        """The unit, needed and have a litera with alternatives is answered in: its own terms, not a count of
        alternatives. Where one is met, the first one met decides (§ 12 Z 2 lit. c SchBV: 360 days needed, 380
        held), named by `decided_by`. Where none is met, the first alternative counted in days, months or years gives
        the figures (`figures_of`), so the answer says the gap as the contract does for every numeric requirement
        (360 days needed, 359 credited); without such an alternative the entry counts the alternatives (needed 1,
        have 0). `alternatives` keeps all, each saying what it lacks and, for days, how many were recorded, not
        validated and capped (said once, there: the report's and the text's lines of credited days read them)."""
        decider = next((c for c in children if c["met"]), None)
        if decider is not None:
            if not _amount(decider.get("needed")):  # an exam or an exclusion decided it: the count of alternatives stays
                return {"decided_by": decider["id"]}
            return {"unit": decider["unit"], "needed": decider.get("needed"), "have": decider.get("have"),
                    "decided_by": decider["id"]}
        counted = next((c for c in children if c.get("unit") in COUNTED and _amount(c.get("needed"))), None)
        if counted is None:
            return {}
        return {"unit": counted["unit"], "needed": counted["needed"], "have": counted.get("have"),
                "figures_of": counted["id"]}

    answer = None  # the entry is made of its alternatives' (answers.eligibility.requirement_entry)
    have = None  # the alternatives met
    lowered_minima = None  # a group has no minimum of its own

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import missing_sentence

        t = catalogue(lang)
        inner = [missing_sentence(law, a, lang, cite=False) for a in req["alternatives"]]
        return t["any_of"].format(items=t["or"].join(f"({x})" for x in inner))

    facts = None  # decided on its alternatives' entries (explain lists them)

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import requirement_summary

        return "(" + catalogue(lang)["kind.summary.or"].join(requirement_summary(law, c, lang) for c in r.children) + ")"

    item_terms = None  # names no items
    based_on = None  # derived from its alternatives
    items = None  # names no items

    takes_time = True
    obtained_on_the_day = False
    project = None  # projected through its alternatives (careers.planning)
    held_meets = None  # met through its alternatives
    lapsed = None  # met through its alternatives
    assume = None  # each alternative assumes its own


def _amount(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
