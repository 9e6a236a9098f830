"""The web pages (the eligibility form, the canned queries, the API documentation), their assets, the page's report
endpoints, /health and the OpenAPI document in the page's language. Every asset is served from the package."""

from __future__ import annotations

from pathlib import Path

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from crewkg.service.docs import doc, openapi
from crewkg.service.inputs import day, json_body, language, person_from_body, person_from_upload
from crewkg.service.report import report
from crewkg.service.state import SHARED, State

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
#: every capability ships with the package; /health still names them, as its answer always did
OPTIONAL = {"plan": True, "crew": True, "career_graph": True}

pages = APIRouter()
reports = APIRouter()


@pages.get("/", include_in_schema=False)
def index():
    return FileResponse(STATIC / "index.html", media_type="text/html")


@pages.get("/queries", include_in_schema=False)
def queries_page():
    return FileResponse(STATIC / "queries.html", media_type="text/html")


@pages.get("/docs", include_in_schema=False)
def docs_page():
    return FileResponse(STATIC / "docs.html", media_type="text/html")


@pages.get("/openapi.json", include_in_schema=False)
def openapi_json(request: Request, lang: str = "en", st: State = SHARED):
    return JSONResponse(openapi(request.app, st.law, language(lang)))


@pages.get("/health", tags=["service"], **doc("health"))
async def health(st: State = SHARED):
    # on the event loop: it reads what was counted once, and never waits for a thread the other requests hold
    service = st.service
    return {"status": "ok", "store": service.store.kind, "triples": st.triples,
            "persons": st.persons, "as_of": service.as_of.isoformat() if service.as_of else None,
            "kb_version": st.law.version, "optional": OPTIONAL}


@reports.post("/api/report", tags=["web"], **doc("report_json"))
async def report_json(request: Request, as_of: str | None = None, lang: str = "de", target: str | None = None,
                      st: State = SHARED):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)
    return JSONResponse(await anyio.to_thread.run_sync(
        lambda: report(st, person_from_body(st, data, day_), day_, lang_, target)))


@reports.post("/api/report/upload", tags=["web"], **doc("report_upload"))
async def report_upload(request: Request, as_of: str | None = None, lang: str = "de", target: str | None = None,
                        st: State = SHARED):
    day_, lang_ = day(as_of), language(lang)
    person = await person_from_upload(st, request, day_)
    return JSONResponse(await anyio.to_thread.run_sync(report, st, person, day_, lang_, target))
