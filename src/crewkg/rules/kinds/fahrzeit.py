"""Fahrzeit — in any deck role (§ 2 Z 3 SchBV: the sum over all roles) or served in a named role."""

NAME = "Fahrzeit"
ORDER = 20
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
(total_fahrzeit[P] == sum_(D, for_each=Role)) <= sailing(P, Role, D)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_any_role(R) & person(P) & (total_fahrzeit[P] == V)
have(P, R, V) <= req_kind(R, 'Fahrzeit') & req_served_as(R, Role) & sailing(P, Role, V)
"""
PREDICATES = {"req_served_as": 2, "req_any_role": 1, "sailing": 3}


def kb_facts(r):
    return [("req_served_as", r.id, r.served_as) if r.served_as else ("req_any_role", r.id)]
