"""AllOf — every part of a group (counted: pyDatalog resolves negation inside recursion far slower)."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue

NAME = "AllOf"
ORDER = 91
UNIT = "parts"
#: the answer key of the children, and how many of them must be met
PARTS = "parts"
CLAUSES = """
(n_parts[R] == len_(S)) <= part(R, S)
(n_parts_met[P, R] == len_(S)) <= part(R, S) & met(P, S)
met(P, R) <= req_kind(R, 'AllOf') & (n_parts[R] == N) & (n_parts_met[P, R] == N)
"""
PREDICATES = {"part": 2}


def kb_facts(r):
    return [("part", r.id, c) for c in r.children]


def needed(n_children: int) -> int:
    return n_children


def missing(law, req, lang):
    from crewkg.rules.kinds import missing_sentence

    t = catalogue(lang)
    inner = t["and"].join(missing_sentence(law, a, lang, cite=False) for a in req["parts"] if not a["met"])
    met = [a["text"] for a in req["parts"] if a["met"]]
    if met:  # say what already counts, so "one of" lines show how close each alternative is
        return t["all_of_met"].format(items=inner, met=t["and"].join(met))
    return t["all_of"].format(items=inner)


def summary(law, r, lang):
    from crewkg.rules.kinds import requirement_summary

    return catalogue(lang)["kind.summary.and"].join(requirement_summary(law, c, lang) for c in r.children)
