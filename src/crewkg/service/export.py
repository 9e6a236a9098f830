"""Derived facts as RDF (issue 5): what the Datalog program concluded about each person, in the terms of
`ontology/derived.ttl`, with PROV-O provenance.

Nothing is decided here: the triples are a transcription of the eligibility answer (`answers.check`), so the
CLI, the JSON API and the graph never disagree. Each result says which evaluation generated it (evaluation
date, kb version = `load_law().version`), which provision states the rule (`crew:provision`), and what it rests
on (sub-results, and the person's record entries via `crew:basedOnRecord`).

Identifiers are deterministic: every derived resource of a person lives under `derived/<person id>/…`, named
after the kb resource it evaluates. Re-exporting a person therefore first removes every subject that person's
evaluation could have produced (delete-before-insert) and never accumulates stale or duplicate results.
Record entries that person records write as blank nodes (sailing, sea, programme entries) get stable IRIs
under `person/<id>/…` here, so provenance can point at them.

A PROV reader without crewkg's ontology sees the same chain: every result is a `prov:Entity` generated
(`prov:generatedAtTime`) by its evaluation, a `prov:Activity` with `prov:startedAtTime`/`prov:endedAtTime` (the
wall-clock run; `crew:evaluationDate` is the legal date the answer is for), and every structural link
(`crew:hasPathwayResult`, `crew:hasRequirementResult`, `crew:hasSubResult`, `crew:basedOnRecord`) is asserted a
second time as plain `prov:wasDerivedFrom`, since a PROV tool does not read sub-property axioms.

An evaluation carries the digest of everything it read (`crew:inputDigest`: the record as read, the evaluation
date, the kb version and crewkg's version), so a re-export into a store can keep the facts of a person for whom
none of it changed (`service.sparql.put_persons`).

Four summary triples make registers searchable by index rather than by reading every result: `crew:canBeIssued`
on an eligible result (the certificate), `crew:missingCount` on every pathway result, `crew:soleMissingItem` on a
pathway result that lacks a single exam, document, certificate or proof and nothing else, and `crew:daysShort` on a
day count that falls short. Crew checks
(crewkg.manning: a vessel's minimum crew and the verdict on a roster, with every gap) are transcribed the same
way under `derived/crew/<vessel>/<roster>`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import PROV, RDF, RDFS, XSD, DefinedNamespace

from crewkg.law.namespaces import CREW, CREW_IRI, KB, PERSON
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind

DERIVED_IRI = "https://w3id.org/crewkg/derived/"
DERIVED = Namespace(DERIVED_IRI)

Triple = tuple[URIRef, URIRef, URIRef | Literal]


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


TRUE = Literal(True)
FALSE = Literal(False)


def _bool(v: bool) -> Literal:
    return TRUE if v else FALSE


def _amount(v: Any) -> Literal:
    if isinstance(v, bool):
        return Literal(int(v), datatype=XSD.integer)
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        return Literal(int(v), datatype=XSD.integer)
    return Literal(Decimal(str(v)), datatype=XSD.decimal)


# ------------------------------------------------------------------------------------------------------
# Identifiers
# ------------------------------------------------------------------------------------------------------
def person_iri(pid: str) -> URIRef:
    return PERSON[pid]


def evaluation_iri(pid: str) -> URIRef:
    return DERIVED[f"{pid}/evaluation"]


def eligibility_iri(pid: str, cert: str) -> URIRef:
    return DERIVED[f"{pid}/eligibility/{cert}"]


def pathway_iri(pid: str, pathway: str) -> URIRef:
    return DERIVED[f"{pid}/pathway/{pathway}"]


def requirement_iri(pid: str, req: str) -> URIRef:
    return DERIVED[f"{pid}/requirement/{req}"]


def role_iri(pid: str, role: str) -> URIRef:
    return DERIVED[f"{pid}/role/{role}"]


def derived_subjects(law: Law, pid: str) -> list[URIRef]:
    """Every subject an evaluation of this person can produce (the deterministic IRI scheme), so a
    re-export can remove the old results by index lookups instead of scanning the store."""
    out = [evaluation_iri(pid)]
    out += [eligibility_iri(pid, c) for c in law.certificates]
    out += [pathway_iri(pid, w) for w in law.pathways]
    out += [requirement_iri(pid, r) for r in law.requirements]
    out += [role_iri(pid, t.id) for t in law.terms.values() if "Role" in t.kinds]
    return out


# ------------------------------------------------------------------------------------------------------
# The person's record, with stable IRIs for its entries
# ------------------------------------------------------------------------------------------------------
def _programme_key(role: str, months: int, within: int, after: int) -> tuple:
    return (role, months, within, after)


def _record_nodes(p: Person) -> dict[str, list[URIRef]]:
    """IRIs of the record entries: sailing/<role>, sea/<capacity>, programme/<n> (n in a content order)."""
    base = f"{p.id}/"
    progs = sorted(_programme_key(g.role, g.months, g.sailing_days, g.sailing_days_after) for g in p.programmes)
    nodes: dict[str, list[URIRef]] = {}
    for role in p.sailing_days:
        nodes.setdefault(f"sailing:{role}", []).append(PERSON[base + f"sailing/{role}"])
    for cap in p.sea_days:
        nodes.setdefault(f"sea:{cap}", []).append(PERSON[base + f"sea/{cap}"])
    for cap in sea_scopes(p):  # a sea log: the credited count of each capacity's scope (credit_triples)
        nodes[f"sea-credited:{cap}"] = [PERSON[base + f"sea/{cap}"]]
    for n, key in enumerate(progs, start=1):
        nodes.setdefault(f"programme:{key[0]}", []).append(PERSON[base + f"programme/{n}"])
    return nodes


def record_triples(p: Person, subject: URIRef | None = None) -> list[Triple]:
    """The person's record as RDF (records.turtle.person_graph) about `subject` (the register's `person/<id>` unless
    given), its blank nodes replaced by stable IRIs under the subject's."""
    from crewkg.law.namespaces import local
    from crewkg.records.turtle import person_graph

    s = PERSON[p.id] if subject is None else subject
    g = person_graph(p, s)
    names: dict[BNode, URIRef] = {}
    for b in g.objects(s, CREW.hasSailingRecord):
        names[b] = URIRef(f"{s}/sailing/{local(g.value(b, CREW.inRole))}")
    for b in g.objects(s, CREW.hasSeaRecord):
        names[b] = URIRef(f"{s}/sea/{local(g.value(b, CREW.seaCapacity))}")
    progs = []
    for b in g.objects(s, CREW.completedProgramme):
        key = _programme_key(local(g.value(b, CREW.programmeFor)), int(g.value(b, CREW.months)),
                             int(g.value(b, CREW.daysWithin)), int(g.value(b, CREW.daysAfter)))
        progs.append((key, b))
    for n, (_, b) in enumerate(sorted(progs, key=lambda kb: kb[0]), start=1):
        names[b] = URIRef(f"{s}/programme/{n}")
    for b, n in zip(_entry_nodes(g, s), range(1, len(p.service or []) + 1), strict=False):
        names[b] = URIRef(f"{s}/service/{n}")
    return [(names.get(a, a), b, names.get(c, c)) for a, b, c in g]  # type: ignore[misc]


def _entry_nodes(g: Graph, s: URIRef) -> list:
    """The blank nodes of the service log entries ordered by their dates, role or capacity, validation and vessel:
    the order `entry_order` numbers them in (`service/<n>`), so an entry keeps its IRI however the log lists it."""
    from crewkg.law.namespaces import local

    def key(b):
        role = g.value(b, CREW.servedAs) or g.value(b, CREW.seaCapacity)
        return (g.value(b, CREW.servedFrom).toPython(), g.value(b, CREW.servedTo).toPython(), local(role) if role else "",
                not g.value(b, CREW.validated).toPython(), str(g.value(b, CREW.vesselName) or ""))
    return sorted(g.objects(s, CREW.hasServiceEntry), key=key)


def entry_order(p: Person) -> list[int]:
    """The indices of the log's entries in the order their IRIs are numbered (`service/<n>`)."""
    return sorted(range(len(p.service or [])), key=lambda i: (
        p.service[i].start, p.service[i].end, p.service[i].role or p.service[i].capacity or "",  # type: ignore[index]
        not p.service[i].validated, p.service[i].vessel or ""))  # type: ignore[index]


def record_subjects(p: Person) -> list[URIRef]:
    """Subjects of a person's record triples (to replace a record in a store)."""
    entries = [PERSON[f"{p.id}/service/{n}"] for n in range(1, len(p.service or []) + 1)]
    return [PERSON[p.id]] + [iri for iris in _record_nodes(p).values() for iri in iris] + entries


def sea_scopes(p: Person) -> list[str]:
    """The sea capacities whose scope holds days of a record's sea log (each gets a credited-count node)."""
    if not p.logged("sea"):
        return []
    return [key[4:] for key, c in p.credits.items() if key.startswith("sea:") and key.count(":") == 1 and c.recorded]


def credit_triples(law: Law, p: Person, as_of: date) -> list[Triple]:
    """For a person with a service log: each sailing record (the days credited in a role on the evaluation date)
    and each sea record (the days credited in a sea capacity's scope, the capacities that count for it together)
    with the counts that explain it and the entries it was credited from (crew:creditedFrom and
    prov:wasDerivedFrom, asserted both: a PROV reader does not read sub-property axioms). The sea records are no
    part of the person's record (a log gives no sea totals): they are written here, with their crew:hasSeaRecord."""
    from crewkg.records.dated import ledger

    if not p.service:
        return []
    scopes = ledger(p, law)
    day = as_of.toordinal()
    number = {i: n for n, i in enumerate(entry_order(p), start=1)}
    entries = list(enumerate(p.service))
    out: list[Triple] = []
    if p.logged("inland"):
        for role in p.sailing_days:
            scope = scopes.get(f"role:{role}")
            if scope is not None:
                out += _credited_count(p, PERSON[f"{p.id}/sailing/{role}"], scope, day, number,
                                       [(i, e) for i, e in entries if e.waters == "inland" and e.role == role])
    for cap in sea_scopes(p):
        node = PERSON[f"{p.id}/sea/{cap}"]
        counted = law.counted_capacities(cap)
        out += [(PERSON[p.id], CREW.hasSeaRecord, node), (node, RDF.type, CREW.SeaRecord),
                (node, CREW.seaCapacity, getattr(CREW, cap)), (node, CREW.days, Literal(p.credits[f"sea:{cap}"].credited))]
        out += _credited_count(p, node, scopes[f"sea:{cap}"], day, number,
                               [(i, e) for i, e in entries if e.waters == "sea" and e.capacity in counted])
    return out


def _credited_count(p: Person, node: URIRef, scope, day: int, number: dict[int, int], entries) -> list[Triple]:
    """A credited count's explaining counts on day `day` and the validated entries with a day credited in it."""
    from bisect import bisect_left, bisect_right

    c = scope.on(day)
    out: list[Triple] = [(node, D.recordedDays, Literal(c.recorded)), (node, D.notValidatedDays, Literal(c.not_validated)),
                         (node, D.cappedDays, Literal(c.capped))]
    credited = scope.credited[: bisect_right(scope.credited, day)]
    for i, e in entries:
        if not e.validated:
            continue
        lo = bisect_left(credited, e.start.toordinal())
        if lo < len(credited) and credited[lo] <= e.end.toordinal():
            entry = PERSON[f"{p.id}/service/{number[i]}"]
            out += [(node, D.creditedFrom, entry), (node, PROV.wasDerivedFrom, entry)]
    return out


# ------------------------------------------------------------------------------------------------------
# Derived facts
# ------------------------------------------------------------------------------------------------------
def _based_on(law: Law, rid: str, p: Person, nodes: dict[str, list[URIRef]]) -> list[URIRef]:
    """The record entries a requirement of this kind is decided on (provenance, not the decision)."""
    r = law.requirements[rid]
    k = kind(r.kind)
    if k.parts is not None:
        return []
    keys = k.based_on(law, r, nodes)
    found = [iri for k in keys for iri in nodes.get(k, [])]
    return found or [PERSON[p.id]]


def _items(req: dict[str, Any]) -> tuple[list[URIRef], list[URIRef]] | None:
    """The items a requirement names, needed and held, as terms; None for a kind that names none."""
    k = kind(req["kind"])
    if k.items is None:
        return None
    from crewkg.records.turtle import exam_term

    # an exam of the ontology (crew:Anlage8) or a proof the kb defines (kb:Ergaenzungspruefung-SchBV-P47)
    term = exam_term if k.item_terms == "crew" else KB.__getitem__
    wanted, held = k.items(req)
    return [term(x) for x in wanted], [term(x) for x in held]


def _sole_missing_item(missing: list[dict[str, Any]]) -> URIRef | None:
    """The one item whose absence alone keeps a pathway from being satisfied: its only missing requirement names
    items and lacks exactly one of them (crew:soleMissingItem). A register query starts from it, by index, instead
    of reading every pathway with one missing requirement."""
    items = _items(missing[0]) if len(missing) == 1 else None
    if items is None:
        return None
    wanted, held = items[0], set(items[1])
    lacking = [x for x in dict.fromkeys(wanted) if x not in held]
    return lacking[0] if len(lacking) == 1 else None


def _requirement(law: Law, pid: str, req: dict[str, Any], p: Person, nodes, ev: URIRef, missing: bool,
                 out: list[Triple], times: Times) -> URIRef:
    rid = req["id"]
    s = requirement_iri(pid, rid)
    out.append((s, RDF.type, D.MissingRequirement if missing else D.RequirementResult))
    out.append((s, D.forRequirement, KB[rid]))
    out.append((s, D.met, _bool(req["met"])))
    out.append((s, CREW.provision, KB[law.requirements[rid].provision]))
    out += _entity(s, ev, times)
    out.append((s, D.unit, Literal(req["unit"])))
    needed, have = req.get("needed"), req.get("have")
    k = kind(req["kind"])
    items = _items(req)
    if items is not None:  # a kind that names items (exams, certificates, a document)
        wanted, held = items
        out += [(s, D.neededItem, x) for x in wanted]
        out += [(s, D.haveItem, x) for x in held]
    elif k.unit == "date":  # an application period: its last day and the evaluation date
        out += [(s, prop, Literal(date.fromisoformat(v))) for prop, v in ((D.neededDate, needed), (D.haveDate, have)) if v]
    else:
        if needed is not None:
            out.append((s, D.neededAmount, _amount(needed)))
        if have is not None:
            out.append((s, D.haveAmount, _amount(have)))
        if k.unit == "days" and needed is not None and have is not None and needed > have:
            # a summary triple: a register query for the persons a few days short starts from it by index
            out.append((s, D.daysShort, Literal(int(needed - have))))
    if req.get("reached_on"):
        out.append((s, D.reachedOn, Literal(date.fromisoformat(req["reached_on"]))))
    for child in req.get("alternatives") or req.get("parts") or []:
        c = _requirement(law, pid, child, p, nodes, ev, False, out, times)
        out += [(s, D.hasSubResult, c), (s, PROV.wasDerivedFrom, c)]
    for iri in _based_on(law, rid, p, nodes):
        out += [(s, D.basedOnRecord, iri), (s, PROV.wasDerivedFrom, iri)]
    return s


#: when an evaluation started and ended (prov:startedAtTime / prov:endedAtTime; its results' prov:generatedAtTime)
Times = tuple[datetime, datetime]


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _stamp(t: datetime) -> Literal:
    return Literal(t, datatype=XSD.dateTime)


def _entity(s: URIRef, ev: URIRef, times: Times) -> list[Triple]:
    """A derived result as a PROV entity: typed, generated by its evaluation, at the time that evaluation ended."""
    return [(s, RDF.type, PROV.Entity), (s, PROV.wasGeneratedBy, ev), (s, PROV.generatedAtTime, _stamp(times[1]))]


def _activity(ev: URIRef, times: Times) -> list[Triple]:
    """An evaluation as a PROV activity, with the wall-clock times of the run, carried out by the crewkg engine."""
    started, ended = times
    return [(ev, RDF.type, PROV.Activity), (ev, PROV.startedAtTime, _stamp(started)),
            (ev, PROV.endedAtTime, _stamp(ended)), (ev, PROV.wasAssociatedWith, D.CrewkgEngine),
            (D.CrewkgEngine, RDF.type, PROV.SoftwareAgent), (D.CrewkgEngine, RDF.type, PROV.Agent)]


def input_digest(law: Law, p: Person, as_of: date) -> Literal:
    """A content hash of all an evaluation of the person reads: the record as read (its dated log and what was
    credited of it on the date, not where it was read from: no derived fact names the file or line), the evaluation
    date, the kb version and crewkg's version. Equal digests give equal derived facts, so a store keeps a person's
    facts when the digest is unchanged, also when the register comes in another file or order."""
    import dataclasses
    import hashlib

    from crewkg import __version__

    text = "\n".join((repr(dataclasses.replace(p, source="")), as_of.isoformat(), law.version, __version__))
    return Literal(hashlib.sha256(text.encode("utf-8")).hexdigest())


def derived_triples(law: Law, p: Person, answer: dict[str, Any], times: Times | None = None) -> list[Triple]:
    """The derived facts of one person's eligibility answer (answers.person_answer) with provenance; `times` are
    when the evaluation ran (now, where not given)."""
    if times is None:
        now = _now()
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
        *_activity(ev, times),
        (ev, D.covered, _bool(answer.get("covered", True))),
    ]
    reg = law.regulation_on(as_of)
    if reg is not None:
        out.append((ev, PROV.used, KB[reg.id]))
    if not answer.get("covered", True):
        out.append((ev, RDFS.comment, Literal(answer["reason"], lang="en")))
    nodes = _record_nodes(p)
    out += credit_triples(law, p, as_of)
    for c in answer["certificates"]:
        out += _certificate_triples(law, p, c, nodes, ev, times)
    for role in answer["roles"]:
        out += _role_triples(law, p, role, times)
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
        *_entity(e, ev, times),
        (e, D.covered, _bool(c["covered"])),
    ]
    if not c["covered"]:
        out.append((e, RDFS.comment, Literal(c["reason"], lang="en")))
        return out
    out.append((e, D.eligible, _bool(c["eligible"])))
    if c["eligible"]:
        out.append((e, D.canBeIssued, KB[c["id"]]))
    for w in c["pathways"]:
        ws = pathway_iri(pid, w["id"])
        out += [
            (ws, RDF.type, D.PathwayResult),
            (ws, D.forPathway, KB[w["id"]]),
            (ws, D.satisfied, _bool(w["satisfied"])),
            (ws, D.missingCount, Literal(len(w["missing"]))),
            (ws, CREW.provision, KB[law.pathways[w["id"]].provision]),
            *_entity(ws, ev, times),
            (e, D.hasPathwayResult, ws),
            (e, PROV.wasDerivedFrom, ws),
        ]
        sole = _sole_missing_item(w["missing"])
        if sole is not None:
            out.append((ws, D.soleMissingItem, sole))
        # a satisfied pathway rests on all its requirements; one not satisfied on what is missing
        for req in (w["requirements"] if w["satisfied"] else w["missing"]):
            rs = _requirement(law, pid, req, p, nodes, ev, not w["satisfied"], out, times)
            out += [(ws, D.hasRequirementResult, rs), (ws, PROV.wasDerivedFrom, rs)]
    return out


def _role_triples(law: Law, p: Person, role: str, times: Times) -> list[Triple]:
    """A role the person can fill, and the certificates held that grant it."""
    rc = role_iri(p.id, role)
    out: list[Triple] = [
        (rc, RDF.type, D.RoleCapability),
        (rc, D.evaluatedPerson, PERSON[p.id]),
        (rc, D.forRole, KB[role]),
        *_entity(rc, evaluation_iri(p.id), times),
        (rc, D.basedOnRecord, PERSON[p.id]),
        (rc, PROV.wasDerivedFrom, PERSON[p.id]),
    ]
    for cid in p.certificates:
        top = law.certificates[cid].role
        if top and (top == role or role in law.below(top)):
            out.append((rc, D.grantedBy, KB[cid]))
            out.append((rc, CREW.provision, KB[law.certificates[cid].provision]))
    return out


def evaluate(law: Law, persons: list[Person], as_of: date) -> Iterator[tuple[Person, list[Triple], list[Triple]]]:
    """Evaluate persons in one Datalog run; yield (person, record triples, derived triples)."""
    from crewkg.answers.eligibility import check

    # in English: the reasons of the answer become rdfs:comment literals tagged @en
    started = _now()
    answers = check(law, persons, as_of, "en")
    times = (started, _now())
    for p, answer in zip(persons, answers, strict=True):
        yield p, record_triples(p), derived_triples(law, p, answer, times)


# ------------------------------------------------------------------------------------------------------
# Crew checks (crewkg.manning): a vessel's minimum crew and whether a roster fills it
# ------------------------------------------------------------------------------------------------------
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
    now = _now()
    times = (now, now)
    out: list[Triple] = [
        (ev, RDF.type, D.Evaluation),
        (ev, D.evaluationDate, Literal(date.fromisoformat(answer["as_of"]))),
        (ev, D.kbVersion, Literal(law.version)),
        (ev, PROV.used, vessel),
        *_activity(ev, times),
        (check, RDF.type, D.CrewCheck),
        (check, D.checkedVessel, vessel),
        (check, PROV.wasDerivedFrom, vessel),
        *_entity(check, ev, times),
        (check, D.covered, _bool(answer.get("covered", False))),
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
            out.append((check, D.rosterSatisfied, _bool(result["satisfied"])))
        for n, gap in enumerate(result.get("missing", []), start=1):
            g = URIRef(f"{check}/gap/{n}")
            out += [(g, RDF.type, D.CrewGap), (check, D.hasGap, g), (check, PROV.wasDerivedFrom, g), (g, D.met, FALSE),
                    *_entity(g, ev, times),
                    (g, D.gapKind, Literal(gap.get("kind", ""))), (g, D.fillWith, Literal(gap.get("fill_with", ""), lang=lang))]
            if gap.get("role"):
                out.append((g, D.forRole, KB[gap["role"]]))
            if gap.get("provision") in by_citation:
                out.append((g, CREW.provision, KB[by_citation[gap["provision"]]]))
            if isinstance(gap.get("needed"), int):
                out.append((g, D.neededAmount, _amount(gap["needed"])))
            if isinstance(gap.get("have"), int):
                out.append((g, D.haveAmount, _amount(gap["have"])))
    return out


def crew_check_subjects(answer_vessel: str, roster: str | None, gaps: int = 64) -> list[URIRef]:
    check = crew_check_iri(answer_vessel, roster)
    return [check, URIRef(str(check) + "/evaluation")] + [URIRef(f"{check}/gap/{n}") for n in range(1, gaps + 1)]


# ------------------------------------------------------------------------------------------------------
# Graphs and files
# ------------------------------------------------------------------------------------------------------
#: the prefixes of an export, every one declared in its Turtle (a PROV reader turns IRIs into qualified names by them)
PREFIXES = {"crew": CREW_IRI, "kb": str(KB), "person": str(PERSON), "derived": DERIVED_IRI, "prov": str(PROV),
            "xsd": str(XSD), "rdfs": str(RDFS)}


def bind_prefixes(g: Graph) -> Graph:
    for prefix, iri in PREFIXES.items():
        g.bind(prefix, iri)
    return g


def serialize(graph: Graph, fmt: str) -> str:
    """The export's text in `fmt` (a FORMATS key). rdflib writes only the Turtle prefixes a compact name uses, and
    no derived IRI has one (its local part holds '/'), so the prefixes are declared here, every one of them."""
    if fmt == "jsonld":  # compact names in JSON-LD too: the prefixes as its @context
        return graph.serialize(format="json-ld", context=dict(PREFIXES), auto_compact=True)
    text = graph.serialize(format=FORMATS[fmt][0])
    if fmt != "turtle":
        return text
    missing = [f"@prefix {prefix}: <{iri}> .\n" for prefix, iri in PREFIXES.items() if f"@prefix {prefix}: " not in text]
    return "".join(missing) + text


def replace_person(g: Graph, law: Law, pid: str, triples: Iterable[Triple]) -> None:
    """Delete-before-insert: drop every derived subject of the person, then add the new results."""
    for s in derived_subjects(law, pid):
        g.remove((s, None, None))
    for t in triples:
        g.add(t)


def export_graph(law: Law, persons: list[Person], as_of: date, into: Graph | None = None) -> Graph:
    """The persons' records and derived facts, merged into `into` (an earlier export) with replacement. The records
    travel with the results so that the file alone answers the canned queries (`crewkg sparql --graph FILE`: who a
    result is about, crew:personId; the sailing and sea records the credited days and the sea-time answers name) and
    the PROV chain (result -> credited count -> entries) can be followed in it."""
    g = bind_prefixes(into if into is not None else Graph())
    for p, record, derived in evaluate(law, persons, as_of):
        # the earlier record, entries and links included, goes with its results (also the entries it had that the
        # record read now lacks: every node under the person's IRI that the person links to)
        own = str(PERSON[p.id]) + "/"
        _drop(g, [*record_subjects(p), *(o for o in g.objects(PERSON[p.id], None)
                                         if isinstance(o, URIRef) and str(o).startswith(own))])
        replace_person(g, law, p.id, derived + record)
    return g


def _drop(g: Graph, subjects: Iterable[URIRef]) -> None:
    """Remove the subjects' triples and the blank nodes they describe (a record's certificate issues, exam results)."""
    todo: list = list(subjects)
    while todo:
        s = todo.pop()
        todo += [o for o in g.objects(s, None) if isinstance(o, BNode)]
        g.remove((s, None, None))


#: --format value -> rdflib serializer name and the file suffixes that imply it
FORMATS = {"turtle": ("turtle", (".ttl",)), "nt": ("nt", (".nt",)), "jsonld": ("json-ld", (".jsonld", ".json"))}


def format_for_suffix(suffix: str) -> str | None:
    for name, (_, suffixes) in FORMATS.items():
        if suffix.lower() in suffixes:
            return name
    return None


def export_file(law: Law, persons: list[Person], as_of: date, out: Path, fmt: str) -> Graph:
    """Merge the persons' derived facts into the export at `out` and replace it in one rename.

    Two exports into one file must not lose each other's persons, and an interrupted export must leave neither a
    half-written file nor a stray temporary one: the read-merge-write runs under an exclusive lock on a sibling lock
    file, the text goes to a unique temporary name in the same folder, and any failure (Ctrl-C included) removes it.
    A missing folder is refused: an export does not invent where it goes."""
    import fcntl

    from crewkg.errors import InputError
    from crewkg.outputs import write_atomically

    if not out.parent.is_dir():
        raise InputError(str(out), "--out", "out_folder", str(out.parent))
    lock_path = out.with_name(f".{out.name}.lock")
    try:
        lock = open(lock_path, "a")  # noqa: SIM115 - held for the whole update
    except OSError as exc:
        raise InputError(str(out), "--out", "writable_folder", reason=exc.strerror) from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        earlier = None
        if out.exists():
            earlier = Graph()
            read_as = format_for_suffix(out.suffix) or fmt
            try:
                earlier.parse(out, format=FORMATS[read_as][0])
            except Exception as exc:  # any parser failure: the earlier export cannot be merged
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
                raise InputError(str(out), "", "earlier_export", format=read_as, reason=first) from None
        graph = export_graph(law, persons, as_of, earlier)
        write_atomically(out, [serialize(graph, fmt)])
    return graph
