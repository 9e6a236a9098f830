"""Whether a credential conforms to the official EDC profile, checked offline (the [documents] extra).

JSON-LD is forgiving where a credential must not be: a key its contexts do not define is dropped without a word, so
a misspelt key ('titel') would leave a credential that validates and says less than it was meant to. Here the
credential is expanded by PyLD with a document loader that serves only the contexts bundled in `edc/` (the W3C
Verifiable Credentials context v1 and the EDC context, pinned; any other URL is refused, the network is never asked),
every dropped key and every type or id that is not an absolute IRI is a failure, and the RDF it denotes is validated by
pySHACL against the official shapes (`EDC-generic-full.ttl`, which imports `EDC-generic-no-cv.ttl`)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Phrase

#: the bundled files: the official shapes and the contexts a credential names (edc/README.md: sources, digests, licences)
EDC = Path(__file__).with_name("edc")
CONTEXTS = {"https://www.w3.org/2018/credentials/v1": "credentials-v1.jsonld",
            "http://data.europa.eu/snb/model/context/edc-ap": "edc-ap-context.jsonld"}
SHAPES = ("EDC-generic-no-cv.ttl", "EDC-generic-full.ttl")
#: the base a relative IRI is resolved against (PyLD's own default is an example.org address): what lands under it
#: is a type or id the contexts do not define
BASE = "https://undefined.crewkg.invalid/"
#: the profile a credential names as its schema (`credentialSchema`), which the shapes above define
SCHEMA = "http://data.europa.eu/snb/model/ap/edc-generic-full"


class NotConforming(InputError):
    """A credential the official shapes or the bundled contexts do not accept: what crewkg wrote is wrong (exit 2 with
    the reasons, nothing written)."""


class _Joined(Phrase):
    """Several reasons said in one message, each in the language asked (a shape's own message stays as written)."""

    def __init__(self, parts: list[Any]) -> None:
        super().__init__("", parts=parts)

    def say(self, lang: str) -> str:
        return "; ".join(p.say(lang) if isinstance(p, Phrase) else str(p) for p in self.fields["parts"])


def _loader(url: str, options: Any = None) -> dict[str, Any]:
    """PyLD's document loader: the bundled contexts by their URLs, nothing else (never the network)."""
    name = CONTEXTS.get(url) or CONTEXTS.get(url.rstrip("/"))
    if name is None:
        raise NotConforming("<credential>", "@context", "credential_conforms",
                            reason=Phrase("credential.problem.context", url=url, bundled=", ".join(CONTEXTS)))
    return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url,
            "document": _context(name)}


@cache
def _context(name: str) -> dict[str, Any]:
    return json.loads((EDC / name).read_text(encoding="utf-8"))


def expand(doc: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """The credential expanded by the bundled contexts, and the keys the expansion dropped (none, for a good one)."""
    from crewkg.extras import require

    require("documents", "pyld")
    from pyld import jsonld

    dropped: list[str] = []
    with _offline():
        expanded = jsonld.expand(doc, {"documentLoader": _loader, "base": BASE}, on_property_dropped=lambda key: dropped.append(str(key)))
    return expanded, dropped


class _offline:
    """PyLD wraps what the loader raises; the refusal of a context that is not bundled is said as crewkg's own."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        if exc is None or isinstance(exc, InputError):
            return False
        cause = exc
        while cause is not None and not isinstance(cause, InputError):
            cause = getattr(cause, "cause", None) or cause.__cause__ or cause.__context__
        raise cause if cause is not None else NotConforming("<credential>", "", "credential_conforms",
                                                            reason=str(exc).splitlines()[0]) from None


def _relative(expanded: Any) -> list[str]:
    """Every @id and @type of the expanded credential that is no absolute IRI (a misspelt type is no term, and
    expands to a relative IRI that the RDF silently loses)."""
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for key, v in x.items():
                if key in ("@id", "@type"):
                    out.extend(str(i).removeprefix(BASE) for i in (v if isinstance(v, list) else [v])
                               if ":" not in str(i) or str(i).startswith(BASE))
                elif key != "@value":
                    walk(v)

    walk(expanded)
    return out


def graph(doc: dict[str, Any]) -> Any:
    """The RDF graph the credential denotes (rdflib), read offline by the bundled contexts."""
    from pyld import jsonld
    from rdflib import Graph

    with _offline():
        quads = jsonld.to_rdf(doc, {"documentLoader": _loader, "format": "application/n-quads", "base": BASE})
    g = Graph()
    g.parse(data=quads, format="nt")
    return g


@cache
def shapes() -> Any:
    """The official EDC shapes, parsed once per process."""
    from rdflib import Graph

    g = Graph()
    for name in SHAPES:
        g.parse(EDC / name, format="turtle")
    return g


def problems(doc: dict[str, Any]) -> list[Any]:
    """Why the credential does not conform (empty: it conforms): dropped keys, ids and types that are no IRIs (each a
    Phrase of the catalogue), and the shapes' violations (the focus node, the path and the shapes' own message)."""
    expanded, dropped = expand(doc)
    out: list[Any] = [Phrase("credential.problem.dropped", name=key) for key in dropped]
    out += [Phrase("credential.problem.relative", iri=x) for x in _relative(expanded)]
    if out:
        return out
    import pyshacl
    from rdflib.namespace import SH

    ok, results, _ = pyshacl.validate(graph(doc), shacl_graph=shapes(), inference="none", advanced=False,
                                      allow_warnings=True)
    if ok:
        return []
    for r in results.subjects(SH.resultSeverity, SH.Violation):
        out.append(f"{results.value(r, SH.focusNode)} {results.value(r, SH.resultPath)}: {results.value(r, SH.resultMessage)}")
    return sorted(out) or [Phrase("credential.problem.shapes")]


def conforms(doc: dict[str, Any]) -> None:
    """Raise NotConforming (naming every problem) unless the credential conforms to the official EDC shapes."""
    found = problems(doc)
    if found:
        raise NotConforming("<credential>", "", "credential_conforms", reason=_Joined(found))
