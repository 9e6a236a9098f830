"""Loading person records from files and folders.

A YAML or JSON record gets the schema check (`records.persons`), which is exactly as strict as the SHACL shapes:
tests/test_record_schema.py judges a corpus of good and bad records by both (pySHACL is the authority there) and they
agree on every one. So pySHACL, about half a second for a record it has not seen, is run on such a record only where
asked (`shacl`: the service's uploads, `read_register(shacl=True)`), and a new record's first `check` costs what a
known one costs. A Turtle record is RDF as written, with any triples: its shapes are its schema check, always run."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.records.persons import Person, person_from_mapping, person_to_mapping, record_files
from crewkg.records.reading import read_mapping
from crewkg.records.shacl import _key, _seen, shacl_check

if TYPE_CHECKING:
    from crewkg.records.problems import Problem


def load_person_file(path: Path, law: Law, as_of: date, shacl: bool = False) -> Person:
    if path.suffix.lower() == ".ttl":
        from crewkg.records.turtle import person_from_turtle

        return person_from_turtle(path, law, as_of)
    data = read_mapping(path)
    person = person_from_mapping(data, law, as_of, str(path))
    if shacl:
        shacl_check_person(person)
    return person


def load_each(path: Path, law: Law, as_of: date) -> list[Person | Problem]:
    """Every record a path names, in file order: the Person, or the Problem that refused it (records.problems: its
    first error and, where cheap, all). A folder with some bad records still answers for the good ones (the faces
    name each bad one and exit non-zero); an id used twice refuses the later record."""
    from crewkg.records.problems import Problem, file_errors

    out: list[Person | Problem] = []
    seen: dict[str, str] = {}
    for f in record_files(path):
        try:
            p = load_person_file(f, law, as_of)
        except InputError as exc:
            out.append(Problem(str(f), file_errors(exc, f, law, as_of)))
            continue
        if p.id in seen:
            out.append(Problem(str(f), [InputError(p.source, "id", "unique_id_in", p.id, other=seen[p.id])]))
            continue
        seen[p.id] = p.source
        out.append(p)
    return out


def load_persons(path: Path, law: Law, as_of: date) -> list[Person]:
    persons = [load_person_file(f, law, as_of) for f in record_files(path)]
    seen: dict[str, str] = {}
    for p in persons:
        if p.id in seen:
            raise InputError(p.source, "id", "unique_id_in", p.id, other=seen[p.id])
        seen[p.id] = p.source
    return persons



def shacl_check_person(p: Person) -> None:
    """SHACL-validate a record that passed the schema check, via its RDF form. The cache key is the record
    itself, so a record validated before costs no rdflib import at all.

    Of a service log only one entry of each kind (waters, role or capacity, validated) goes to pySHACL: the schema
    check has already checked every entry against everything the entry shape says (dates in order, a known role or
    capacity, a short vessel name), and pySHACL takes some milliseconds per entry — a daily log of many years would
    take minutes."""
    key = _key(json.dumps(person_to_mapping(p), sort_keys=True, default=str))
    if _seen(key):
        return
    from crewkg.records.turtle import person_graph

    if p.service:
        kinds = {(e.waters, e.role, e.capacity, e.validated): e for e in reversed(p.service)}
        p = dataclasses.replace(p, service=list(reversed(kinds.values())))
    shacl_check(person_graph(p), p.source, key)
