"""The fleet forecast over HTTP (issue 45, "the web page gains a fleet upload"): `POST /api/fleet` and
`/api/fleet/upload` answer what `crewkg.api.fleet` answers for the same fleet (JSON), its calendar file and its page;
the inline example fleet is the file-based one; a vessel or roster named by a file is refused (the service reads no
file of its own), a fleet beyond the service's bounds too, and every bad body is a 4xx naming the field; the forecast
runs off the event loop; the page `/fleet` shows the summary, the picture, the changes and the calendar link, German
and English from the catalogue."""

from __future__ import annotations

import json
import re
import threading
from datetime import date
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

import crewkg.api
from crewkg.messages.sections import section
from crewkg.service.app import Service, Settings, create_app
from crewkg.service.loading import build_store

pytestmark = pytest.mark.xdist_group("test_fleet_service")  # its module fixtures are made once, on one worker

ROOT = Path(__file__).resolve().parents[1]
FLEETS = ROOT / "kb" / "examples" / "fleets"
FILED, INLINE = FLEETS / "donau-reederei.yaml", FLEETS / "donau-reederei-inline.yaml"
START, END = "2026-11-30", "2032-06-30"
SPAN = {"from": START, "until": END}


def _body(path: Path = INLINE) -> dict:
    """The inline fleet as a JSON body (YAML's dates written as JSON's texts)."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


@pytest.fixture(scope="module")
def client(law):
    store = build_store("memory", law, [], date(2026, 11, 30))
    settings = Settings(max_fleet_vessels=3, max_fleet_members=20, max_fleet_days=2500, evaluator_workers=0)
    with TestClient(create_app(Service(law, store, {}, date(2026, 11, 30), settings)),
                    raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def filed() -> dict:
    """The forecast of the file-based example (docs/fleet.md), in English."""
    return crewkg.api.fleet(FILED, START, END, "en")


def test_the_inline_example_is_the_file_based_one(filed):
    assert crewkg.api.fleet(_body(), START, END, "en") == filed


def test_the_json_answer_is_the_apis(client, filed):
    r = client.post("/api/fleet", params=SPAN | {"lang": "en"}, json=_body())
    assert r.status_code == 200, r.text[:500]
    assert r.json() == filed


def test_an_uploaded_fleet_file_is_answered_as_its_body(client, filed):
    r = client.post("/api/fleet/upload", params=SPAN | {"lang": "en"},
                    files={"file": (INLINE.name, INLINE.read_bytes(), "application/yaml")})
    assert r.status_code == 200, r.text[:500]
    assert r.json() == filed


def test_the_calendar_and_the_page(client):
    r = client.post("/api/fleet", params=SPAN | {"lang": "de", "format": "ics"}, json=_body())
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/calendar"), r.text[:300]
    assert r.text.startswith("BEGIN:VCALENDAR") and r.text.count("BEGIN:VEVENT") == 5
    assert 'filename="donau-reederei.ics"' in r.headers["content-disposition"]
    r = client.post("/api/fleet/upload", params=SPAN | {"lang": "en", "format": "html"},
                    files={"file": (INLINE.name, INLINE.read_bytes())})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), r.text[:300]
    assert "<svg" in r.text and "ms-wolfgang" in r.text


#: a fleet body (or a change to the inline example) and the field its refusal names
BAD_BODIES = {
    "vessel_a_relative_path": ({"id": "f", "vessels": [{"vessel": "../vessels/01-ms-wachau-danube-day-trip.yaml",
                                                        "roster": {"crew": []}}]}, "vessels[0].vessel"),
    "vessel_a_server_file": ({"id": "f", "vessels": [{"vessel": str(ROOT / "kb" / "examples" / "vessels" /
                                                                    "01-ms-wachau-danube-day-trip.yaml"),
                                                      "roster": {"crew": []}}]}, "vessels[0].vessel"),
    "roster_a_path": ({"id": "f", "vessels": [{"vessel": {"id": "v"}, "roster": "/etc/passwd"}]}, "vessels[0].roster"),
    "roster_a_number": ({"id": "f", "vessels": [{"vessel": {"id": "v"}, "roster": 3}]}, "vessels[0].roster"),
    "vessel_null": ({"id": "f", "vessels": [{"vessel": None, "roster": {"crew": []}}]}, "vessels[0].vessel"),
    "four_vessels": ({"id": "f", "vessels": [{"vessel": {}, "roster": {}}] * 4}, "vessels"),
    "too_many_members": ({"id": "f", "vessels": [{"vessel": {}, "roster": {"crew": [{}] * 21}}]},
                         "vessels[0].roster.crew"),
    "a_list": ([1, 2], ""),
    "a_path": ("kb/examples/fleets/donau-reederei.yaml", ""),
    "no_vessels": ({"id": "f", "vessels": []}, "vessels"),
    "an_unknown_key": ({"id": "f", "vessels": [], "owner": "x"}, "owner"),
    "a_bad_vessel_field": ({"id": "f", "vessels": [{"vessel": {"id": "v", "kind": "submarine"}, "roster": {"crew": []}}]},
                           "vessels[0].vessel."),
    "a_bad_member": ({"id": "f", "vessels": [{"vessel": {"id": "v"}, "roster": {"crew": [{"id": "x", "birth_date": "1990-13-01"}]}}]},
                     "vessels[0].roster."),
}


def _refused(r, field: str, lang: str = "en") -> dict:
    assert r.status_code == 422, r.text[:500]
    body = r.json()
    assert body["field"] == field or (field.endswith(".") and body["field"].startswith(field)), body
    assert body["detail"] and "Traceback" not in r.text
    if lang == "de":
        assert "erwartet" in body["detail"], body
    return body


@pytest.mark.parametrize("case", BAD_BODIES)
def test_a_bad_fleet_body_is_a_422_naming_the_field(client, case):
    body, field = BAD_BODIES[case]
    _refused(client.post("/api/fleet", params=SPAN | {"lang": "de"}, json=body), field, "de")


@pytest.mark.parametrize("case", ["vessel_a_relative_path", "roster_a_path", "four_vessels", "a_bad_member"])
def test_a_bad_uploaded_fleet_names_the_file_and_the_field(client, case):
    body, field = BAD_BODIES[case]
    r = client.post("/api/fleet/upload", params=SPAN, files={"file": ("mine.json", json.dumps(body).encode())})
    assert _refused(r, field)["file"] == "mine.json"


def test_a_path_in_a_fleet_is_never_read(client, monkeypatch):
    """The refusal comes before the fleet is read: the file named is not opened, its content not quoted."""
    import crewkg.records.reading as reading

    opened = []
    monkeypatch.setattr(reading, "read_text", lambda path, what="record": opened.append(path) or "")
    body, _ = BAD_BODIES["vessel_a_server_file"]
    r = client.post("/api/fleet", params=SPAN, json=body)
    assert r.status_code == 422 and opened == []
    assert "day_trip_passenger" not in r.text and "engine_kw" not in r.text


#: query parameters and bodies refused before the fleet is read, with the field named
BAD_REQUESTS = {
    "until_missing": ({"from": START}, "until"),
    "until_not_a_date": ({"from": START, "until": "2032-02-30"}, "until"),
    "from_not_a_date": ({"from": "30.11.2026", "until": END}, "from"),
    "until_before_from": ({"from": END, "until": START}, "until"),
    "span_too_long": ({"from": START, "until": "2040-01-01"}, "until"),
    "an_unknown_format": (SPAN | {"format": "pdf"}, "format"),
    "an_unknown_language": (SPAN | {"lang": "fr"}, "lang"),
}


@pytest.mark.parametrize("case", BAD_REQUESTS)
def test_a_bad_parameter_is_a_422_naming_it(client, case):
    params, field = BAD_REQUESTS[case]
    _refused(client.post("/api/fleet", params=params, json=_body()), field)
    _refused(client.post("/api/fleet/upload", params=params, files={"file": (INLINE.name, INLINE.read_bytes())}), field)


@pytest.mark.parametrize(("content", "field"), [(b"", ""), (b"{", ""), (b'{"id": "f", "id": "g", "vessels": []}', "id"),
                                                (b"[" * 1000 + b"]" * 1000, "[0]" * 32), (b'"/etc/passwd"', ""), (b"[1, 2]", "")])
def test_a_body_that_is_no_fleet_is_a_422(client, content, field):
    r = client.post("/api/fleet", params=SPAN, content=content, headers={"Content-Type": "application/json"})
    _refused(r, field)


@pytest.mark.parametrize(("name", "content", "field"), [
    ("fleet.txt", b"id: f", ""), ("fleet.ttl", b"id: f", ""), ("fleet.yaml", b"id: [", ""),
    ("fleet.yaml", b"\xff\xfe", ""), ("fleet.yaml", b"", ""), ("fleet.yaml", b"- 1\n- 2\n", "")])
def test_a_bad_upload_is_a_422_naming_the_file(client, name, content, field):
    r = client.post("/api/fleet/upload", params=SPAN, files={"file": (name, content)})
    assert _refused(r, field)["file"] == name


def test_an_upload_that_is_no_multipart_form_names_the_file_field(client):
    for ctype in ("multipart/form-data", "multipart/form-data; boundary=x", "application/json"):
        r = client.post("/api/fleet/upload", params=SPAN, content=b"--y\r\nnonsense", headers={"Content-Type": ctype})
        assert _refused(r, "file")


def test_the_forecast_runs_off_the_event_loop(client, monkeypatch):
    """In a worker thread (the event loop answers /health meanwhile), never in the loop's own thread."""
    import crewkg.api

    seen = {}

    def fake(fleet, from_day, until, lang, workers):
        seen["thread"], seen["workers"] = threading.current_thread(), workers
        return {"fleet": fleet["id"], "from": str(from_day), "until": str(until), "vessels": []}

    loop_thread = client.portal.call(lambda: threading.current_thread())  # type: ignore[union-attr]
    monkeypatch.setattr(crewkg.api, "fleet", fake)
    r = client.post("/api/fleet", params=SPAN, json=_body())
    assert r.status_code == 200, r.text[:300]
    assert seen["thread"] is not loop_thread and seen["workers"] == 1


def test_the_routes_are_documented_in_both_languages(client):
    for lang in ("en", "de"):
        spec = client.get("/openapi.json", params={"lang": lang}).json()
        for path, name in (("/api/fleet", "fleet_endpoint"), ("/api/fleet/upload", "fleet_upload")):
            op = spec["paths"][path]["post"]
            assert op["summary"] == section(f"service.doc.{name}.", lang)["summary"]
            assert op["description"] and "requestBody" in op and "422" in op["responses"]
            params = {p["name"]: p for p in op["parameters"]}
            assert set(params) >= {"from", "until", "lang", "format"} and params["until"]["required"]
            assert params["from"]["description"] == section("service.doc.param.", lang)["from"]


def _page_words(lang: str) -> set[str]:
    """The page's own words in `lang` that the other language does not share (a name, a number aside)."""
    this, other = section("service.fleet.page.", lang), section("service.fleet.page.", "de" if lang == "en" else "en")
    return {v for k, v in this.items() if v != other[k] and "{" not in v}


def _said(words: set[str], text: str) -> list[str]:
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_page_speaks_the_language_asked_from_the_catalogue(client, lang):
    other = "de" if lang == "en" else "en"
    r = client.get("/fleet", params={"lang": lang})
    assert r.status_code == 200 and f'<html lang="{lang}">' in r.text
    text = re.sub(r"<[^>]+>", "\n", r.text)
    assert all(w in r.text.replace("&#34;", '"') for w in _page_words(lang) if w in {
        section("service.fleet.page.", lang)[k] for k in ("form", "file", "from", "until", "submit", "heading")})
    assert not _said(_page_words(other), text)


def test_the_page_shows_summary_picture_changes_and_calendar_in_that_order(client):
    r = client.post("/fleet", data={"from": START, "until": END, "lang": "de"},
                    files={"file": (INLINE.name, INLINE.read_bytes())})
    assert r.status_code == 200, r.text[:500]
    page = r.text
    places = [page.index(f'id="{x}"') for x in ("fleet-summary", "fleet-picture", "fleet-events", "fleet-ics")]
    assert places == sorted(places)
    assert "data:image/svg+xml;base64," in page and 'download="donau-reederei.ics"' in page
    assert "Nächste Änderung am 2027-02-01: Mindestbesatzung erfüllt" in re.sub(r"<[^>]+>", "", page)
    assert page.count("<tr>") == 1 + 5  # the heading and the five lines of crewkg fleet
    assert not _said(_page_words("en"), re.sub(r"<[^>]+>", "", page))


def test_the_page_says_a_refusal_in_its_language(client):
    body, _ = BAD_BODIES["roster_a_path"]
    r = client.post("/fleet", data={"from": START, "until": END, "lang": "en"},
                    files={"file": ("mine.json", json.dumps(body).encode())})
    assert r.status_code == 422 and "vessels[0].roster" in r.text and "mine.json" in r.text
    assert section("service.fleet.page.", "en")["refused"] in r.text and "Traceback" not in r.text
    r = client.post("/fleet", data={"from": START, "until": "", "lang": "de"},
                    files={"file": (INLINE.name, INLINE.read_bytes())})
    assert r.status_code == 422 and "erwartet wird" in r.text and "„until“" in r.text
