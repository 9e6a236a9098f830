"""How the service refuses a request, in the request's language. A 422 for bad input keeps the fields it always had
(`error`, `file`, `field`, `expected`, `got`: the English message of the CLI, which clients match on) and adds
`detail`, the same refusal as a sentence in the language of the request (`lang`, German by default). FastAPI's own
validation errors keep their shape; their `msg` is said in the request's language."""

from __future__ import annotations

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from crewkg.errors import InputError
from crewkg.messages.catalogue import say

#: pydantic's error types -> the catalogue's sentence (`service.error.validation.<kind>`)
VALIDATION = {"missing": "missing", "int_parsing": "int", "int_type": "int", "float_parsing": "float",
              "float_type": "float", "bool_parsing": "bool", "bool_type": "bool"}


def request_language(request: Request) -> str:
    lang = request.query_params.get("lang", "de")
    return lang if lang in ("de", "en") else "de"


def detail(exc: InputError, lang: str) -> str:
    """The refusal as one sentence in `lang` (the CLI's message: crewkg.errors)."""
    return exc.message(lang)


async def input_error(request: Request, exc: InputError) -> JSONResponse:
    return JSONResponse(status_code=422, content={
        "error": exc.message(), "file": exc.file, "field": exc.field, "expected": exc.expected,
        "got": None if exc.got is None else str(exc.got), "detail": detail(exc, request_language(request))})


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = jsonable_encoder(exc.errors())
    lang = request_language(request)
    if lang != "en":
        for e in errors:
            e["msg"] = say(lang, f"service.error.validation.{VALIDATION.get(e.get('type'), 'other')}")
    return JSONResponse(status_code=422, content={"detail": errors})


def no_person(pid: str, lang: str) -> JSONResponse:
    return JSONResponse(status_code=404, content={"error": say("en", "service.error.no_person", pid=repr(pid)),
                                                  "detail": say(lang, "service.error.no_person", pid=repr(pid))})


def install(app) -> None:
    app.add_exception_handler(InputError, input_error)
    app.add_exception_handler(RequestValidationError, validation_error)
