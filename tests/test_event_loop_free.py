"""The service's event loop stays free (issue 44): the heavy parts of a request run elsewhere — an uploaded record
file is parsed in a worker thread, the rules run in the evaluator's worker processes, two batches at once — so
/health answers meanwhile. Waits are bounded by events: the work is held until /health has answered (a parse on the
loop would hold /health too, and the wait runs out), and a batch is held in its worker until the other has started
(one evaluation at a time never starts the second)."""

from __future__ import annotations

import multiprocessing
import os
import threading
from datetime import date

import pytest
from fastapi.testclient import TestClient

from crewkg.answers import eligibility
from crewkg.records import load
from crewkg.service.app import Service, Settings, create_app
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


def test_the_rules_run_in_worker_processes_two_batches_at_once_while_health_answers(law, monkeypatch):
    """Forty requests at once: both workers evaluate a batch at the same time, each in a process of its own, the
    others wait without holding a thread, /health answers; then every request gets its own answer, the same as the
    rules give in the service’s own process — § 12 Z 2 lit. c SchBV, 360 days of Fahrzeit for the UBZ-Matrose:
    eligible at 360 days, not at 359."""
    fork = multiprocessing.get_context("fork")
    started, release = fork.Queue(), fork.Event()  # made before the workers are forked: shared with them
    real = eligibility.check

    def held(law_, persons, as_of, lang):
        if not persons[0].id.startswith("warm"):  # the worker's warm-up runs through
            started.put(os.getpid())
            release.wait(PATIENCE)
        return real(law_, persons, as_of, lang)

    monkeypatch.setattr(eligibility, "check", held)  # inherited by the workers, forked on the first batch
    app = create_app(Service(law, build_store("memory", law, [], AS_OF), {}, AS_OF, Settings(evaluator_workers=2)))
    record = {"birth_date": "2000-05-01", "medical_fitness": True, "exams": ["Anlage8"]}
    got: dict[str, bool] = {}
    try:
        with TestClient(app) as client:
            def ask(i: int) -> None:
                r = client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()},
                                json=record | {"id": f"p{i}", "sailing_days": {"Decksmann": 359 + i % 2}})
                got[r.json()["person"]] = next(c["eligible"] for c in r.json()["certificates"] if c["id"] == "UBZ-Matrose")

            threads = [threading.Thread(target=ask, args=(i,)) for i in range(40)]
            for t in threads:
                t.start()
            pids = {started.get(timeout=PATIENCE), started.get(timeout=PATIENCE)}
            health = client.get("/health")
            release.set()
            for t in threads:
                t.join(PATIENCE)
    finally:
        release.set()
        app.fastapi.state.crewkg.evaluator.close()
        app.fastapi.state.crewkg.runner.close()
    assert len(pids) == 2 and os.getpid() not in pids  # two worker processes, at the same time
    assert health.status_code == 200
    assert got == {f"p{i}": i % 2 == 1 for i in range(40)}


def test_a_worker_that_dies_costs_its_batch_one_more_run_not_an_error(law, monkeypatch):
    """The first evaluation ends its worker process (as the kernel ends one out of memory); the pool is made anew
    and the batch evaluated there: the request gets its answer — § 12 Z 2 lit. c SchBV met at 360 days."""
    fork = multiprocessing.get_context("fork")
    died = fork.Value("i", 0)  # shared with the workers: only the first evaluation dies
    real = eligibility.check

    def dying(law_, persons, as_of, lang):
        if not persons[0].id.startswith("warm"):
            with died.get_lock():
                first = died.value == 0
                died.value += 1
            if first:
                os._exit(1)
        return real(law_, persons, as_of, lang)

    monkeypatch.setattr(eligibility, "check", dying)
    app = create_app(Service(law, build_store("memory", law, [], AS_OF), {}, AS_OF, Settings(evaluator_workers=1)))
    record = {"id": "anna", "birth_date": "2000-05-01", "medical_fitness": True, "exams": ["Anlage8"],
              "sailing_days": {"Decksmann": 360}}
    try:
        with TestClient(app) as client:
            r = client.post("/api/eligibility", params={"as_of": AS_OF.isoformat()}, json=record)
    finally:
        app.fastapi.state.crewkg.evaluator.close()
        app.fastapi.state.crewkg.runner.close()
    assert died.value == 2  # the run that died and the one in the new pool
    assert r.status_code == 200 and r.json()["person"] == "anna"
    assert next(c["eligible"] for c in r.json()["certificates"] if c["id"] == "UBZ-Matrose") is True


def test_a_body_asked_again_is_not_read_again_and_a_bad_body_is_refused_before_a_bad_date(client, monkeypatch):
    from crewkg.service import inputs

    body = {"id": "again", "birth_date": "2000-01-01"}
    reads = []
    real = inputs.person_from_body
    monkeypatch.setattr(inputs, "person_from_body", lambda *args: reads.append(args) or real(*args))
    first = client.post("/api/eligibility", params={"as_of": "2026-11-30"}, json=body)
    again = client.post("/api/eligibility", params={"as_of": "2026-11-30", "lang": "en"}, json=body)
    other_day = client.post("/api/eligibility", params={"as_of": "2026-12-01"}, json=body)
    assert (first.status_code, again.status_code, other_day.status_code) == (200, 200, 200)
    assert len(reads) == 2  # the second day's record is read anew: the schema check depends on the date
    refused = client.post("/api/eligibility", params={"as_of": "30.11.2026"}, content=b"{")
    assert refused.status_code == 422 and refused.json()["field"] == ""  # the body's refusal, not the date's
    refused = client.post("/api/eligibility", params={"as_of": "30.11.2026"}, json=body)
    assert refused.status_code == 422 and refused.json()["field"] == "as_of"


def test_the_evaluation_workers_step_back_when_the_event_loop_wants_a_core(law):
    from crewkg.service.evaluator import WORKER_NICENESS, Evaluator

    evaluator = Evaluator(law, 16, 0, 1)
    try:
        evaluator.start()
        (worker,) = evaluator._pool._processes
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)
    finally:
        evaluator.close()
