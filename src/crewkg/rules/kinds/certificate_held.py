"""CertificateHeld — one of the accepted certificates is held."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import value

NAME = "CertificateHeld"
ORDER = 70
UNIT = "certificates"
#: the export names the needed and held items as terms of the kb
ITEM_TERMS = "kb"
CLAUSES = """
met(P, R) <= req_kind(R, 'CertificateHeld') & req_certificate(R, C) & holds(P, C)
"""
PREDICATES = {"req_certificate": 2}


def kb_facts(r):
    return [("req_certificate", r.id, c) for c in r.certificates]


def have(r, p, d, as_of):
    return [c for c in held(p, as_of) if c in r.certificates]


def held(p, as_of, law=None):
    """The certificates held on the evaluation date: a dated one from the day it was issued, as long as the kb lets
    it count (crew:validUntil, e.g. § 47 SchBV for SchBesV 2004 qualifications; a validity period from the issue date,
    § 22 Abs. 2, 3 SchBV; the holder's medical proof not overdue, § 22 Abs. 1 SchBV): `crewkg.rules.validity`."""
    from crewkg.rules.validity import counts

    if law is None:
        from crewkg.law.statute import load_law

        law = load_law()
    return [c for c in p.certificates if counts(p, law, c, as_of)]


def answer(law, r, p, d, as_of):
    """Also the needed certificates the record holds that no longer count on the date (§ 47 SchBV, § 22 SchBV): the
    "no" then says the certificate is held but lapsed, not that it is missing."""
    from crewkg.rules.validity import lapses

    out = {"needed": list(r.certificates), "have": have(r, p, d, as_of)}
    lapsed = [c for c in p.certificates if c in r.certificates and c not in out["have"] and lapses(p, law, c, as_of)]
    return out | ({"lapsed": lapsed} if lapsed else {})


def missing(law, req, lang):
    from crewkg.rules.kinds import labels_or

    t = catalogue(lang)
    if req.get("lapsed"):
        others = [c for c in req["needed"] if c not in req["lapsed"]]
        return t["certificate.lapsed"].format(held=labels_or(law, req["lapsed"], lang)) + (
            t["certificate.lapsed_others"].format(items=labels_or(law, others, lang)) if others else "")
    return t["certificate"].format(items=labels_or(law, req["needed"], lang))


def facts(req, p, lang):
    return catalogue(lang)["kind.facts.certificates"].format(items=value(p.certificates, lang))


def summary(law, r, lang):
    t = catalogue(lang)
    certs = sorted(r.certificates, key=lambda c: c not in law.certificates or law.certificates[c].regulation is None)
    first = law.certificate_short(certs[0], lang)
    return t["kind.summary.CertificateHeld"].format(
        items=first if len(certs) < 2 else t["kind.summary.CertificateHeld.more"].format(item=first))


def project(ctx, state, it, prog, n):
    """Met by a certificate held at the step's start (held before, or obtained on an earlier step of the route)."""
    n.item["have"] = [c for c in it["needed"] if c in state.held]
    n.met = bool(n.item["have"])
    if not n.met:
        n.blocked = "no_certificate"


def items(req):
    """The needed and the held items, for the export."""
    return list(req["needed"]), list(req.get("have") or [])


def held_meets(req, held):
    """Met by a certificate obtained on an earlier step of a route."""
    return any(c in held for c in req["needed"])
