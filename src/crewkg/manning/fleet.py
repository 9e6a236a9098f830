"""Fleet records (YAML or JSON): a shipping company's or a school's vessels, each with its roster, for the forecast
of `crewkg fleet` (docs/fleet.md, design contract "Fleet forecast").

```yaml
id: donau-reederei
vessels:
  - vessel: ../vessels/01-ms-wachau-danube-day-trip.yaml   # a vessel record: a file relative to the fleet file,
    roster: rosters/ms-wachau.yaml                         #   or the mapping itself; a roster record, likewise
```

Each vessel and each roster is read and checked as `crewkg crew` reads it (`vessels.py`); the fleet itself by a
schema check here, whose every message names file, field and expectation, and by the SHACL shapes of
`ontology/manning-shapes.ttl` on its RDF form (crew:Fleet, crew:operates, crew:crewedBy). A roster may carry the dated
periods of school attendance (`school_attendance: [{member, from, to}]`), read as `crewkg crew` reads them
(`manning.attendance`): the forecast takes the member off board on those days and applies a temporary reduction only
where its dated conditions hold."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.manning.attendance import Attendance, Roster
from crewkg.manning.tables import ManningLaw
from crewkg.manning.vessels import Vessel
from crewkg.records.persons import ID_MAX, ID_RE, Checker, Person
from crewkg.records.reading import read_mapping

FLEET_IRI = "https://w3id.org/crewkg/fleet/"
#: the keys of a fleet record and of each of its vessels
FLEET_KEYS = {"id", "vessels"}
ENTRY_KEYS = {"vessel", "roster"}


@dataclass
class FleetVessel:
    """One vessel of a fleet with its roster: the crew as person records and the roster's school periods."""

    vessel: Vessel
    crew: list[Person]
    roster: str  # where the roster was read (a file, or the fleet file's field)
    school: tuple[Attendance, ...] = ()
    #: where the vessel record and the roster were read (a file, or the fleet file), and the field prefix there
    where: dict[str, tuple[str, str]] = field(default_factory=dict)


@dataclass
class Fleet:
    id: str
    source: str
    vessels: list[FleetVessel]


def load_fleet(path: Path, law: Law, ml: ManningLaw, as_of: date) -> Fleet:
    """Read and check a fleet file, its vessels and rosters (paths relative to the fleet file's folder)."""
    if path.is_dir():
        raise InputError(str(path), "", "fleet_file")
    if not path.exists():
        raise InputError(str(path), "", "existing_file")
    return fleet_from_mapping(read_mapping(path, "fleet"), law, ml, as_of, str(path), path.parent)


def fleet_from_mapping(data: Any, law: Law, ml: ManningLaw, as_of: date, source: str, folder: Path | None) -> Fleet:
    """Schema check of a fleet record, then each vessel and roster as `crewkg crew` reads it, then the fleet's SHACL
    shapes. `folder` is where relative paths start (None: the working folder)."""
    c = Checker(source)
    if not isinstance(data, dict):
        raise c.fail("", "fleet_mapping", type(data).__name__)
    c.mapping(data, "", FLEET_KEYS)
    fid = data.get("id")
    if not isinstance(fid, str) or not ID_RE.match(fid):
        raise c.fail("id", "id", fid, most=ID_MAX)
    entries = data.get("vessels")
    if not isinstance(entries, list) or not entries:
        raise c.fail("vessels", "fleet_vessels", entries)
    out: list[FleetVessel] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        where = f"vessels[{i}]"
        c.mapping(entry, where, ENTRY_KEYS)
        for k in sorted(ENTRY_KEYS):
            if k not in entry:
                raise c.fail(f"{where}.{k}", f"fleet_{k}", None)
        fv = _entry(entry, law, ml, as_of, source, where, folder)
        if fv.vessel.id in seen:
            raise c.fail(f"{where}.vessel", "unique_fleet_vessel", fv.vessel.id, other=seen[fv.vessel.id])
        seen[fv.vessel.id] = i
        out.append(fv)
    fleet = Fleet(fid, source, out)
    _shacl(fleet, ml)
    return fleet


def _entry(entry: dict, law: Law, ml: ManningLaw, as_of: date, source: str, where: str, folder: Path | None) -> FleetVessel:
    """One vessel of the fleet and its roster, each a file or the mapping itself, by the schema checks of `crewkg
    crew` (their SHACL shapes are checked once for the whole fleet, `_shacl`)."""
    from crewkg.manning.vessels import _file, vessel_from_mapping

    vessel = _record(entry["vessel"], source, f"{where}.vessel", folder)
    if isinstance(vessel, Path):
        v = vessel_from_mapping(read_mapping(_file(vessel, "vessel")), ml, str(vessel))
        at_vessel = (str(vessel), "")
    else:
        at_vessel = (source, f"{where}.vessel.")
        try:
            v = vessel_from_mapping(vessel, ml, source)
        except InputError as exc:
            raise exc.at(source, at_vessel[1] + exc.field if exc.field else at_vessel[1].rstrip(".")) from None
    roster = _record(entry["roster"], source, f"{where}.roster", folder)
    if isinstance(roster, Path):
        data, at_roster = read_mapping(_file(roster, "roster")), (str(roster), "")
    else:
        data, at_roster = roster, (source, f"{where}.roster.")
    crew = _roster(data, law, as_of, *at_roster)
    return FleetVessel(v, crew, at_roster[0] if not at_roster[1] else f"{source}: {where}.roster", crew.attendance,
                       {"vessel": at_vessel, "roster": at_roster})


def _record(value: Any, source: str, fld: str, folder: Path | None) -> Path | dict:
    """A record named by its path (relative to the fleet file) or given as a mapping."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.strip():
        raise InputError(source, fld, "fleet_record", value)
    path = Path(value)
    return path if path.is_absolute() or folder is None else folder / path


def _roster(data: Any, law: Law, as_of: date, source: str, prefix: str) -> Roster:
    """The crew of a roster record and its school-attendance periods, schema-checked as `crewkg crew` checks them."""
    from crewkg.manning.vessels import roster_from_mapping

    try:
        return roster_from_mapping(data, law, as_of, source)
    except InputError as exc:
        if not prefix:
            raise
        raise exc.at(source, prefix + exc.field if exc.field else prefix.rstrip(".")) from None


# ------------------------------------------------------------------------------------------------------------------
# RDF and SHACL
# ------------------------------------------------------------------------------------------------------------------
def fleet_graph(fleet: Fleet, ml: ManningLaw, vessels: list[Vessel] | None = None):
    """The RDF form of a fleet record in the terms of ontology/manning.ttl: the fleet operates its vessels (by their
    ids; the records named in `vessels` in their whole RDF form), each crewed by its roster (whose members were
    checked against the person shapes when the roster was read)."""
    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import RDF

    from crewkg.law.namespaces import CREW, CREW_IRI
    from crewkg.manning.tables import MANNING
    from crewkg.manning.vessels import VESSEL_IRI, member_iri, roster_iri, roster_key, vessel_graph

    g = Graph()
    g.bind("crew", CREW_IRI)
    f = URIRef(FLEET_IRI + fleet.id)
    g.add((f, RDF.type, MANNING.Fleet))
    g.add((f, MANNING.fleetId, Literal(fleet.id)))
    for v in vessels or []:
        g += vessel_graph(v, ml)
    for fv in fleet.vessels:
        v = URIRef(VESSEL_IRI + fv.vessel.id)
        g.add((f, MANNING.operates, v))
        g.add((v, MANNING.vesselId, Literal(fv.vessel.id)))
        key = roster_key(fv.vessel.id, fv.crew)
        r = roster_iri(key)
        g.add((r, RDF.type, MANNING.Roster))
        g.add((v, MANNING.crewedBy, r))
        for p in fv.crew:
            g.add((r, MANNING.hasCrewMember, member_iri(key, p.id)))
            g.add((member_iri(key, p.id), RDF.type, CREW.Person))
    return g


def _shacl(fleet: Fleet, ml: ManningLaw) -> None:
    """Raise InputError naming the first violated shape: the fleet's, a vessel's or a roster's, all checked in one
    run of pySHACL (one run per record of a fleet of fifty vessels took twenty seconds). A vessel record that
    conformed before (as `crewkg crew` read it, or in another fleet) is not checked again; each that conforms now is
    remembered by its own content, as `crewkg crew` remembers it."""
    from crewkg.errors import Reason
    from crewkg.manning.vessels import VESSEL_IRI, _key, _shapes, _shapes_text, _vocabulary, roster_iri, roster_key
    from crewkg.records.shacl import remember, seen, violations

    keys = {fv.vessel.id: _key(fv.vessel.record(ml), ml) for fv in fleet.vessels}
    todo = {k: fv.vessel for fv in fleet.vessels if not seen(k := keys[fv.vessel.id])}
    text = json.dumps([fleet.id, sorted(todo), [roster_key(fv.vessel.id, fv.crew) for fv in fleet.vessels]],
                      sort_keys=True) + ml.version + _shapes_text()
    found = violations(fleet_graph(fleet, ml, list(todo.values())), _vocabulary(), _shapes(),
                       "fleet-" + hashlib.sha256(text.encode()).hexdigest()[:24])
    if not found:
        for k in todo:
            remember(k)
        return
    places = {VESSEL_IRI + fv.vessel.id: ("vessel", fv) for fv in fleet.vessels}
    places |= {str(roster_iri(roster_key(fv.vessel.id, fv.crew))): ("roster", fv) for fv in fleet.vessels}
    said = []
    for path, node, msg in found:
        what, fv = places.get(str(node), (None, None))
        attr = ml.attributes.get(path) if path is not None else None
        fld = attr.key if attr else (path or "")
        if fv is None:
            said.append((fleet.source, fld, "fleet_shapes", msg))
        else:
            src, prefix = fv.where[what]
            said.append((src, prefix + fld if fld else prefix.rstrip("."), "manning_shapes", msg))
    src, fld, expected, msg = sorted(said)[0]
    raise InputError(src, fld, expected, reason=Reason(msg))
