"""Stable, served identifiers (docs/identifiers.md): person and roster IRIs that cannot collide, every ontology file
with a header, version IRI and licence, an OWL 2 DL profile without xsd:date, and `crewkg serve` answering the
ontology's and the kb's IRIs with HTML or Turtle by content negotiation."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, XSD

import crewkg
from crewkg.law.namespaces import PERSON
from crewkg.locations import ontology_dir
from crewkg.records.persons import person_from_mapping
from crewkg.service.loading import build_store
from crewkg.service.results import short

pytestmark = pytest.mark.xdist_group("test_identifiers")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[1]
VESSEL = ROOT / "kb" / "examples" / "vessels" / "01-ms-wachau-danube-day-trip.yaml"
ROSTERS = ROOT / "kb" / "examples" / "rosters"
DCTERMS = "http://purl.org/dc/terms/"


# ------------------------------------------------------------------------------------------------------
# Person and roster IRIs
# ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["memory", "oxigraph"])
def test_two_rosters_with_a_lena_and_a_register_lena_keep_their_own_birth_dates(law, kind, tmp_path):
    """The short MS Wachau roster has lena born 2010-03-01, the substitution roster lena born 2009-03-01; both are
    copied to the same file name in two folders, and the register holds a third lena: three persons, one birth date
    each."""
    pairs = []
    for folder, source in (("a", "01-ms-wachau-short.yaml"), ("b", "01-ms-wachau-substitution.yaml")):
        (tmp_path / folder).mkdir()
        pairs.append((VESSEL, shutil.copy(ROSTERS / source, tmp_path / folder / "crew.yaml")))
    register = person_from_mapping({"id": "lena", "birth_date": "2001-05-05"}, law, AS_OF, "register")
    store = build_store(kind, law, [register], AS_OF, crews=[(v, Path(r)) for v, r in pairs])
    rows = store.select('SELECT ?p ?b WHERE { ?p crew:personId "lena" ; crew:birthDate ?b }').rows
    births: dict[str, list[str]] = {}
    for p, b in rows:
        births.setdefault(str(p), []).append(str(b))
    assert sorted(sorted(v) for v in births.values()) == [["2001-05-05"], ["2009-03-01"], ["2010-03-01"]]
    assert births[str(PERSON["lena"])] == ["2001-05-05"]  # the register's person keeps person/<id>
    rosters = store.select("SELECT ?r ?name ?b WHERE { ?r a crew:Roster ; rdfs:label ?name ; crew:hasCrewMember ?m . "
                           '?m crew:personId "lena" ; crew:birthDate ?b }').rows
    assert len({str(r) for r, _, _ in rosters}) == 2 and {str(n) for _, n, _ in rosters} == {"crew"}
    for r, _, _ in rosters:
        assert str(r).startswith("https://w3id.org/crewkg/roster/crew/")
    # each roster's verdict stays its own: the short crew fails § 43 SchBV, the substitution fills it
    verdicts = {str(b): short(ok) for _, _, b in rosters for ok in store.select(
        "SELECT ?ok WHERE { ?c crew:checkedRoster ?r ; crew:rosterSatisfied ?ok . ?r crew:hasCrewMember ?m . "
        f'?m crew:personId "lena" ; crew:birthDate "{b}"^^xsd:date }}').rows[0]}
    assert verdicts == {"2010-03-01": "false", "2009-03-01": "true"}


def test_a_roster_iri_is_its_name_and_a_hash_of_its_crew(law):
    from crewkg.manning.vessels import member_iri, roster_iri, roster_key

    a = person_from_mapping({"id": "lena", "birth_date": "2010-03-01"}, law, AS_OF, "a")
    b = person_from_mapping({"id": "lena", "birth_date": "2009-03-01"}, law, AS_OF, "b")
    assert roster_key("crew", [a]) == roster_key("crew", [person_from_mapping({"id": "lena", "birth_date": "2010-03-01"},
                                                                              law, AS_OF, "elsewhere")])
    assert roster_key("crew", [a]) != roster_key("crew", [b])
    name, digest = roster_key("crew", [a]).split("/")
    assert name == "crew" and len(digest) == 12 and int(digest, 16) >= 0
    assert str(member_iri(roster_key("crew", [a]), "lena")) == f"{roster_iri(roster_key('crew', [a]))}/crew/lena"


# ------------------------------------------------------------------------------------------------------
# Ontology headers and the DL profile
# ------------------------------------------------------------------------------------------------------
ONTOLOGY_FILES = sorted(ontology_dir().glob("*.ttl"))


@pytest.mark.parametrize("path", ONTOLOGY_FILES, ids=[p.name for p in ONTOLOGY_FILES])
def test_every_ontology_file_has_one_header_with_version_iri_licence_and_title(path):
    g = Graph().parse(path, format="turtle")
    (onto,) = list(g.subjects(RDF.type, OWL.Ontology))
    version = g.value(onto, OWL.versionIRI)
    info = g.value(onto, OWL.versionInfo)
    assert version is not None and str(version) == f"{onto}/{info}"
    assert str(info) == crewkg.__version__  # the ontology files are versioned with the release (docs/identifiers.md)
    assert g.value(onto, URIRef(DCTERMS + "license")) == URIRef("https://spdx.org/licenses/MIT")
    titles = {t.language for t in g.objects(onto, URIRef(DCTERMS + "title"))}
    assert titles == {"de", "en"}
    assert str(onto).startswith("https://w3id.org/crewkg/")


def test_the_ontology_iris_are_distinct():
    iris = [next(Graph().parse(p, format="turtle").subjects(RDF.type, OWL.Ontology)) for p in ONTOLOGY_FILES]
    assert len(set(iris)) == len(iris)


def test_the_dl_profile_has_no_xsd_date_and_is_the_shipped_file():
    from crewkg.service.ontology import DL_FILE, dl_profile

    profile = dl_profile()
    assert not [t for t in profile if XSD.date in t]
    assert (None, RDFS.range, XSD.date) not in profile
    assert (URIRef("https://w3id.org/crewkg/onto#birthDate"), RDFS.range, XSD.dateTime) in profile
    (onto,) = list(profile.subjects(RDF.type, OWL.Ontology))
    assert profile.value(onto, OWL.versionIRI) is not None
    shipped = Graph().parse(ontology_dir() / DL_FILE, format="turtle")
    from rdflib.compare import isomorphic

    assert isomorphic(shipped, profile), "ontology/dl/ is stale: run `crewkg docs --out DIR` and copy DIR/crewkg-dl.ttl to ontology/dl/"
    # the profile keeps every class and property of the ontology
    full = Graph()
    for p in ONTOLOGY_FILES:
        if "shapes" not in p.name:
            full.parse(p, format="turtle")
    for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty):
        assert set(full.subjects(RDF.type, kind)) == set(profile.subjects(RDF.type, kind))


# ------------------------------------------------------------------------------------------------------
# Served IRIs
# ------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client(law):
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app

    return TestClient(create_app(Service(law, build_store("memory", law, [], AS_OF))))


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_onto_answers_a_browser_with_the_documentation_page(client):
    r = client.get("/onto", headers={"Accept": BROWSER, "Accept-Language": "en-GB,en;q=0.9"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "Accept" in r.headers["vary"]
    page = r.text
    # every crew: term has its anchor, so https://w3id.org/crewkg/onto#hasGap lands on its entry
    for name in ("Person", "hasGap", "birthDate", "EligibilityResult", "Roster", "CreditingLimit", "AsDeckCrew"):
        assert f'id="{name}"' in page, name
    assert "Subclass of" in page and "Domain" in page and "Range" in page
    assert "Auswertung" in page and "evaluation" in page  # both labels of crew:Evaluation
    assert f"https://w3id.org/crewkg/onto/{crewkg.__version__}" in page and "https://spdx.org/licenses/MIT" in page
    german = client.get("/onto", headers={"Accept": BROWSER}).text
    assert "Unterklasse von" in german and "Subclass of" not in german


def test_onto_answers_turtle_and_json_ld_by_accept(client):
    r = client.get("/onto", headers={"Accept": "text/turtle"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/turtle")
    g = Graph().parse(data=r.text, format="turtle")
    hasgap = URIRef("https://w3id.org/crewkg/onto#hasGap")
    assert (hasgap, RDF.type, OWL.ObjectProperty) in g  # derived.ttl's terms answer at /onto too
    assert (URIRef("https://w3id.org/crewkg/onto"), OWL.versionIRI, URIRef(f"https://w3id.org/crewkg/onto/{crewkg.__version__}")) in g
    j = client.get("/onto", headers={"Accept": "application/ld+json"})
    assert j.status_code == 200 and len(Graph().parse(data=j.text, format="json-ld")) == len(g)
    assert client.get("/onto", headers={"Accept": "image/png"}).status_code == 406


@pytest.mark.parametrize("path", ["onto/derived", "onto/careers", "onto/manning", "shapes", "shapes/kb",
                                  "shapes/manning", "onto/dl", f"onto/{crewkg.__version__}",
                                  f"onto/derived/{crewkg.__version__}"])
def test_every_ontology_iri_and_version_iri_is_served(client, path):
    r = client.get("/" + path, headers={"Accept": "text/turtle"})
    assert r.status_code == 200, path
    g = Graph().parse(data=r.text, format="turtle")
    iri = "https://w3id.org/crewkg/" + path.removesuffix(f"/{crewkg.__version__}")
    assert (URIRef(iri), RDF.type, OWL.Ontology) in g
    assert client.get("/" + path).headers["content-type"].startswith("text/html")


def test_a_kb_provision_answers_with_its_triples(client):
    """https://w3id.org/crewkg/kb/SchBV2022-P14 (§ 14 SchBV) maps to /kb/SchBV2022-P14."""
    r = client.get("/kb/SchBV2022-P14", headers={"Accept": "text/turtle"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/turtle")
    g = Graph().parse(data=r.text, format="turtle")
    s = URIRef("https://w3id.org/crewkg/kb/SchBV2022-P14")
    assert (s, RDF.type, URIRef("https://w3id.org/crewkg/onto#Provision")) in g
    assert str(g.value(s, URIRef("https://w3id.org/crewkg/onto#citation"))) == "§ 14 SchBV"
    page = client.get("/kb/SchBV2022-P14", headers={"Accept": BROWSER}).text
    assert "§ 14 SchBV" in page and "https://w3id.org/crewkg/kb/SchBV2022-P14" in page
    cert = Graph().parse(data=client.get("/kb/UBZ-Steuermann", params={"format": "turtle"}).text, format="turtle")
    assert (URIRef("https://w3id.org/crewkg/kb/UBZ-Steuermann"), URIRef("https://w3id.org/crewkg/onto#provision"), s) in cert


def test_an_unknown_iri_is_404(client):
    assert client.get("/kb/No-Such-Thing").status_code == 404
    assert client.get("/onto/nothing").status_code == 404
