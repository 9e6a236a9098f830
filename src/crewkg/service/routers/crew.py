"""Minimum crew: the crew a vessel needs on a date and, with a roster, whether the roster fills it (`crewkg crew`)."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from crewkg.service.docs import doc
from crewkg.service.inputs import RequestError, day, json_body, language

router = APIRouter()


@router.post("/api/crew", tags=["crew"], **doc("crew_endpoint"))
async def crew_endpoint(request: Request, as_of: str | None = None, lang: str = "de", school_attendance: bool = False):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)
    if not isinstance(data, dict) or "vessel" not in data or set(data) - {"vessel", "roster"}:
        raise RequestError("request body", "", "crew_body")
    # each a record in the body: never a text (the Python API reads a text as a path, here a file of the server's),
    # and a roster is left out, not null (the schema says so, issue 44)
    if not isinstance(data["vessel"], dict):
        raise RequestError("request body", "vessel", "record_mapping", data["vessel"])
    if "roster" in data and not isinstance(data["roster"], dict):
        raise RequestError("request body", "roster", "roster_mapping", data["roster"])

    def run() -> dict[str, Any]:
        from crewkg.api import crew

        return crew(data["vessel"], data.get("roster"), day_, lang_, school_attendance)

    return JSONResponse(await anyio.to_thread.run_sync(run))

