"""CertificateNotHeld — none of the listed certificates is held (§ 47 Abs. 13 Z 4 SchBV: „sofern die Inhaberin bzw.
der Inhaber nicht auch ein Schiffsführerpatent D … besitzt“).

A condition the text sets as an exclusion, so it is a kind of its own rather than a reading of CertificateHeld: its
answer names the excluding certificates the person holds (`have`), and it is met when there are none. "Held" is
what CertificateHeld counts on the date (a lapsed certificate no longer excludes)."""

from __future__ import annotations

from crewkg.messages.wording import value

NAME = "CertificateNotHeld"
ORDER = 71
UNIT = "certificates"
#: the export names the excluding certificates held as terms of the kb
ITEM_TERMS = "kb"
#: decided on the step's date, without time of its own (the planner)
TAKES_TIME = False
# negation on a bound person: `person(P)` binds it, `excluded` reads only record facts (stratified below `met`)
CLAUSES = """
excluded(P, R) <= req_kind(R, 'CertificateNotHeld') & req_excluded(R, C) & holds(P, C)
met(P, R) <= person(P) & req_kind(R, 'CertificateNotHeld') & ~excluded(P, R)
"""
PREDICATES = {"req_excluded": 2}
MESSAGES = {
    "de": {"missing": "ausgeschlossen, solange auch {items} besessen wird", "summary": "nicht auch {items}",
           "facts": "Befähigungszeugnisse = {items}"},
    "en": {"missing": "excluded while {items} is held too", "summary": "not also {items}",
           "facts": "certificates = {items}"},
}


def kb_facts(r):
    return [("req_excluded", r.id, c) for c in r.excluded]


def have(r, p, d, as_of):
    """The excluding certificates the person holds on the date (none: the requirement is met)."""
    from crewkg.rules.kinds.certificate_held import held

    return [c for c in held(p, as_of) if c in r.excluded]


def answer(law, r, p, d, as_of):
    return {"needed": [], "have": have(r, p, d, as_of), "excluded": list(r.excluded)}


def _or(law, ids, lang):
    from crewkg.messages.catalogue import catalogue

    return catalogue(lang)["or"].join(law.label(c, lang) for c in ids)


def missing(law, req, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "missing", items=_or(law, req.get("have") or req.get("excluded") or [], lang))


def facts(req, p, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "facts", items=value(p.certificates, lang))


def summary(law, r, lang):
    from crewkg.rules.kinds import say

    return say(NAME, lang, "summary", items=_or(law, r.excluded, lang))


def project(ctx, state, it, prog, n):
    """Met while no excluding certificate is held at the step's start; one held blocks the route (no date ends it)."""
    n.item["have"] = [c for c in it.get("excluded", []) if c in state.held]
    n.met = not n.item["have"]
    if not n.met:
        n.blocked = "excluded_certificate"


def items(req):
    """Nothing is needed; the excluding certificates held, for the export."""
    return [], list(req.get("have") or [])


def held_meets(req, held):
    """A certificate obtained on the route never meets an exclusion; the requirement stands as the check found it."""
    return bool(req.get("met"))
