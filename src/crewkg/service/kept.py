"""What a served store needs before its first answer, computed once when the store is written and kept beside it
(issue 46): the whole answers of the canned queries the store can only answer for the whole register (`# answer:
whole`), the person ids that page the others, how many quads and evaluated persons it holds. A service that starts on
the store (`crewkg serve --store DIR`, also after a restart) and `crewkg sparql NAME --store DIR` read them from the
file instead of computing them: at 100 000 persons that was two minutes of the service's start.

The file belongs to one state of the store: every writer of a store folder sets a new version in it (`touch`: a
quad of the derived graph, crew:storeVersion), and the file names the version it was computed for; a file of another
version is not read (the service then computes as before, `paging.Answers`)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rdflib import Literal, URIRef

from crewkg.service.dataset import DERIVED_GRAPH
from crewkg.service.derived_terms import D
from crewkg.service.results import Table

#: the file in the store's folder (RocksDB leaves files of other names alone)
FILE = "crewkg-kept.json"
#: the quad that names the store's version: the derived graph's own crew:storeVersion
VERSION = D.storeVersion


@dataclass
class Kept:
    """What a store needs at start, for its version."""

    version: str
    quads: int
    persons: int
    person_ids: list[str]
    answers: dict[str, Table] = field(default_factory=dict)
    #: the persons whose records the store holds (records_rdf.stored_person_ids: the API's list of stored persons)
    stored_person_ids: list[str] = field(default_factory=list)


def touch(store) -> str:
    """A new version of the store (after anything was written into it): a kept file of the last one is stale."""
    version = uuid.uuid4().hex
    store.remove_subjects([DERIVED_GRAPH])
    store.add([(DERIVED_GRAPH, VERSION, Literal(version))], DERIVED_GRAPH)
    return version


def version(store) -> str | None:
    found = store.objects(DERIVED_GRAPH, VERSION)
    return str(found[0]) if found else None


def keep(store) -> int:
    """Compute what a service needs at start for the store's version (`touch`) into the store folder's file: the
    whole answers of the canned queries answered whole and of those not paged by persons (the kb's, the counts), the
    person ids in SPARQL's order, the quads and persons. Returns the quads."""
    from crewkg.service.canned import canned_queries
    from crewkg.service.paging import Answers, person_ids
    from crewkg.service.records_rdf import stored_person_ids

    answers = Answers(store)
    kept = Kept(version(store) or "", len(store), evaluated_persons(store), person_ids(store),
                {q.name: answers.table(q) if q.whole else store.select(q.text) for q in canned_queries()
                 if q.whole or q.page is None}, stored_person_ids(store))
    data = {"version": kept.version, "quads": kept.quads, "persons": kept.persons, "person_ids": kept.person_ids,
            "stored_person_ids": kept.stored_person_ids,
            "answers": {name: _table(t) for name, t in kept.answers.items()}}
    from crewkg.outputs import write_atomically

    write_atomically(Path(store.path) / FILE, [json.dumps(data, ensure_ascii=False, separators=(",", ":"))])
    return kept.quads


def evaluated_persons(store) -> int:
    """The persons the store holds an evaluation of: those of `--data` and, in a store folder, every exported one."""
    from crewkg.service.derived_terms import D

    query = f"SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?e <{D.evaluatedPerson}> ?p }}"
    return int(store.select(query).rows[0][0])


def kept(store) -> Kept | None:
    """What was kept for the store as it is now; None where nothing was, or for another version."""
    path = getattr(store, "path", None)
    if path is None or not (Path(path) / FILE).is_file():
        return None
    try:
        data = json.loads((Path(path) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("version") != version(store) or "stored_person_ids" not in data:  # another version, or written before
        return None
    return Kept(data["version"], data["quads"], data["persons"], data["person_ids"],
                {name: _from_table(t) for name, t in data["answers"].items()}, data["stored_person_ids"])


def _table(t: Table) -> dict[str, Any]:
    """A table as SPARQL 1.1 JSON results (results.py writes the same)."""
    from crewkg.service.results import to_json

    return json.loads(to_json(t))


def _from_table(data: dict[str, Any]) -> Table:
    names = data["head"]["vars"]
    return Table("select", names, [tuple(_term(b.get(n)) for n in names) for b in data["results"]["bindings"]])


def _term(b: dict[str, Any] | None):
    """A binding of SPARQL JSON results as the rdflib term the stores give (`terms.from_ox`)."""
    from rdflib import BNode

    if b is None:
        return None
    if b["type"] == "uri":
        return URIRef(b["value"])
    if b["type"] == "bnode":
        return BNode(b["value"])
    if "xml:lang" in b:
        return Literal(b["value"], lang=b["xml:lang"])
    datatype = b.get("datatype")
    if datatype is None or datatype == "http://www.w3.org/2001/XMLSchema#string":
        return Literal(b["value"])
    return Literal(b["value"], datatype=URIRef(datatype), normalize=False)
