"""The identifiers of an evaluation's results, the one home of them: the IRIs under which the RDF export writes each
derived result (`derived/<person id>/…`, named after the kb resource it evaluates) and a person's record entries
(`person/<id>/…`), and the digest of everything an evaluation reads. The export (`service.derived_terms`,
`service.provenance`) writes its triples with them, and a clerk's draft (`documents.draft`) names the same IRIs for
each of its sections, so a case-file system can follow a draft's sentence to the PROV derivation it rests on.

Plain strings: this layer answers without rdflib; the export makes them terms."""

from __future__ import annotations

from datetime import date

from crewkg.law.statute import Law
from crewkg.records.persons import Person

DERIVED_IRI = "https://w3id.org/crewkg/derived/"
#: the same as crewkg.law.namespaces.PERSON_IRI, repeated here so that this module imports no rdflib
PERSON_IRI = "https://w3id.org/crewkg/person/"


def person(pid: str) -> str:
    return PERSON_IRI + pid


def evaluation(pid: str) -> str:
    return f"{DERIVED_IRI}{pid}/evaluation"


def eligibility(pid: str, cert: str) -> str:
    return f"{DERIVED_IRI}{pid}/eligibility/{cert}"


def pathway(pid: str, pathway_id: str) -> str:
    return f"{DERIVED_IRI}{pid}/pathway/{pathway_id}"


def requirement(pid: str, req: str) -> str:
    return f"{DERIVED_IRI}{pid}/requirement/{req}"


def role(pid: str, role_id: str) -> str:
    return f"{DERIVED_IRI}{pid}/role/{role_id}"


def sailing_record(pid: str, role: str) -> str:
    """A record's days in a role (its total, or the days its log credits in the role)."""
    return f"{PERSON_IRI}{pid}/sailing/{role}"


def sea_record(pid: str, capacity: str) -> str:
    """A record's days at sea in a capacity (the ontology's id: AsDeckCrew, AsMaster)."""
    return f"{PERSON_IRI}{pid}/sea/{capacity}"


def programme_record(pid: str, n: int) -> str:
    """The n-th completed programme in the order `programme_order` numbers them (1-based)."""
    return f"{PERSON_IRI}{pid}/programme/{n}"


def programme_order(p: Person) -> list[int]:
    """The indices of the record's programmes in the order their IRIs are numbered: by role, months, days within and
    after, so a programme keeps its IRI however the record lists them."""
    return sorted(range(len(p.programmes)), key=lambda i: (
        p.programmes[i].role, p.programmes[i].months, p.programmes[i].sailing_days, p.programmes[i].sailing_days_after))


def service_entry(pid: str, n: int) -> str:
    """The n-th entry of a service log in the order `entry_order` numbers them (1-based)."""
    return f"{PERSON_IRI}{pid}/service/{n}"


def entry_order(p: Person) -> list[int]:
    """The indices of the log's entries in the order their IRIs are numbered (`service/<n>`): by their dates, role or
    capacity, validation and vessel, so an entry keeps its IRI however the log lists it."""
    return sorted(range(len(p.service or [])), key=lambda i: (
        p.service[i].start, p.service[i].end, p.service[i].role or p.service[i].capacity or "",  # type: ignore[index]
        not p.service[i].validated, p.service[i].vessel or ""))  # type: ignore[index]


def input_digest(law: Law, p: Person, as_of: date) -> str:
    """A content hash (SHA-256, hex) of all an evaluation of the person reads: the record as read (its dated log and
    what was credited of it on the date, not where it was read from: no derived fact names the file or line), the
    evaluation date, the kb version and crewkg's version. Equal digests give equal derived facts, so a store keeps a
    person's facts when the digest is unchanged, also when the register comes in another file or order."""
    import dataclasses
    import hashlib

    from crewkg.version import __version__

    text = "\n".join((repr(dataclasses.replace(p, source="")), as_of.isoformat(), law.version, __version__))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
