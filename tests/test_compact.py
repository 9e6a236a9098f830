"""The compact derivation graph (issue 46, `crewkg export`'s default) against the full one (`--derivations full`): the
results it holds are the full answer's, every canned query answers on it what the full graph answers about what it
holds — query by query, on both stores —, and a person's graph stays small."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

import pytest
from rdflib import Graph, Literal
from rdflib.namespace import PROV, RDF

from crewkg.law.namespaces import CREW, KB
from crewkg.records.load import load_persons
from crewkg.records.persons import person_from_mapping
from crewkg.service.canned import canned_queries
from crewkg.service.derived_terms import D, eligibility_iri, evaluation_iri, pathway_iri, requirement_iri
from crewkg.service.export import export_graph
from crewkg.service.loading import build_store
from crewkg.service.results import short
from crewkg.service.stores import STORES

pytestmark = pytest.mark.xdist_group("test_compact")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "examples" / "persons"
_spec = importlib.util.spec_from_file_location("synthetic", ROOT / "benchmarks" / "synthetic.py")
synthetic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synthetic)
CANNED = {q.name: q for q in canned_queries()}
#: the (person, certificate, pathway) of every pathway result a store holds
HELD = """SELECT ?person ?certificate ?pathway WHERE {
  ?e crew:evaluatedPerson/crew:personId ?person ; crew:forCertificate ?c ; crew:hasPathwayResult ?w .
  ?w crew:forPathway/crew:provision/crew:citation ?pathway .
  BIND(STRAFTER(STR(?c), STR(kb:)) AS ?certificate) }"""


@pytest.fixture(scope="module")
def persons(law):
    """The examples and 80 synthetic persons (dated logs, sea time, exams, lapses)."""
    made = [person_from_mapping(r, law, AS_OF, "synthetic") for r in synthetic.persons(80, seed=3)]
    return load_persons(EXAMPLES, law, AS_OF) + made


@pytest.fixture(scope="module")
def stores(law, persons):
    return {(kind, shape): build_store(kind, law, persons, AS_OF, shape=shape) for kind in STORES
            for shape in ("compact", "full")}


def rows(store, text: str) -> list[tuple[str, ...]]:
    return [tuple(short(x) for x in r) for r in store.select(text).rows]


def _concerns(names: list[str], row: tuple[str, ...], held: set[tuple[str, str, str]]) -> bool:
    """Whether a row of a canned query is about what the compact graph holds: a row that names a pathway of a
    certificate (eligible-steuermann names the Steuermann UBZ's) only where the graph holds that pathway's result."""
    if "pathway" not in names or "person" not in names:
        return True
    certificate = row[names.index("certificate")] if "certificate" in names else "UBZ-Steuermann"
    return (row[names.index("person")], certificate, row[names.index("pathway")]) in held


@pytest.mark.parametrize("name", sorted(CANNED))
@pytest.mark.parametrize("kind", STORES)
def test_each_canned_query_answers_on_the_compact_graph_what_the_full_one_answers_about_what_it_holds(stores, kind, name):
    compact, full = stores[kind, "compact"], stores[kind, "full"]
    held = set(rows(compact, HELD))
    names = compact.select(CANNED[name].text).vars
    expected = [r for r in rows(full, CANNED[name].text) if _concerns(names, r, held)]
    assert rows(compact, CANNED[name].text) == expected
    if name != "rosters-failing":  # no roster is loaded here (tests/test_sparql.py loads them)
        assert expected, f"{name} answers nothing here: its test could not fail"


#: the (person, certificate) of every eligibility result a store holds
CERTIFICATES = """SELECT ?person ?certificate WHERE { ?e crew:evaluatedPerson/crew:personId ?person ;
  crew:forCertificate ?c . BIND(STRAFTER(STR(?c), STR(kb:)) AS ?certificate) }"""


def test_the_near_misses_of_the_next_steps_are_all_in_the_compact_graph(stores):
    """Of a certificate the compact graph holds, every pathway that lacks one requirement is held too, whatever the
    closest pathway of a next step is (answers.relevance.trimmed): the register's questions about near misses answer
    on it as on the full graph for every certificate that concerns the person; and the questions about what is
    issuable, the roles and the credited days answer row for row."""
    compact, full = stores["oxigraph", "compact"], stores["oxigraph", "full"]
    certificates = set(rows(compact, CERTIFICATES))
    for name in ("one-exam-short", "within-30-days-of-fahrzeit", "blocked-by-medical-fitness"):
        expected = [r for r in rows(full, CANNED[name].text) if (r[0], r[1]) in certificates]
        assert rows(compact, CANNED[name].text) == expected and expected, name
    for name in ("sea-time-eligibility", "eligible-count", "eligibility-provenance", "roles-per-person", "credited-days",
                 "eligible-steuermann"):
        assert rows(compact, CANNED[name].text) == rows(full, CANNED[name].text), name


def test_the_compact_answers_are_the_full_answers_restricted(law, persons):
    """Every certificate, pathway and requirement entry the compact graph is made from is the full check answer's,
    though the program was asked only about the pathways that concern each person (rules.eligibility.derive_details)
    and the eligibility and roles are the register's."""
    from crewkg.answers.eligibility import check
    from crewkg.service.compact import concerned, register_lines

    full = check(law, persons, AS_OF, "en")
    compact = concerned(law, persons, register_lines(law, persons, AS_OF), AS_OF)
    for f, c in zip(full, compact, strict=True):
        assert c["roles"] == f["roles"], f["person"]
        entries = {x["id"]: x for x in f["certificates"]}
        for e in c["certificates"]:
            assert e["eligible"] == entries[e["id"]]["eligible"], (f["person"], e["id"])
            pathways = {w["id"]: w for w in entries[e["id"]]["pathways"]}
            for w in e["pathways"]:
                assert w == pathways[w["id"]], (f["person"], w["id"])


def test_a_persons_compact_graph_is_a_tenth_of_the_full_one(law, persons):
    made = persons[-80:]
    compact, full = (len(export_graph(law, made, AS_OF, shape=shape)) for shape in ("compact", "full"))
    assert compact / len(made) <= 250
    assert compact * 8 < full


# ------------------------------------------------------------------------------------------------------
# What the compact graph holds, at thresholds
# ------------------------------------------------------------------------------------------------------
MATROSE = {"id": "mia", "birth_date": "1995-04-02", "medical_fitness": True, "radio_certificate": True,
           "certificates": ["UBZ-Matrose"], "exams": ["Anlage8"]}


def _compact(law, record: dict) -> Graph:
    return export_graph(law, [person_from_mapping(record, law, AS_OF, "test")], AS_OF)


@pytest.mark.parametrize("days", [179, 180])
def test_180_days_as_Matrose_make_the_Bootsmann_UBZ_issuable_under_paragraph_13_Z1_and_179_leave_one_day(law, days):
    """§ 13 Z 1 SchBV: 180 days as Matrose for a holder of the UBZ Matrose. At 179 the next step up is one day short
    (its missing requirement with needed and have); at 180 it is issuable, with the pathway that made it and its
    requirement as PROV."""
    g = _compact(law, {**MATROSE, "sailing_days": {"Decksmann": 400, "Matrose": days}})
    e, w = eligibility_iri("mia", "UBZ-Bootsmann"), pathway_iri("mia", "Pathway-SchBV2022-P13-Z1")
    r = requirement_iri("mia", "Req-SchBV2022-P13-Z1")
    assert (e, D.eligible, Literal(days >= 180)) in g and (e, D.hasPathwayResult, w) in g
    assert g.value(r, D.neededAmount).toPython() == 180 and g.value(r, D.haveAmount).toPython() == days
    if days == 179:
        assert (r, RDF.type, D.MissingRequirement) in g and g.value(r, D.daysShort).toPython() == 1
        assert g.value(w, D.missingCount).toPython() == 1
        assert (e, PROV.wasDerivedFrom, w) not in g  # nothing was derived from what is missing
    else:
        assert (e, D.canBeIssued, KB["UBZ-Bootsmann"]) in g
        assert (e, PROV.wasDerivedFrom, w) in g and (w, PROV.wasDerivedFrom, r) in g
        # the requirement is a PROV entity by the chain the certificate's result opens, generated by the evaluation
        assert (r, D.met, Literal(True)) in g and (e, PROV.wasGeneratedBy, evaluation_iri("mia")) in g
    # what does not concern her is not there: the pathways by which the UBZ Matrose she can be issued is not, and of
    # the next step the pathway farther off than the one that lacks a single requirement (§ 13 Z 2 SchBV)
    for far in ("Pathway-SchBV2022-P12-Z1", "Pathway-SchBV2022-P12-Z3", "Pathway-SchBV2022-P13-Z2"):
        assert not list(g.triples((pathway_iri("mia", far), None, None))), far
    assert (eligibility_iri("mia", "UBZ-Matrose"), D.eligible, Literal(True)) in g


@pytest.mark.parametrize("born, examined, issued, reasons, since", [
    # 72 years of age, last examined at 60 (§ 5 Abs. 3 SchBesV asked a renewal after 65), a UBZ dated before the
    # SchBV 2022 issues any: two reasons, the spell from the earlier
    ("1954-05-02", "2014-05-02", "2016-01-01", {"issued_before_regulation", "medical_overdue"}, "2016-01-01"),
    ("1960-05-02", "2024-05-02", "2023-01-01", set(), None),
])
def test_the_compact_graph_says_whether_a_held_certificate_counts_and_why_not(law, born, examined, issued, reasons,
                                                                               since):
    """The holding result says what the check answer's lapsed says: whether the UBZ Matrose counts on the date, each
    reason it does not with its provision, and since when."""
    from crewkg.answers.eligibility import check

    record = {"id": "otto", "birth_date": born, "medical_fitness": {"examined": examined},
              "certificates": [{"id": "UBZ-Matrose", "issued": issued}]}
    person = person_from_mapping(record, law, AS_OF, "test")
    lapsed = check(law, [person], AS_OF, "en")[0].get("lapsed", [])
    assert {x["reason"] for x in lapsed} == reasons
    g = export_graph(law, [person], AS_OF)
    (h,) = g.subjects(D.heldCertificate, KB["UBZ-Matrose"])
    assert (h, D.counts, Literal(not reasons)) in g
    assert {str(r) for r in g.objects(h, D.lapseReason)} == reasons
    assert (None if since is None else date.fromisoformat(since)) == (g.value(h, D.lapsedSince) and g.value(h, D.lapsedSince).toPython())
    cited = {law.citation(str(p).rsplit("/", 1)[1]) for p in g.objects(h, CREW.provision)}
    assert cited == {x["provision"] for x in lapsed}
