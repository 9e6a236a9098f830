"""The OpenAPI document, in the language asked for. Summaries, descriptions and request-body schemas are the
service's own words, so they come from the message catalogue (`service.doc.<route name>.summary` and
`.description`); `/openapi.json` gives them in English as it always did, `/openapi.json?lang=de` in German (the
/docs page asks in its own language). Every 422 is documented as the service answers it (refusals.schema), not as
FastAPI's HTTPValidationError, which the service never sends."""

from __future__ import annotations

import copy
from typing import Any

from fastapi.openapi.utils import get_openapi

from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue, say
from crewkg.service import refusals
from crewkg.service.schema import body

#: the documented request body of each route that takes one (schema.body)
BODIES = {"eligibility": "record", "eligibility_upload": "upload", "explain": "record", "report_json": "record",
          "report_upload": "upload", "plan_endpoint": "record", "crew_endpoint": "crew", "sparql_post": "sparql",
          "draft": "record", "draft_upload": "upload", "credential": "record", "credential_upload": "upload"}


def doc(name: str) -> dict[str, str]:
    """summary= and description= for a route decorator: the English text of the catalogue."""
    words = catalogue("en")
    out = {"summary": words[f"service.doc.{name}.summary"]}
    if f"service.doc.{name}.description" in words:
        out["description"] = words[f"service.doc.{name}.description"]
    return out


def openapi(app, law: Law, lang: str = "en") -> dict[str, Any]:
    """The OpenAPI document of `app` in `lang` (English is built once and kept, like FastAPI's own)."""
    if lang == "en" and app.openapi_schema:
        return app.openapi_schema
    routes = [r for r in refusals.api_routes(app.routes) if r.include_in_schema]
    spec = get_openapi(title=app.title, version=app.version, description=say(lang, "service.doc.app.description"),
                       routes=app.routes)
    for route in routes:
        for method in route.methods:
            op = spec["paths"][route.path_format][method.lower()]
            _translate(op, route.name, law, lang)
    _refusals(spec, lang)
    if lang == "en":
        app.openapi_schema = spec
    return copy.deepcopy(spec) if lang != "en" else spec


def _refusals(spec: dict[str, Any], lang: str) -> None:
    """Each operation's 422 as `refusals.input_error` answers it; FastAPI's validation schemas, then unused, left out."""
    ref = {"$ref": f"#/components/schemas/{refusals.SCHEMA}"}
    for item in spec["paths"].values():
        for op in item.values():
            if "422" in op.get("responses", {}):
                op["responses"]["422"] = {"description": say(lang, "service.doc.refusal.response"),
                                          "content": {"application/json": {"schema": ref}}}
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    schemas[refusals.SCHEMA] = refusals.schema(lang)


def _translate(op: dict[str, Any], name: str, law: Law, lang: str) -> None:
    words = catalogue(lang)
    op["summary"] = words[f"service.doc.{name}.summary"]
    if f"service.doc.{name}.description" in words:
        op["description"] = words[f"service.doc.{name}.description"]
    if name in BODIES:
        op.update(body(BODIES[name], law, lang))
    for p in op.get("parameters", []):
        if f"service.doc.param.{p['name']}" in words:
            p["description"] = words[f"service.doc.param.{p['name']}"]
        if p["name"] == "lang":  # the languages the routes take, and nothing else (an empty one is refused, issue 44)
            given = p.get("schema", {})
            p["schema"] = {"type": "string", "enum": ["de", "en"]} | {k: given[k] for k in ("default", "title") if k in given}
