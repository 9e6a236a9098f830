"""CertificateHeld — one of the accepted certificates is held."""

NAME = "CertificateHeld"
ORDER = 70
CLAUSES = """
met(P, R) <= req_kind(R, 'CertificateHeld') & req_certificate(R, C) & holds(P, C)
"""
PREDICATES = {"req_certificate": 2}


def kb_facts(r):
    return [("req_certificate", r.id, c) for c in r.certificates]


def have(r, p, d, as_of):
    return [c for c in p.certificates if c in r.certificates]
