"""MinimumAge — 'das N. Lebensjahr vollendet'; age facts are completed years on the evaluation date."""

NAME = "MinimumAge"
ORDER = 10
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'MinimumAge') & age(P, V)
"""
PREDICATES = {"age": 2}


def have(r, p, d, as_of):
    values = d.have.get((p.id, r.id), [])
    return max(values) if values else None
