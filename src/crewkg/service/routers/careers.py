"""Career plans: every route from the person in the body to a target certificate (`crewkg plan`)."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request

from crewkg.service.docs import doc
from crewkg.service.inputs import day, json_body, language, person_from_body
from crewkg.service.state import SHARED, State

router = APIRouter()


@router.post("/api/plan", tags=["careers"], **doc("plan_endpoint"))
async def plan_endpoint(request: Request, target: str, as_of: str | None = None, lang: str = "de",
                        days_per_year: int | None = None, st: State = SHARED):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)

    def run() -> dict[str, Any]:
        from crewkg.api import plan

        return plan(lambda: person_from_body(st, data, day_), target, day_, lang_, days_per_year,
                    evaluate=lambda p: st.evaluator.check(p, day_, lang_))

    return await anyio.to_thread.run_sync(run)
