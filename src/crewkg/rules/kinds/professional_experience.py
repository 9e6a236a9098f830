"""ProfessionalExperience — years of professional experience."""

NAME = "ProfessionalExperience"
ORDER = 40
CLAUSES = """
have(P, R, V) <= req_kind(R, 'ProfessionalExperience') & experience(P, V)
"""
PREDICATES = {"experience": 2}
