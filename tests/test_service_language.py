"""The HTTP API speaks the language it is asked in (issue 9 point 6, issue 13 point 7): with `lang=de` every text
field of the check, explain, report, plan and crew answers, every refusal's `detail`, the canned queries' titles and
descriptions and the OpenAPI document's descriptions are German to the last sentence; with `lang=en` English.

What is not a sentence is left out: ids and values of a closed vocabulary (`unit`, `kind`, `op`, `via`, …), the
citations, the German wording of the law (`wording`), the kb's editorial notes (`notes`, quoted as they are written),
and in a `text` what it marks as quoted („…“ after a lead-in from the catalogue, as tests/test_languages.py)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from crewkg.messages.catalogue import catalogue
from crewkg.records.reading import read_mapping

pytestmark = pytest.mark.xdist_group("test_service_language")  # its module fixtures are made once, on one worker

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
PERSONS = sorted(p for p in (EXAMPLES / "persons").iterdir() if p.suffix in (".yaml", ".json"))
VESSELS = sorted((EXAMPLES / "vessels").glob("*.yaml"))
ROSTERS = sorted((EXAMPLES / "rosters").glob("*.yaml"))
AS_OF = "2026-11-30"

#: words only an English sentence has
ENGLISH = re.compile(r"\b(the|not|and|of|is|are|with|which|missing|needs?|until|than|days|years|months|expected|"
                     r"cannot|none|must|only|because|shown|field|record|request|body|query|queries|persons?)\b")
#: words only a German sentence has
GERMAN = re.compile(r"\b(der|die|das|und|ist|nicht|mit|noch|fehlt|bis|gültig|wird|keine|eine|einer|Tage|Monate|"
                    r"Jahre|Feld|Anfrage|Abfrage|Datensatz|erwartet|frühestens|vorhanden)\b")
MARKERS = {"de": ENGLISH, "en": GERMAN}
#: keys whose values are ids, closed vocabularies, citations, quoted law (`wording`, the table rows `row` and
#: `function_row`) or quoted kb notes, not sentences
NOT_SENTENCES = {"id", "person", "as_of", "regulation", "provision", "provisions", "unit", "kind", "op", "via", "wording",
                 "notes", "svg", "query", "field", "file", "got", "expected", "error", "type", "loc", "input", "name",
                 "certificate", "target", "role", "relaxes", "until", "earliest", "vessel", "roster", "operationId",
                 "row", "function_row", "condition", "fails",
                 "$ref", "title", "format", "pattern", "enum", "example", "in", "openapi", "version", "tags"}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))  # YAML dates as the ISO strings a JSON client sends


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    from crewkg.law.statute import load_law
    from crewkg.service.app import Service, create_app
    from crewkg.service.loading import build_store

    law = load_law()
    store = build_store("memory", law, [], date.fromisoformat(AS_OF), [], [])
    return TestClient(create_app(Service(law, store)))


def _unquoted(text: str, lang: str) -> str:
    """A text without what it marks as quoted (the law's German wording, the kb's English notes)."""
    flat = re.sub(r"\s*\n\s*", " ", text)
    for key in ("cli.explain.wording", "cli.explain.note"):
        lead = catalogue(lang)[key].split("{")[0]
        if lead.endswith("„"):
            flat = re.sub(re.escape(lead) + r"[^“]*“", lead, flat)
    # in English a note may quote the law's words in '…' (the notes in the output's language are said as they are)
    return re.sub(r"'[^'\n]{1,100}'", "''", flat) if lang == "en" else flat


def _words(text: str) -> str:
    """A sentence without the names in it: `code`, a quoted name („expected“, 'file'), a command-line option, a
    path (kb/queries) or an identifier (days_per_year, application/json)."""
    text = re.sub(r"`[^`]*`|\?\S*|„[^“\s]*“|'[^'\s]*'|--[\w-]+|\S*/\S*|\S*_\S*", " ", text)
    return text


def leaks(answer: Any, lang: str, where: str = "") -> list[str]:
    """The text fields of an answer with a word of the other language."""
    found: list[str] = []
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key not in NOT_SENTENCES:
                found += leaks(value, lang, f"{where}.{key}")
    elif isinstance(answer, list):
        for value in answer:
            found += leaks(value, lang, f"{where}[]")
    elif isinstance(answer, str):
        text = _words(_unquoted(answer, lang))
        hit = MARKERS[lang].search(text)
        if hit:
            found.append(f"{where}: …{text[max(0, hit.start() - 50):hit.end() + 50]}…")
    return sorted(set(found))


def _person_answers(client, lang: str) -> list[tuple[str, Any]]:
    out = []
    for path in PERSONS:
        record = _plain(read_mapping(path))
        query = {"as_of": AS_OF, "lang": lang}
        out.append((f"eligibility {path.name}", client.post("/api/eligibility", params=query, json=record)))
        cert = "UBZ-Schiffsfuehrer" if path.name < "07" else "UBZ-Steuermann"
        out.append((f"explain {path.name} {cert}", client.post("/api/explain", params={**query, "certificate": cert}, json=record)))
    for path in PERSONS[::4]:
        record = _plain(read_mapping(path))
        out.append((f"plan {path.name}", client.post("/api/plan", params={"as_of": AS_OF, "lang": lang, "target": "UBZ-Schiffsfuehrer"}, json=record)))
    record = _plain(read_mapping(PERSONS[0]))
    report = client.post("/api/report", params={"as_of": AS_OF, "lang": lang, "target": "UBZ-Steuermann"}, json=record)
    out.append(("report", report))
    out.append(("eligibility before any regulation", client.post("/api/eligibility", params={"as_of": "2020-01-01", "lang": lang}, json=record)))
    return out


def _refusals(client, lang: str) -> list[tuple[str, Any]]:
    q = {"lang": lang}
    good = {"id": "x"}
    return [
        ("bad record", client.post("/api/eligibility", params=q, json={"id": "x", "sailing_days": {"Bootsmann": -1}})),
        ("bad json", client.post("/api/eligibility", params=q, content=b"{not json", headers={"Content-Type": "application/json"})),
        ("empty body", client.post("/api/eligibility", params=q, content=b" ", headers={"Content-Type": "application/json"})),
        ("bad date", client.post("/api/eligibility", params={**q, "as_of": "30.11.2026"}, json=good)),
        ("bad certificate", client.post("/api/explain", params={**q, "certificate": "UBZ-Kapitaen"}, json=good)),
        ("no certificate", client.post("/api/explain", params=q, json=good)),
        ("bad target", client.post("/api/report", params={**q, "target": "UBZ-Kapitaen"}, json=good)),
        ("bad number", client.post("/api/plan", params={**q, "target": "UBZ-Matrose", "days_per_year": "x"}, json=good)),
        ("bad upload", client.post("/api/eligibility/upload", params=q, files={"file": ("x.txt", b"id: x", "text/plain")})),
        ("no upload", client.post("/api/eligibility/upload", params=q, data={"x": "1"})),
        ("bad crew body", client.post("/api/crew", params=q, json={"ship": {}})),
        ("no such person", client.get("/api/persons/nobody", params=q)),
    ]


def _crew_answers(client, lang: str) -> list[tuple[str, Any]]:
    out = []
    for v in VESSELS:
        vessel = _plain(yaml.safe_load(v.read_text(encoding="utf-8")))
        out.append((f"crew {v.name}", client.post("/api/crew", params={"as_of": AS_OF, "lang": lang}, json={"vessel": vessel})))
        for r in (r for r in ROSTERS if r.name[:3] == v.name[:3]):  # each roster with its own vessel
            roster = _plain(yaml.safe_load(r.read_text(encoding="utf-8")))
            out.append((f"crew {v.name} {r.name}", client.post("/api/crew", params={"as_of": AS_OF, "lang": lang},
                                                               json={"vessel": vessel, "roster": roster})))
    return out


def _all_leaks(responses: list[tuple[str, Any]], lang: str) -> list[str]:
    found = []
    for name, r in responses:
        assert r.status_code in (200, 404, 422), (name, r.status_code, r.text[:300])
        found += [f"{name}: {leak}" for leak in leaks(r.json(), lang)]
    return found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_check_explain_report_and_plan_answers_speak_the_language_asked(client, lang):
    assert _all_leaks(_person_answers(client, lang), lang) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_refusal_says_why_in_the_language_asked(client, lang):
    responses = _refusals(client, lang)
    for name, r in responses:
        assert r.status_code in (404, 422), name
        assert r.json()["detail"], name
    assert _all_leaks(responses, lang) == []


def test_the_refusal_keeps_the_fields_clients_match_on(client):
    r = client.post("/api/eligibility", params={"lang": "de"}, json={"id": "x", "sailing_days": {"Bootsmann": -1}})
    body = r.json()
    assert body["field"] == "sailing_days.Bootsmann" and "not negative" in body["error"] and body["got"] == "-1"
    assert "Feld „sailing_days.Bootsmann“" in body["detail"] and "Anfrageinhalt" in body["detail"]
    r = client.post("/api/eligibility", params={"lang": "de", "as_of": "30.11.2026"}, json={"id": "x"})
    assert r.json()["expected"] == "an ISO date YYYY-MM-DD" and "ISO-Datum JJJJ-MM-TT" in r.json()["detail"]


@pytest.mark.parametrize(("value", "spelled"), [(True, "true"), (False, "false"), (-1, "-1"), (1.5, "1.5"), ("x", "x"),
                                                ([True, None, "x"], "[true, null, 'x']"), ({"a": None}, "{'a': null}")])
def test_the_refusal_spells_the_value_received_as_json_does_not_as_python(client, value, spelled):
    """`got` said True, None and ['x'] as Python writes them; the CLI's messages (errors.quote) say true, null."""
    r = client.post("/api/eligibility", params={"lang": "en"}, json={"id": "x", "sailing_days": {"Matrose": value}})
    body = r.json()
    assert r.status_code == 422 and body["field"] == "sailing_days.Matrose" and body["got"] == spelled, body
    assert body["error"].endswith(f"(got {spelled if not isinstance(value, str) else repr(value)})")


def test_a_missing_or_malformed_query_parameter_is_refused_in_the_shape_of_every_other_refusal(client):
    """POST /api/explain without `certificate` answered FastAPI's {"detail": [{"type", "loc", "msg", ...}]} while
    every other 422 has {error, file, field, expected, got, detail}."""
    good = {"id": "x", "birth_date": "2000-01-01"}
    r = client.post("/api/explain", params={"lang": "en"}, json=good)
    assert r.status_code == 422 and r.json() == {
        "error": "certificate: field 'certificate': expected a value for this required parameter", "file": "certificate",
        "field": "certificate", "expected": "a value for this required parameter", "got": None,
        "detail": "certificate: field 'certificate': expected a value for this required parameter"}
    r = client.post("/api/plan", params={"lang": "de", "target": "UBZ-Matrose", "days_per_year": "x"}, json=good)
    body = r.json()
    assert r.status_code == 422 and set(body) == {"error", "file", "field", "expected", "got", "detail"}
    assert body["field"] == "days_per_year" and body["expected"] == "a whole number" and body["got"] == "x"
    assert body["detail"] == "days_per_year: Feld „days_per_year“: erwartet wird eine ganze Zahl (erhalten: 'x')"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_crew_answers_speak_the_language_asked(client, lang):
    assert _all_leaks(_crew_answers(client, lang), lang) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_canned_queries_are_described_in_the_language_asked(client, lang):
    queries = client.get("/api/queries", params={"lang": lang}).json()
    assert len(queries) >= 10
    assert leaks([{"t": q["title"], "d": q["description"]} for q in queries], lang) == []


def test_canned_queries_without_a_language_keep_their_files_words_and_english_is_the_same(client):
    from crewkg.service.canned import canned_queries

    plain = client.get("/api/queries").json()
    english = client.get("/api/queries", params={"lang": "en"}).json()
    files = {q.name: (q.title, q.description) for q in canned_queries()}
    assert [(q["title"], q["description"]) for q in plain] == [files[q["name"]] for q in plain]
    assert english == plain  # the catalogue's English is the .rq header's, word for word
    german = client.get("/api/queries", params={"lang": "de"}).json()
    assert [q["query"] for q in german] == [q["query"] for q in plain]
    assert all(g["title"] != p["title"] for g, p in zip(german, plain, strict=True))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_api_documentation_speaks_the_language_asked(client, lang):
    spec = client.get("/openapi.json", params={"lang": lang}).json()
    texts = [spec["info"]["description"]]
    for item in spec["paths"].values():
        for op in item.values():
            texts += [op.get("summary", ""), op.get("description", "")]
            texts += [p.get("description", "") for p in op.get("parameters", [])]
            for media in op.get("requestBody", {}).get("content", {}).values():
                texts += re.findall(r'"description": "([^"]*)"', json.dumps(media, ensure_ascii=False))
    assert len([t for t in texts if t]) >= 20
    assert leaks(texts, lang) == []


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_api_documentation_gives_the_422_the_service_answers_with(client, lang):
    """The document gave FastAPI's HTTPValidationError ({"detail": [{"loc", "msg", "type"}]}) for every 422, a shape
    the service never answers with: every 422 names the refusal's own schema, whose fields are a real refusal's."""
    spec = client.get("/openapi.json", params={"lang": lang}).json()
    documented = {(method, path): op["responses"]["422"] for path, item in spec["paths"].items()
                  for method, op in item.items() if "422" in op.get("responses", {})}
    assert ("post", "/api/eligibility") in documented and ("post", "/api/plan") in documented
    for response in documented.values():
        assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Refusal"}
    assert "HTTPValidationError" not in json.dumps(spec)
    shape = spec["components"]["schemas"]["Refusal"]
    texts = [documented["post", "/api/eligibility"]["description"], shape["description"]]
    assert leaks(texts + [p["description"] for p in shape["properties"].values()], lang) == []
    for r in (client.post("/api/eligibility", params={"lang": lang}, json={"id": "x", "birth_date": True}),
              client.post("/api/explain", params={"lang": lang}, json={"id": "x"})):
        body = r.json()
        assert r.status_code == 422 and set(body) == set(shape["properties"]) == set(shape["required"]), body
        for name, value in body.items():
            assert ("null" if value is None else "string") in (shape["properties"][name]["type"] if name == "got"
                                                             else [shape["properties"][name]["type"]]), name


def test_the_default_api_documentation_is_the_english_one(client):
    assert client.get("/openapi.json").json() == client.get("/openapi.json", params={"lang": "en"}).json()
    german = client.get("/openapi.json", params={"lang": "de"}).json()
    assert german["paths"]["/api/eligibility"]["post"]["summary"].startswith("Welche Zeugnisse")
