"""Eligibility: the check of a record in the body or an uploaded file, the explanation for one certificate, the
loaded persons' answers, and the terms a record may use. The same library calls as `crewkg check` and `explain`."""

from __future__ import annotations

import bisect
import copy
from datetime import date
from pathlib import Path
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response

from crewkg.api import Law
from crewkg.api.careers import default_target
from crewkg.service.docs import doc
from crewkg.service.inputs import certificate_id, day, json_body, language, person_from_body, person_from_upload, person_of_body
from crewkg.service.records_rdf import stored_person
from crewkg.service.refusals import no_person
from crewkg.service.state import SHARED, State

router = APIRouter()


@router.get("/api/terms", tags=["law"], **doc("terms"))
def terms(lang: str = "de", st: State = SHARED):
    law, lang = st.law, language(lang)

    def items(ids):
        return [{"id": i, "label": law.label(i, lang)} for i in ids]

    reg = law.regulation_on(date.today())
    certs = [c.id for c in law.certificates_in_order() if c.regulation]
    exams = sorted(law.ids_of("Exam"), key=lambda e: (len(e), e))  # Anlage8 before Anlage10
    return {"deck_roles": items(law.ids_of("DeckCrewRole")), "exams": items(exams),
            "certificates": items(certs), "functions": items(law.ids_of("Function")),
            "sea_capacities": [{"id": "deck_crew", "label": law.label("AsDeckCrew", lang)},
                               {"id": "master", "label": law.label("AsMaster", lang)}],
            "targets": items([c.id for c in law.certificates_in_order() if c.pathways]),
            "default_target": default_target(law, [], lang),
            "regulation": reg.name if reg else None,
            "kb_version": law.version, "career_graph": True}


@router.post("/api/eligibility", tags=["eligibility"], **doc("eligibility"))
async def eligibility(request: Request, as_of: str | None = None, lang: str = "de", st: State = SHARED):
    person, day_ = await person_of_body(st, request, as_of)
    lang_ = language(lang)
    # the answer's JSON text as the evaluator keeps it (no encoder walk over the large, plain answer), awaited
    # without holding a thread: the evaluation runs in the evaluator's worker processes
    return Response(await st.evaluator.answer_json(person, day_, lang_), media_type="application/json")


@router.post("/api/eligibility/upload", tags=["eligibility"], **doc("eligibility_upload"))
async def eligibility_upload(request: Request, as_of: str | None = None, lang: str = "de", st: State = SHARED):
    day_, lang_ = day(as_of), language(lang)
    person = await person_from_upload(st, request, day_)
    return Response(await st.evaluator.answer_json(person, day_, lang_), media_type="application/json")


@router.post("/api/explain", tags=["eligibility"], **doc("explain"))
async def explain(request: Request, certificate: str, as_of: str | None = None, lang: str = "de",
                  st: State = SHARED):
    data = await json_body(request)
    day_, lang_ = day(as_of), language(lang)
    certificate_id(st.law, certificate, "certificate")
    return await anyio.to_thread.run_sync(_explanation, st, data, certificate, day_, lang_)


def _explanation(st: State, data: Any, certificate: str, as_of: date, lang: str) -> dict[str, Any]:
    """The certificate's entry with the wording of every provision, the text of `crewkg explain` and its derivation
    as a tree (`crewkg explain --format json`)."""
    from crewkg.api.texts import explained

    person = person_from_body(st, data, as_of)
    answer = st.evaluator.check(person, as_of, lang)
    entry = next((c for c in answer["certificates"] if c["id"] == certificate), None)
    if entry is not None:
        entry = copy.deepcopy(entry)
        for w in entry["pathways"]:
            w["wording"] = st.law.provisions[st.law.pathways[w["id"]].provision].wording
            w["wording_lang"] = st.law.provisions[st.law.pathways[w["id"]].provision].wording_lang
            _add_wording(st.law, w["requirements"])
    out = explained(st.law, person, answer, certificate, lang)
    return {"person": person.id, "as_of": answer["as_of"], "regulation": answer.get("regulation"),
            "certificate": entry, "text": out["text"], "tree": out["tree"]}


def _add_wording(law: Law, reqs: list[dict[str, Any]]) -> None:
    for r in reqs:
        r["wording"] = law.provisions[law.requirements[r["id"]].provision].wording
        r["wording_lang"] = law.provisions[law.requirements[r["id"]].provision].wording_lang
        _add_wording(law, r.get("alternatives") or r.get("parts") or [])


@router.get("/api/persons", tags=["register"], **doc("persons_list"))
def persons_list(st: State = SHARED):
    # the persons loaded with --data, then those whose records the store folder holds (named by the folder)
    loaded = st.service.persons
    folder = getattr(st.service.store, "path", None)
    return [{"id": p.id, "source": Path(p.source).name} for p in loaded.values()] + [
        {"id": pid, "source": folder.name if folder else None} for pid in st.stored_persons if pid not in loaded]


@router.get("/api/persons/{pid}", tags=["register"], **doc("person_answer"))
async def person_answer(pid: str, as_of: str | None = None, lang: str = "de", st: State = SHARED):
    # a person loaded with --data, or one whose record the store folder holds (read back from the store)
    day_ = day(as_of) if as_of else (st.service.as_of or date.today())
    person = st.service.persons.get(pid)
    if person is None and _stored(st, pid):
        person = await anyio.to_thread.run_sync(stored_person, st.service.store, st.law, pid, day_)
    if person is None:
        return no_person(pid, lang if lang in ("de", "en") else "de")
    return Response(await st.evaluator.answer_json(person, day_, language(lang)), media_type="application/json")


def _stored(st: State, pid: str) -> bool:
    """Whether the store holds the record of a person of this id (the sorted ids, read once)."""
    i = bisect.bisect_left(st.stored_persons, pid)
    return i < len(st.stored_persons) and st.stored_persons[i] == pid
