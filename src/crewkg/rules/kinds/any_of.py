"""AnyOf — alternatives inside one litera."""

NAME = "AnyOf"
ORDER = 90
CLAUSES = """
met(P, R) <= req_kind(R, 'AnyOf') & alternative(R, S) & met(P, S)
"""
PREDICATES = {"alternative": 2}


def kb_facts(r):
    return [("alternative", r.id, c) for c in r.children]
