"""AllOf — every part of a group (counted: pyDatalog resolves negation inside recursion far slower)."""

NAME = "AllOf"
ORDER = 91
CLAUSES = """
(n_parts[R] == len_(S)) <= part(R, S)
(n_parts_met[P, R] == len_(S)) <= part(R, S) & met(P, S)
met(P, R) <= req_kind(R, 'AllOf') & (n_parts[R] == N) & (n_parts_met[P, R] == N)
"""
PREDICATES = {"part": 2}


def kb_facts(r):
    return [("part", r.id, c) for c in r.children]
