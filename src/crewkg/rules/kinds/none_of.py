"""NoneOf — none of its alternatives is met: a route the text opens only where another is not open (§ 47 Abs. 4
letzter Satz SchBV: „Können die in Z 1 bis Z 3 geforderten Fahrzeiten nicht nachgewiesen werden“).

Each alternative is a requirement counted against a minimum (a measured kind's: days, months, years) or a group of
such requirements (AllOf). The kind is no group of the answer: it is met when every alternative is short — a part
whose count (the measured kinds' `have`) stays below its minimum and below the person's own lowered minimum
(`reduced_min`), the complement of what the threshold rule and the reduction rule call met. It reads no `met` and
negates nothing of the recursive `met`: `met` depending on itself through a negation is a program pyDatalog does not
resolve (a check would not end), and even a negation of a predicate apart from `met` in one of `met`'s rules made
every check two to three times slower (measured: 114 ms against 300 ms a person). A register's second stage, which
starts from the requirements met, takes this one's verdict from its first stage like any requirement that is no
group. A measured count the program derives for every person (the Fahrzeit kind's, 0 without days) is what it
compares; an alternative whose count is never derived would not be short."""

from __future__ import annotations

from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing

NAME = "NoneOf"


class NoneOf(NotAGroup, RequirementKind):
    name = NAME
    order = 72
    role = None

    measured = False
    clauses = """
# RULE none-of — an alternative (itself, if it is counted, or each part of its group) is short where its count stays
# below its minimum (and below the person's lowered minimum, where a reduction gives one); the requirement is met
# when every alternative is short. Counted, not negated: a negation in a rule of the recursive met slows every check
none_of_part(G, S) <= none_of(R, G) & part(G, S)
none_of_part(G, G) <= none_of(R, G) & req_min(G, N)
lowered(P, S) <= reduced_min(P, S, N)
short(P, S) <= none_of_part(G, S) & have(P, S, V) & req_min(S, N) & (V < N) & ~lowered(P, S)
short(P, S) <= none_of_part(G, S) & reduced_min(P, S, N) & have(P, S, V) & (V < N)
alt_short(P, G) <= none_of_part(G, S) & short(P, S)
(n_none_of_alts[R] == len_(G)) <= none_of(R, G)
(n_none_of_short[P, R] == len_(G)) <= none_of(R, G) & alt_short(P, G)
met(P, R) <= req_kind(R, 'NoneOf') & (n_none_of_alts[R] == K) & (n_none_of_short[P, R] == K)
"""
    predicates = {"none_of": 2, "part": 2, "reduced_min": 3}

    def kb_facts(self, r):
        return [("none_of", r.id, c) for c in r.children]

    person_facts = nothing  # reads what the measured kinds derive from the record
    abstracted = ()
    abstraction = None  # the measured kinds it reads abstract their own numbers

    unit = "alternatives"
    action = None  # nothing a person does meets it: days served only close it

    def answer(self, law, r, p, d, as_of):
        return {"needed": [], "have": self.have(r, p, d, as_of), "alternatives_named": list(r.children)}

    def have(self, r, p, d, as_of):
        """The alternatives the person shows on the date (none: the requirement is met), as the program found them."""
        return [c for c in r.children if (p.id, c) in d.met]

    lowered_minima = None  # no minimum of its own (its alternatives' are theirs)

    messages = {}

    def missing(self, law, req, lang):
        return catalogue(lang)["none_of"].format(items=_named(law, req.get("have") or [], lang))

    def facts(self, req, p, lang):
        t = catalogue(lang)
        return t["kind.facts.none_of"].format(items=_named(None, req.get("have") or [], lang) or t["kind.facts.none"])

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import requirement_summary

        t = catalogue(lang)
        return t["kind.summary.NoneOf"].format(items=t["kind.summary.or"].join(requirement_summary(law, c, lang)
                                                                                 for c in r.children))

    #: the export names the alternatives shown as terms of the kb
    item_terms = "kb"
    based_on = nothing  # what the measured kinds read of the record: the export names the person

    def items(self, req):
        """Nothing is needed; the alternatives shown, for the export."""
        return [], list(req.get("have") or [])

    #: decided on the step's date, without time of its own (the planner)
    takes_time = False
    obtained_on_the_day = False  # days served never open it again

    def project(self, ctx, state, it, prog, n):
        """Met while it is met on the evaluation date; days served on the route can only close it, and the rules,
        asked about each planned step on its own date, decide that: shown, it blocks the route."""
        n.met = bool(it.get("met"))
        if not n.met:
            n.blocked = "excluded"

    def held_meets(self, req, held):
        """No certificate meets it: as the check found it."""
        return bool(req.get("met"))

    lapsed = None  # not asked by the planner: the rules' verdict on the step's projected record decides
    assume = None  # the plan obtains nothing that it reads


def _named(law, ids: list[str], lang: str) -> str:
    """The alternatives by their labels (the law's), or by id without a law."""
    if law is None:
        from crewkg.law.statute import load_law

        law = load_law()
    return catalogue(lang)["or"].join(law.label(x, lang) for x in ids)
