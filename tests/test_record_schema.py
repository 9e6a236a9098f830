"""One record schema (issue 9 point 5): the person record is described three times — the schema check
(records.persons.person_from_mapping, driven by persons.FIELDS), the SHACL shapes (ontology/shapes.ttl) and the
service's OpenAPI schema (service.schema.record_schema, generated from persons.FIELDS). They must give the same
verdict on every record: this corpus of good and bad records is judged by all three.

SHACL judges RDF, so each record is put into RDF here *without* the schema check (`raw_graph`): every key becomes
its crew: predicate and every value the literal of its Python type, exactly as person_graph writes a checked record;
an unknown key becomes a predicate of its own name. Two differences are left out of the corpus because they lie in
the formats, not in the schemas (docs/service.md): a count written as 1.0 is an integer to JSON Schema but not to
Python or RDF; `medical_fitness: {}` has the same RDF form as `medical_fitness: true`; and one exam id where a list
is expected has the same RDF form as a list of one."""

from __future__ import annotations

import copy
import re
from datetime import date
from typing import Any

import pytest

from crewkg.errors import InputError
from crewkg.records.persons import FIELDS, person_from_mapping, person_to_mapping
from crewkg.service.schema import record_schema

AS_OF = date(2026, 11, 30)
BASE: dict[str, Any] = {"id": "anna", "birth_date": "2001-05-03", "medical_fitness": True, "radio_certificate": True,
                        "sailing_days": {"Decksmann": 200, "Matrose": 180}, "exams": ["Anlage8"],
                        "certificates": ["UBZ-Matrose"]}


def _with(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is _DROP:
            record.pop(key, None)
        else:
            record[key] = value
    return record


_DROP = object()

GOOD: list[dict[str, Any]] = [
    {"id": "a"},
    {"id": "A_b-9"},
    BASE,
    _with(birth_date="1970-01-01"),
    _with(birth_date=_DROP),
    _with(medical_fitness=False),
    _with(medical_fitness={"valid_until": "2027-06-30"}),
    _with(medical_fitness={"valid_until": "2020-01-31"}),
    _with(radio_certificate=False),
    _with(basic_safety_training=True),
    _with(apprenticeship={"contract": True}),
    _with(apprenticeship={"contract": False, "year": 1}),
    _with(apprenticeship={"year": 3}),
    _with(apprenticeship={"year": 4}),
    _with(id="x" * 128),
    _with(apprenticeship={}),
    _with(sailing_days={}),
    _with(sailing_days={"Bootsmann": 0}),
    _with(sailing_days={"Leichtmatrose": 10, "MatroseMotorwart": 5, "Steuermann": 1000, "Schiffsfuehrer": 3}),
    _with(sea_days={"deck_crew": 365}),
    _with(sea_days={"deck_crew": 0, "master": 120}),
    _with(professional_experience_years=0),
    _with(professional_experience_years=2.5),
    _with(vocational_training_years=3),
    _with(inland_training_days=360),
    _with(inland_training_days=0),
    _with(programmes=[]),
    _with(programmes=[{"for": "Matrose", "months": 24}]),
    _with(programmes=[{"for": "Leichtmatrose", "months": 12, "sailing_days": 100, "sailing_days_after": 0}]),
    _with(exams=[]),
    _with(exams=["Anlage8", "Anlage9", "Anlage10", "Anlage11"]),
    _with(certificates=["UBZ-Decksmann", "UBZ-Bootsmann"]),
    _with(functions=["FirstAid"]),
    _with(functions=["Atemschutzgeraetetraeger", "Maschinist"]),
    _with(functions=[]),
    {"id": "full", "birth_date": "1990-12-31", "medical_fitness": {"valid_until": "2030-01-01"}, "radio_certificate": True,
     "basic_safety_training": True, "apprenticeship": {"contract": True, "year": 2}, "sailing_days": {"Matrose": 1},
     "sea_days": {"master": 1}, "professional_experience_years": 1, "vocational_training_years": 0.5,
     "programmes": [{"for": "Decksmann", "months": 1, "sailing_days": 1, "sailing_days_after": 1}],
     "exams": ["Anlage9"], "certificates": ["UBZ-Leichtmatrose"], "functions": ["FahrgastErsthelfer"]},
    # dated evidence: the service log, dated programmes, exams, certificates and the medical examination
    _with(sailing_days=_DROP, service=[]),
    _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-03-31", "role": "Matrose"}]),
    _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-01", "role": "Decksmann", "waters": "inland",
                                        "validated": False, "vessel": "MS Wachau"}]),
    _with(service=[{"from": "2020-05-01", "to": "2020-09-30", "waters": "sea", "capacity": "master"}]),
    _with(sailing_days=_DROP, service=[{"from": "2020-05-01", "to": "2020-09-30", "waters": "sea", "capacity": "deck_crew",
                                        "validated": True},
                                       {"from": "2021-01-01", "to": "2021-06-30", "role": "Leichtmatrose"}]),
    _with(sailing_days=_DROP, service=[{"from": "2023-09-01", "to": "2024-03-31", "role": "Decksmann"}],
          programmes=[{"for": "Matrose", "from": "2023-09-01", "to": "2025-08-31"}]),
    _with(programmes=[{"for": "Matrose", "from": "2023-09-01", "to": "2025-08-31", "months": 24, "sailing_days": 90}]),
    _with(exams=[{"id": "Anlage8", "passed": "2024-06-10"}, "Anlage9"]),
    _with(certificates=[{"id": "UBZ-Matrose", "issued": "2022-05-01"}]),
    _with(medical_fitness={"examined": "2026-03-01"}),
    _with(medical_fitness={"examined": "2026-03-01", "valid_until": "2031-02-28"}),
]

BAD: dict[str, dict[str, Any]] = {
    "no id": _with(id=_DROP),
    "id with a space": _with(id="an na"),
    "id empty": _with(id=""),
    "id a number": _with(id=5),
    "id with a punctuation mark": _with(id="anna!"),
    "unknown key": _with(nickname="Anni"),
    "misspelt key": _with(sailing_day={"Matrose": 1}),
    "birth date not a date": _with(birth_date="2001-02-30"),
    "birth date in another format": _with(birth_date="03.05.2001"),
    "birth date without dashes": _with(birth_date="20010503"),
    "birth date a number": _with(birth_date=2001),
    "medical fitness a string": _with(medical_fitness="yes"),
    "medical fitness a number": _with(medical_fitness=1),
    "medical fitness bad date": _with(medical_fitness={"valid_until": "2027-13-01"}),
    "medical fitness unknown key": _with(medical_fitness={"valid_until": "2027-01-01", "doctor": "X"}),
    "radio certificate a string": _with(radio_certificate="true"),
    "safety training a number": _with(basic_safety_training=0),
    "apprenticeship year 0": _with(apprenticeship={"year": 0}),
    "apprenticeship year negative": _with(apprenticeship={"year": -1}),
    "apprenticeship year 5": _with(apprenticeship={"year": 5}),
    "id of 129 characters": _with(id="x" * 129),
    "apprenticeship year a string": _with(apprenticeship={"year": "2"}),
    "apprenticeship contract a string": _with(apprenticeship={"contract": "yes"}),
    "apprenticeship unknown key": _with(apprenticeship={"contract": True, "school": "X"}),
    "sailing days negative": _with(sailing_days={"Matrose": -1}),
    "sailing days a fraction": _with(sailing_days={"Matrose": 1.5}),
    "sailing days a string": _with(sailing_days={"Matrose": "180"}),
    "sailing days a boolean": _with(sailing_days={"Matrose": True}),
    "sailing days wrong role": _with(sailing_days={"Kapitaen": 10}),
    "sailing days role in lower case": _with(sailing_days={"matrose": 10}),
    "sailing days a list": _with(sailing_days=[180]),
    "sea days unknown capacity": _with(sea_days={"captain": 10}),
    "sea days negative": _with(sea_days={"deck_crew": -5}),
    "sea days a string": _with(sea_days={"master": "ten"}),
    "experience negative": _with(professional_experience_years=-1),
    "experience a string": _with(professional_experience_years="2"),
    "experience a boolean": _with(professional_experience_years=True),
    "training negative": _with(vocational_training_years=-0.5),
    "inland training negative": _with(inland_training_days=-1),
    "inland training a fraction": _with(inland_training_days=1.5),
    "programme without role": _with(programmes=[{"months": 12}]),
    "programme without months": _with(programmes=[{"for": "Matrose"}]),
    "programme wrong role": _with(programmes=[{"for": "Koch", "months": 12}]),
    "programme months negative": _with(programmes=[{"for": "Matrose", "months": -1}]),
    "programme days a string": _with(programmes=[{"for": "Matrose", "months": 12, "sailing_days": "x"}]),
    "programme days after negative": _with(programmes=[{"for": "Matrose", "months": 12, "sailing_days_after": -3}]),
    "programme unknown key": _with(programmes=[{"for": "Matrose", "months": 12, "school": "X"}]),
    "exam unknown": _with(exams=["Anlage12"]),
    "exams a mapping": _with(exams={"Anlage8": True}),
    "certificate unknown": _with(certificates=["UBZ-Kapitaen"]),
    "certificate a role name": _with(certificates=["Matrose"]),
    "function unknown": _with(functions=["Koch"]),
    "function a number": _with(functions=[7]),
    "service not a list": _with(sailing_days=_DROP, service={"from": "2023-01-01"}),
    "service entry without to": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "role": "Matrose"}]),
    "service entry without from": _with(sailing_days=_DROP, service=[{"to": "2023-01-01", "role": "Matrose"}]),
    "service entry impossible date": _with(sailing_days=_DROP, service=[{"from": "2023-02-30", "to": "2023-03-01",
                                                                           "role": "Matrose"}]),
    "service entry unknown role": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31", "role": "Koch"}]),
    "service entry without role": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31"}]),
    "service entry unknown key": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31",
                                                                       "role": "Matrose", "captain": "X"}]),
    "service entry unknown waters": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31",
                                                                          "role": "Matrose", "waters": "lake"}]),
    "sea entry with a role": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31", "waters": "sea",
                                                                   "role": "Matrose"}]),
    "sea entry without capacity": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31", "waters": "sea"}]),
    "inland entry with a capacity": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31",
                                                                          "role": "Matrose", "capacity": "master"}]),
    "service entry validated a string": _with(sailing_days=_DROP, service=[{"from": "2023-01-01", "to": "2023-01-31",
                                                                              "role": "Matrose", "validated": "yes"}]),
    "dated programme without to": _with(programmes=[{"for": "Matrose", "from": "2023-09-01"}]),
    "dated programme bad date": _with(programmes=[{"for": "Matrose", "from": "2023-09-01", "to": "2025-13-01"}]),
    "dated exam without date": _with(exams=[{"id": "Anlage8"}]),
    "dated exam unknown": _with(exams=[{"id": "Anlage12", "passed": "2024-06-10"}]),
    "dated exam bad date": _with(exams=[{"id": "Anlage8", "passed": "10.06.2024"}]),
    "dated certificate unknown key": _with(certificates=[{"id": "UBZ-Matrose", "issued": "2022-05-01", "by": "X"}]),
    "medical examination bad date": _with(medical_fitness={"examined": "2026-02-30"}),
}


# ------------------------------------------------------------------------------------------------------
# The three judges
# ------------------------------------------------------------------------------------------------------
def checker_accepts(law, record: dict[str, Any]) -> bool:
    try:
        person_from_mapping(copy.deepcopy(record), law, AS_OF, "corpus")
    except InputError:
        return False
    return True


#: record key -> crew: predicate of the record's RDF form (records/turtle.py, person_graph)
PREDICATES = {"id": "personId", "birth_date": "birthDate", "radio_certificate": "hasRadioCertificate",
              "basic_safety_training": "hasBasicSafetyTraining", "professional_experience_years": "professionalExperienceYears",
              "vocational_training_years": "vocationalTrainingYears", "inland_training_days": "inlandTrainingDays", "exams": "passedExam", "certificates": "holdsCertificate",
              "functions": "holdsFunction"}
DATES = {"birth_date", "valid_until", "examined", "from", "to", "passed", "issued"}


def _literal(key: str, value: Any):
    from rdflib import Literal
    from rdflib.namespace import XSD

    if key in DATES and isinstance(value, str):
        return Literal(value, datatype=XSD.date)
    return Literal(value)


def raw_graph(records: list[dict[str, Any]]):
    """The RDF form of each record, written without any check; subject i is person:r{i}. Returns the graph and a
    map from every node to the record it belongs to."""
    from rdflib import BNode, Graph, Namespace
    from rdflib.namespace import RDF

    from crewkg.law.namespaces import CREW_IRI, KB, PERSON

    CREW = Namespace(CREW_IRI)  # open: an unknown key becomes a crew: term of its own name

    g = Graph()
    owner: dict[Any, int] = {}

    def node(i: int, kind) -> Any:
        b = BNode()
        g.add((b, RDF.type, kind))
        owner[b] = i
        return b

    for i, record in enumerate(records):
        s = PERSON[f"r{i}"]
        owner[s] = i
        g.add((s, RDF.type, CREW.Person))
        for key, value in record.items():
            if key in ("exams", "certificates") and isinstance(value, list) and any(isinstance(v, dict) for v in value):
                space = CREW if key == "exams" else KB
                for v in value:
                    if not isinstance(v, dict):
                        g.add((s, CREW[PREDICATES[key]], space[v] if isinstance(v, str) else _literal(key, v)))
                        continue
                    kind, link, item, on = ((CREW.ExamResult, CREW.hasExamResult, CREW.examPassed, CREW.passedOn) if key == "exams"
                                            else (CREW.CertificateIssue, CREW.hasCertificateIssue, CREW.issuedCertificate, CREW.issuedOn))
                    b = node(i, kind)
                    g.add((s, link, b))
                    for k, x in v.items():
                        pred = {"id": item, "passed": on, "issued": on}.get(k, CREW[k])
                        g.add((b, pred, space[x] if k == "id" and isinstance(x, str) else _literal(k, x)))
            elif key == "service":
                for entry in value if isinstance(value, list) else [value]:
                    b = node(i, CREW.ServiceEntry)
                    g.add((s, CREW.hasServiceEntry, b))
                    for k, x in (entry.items() if isinstance(entry, dict) else []):
                        pred = {"from": CREW.servedFrom, "to": CREW.servedTo, "role": CREW.servedAs, "waters": CREW.servedOnWaters,
                                "capacity": CREW.seaCapacity, "validated": CREW.validated, "vessel": CREW.vesselName}.get(k, CREW[k])
                        if k == "role" and isinstance(x, str):
                            obj = KB[x]
                        elif k == "waters" and isinstance(x, str):
                            obj = {"inland": CREW.InlandNavigation, "sea": CREW.SeaNavigation}.get(x, CREW[x])
                        elif k == "capacity" and isinstance(x, str):
                            obj = {"deck_crew": CREW.AsDeckCrew, "master": CREW.AsMaster}.get(x, CREW[x])
                        else:
                            obj = _literal(k, x)
                        g.add((b, pred, obj))
            elif key in ("exams", "certificates", "functions"):
                space = CREW if key == "exams" else KB
                for v in value if isinstance(value, list) else [value]:
                    g.add((s, CREW[PREDICATES[key]], space[v] if isinstance(v, str) else _literal(key, v)))
            elif key == "medical_fitness" and isinstance(value, dict):
                g.add((s, CREW.medicallyFit, _literal(key, True)))
                for k, v in value.items():
                    pred = {"valid_until": CREW.medicalFitnessValidUntil, "examined": CREW.medicalExaminationDate}.get(k, CREW[k])
                    g.add((s, pred, _literal(k, v)))
            elif key == "medical_fitness":
                g.add((s, CREW.medicallyFit, _literal(key, value)))
            elif key == "apprenticeship":
                for k, v in value.items():
                    pred = {"contract": CREW.hasApprenticeshipContract, "year": CREW.apprenticeshipYear}.get(k, CREW[k])
                    g.add((s, pred, _literal(k, v)))
            elif key in ("sailing_days", "sea_days"):
                _days(g, s, key, value, lambda kind, i=i: node(i, kind))
            elif key == "programmes":
                for prog in value:
                    b = node(i, CREW.CompletedProgramme)
                    g.add((s, CREW.completedProgramme, b))
                    for k, v in prog.items():
                        pred = {"for": CREW.programmeFor, "months": CREW.months, "sailing_days": CREW.daysWithin,
                                "sailing_days_after": CREW.daysAfter, "from": CREW.programmeFrom,
                                "to": CREW.programmeTo}.get(k, CREW[k])
                        g.add((b, pred, KB[v] if k == "for" and isinstance(v, str) else _literal(k, v)))
            else:
                g.add((s, CREW[PREDICATES.get(key, key)], _literal(key, value)))
    return g, owner


def _days(g, s, key: str, value: Any, node) -> None:
    from rdflib import Namespace

    from crewkg.law.namespaces import CREW_IRI, KB

    CREW = Namespace(CREW_IRI)

    link = CREW.hasSailingRecord if key == "sailing_days" else CREW.hasSeaRecord
    if not isinstance(value, dict):
        g.add((s, link, _literal(key, value)))
        return
    for k, days in value.items():
        b = node(CREW.SailingRecord if key == "sailing_days" else CREW.SeaRecord)
        g.add((s, link, b))
        if key == "sailing_days":
            g.add((b, CREW.inRole, KB[k]))
        else:
            g.add((b, CREW.seaCapacity, {"deck_crew": CREW.AsDeckCrew, "master": CREW.AsMaster}.get(k, CREW[k])))
        g.add((b, CREW.days, _literal(key, days)))


def shacl_verdicts(records: list[dict[str, Any]]) -> list[bool]:
    """One pySHACL run over all records with the product's shapes and kb vocabulary: True where a record conforms."""
    import hashlib

    from rdflib import BNode, URIRef

    from crewkg.records.shacl import _class_facts, _shapes, violations

    g, owner = raw_graph(records)
    key = hashlib.sha256(g.serialize(format="nt").encode()).hexdigest()[:24] + "-corpus"
    by_text = {str(n): i for n, i in owner.items()}
    bad: set[int] = set()
    for _path, node, _msg in violations(g, _class_facts(), _shapes(), key, advanced=True):
        # a literal in the focus (a value where a node was expected) belongs to the record that states it
        holders = {by_text[str(s)] for s, _p, o in g if str(o) == node and str(s) in by_text}
        assert node in by_text or holders, f"a violation on a node of no record: {node}"
        bad |= {by_text[node]} if node in by_text else holders
    assert all(isinstance(n, URIRef | BNode) for n in owner)
    return [i not in bad for i in range(len(records))]


def _type_ok(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, {"object": dict, "array": list, "string": str, "boolean": bool}[kind])


#: the JSON Schema keywords `json_schema_accepts` implements (the generated schema may use no other)
KEYWORDS = {"type", "properties", "required", "additionalProperties", "propertyNames", "items", "enum", "pattern",
            "minimum", "maximum", "oneOf", "format", "description", "example"}


def json_schema_accepts(value: Any, schema: dict[str, Any]) -> bool:
    """JSON Schema (2020-12) validation of the keywords in KEYWORDS, with `format: date` asserted. `jsonschema` is
    not a dependency of crewkg; where it is installed, the test below also asks it."""
    if "oneOf" in schema and sum(json_schema_accepts(value, s) for s in schema["oneOf"]) != 1:
        return False
    if "type" in schema and not _type_ok(value, schema["type"]):
        return False
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        return False
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
        if schema.get("format") == "date":
            try:
                date.fromisoformat(value)
            except ValueError:
                return False
    if isinstance(value, int | float) and not isinstance(value, bool) and "minimum" in schema and value < schema["minimum"]:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool) and "maximum" in schema and value > schema["maximum"]:
        return False
    if isinstance(value, list) and "items" in schema:
        return all(json_schema_accepts(v, schema["items"]) for v in value)
    if isinstance(value, dict):
        return _object_accepts(value, schema)
    return True


def _object_accepts(value: dict[str, Any], schema: dict[str, Any]) -> bool:
    props = schema.get("properties", {})
    if any(k not in value for k in schema.get("required", [])):
        return False
    if "propertyNames" in schema and not all(json_schema_accepts(k, schema["propertyNames"]) for k in value):
        return False
    extra = schema.get("additionalProperties", True)
    for k, v in value.items():
        if k in props:
            if not json_schema_accepts(v, props[k]):
                return False
        elif extra is False or (isinstance(extra, dict) and not json_schema_accepts(v, extra)):
            return False
    return True


# ------------------------------------------------------------------------------------------------------
# The tests
# ------------------------------------------------------------------------------------------------------
def test_the_corpus_is_large_enough_and_touches_every_field():
    assert len(GOOD) >= 30 and len(BAD) >= 30
    touched = {k for r in [*GOOD, *BAD.values()] for k in r}
    assert set(FIELDS) <= touched


def test_the_openapi_schema_is_generated_from_the_field_table(law):
    schema = record_schema(law)
    assert list(schema["properties"]) == list(FIELDS)
    assert schema["additionalProperties"] is False and schema["required"] == ["id"]
    assert schema["properties"]["sailing_days"]["propertyNames"]["enum"] == law.ids_of("DeckCrewRole")

    def keywords(s: Any) -> set[str]:
        if isinstance(s, dict):
            found = set(s) - {"example"}
            for k, v in s.items():
                if k == "properties":
                    found |= set().union(*(keywords(x) for x in v.values()))
                elif k not in ("enum", "required", "example"):
                    found |= keywords(v)
            return found
        if isinstance(s, list):
            return set().union(*(keywords(x) for x in s)) if s else set()
        return set()

    assert keywords(schema) <= KEYWORDS, keywords(schema) - KEYWORDS


def test_the_checker_the_shapes_and_the_openapi_schema_agree_on_every_record(law):
    schema = record_schema(law)
    records = [*GOOD, *BAD.values()]
    names = [f"good {i}: {r}" for i, r in enumerate(GOOD)] + [f"bad: {n}" for n in BAD]
    expected = [True] * len(GOOD) + [False] * len(BAD)
    shacl = shacl_verdicts(records)
    wrong = []
    for name, record, want, by_shacl in zip(names, records, expected, shacl, strict=True):
        verdicts = {"checker": checker_accepts(law, record), "shacl": by_shacl, "json schema": json_schema_accepts(record, schema)}
        wrong += [f"{judge} {'accepts' if got else 'refuses'} {name}" for judge, got in verdicts.items() if got is not want]
    assert not wrong, "\n".join(wrong)


def test_jsonschema_where_installed_agrees(law):
    jsonschema = pytest.importorskip("jsonschema")
    schema = record_schema(law)
    check = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    assert all(check.is_valid(r) for r in GOOD)
    assert not [n for n, r in BAD.items() if check.is_valid(r)]


def test_every_good_record_reads_back_as_itself(law):
    """The record form of a checked record (person_to_mapping) is checked to the same person: the field table
    loses nothing on the way through."""
    import dataclasses

    for record in GOOD:
        person = person_from_mapping(copy.deepcopy(record), law, AS_OF, "corpus")
        again = person_from_mapping(person_to_mapping(person), law, AS_OF, "corpus")
        assert dataclasses.asdict(again) == dataclasses.asdict(person), record


@pytest.mark.parametrize("valid_until, good", [("2025-12-31", False), ("2026-01-01", True)],
                         ids=["ends the day before its examination", "ends on the day of its examination"])
def test_a_medical_report_ending_before_its_examination_is_refused_by_the_checker_and_the_shapes(law, valid_until, good):
    """A date order JSON Schema cannot state (so not in the corpus above): the checker and pySHACL (sh:lessThanOrEquals)
    refuse it alike."""
    record = _with(medical_fitness={"examined": "2026-01-01", "valid_until": valid_until})
    assert checker_accepts(law, record) is good
    assert shacl_verdicts([record]) == [good]
