"""ProfessionalExperience — years of professional experience."""

NAME = "ProfessionalExperience"
ORDER = 40
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'ProfessionalExperience') & experience(P, V)
"""
PREDICATES = {"experience": 2}
