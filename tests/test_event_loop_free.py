"""The service's event loop stays free (issue 44): the heavy part of a request — parsing an uploaded record file —
runs in a worker thread, so /health answers meanwhile. Waits are bounded by events: the parse is held until /health
has answered, and a parse on the loop would hold /health too (the wait runs out and the test fails)."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from fastapi.testclient import TestClient

from crewkg.records import load
from crewkg.service.app import Service, create_app
from crewkg.service.loading import build_store

pytestmark = pytest.mark.xdist_group("test_event_loop_free")

AS_OF = date(2026, 11, 30)
#: how long a step may take on a loaded machine before the test fails
PATIENCE = 60.0


@pytest.fixture(scope="module")
def client(law):
    app = create_app(Service(law, build_store("memory", law, [], AS_OF), {}, AS_OF))
    try:
        with TestClient(app) as c:
            yield c
    finally:
        app.fastapi.state.crewkg.runner.close()


def test_health_answers_while_a_big_upload_is_parsed(client, monkeypatch):
    """The issue's upload: a YAML record of 50 000 keys (1.5–2.6 s to parse). Its reading waits until /health has
    answered; the record is then refused for its first unknown key, as the CLI refuses it."""
    started, answered, waited = threading.Event(), threading.Event(), []
    real = load.load_person_file

    def reading(*args, **kwargs):
        started.set()
        waited.append(answered.wait(PATIENCE))  # on the event loop, /health could not answer meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(load, "load_person_file", reading)
    big = "id: big\nbirth_date: 1990-01-01\n" + "".join(f"key{i}: {i}\n" for i in range(50_000))
    got: dict = {}

    def upload() -> None:
        got["answer"] = client.post("/api/eligibility/upload", params={"as_of": AS_OF.isoformat()},
                                    files={"file": ("big.yaml", big.encode())})

    thread = threading.Thread(target=upload)
    thread.start()
    assert started.wait(PATIENCE), "the upload never reached its reading"
    health = client.get("/health")
    answered.set()
    thread.join(PATIENCE)
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert waited == [True], "/health answered only after the upload's reading"
    answer = got["answer"]
    assert answer.status_code == 422 and answer.json()["file"] == "big.yaml" and "key0" in answer.text
