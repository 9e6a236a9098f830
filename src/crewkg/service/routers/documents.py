"""The clerk's file over HTTP (docs/clerk.md): a draft of a decision, of a request to complete the application or of a
letter on the evidence (JSON, HTML or PDF), and a held certificate as an unsigned European Digital Credential, for a
record in the body or an uploaded file. The same library calls as `crewkg draft` and `crewkg credential`; the
authority's own texts come from the file the environment variable CREWKG_AUTHORITY names where the service runs."""

from __future__ import annotations

from datetime import date
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from crewkg.api import credential as make_credential
from crewkg.api import draft as make_draft
from crewkg.service.docs import doc
from crewkg.service.inputs import day, json_body, language, person_from_body, person_from_upload
from crewkg.service.state import SHARED, State

router = APIRouter()
#: the media type of each format of a draft
MEDIA = {"json": "application/json", "html": "text/html; charset=utf-8", "pdf": "application/pdf"}


def _draft(person: Any, certificate: str, as_of: date, kind: str, lang: str, fmt: str) -> Response:
    out = make_draft(person, certificate, as_of, kind, lang, fmt)
    if isinstance(out, dict):
        return JSONResponse(out)
    return Response(out, media_type=MEDIA[fmt],
                    headers={"Content-Disposition": f'inline; filename="draft-{certificate}.{fmt}"'} if fmt == "pdf" else None)


def _credential(person: Any, certificate: str, as_of: date, lang: str) -> Response:
    return JSONResponse(make_credential(person, certificate, as_of, lang), media_type="application/ld+json")


@router.post("/api/draft", tags=["documents"], **doc("draft"))
async def draft(request: Request, certificate: str, kind: str = "decision", format: str = "json",
                as_of: str | None = None, lang: str = "de", st: State = SHARED):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)
    return await anyio.to_thread.run_sync(
        lambda: _draft(person_from_body(st, data, day_), certificate, day_, kind, lang_, format))


@router.post("/api/draft/upload", tags=["documents"], **doc("draft_upload"))
async def draft_upload(request: Request, certificate: str, kind: str = "decision", format: str = "json",
                       as_of: str | None = None, lang: str = "de", st: State = SHARED):
    day_, lang_ = day(as_of), language(lang)
    person = await person_from_upload(st, request, day_)
    return await anyio.to_thread.run_sync(_draft, person, certificate, day_, kind, lang_, format)


@router.post("/api/credential", tags=["documents"], **doc("credential"))
async def credential(request: Request, certificate: str, as_of: str | None = None, lang: str = "de",
                     st: State = SHARED):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)
    return await anyio.to_thread.run_sync(
        lambda: _credential(person_from_body(st, data, day_), certificate, day_, lang_))


@router.post("/api/credential/upload", tags=["documents"], **doc("credential_upload"))
async def credential_upload(request: Request, certificate: str, as_of: str | None = None, lang: str = "de",
                            st: State = SHARED):
    day_, lang_ = day(as_of), language(lang)
    person = await person_from_upload(st, request, day_)
    return await anyio.to_thread.run_sync(_credential, person, certificate, day_, lang_)
