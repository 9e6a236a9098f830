"""Ontology and kb hygiene, as SPARQL queries that must return no rows (FIBO/Brick habit), plus the SHACL
shapes for the kb itself."""

from __future__ import annotations

import pytest

from crewkg.law.cache import load_graph
from crewkg.law.statute import load_law
from crewkg.records.shacl import validate_kb

pytestmark = pytest.mark.xdist_group("test_kb_hygiene")  # its module fixtures are made once, on one worker

PREFIXES = """
PREFIX crew: <https://w3id.org/crewkg/onto#>
PREFIX kb: <https://w3id.org/crewkg/kb/>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
"""

HYGIENE = {
    "every ontology term has a German label": """
        SELECT ?t WHERE { ?t rdf:type ?k . FILTER(STRSTARTS(STR(?t), STR(crew:)))
          FILTER NOT EXISTS { ?t rdfs:label ?l . FILTER(LANG(?l) = "de") } }""",
    "every ontology term has an English label": """
        SELECT ?t WHERE { ?t rdf:type ?k . FILTER(STRSTARTS(STR(?t), STR(crew:)))
          FILTER NOT EXISTS { ?t rdfs:label ?l . FILTER(LANG(?l) = "en") } }""",
    "every ontology term has a skos:definition": """
        SELECT ?t WHERE { ?t rdf:type ?k . FILTER(STRSTARTS(STR(?t), STR(crew:)))
          FILTER NOT EXISTS { ?t skos:definition ?d } }""",
    "English labels of ontology classes and properties are unique": """
        SELECT ?a ?b WHERE { ?a rdfs:label ?l . ?b rdfs:label ?l . FILTER(LANG(?l) = "en")
          ?a rdf:type ?ka . ?b rdf:type ?kb . FILTER(?ka IN (owl:Class, owl:ObjectProperty, owl:DatatypeProperty))
          FILTER(?kb IN (owl:Class, owl:ObjectProperty, owl:DatatypeProperty))
          FILTER(STR(?a) < STR(?b)) }""",
    "every requirement has a provision": """
        SELECT ?r WHERE { ?r rdf:type/rdfs:subClassOf crew:Requirement . FILTER NOT EXISTS { ?r crew:provision ?p } }""",
    "every pathway has a provision and leads to a certificate": """
        SELECT ?w WHERE { ?w rdf:type crew:Pathway .
          FILTER (NOT EXISTS { ?w crew:provision ?p } || NOT EXISTS { ?w crew:leadsTo ?c }) }""",
    "every provision quotes its German wording": """
        SELECT ?p WHERE { ?p rdf:type crew:Provision . FILTER NOT EXISTS { ?p crew:wording ?w . FILTER(LANG(?w) = "de") }
          FILTER NOT EXISTS { ?p skos:editorialNote ?n . FILTER(STRSTARTS(STR(?n), "Wortlaut aus dem RIS, nicht in den mitgelieferten Texten")) } }""",
    "a provision without German wording says where its text comes from": """
        SELECT ?p WHERE { ?p rdf:type crew:Provision . FILTER NOT EXISTS { ?p crew:wording ?w } }""",
    "every kb role, certificate and function has German and English labels": """
        SELECT ?t WHERE { ?t rdf:type ?k . FILTER(?k IN (crew:Role, crew:DeckCrewRole, crew:Certificate, crew:Function))
          FILTER (NOT EXISTS { ?t rdfs:label ?d . FILTER(LANG(?d) = "de") } || NOT EXISTS { ?t rdfs:label ?e . FILTER(LANG(?e) = "en") }) }""",
    "no untyped subjects in the kb": """
        SELECT DISTINCT ?s WHERE { ?s ?p ?o . FILTER(isIRI(?s)) FILTER NOT EXISTS { ?s rdf:type ?k } }""",
    "every definition and editorial note is given in German and in English (kb and ontology)": """
        SELECT DISTINCT ?t ?p WHERE { VALUES ?p { skos:definition skos:editorialNote } ?t ?p ?any .
          FILTER (NOT EXISTS { ?t ?p ?d . FILTER(LANG(?d) = "de") } || NOT EXISTS { ?t ?p ?e . FILTER(LANG(?e) = "en") }) }""",
    "a term has one definition per language": """
        SELECT ?t WHERE { ?t skos:definition ?a , ?b . FILTER(LANG(?a) = LANG(?b) && STR(?a) < STR(?b)) }""",
    "every requirement is reachable from a pathway": """
        SELECT ?r WHERE { ?r rdf:type/rdfs:subClassOf crew:Requirement .
          FILTER NOT EXISTS { ?w crew:hasRequirement/(crew:hasAlternative|crew:hasPart)* ?r } }""",
}


@pytest.fixture(scope="module")
def graph():
    return load_graph()


@pytest.mark.parametrize("query", list(HYGIENE.values()), ids=list(HYGIENE))
def test_hygiene_query_returns_no_rows(graph, query):
    rows = list(graph.query(PREFIXES + query))
    assert rows == [], rows


def test_the_hygiene_queries_can_fail(graph):
    """A query that cannot fail is a defect: remove one provision link and the requirement query must see it."""
    from rdflib import URIRef

    g = graph.__class__()
    for t in graph:
        g.add(t)
    req = URIRef("https://w3id.org/crewkg/kb/Req-SchBV2022-P12-Z2-b")
    g.remove((req, URIRef("https://w3id.org/crewkg/onto#provision"), None))
    rows = list(g.query(PREFIXES + HYGIENE["every requirement has a provision"]))
    assert [str(r[0]) for r in rows] == [str(req)]


def test_kb_conforms_to_its_shacl_shapes():
    assert validate_kb() == []


def test_every_ziffer_of_paragraphs_10_to_15_is_one_pathway():
    """§§ 10–15 SchBV (UBZ) and §§ 28–29 SchBV (national certificates): one pathway per Ziffer (per Absatz in § 28
    Abs. 1 and § 29)."""
    law = load_law()
    cited = sorted(law.citation(w.provision) for w in law.pathways.values()
                   if law.certificates[w.certificate].regulation == "SchBV2022" and not w.replacement)
    assert cited == sorted([
        "§ 10 SchBV", "§ 11 SchBV", "§ 12 Z 1 SchBV", "§ 12 Z 2 SchBV", "§ 12 Z 3 SchBV", "§ 13 Z 1 SchBV",
        "§ 13 Z 2 SchBV", "§ 14 Z 1 SchBV", "§ 14 Z 2 SchBV", "§ 14 Z 3 SchBV", "§ 15 Z 1 SchBV", "§ 15 Z 2 SchBV",
        "§ 15 Z 3 SchBV", "§ 15 Z 4 SchBV",
        "§ 28 Abs. 1 SchBV", "§ 28 Abs. 2 Z 1 SchBV", "§ 28 Abs. 2 Z 2 SchBV",
        "§ 29 Abs. 1 SchBV", "§ 29 Abs. 3 SchBV", "§ 29 Abs. 4 SchBV",
    ])


def test_every_ziffer_of_schbesv_paragraph_4_abs_2_is_one_pathway():
    """Z 1–11 of § 4 Abs. 2 SchBesV 2004: one pathway each (Z 5 one per litera), Z 7 none (a Kapitänspatent)."""
    law = load_law()
    cited = sorted(law.citation(w.provision) for w in law.pathways.values()
                   if law.certificates[w.certificate].regulation == "SchBesV2004")
    assert cited == sorted([f"§ 4 Abs. 2 Z {n} SchBesV" for n in (1, 2, 3, 4, 6, 8, 9, 10, 11)]
                           + ["§ 4 Abs. 2 Z 5 lit. a SchBesV", "§ 4 Abs. 2 Z 5 lit. b SchBesV"])


def test_interpretations_are_recorded_as_data():
    """The readings the issue names are skos:editorialNote on the resources that encode them."""
    law = load_law()
    noted = {rid for rid, r in law.requirements.items() if r.notes} | {
        pid for pid, p in law.provisions.items() if p.notes}
    for must in ("Req-SchBV2022-P10-Z2-2", "Req-SchBV2022-P15-Z1-c", "SchBV2022-P13-Z1", "SchBV2022-P14-Z1",
                 "SchBV2022-P12-Z3", "SchBV2022-P15-Z4", "SchBV2022-P12-Z3-a"):
        assert must in noted, must


# ---- numbers in labels come from the data ----
# A requirement's label is shown next to its needed/have numbers; a number written into the label must be one
# the data states (its own minimum or one of its parts'), so a changed minimumDays cannot leave a stale sentence.

def _numbers(text: str) -> set[int]:
    import re

    # a reference (Anlage 8, Annexes 10 and 11, § 19, § 30 Abs. 3 oder 4) names a text, not a quantity
    text = re.sub(r"(Anlagen?|Annex(?:es)?|§|Abs\.)\s*\d+(?:\s*(?:und|and|oder|or|,)\s*(?:Anlage\s*)?\d+)*", "", text)
    return {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?!\w)", text)}


def _minima(law, rid: str) -> set[int]:
    r = law.requirements[rid]
    out = {r.minimum} if r.minimum is not None else set()
    if r.min_hours is not None:  # the hours an instruction must show (crew:minimumHours)
        out.add(int(r.min_hours))
    if r.taken_before is not None:  # a cut-off day (crew:takenBefore) names its day and year
        out |= {r.taken_before.day, r.taken_before.year}
    for c in r.children:
        out |= _minima(law, c)
    return out


def label_number_mismatches(law) -> list[tuple[str, str, int]]:
    """(requirement, language, number) for every number in a requirement label that no minimum of it or its parts states."""
    bad = []
    for rid, r in law.requirements.items():
        minima = _minima(law, rid)
        for lang, text in r.label.items():
            bad += [(rid, lang, n) for n in sorted(_numbers(text) - minima)]
    return bad


def test_label_numbers_come_from_the_data():
    assert label_number_mismatches(load_law()) == []


def test_label_number_check_catches_a_changed_minimum(tmp_path):
    """The § 14 Z 1 lit. a edit: minimumDays 180 → 200 in a kb copy, label untouched — the check must report it."""
    import shutil

    from crewkg.locations import kb_dir, ontology_dir

    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    ttl = kb / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = '    crew:minimumDays 180 ;\n    rdfs:label "ein Jahr Erfahrung als Mitglied einer Decksmannschaft (180 Tage Fahrzeit)"@de'
    assert old in text
    ttl.write_text(text.replace(old, old.replace("minimumDays 180", "minimumDays 200")), encoding="utf-8")
    bad = label_number_mismatches(load_law(kb, ontology_dir()))
    assert {(lang, n) for _, lang, n in bad} == {("de", 180), ("en", 180)}


def test_every_provision_paraphrased_in_english_is_paraphrased_in_german_too():
    """German output is German to the last note: a provision whose wording the bundled texts lack (its crew:wording an
    English paraphrase) has a German paraphrase (crew:paraphrase), which `explain --lang de` shows instead."""
    from crewkg.answers.explanation import wording

    law = load_law()
    english = [p for p in law.provisions.values() if p.wording_lang == "en"]
    assert english, "the kb paraphrases some provisions"
    assert [p.id for p in english if not p.paraphrase] == []
    for p in english:
        de, en = wording(law, p.id, "de"), wording(law, p.id, "en")
        assert p.paraphrase in de and p.wording not in de and "nicht der amtliche Wortlaut" in de
        assert p.wording in en and "not the official text" in en


def test_a_provision_is_paraphrased_exactly_where_the_kb_gives_no_official_wording():
    """Provision.paraphrased, the one test every answer asks: § 6 Abs. 4 SchBV (wording from outside the bundled
    texts) is, § 3 Abs. 6 SchBesV (in the bundled seed) is not; every paraphrase has a German one too."""
    law = load_law()
    assert law.provisions["SchBV2022-P6-Abs4"].paraphrased
    assert not law.provisions["SchBesV2004-P3-Abs6"].paraphrased
    paraphrased = [p for p in law.provisions.values() if p.paraphrased]
    assert paraphrased and all(p.wording_lang == "en" and p.paraphrase for p in paraphrased)
