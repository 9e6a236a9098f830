"""Person records (YAML, JSON or Turtle): reading, the schema check, and the mapping to RDF.

A record is checked twice: a schema check here (types, ranges, known ids — every message names file,
field and what was expected) and the SHACL shapes in `ontology/shapes.ttl` on the record's RDF form
(see `validation.py`). The ids a record may use (roles, certificates, exams, functions) come from the kb.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Phrase, near, os_reason  # noqa: F401  (near: the did-you-mean of every record check)
from crewkg.law.crediting import Credit
from crewkg.law.statute import Law
from crewkg.records.reading import LATEST_DAY, MAX_NUMBER

ID_MAX = 128  # an id names a record in file names, IRIs and messages: long enough for any register key, no longer
ID_RE = re.compile(rf"^[A-Za-z0-9_-]{{1,{ID_MAX}}}\Z")  # \Z: an id ending in a newline is no id
#: an apprenticeship lasts at most four years (Lehrzeit), so a later apprenticeship year is a typing error
APPRENTICESHIP_YEAR_MAX = 4
SUFFIXES = {".yaml", ".yml", ".json", ".ttl"}


@dataclass
class Programme:
    role: str
    months: int
    sailing_days: int = 0
    sailing_days_after: int = 0
    #: a dated programme: its first and last day (months and, with a service log, the days follow from them)
    start: date | None = None
    end: date | None = None
    #: with a service log: the credited days within or after it (the cap applies to them together)
    within_or_after: int | None = None
    #: a dated programme is completed ("absolviert", §§ 12–15 SchBV) on its last day; one still running on the
    #: evaluation date counts for no requirement yet (records.dated.apply). An undated one is a completed one.
    completed: bool = True


@dataclass(frozen=True)
class ServiceEntry:
    """One entry of the service log (Schifferdienstbuch): every calendar day from `start` to `end` is a Fahrtag."""

    start: date
    end: date
    waters: str = "inland"  # inland | sea
    role: str | None = None  # inland: the deck role served
    capacity: str | None = None  # sea: the ontology's capacity id (AsDeckCrew, AsMaster)
    validated: bool = True
    vessel: str | None = None


@dataclass
class Person:
    id: str
    source: str = ""
    birth_date: date | None = None
    medical_fitness: bool = False
    medical_valid_until: date | None = None
    radio_certificate: bool = False
    basic_safety_training: bool = False
    apprenticeship_contract: bool = False
    apprenticeship_year: int | None = None
    sailing_days: dict[str, int] = field(default_factory=dict)
    sea_days: dict[str, int] = field(default_factory=dict)
    professional_experience_years: float = 0
    vocational_training_years: float = 0
    #: length in days of a professional training in inland navigation with practical training in navigation
    #: (a recognised certificate of it shortens Fahrzeit where the kb says so, § 47 Abs. 5 SchBV)
    inland_training_days: int = 0
    programmes: list[Programme] = field(default_factory=list)
    exams: list[str] = field(default_factory=list)
    certificates: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    #: dated evidence: the service log (None: the record gives totals), exam and issue dates, the medical examination
    service: list[ServiceEntry] | None = None
    exam_passed: dict[str, date] = field(default_factory=dict)
    #: the hours a dated proof (an instruction) comprised, where the record states them
    exam_hours: dict[str, float] = field(default_factory=dict)
    certificate_issued: dict[str, date] = field(default_factory=dict)
    #: a held certificate the record named by another id, the issue date putting it in the window of this one
    #: (crew:datedFormOf): held id -> the id the record named
    certificate_named: dict[str, str] = field(default_factory=dict)
    medical_examined: date | None = None
    #: filled from the log on the evaluation date (records.dated): credited days in any deck role (the union of the
    #: days, not the sum of the roles' credited days), per sea capacity (its own days and those it includes), and
    #: per scope the Credit that explains a requirement's gap
    any_role_days: int | None = None
    sea_credited: dict[str, int] | None = None
    #: per sea capacity, where the log holds inland and sea entries: the calendar days credited inland or at sea in
    #: that capacity, each day once (a day two entries of different waters cover is one Fahrtag, § 2 Z 3 SchBV)
    with_sea_credited: dict[str, int] | None = None
    #: per dated programme (its index) and sea capacity: the credited sea days before the programme's first day
    sea_before: dict[tuple[int, str], int] = field(default_factory=dict)
    credits: dict[str, Credit] = field(default_factory=dict)
    #: the readings (kb crew:Reading ids) under which the record is evaluated instead of the ones applied: never from
    #: the record itself; a roster asks what a member could do under the other reading (manning.rosters)
    other_readings: frozenset[str] = frozenset()

    @property
    def dated(self) -> bool:
        """The record gives dated evidence, so eligible-since dates can be computed: a service log, or dates of its
        own (an exam passed, a certificate issued, the medical examination, a dated programme) and no undated count
        of time (totals of Fahrzeit or sea time, an undated programme, years of experience or training, days of
        inland training) whose days could have come later. Other undated items (a plain exam id, `medical_fitness:
        true`) count as held throughout, as with a service log."""
        if self.service is not None:
            return True
        dates = self.exam_passed or self.certificate_issued or self.medical_examined is not None \
            or any(g.start is not None for g in self.programmes)
        undated = self.sailing_days or self.sea_days or any(g.start is None for g in self.programmes) \
            or self.professional_experience_years or self.vocational_training_years or self.inland_training_days
        return bool(dates) and not undated

    def logged(self, waters: str) -> bool:
        """The log holds entries of these waters (then the totals of that kind of time come from it)."""
        return any(e.waters == waters for e in self.service or [])


#: record key -> ontology capacity id for sea_days
SEA_KEYS = {"deck_crew": "AsDeckCrew", "master": "AsMaster"}
#: The keys of a person record and the kind of value each takes: the one table of the record schema. The schema
#: check below takes its keys from it; the service's OpenAPI schema is generated from it (service/schema.py); and
#: tests/test_record_schema.py holds the check, that schema and the SHACL shapes (ontology/shapes.ttl) to the same
#: verdicts on a corpus of good and bad records.
FIELDS: dict[str, str] = {
    "id": "id",
    "birth_date": "date",
    "medical_fitness": "medical_fitness",
    "radio_certificate": "boolean",
    "basic_safety_training": "boolean",
    "apprenticeship": "apprenticeship",
    "sailing_days": "days_per_role",
    "sea_days": "days_per_capacity",
    "professional_experience_years": "years",
    "vocational_training_years": "years",
    "inland_training_days": "count",
    "programmes": "programmes",
    "service": "service_log",
    "exams": "exam_ids",
    "certificates": "certificate_ids",
    "functions": "function_ids",
}
TOP_KEYS = set(FIELDS)
#: the keys of a completed programme and of an apprenticeship, with their kinds
PROGRAMME_FIELDS: dict[str, str] = {"for": "role", "months": "count", "sailing_days": "count", "sailing_days_after": "count",
                                    "from": "date", "to": "date"}
PROGRAMME_KEYS = set(PROGRAMME_FIELDS)
PROGRAMME_REQUIRED = ("for",)
#: the keys of a service log entry with their kinds (`waters` inland | sea; `capacity` sea only, `role` inland only)
SERVICE_FIELDS: dict[str, str] = {"from": "date", "to": "date", "role": "role", "waters": "waters", "capacity": "capacity",
                                  "validated": "boolean", "vessel": "text"}
WATERS = ("inland", "sea")
#: a dated exam and a dated certificate held
EXAM_FIELDS: dict[str, str] = {"id": "exam_id", "passed": "date", "hours": "hours"}
CERTIFICATE_FIELDS: dict[str, str] = {"id": "certificate_id", "issued": "date"}
MEDICAL_FIELDS: dict[str, str] = {"valid_until": "date", "examined": "date"}
VESSEL_MAX = 200
APPRENTICESHIP_FIELDS: dict[str, str] = {"contract": "boolean", "year": "year"}
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")  # the one lexical form of xsd:date (fromisoformat takes more)


def record_files(path: Path) -> list[Path]:
    """The record files a path names: the file itself, or every record file in a folder (sorted)."""
    if path.is_dir():
        # a broken link or a named pipe is listed too, so reading it names it instead of skipping it without a word
        try:
            files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and not p.is_dir())
        except OSError as exc:  # a folder that cannot be listed (no permission): named, with the reason
            raise InputError(str(path), "", "readable_folder", os_reason(exc)) from None
        if not files:
            raise InputError(str(path), "", "record_folder")
        return files
    if not path.exists():
        raise InputError(str(path), "", "existing_path")
    return [path]

class Checker:
    """Small typed accessors that raise InputError with the field path (person, vessel and roster records)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, fld: str, expected: str, got: object = None, **fields: object) -> InputError:
        return InputError(self.source, fld, expected, got, **fields)

    def boolean(self, value: Any, fld: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(fld, "boolean", value)
        return value

    def count(self, value: Any, fld: str, unit: str = "days") -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(fld, unit, value)
        if value < 0:
            raise self.fail(fld, "not_negative", value)
        if value > MAX_NUMBER:
            raise self.fail(fld, "at_most", value, max=MAX_NUMBER)
        return value

    def number(self, value: Any, fld: str, expected: str = "years") -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (isinstance(value, int) or math.isfinite(value)):
            raise self.fail(fld, expected, value)
        if value < 0:
            raise self.fail(fld, "not_negative", value)
        if value > MAX_NUMBER:
            raise self.fail(fld, "at_most", value, max=MAX_NUMBER)
        return value

    def day(self, value: Any, fld: str) -> date:
        """An ISO date not after LATEST_DAY (a later one is refused: the law's periods could not be reckoned from it)."""
        if isinstance(value, str) and ISO_DATE.match(value):
            try:
                value = date.fromisoformat(value)
            except ValueError:
                pass
        if not isinstance(value, date):
            raise self.fail(fld, "iso_date", value)
        if value > LATEST_DAY:
            raise self.fail(fld, "date_in_reach", value.isoformat(), latest=LATEST_DAY.isoformat())
        return value

    def mapping(self, value: Any, fld: str, keys: set[str] | None = None) -> dict:
        if not isinstance(value, dict):
            raise self.fail(fld, "mapping", value)
        if keys is not None:
            for k in value:
                if k not in keys:
                    raise self.fail(f"{fld}.{k}" if fld else str(k), "known_key", k, keys=sorted(keys), near=near(k, keys))
        return value

    def id_list(self, value: Any, fld: str, allowed: list[str], what: str) -> list[str]:
        if not isinstance(value, list):
            raise self.fail(fld, f"id_list.{what}", value)
        for i, v in enumerate(value):
            if v not in allowed:
                raise self.fail(f"{fld}[{i}]", f"known_id.{what}", v, ids=allowed, near=near(v, allowed))
        return list(dict.fromkeys(value))


def person_from_mapping(data: Any, law: Law, as_of: date, source: str) -> Person:
    """Schema check and conversion of a YAML/JSON record (docs/person-records.md). The fields are checked in
    a fixed order, so a record with several errors is always refused for the same one first."""
    c = Checker(source)
    c.mapping(data, "", TOP_KEYS)
    p = Person(id=_person_id(c, data), source=source)
    if "birth_date" in data:
        p.birth_date = c.day(data["birth_date"], "birth_date")
        if p.birth_date > min(date.today(), as_of):
            raise c.fail("birth_date", "birth_date", str(p.birth_date))
    if "medical_fitness" in data:
        _medical_fitness(c, data["medical_fitness"], p)
    if "radio_certificate" in data:
        p.radio_certificate = c.boolean(data["radio_certificate"], "radio_certificate")
    if "basic_safety_training" in data:
        p.basic_safety_training = c.boolean(data["basic_safety_training"], "basic_safety_training")
    if "apprenticeship" in data:
        _apprenticeship(c, data["apprenticeship"], p)
    roles = law.ids_of("DeckCrewRole")
    _time_counted(c, data, p, roles)
    if "service" in data:
        _service_log(c, data, p, roles)
    if "programmes" in data:
        progs = data["programmes"]
        if not isinstance(progs, list):
            raise c.fail("programmes", "programmes", progs)
        for i, g in enumerate(progs):
            p.programmes.append(programme(c, g, f"programmes[{i}]", roles, p.logged("inland"), "sailing_days" in data))
    _qualifications(c, data, p, law)
    from crewkg.records.dated import apply

    return apply(p, law, as_of)


def _person_id(c: Checker, data: dict) -> str:
    pid = data.get("id")
    if not isinstance(pid, str) or not ID_RE.match(pid):
        raise c.fail("id", "id", pid if "id" in data else Phrase("error.field_absent"), most=ID_MAX)
    return pid


def _medical_fitness(c: Checker, mf: Any, p: Person) -> None:
    """`medical_fitness`: true or false, or the proof's dates (valid until, examined; not ending before it was held)."""
    if isinstance(mf, dict):
        c.mapping(mf, "medical_fitness", set(MEDICAL_FIELDS))
        if not mf:
            raise c.fail("medical_fitness.valid_until", "date")
        p.medical_fitness = True
        if "valid_until" in mf:
            p.medical_valid_until = c.day(mf["valid_until"], "medical_fitness.valid_until")
        if "examined" in mf:
            p.medical_examined = c.day(mf["examined"], "medical_fitness.examined")
        if p.medical_examined and p.medical_valid_until and p.medical_valid_until < p.medical_examined:
            raise c.fail("medical_fitness.valid_until", "medical_order", p.medical_valid_until.isoformat(),
                         examined=p.medical_examined.isoformat())
    elif not isinstance(mf, bool):  # say every form the key takes, as the CSV cell's message does
        raise c.fail("medical_fitness", "medical_fitness", mf)
    else:
        p.medical_fitness = mf


def _apprenticeship(c: Checker, value: Any, p: Person) -> None:
    """`apprenticeship`: whether a contract is held, and the year of the apprenticeship."""
    a = c.mapping(value, "apprenticeship", set(APPRENTICESHIP_FIELDS))
    if "contract" in a:
        p.apprenticeship_contract = c.boolean(a["contract"], "apprenticeship.contract")
    if "year" in a:
        year = a["year"]
        if isinstance(year, bool) or not isinstance(year, int) or not 1 <= year <= APPRENTICESHIP_YEAR_MAX:
            raise c.fail("apprenticeship.year", "apprenticeship_year", year, most=APPRENTICESHIP_YEAR_MAX)
        p.apprenticeship_year = year


def _time_counted(c: Checker, data: dict, p: Person, roles: list[str]) -> None:
    """The totals of time the record states: sailing days per deck role, sea days per capacity, years of
    professional experience and vocational training, days of inland training."""
    if "sailing_days" in data:
        sd = c.mapping(data["sailing_days"], "sailing_days")
        for role, days in sd.items():
            if role not in roles:
                raise c.fail(f"sailing_days.{role}", "deck_role", role, ids=roles, near=near(role, roles))
            p.sailing_days[role] = c.count(days, f"sailing_days.{role}")
    if "sea_days" in data:
        sea = c.mapping(data["sea_days"], "sea_days", set(SEA_KEYS))
        for key, days in sea.items():
            p.sea_days[SEA_KEYS[key]] = c.count(days, f"sea_days.{key}")
    if "professional_experience_years" in data:
        p.professional_experience_years = c.number(data["professional_experience_years"], "professional_experience_years")
    if "vocational_training_years" in data:
        p.vocational_training_years = c.number(data["vocational_training_years"], "vocational_training_years")
    if "inland_training_days" in data:
        p.inland_training_days = c.count(data["inland_training_days"], "inland_training_days")


def _service_log(c: Checker, data: dict, p: Person, roles: list[str]) -> None:
    """`service`: the dated log, no longer than any count may hold, none of it before the birth date, and not beside
    the totals of the same kind of time."""
    log = data["service"]
    if not isinstance(log, list):
        raise c.fail("service", "service_list", log)
    p.service = [service_entry(c, e, f"service[{i}]", roles) for i, e in enumerate(log)]
    if p.service:  # every day of a log is counted: no log spans more days than any count may hold
        first = min(e.start for e in p.service)
        late = max(range(len(p.service)), key=lambda i: p.service[i].end)
        if (p.service[late].end - first).days >= MAX_NUMBER:
            raise c.fail(f"service[{late}].to", "service_span", p.service[late].end.isoformat(), max=MAX_NUMBER,
                         start=first.isoformat())
    born = p.birth_date
    early = next((i for i, e in enumerate(p.service) if born is not None and e.start < born), None)
    if early is not None:
        raise c.fail(f"service[{early}].from", "service_after_birth", p.service[early].start.isoformat(),
                     birth=str(born))
    for waters, key in (("inland", "sailing_days"), ("sea", "sea_days")):
        if p.logged(waters) and key in data:
            first_entry = next(i for i, e in enumerate(p.service) if e.waters == waters)
            raise c.fail(key, f"totals_beside_log.{waters}", first=first_entry)


def _qualifications(c: Checker, data: dict, p: Person, law: Law) -> None:
    """The exams passed and the certificates held (each with its date where given: a certificate read by its issue
    date, `dated_forms`), and the functions held."""
    if "exams" in data:
        p.exams, p.exam_passed = dated_ids(c, data["exams"], "exams", law.ids_of("Exam"), "exam", "passed", p.exam_hours)
    if "certificates" in data:
        named, issued = dated_ids(c, data["certificates"], "certificates", sorted(law.certificates), "certificate", "issued")
        p.certificates, p.certificate_issued, p.certificate_named = dated_forms(law, named, issued)
    if "functions" in data:
        p.functions = c.id_list(data["functions"], "functions", law.ids_of("Function"), "function")


def service_entry(c: Checker, e: Any, f: str, roles: list[str]) -> ServiceEntry:
    """One entry of the service log, checked: dates in order, an inland entry names a role, a sea entry a capacity."""
    c.mapping(e, f, set(SERVICE_FIELDS))
    for key in ("from", "to"):
        if key not in e:
            raise c.fail(f"{f}.{key}", f"service_{key}")
    start, end = c.day(e["from"], f"{f}.from"), c.day(e["to"], f"{f}.to")
    if end < start:
        raise c.fail(f"{f}.to", "service_order", end.isoformat(), start=start.isoformat())
    waters = e.get("waters", "inland")
    if waters not in WATERS:
        raise c.fail(f"{f}.waters", "waters", waters, ids=list(WATERS), near=near(waters, WATERS))
    validated = c.boolean(e.get("validated", True), f"{f}.validated")
    vessel = e.get("vessel")
    if vessel is not None and (not isinstance(vessel, str) or len(vessel) > VESSEL_MAX):
        raise c.fail(f"{f}.vessel", "vessel_name", vessel, n=VESSEL_MAX)
    if waters == "inland":
        if "capacity" in e:
            raise c.fail(f"{f}.capacity", "inland_no_capacity", e["capacity"])
        if e.get("role") not in roles:
            raise c.fail(f"{f}.role", "service_role", e.get("role"), ids=roles, near=near(e.get("role"), roles))
        return ServiceEntry(start, end, "inland", role=e["role"], validated=validated, vessel=vessel)
    if "role" in e:
        raise c.fail(f"{f}.role", "sea_no_role", e["role"], ids=sorted(SEA_KEYS))
    if not isinstance(e.get("capacity"), str) or e["capacity"] not in SEA_KEYS:
        raise c.fail(f"{f}.capacity", "sea_capacity", e.get("capacity"), ids=sorted(SEA_KEYS),
                     near=near(e.get("capacity"), SEA_KEYS))
    return ServiceEntry(start, end, "sea", capacity=SEA_KEYS[e["capacity"]], validated=validated, vessel=vessel)


def programme(c: Checker, g: Any, f: str, roles: list[str], logged: bool, totals: bool = False) -> Programme:
    """A completed programme: its months, or its dates (then the months follow from them, and with an inland
    service log the days within and after it too; beside inland totals, which cannot say which of their days fell
    within it, the record states them)."""
    from crewkg.law.crediting import completed_months

    c.mapping(g, f, PROGRAMME_KEYS)
    if g.get("for") not in roles:
        raise c.fail(f"{f}.for", "programme_role", g.get("for"), ids=roles, near=near(g.get("for"), roles))
    dated = "from" in g or "to" in g
    if not dated:
        if "months" not in g:
            raise c.fail(f"{f}.months", "programme_months_or_dates")
        if logged:
            raise c.fail(f"{f}.from", "programme_dates_beside_log")
        return Programme(g["for"], c.count(g["months"], f"{f}.months", "months"), c.count(g.get("sailing_days", 0), f"{f}.sailing_days"),
                         c.count(g.get("sailing_days_after", 0), f"{f}.sailing_days_after"))
    for key in ("from", "to"):
        if key not in g:
            raise c.fail(f"{f}.{key}", "programme_both_dates")
    start, end = c.day(g["from"], f"{f}.from"), c.day(g["to"], f"{f}.to")
    if end < start:
        raise c.fail(f"{f}.to", "programme_order", end.isoformat(), start=start.isoformat())
    months = completed_months(start, date.fromordinal(end.toordinal() + 1))
    if "months" in g and c.count(g["months"], f"{f}.months", "months") != months:
        raise c.fail(f"{f}.months", "programme_months_from_dates", g["months"], n=months, start=start.isoformat(),
                         end=end.isoformat())
    for key in ("sailing_days", "sailing_days_after"):
        if logged and key in g:
            raise c.fail(f"{f}.{key}", "programme_days_beside_log", g[key])
    if totals and not logged and "sailing_days" not in g and "sailing_days_after" not in g:
        raise c.fail(f"{f}.sailing_days", "programme_days_beside_totals")
    return Programme(g["for"], months, c.count(g.get("sailing_days", 0), f"{f}.sailing_days"),
                     c.count(g.get("sailing_days_after", 0), f"{f}.sailing_days_after"), start=start, end=end)


def dated_ids(c: Checker, value: Any, fld: str, allowed: list[str], what: str, key: str,
              hours: dict[str, float] | None = None) -> tuple[list[str], dict[str, date]]:
    """A list of ids, each plain or {id, <key>: date}: the ids (in record order, once each) and the dates given. Given
    `hours`, an entry may also state its hours (a dated instruction), which are put there."""
    if not isinstance(value, list):
        raise c.fail(fld, f"id_list.{what}", value)
    ids: list[str] = []
    dates: dict[str, date] = {}
    for i, v in enumerate(value):
        if isinstance(v, dict):
            c.mapping(v, f"{fld}[{i}]", {"id", key} | ({"hours"} if hours is not None else set()))
            if key not in v:
                raise c.fail(f"{fld}[{i}].{key}", "iso_date")
            if hours is not None and "hours" in v:
                hours[str(v.get("id"))] = c.number(v["hours"], f"{fld}[{i}].hours", "hours")
            if v.get("id") not in allowed:
                raise c.fail(f"{fld}[{i}].id", f"known_id.{what}", v.get("id"), ids=allowed, near=near(v.get("id"), allowed))
            on = c.day(v[key], f"{fld}[{i}].{key}")
            dates[v["id"]] = min(on, dates.get(v["id"], on))
            v = v["id"]
        elif v not in allowed:
            raise c.fail(f"{fld}[{i}]", f"known_id.{what}", v, ids=allowed, near=near(v, allowed))
        ids.append(v)
    return list(dict.fromkeys(ids)), dates


def dated_forms(law: Law, ids: list[str], issued: dict[str, date]) -> tuple[list[str], dict[str, date], dict[str, str]]:
    """The certificates a record holds when it names `ids` issued on `issued`: each named certificate whose issue date
    lies outside its window is the certificate that is its dated form for that date (`Law.dated_form`, from the kb's
    crew:datedFormOf), with the ids the record named for them; the issue dates follow the certificates."""
    held: list[str] = []
    dates: dict[str, date] = {}
    named: dict[str, str] = {}
    for cid in ids:
        on = issued.get(cid)
        got = law.dated_form(cid, on)
        if got != cid:
            named[got] = cid
        held.append(got)
        if on is not None:
            dates[got] = min(on, dates.get(got, on))
    return list(dict.fromkeys(held)), dates, named


def person_to_mapping(p: Person) -> dict[str, Any]:
    """The record form of a Person (the inverse of person_from_mapping), used for Turtle input and the API."""
    out: dict[str, Any] = {"id": p.id}
    if p.birth_date:
        out["birth_date"] = p.birth_date.isoformat()
    if p.medical_valid_until or p.medical_examined:
        out["medical_fitness"] = {k: v.isoformat() for k, v in (("valid_until", p.medical_valid_until),
                                                                 ("examined", p.medical_examined)) if v}
    elif p.medical_fitness:
        out["medical_fitness"] = True
    for key in ("radio_certificate", "basic_safety_training"):
        if getattr(p, key):
            out[key] = True
    if p.apprenticeship_contract or p.apprenticeship_year:
        out["apprenticeship"] = {"contract": p.apprenticeship_contract}
        if p.apprenticeship_year:
            out["apprenticeship"]["year"] = p.apprenticeship_year
    if p.sailing_days and not p.logged("inland"):
        out["sailing_days"] = dict(p.sailing_days)
    if p.sea_days and not p.logged("sea"):
        back = {v: k for k, v in SEA_KEYS.items()}
        out["sea_days"] = {back[k]: v for k, v in p.sea_days.items()}
    for key in ("professional_experience_years", "vocational_training_years", "inland_training_days"):
        if getattr(p, key):
            out[key] = getattr(p, key)
    if p.programmes:
        out["programmes"] = [_programme_mapping(g, p.logged("inland")) for g in p.programmes]
    if p.service is not None:
        back = {v: k for k, v in SEA_KEYS.items()}
        out["service"] = [{"from": e.start.isoformat(), "to": e.end.isoformat(), "waters": e.waters}
                          | ({"role": e.role} if e.role else {"capacity": back[e.capacity or ""]})
                          | ({} if e.validated else {"validated": False}) | ({"vessel": e.vessel} if e.vessel else {})
                          for e in p.service]
    for key, dates, on in (("exams", p.exam_passed, "passed"), ("certificates", p.certificate_issued, "issued"),
                           ("functions", {}, "")):
        if getattr(p, key):
            named = p.certificate_named if key == "certificates" else {}  # as the record named it: read back alike
            out[key] = [{"id": named.get(i, i), on: dates[i].isoformat()} | ({"hours": p.exam_hours[i]} if key == "exams" and i in p.exam_hours else {})
                        if i in dates else i for i in getattr(p, key)]
    return out


def _programme_mapping(g: Programme, logged: bool) -> dict[str, Any]:
    if g.start is None or g.end is None:
        return {"for": g.role, "months": g.months, "sailing_days": g.sailing_days, "sailing_days_after": g.sailing_days_after}
    out: dict[str, Any] = {"for": g.role, "from": g.start.isoformat(), "to": g.end.isoformat()}
    return out if logged else out | {"sailing_days": g.sailing_days, "sailing_days_after": g.sailing_days_after}
