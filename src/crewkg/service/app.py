"""The service (issue 5): one process (FastAPI on uvicorn) with

- `/sparql`, a read-only SPARQL 1.1 Protocol query endpoint (GET and POST; JSON, XML or CSV results by
  Accept) over ontology + kb + the loaded persons + their derived facts, with a query timeout and size limits;
- a JSON API (`/api/...`, OpenAPI at `/openapi.json`, rendered at `/docs`) for eligibility, explanation, career
  plans and crew checks — the same library calls as the CLI;
- web pages (`/` the eligibility form, `/queries` the canned queries), every asset served from the package;
- the served identifiers: `/onto` (the ontology, documented in HTML or as Turtle by Accept) and `/kb/<id>` (a kb
  resource), as their IRIs under https://w3id.org/crewkg/ name them (routers/identifiers.py).

It binds to loopback by default and logs every request (method, path, status, milliseconds). Each capability is a
router of its own (`service/routers/`); what they share — the law, the store, the limits, the batching evaluator
(evaluator.py) and the SPARQL runner (querying.py) — is one `State` in `app.state` (state.py). The request guard
(guard.py) wraps the app. Design notes: docs/service.md.
"""

from __future__ import annotations

import logging
import os

from crewkg.service.state import Service, Settings, State

__all__ = ["Service", "Settings", "configure_logging", "create_app", "run"]

log = logging.getLogger("crewkg.server")


def create_app(service: Service):
    """The FastAPI application for a service (tests and benchmarks build it directly; `crewkg serve` runs it)."""
    from fastapi import FastAPI
    from fastapi.staticfiles import StaticFiles

    from crewkg.service import refusals
    from crewkg.service.docs import openapi
    from crewkg.service.evaluator import Evaluator
    from crewkg.service.guard import RequestGuard
    from crewkg.service.kept import evaluated_persons, kept
    from crewkg.service.paging import Answers, person_ids
    from crewkg.service.querying import QueryRunner
    from crewkg.service.records_rdf import stored_person_ids
    from crewkg.service.routers import careers, check, crew, documents, fleet, identifiers, sparql, web

    settings = service.settings
    app = FastAPI(title="crewkg", version=_version(), docs_url=None, redoc_url=None, openapi_url=None)
    workers = settings.evaluator_workers if settings.evaluator_workers is not None else os.cpu_count() or 1
    evaluator = Evaluator(service.law, settings.max_batch, settings.answer_cache_bytes, workers)
    # what a store folder's export computed for it, else counted now (read-only: once; pyoxigraph counts by scanning)
    ready = kept(service.store)
    app.state.crewkg = State(service, evaluator,
                             QueryRunner(service.store, settings.query_timeout, settings.max_concurrent_queries,
                                         settings.query_cache_bytes),
                             triples=ready.quads if ready else len(service.store),
                             persons=ready.persons if ready else evaluated_persons(service.store),
                             person_ids=ready.person_ids if ready else person_ids(service.store),
                             answers=Answers(service.store, ready.answers if ready else None),
                             stored_persons=ready.stored_person_ids if ready else stored_person_ids(service.store))
    app.openapi = lambda: openapi(app, service.law)  # type: ignore[method-assign]
    # the evaluation workers and the query workers' zygote end with the app (a later request forks new ones): left to
    # the garbage collector, a dropped app's zygote and idle workers lived on in the program that built it
    app.router.on_shutdown.append(evaluator.close)
    app.router.on_shutdown.append(app.state.crewkg.runner.close)
    app.mount("/static", StaticFiles(directory=web.STATIC), name="static")
    refusals.install(app)
    for router in (web.pages, sparql.router, check.router, web.reports, careers.router, crew.router, documents.router,
                   fleet.router, identifiers.router):
        app.include_router(router)
    guard = RequestGuard(app, settings.max_body_bytes, settings.allowed_hosts)
    guard.fastapi = app  # type: ignore[attr-defined]  # the guard keeps a reference to the app for tests
    return guard


def _version() -> str:
    from crewkg import __version__

    return __version__


def configure_logging() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(logging.INFO)
    log.propagate = False


def port_in_use(host: str, port: int) -> bool:
    """Whether another program holds `port` on `host`: bound as uvicorn binds it (SO_REUSEADDR, so a port a closed
    server left in TIME_WAIT counts as free), then let go. Any other failure (a host that does not resolve, a
    privileged port) is left to the server, which names it."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(address)
    except OSError as exc:
        return exc.errno == errno.EADDRINUSE
    return False


def _freeze_loaded() -> None:
    """Moves what the service loaded (the law, the store's and the caches' objects) out of the garbage collector's
    reach. Measured under the warm load mix (docs/service.md): a full collection walked them all, 40–220 ms on the
    event loop each time, and every request waiting on the loop — `/health` too — waited that long; frozen, a
    collection walks only what serving made since."""
    import gc

    gc.collect()
    gc.freeze()


def run(service: Service, host: str = "127.0.0.1", port: int = 8080) -> None:
    import uvicorn

    from crewkg.service.canned import canned_queries
    from crewkg.service.guard import bounded_http

    configure_logging()
    app = create_app(service)
    st = app.fastapi.state.crewkg
    st.runner.start()  # fork the query workers' zygote before the server's threads exist
    st.evaluator.start()  # and the evaluation workers, which load the rules before the first request
    st.answers.warm(canned_queries())  # the answers computed whole, in the background: ready for the first reader
    _freeze_loaded()
    log.info("crewkg %s serving http://%s:%d/ (store %s, %d triples, %d persons, kb %s)", _version(), host, port,
             service.store.kind, st.triples, st.persons, service.law.version)
    # the protocol bounds a request's head (a URL or header block over `head_bytes` is refused, never buffered whole)
    # and the time its head and body may take (guard.bounded_http, on httptools or h11: no slowloris); the plain
    # asyncio loop: with uvloop a mixed load saw a connection closed without an answer, 1 in 6 000 requests
    settings = service.settings
    head_bytes = max(65_536, settings.max_query_bytes * 4)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning", loop="asyncio",
                http=bounded_http(settings.request_head_seconds, settings.request_body_seconds, head_bytes),
                h11_max_incomplete_event_size=head_bytes)
