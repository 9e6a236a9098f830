"""CertificateHeld — one of the accepted certificates is held (on the evaluation date: `rules.validity.held`)."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import value
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing


class CertificateHeld(NotAGroup, RequirementKind):
    name = "CertificateHeld"
    order = 70
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'CertificateHeld') & req_certificate(R, C) & holds(P, C)
# RULE held-kept — a qualification kept valid (§ 47 SchBV) that fills no role only because a reading extends the medical
# schedule in force to it is still held for what asks the qualification itself (its replacement asks its own fitness)
met(P, R) <= req_kind(R, 'CertificateHeld') & req_certificate(R, C) & holds_kept(P, C)
"""
    predicates = {"req_certificate": 2, "holds_kept": 2}

    def kb_facts(self, r):
        return [("req_certificate", r.id, c) for c in r.certificates]

    def person_facts(self, p, law, as_of):
        """holds(P, C) is a generic fact (rules.eligibility.person_facts: the can-fill rule reads it); the kept
        qualifications that fill no role only by a reading are held here too (`rules.validity.kept_by_reading`)."""
        from crewkg.rules.validity import kept_by_reading

        return [("holds_kept", p.id, c) for c in kept_by_reading(p, law, as_of)]
    abstracted = ()
    abstraction = None  # certificates are compared with no minimum

    unit = "certificates"
    action = "obtain_certificate"

    def answer(self, law, r, p, d, as_of):
        """Also the needed certificates the record holds that no longer count on the date (§ 47 SchBV, § 22 SchBV):
        the "no" then says the certificate is held but lapsed, not that it is missing."""
        from crewkg.rules.validity import lapses

        out = {"needed": list(r.certificates), "have": self.have(r, p, d, as_of)}
        lapsed = [c for c in p.certificates if c in r.certificates and c not in out["have"] and lapses(p, law, c, as_of)]
        return out | ({"lapsed": lapsed} if lapsed else {})

    def have(self, r, p, d, as_of):
        from crewkg.law.statute import load_law
        from crewkg.rules.validity import held, kept_by_reading

        law = load_law()
        return [c for c in held(p, as_of, law) + kept_by_reading(p, law, as_of) if c in r.certificates]

    lowered_minima = None  # no minimum

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import labels_or

        t = catalogue(lang)
        if req.get("lapsed"):
            others = [c for c in req["needed"] if c not in req["lapsed"]]
            return t["certificate.lapsed"].format(held=labels_or(law, req["lapsed"], lang)) + (
                t["certificate.lapsed_others"].format(items=labels_or(law, others, lang)) if others else "")
        return t["certificate"].format(items=labels_or(law, req["needed"], lang))

    def facts(self, req, p, lang):
        return catalogue(lang)["kind.facts.certificates"].format(items=value(p.certificates, lang))

    def summary(self, law, r, lang):
        t = catalogue(lang)
        certs = sorted(r.certificates, key=lambda c: c not in law.certificates or law.certificates[c].regulation is None)
        first = law.certificate_short(certs[0], lang)
        return t["kind.summary.CertificateHeld"].format(
            items=first if len(certs) < 2 else t["kind.summary.CertificateHeld.more"].format(item=first))

    #: the export names the needed and held items as terms of the kb
    item_terms = "kb"
    based_on = nothing  # the certificates held: the export names the person

    def items(self, req):
        """The needed and the held items, for the export."""
        return list(req["needed"]), list(req.get("have") or [])

    takes_time = True
    obtained_on_the_day = False  # a certificate is obtained by a step of its own

    def project(self, ctx, state, it, prog, n):
        """Met by a certificate held at the step's start (held before, or obtained on an earlier step of the route)."""
        n.item["have"] = [c for c in it["needed"] if c in state.held]
        n.met = bool(n.item["have"])
        if not n.met:
            n.blocked = "no_certificate"

    def held_meets(self, req, held):
        """Met by a certificate obtained on an earlier step of a route."""
        return any(c in held for c in req["needed"])

    lapsed = None  # not asked by the planner: the rules' verdict on the step's projected record decides
    assume = None  # the projected record holds the certificates of the earlier steps (careers.planning)
