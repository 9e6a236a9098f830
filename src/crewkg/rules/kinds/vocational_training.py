"""VocationalTraining — years of vocational training."""

NAME = "VocationalTraining"
ORDER = 41
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'VocationalTraining') & vocational(P, V)
"""
PREDICATES = {"vocational": 2}
