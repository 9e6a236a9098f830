"""SeaTime — professional experience on a sea-going ship, in one capacity or in any."""

NAME = "SeaTime"
ORDER = 30
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
(total_sea[P] == sum_(D, for_each=C)) <= sea(P, C, D)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, 'AnyCapacity') & person(P) & (total_sea[P] == V)
have(P, R, V) <= req_kind(R, 'SeaTime') & req_capacity(R, C) & sea(P, C, V)
"""
PREDICATES = {"req_capacity": 2, "sea": 3}


def kb_facts(r):
    return [("req_capacity", r.id, r.capacity)] if r.capacity else []
