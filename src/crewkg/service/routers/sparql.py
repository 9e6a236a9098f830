"""The read-only SPARQL 1.1 Protocol endpoint (GET and POST) and the list of canned queries. Errors are plain text,
as the protocol's clients expect: 400 for a malformed query, a second `query` or an update's dataset parameter, 403
for an update, 406 for no acceptable result format, 413/414 for an over-long query, 415 for a body of another type,
503 after the timeout, in English, or in German with `?lang=de` (the catalogue's `service.sparql.*`); a canned query's
name given as the query is named as such. `default-graph-uri` and `named-graph-uri` choose the query's RDF dataset among the store's
named graphs (SPARQL 1.1 Protocol § 2.1.4); they win over the query's FROM / FROM NAMED. Every answer varies with
the Accept header, and says so (`Vary: Accept`), so caches keep one answer per format."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from crewkg.messages.catalogue import catalogue, say
from crewkg.service.docs import doc
from crewkg.service.inputs import language
from crewkg.service.paging import PAGE_PERSONS
from crewkg.service.querying import Busy, WorkerLost
from crewkg.service.state import SHARED, State

router = APIRouter()
UPDATE_DATASET_PARAMS = ("using-graph-uri", "using-named-graph-uri")


def sparql_response(st: State, query: str | None, accept: str | None, method: str, dataset=None,
                    lang: str = "en") -> Response:
    answer = _answer(st, query, accept, method, dataset, lang)
    answer.headers["Vary"] = "Accept"
    return answer


def _lang(params) -> str:
    """English, as the protocol's clients have always read it, unless `lang=de` is asked."""
    return "de" if params.get("lang") == "de" else "en"


def _said(lang: str, key: str, status: int, **fields: object) -> Response:
    return PlainTextResponse(say(lang, f"service.sparql.{key}", **fields), status_code=status)


def _answer(st: State, query: str | None, accept: str | None, method: str, dataset, lang: str) -> Response:
    if query is None or not query.strip():
        return _said(lang, "missing_query", 400)
    size, limit = len(query.encode("utf-8")), st.settings.max_query_bytes
    if size > limit:
        return _said(lang, "too_long", 414 if method == "GET" else 413, size=size, limit=limit)
    return _run(st, query, accept, dataset, lang)


def _run(st: State, query: str, accept: str | None, dataset, lang: str) -> Response:
    """The runner's answer, or the protocol's refusal for what stopped it."""
    from crewkg.service.canned import canned_queries
    from crewkg.service.deadline import QueryTimeout
    from crewkg.service.query_refusals import MalformedQuery, ServiceRefused, UpdateRefused
    from crewkg.service.results import NotAcceptable

    try:
        body, media = st.runner.run(query, accept, dataset)
    except UpdateRefused as exc:
        return PlainTextResponse(str(exc), status_code=403)
    except ServiceRefused:
        return _said(lang, "service", 400)
    except MalformedQuery as exc:
        if query.strip() in {q.name for q in canned_queries()}:
            return _said(lang, "canned_name", 400, name=query.strip())
        return _said(lang, "malformed", 400, reason=exc)
    except NotAcceptable as exc:
        return PlainTextResponse(str(exc), status_code=406)
    except QueryTimeout as exc:
        return _said(lang, "timed_out", 503, reason=exc)
    except (Busy, WorkerLost) as exc:
        return PlainTextResponse(str(exc), status_code=503)
    return Response(content=body, media_type=media)


def _refuse_update(lang: str) -> Response:
    return _said(lang, "update", 403)


def _refuse(params, lang: str) -> Response | None:
    """A request the protocol does not allow for a query: an update's dataset parameters, or more than one query."""
    if any(k in params for k in UPDATE_DATASET_PARAMS):
        return _said(lang, "update_dataset", 400)
    if len(_all(params, "query")) > 1:
        return _said(lang, "one_query", 400)
    return None


def _all(params, name: str) -> list[str]:
    return list(params.getlist(name)) if hasattr(params, "getlist") else list(params.get(name) or [])


def _dataset(params):
    """The RDF dataset the protocol's parameters choose (empty: the store's union of graphs)."""
    from crewkg.service.dataset import DatasetSpec

    return DatasetSpec(tuple(_all(params, "default-graph-uri")), tuple(_all(params, "named-graph-uri")))


async def _answered(st: State, query: str | None, accept: str | None, method: str, dataset, lang: str) -> Response:
    """A query answered before comes from the runner's cache on the event loop; any other is read, refused or run in
    a thread (reading a text for SERVICE may parse it, and running it waits for a slot and a worker). Canned queries
    asked again (half the requests of benchmarks/service_load.py) each cost a thread's round trip for a lookup."""
    fits = query is not None and len(query.encode("utf-8", "surrogatepass")) <= st.settings.max_query_bytes
    hit = st.runner.cached(query, accept, dataset) if fits else None  # a query refused or never run is no hit
    if hit is None:
        return await anyio.to_thread.run_sync(sparql_response, st, query, accept, method, dataset, lang)
    answer = Response(content=hit[0], media_type=hit[1])
    answer.headers["Vary"] = "Accept"
    return answer


@router.get("/sparql", tags=["sparql"], **doc("sparql_get"))
async def sparql_get(request: Request,
                     query: str | None = Query(None, description=catalogue("en")["service.doc.param.query"]),
                     st: State = SHARED):
    params = request.query_params
    lang = _lang(params)
    if "update" in params:
        return _refuse_update(lang)
    return _refuse(params, lang) or await _answered(st, query, request.headers.get("accept"), "GET", _dataset(params),
                                                    lang)


@router.post("/sparql", tags=["sparql"], **doc("sparql_post"))
async def sparql_post(request: Request, st: State = SHARED):
    ctype = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    lang = _lang(request.query_params)
    if "update" in request.query_params or ctype == "application/sparql-update":
        return _refuse_update(lang)
    refused = _refuse(request.query_params, lang)
    if refused:
        return refused
    posted = _posted_query(ctype, await request.body(), lang)
    if isinstance(posted, Response):
        return posted
    query, form = posted
    params = form if form is not None else request.query_params
    return await _answered(st, query, request.headers.get("accept"), "POST", _dataset(params), lang)


def _posted_query(ctype: str, raw: bytes, lang: str) -> tuple[str | None, dict | None] | Response:
    """The query of a POST body with the form's parameters (None for a direct POST, whose dataset parameters are
    in the URL), or the response that refuses the body."""
    if ctype == "application/sparql-query":
        try:
            return raw.decode("utf-8"), None
        except UnicodeDecodeError:
            return _said(lang, "utf8", 400)
    if ctype == "application/x-www-form-urlencoded":
        form = parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True)
        if "update" in form:
            return _refuse_update(lang)
        return _refuse(form, lang) or ((form.get("query") or [None])[0], form)
    return _said(lang, "post_type", 415)


@router.get("/api/queries", tags=["sparql"], **doc("queries_list"))
async def queries_list(lang: str | None = None, st: State = SHARED):
    # the list of each language made once (the .rq files are the service's for its life, as the answers computed
    # whole from them at its start are), then its bytes answered on the event loop: a sixth of the requests of
    # benchmarks/service_load.py each took a thread's round trip and read every .rq file again
    chosen = language(lang) if lang is not None else None
    body = st.query_lists.get(chosen)
    if body is None:
        body = st.query_lists[chosen] = await anyio.to_thread.run_sync(_query_list, chosen)
    return Response(content=body, media_type="application/json")


def _query_list(lang: str | None) -> bytes:
    """The JSON text of the canned queries: without a language the titles and descriptions of the .rq files (as
    always), with one the catalogue's; plain strings, written as they are (no FastAPI encoder walking every one)."""
    from crewkg.service.canned import canned_queries, canned_words

    return JSONResponse([{"name": q.name, "title": title, "description": description, "query": q.text}
                         for q in canned_queries() for title, description in [canned_words(q, lang)]]).body


@router.get("/api/queries/{name}", tags=["sparql"], **doc("query_answer"))
def query_answer(request: Request, name: str, after: str | None = None, persons: int = PAGE_PERSONS,
                 st: State = SHARED):
    # a query with a page variable: the rows of the `persons` persons after `after`, and a Link to the next page;
    # any other: its whole answer (paging.py)
    from crewkg.service.canned import canned_queries
    from crewkg.service.paging import MAX_PAGE_PERSONS, page
    from crewkg.service.results import NotAcceptable, serialize_table

    lang = _lang(request.query_params)
    canned = {q.name: q for q in canned_queries()}
    if name not in canned:
        return _said(lang, "unknown_canned", 404, name=name, names=", ".join(sorted(canned)))
    q, accept = canned[name], request.headers.get("accept")
    if q.page is None:
        table = st.answers.kept_table(name)  # as the store's export computed it (service/kept.py), else asked now
        if table is None:
            answer = _run(st, q.text, accept, None, lang)
        else:
            try:
                body, media = serialize_table(table, accept)
            except NotAcceptable as exc:
                return PlainTextResponse(str(exc), status_code=406)
            answer = Response(content=body, media_type=media)
        answer.headers["Vary"] = "Accept"
        return answer
    if not 1 <= persons <= MAX_PAGE_PERSONS:
        return _said(lang, "page_persons", 400, persons=persons, limit=MAX_PAGE_PERSONS)
    if q.whole:  # the whole answer, computed once, a page of the persons it names at a time
        rows = st.answers.page(q, after, persons, st.settings.query_timeout)
        if rows is None:
            answer = _said(lang, "computing", 503, name=name)
            answer.headers["Retry-After"] = "5"
            return answer
        try:
            body, media = serialize_table(rows.table, accept)
        except NotAcceptable as exc:
            return PlainTextResponse(str(exc), status_code=406)
        answer, count, following = Response(content=body, media_type=media), rows.persons, rows.after
    else:  # the store looks up the next persons of the register
        chosen = page(q, st.person_ids, after, persons)
        answer, count, following = _run(st, chosen.text, accept, None, lang), chosen.persons, chosen.after
    answer.headers["Vary"] = "Accept"
    if answer.status_code == 200:
        answer.headers["X-Crewkg-Page-Persons"] = str(count)
        if following is not None:
            params = {"after": following, "persons": persons, **({"lang": lang} if lang != "en" else {})}
            answer.headers["Link"] = f'<{request.url.path}?{urlencode(params)}>; rel="next"'
    return answer
