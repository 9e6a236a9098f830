"""The service (issue 5): one process (FastAPI on uvicorn) with

- `/sparql`, a read-only SPARQL 1.1 Protocol query endpoint (GET and POST; JSON, XML or CSV results by
  Accept) over ontology + kb + the loaded persons + their derived facts, with a query timeout and size limits;
- a JSON API (`/api/...`, OpenAPI at `/openapi.json`, rendered at `/docs`) for eligibility, explanation and,
  where those modules are installed, career plans and crew checks — the same library calls as the CLI;
- web pages (`/` the eligibility form, `/queries` the canned queries), every asset served from the package.

It binds to loopback by default and logs every request (method, path, status, milliseconds).

Two engine facts shape it (docs/architecture.md, engine notes). pyDatalog keeps one global database, so
`eligibility.derive` runs one evaluation at a time; the `Evaluator` below batches requests that arrive
while an evaluation runs into the next one (one Datalog run for many persons is far cheaper than many runs).
pyoxigraph evaluates SPARQL natively and cannot be interrupted: a query past its timeout gets 503 while the
evaluation finishes in the background, and a cap on concurrent queries keeps runaways from piling up; the
memory store stops a query itself at the deadline (sparql.QueryTimeout).
"""

from __future__ import annotations

import concurrent.futures
import copy
import dataclasses
import logging
import queue
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.records.persons import Person

log = logging.getLogger("crewkg.server")

WEB = Path(__file__).resolve().parent / "web"
STATIC = WEB / "static"


@dataclass
class Settings:
    query_timeout: float = 10.0  # seconds
    max_query_bytes: int = 10_000  # SPARQL text, GET or POST
    max_body_bytes: int = 1_000_000  # any request body (record uploads)
    max_concurrent_queries: int = 4
    max_batch: int = 64  # persons per Datalog run in the API
    #: also run the SHACL shapes on JSON records of the API. The schema check (persons.person_from_mapping) already
    #: enforces every constraint of ontology/shapes.ttl on a mapping record, and pySHACL costs ≈ 0.5 s of CPU per
    #: unseen record, so it is off by default; uploaded files always go the CLI's way (load_person_file, with SHACL).
    shacl_json: bool = False


@dataclass
class Service:
    """Everything a request needs: the law, the store, the loaded persons and the settings."""

    law: Law
    store: Any
    persons: dict[str, Person] = field(default_factory=dict)
    as_of: date | None = None  # the evaluation date of the loaded persons' derived facts
    settings: Settings = field(default_factory=Settings)


# ------------------------------------------------------------------------------------------------------
# Eligibility with request batching
# ------------------------------------------------------------------------------------------------------
class Evaluator:
    """Runs `answers.check` for API requests. Requests that arrive while an evaluation runs wait in a queue and
    are evaluated together in the next Datalog run; each request's person gets a batch-unique id for the run
    (two requests may both call their person "anna") and its own id back in the answer."""

    def __init__(self, law: Law, max_batch: int = 64) -> None:
        self.law = law
        self.max_batch = max_batch
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="crewkg-evaluator", daemon=True)
        self._thread.start()

    def check(self, person: Person, as_of: date, lang: str) -> dict[str, Any]:
        fut: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((person, as_of, lang, fut))
        return fut.result()

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            groups: dict[tuple[date, str], list] = {}
            for item in batch:
                groups.setdefault((item[1], item[2]), []).append(item)
            for (as_of, lang), items in groups.items():
                self._run(as_of, lang, items)

    def _run(self, as_of: date, lang: str, items: list) -> None:
        from crewkg.answers.eligibility import check

        try:
            persons = [dataclasses.replace(p, id=f"{p.id}\u241f{i}") for i, (p, *_rest) in enumerate(items)]
            answers = check(self.law, persons, as_of, lang)
        except BaseException as exc:  # every waiting request learns of the failure
            for *_rest, fut in items:
                fut.set_exception(exc)
            return
        for (p, _as_of, _lang, fut), answer in zip(items, answers, strict=True):
            answer["person"] = p.id
            fut.set_result(answer)


# ------------------------------------------------------------------------------------------------------
# SPARQL with a timeout and a cap on concurrent queries
# ------------------------------------------------------------------------------------------------------
class Busy(Exception):
    """Every query slot is taken (by queries still running past their timeout, for one)."""


class QueryRunner:
    def __init__(self, store, timeout: float, slots: int) -> None:
        self.store = store
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(slots)

    def run(self, query: str, accept: str | None) -> tuple[bytes, str]:
        from crewkg.service.sparql import QueryTimeout

        if not self._slots.acquire(timeout=self.timeout):
            raise Busy("all query slots are busy; try again later")
        deadline = time.monotonic() + self.timeout
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["result"] = self.store.serialize(query, accept, deadline)
            except BaseException as exc:  # handed to the waiting request
                box["error"] = exc
            finally:
                self._slots.release()
                done.set()

        threading.Thread(target=work, name="crewkg-sparql", daemon=True).start()
        # the memory store stops itself at the deadline; give it a moment to say so
        if not done.wait(self.timeout + 0.5):
            raise QueryTimeout(f"query exceeded the timeout of {self.timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["result"]


# ------------------------------------------------------------------------------------------------------
# ASGI middleware: request size limit and request log
# ------------------------------------------------------------------------------------------------------
class _TooLarge(Exception):
    pass


class RequestGuard:
    """Refuses bodies over the limit with 413 (by Content-Length, or while streaming) and logs every request."""

    def __init__(self, app, max_body_bytes: int) -> None:
        self.app = app
        self.limit = max_body_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start = time.perf_counter()
        status = {"code": 0}

        async def send_logged(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        def done() -> None:
            client = scope.get("client") or ("-", 0)
            log.info("%s %s %s %d %.1f ms", client[0], scope["method"], scope["path"], status["code"],
                     (time.perf_counter() - start) * 1000)

        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _plain(send_logged, 413, f"request body too large: {int(length)} bytes > limit of {self.limit} bytes")
            done()
            return
        seen = 0

        async def receive_limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, receive_limited, send_logged)
        except _TooLarge:
            if not status["code"]:
                await _plain(send_logged, 413, f"request body too large: limit of {self.limit} bytes")
        finally:
            done()


async def _plain(send, code: int, text: str) -> None:
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": code,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


#: documented JSON schema of a person record (the design's keys); validation is persons.person_from_mapping
RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id"],
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$"},
        "birth_date": {"type": "string", "format": "date"},
        "medical_fitness": {"oneOf": [{"type": "boolean"}, {"type": "object", "properties": {"valid_until": {"type": "string", "format": "date"}}}]},
        "radio_certificate": {"type": "boolean"},
        "basic_safety_training": {"type": "boolean"},
        "apprenticeship": {"type": "object", "properties": {"contract": {"type": "boolean"}, "year": {"type": "integer", "minimum": 1}}},
        "sailing_days": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}, "description": "validated Fahrzeit per deck role id"},
        "sea_days": {"type": "object", "properties": {"deck_crew": {"type": "integer", "minimum": 0}, "master": {"type": "integer", "minimum": 0}}},
        "professional_experience_years": {"type": "number", "minimum": 0},
        "vocational_training_years": {"type": "number", "minimum": 0},
        "programmes": {"type": "array", "items": {"type": "object", "properties": {
            "for": {"type": "string"}, "months": {"type": "integer"}, "sailing_days": {"type": "integer"}, "sailing_days_after": {"type": "integer"}}}},
        "exams": {"type": "array", "items": {"type": "string"}},
        "certificates": {"type": "array", "items": {"type": "string"}},
        "functions": {"type": "array", "items": {"type": "string"}},
    },
    "additionalProperties": False,
    "example": {"id": "anna", "birth_date": "2001-05-03", "medical_fitness": True, "radio_certificate": True,
                "sailing_days": {"Decksmann": 200, "Matrose": 180}, "exams": ["Anlage8"], "certificates": ["UBZ-Matrose"]},
}

_RECORD_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": RECORD_SCHEMA}}}}
_UPLOAD_BODY = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"], "properties": {"file": {"type": "string", "format": "binary",
                                                                     "description": "a record file: .yaml, .yml, .json or .ttl"}}}}}}}


# ------------------------------------------------------------------------------------------------------
# The application
# ------------------------------------------------------------------------------------------------------
def create_app(service: Service):
    """The FastAPI application for a service (tests and benchmarks build it directly; `crewkg serve` runs it)."""
    from crewkg.service.sparql import MalformedQuery, NotAcceptable, QueryTimeout, UpdateRefused, canned_queries

    law = service.law
    settings = service.settings
    evaluator = Evaluator(law, settings.max_batch)
    runner = QueryRunner(service.store, settings.query_timeout, settings.max_concurrent_queries)
    render_lock = threading.Lock()
    triples = len(service.store)  # read-only: counted once (pyoxigraph counts by scanning)
    # every capability ships with the package; /health still names them, as its answer always did
    optional = {"plan": True, "crew": True, "career_graph": True}

    app = FastAPI(
        title="crewkg",
        version=_version(),
        description="Austrian inland-navigation crew law (SchBV 2022) as a knowledge graph: eligibility for "
                    "Unionsbefähigungszeugnisse with the provisions, and a read-only SPARQL endpoint.",
        docs_url=None, redoc_url=None, openapi_url="/openapi.json",
    )
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(InputError)
    async def _input_error(_request: Request, exc: InputError):
        return JSONResponse(status_code=422, content={"error": exc.message(), "file": exc.file, "field": exc.field,
                                                      "expected": exc.expected, "got": None if exc.got is None else str(exc.got)})

    # -- helpers -----------------------------------------------------------------------------------------
    def day(value: str | None) -> date:
        if value is None or value == "":
            return date.today()
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise InputError("as_of", "as_of", "an ISO date YYYY-MM-DD", value) from None

    def language(value: str) -> str:
        if value not in ("de", "en"):
            raise InputError("lang", "lang", "de or en", value)
        return value

    def person_from_body(data: Any, as_of: date) -> Person:
        from crewkg.records.load import shacl_check_person
        from crewkg.records.persons import person_from_mapping

        person = person_from_mapping(data, law, as_of, "request body")
        if settings.shacl_json:
            shacl_check_person(person)
        return person

    async def person_from_upload(request: Request, as_of: date) -> Person:
        from crewkg.records.load import load_person_file
        from crewkg.records.persons import SUFFIXES

        form = await request.form()
        upload = form.get("file")
        if upload is None or not hasattr(upload, "read"):
            raise InputError("request body", "file", "a multipart form with a record file in the field 'file'")
        name = Path(upload.filename or "record").name
        suffix = Path(name).suffix.lower()
        if suffix not in SUFFIXES:
            raise InputError(name, "", f"a record file ending in one of {sorted(SUFFIXES)}", suffix or None)
        content = await upload.read()
        with tempfile.TemporaryDirectory(prefix="crewkg-upload-") as tmp:
            path = Path(tmp) / name
            path.write_bytes(content)
            try:
                return load_person_file(path, law, as_of)
            except InputError as exc:  # name the uploaded file, not the temporary path
                raise InputError(name, exc.field, exc.expected, exc.got) from None

    def report(person: Person, as_of: date, lang: str, target: str | None = None) -> dict[str, Any]:
        from crewkg.rules.kinds import missing_sentence

        if target is not None and target not in law.certificates:
            raise InputError("target", "target", f"a certificate id, one of {sorted(law.certificates)}", target)
        answer = evaluator.check(person, as_of, lang)
        view = copy.deepcopy(answer)
        for c in view.get("certificates", []):
            for w in c["pathways"]:
                for m in w["missing"]:
                    m["sentence"] = missing_sentence(law, m, lang)
        view["role_labels"] = {r: law.label(r, lang) for r in answer.get("roles", [])}
        out: dict[str, Any] = {"answer": answer, "view": view, "career": None,
                               "career_note": "the career graph needs crewkg.careers and crewkg.pictures"}
        try:
            out["career"] = career_picture(law, person, answer, as_of, lang, target)
            out["career_note"] = None
        except Exception as exc:  # the picture is an extra; the eligibility answer stands without it
            log.warning("career graph failed: %s", exc)
            out["career_note"] = f"career graph not available: {exc}"
        return out

    # -- pages -------------------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/queries", include_in_schema=False)
    def queries_page():
        return FileResponse(STATIC / "queries.html", media_type="text/html")

    @app.get("/docs", include_in_schema=False)
    def docs_page():
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    @app.get("/health", tags=["service"], summary="Service status: store, triples, persons loaded")
    def health():
        return {"status": "ok", "store": service.store.kind, "triples": triples,
                "persons": len(service.persons), "as_of": service.as_of.isoformat() if service.as_of else None,
                "kb_version": law.version, "optional": optional}

    # -- SPARQL ------------------------------------------------------------------------------------------
    def sparql_response(query: str | None, accept: str | None, method: str) -> Response:
        if query is None or not query.strip():
            return PlainTextResponse("missing the 'query' parameter (SPARQL 1.1 Protocol)", status_code=400)
        size = len(query.encode("utf-8"))
        if size > settings.max_query_bytes:
            code = 414 if method == "GET" else 413
            return PlainTextResponse(f"query too long: {size} bytes > limit of {settings.max_query_bytes} bytes", status_code=code)
        try:
            body, media = runner.run(query, accept)
        except UpdateRefused as exc:
            return PlainTextResponse(str(exc), status_code=403)
        except MalformedQuery as exc:
            return PlainTextResponse(f"Malformed query: {exc}", status_code=400)
        except NotAcceptable as exc:
            return PlainTextResponse(str(exc), status_code=406)
        except QueryTimeout as exc:
            return PlainTextResponse(f"Query timed out: {exc}", status_code=503)
        except Busy as exc:
            return PlainTextResponse(str(exc), status_code=503)
        return Response(content=body, media_type=media)

    def _refuse_update() -> Response:
        return PlainTextResponse("SPARQL Update is not allowed: this endpoint is read-only", status_code=403)

    def _dataset_params(params) -> Response | None:
        if any(k in params for k in ("default-graph-uri", "named-graph-uri", "using-graph-uri", "using-named-graph-uri")):
            return PlainTextResponse("dataset parameters are not supported: the endpoint has one default graph", status_code=400)
        return None

    @app.get("/sparql", tags=["sparql"], summary="SPARQL 1.1 query (GET, ?query=...)",
             description="Read-only. Results as SPARQL JSON (default), XML or CSV by Accept; graphs as Turtle or "
                         "N-Triples. 400 with the parser's message for a malformed query, 403 for an update, "
                         "413/414 for an over-long query, 503 after the query timeout.")
    def sparql_get(request: Request, query: str | None = Query(None, description="the SPARQL query")):
        params = request.query_params
        if "update" in params:
            return _refuse_update()
        return _dataset_params(params) or sparql_response(query, request.headers.get("accept"), "GET")

    @app.post("/sparql", tags=["sparql"], summary="SPARQL 1.1 query (POST: form-encoded or application/sparql-query)",
              openapi_extra={"requestBody": {"content": {
                  "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"query": {"type": "string"}}}},
                  "application/sparql-query": {"schema": {"type": "string"}}}}})
    async def sparql_post(request: Request):
        ctype = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
        if "update" in request.query_params or ctype == "application/sparql-update":
            return _refuse_update()
        bad = _dataset_params(request.query_params)
        if bad:
            return bad
        raw = await request.body()
        if ctype == "application/sparql-query":
            try:
                query = raw.decode("utf-8")
            except UnicodeDecodeError:
                return PlainTextResponse("the query must be UTF-8", status_code=400)
        elif ctype == "application/x-www-form-urlencoded":
            form = parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True)
            if "update" in form:
                return _refuse_update()
            bad = _dataset_params(form)
            if bad:
                return bad
            query = (form.get("query") or [None])[0]
        else:
            return PlainTextResponse("POST the query as application/x-www-form-urlencoded (query=...) or "
                                     "application/sparql-query", status_code=415)
        import anyio

        return await anyio.to_thread.run_sync(sparql_response, query, request.headers.get("accept"), "POST")

    # -- JSON API ----------------------------------------------------------------------------------------
    @app.get("/api/terms", tags=["law"], summary="Ids and labels a record may use (roles, exams, certificates, functions)")
    def terms(lang: str = "de"):
        lang = language(lang)

        def items(ids):
            return [{"id": i, "label": law.label(i, lang)} for i in ids]

        from crewkg.answers.eligibility import regulation_in_force

        reg = regulation_in_force(law, date.today())
        certs = [c.id for c in law.certificates_in_order() if c.regulation]
        exams = sorted(law.ids_of("Exam"), key=lambda e: (len(e), e))  # Anlage8 before Anlage10
        return {"deck_roles": items(law.ids_of("DeckCrewRole")), "exams": items(exams),
                "certificates": items(certs), "functions": items(law.ids_of("Function")),
                "sea_capacities": [{"id": "deck_crew", "label": law.label("AsDeckCrew", lang)},
                                   {"id": "master", "label": law.label("AsMaster", lang)}],
                "targets": items([c.id for c in law.certificates_in_order() if c.pathways]),
                "default_target": default_target(law),
                "regulation": reg.name if reg else None,
                "kb_version": law.version, "career_graph": optional["career_graph"]}

    @app.post("/api/eligibility", tags=["eligibility"], openapi_extra=_RECORD_BODY,
              summary="Which certificates can be issued to the person in the body, and what is missing",
              description="The body is a person record (the YAML keys, as JSON). The answer is the one of "
                          "`crewkg check --format json`. 422 names the field and what was expected.")
    async def eligibility(request: Request, as_of: str | None = None, lang: str = "de"):
        import anyio

        data = await _json(request)
        day_, lang_ = day(as_of), language(lang)
        # a JSONResponse skips FastAPI's jsonable_encoder walk over the (large, plain) answer
        return JSONResponse(await anyio.to_thread.run_sync(lambda: evaluator.check(person_from_body(data, day_), day_, lang_)))

    @app.post("/api/eligibility/upload", tags=["eligibility"], openapi_extra=_UPLOAD_BODY,
              summary="Eligibility for an uploaded record file (YAML, JSON or Turtle)")
    async def eligibility_upload(request: Request, as_of: str | None = None, lang: str = "de"):
        import anyio

        day_, lang_ = day(as_of), language(lang)
        person = await person_from_upload(request, day_)
        return JSONResponse(await anyio.to_thread.run_sync(evaluator.check, person, day_, lang_))

    @app.post("/api/explain", tags=["eligibility"], openapi_extra=_RECORD_BODY,
              summary="The derivation for one certificate: requirements, provisions with their wording, facts",
              description="The certificate entry of the eligibility answer, each requirement with the quoted "
                          "German wording of its provision, and the text of `crewkg explain`.")
    async def explain(request: Request, certificate: str, as_of: str | None = None, lang: str = "de"):
        import anyio

        data = await _json(request)
        day_, lang_ = day(as_of), language(lang)
        if certificate not in law.certificates:
            raise InputError("certificate", "certificate", f"a certificate id, one of {sorted(law.certificates)}", certificate)

        def run() -> dict[str, Any]:
            from crewkg.answers.render import console, print_explanation

            person = person_from_body(data, day_)
            answer = evaluator.check(person, day_, lang_)
            entry = next((c for c in answer["certificates"] if c["id"] == certificate), None)
            if entry is not None:
                entry = copy.deepcopy(entry)
                for w in entry["pathways"]:
                    w["wording"] = law.provisions[law.pathways[w["id"]].provision].wording
                    _add_wording(law, w["requirements"])
            with render_lock, console.capture() as cap:
                print_explanation(law, person, answer, certificate, lang_)
            return {"person": person.id, "as_of": answer["as_of"], "regulation": answer.get("regulation"),
                    "certificate": entry, "text": cap.get()}

        return await anyio.to_thread.run_sync(run)

    @app.post("/api/report", tags=["web"], openapi_extra=_RECORD_BODY,
              summary="What the web page shows: the answer, a sentence per missing requirement, the career graph")
    async def report_json(request: Request, as_of: str | None = None, lang: str = "de", target: str | None = None):
        import anyio

        data = await _json(request)
        day_, lang_ = day(as_of), language(lang)
        return JSONResponse(await anyio.to_thread.run_sync(lambda: report(person_from_body(data, day_), day_, lang_, target)))

    @app.post("/api/report/upload", tags=["web"], openapi_extra=_UPLOAD_BODY,
              summary="The web page's report for an uploaded record file")
    async def report_upload(request: Request, as_of: str | None = None, lang: str = "de", target: str | None = None):
        import anyio

        day_, lang_ = day(as_of), language(lang)
        person = await person_from_upload(request, day_)
        return JSONResponse(await anyio.to_thread.run_sync(report, person, day_, lang_, target))

    @app.get("/api/persons", tags=["register"], summary="The persons loaded with --data")
    def persons_list():
        return [{"id": p.id, "source": Path(p.source).name} for p in service.persons.values()]

    @app.get("/api/persons/{pid}", tags=["register"], summary="The eligibility answer of a loaded person")
    def person_answer(pid: str, as_of: str | None = None, lang: str = "de"):
        if pid not in service.persons:
            return JSONResponse(status_code=404, content={"error": f"no loaded person with id {pid!r}"})
        day_ = day(as_of) if as_of else (service.as_of or date.today())
        return evaluator.check(service.persons[pid], day_, language(lang))

    @app.get("/api/queries", tags=["sparql"], summary="The canned queries of kb/queries with title and description")
    def queries_list():
        return [{"name": q.name, "title": q.title, "description": q.description, "query": q.text} for q in canned_queries()]

    _add_plan_endpoint(app, law, evaluator, person_from_body, day, language, _json)
    _add_crew_endpoint(app, law, day, language, _json)

    return _wrap(app, settings)


def _wrap(app, settings: Settings):
    """The FastAPI app behind the request guard; the guard keeps a reference to the app for tests."""
    guard = RequestGuard(app, settings.max_body_bytes)
    guard.fastapi = app  # type: ignore[attr-defined]
    return guard


async def _json(request) -> Any:
    import json

    raw = await request.body()
    if not raw.strip():
        raise InputError("request body", "", "a person record as JSON")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("request body", "", f"valid JSON ({exc})") from None


def _add_wording(law: Law, reqs: list[dict[str, Any]]) -> None:
    for r in reqs:
        r["wording"] = law.provisions[law.requirements[r["id"]].provision].wording
        _add_wording(law, r.get("alternatives") or r.get("parts") or [])


def _version() -> str:
    from crewkg import __version__

    return __version__


# ------------------------------------------------------------------------------------------------------
# Career graph, plan and crew: only where those modules exist
# ------------------------------------------------------------------------------------------------------
_DRAW_LOCK = threading.Lock()


def default_target(law: Law) -> str | None:
    """The certificate a route is drawn to when the page names none: the last in statute order with pathways."""
    with_paths = [c.id for c in law.certificates_in_order() if c.pathways]
    return with_paths[-1] if with_paths else None


def career_picture(law: Law, person: Person, answer: dict[str, Any], as_of: date, lang: str,
                   target: str | None = None) -> dict[str, Any]:
    """The career graph (crewkg.careers) drawn as SVG (crewkg.pictures) with the certificates the person holds
    and the fastest planned route (crewkg.planning) to the target marked — what `crewkg plan --out x.svg` draws."""
    import base64

    from crewkg.careers.graph import career_graph, certificate_short
    from crewkg.careers.pictures import TEXT, draw, route_edges
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan

    target = target or default_target(law)
    pace = Pace.from_kb()
    g = career_graph(law, lang, days_per_period=pace.days)
    result = plan(law, person, answer, target, as_of, pace, graph=g) if target in g else {"routes": []}
    best = result["routes"][0] if result["routes"] else {"steps": [], "earliest": None}
    steps = " → ".join(f"{certificate_short(law, st['certificate'], lang)} ({st['provision']})" for st in best["steps"])
    title = TEXT[lang]["route"].format(person=person.id, steps=steps or "—", date=best.get("earliest") or "—")
    with _DRAW_LOCK:  # matplotlib's text layout is not thread-safe
        svg = draw(g, "svg", route_edges(best, g), set(person.certificates), title)
    return {"svg": base64.b64encode(svg).decode("ascii"), "target": target, "route_text": title,
            "earliest": best.get("earliest"), "steps": best["steps"]}


def _add_plan_endpoint(app, law: Law, evaluator: Evaluator, person_from_body, day, language, json_body) -> None:
    """POST /api/plan: the answer of `crewkg plan --format json` (registered only where crewkg.planning exists)."""

    @app.post("/api/plan", tags=["careers"], openapi_extra=_RECORD_BODY,
              summary="Every route from the person in the body to a target certificate, fastest first",
              description="The answer of `crewkg plan --format json`: routes with the earliest date of each step at "
                          "the crediting pace of the kb (§ 6 Abs. 4 SchBV), or lower with days_per_year.")
    async def plan_endpoint(request: Request, target: str, as_of: str | None = None, lang: str = "de",
                            days_per_year: int | None = None):
        import anyio

        data = await json_body(request)
        day_, lang_ = day(as_of), language(lang)

        def run() -> dict[str, Any]:
            from crewkg.api import plan

            return plan(lambda: person_from_body(data, day_), target, day_, lang_, days_per_year,
                        evaluate=lambda p: evaluator.check(p, day_, lang_))

        return await anyio.to_thread.run_sync(run)


def _add_crew_endpoint(app, law: Law, day, language, json_body) -> None:
    """POST /api/crew: the answer of `crewkg crew --format json` (registered only where crewkg.manning exists)."""
    body = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["vessel"], "properties": {
            "vessel": {"type": "object", "description": "a vessel record (README, 'Minimum crew')"},
            "roster": {"type": "object", "description": "a roster record: {crew: [person records]}"}},
        "example": {"vessel": {"id": "ms-wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5,
                               "breadth_m": 11.4, "passengers": 300, "passengers_on_board": 250, "standard": "S1",
                               "engine_kw": 800}}}}}}}

    @app.post("/api/crew", tags=["crew"], openapi_extra=body,
              summary="The minimum crew of a vessel on a date and, with a roster, whether the roster fills it",
              description="The answer of `crewkg crew --format json` (crewkg.manning): the table provision and "
                          "Stufe that apply, the alternatives, the safety functions, and the roster verdict with "
                          "every gap and its provision; `covered: false` with the reason where no table row applies.")
    async def crew_endpoint(request: Request, as_of: str | None = None, lang: str = "de", school_attendance: bool = False):
        import anyio

        data = await json_body(request)
        day_, lang_ = day(as_of), language(lang)
        if not isinstance(data, dict) or "vessel" not in data or set(data) - {"vessel", "roster"}:
            raise InputError("request body", "", "an object with 'vessel' (a vessel record) and optionally 'roster'")

        def run() -> dict[str, Any]:
            from crewkg.api import crew

            return crew(data["vessel"], data.get("roster"), day_, lang_, school_attendance)

        return JSONResponse(await anyio.to_thread.run_sync(run))


# ------------------------------------------------------------------------------------------------------
# Running it
# ------------------------------------------------------------------------------------------------------
def configure_logging() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(logging.INFO)
    log.propagate = False


def run(service: Service, host: str = "127.0.0.1", port: int = 8080) -> None:
    import uvicorn

    configure_logging()
    app = create_app(service)
    log.info("crewkg %s serving http://%s:%d/ (store %s, %d triples, %d persons, kb %s)", _version(), host, port,
             service.store.kind, len(service.store), len(service.persons), service.law.version)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning",
                h11_max_incomplete_event_size=max(65_536, service.settings.max_query_bytes * 4))
