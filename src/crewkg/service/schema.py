"""The JSON schemas of the API's request bodies. The person record's schema is generated from the records' field
table (records.persons.FIELDS) and the kb's ids, so it cannot drift from the schema check that validates a record
(persons.person_from_mapping) nor from the SHACL shapes (tests/test_record_schema.py holds all three to the same
verdicts). Descriptions come from the message catalogue, in the language of the page that shows them."""

from __future__ import annotations

from typing import Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import (
    APPRENTICESHIP_FIELDS,
    APPRENTICESHIP_YEAR_MAX,
    FIELDS,
    ID_RE,
    PROGRAMME_FIELDS,
    SEA_KEYS,
    SERVICE_FIELDS,
)

COUNT = {"type": "integer", "minimum": 0}
DATE = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
EXAMPLE = {"id": "anna", "birth_date": "2001-05-03", "medical_fitness": True, "radio_certificate": True,
           "sailing_days": {"Decksmann": 200, "Matrose": 180}, "exams": ["Anlage8"], "certificates": ["UBZ-Matrose"]}


def _closed(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = required
    return out


def kinds(law: Law, lang: str) -> dict[str, dict[str, Any]]:
    """The JSON schema of each kind of value in the field tables; the ids a record may use are the kb's."""
    roles = law.ids_of("DeckCrewRole")
    scalar = {"boolean": {"type": "boolean"}, "count": COUNT, "year": {"type": "integer", "minimum": 1, "maximum": APPRENTICESHIP_YEAR_MAX},
              "role": {"type": "string", "enum": roles}, "date": DATE, "text": {"type": "string"}}
    exams = {"enum": sorted(law.ids_of("Exam"), key=lambda e: (len(e), e))}
    certificates = {"enum": sorted(law.certificates)}
    # an inland entry names a role (waters inland or left out), a sea entry its capacity: exactly one of the two forms
    entry = {k: scalar.get(kind, {}) for k, kind in SERVICE_FIELDS.items()}
    inland = _closed({k: v for k, v in entry.items() if k != "capacity"} | {"waters": {"enum": ["inland"]}}, ["from", "to", "role"])
    sea = _closed({k: v for k, v in entry.items() if k != "role"} | {"waters": {"enum": ["sea"]},
                                                                      "capacity": {"enum": list(SEA_KEYS)}},
                  ["from", "to", "waters", "capacity"])
    programme = {k: scalar[kind] for k, kind in PROGRAMME_FIELDS.items()}
    return {
        "id": {"type": "string", "pattern": ID_RE.pattern.replace("\\Z", "$")},
        "date": DATE,
        "boolean": scalar["boolean"],
        "medical_fitness": {"oneOf": [{"type": "boolean"}, _closed({"valid_until": DATE, "examined": DATE}, ["valid_until"]),
                                      _closed({"valid_until": DATE, "examined": DATE}, ["examined"]) | {"required": ["examined"],
                                              "propertyNames": {"enum": ["examined"]}}]},
        "apprenticeship": _closed({k: scalar[kind] for k, kind in APPRENTICESHIP_FIELDS.items()}),
        "days_per_role": {"type": "object", "propertyNames": {"enum": roles}, "additionalProperties": COUNT,
                          "description": say(lang, "service.doc.schema.sailing_days")},
        "days_per_capacity": _closed({k: COUNT for k in SEA_KEYS}),
        "years": {"type": "number", "minimum": 0},
        "count": COUNT,
        "programmes": {"type": "array", "items": {"oneOf": [
            _closed({k: v for k, v in programme.items() if k not in ("from", "to")}, ["for", "months"]),
            _closed(programme, ["for", "from", "to"])]}},
        "service_log": {"type": "array", "items": {"oneOf": [inland, sea]},
                        "description": say(lang, "service.doc.schema.service")},
        "exam_ids": {"type": "array", "items": {"oneOf": [exams, _closed({"id": exams, "passed": DATE, "hours": {"type": "number", "minimum": 0}}, ["id", "passed"])]}},
        "certificate_ids": {"type": "array", "items": {"oneOf": [certificates, _closed({"id": certificates, "issued": DATE},
                                                                                                ["id", "issued"])]}},
        "function_ids": {"type": "array", "items": {"enum": law.ids_of("Function")}},
    }


def record_schema(law: Law, lang: str = "en") -> dict[str, Any]:
    """The JSON schema of a person record, from records.persons.FIELDS."""
    of = kinds(law, lang)
    schema = _closed({key: of[kind] for key, kind in FIELDS.items()}, ["id"])
    schema["example"] = EXAMPLE
    return schema


def record_body(law: Law, lang: str = "en") -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": record_schema(law, lang)}}}}


def upload_body(lang: str = "en") -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary", "description": say(lang, "service.doc.schema.upload")}}}}}}}


def crew_body(lang: str = "en") -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["vessel"], "properties": {
            "vessel": {"type": "object", "description": say(lang, "service.doc.schema.vessel")},
            "roster": {"type": "object", "description": say(lang, "service.doc.schema.roster")}},
        "example": {"vessel": {"id": "ms-wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5,
                               "breadth_m": 11.4, "passengers": 300, "passengers_on_board": 250, "standard": "S1",
                               "engine_kw": 800}}}}}}}


def fleet_body(lang: str = "en") -> dict[str, Any]:
    """A fleet record whose vessels and rosters are records inline, never file names (service/fleets.py)."""
    entry = _closed({"vessel": {"type": "object", "description": say(lang, "service.doc.schema.vessel")},
                     "roster": {"type": "object", "description": say(lang, "service.doc.schema.roster")}},
                    ["vessel", "roster"])
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": _closed(
        {"id": {"type": "string", "pattern": ID_RE.pattern.replace("\\Z", "$")},
         "vessels": {"type": "array", "minItems": 1, "items": entry,
                     "description": say(lang, "service.doc.schema.fleet_vessels")}}, ["id", "vessels"])}}}}


def fleet_upload_body(lang: str = "en") -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary",
                                "description": say(lang, "service.doc.schema.fleet_upload")}}}}}}}


SPARQL_BODY = {"requestBody": {"content": {
    "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"query": {"type": "string"}}}},
    "application/sparql-query": {"schema": {"type": "string"}}}}}


def body(kind: str, law: Law, lang: str) -> dict[str, Any]:
    """The request body documentation of a route (`record`, `upload`, `crew`, `fleet`, `fleet_upload` or `sparql`)
    in `lang`."""
    return {"record": lambda: record_body(law, lang), "upload": lambda: upload_body(lang),
            "crew": lambda: crew_body(lang), "fleet": lambda: fleet_body(lang),
            "fleet_upload": lambda: fleet_upload_body(lang), "sparql": lambda: SPARQL_BODY}[kind]()
