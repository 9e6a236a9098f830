"""ProgrammeFahrzeit — Fahrzeit within / after / within or after 'this programme' (the qualifying one)."""

NAME = "ProgrammeFahrzeit"
ORDER = 51
#: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
MEASURED = True
CLAUSES = """
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'WithinProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, V, A)
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'AfterProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, W, V)
have(P, R, V) <= req_kind(R, 'ProgrammeFahrzeit') & req_phase(R, 'WithinOrAfterProgramme') & req_of_programme(R, Q) & qualifying(P, Q, G) & programme(P, G, Role, M, W, A) & (V == W + A)
"""
PREDICATES = {"req_of_programme": 2, "req_phase": 2}


def kb_facts(r):
    facts = [("req_of_programme", r.id, r.of_programme)] if r.of_programme else []
    return facts + ([("req_phase", r.id, r.phase)] if r.phase else [])
