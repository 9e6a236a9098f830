"""Fuzzing the HTTP API from its own OpenAPI schema (schemathesis, in process through ASGI): whatever a client sends
— any parameter, any body the schema allows or nearly allows — the answer is never a server error, and a refusal
(4xx) names what was wrong: the `field` of a record or a request value, FastAPI's `loc` of a parameter, or the
SPARQL endpoint's plain-text reason. Bounded (few examples per operation, derandomized) so CI runs the same cases."""

from __future__ import annotations

from datetime import date

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from crewkg.law.statute import load_law  # noqa: E402
from crewkg.records.load import load_person_file  # noqa: E402
from crewkg.service.app import Service, Settings, create_app  # noqa: E402
from crewkg.service.loading import build_store  # noqa: E402

AS_OF = date(2026, 11, 30)
LAW = load_law()


def _app():
    from pathlib import Path

    anna = load_person_file(Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons" / "anna-matrose.yaml",
                            LAW, AS_OF)
    store = build_store("memory", LAW, [anna], AS_OF)
    return create_app(Service(LAW, store, {anna.id: anna}, AS_OF, Settings(query_timeout=2.0)))


APP = _app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
SEEN: dict[int, int] = {}
#: the fuzzer and the check of what it saw run on one worker, in file order
pytestmark = pytest.mark.xdist_group("fuzz_api")


def _names_what_was_wrong(response) -> bool:
    ctype = response.headers.get("content-type", [""])
    ctype = ctype[0] if isinstance(ctype, list) else ctype
    if not ctype.startswith("application/json"):
        return bool(response.text.strip())  # the SPARQL endpoint's and the request guard's plain-text reasons
    body = response.json()
    if not isinstance(body, dict):
        return False
    if body.get("field") is not None or body.get("error"):
        return True
    detail = body.get("detail")
    if response.status_code in (404, 405) and isinstance(detail, str):  # a path or method the API does not have
        return True
    return isinstance(detail, list) and all(isinstance(d, dict) and d.get("loc") for d in detail)


@schema.parametrize()
@settings(max_examples=min(12, settings().max_examples), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_never_answers_with_a_server_error(case):
    response = case.call()
    SEEN[response.status_code] = SEEN.get(response.status_code, 0) + 1
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:500]}"
    if 400 <= response.status_code < 500:
        assert _names_what_was_wrong(response), f"{case.method} {case.formatted_path} -> {response.text[:500]}"


def test_the_fuzzer_got_answers_and_refusals():
    """Runs after the fuzzer (file order): it reached the routes' logic, not only the validation in front of them."""
    print("status codes seen:", dict(sorted(SEEN.items())))
    assert sum(n for code, n in SEEN.items() if 200 <= code < 300) > 20
    assert sum(n for code, n in SEEN.items() if 400 <= code < 500) > 20


def test_the_schema_has_every_api_operation():
    operations = {(op.method.upper(), op.path) for op in (r.ok() for r in schema.get_all_operations())}
    assert {("POST", "/api/eligibility"), ("POST", "/api/explain"), ("POST", "/api/plan"), ("POST", "/api/crew"),
            ("GET", "/sparql"), ("POST", "/sparql")} <= operations


@pytest.mark.parametrize("path", ["/api/eligibility/upload", "/api/report/upload"])
def test_an_upload_that_is_no_multipart_form_names_the_file_field(path):
    """Found by the fuzzer: a multipart Content-Type without a boundary got Starlette's bare 400."""
    from fastapi.testclient import TestClient

    with TestClient(APP) as client:
        for ctype in ("multipart/form-data", "multipart/form-data; boundary=x"):
            r = client.post(path, content=b"--y\r\nnonsense", headers={"Content-Type": ctype})
            assert r.status_code == 422, r.text
            assert r.json()["field"] == "file"
