"""Crew checks as RDF: a vessel's minimum crew and whether a roster fills it, with every gap (crewkg.manning, the
`crewkg crew` call), transcribed like the eligibility answers (derived.py) under `derived/crew/<vessel>/<roster>`,
with PROV-O provenance."""

from __future__ import annotations

from datetime import date
from typing import Any

from rdflib import Literal, URIRef
from rdflib.namespace import PROV, RDF, RDFS

from crewkg.law.namespaces import CREW, KB
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service import provenance
from crewkg.service.derived_terms import DERIVED, FALSE, D, amount_literal, boolean_literal
from crewkg.service.provenance import activity, entity
from crewkg.service.records_rdf import record_triples
from crewkg.service.terms import Triple


def crew_check_iri(vessel_id: str, roster: str | None) -> URIRef:
    """The check of a vessel with a roster (its key, manning.vessels.roster_key: `<name>/<hash>`) or without one."""
    return DERIVED[f"crew/{vessel_id}/{roster or 'no-roster'}"]


def _provision_by_citation(law: Law) -> dict[str, str]:
    return {p.citation: p.id for p in law.provisions.values()}


def crew_check_triples(law: Law, answer: dict[str, Any], roster: str | None, persons: list[Person] | None,
                       lang: str = "de") -> list[Triple]:
    """The roster record (membership and each crew member's record) and the derived crew check of one
    `manning.crew.crew_answer` (in `lang`), with provenance; the check's IRI is deterministic per vessel and roster.
    `roster` is the roster's name (its file name); its IRIs are scoped by its content (manning.vessels.roster_key)."""
    from crewkg.manning.tables import MANNING
    from crewkg.manning.vessels import VESSEL_IRI, member_iri, roster_iri, roster_key

    by_citation = _provision_by_citation(law)
    key = roster_key(roster, persons) if roster is not None and persons is not None else None
    check = crew_check_iri(answer["vessel"], key)
    ev = URIRef(str(check) + "/evaluation")
    vessel = URIRef(VESSEL_IRI + answer["vessel"])
    now = provenance.now()
    times = (now, now)
    out: list[Triple] = [
        (ev, RDF.type, D.Evaluation),
        (ev, D.evaluationDate, Literal(date.fromisoformat(answer["as_of"]))),
        (ev, D.kbVersion, Literal(law.version)),
        (ev, PROV.used, vessel),
        *activity(ev, times),
        (check, RDF.type, D.CrewCheck),
        (check, D.checkedVessel, vessel),
        (check, PROV.wasDerivedFrom, vessel),
        *entity(check, ev, times),
        (check, D.covered, boolean_literal(answer.get("covered", False))),
    ]
    if answer.get("provision") in by_citation:
        out.append((check, CREW.provision, KB[by_citation[answer["provision"]]]))
    if not answer.get("covered") and answer.get("reason"):
        out.append((check, RDFS.comment, Literal(answer["reason"], lang="en")))
    result = answer.get("roster")
    if key is not None:
        r = roster_iri(key)
        out += [(ev, PROV.used, r), (check, D.checkedRoster, r), (check, PROV.wasDerivedFrom, r),
                (r, RDF.type, MANNING.Roster), (r, RDFS.label, Literal(roster))]
        for p in persons:
            member = member_iri(key, p.id)
            out.append((r, MANNING.hasCrewMember, member))
            out += record_triples(p, member)
    if result is not None:
        if result.get("satisfied") is not None:
            out.append((check, D.rosterSatisfied, boolean_literal(result["satisfied"])))
        for n, gap in enumerate(result.get("missing", []), start=1):
            g = URIRef(f"{check}/gap/{n}")
            out += [(g, RDF.type, D.CrewGap), (check, D.hasGap, g), (check, PROV.wasDerivedFrom, g), (g, D.met, FALSE),
                    *entity(g, ev, times),
                    (g, D.gapKind, Literal(gap.get("kind", ""))), (g, D.fillWith, Literal(gap.get("fill_with", ""), lang=lang))]
            if gap.get("role"):
                out.append((g, D.forRole, KB[gap["role"]]))
            if gap.get("provision") in by_citation:
                out.append((g, CREW.provision, KB[by_citation[gap["provision"]]]))
            if isinstance(gap.get("needed"), int):
                out.append((g, D.neededAmount, amount_literal(gap["needed"])))
            if isinstance(gap.get("have"), int):
                out.append((g, D.haveAmount, amount_literal(gap["have"])))
    return out


def crew_check_subjects(answer_vessel: str, roster: str | None, gaps: int = 64) -> list[URIRef]:
    check = crew_check_iri(answer_vessel, roster)
    return [check, URIRef(str(check) + "/evaluation")] + [URIRef(f"{check}/gap/{n}") for n in range(1, gaps + 1)]
