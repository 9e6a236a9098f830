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

from crewkg.errors import InputError, near  # noqa: F401  (near: the did-you-mean of every record check)
from crewkg.law.statute import Law

ID_RE = re.compile(r"^[A-Za-z0-9_-]+\Z")  # \Z: an id ending in a newline is no id
SUFFIXES = {".yaml", ".yml", ".json", ".ttl"}


@dataclass
class Programme:
    role: str
    months: int
    sailing_days: int = 0
    sailing_days_after: int = 0


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
    programmes: list[Programme] = field(default_factory=list)
    exams: list[str] = field(default_factory=list)
    certificates: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)


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
    "programmes": "programmes",
    "exams": "exam_ids",
    "certificates": "certificate_ids",
    "functions": "function_ids",
}
TOP_KEYS = set(FIELDS)
#: the keys of a completed programme and of an apprenticeship, with their kinds
PROGRAMME_FIELDS: dict[str, str] = {"for": "role", "months": "count", "sailing_days": "count", "sailing_days_after": "count"}
PROGRAMME_KEYS = set(PROGRAMME_FIELDS)
PROGRAMME_REQUIRED = ("for", "months")
APPRENTICESHIP_FIELDS: dict[str, str] = {"contract": "boolean", "year": "year"}
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")  # the one lexical form of xsd:date (fromisoformat takes more)


def record_files(path: Path) -> list[Path]:
    """The record files a path names: the file itself, or every record file in a folder (sorted)."""
    if path.is_dir():
        # a broken link is listed too, so reading it names it instead of skipping it without a word
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES and (p.is_file() or p.is_symlink()))
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

    def count(self, value: Any, fld: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(fld, "days", value)
        if value < 0:
            raise self.fail(fld, "not_negative", value)
        return value

    def number(self, value: Any, fld: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(fld, "years", value)
        if value < 0:
            raise self.fail(fld, "not_negative", value)
        return value

    def day(self, value: Any, fld: str) -> date:
        if isinstance(value, date):
            return value
        if isinstance(value, str) and ISO_DATE.match(value):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        raise self.fail(fld, "iso_date", value)

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
    """Schema check and conversion of a YAML/JSON record (docs/architecture.md, 'Records')."""
    c = Checker(source)
    c.mapping(data, "", TOP_KEYS)
    pid = data.get("id")
    if not isinstance(pid, str) or not ID_RE.match(pid):
        raise c.fail("id", "id", pid)
    p = Person(id=pid, source=source)
    if "birth_date" in data:
        p.birth_date = c.day(data["birth_date"], "birth_date")
        if p.birth_date > min(date.today(), as_of):
            raise c.fail("birth_date", "birth_date", str(p.birth_date))
    if "medical_fitness" in data:
        mf = data["medical_fitness"]
        if isinstance(mf, dict):
            c.mapping(mf, "medical_fitness", {"valid_until"})
            if "valid_until" not in mf:
                raise c.fail("medical_fitness.valid_until", "date")
            p.medical_fitness = True
            p.medical_valid_until = c.day(mf["valid_until"], "medical_fitness.valid_until")
        else:
            p.medical_fitness = c.boolean(mf, "medical_fitness")
    if "radio_certificate" in data:
        p.radio_certificate = c.boolean(data["radio_certificate"], "radio_certificate")
    if "basic_safety_training" in data:
        p.basic_safety_training = c.boolean(data["basic_safety_training"], "basic_safety_training")
    if "apprenticeship" in data:
        a = c.mapping(data["apprenticeship"], "apprenticeship", set(APPRENTICESHIP_FIELDS))
        if "contract" in a:
            p.apprenticeship_contract = c.boolean(a["contract"], "apprenticeship.contract")
        if "year" in a:
            year = c.count(a["year"], "apprenticeship.year")
            if year < 1:
                raise c.fail("apprenticeship.year", "apprenticeship_year", year)
            p.apprenticeship_year = year
    roles = law.ids_of("DeckCrewRole")
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
    if "programmes" in data:
        progs = data["programmes"]
        if not isinstance(progs, list):
            raise c.fail("programmes", "programmes", progs)
        for i, g in enumerate(progs):
            f = f"programmes[{i}]"
            c.mapping(g, f, PROGRAMME_KEYS)
            if g.get("for") not in roles:
                raise c.fail(f"{f}.for", "programme_role", g.get("for"), ids=roles, near=near(g.get("for"), roles))
            if "months" not in g:
                raise c.fail(f"{f}.months", "programme_months")
            months = c.count(g["months"], f"{f}.months")
            within = c.count(g.get("sailing_days", 0), f"{f}.sailing_days")
            after = c.count(g.get("sailing_days_after", 0), f"{f}.sailing_days_after")
            p.programmes.append(Programme(g["for"], months, within, after))
    if "exams" in data:
        p.exams = c.id_list(data["exams"], "exams", law.ids_of("Exam"), "exam")
    if "certificates" in data:
        p.certificates = c.id_list(data["certificates"], "certificates", sorted(law.certificates), "certificate")
    if "functions" in data:
        p.functions = c.id_list(data["functions"], "functions", law.ids_of("Function"), "function")
    return p


def person_to_mapping(p: Person) -> dict[str, Any]:
    """The record form of a Person (the inverse of person_from_mapping), used for Turtle input and the API."""
    out: dict[str, Any] = {"id": p.id}
    if p.birth_date:
        out["birth_date"] = p.birth_date.isoformat()
    if p.medical_valid_until:
        out["medical_fitness"] = {"valid_until": p.medical_valid_until.isoformat()}
    elif p.medical_fitness:
        out["medical_fitness"] = True
    for key in ("radio_certificate", "basic_safety_training"):
        if getattr(p, key):
            out[key] = True
    if p.apprenticeship_contract or p.apprenticeship_year:
        out["apprenticeship"] = {"contract": p.apprenticeship_contract}
        if p.apprenticeship_year:
            out["apprenticeship"]["year"] = p.apprenticeship_year
    if p.sailing_days:
        out["sailing_days"] = dict(p.sailing_days)
    if p.sea_days:
        back = {v: k for k, v in SEA_KEYS.items()}
        out["sea_days"] = {back[k]: v for k, v in p.sea_days.items()}
    for key in ("professional_experience_years", "vocational_training_years"):
        if getattr(p, key):
            out[key] = getattr(p, key)
    if p.programmes:
        out["programmes"] = [
            {"for": g.role, "months": g.months, "sailing_days": g.sailing_days, "sailing_days_after": g.sailing_days_after}
            for g in p.programmes
        ]
    for key in ("exams", "certificates", "functions"):
        if getattr(p, key):
            out[key] = list(getattr(p, key))
    return out
