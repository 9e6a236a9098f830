"""How the service refuses a request, in the request's language. A 422 for bad input keeps the fields it always had
(`error`, `file`, `field`, `expected`, `got`: the English message of the CLI, which clients match on) and adds
`detail`, the same refusal as a sentence in the language of the request (`lang`, German by default). FastAPI's own
validation errors (a required query parameter missing, a number that is none) are refused in the same shape: the
first of them as an InputError naming the parameter. `got` spells the value received as the CLI's messages do
(`errors.quote`: true, false, null, a list as [1, true]), a text as it was sent."""

from __future__ import annotations

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from crewkg.errors import InputError, quote
from crewkg.messages.catalogue import say
from crewkg.records.reading import printable

#: pydantic's error types -> the expectation of the catalogue (`error.expected.<key>`); any other: `valid_parameter`
VALIDATION = {"missing": "required_parameter", "int_parsing": "whole_number", "int_type": "whole_number",
              "float_parsing": "number", "float_type": "number", "bool_parsing": "boolean", "bool_type": "boolean"}


def request_language(request: Request) -> str:
    lang = request.query_params.get("lang", "de")
    return lang if lang in ("de", "en") else "de"


def detail(exc: InputError, lang: str) -> str:
    """The refusal as one sentence in `lang` (the CLI's message: crewkg.errors)."""
    return exc.message(lang)


async def input_error(request: Request, exc: InputError) -> JSONResponse:
    return JSONResponse(status_code=422, content={
        "error": printable(exc.message()), "file": printable(exc.file), "field": printable(exc.field),
        "expected": printable(exc.expected), "got": got(exc.got), "detail": printable(detail(exc, request_language(request)))})


def got(value: object) -> str | None:
    """The value a refusal received, as YAML and JSON spell it (true, not Python's True); a text as it is, a lone
    surrogate spelt as its escape (it cannot be written as UTF-8, and the refusal must be)."""
    if value is None:
        return None
    return printable(value if isinstance(value, str) else quote(value))


#: the name of a refusal's schema in the OpenAPI document (docs.openapi documents every 422 with it)
SCHEMA = "Refusal"
#: the fields of a refusal (`input_error`); `got` alone may be null
FIELDS = ("error", "file", "field", "expected", "got", "detail")


def schema(lang: str) -> dict:
    """The JSON schema of a 422's body (`input_error`), its descriptions in `lang`."""
    text = {"type": "string"}
    return {"type": "object", "required": list(FIELDS), "additionalProperties": False,
            "description": say(lang, "service.doc.refusal.description"),
            "properties": {name: (text if name != "got" else {"type": ["string", "null"]}) |
                           {"description": say(lang, f"service.doc.refusal.{name}")} for name in FIELDS}}


def validation_input_error(error: dict) -> InputError:
    """One of FastAPI's validation errors as the InputError of every other refusal: a query parameter is named as
    the service names its own (`as_of`: file and field), a part of the body as the request body's field."""
    where, *path = [str(x) for x in error.get("loc", ())] or ["query"]
    name = ".".join(path)
    kind = error.get("type")
    got = None if kind == "missing" else error.get("input")
    expected = VALIDATION.get(kind, "valid_parameter")
    return InputError("request body", name, expected, got) if where == "body" else InputError(name, name, expected, got)


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = jsonable_encoder(exc.errors())
    return await input_error(request, validation_input_error(errors[0] if errors else {}))


def no_person(pid: str, lang: str) -> JSONResponse:
    return JSONResponse(status_code=404, content={"error": say("en", "service.error.no_person", pid=repr(pid)),
                                                  "detail": say(lang, "service.error.no_person", pid=repr(pid))})


def api_routes(routes) -> list:
    """The API routes of the app, those of included routers too (FastAPI ≥ 0.16x keeps an included router whole)."""
    from fastapi.routing import APIRoute

    out: list = []
    for r in routes:
        if isinstance(r, APIRoute):
            out.append(r)
        elif getattr(r, "original_router", None) is not None:
            out += api_routes(r.original_router.routes)
    return out


async def http_error(request: Request, exc):
    """FastAPI's answer to an HTTP error, with a 405's `Allow` naming every method the path answers: Starlette named
    only those of the first route of the path (`Allow: GET` on /sparql, which POST answers too, issue 44)."""
    from fastapi.exception_handlers import http_exception_handler

    if exc.status_code == 405:
        path = request.url.path
        methods = sorted({m for r in api_routes(request.app.routes) if r.path_regex.match(path) for m in r.methods})
        if methods:
            exc.headers = {**(exc.headers or {}), "Allow": ", ".join(methods)}
    return await http_exception_handler(request, exc)


def install(app) -> None:
    from starlette.exceptions import HTTPException

    app.add_exception_handler(InputError, input_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
