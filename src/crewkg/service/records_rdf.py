"""A person's record as RDF with stable IRIs for its entries. Person records write their sailing, sea and programme
entries and the entries of a service log as blank nodes; here they get IRIs under `person/<id>/…`, so provenance can
point at them and a re-export replaces them. For a record with a service log, each credited count is written with the
counts that explain it and the entries it was credited from."""

from __future__ import annotations

from datetime import date

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import PROV, RDF

from crewkg.answers import identifiers as ids
from crewkg.answers.identifiers import entry_order
from crewkg.law.namespaces import CREW, PERSON
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service.derived_terms import D
from crewkg.service.terms import Triple


def _programme_key(role: str, months: int, within: int, after: int) -> tuple:
    return (role, months, within, after)


def record_nodes(p: Person) -> dict[str, list[URIRef]]:
    """IRIs of the record entries: sailing/<role>, sea/<capacity>, programme/<n> (n in a content order); their one
    home is answers.identifiers."""
    nodes: dict[str, list[URIRef]] = {}
    for role in p.sailing_days:
        nodes.setdefault(f"sailing:{role}", []).append(URIRef(ids.sailing_record(p.id, role)))
    for cap in p.sea_days:
        nodes.setdefault(f"sea:{cap}", []).append(URIRef(ids.sea_record(p.id, cap)))
    for cap in sea_scopes(p):  # a sea log: the credited count of each capacity's scope (credit_triples)
        nodes[f"sea-credited:{cap}"] = [URIRef(ids.sea_record(p.id, cap))]
    for n, i in enumerate(ids.programme_order(p), start=1):
        nodes.setdefault(f"programme:{p.programmes[i].role}", []).append(URIRef(ids.programme_record(p.id, n)))
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


def record_subjects(p: Person) -> list[URIRef]:
    """Subjects of a person's record triples (to replace a record in a store)."""
    entries = [URIRef(ids.service_entry(p.id, n)) for n in range(1, len(p.service or []) + 1)]
    return [PERSON[p.id]] + [iri for iris in record_nodes(p).values() for iri in iris] + entries


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
                out += _credited_count(p, URIRef(ids.sailing_record(p.id, role)), scope, day, number,
                                       [(i, e) for i, e in entries if e.waters == "inland" and e.role == role])
    for cap in sea_scopes(p):
        node = URIRef(ids.sea_record(p.id, cap))
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
            entry = URIRef(ids.service_entry(p.id, number[i]))
            out += [(node, D.creditedFrom, entry), (node, PROV.wasDerivedFrom, entry)]
    return out


def stored_person(store, law: Law, pid: str, as_of: date) -> Person | None:
    """The person whose record a store holds (a store folder written by `crewkg export --store`), read back from its
    record graph and checked as a record is; None where the store holds no record of that id. The service answers
    such a person as it answers one loaded with --data (issue 44: it answered 404 for every one)."""
    from crewkg.records.persons import ID_RE
    from crewkg.records.turtle import person_from_graph
    from crewkg.service.dataset import RECORDS_GRAPH

    if not ID_RE.match(pid):
        return None
    subject = PERSON[pid]
    g = Graph()
    for t in store.triples_of(subject, RECORDS_GRAPH):
        g.add(t)
    if (subject, RDF.type, CREW.Person) not in g:
        return None
    if any((e, CREW.servedAs, None) in g for e in g.objects(subject, CREW.hasServiceEntry)):
        g.remove((subject, CREW.hasSailingRecord, None))  # the days credited from an inland log, no totals it gave
    return person_from_graph(g, subject, law, as_of, f"store: {pid}")  # InputError: a record this crewkg cannot read


def stored_person_ids(store) -> list[str]:
    """The ids of the persons whose records the store holds (`person/<id>` a crew:Person in the records graph; a
    roster's crew members are named otherwise), sorted."""
    from crewkg.service.dataset import RECORDS_GRAPH

    query = (f"SELECT ?p ?id WHERE {{ GRAPH <{RECORDS_GRAPH}> {{ ?p a <{CREW.Person}> ; <{CREW.personId}> ?id }} }}")
    return sorted({str(pid) for p, pid in store.select(query).rows if str(p) == str(PERSON[str(pid)])})
