"""VocationalTraining — years of vocational training."""

NAME = "VocationalTraining"
ORDER = 41
CLAUSES = """
have(P, R, V) <= req_kind(R, 'VocationalTraining') & vocational(P, V)
"""
PREDICATES = {"vocational": 2}
