"""The terms of derived facts: the closed namespace of `ontology/derived.ttl` (`D`), the literals results carry, and
the deterministic identifiers of a person's derived resources. Every derived resource of a person lives under
`derived/<person id>/…`, named after the kb resource it evaluates, so re-exporting a person first removes every
subject that person's evaluation could have produced (`derived_subjects`: delete-before-insert) and never
accumulates stale or duplicate results."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rdflib import Literal, Namespace, URIRef
from rdflib.namespace import PROV, RDFS, XSD, DefinedNamespace

from crewkg.answers import identifiers as ids
from crewkg.answers.identifiers import DERIVED_IRI
from crewkg.law.namespaces import CREW_IRI, KB, PERSON
from crewkg.law.statute import Law

DERIVED = Namespace(DERIVED_IRI)

#: the prefixes of an export, every one declared in its Turtle (a PROV reader turns IRIs into qualified names by
#: them); here, below both the export and its streamed writer, which each declare them
PREFIXES = {"crew": CREW_IRI, "kb": str(KB), "person": str(PERSON), "derived": DERIVED_IRI, "prov": str(PROV),
            "xsd": str(XSD), "rdfs": str(RDFS)}


class D(DefinedNamespace):
    """The terms of ontology/derived.ttl (closed: a typo fails at import)."""

    _NS = Namespace(CREW_IRI)
    _fail = True

    Evaluation: URIRef
    DerivedResult: URIRef
    EligibilityResult: URIRef
    PathwayResult: URIRef
    RequirementResult: URIRef
    MissingRequirement: URIRef
    RoleCapability: URIRef
    Engine: URIRef
    CrewkgEngine: URIRef
    evaluatedPerson: URIRef
    forCertificate: URIRef
    forPathway: URIRef
    forRequirement: URIRef
    forRole: URIRef
    grantedBy: URIRef
    hasPathwayResult: URIRef
    hasRequirementResult: URIRef
    hasSubResult: URIRef
    basedOnRecord: URIRef
    evaluationDate: URIRef
    kbVersion: URIRef
    inputDigest: URIRef
    eligible: URIRef
    covered: URIRef
    satisfied: URIRef
    met: URIRef
    neededAmount: URIRef
    haveAmount: URIRef
    unit: URIRef
    neededItem: URIRef
    haveItem: URIRef
    reachedOn: URIRef
    neededDate: URIRef
    haveDate: URIRef
    canBeIssued: URIRef
    missingCount: URIRef
    soleMissingItem: URIRef
    daysShort: URIRef
    CrewCheck: URIRef
    CrewGap: URIRef
    checkedVessel: URIRef
    checkedRoster: URIRef
    hasGap: URIRef
    rosterSatisfied: URIRef
    gapKind: URIRef
    fillWith: URIRef
    creditedFrom: URIRef
    recordedDays: URIRef
    notValidatedDays: URIRef
    cappedDays: URIRef
    DerivationShape: URIRef
    CompactDerivations: URIRef
    FullDerivations: URIRef
    derivationShape: URIRef
    HoldingResult: URIRef
    heldCertificate: URIRef
    counts: URIRef
    lapseReason: URIRef
    lapsedSince: URIRef
    countedUntil: URIRef
    storeVersion: URIRef


TRUE = Literal(True)
FALSE = Literal(False)


def boolean_literal(v: bool) -> Literal:
    return TRUE if v else FALSE


def amount_literal(v: Any) -> Literal:
    if isinstance(v, bool):
        return Literal(int(v), datatype=XSD.integer)
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        return Literal(int(v), datatype=XSD.integer)
    return Literal(Decimal(str(v)), datatype=XSD.decimal)


# ------------------------------------------------------------------------------------------------------
# Identifiers: as terms, the strings of answers.identifiers (their one home)
# ------------------------------------------------------------------------------------------------------
def person_iri(pid: str) -> URIRef:
    return URIRef(ids.person(pid))


def evaluation_iri(pid: str) -> URIRef:
    return URIRef(ids.evaluation(pid))


def eligibility_iri(pid: str, cert: str) -> URIRef:
    return URIRef(ids.eligibility(pid, cert))


def pathway_iri(pid: str, pathway: str) -> URIRef:
    return URIRef(ids.pathway(pid, pathway))


def requirement_iri(pid: str, req: str) -> URIRef:
    return URIRef(ids.requirement(pid, req))


def role_iri(pid: str, role: str) -> URIRef:
    return URIRef(ids.role(pid, role))


def held_iri(pid: str, cert: str) -> URIRef:
    return DERIVED[f"{pid}/held/{cert}"]


def derived_subjects(law: Law, pid: str) -> list[URIRef]:
    """Every subject an evaluation of this person can produce (the deterministic IRI scheme), so a
    re-export can remove the old results by index lookups instead of scanning the store."""
    out = [evaluation_iri(pid)]
    out += [eligibility_iri(pid, c) for c in law.certificates]
    out += [pathway_iri(pid, w) for w in law.pathways]
    out += [requirement_iri(pid, r) for r in law.requirements]
    out += [role_iri(pid, t.id) for t in law.terms.values() if "Role" in t.kinds]
    out += [held_iri(pid, c) for c in law.certificates]
    return out
