"""AllOf — every part of a group (counted: pyDatalog resolves negation inside recursion far slower)."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import RequirementKind, nothing


class AllOf(RequirementKind):
    name = "AllOf"
    order = 91
    role = None

    measured = False
    clauses = """
(n_parts[R] == len_(S)) <= part(R, S)
(n_parts_met[P, R] == len_(S)) <= part(R, S) & met(P, S)
met(P, R) <= req_kind(R, 'AllOf') & (n_parts[R] == N) & (n_parts_met[P, R] == N)
"""
    predicates = {"part": 2}

    def kb_facts(self, r):
        return [("part", r.id, c) for c in r.children]

    person_facts = nothing  # a person record gives a group no facts of its own
    abstracted = ()
    abstraction = None  # its parts' kinds abstract their own facts

    unit = "parts"
    action = None  # a group: its parts name the actions
    #: the answer key of the children
    parts = "parts"

    def needed(self, n_children: int) -> int:
        return n_children

    figures = None  # the entry counts its parts met
    answer = None  # the entry is made of its parts' (answers.eligibility.requirement_entry)
    have = None  # the parts met
    lowered_minima = None  # a group has no minimum of its own

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import missing_sentence

        t = catalogue(lang)
        inner = t["and"].join(missing_sentence(law, a, lang, cite=False) for a in req["parts"] if not a["met"])
        met = [a["text"] for a in req["parts"] if a["met"]]
        if met:  # say what already counts, so "one of" lines show how close each alternative is
            return t["all_of_met"].format(items=inner, met=t["and"].join(met))
        return t["all_of"].format(items=inner)

    facts = None  # decided on its parts' entries (explain lists them)

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import requirement_summary

        return catalogue(lang)["kind.summary.and"].join(requirement_summary(law, c, lang) for c in r.children)

    item_terms = None  # names no items
    based_on = None  # derived from its parts
    items = None  # names no items

    takes_time = True
    obtained_on_the_day = False
    project = None  # projected through its parts (careers.planning)
    held_meets = None  # met through its parts
    lapsed = None  # met through its parts
    assume = None  # each part assumes its own
