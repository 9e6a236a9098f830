"""Exam — every listed exam passed."""

NAME = "Exam"
ORDER = 60
CLAUSES = """
met(P, R) <= req_kind(R, 'Exam') & person(P) & ~exam_lacking(P, R)
exam_lacking(P, R) <= person(P) & req_exam(R, E) & ~exam(P, E)
"""
PREDICATES = {"req_exam": 2, "exam": 2}


def kb_facts(r):
    return [("req_exam", r.id, e) for e in r.exams]


def have(r, p, d, as_of):
    return [e for e in p.exams if e in r.exams]
