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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rdflib import Literal, URIRef

from crewkg.service.dataset import DERIVED_GRAPH
from crewkg.service.derived_terms import D
from crewkg.service.results import Table

#: the index in the store's folder (RocksDB leaves files of other names alone): the version, the counts, the names
#: of the kept answers; beside it the ids (`IDS`) and each answer in a file of its own (`_answer_file`), so that a
#: command asking one query reads that answer alone (at 100 000 persons the answers are tens of megabytes)
FILE = "crewkg-kept.json"
IDS = "crewkg-kept-ids.json"
#: the form of the files (2: an answer a line of its own and a binding a line); a store kept in another form is
#: answered as if nothing were kept, until its next export
FORM = 2
#: the quad that names the store's version: the derived graph's own crew:storeVersion
VERSION = D.storeVersion


def _answer_file(name: str) -> str:
    return f"crewkg-kept-answer-{name}.json"


class _Answers(Mapping[str, Table]):
    """The kept answers by query name, each read from its file when first asked for.

    An answer's file is a line of its own (its version, the results' head, and for a query paged by persons each
    person's first row as a byte offset) and then one SPARQL JSON binding a line, so that a page of 50 persons reads
    its rows alone (`page`): at 100 000 persons one answer holds 47 000 rows, 4.8 MB, and reading it whole took a
    command 76–134 ms (docs/scale.md)."""

    def __init__(self, folder: Path, names: list[str], version: str) -> None:
        self._folder, self._names, self._version, self._read = folder, names, version, {}

    def __getitem__(self, name: str) -> Table:
        if name not in self._read:
            self._read[name] = _from_table(self.results(name))
        return self._read[name]

    def results(self, name: str) -> dict[str, Any]:
        """The answer as the SPARQL JSON results it was kept as (terms not yet made: a page takes a few rows)."""
        with self._open(name) as f:
            index = self._index(f, name)
            return {"head": index["head"], "results": {"bindings": [json.loads(line) for line in f]}}

    def page(self, name: str, after: str | None, persons: int) -> tuple[dict[str, Any], int, str | None]:
        """The rows of the `persons` persons that follow `after` in a kept answer paged by persons, as SPARQL JSON
        results, how many persons they are and the id the next page follows (`paging.window`)."""
        from crewkg.service.paging import window

        with self._open(name) as f:
            index = self._index(f, name)
            ids, offsets = index["ids"], index["offsets"]
            start, end, following = window(ids, after, persons)
            rows = []
            if start < end:
                f.seek(index["rows_at"] + offsets[start])
                rows = [json.loads(line) for line in f.read(offsets[end] - offsets[start]).splitlines()]
        return {"head": index["head"], "results": {"bindings": rows}}, end - start, following

    def _open(self, name: str):
        if name not in self._names:
            raise KeyError(name)
        return (self._folder / _answer_file(name)).open("rb")

    def _index(self, f, name: str) -> dict[str, Any]:
        head = f.readline()
        index = json.loads(head)
        if index.get("version") != self._version:  # written by a keep that did not finish
            raise KeyError(name)
        index["rows_at"] = len(head)
        return index

    def __contains__(self, name: object) -> bool:  # Mapping's would read the answer whole
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _answer_lines(version: str, table: Table, column: str | None) -> list[str]:
    """An answer's file (`_Answers`): the index line, then a binding a line; with `column` (the page variable of a
    query paged by persons, the first key of its order) the byte offset of each person's first row and of the end."""
    data = _table(table)
    rows = [_dumps(b) + "\n" for b in data["results"]["bindings"]]
    ids: list[str] = []
    offsets: list[int] = []
    at = 0
    for b, line in zip(data["results"]["bindings"], rows, strict=True):
        if column is not None and (not ids or ids[-1] != b[column]["value"]):
            ids.append(b[column]["value"])
            offsets.append(at)
        at += len(line.encode("utf-8"))
    offsets.append(at)
    return [_dumps({"version": version, "head": data["head"], "ids": ids, "offsets": offsets}) + "\n", *rows]


@dataclass
class Kept:
    """What a store needs at start, for its version: the counts at once, the ids and the answers when first read."""

    version: str
    quads: int
    persons: int
    folder: Path | None = None
    answers: Mapping[str, Table] = field(default_factory=dict)
    #: how many evaluations the store holds of each kb version (crew:kbVersion; loading.other_kb_evaluations)
    kb_versions: dict[str, int] = field(default_factory=dict)
    _ids: dict[str, list[str]] | None = None

    @property
    def person_ids(self) -> list[str]:
        return self._read_ids()["person_ids"]

    @property
    def stored_person_ids(self) -> list[str]:
        """The persons whose records the store holds (records_rdf.stored_person_ids: the API's list of them)."""
        return self._read_ids()["stored_person_ids"]

    def _read_ids(self) -> dict[str, list[str]]:
        if self._ids is None:
            assert self.folder is not None, "ids are read from a store folder"
            data = json.loads((self.folder / IDS).read_text(encoding="utf-8"))
            self._ids = data if data.get("version") == self.version else {"person_ids": [], "stored_person_ids": []}
        return self._ids


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
    """Compute what a service needs at start for the store's version (`touch`) into the store folder's files: the
    whole answers of the canned queries answered whole and of those not paged by persons (the kb's, the counts), the
    person ids in SPARQL's order, the quads and persons. The index is written last, so that it names only answers
    written for its version. Returns the quads."""
    from crewkg.outputs import write_atomically
    from crewkg.service.canned import canned_queries
    from crewkg.service.paging import Answers, person_ids
    from crewkg.service.records_rdf import stored_person_ids

    folder, now = Path(store.path), version(store) or ""
    answers = Answers(store)
    names = []
    for q in canned_queries():
        if q.whole or q.page is None:
            table = answers.table(q) if q.whole else store.select(q.text)
            column = q.page.lstrip("?") if q.page is not None else None
            write_atomically(folder / _answer_file(q.name), _answer_lines(now, table, column))
            names.append(q.name)
    write_atomically(folder / IDS, [_dumps({"version": now, "person_ids": person_ids(store),
                                            "stored_person_ids": stored_person_ids(store)})])
    quads = len(store)
    versions = store.select(f"SELECT ?v (COUNT(?e) AS ?n) WHERE {{ ?e <{D.kbVersion}> ?v }} GROUP BY ?v").rows
    write_atomically(folder / FILE, [_dumps({"version": now, "form": FORM, "quads": quads,
                                             "persons": evaluated_persons(store), "answers": names,
                                             "kb_versions": {str(v): int(n) for v, n in versions}})])
    return quads


def kept_page(ready: Kept, q, after: str | None, persons: int):
    """A page of a whole answer kept with the store, as `paging.Answers.page` gives it, with only the page's rows read
    and made into terms (`crewkg sparql NAME --store DIR --after ID`: at 100 000 persons an answer holds 47 000 rows)."""
    from crewkg.service.paging import Rows

    data, count, following = ready.answers.page(q.name, after, persons)  # type: ignore[attr-defined]
    return Rows(_from_table(data), count, following)


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def evaluated_persons(store) -> int:
    """The persons the store holds an evaluation of: those of `--data` and, in a store folder, every exported one."""
    from crewkg.service.derived_terms import D

    query = f"SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?e <{D.evaluatedPerson}> ?p }}"
    return int(store.select(query).rows[0][0])


def kept(store) -> Kept | None:
    """What was kept for the store as it is now; None where nothing was, or for another version or form."""
    path = getattr(store, "path", None)
    if path is None or not (Path(path) / FILE).is_file():
        return None
    try:
        data = json.loads((Path(path) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("version") != version(store) or data.get("form") != FORM or not isinstance(data.get("answers"), list):
        return None
    return Kept(data["version"], data["quads"], data["persons"], Path(path),
                _Answers(Path(path), data["answers"], data["version"]), data.get("kb_versions") or {})


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
