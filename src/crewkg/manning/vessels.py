"""Vessel and roster records (YAML or JSON): reading, the schema check, SHACL, and the RDF form.

A vessel record names the attributes the manning tables test (docs/vessels-and-rosters.md). Its keys, their types
and the tokens a record may use (kinds of vessel, waters, equipment standards, S1 literae) come from
`ontology/manning.ttl` and the kb, so a new attribute needs no Python. A record is checked twice: a schema check
here, whose every message names file, field and what was expected, and the SHACL shapes of
`ontology/manning-shapes.ttl` on its RDF form, which also say which attributes each kind of vessel must give (the
ontology's crew:requiresAttribute). A roster is a list of person records (`records/persons.py`) under the key `crew`.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Phrase, Reason
from crewkg.law.statute import Law
from crewkg.locations import ontology_dir
from crewkg.manning.tables import ManningLaw
from crewkg.records.persons import ID_MAX, ID_RE, Checker, Person, near, person_from_mapping
from crewkg.records.reading import MAX_NUMBER, read_mapping

VESSEL_IRI = "https://w3id.org/crewkg/vessel/"
ROSTER_IRI = "https://w3id.org/crewkg/roster/"
SUFFIXES = {".yaml", ".yml", ".json"}
#: record contract (docs/vessels-and-rosters.md): passengers_on_board defaults to the permitted number and cannot exceed it
ON_BOARD, PERMITTED = "passengersOnBoard", "permittedPassengers"
#: the one integer attribute a record may also give as a list of lighters, counted by the kb's lighter equivalence
LIGHTER_COUNT = "lighterCount"


@dataclass
class Vessel:
    """A checked vessel record: attribute id (ontology property) -> value; terms as their kb/ontology ids."""

    id: str
    source: str
    values: dict[str, Any] = field(default_factory=dict)
    #: (length, total breadth, lighters side by side) per entry of a list of lighters, in formation order
    lighters: list[tuple[float, float, int]] | None = None

    def record(self, ml: ManningLaw) -> dict[str, Any]:
        """The record form (for caching and the API): record keys and tokens."""
        out: dict[str, Any] = {"id": self.id}
        for attr_id, value in sorted(self.values.items()):
            attr = ml.attributes[attr_id]
            out[attr.key] = ml.values[value].key if attr.type == "term" else value
        if self.lighters is not None:
            out["lighters"] = [list(x) for x in self.lighters]
        return out


def _file(path: Path, what: str) -> Path:
    if path.is_dir():
        raise InputError(str(path), "", "not_folder", what=Phrase("error.what." + what))
    if not path.exists():
        raise InputError(str(path), "", "existing_file")
    if path.suffix.lower() not in SUFFIXES:
        raise InputError(str(path), "", "yaml_or_json", path.suffix or path.name, what=Phrase("error.what." + what))
    return path


class _Check(Checker):
    """The record checker with the vessel's own number kinds (lengths, counts of at least N, tokens)."""

    def number(self, value: Any, fld: str, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(fld, "number", value)
        if not (isinstance(value, int) or math.isfinite(value)):  # YAML's .inf and .nan are floats
            raise self.fail(fld, "finite_number", value)
        if value < 0 or (positive and value == 0):
            raise self.fail(fld, "positive_number" if positive else "not_negative", value)
        if value > MAX_NUMBER:
            raise self.fail(fld, "at_most", value, max=MAX_NUMBER)
        return float(value)

    def whole(self, value: Any, fld: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(fld, "whole_from", value, minimum=minimum)
        if value < minimum:
            raise self.fail(fld, "whole_at_least", value, minimum=minimum)
        if value > MAX_NUMBER:
            raise self.fail(fld, "at_most", value, max=MAX_NUMBER)
        return value

    def token(self, value: Any, fld: str, allowed: list[str]) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(fld, "one_of", value, ids=allowed, near=near(value, allowed))
        return value


def vessel_from_mapping(data: Any, ml: ManningLaw, source: str) -> Vessel:
    """Schema check and conversion of a YAML/JSON vessel record (docs/vessels-and-rosters.md)."""
    c = _Check(source)
    if not isinstance(data, dict):
        raise c.fail("", "vessel_mapping", type(data).__name__)
    attrs = {a.key: a for a in ml.attributes.values()}
    nested = {k.split(".", 1)[0] for k in attrs if "." in k}
    known = sorted({k for k in attrs if "." not in k} | nested)
    for k in data:
        if k not in known:
            raise c.fail(str(k), "known_key", k, keys=known, near=near(k, known))
    vid = data.get("id")
    if not isinstance(vid, str) or not ID_RE.match(vid):
        raise c.fail("id", "id", vid, most=ID_MAX)
    v = Vessel(id=vid, source=source)
    flat: dict[str, Any] = {k: val for k, val in data.items() if k not in nested and k != "id"}
    for group in nested:
        if group not in data:
            continue
        sub = data[group]
        inner = sorted(k.split(".", 1)[1] for k in attrs if k.startswith(group + "."))
        if not isinstance(sub, dict):
            raise c.fail(group, "keys_mapping", sub, keys=inner)
        for k, val in sub.items():
            if k not in inner:
                raise c.fail(f"{group}.{k}", "known_key", k, keys=inner, near=near(k, inner))
            flat[f"{group}.{k}"] = val
    for key, raw in flat.items():
        attr = attrs[key]
        if attr.type == "number":
            v.values[attr.id] = c.number(raw, key)
        elif attr.type == "integer":
            if attr.id == LIGHTER_COUNT and isinstance(raw, list):
                v.lighters = _lighters(raw, key, c)
                v.values[attr.id] = count_lighters(v.lighters, ml)
            else:
                v.values[attr.id] = c.whole(raw, key)
        elif attr.type == "boolean":
            v.values[attr.id] = c.boolean(raw, key)
        elif attr.type == "term":
            tokens = ml.tokens(attr.range or "")
            value = ml.value_by_key(attr.range or "", c.token(raw, key, tokens))
            v.values[attr.id] = value.id if value else raw
        elif attr.type == "litera":
            if not isinstance(raw, list) or not raw:
                raise c.fail(key, "literae", raw, ids=list(ml.s1_literae))
            for i, x in enumerate(raw):
                c.token(x, f"{key}[{i}]", list(ml.s1_literae))
            v.values[attr.id] = sorted(set(raw))
    _defaults_and_consistency(v, ml, c)
    return v


def _lighters(raw: list, key: str, c: _Check) -> list[tuple[float, float, int]]:
    if not raw:
        raise c.fail(key, "lighters", raw)
    out = []
    for i, item in enumerate(raw):
        fld = f"{key}[{i}]"
        if not isinstance(item, dict) or not {"length_m", "breadth_m"} <= set(item) <= {"length_m", "breadth_m", "abreast"}:
            raise c.fail(fld, "lighter", item)
        abreast = c.whole(item["abreast"], f"{fld}.abreast", minimum=1) if "abreast" in item else 1
        out.append((c.number(item["length_m"], f"{fld}.length_m", positive=True),
                    c.number(item["breadth_m"], f"{fld}.breadth_m", positive=True), abreast))
    return out


def count_lighters(lighters: list[tuple[float, float, int]], ml: ManningLaw) -> int:
    """Leichter as the convoy table counts them (SchBesV 2004 § 13 Abs. 1 footnote *2, an interpretation recorded in
    the kb): consecutive entries form one while their summed length and largest breadth stay within the equivalence;
    an entry of several lighters side by side wider than that is no 'one Leichter': each of its lighters counts."""
    eq = next(iter(ml.rules_of("LighterEquivalence")), None)
    if eq is None or eq.max_length is None or eq.max_breadth is None:
        return sum(n for _, _, n in lighters)
    groups, length, breadth = 0, None, 0.0
    for ln, br, n in lighters:
        if n > 1 and br > eq.max_breadth:
            groups += n
            length, breadth = None, 0.0
            continue
        if length is not None and length + ln <= eq.max_length and max(breadth, br) <= eq.max_breadth:
            length, breadth = length + ln, max(breadth, br)
            continue
        groups += 1
        length, breadth = ln, br
    return groups


def _defaults_and_consistency(v: Vessel, ml: ManningLaw, c: _Check) -> None:
    """passengers_on_board defaults to the permitted number (docs/vessels-and-rosters.md) and cannot exceed it."""
    on_board, permitted = ml.attributes.get(ON_BOARD), ml.attributes.get(PERMITTED)
    if on_board is None or permitted is None:
        return
    if on_board.id not in v.values and permitted.id in v.values:
        v.values[on_board.id] = v.values[permitted.id]
    if on_board.id in v.values and permitted.id in v.values and v.values[on_board.id] > v.values[permitted.id]:
        raise c.fail(on_board.key, "passengers", v.values[on_board.id], key=permitted.key,
                     permitted=v.values[permitted.id])


# ------------------------------------------------------------------------------------------------------------------
# RDF and SHACL
# ------------------------------------------------------------------------------------------------------------------
def vessel_graph(v: Vessel, ml: ManningLaw):
    """The RDF form of a vessel record, in the terms of ontology/manning.ttl."""
    from decimal import Decimal

    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import RDF, XSD

    from crewkg.law.namespaces import CREW_IRI
    from crewkg.manning.tables import MANNING

    g = Graph()
    g.bind("crew", CREW_IRI)
    s = URIRef(VESSEL_IRI + v.id)
    g.add((s, RDF.type, MANNING.Vessel))
    g.add((s, MANNING.vesselId, Literal(v.id)))
    for attr_id, value in v.values.items():
        attr = ml.attributes[attr_id]
        p = URIRef(CREW_IRI + attr_id)
        if attr.type == "term":
            g.add((s, p, URIRef(CREW_IRI + value)))
        elif attr.type == "number":
            g.add((s, p, Literal(Decimal(str(value)), datatype=XSD.decimal)))
        elif attr.type == "integer":
            g.add((s, p, Literal(int(value), datatype=XSD.integer)))
        elif attr.type == "boolean":
            g.add((s, p, Literal(bool(value))))
        elif attr.type == "litera":
            for x in value:
                g.add((s, p, Literal(x)))
    return g


@lru_cache(maxsize=1)
def _shapes_text() -> str:
    return (ontology_dir() / "manning-shapes.ttl").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _shapes():
    from rdflib import Graph

    return Graph().parse(data=_shapes_text(), format="turtle")


@lru_cache(maxsize=1)
def _vocabulary():
    """The manning ontology: kinds with their required attributes and the classes the shapes check against."""
    from rdflib import Graph

    g = Graph()
    g.parse(ontology_dir() / "crew.ttl", format="turtle")
    g.parse(ontology_dir() / "manning.ttl", format="turtle")
    return g


def _shacl(data_graph, source: str, key: str, ml: ManningLaw, prefix: str = "") -> None:
    """Raise InputError naming the first violated shape, by the record's key for the attribute."""
    from crewkg.records.shacl import violations

    found = []
    for path, _node, msg in violations(data_graph, _vocabulary(), _shapes(), key):
        attr = ml.attributes.get(path) if path is not None else None
        found.append((attr.key if attr else (path or ""), msg))
    if found:
        fld, msg = sorted(found)[0]
        raise InputError(source, prefix + fld, "manning_shapes", reason=Reason(msg))


def _key(payload: Any, ml: ManningLaw) -> str:
    text = json.dumps(payload, sort_keys=True, default=str) + ml.version + _shapes_text()
    return "vessel-" + hashlib.sha256(text.encode()).hexdigest()[:24]


def load_vessel(path: Path, law: Law, ml: ManningLaw) -> Vessel:
    """Read, schema-check and SHACL-validate one vessel record."""
    return checked_vessel(read_mapping(_file(path, "vessel")), ml, str(path))


def checked_vessel(data: Any, ml: ManningLaw, source: str) -> Vessel:
    """A vessel record schema-checked and SHACL-validated: the one check of every face (CLI, Python API, casebook,
    service), so that a record lacking what the tables ask for is refused everywhere, never answered as a vessel no
    table covers."""
    v = vessel_from_mapping(data, ml, source)
    _shacl(vessel_graph(v, ml), source, _key(v.record(ml), ml), ml)
    return v


# ------------------------------------------------------------------------------------------------------------------
# Rosters
# ------------------------------------------------------------------------------------------------------------------
def roster_from_mapping(data: Any, law: Law, as_of: date, source: str) -> list[Person]:
    """A roster record: {crew: [person records], school_attendance: [{member, from, to}]} (docs/vessels-and-rosters.md):
    the crew in roster order, a list that carries the periods of school attendance (`attendance.Roster`)."""
    from crewkg.manning.attendance import Roster, read_attendance

    if not isinstance(data, dict):
        raise InputError(source, "", "roster_mapping", type(data).__name__)
    for k in data:
        if k not in ("crew", "school_attendance"):
            raise InputError(source, str(k), "roster_key", k)
    crew = data.get("crew")
    if not isinstance(crew, list) or not crew:
        raise InputError(source, "crew", "roster_crew", crew)
    persons: list[Person] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(crew):
        try:
            p = person_from_mapping(entry, law, as_of, source)
        except InputError as exc:
            raise exc.at(source, f"crew[{i}]" + (f".{exc.field}" if exc.field else "")) from None
        if p.id in seen:
            raise InputError(source, f"crew[{i}].id", "unique_crew_id", p.id, other=seen[p.id])
        seen[p.id] = i
        persons.append(p)
    return Roster(persons, read_attendance(data.get("school_attendance", []), list(seen), source))


def roster_name(path: Path) -> str:
    """The roster's name: its file name without suffix, in the characters an IRI segment keeps as they are."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in path.stem) or "roster"


def roster_key(name: str, persons: list[Person]) -> str:
    """The roster's segment of its IRIs (docs/identifiers.md): `<name>/<content hash>`. The hash is the first 12 hex
    digits of the SHA-256 of the crew's records in canonical JSON, so two rosters that share a file name but not their
    crew never share an IRI, and the same roster read twice (or from another folder) keeps it."""
    from crewkg.records.persons import person_to_mapping

    canonical = json.dumps([person_to_mapping(p) for p in persons], sort_keys=True, ensure_ascii=False, default=str)
    return f"{name}/{hashlib.sha256(canonical.encode('utf-8')).hexdigest()[:12]}"


def roster_iri(key: str):
    from rdflib import URIRef

    return URIRef(ROSTER_IRI + key)


def member_iri(key: str, pid: str):
    """A crew member of a roster: scoped by the roster, so the lena of one roster is never the lena of another, nor
    the person `person/lena` of a register."""
    from rdflib import URIRef

    return URIRef(f"{ROSTER_IRI}{key}/crew/{pid}")


def roster_graph(name: str, persons: list[Person]):
    from rdflib import Literal
    from rdflib.namespace import RDF, RDFS

    from crewkg.manning.tables import MANNING
    from crewkg.records.turtle import person_graph

    key = roster_key(name, persons)
    g = person_graph(persons[0], member_iri(key, persons[0].id))
    for p in persons[1:]:
        for triple in person_graph(p, member_iri(key, p.id)):
            g.add(triple)
    r = roster_iri(key)
    g.add((r, RDF.type, MANNING.Roster))
    g.add((r, RDFS.label, Literal(name)))
    for p in persons:
        g.add((r, MANNING.hasCrewMember, member_iri(key, p.id)))
    for i, a in enumerate(getattr(persons, "attendance", ())):  # the periods of school attendance the roster states
        from rdflib import URIRef

        node = URIRef(f"{r}/school-attendance/{i}")
        g.add((r, MANNING.hasSchoolAttendance, node))
        g.add((node, RDF.type, MANNING.SchoolAttendance))
        g.add((node, MANNING.attendingMember, member_iri(key, a.member)))
        g.add((node, MANNING.attendsFrom, Literal(a.start)))
        g.add((node, MANNING.attendsUntil, Literal(a.end)))
    return g


def load_roster(path: Path, law: Law, ml: ManningLaw, as_of: date) -> list[Person]:
    """Read and check a roster: each person by the schema check, which is as strict as the person shapes
    (`records.load`), the roster against manning-shapes."""
    return checked_roster(read_mapping(_file(path, "roster")), law, ml, as_of, str(path), roster_name(path))


def checked_roster(data: Any, law: Law, ml: ManningLaw, as_of: date, source: str, name: str) -> list[Person]:
    """A roster record schema-checked and SHACL-validated (the roster read from a file, or from a fleet's file)."""
    from crewkg.records.turtle import person_to_mapping

    persons = roster_from_mapping(data, law, as_of, source)
    key = _key({"roster": [person_to_mapping(p) for p in persons],
                "school_attendance": [a.record() for a in getattr(persons, "attendance", ())]}, ml)
    _shacl(roster_graph(name, persons), source, key, ml)
    return persons
