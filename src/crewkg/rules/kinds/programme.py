"""Programme — a completed approved programme (§ 132 SchFG) for the role, at least N months."""

NAME = "Programme"
ORDER = 50
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, V, W, A)
qualifying(P, R, G) <= req_kind(R, 'Programme') & req_programme_for(R, Role) & programme(P, G, Role, M, W, A) & req_min(R, N) & (M >= N)
"""
PREDICATES = {"req_programme_for": 2, "programme": 7}


def kb_facts(r):
    return [("req_programme_for", r.id, r.programme_for)] if r.programme_for else []
