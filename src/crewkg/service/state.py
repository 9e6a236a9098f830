"""What every route of the service shares: the settings, the loaded service (law, store, persons) and the engines
built for it once (the batching evaluator, the SPARQL runner). The app keeps one `State` in `app.state.crewkg`;
routes get it through the `state` dependency instead of a closure, so each router is a module of its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from fastapi import Depends, Request

from crewkg.law.statute import Law
from crewkg.records.persons import Person


@dataclass
class Settings:
    query_timeout: float = 10.0  # seconds
    max_query_bytes: int = 10_000  # SPARQL text, GET or POST
    max_body_bytes: int = 1_000_000  # any request body (record uploads)
    max_concurrent_queries: int = 4  # queries evaluated at once; more wait for a slot, up to the timeout
    #: bytes of serialized SPARQL answers kept for repeated queries (the store is read-only while serving); 0: none
    query_cache_bytes: int = 32_000_000
    #: persons per Datalog run in the API at most: every person of a batch waits for the whole batch (with its
    #: summaries, 30–60 ms a person), so a larger one saves little of the run's own cost and holds its persons longer
    max_batch: int = 16
    #: processes that evaluate the API's records (evaluator.py); None: one per core; 0: a thread of the service
    evaluator_workers: int | None = None
    #: bytes of eligibility answers kept for records asked again (the same record, date and language); 0: none
    answer_cache_bytes: int = 64_000_000
    #: bytes of persons kept as read from JSON bodies, for a body asked again (inputs.person_of_body); 0: none
    record_cache_bytes: int = 16_000_000
    #: also run the SHACL shapes on JSON records of the API. The schema check (persons.person_from_mapping) already
    #: enforces every constraint of ontology/shapes.ttl on a mapping record (tests/test_record_schema.py), and
    #: pySHACL costs ≈ 0.5 s of CPU per unseen record, so it is off by default; uploaded files always go the CLI's
    #: way (load_person_file, with SHACL).
    shacl_json: bool = False
    #: the Host header names the service answers to (a DNS-rebinding page in a browser names its own host); None
    #: answers any (an app built in a program or a test); `crewkg serve` allows the loopback names and --allow-host
    allowed_hosts: tuple[str, ...] | None = None
    #: seconds a request's head may take to arrive (from the connection, or the previous answer), and its body after
    #: the head: a slower client is answered 408 or cut off (guard.bounded_http; uvicorn bounds neither)
    request_head_seconds: float = 10.0
    request_body_seconds: float = 30.0
    #: the size of a fleet forecast one request may ask (POST /api/fleet, the page /fleet): its cost grows with the
    #: vessels, the roster members and the days of the span (each member's change days, each vessel's checks), and
    #: it runs in a thread of the service, so a fleet beyond these is refused naming the field (service/fleets.py)
    max_fleet_vessels: int = 50
    max_fleet_members: int = 500  # roster members of the whole fleet
    max_fleet_days: int = 3660  # days from `from` to `until`, both counted: ten years
    #: fleet forecasts computed at once; more wait for one to finish (each holds a thread for seconds)
    max_concurrent_fleets: int = 1


@dataclass
class Service:
    """Everything a request needs: the law, the store, the loaded persons and the settings."""

    law: Law
    store: Any
    persons: dict[str, Person] = field(default_factory=dict)
    as_of: date | None = None  # the evaluation date of the loaded persons' derived facts
    settings: Settings = field(default_factory=Settings)


@dataclass
class State:
    """The service and the engines built for it when the app is created."""

    service: Service
    evaluator: Any  # evaluator.Evaluator
    runner: Any  # queries.QueryRunner
    triples: int  # read-only store: counted once (pyoxigraph counts by scanning)
    persons: int = 0  # persons with an evaluation in the store (an exported register's, or the loaded records'), counted once
    #: every crew:personId in the store, in SPARQL's order: the pages of a paged canned query (paging.py), read once
    person_ids: list[str] = field(default_factory=list)
    #: the whole answers of the canned queries answered whole, then a page at a time (paging.Answers)
    answers: Any = None
    #: the ids of the persons whose records the store holds (a store folder's export), sorted: /api/persons
    stored_persons: list[str] = field(default_factory=list)
    #: the anyio.CapacityLimiter of the fleet forecasts (Settings.max_concurrent_fleets), made on the event loop at the
    #: first forecast (service/fleets.py)
    fleets: Any = None
    #: the persons read from JSON bodies by (date, body), made at the first (inputs.person_of_body)
    records: Any = None
    #: the JSON text of GET /api/queries by language (None: the .rq files' own words), made at its first request
    query_lists: dict[str | None, bytes] = field(default_factory=dict)

    @property
    def law(self) -> Law:
        return self.service.law

    @property
    def settings(self) -> Settings:
        return self.service.settings


async def state(request: Request) -> State:
    """The FastAPI dependency every router uses. A coroutine, so it is read on the event loop: FastAPI runs a plain
    function dependency in its thread pool, and every request — `/health` too — waited for a free thread there and
    for the GIL behind the threads working (under the warm load mix, handing work to threads and back was a fifth of
    the service process's busy time; docs/service.md)."""
    return request.app.state.crewkg


#: the parameter default that hands a route the State (`st: State = SHARED`)
SHARED = Depends(state)
