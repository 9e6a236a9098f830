"""The served identifiers (docs/identifiers.md): an IRI https://w3id.org/crewkg/<path> is answered at /<path> —
the ontology (`/onto`, whose HTML documentation lists every `crew:` term under its own `#fragment`; `/onto/derived`,
`/onto/careers`, `/onto/manning`, the shapes under `/shapes…`, the OWL 2 DL profile at `/onto/dl`, each also under
its version IRI `…/<version>`) and every kb resource (`/kb/<id>`). HTML, Turtle, JSON-LD, N-Triples or RDF/XML by
the Accept header (`?format=` overrides it for a link in a page); the page's language by `?lang=` (German unless
asked)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from crewkg.messages.catalogue import say
from crewkg.service.inputs import language

router = APIRouter()


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked:
        return language(asked)
    header = (request.headers.get("accept-language") or "").lower()
    return "en" if header.startswith("en") else "de"


def _format(request: Request) -> str | Response:
    from crewkg.service.ontology import OFFERS
    from crewkg.service.results import NotAcceptable, negotiate

    asked = request.query_params.get("format")
    if asked in OFFERS:
        return asked
    try:
        return negotiate(request.headers.get("accept"), OFFERS)
    except NotAcceptable:
        text = say(_lang(request), "onto.page.not_acceptable", offers=", ".join(OFFERS.values()))
        return PlainTextResponse(text, status_code=406, headers={"Vary": "Accept"})


def _answer(request: Request, graph, page) -> Response:
    from crewkg.service.ontology import OFFERS, RDF_FORMATS

    fmt = _format(request)
    if isinstance(fmt, Response):
        return fmt
    headers = {"Vary": "Accept"}
    if fmt == "html":
        return HTMLResponse(page(_lang(request)), headers=headers)
    return Response(graph.serialize(format=RDF_FORMATS[fmt]), media_type=OFFERS[fmt], headers=headers)


def _not_found(request: Request) -> Response:
    iri = "https://w3id.org/crewkg" + request.url.path
    return PlainTextResponse(say(_lang(request), "onto.page.not_found", iri=iri), status_code=404)


@router.get("/onto", include_in_schema=False)
@router.get("/onto/{rest:path}", include_in_schema=False)
@router.get("/shapes", include_in_schema=False)
@router.get("/shapes/{rest:path}", include_in_schema=False)
def ontology(request: Request, rest: str = ""):
    from crewkg.service.ontology import document, ontology_html, resource_html

    path = request.url.path.strip("/")
    graph = document(path)
    if graph is None:
        return _not_found(request)
    if path == "onto":
        return _answer(request, graph, ontology_html)
    iri = "https://w3id.org/crewkg/" + path
    return _answer(request, graph, lambda lang: resource_html(graph, iri, lang))


@router.get("/kb/{local:path}", include_in_schema=False)
def kb_resource(request: Request, local: str):
    from crewkg.service.ontology import kb_iri, resource_html
    from crewkg.service.ontology import kb_resource as describe

    graph = describe(local)
    if graph is None:
        return _not_found(request)
    return _answer(request, graph, lambda lang: resource_html(graph, kb_iri(local), lang))
