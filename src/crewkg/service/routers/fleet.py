"""The fleet forecast (`crewkg fleet`) over HTTP: a fleet with its vessel and roster records inline, in a JSON body
or an uploaded file, answered as JSON, as a calendar file or as the picture's page; and the page `/fleet`, whose
form uploads such a file. What a request may bring and the forecast itself are `service/fleets.py`'s, the page
`service/fleet_page.py`'s."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from crewkg.service import fleet_page, fleets
from crewkg.service.docs import doc
from crewkg.service.inputs import language
from crewkg.service.state import SHARED, State

router = APIRouter()
#: the query parameter `from` (a Python keyword)
FROM = Query(None, alias="from")


@router.post("/api/fleet", tags=["fleet"], **doc("fleet_endpoint"))
async def fleet_endpoint(request: Request, until: str, from_: str | None = FROM, lang: str = "de",
                         format: str = "json", st: State = SHARED):
    lang_, fmt = language(lang), fleets.format_of(format)
    start, end = fleets.request_span(st.settings, from_, until)
    data = await fleets.body(request)
    result = await fleets.forecast(st, data, start, end, lang_)
    return await anyio.to_thread.run_sync(fleets.answer, st, result, fmt, lang_)


@router.post("/api/fleet/upload", tags=["fleet"], **doc("fleet_upload"))
async def fleet_upload(request: Request, until: str, from_: str | None = FROM, lang: str = "de",
                       format: str = "json", st: State = SHARED):
    lang_, fmt = language(lang), fleets.format_of(format)
    start, end = fleets.request_span(st.settings, from_, until)
    name, content = await fleets.upload(request)
    data = await anyio.to_thread.run_sync(fleets.parse_upload, name, content)
    result = await fleets.forecast(st, data, start, end, lang_, name)
    return await anyio.to_thread.run_sync(fleets.answer, st, result, fmt, lang_)


@router.get("/fleet", include_in_schema=False)
def fleet_form(lang: str | None = None, st: State = SHARED):
    return HTMLResponse(fleet_page.render(st, fleet_page.page_language(lang)))


@router.post("/fleet", include_in_schema=False)
async def fleet_form_post(request: Request, lang: str | None = None, st: State = SHARED):
    return await fleet_page.answer(st, request, lang)
