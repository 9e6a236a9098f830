"""Bodies the JSON API once answered with a 500 (issue 44, defect 3): a proof valid until 31 December 9999
(OverflowError), about 1 000 levels of nesting (RecursionError), an integer of more than 4 300 digits (ValueError) and
a lone surrogate (UnicodeEncodeError while the 422 itself was written). Each is now a 422 that names the field, on
every route that reads a person record from the body — /api/eligibility, /api/explain, /api/plan, /api/report — and,
inside a roster's member, on /api/crew; an upload too."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from crewkg.service.app import Service, create_app
from crewkg.service.loading import build_store

pytestmark = pytest.mark.xdist_group("test_bad_bodies")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
VESSEL = {"id": "ms-wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5, "breadth_m": 11.4,
          "passengers": 300, "passengers_on_board": 250, "standard": "S1", "engine_kw": 800}
#: each route with the parameters it needs besides the date and the language
ROUTES = {"eligibility": ("/api/eligibility", {}), "explain": ("/api/explain", {"certificate": "UBZ-Matrose"}),
          "plan": ("/api/plan", {"target": "UBZ-Matrose"}), "report": ("/api/report", {})}

#: a person record's text, and the field the refusal names
BODIES = {
    "valid_until_9999_12_31": ('{"id": "x", "birth_date": "1990-01-01", "medical_fitness": {"valid_until": "9999-12-31"}}',
                               "medical_fitness.valid_until", "9899-12-31"),
    "nested_1000_levels": ('{"id": "x", "sailing_days": ' + "[" * 1000 + "]" * 1000 + "}",
                           "sailing_days" + "[0]" * 31, "nested at most 32"),
    "nested_objects_1000_levels": ('{"id": "x", "exams": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + "}",
                                   "exams" + ".a" * 31, "nested at most 32"),
    "nested_40_levels": ('{"id": "x", "sailing_days": ' + "[" * 40 + "]" * 40 + "}",
                         "sailing_days" + "[0]" * 31, "nested at most 32"),
    "integer_of_5000_digits": ('{"id": "x", "sailing_days": {"Matrose": ' + "9" * 5000 + "}}",
                               "sailing_days.Matrose", "at most 100000"),
    "lone_surrogate_id": ('{"id": "\\ud800"}', "id", "lone surrogate"),
    "lone_surrogate_in_free_text": ('{"id": "x", "birth_date": "1990-01-01", "service": [{"from": "2024-03-01", '
                                    '"to": "2024-03-31", "role": "Matrose", "vessel": "MS \\udfff"}]}',
                                    "service[0].vessel", "lone surrogate"),
    "lone_surrogate_key": ('{"id": "x", "\\ud800": 1}', "\\ud800", "lone surrogate"),
}


@pytest.fixture(scope="module")
def client(law):
    store = build_store("memory", law, [], AS_OF)
    with TestClient(create_app(Service(law, store, {}, AS_OF)), raise_server_exceptions=False) as c:
        yield c


def _refusal(r, field: str, expected: str) -> None:
    assert r.status_code == 422, r.text[:300]
    body = r.json()
    assert body["field"] == field, body
    assert expected in body["error"], body
    assert body["detail"]  # said in the request's language too
    assert "Traceback" not in r.text


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", BODIES)
def test_a_bad_person_body_is_a_422_naming_the_field(client, route, case):
    text, field, expected = BODIES[case]
    path, params = ROUTES[route]
    r = client.post(path, params=params | {"as_of": AS_OF.isoformat(), "lang": "en"},
                    content=text.encode("utf-8"), headers={"Content-Type": "application/json"})
    _refusal(r, field, expected)


@pytest.mark.parametrize("case", BODIES)
def test_a_bad_roster_member_is_a_422_naming_the_field(client, case):
    """The member's field is named within the body (`roster.crew[0]. …`, nesting counted from the body) or within
    the roster (`request body: roster`, field `crew[0]. …`)."""
    text, field, expected = BODIES[case]
    body = '{"vessel": ' + json.dumps(VESSEL) + ', "roster": {"crew": [' + text + "]}}"
    r = client.post("/api/crew", params={"as_of": AS_OF.isoformat(), "lang": "en"}, content=body.encode("utf-8"),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text[:300]
    refusal = r.json()
    assert refusal["field"].startswith(("roster.crew[0].", "crew[0].")), refusal
    assert field[:12] in refusal["field"] and expected in refusal["error"], refusal


def test_utf8_encoded_surrogates_are_refused_too(client):
    """A surrogate sent as its (invalid) UTF-8 bytes, which the JSON decoder lets through, is refused the same way."""
    r = client.post("/api/eligibility", params={"lang": "de"}, content=b'{"id": "\xed\xa0\x80"}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["field"] == "id"
    assert "Surrogat" in r.json()["detail"]


def test_the_last_day_in_reach_is_answered(client):
    """The bound is no refusal of far days as such: a proof valid until 31 December 9899 is answered."""
    body = {"id": "x", "birth_date": "1990-01-01", "medical_fitness": {"valid_until": "9899-12-31"}}
    r = client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()}, json=body)
    assert r.status_code == 200, r.text[:300]
    r = client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()},
                    json=body | {"medical_fitness": {"valid_until": "9900-01-01"}})
    assert r.status_code == 422 and r.json()["field"] == "medical_fitness.valid_until"


@pytest.mark.parametrize("route", ["/api/eligibility/upload", "/api/report/upload"])
def test_an_upload_valid_until_9999_12_31_is_a_422(client, route):
    record = b"id: x\nbirth_date: 1990-01-01\nmedical_fitness: {valid_until: 9999-12-31}\n"
    r = client.post(route, params={"as_of": AS_OF.isoformat(), "lang": "en"}, files={"file": ("p.yaml", record)})
    assert r.status_code == 422, r.text[:300]
    assert r.json()["file"] == "p.yaml" and r.json()["field"] == "medical_fitness.valid_until"


@pytest.mark.parametrize("body, field", [
    ({"vessel": str(EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml")}, "vessel"),
    ({"vessel": "/etc/passwd"}, "vessel"),
    ({"vessel": VESSEL, "roster": str(EXAMPLES / "rosters" / "01-ms-wachau-short.yaml")}, "roster"),
    ({"vessel": VESSEL, "roster": None}, "roster"),
    ({"vessel": None}, "vessel"),
    ({"vessel": [VESSEL]}, "vessel"),
])
def test_crew_takes_records_in_the_body_never_a_path_nor_null(client, body, field):
    """A text where a record belongs was read as a path of the server's (the Python API's way): a file of the
    server's was answered or quoted. `roster: null` was taken as no roster, against the schema."""
    r = client.post("/api/crew", params={"as_of": AS_OF.isoformat(), "lang": "en"}, json=body)
    assert r.status_code == 422, r.text[:300]
    assert r.json()["field"] == field
    assert "root:" not in r.text


def test_a_duplicate_key_in_a_body_is_named(client):
    r = client.post("/api/eligibility", content=b'{"id": "x", "id": "y"}', headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["field"] == "id"
