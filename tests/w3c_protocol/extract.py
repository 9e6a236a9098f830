"""Turn the W3C SPARQL 1.1 Protocol manifest (manifest.ttl, copied here unchanged) into requests.json, the plain
list of HTTP requests and expected answers tests/test_w3c_protocol.py runs. Run from the repository root:

    python tests/w3c_protocol/extract.py

The output is committed; this script only documents (and can repeat) how it was made."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl

from rdflib import RDF, RDFS, Graph, Namespace
from rdflib.collection import Collection

HERE = Path(__file__).resolve().parent
BASE = "http://www.w3.org/2009/sparql/docs/tests/data-sparql11/protocol/manifest"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = Namespace("http://www.w3.org/2011/http#")
CNT = Namespace("http://www.w3.org/2011/content#")
UT = Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
HTS = "http://www.w3.org/2011/http-statusCodes#StatusCode"


def _request(g: Graph, req) -> dict:
    path, _, query = str(g.value(req, HT.absolutePath)).partition("?")
    body = g.value(req, HT.body)
    headers = Collection(g, g.value(req, HT.headers)) if g.value(req, HT.headers) is not None else []
    resp = g.value(req, HT.resp)
    boolean = g.value(resp, MF.expectedBoolean)
    fmt = g.value(resp, MF.expectedFormat)
    return {
        "method": str(g.value(req, HT.methodName)),
        "path": path,
        "params": [list(kv) for kv in parse_qsl(query, keep_blank_values=True)],
        "headers": {str(g.value(h, HT.fieldName)): str(g.value(h, HT.fieldValue)) for h in headers},
        "body": None if body is None else str(g.value(body, CNT.chars)),
        "body_encoding": None if body is None else str(g.value(body, CNT.characterEncoding)),
        "expected": {
            "status": sorted(str(s).removeprefix(HTS) for s in g.objects(resp, MF.expectedStatus)),
            "format": None if fmt is None else str(fmt),
            "boolean": None if boolean is None else boolean.toPython(),
        },
    }


def extract() -> list[dict]:
    g = Graph().parse(HERE / "manifest.ttl", format="turtle", publicID=BASE)
    manifest = next(g.subjects(RDF.type, MF.Manifest))
    tests = []
    for entry in Collection(g, g.value(manifest, MF.entries)):
        ident = str(entry).rsplit("#", 1)[1]
        action = g.value(entry, MF.action)
        comment = g.value(entry, RDFS.comment)
        tests.append({
            "id": ident,
            "name": str(g.value(entry, MF.name)),
            "comment": None if comment is None else str(comment),
            "kind": "update" if "update" in ident else "query",
            "graph_data": [{"file": str(g.value(d, UT.graph)).rsplit("/", 1)[1], "name": str(g.value(d, RDFS.label))}
                           for d in g.objects(entry, UT.graphData)],
            "requests": [_request(g, r) for r in Collection(g, g.value(action, HT.requests))],
        })
    for t in tests:
        t["graph_data"].sort(key=lambda d: d["file"])
    return tests


if __name__ == "__main__":
    out = HERE / "requests.json"
    out.write_text(json.dumps(extract(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(out)
