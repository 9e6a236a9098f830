"""Derived facts as RDF (issue 5): what the Datalog program concluded about each person, in the terms of
`ontology/derived.ttl`, with PROV-O provenance (provenance.py).

Nothing is decided here: the triples are a transcription of the eligibility answer (`answers.check`), so the
CLI, the JSON API and the graph never disagree. Each result says which evaluation generated it (evaluation
date, kb version = `load_law().version`), which provision states the rule (`crew:provision`), and what it rests
on (sub-results, and the person's record entries via `crew:basedOnRecord`). Every structural link
(`crew:hasPathwayResult`, `crew:hasRequirementResult`, `crew:hasSubResult`, `crew:basedOnRecord`) is asserted a
second time as plain `prov:wasDerivedFrom`, since a PROV tool does not read sub-property axioms.

Four summary triples make registers searchable by index rather than by reading every result: `crew:canBeIssued`
on an eligible result (the certificate), `crew:missingCount` on every pathway result, `crew:soleMissingItem` on a
pathway result that lacks a single exam, document, certificate or proof and nothing else, and `crew:daysShort` on a
day count that falls short.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from rdflib import Literal, URIRef
from rdflib.namespace import PROV, RDF, RDFS

from crewkg.law.namespaces import CREW, KB, PERSON
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind
from crewkg.service import provenance
from crewkg.service.derived_terms import (
    D,
    amount_literal,
    boolean_literal,
    eligibility_iri,
    evaluation_iri,
    pathway_iri,
    requirement_iri,
    role_iri,
)
from crewkg.service.provenance import Times, activity, entity, input_digest
from crewkg.service.records_rdf import credit_triples, record_nodes, record_triples
from crewkg.service.terms import Triple


# ------------------------------------------------------------------------------------------------------
def based_on(law: Law, rid: str, p: Person, nodes: dict[str, list[URIRef]]) -> list[URIRef]:
    """The record entries a requirement of this kind is decided on (provenance, not the decision)."""
    r = law.requirements[rid]
    k = kind(r.kind)
    if k.parts is not None:
        return []
    keys = k.based_on(law, r, nodes)
    found = [iri for k in keys for iri in nodes.get(k, [])]
    return found or [PERSON[p.id]]


def items_of(req: dict[str, Any]) -> tuple[list[URIRef], list[URIRef]] | None:
    """The items a requirement names, needed and held, as terms; None for a kind that names none."""
    k = kind(req["kind"])
    if k.items is None:
        return None
    from crewkg.records.turtle import exam_term

    # an exam of the ontology (crew:Anlage8) or a proof the kb defines (kb:Ergaenzungspruefung-SchBV-P47)
    term = exam_term if k.item_terms == "crew" else KB.__getitem__
    wanted, held = k.items(req)
    return [term(x) for x in wanted], [term(x) for x in held]


def sole_missing_item(missing: list[dict[str, Any]]) -> URIRef | None:
    """The one item whose absence alone keeps a pathway from being satisfied: its only missing requirement names
    items and lacks exactly one of them (crew:soleMissingItem). A register query starts from it, by index, instead
    of reading every pathway with one missing requirement."""
    items = items_of(missing[0]) if len(missing) == 1 else None
    if items is None:
        return None
    wanted, held = items[0], set(items[1])
    lacking = [x for x in dict.fromkeys(wanted) if x not in held]
    return lacking[0] if len(lacking) == 1 else None


def values(s: URIRef, req: dict[str, Any]) -> list[Triple]:
    """What a requirement needs and what the person has toward it: the items it names, the dates of an application
    period, or the amounts (with crew:daysShort where a day count falls short), and the day an age is reached."""
    out: list[Triple] = []
    needed, have = req.get("needed"), req.get("have")
    k = kind(req["kind"])
    items = items_of(req)
    if items is not None:  # a kind that names items (exams, certificates, a document)
        wanted, held = items
        out += [(s, D.neededItem, x) for x in wanted]
        out += [(s, D.haveItem, x) for x in held]
    elif k.unit == "date":  # an application period: its last day and the evaluation date
        out += [(s, prop, Literal(date.fromisoformat(v))) for prop, v in ((D.neededDate, needed), (D.haveDate, have)) if v]
    else:
        if needed is not None:
            out.append((s, D.neededAmount, amount_literal(needed)))
        if have is not None:
            out.append((s, D.haveAmount, amount_literal(have)))
        if k.unit == "days" and needed is not None and have is not None and needed > have:
            # a summary triple: a register query for the persons a few days short starts from it by index
            out.append((s, D.daysShort, Literal(int(needed - have))))
    if req.get("reached_on"):
        out.append((s, D.reachedOn, Literal(date.fromisoformat(req["reached_on"]))))
    return out


def _requirement(law: Law, pid: str, req: dict[str, Any], p: Person, nodes, ev: URIRef, missing: bool,
                 out: list[Triple], times: Times) -> URIRef:
    rid = req["id"]
    s = requirement_iri(pid, rid)
    out.append((s, RDF.type, D.MissingRequirement if missing else D.RequirementResult))
    out.append((s, D.forRequirement, KB[rid]))
    out.append((s, D.met, boolean_literal(req["met"])))
    out.append((s, CREW.provision, KB[law.requirements[rid].provision]))
    out += entity(s, ev, times)
    out.append((s, D.unit, Literal(req["unit"])))
    out += values(s, req)
    for child in req.get("alternatives") or req.get("parts") or []:
        c = _requirement(law, pid, child, p, nodes, ev, False, out, times)
        out += [(s, D.hasSubResult, c), (s, PROV.wasDerivedFrom, c)]
    for iri in based_on(law, rid, p, nodes):
        out += [(s, D.basedOnRecord, iri), (s, PROV.wasDerivedFrom, iri)]
    return s


def derived_triples(law: Law, p: Person, answer: dict[str, Any], times: Times | None = None) -> list[Triple]:
    """The derived facts of one person's eligibility answer (answers.person_answer) with provenance; `times` are
    when the evaluation ran (now, where not given)."""
    if times is None:
        now = provenance.now()
        times = (now, now)

    pid = p.id
    person = PERSON[pid]
    ev = evaluation_iri(pid)
    as_of = date.fromisoformat(answer["as_of"])
    out: list[Triple] = [
        (ev, RDF.type, D.Evaluation),
        (ev, D.evaluatedPerson, person),
        (ev, D.evaluationDate, Literal(as_of)),
        (ev, D.kbVersion, Literal(law.version)),
        (ev, D.inputDigest, input_digest(law, p, as_of)),
        (ev, PROV.used, person),
        *activity(ev, times),
        (ev, D.covered, boolean_literal(answer.get("covered", True))),
    ]
    reg = law.regulation_on(as_of)
    if reg is not None:
        out.append((ev, PROV.used, KB[reg.id]))
    if not answer.get("covered", True):
        out.append((ev, RDFS.comment, Literal(answer["reason"], lang="en")))
    nodes = record_nodes(p)
    out += credit_triples(law, p, as_of)
    for c in answer["certificates"]:
        out += _certificate_triples(law, p, c, nodes, ev, times)
    for role in answer["roles"]:
        out += role_triples(law, p, role, times)
    return out


def _certificate_triples(law: Law, p: Person, c: dict[str, Any], nodes, ev: URIRef, times: Times) -> list[Triple]:
    """One certificate of the answer: covered or why not, eligible, and each pathway with the requirements it rests on."""
    pid, person = p.id, PERSON[p.id]
    e = eligibility_iri(pid, c["id"])
    out: list[Triple] = [
        (e, RDF.type, D.EligibilityResult),
        (e, D.evaluatedPerson, person),
        (e, D.forCertificate, KB[c["id"]]),
        (e, CREW.provision, KB[law.certificates[c["id"]].provision]),
        *entity(e, ev, times),
        (e, D.covered, boolean_literal(c["covered"])),
    ]
    if not c["covered"]:
        out.append((e, RDFS.comment, Literal(c["reason"], lang="en")))
        return out
    out.append((e, D.eligible, boolean_literal(c["eligible"])))
    if c["eligible"]:
        out.append((e, D.canBeIssued, KB[c["id"]]))
    for w in c["pathways"]:
        ws = pathway_iri(pid, w["id"])
        out += [
            (ws, RDF.type, D.PathwayResult),
            (ws, D.forPathway, KB[w["id"]]),
            (ws, D.satisfied, boolean_literal(w["satisfied"])),
            (ws, D.missingCount, Literal(len(w["missing"]))),
            (ws, CREW.provision, KB[law.pathways[w["id"]].provision]),
            *entity(ws, ev, times),
            (e, D.hasPathwayResult, ws),
            (e, PROV.wasDerivedFrom, ws),
        ]
        sole = sole_missing_item(w["missing"])
        if sole is not None:
            out.append((ws, D.soleMissingItem, sole))
        # a satisfied pathway rests on all its requirements; one not satisfied on what is missing
        for req in (w["requirements"] if w["satisfied"] else w["missing"]):
            rs = _requirement(law, pid, req, p, nodes, ev, not w["satisfied"], out, times)
            out += [(ws, D.hasRequirementResult, rs), (ws, PROV.wasDerivedFrom, rs)]
    return out


#: a derivation graph's shapes (ontology/derived.ttl, crew:DerivationShape): the full one repeats on every result the
#: provision the kb gives its resource and the time its evaluation ended; the compact one (service/compact.py) does not
FULL, COMPACT = "full", "compact"


def role_triples(law: Law, p: Person, role: str, times: Times, shape: str = FULL) -> list[Triple]:
    """A role the person can fill, and the certificates held that grant it."""
    rc = role_iri(p.id, role)
    ev = evaluation_iri(p.id)
    out: list[Triple] = [
        (rc, RDF.type, D.RoleCapability),
        (rc, D.evaluatedPerson, PERSON[p.id]),
        (rc, D.forRole, KB[role]),
        *(entity(rc, ev, times) if shape == FULL else [(rc, PROV.wasGeneratedBy, ev)]),
        (rc, D.basedOnRecord, PERSON[p.id]),
        (rc, PROV.wasDerivedFrom, PERSON[p.id]),
    ]
    for cid in p.certificates:
        top = law.certificates[cid].role
        if top and (top == role or role in law.below(top)):
            out.append((rc, D.grantedBy, KB[cid]))
            if shape == FULL:
                out.append((rc, CREW.provision, KB[law.certificates[cid].provision]))
    return out


def evaluate(law: Law, persons: list[Person], as_of: date) -> Iterator[tuple[Person, list[Triple], list[Triple]]]:
    """Evaluate persons in one Datalog run; yield (person, record triples, derived triples) of the full shape."""
    from crewkg.answers.eligibility import person_answer
    from crewkg.rules.eligibility import derive

    # in English: the reasons of the answer become rdfs:comment literals tagged @en; no derived fact says since when
    # a certificate is issuable, so the answer is not asked that (answers.eligibility.check)
    started = provenance.now()
    d = derive(persons, law, as_of)
    answers = [person_answer(law, p, d, as_of, "en") for p in persons]
    times = (started, provenance.now())
    for p, answer in zip(persons, answers, strict=True):
        yield p, record_triples(p), derived_triples(law, p, answer, times)
