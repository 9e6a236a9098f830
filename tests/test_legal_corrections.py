"""Issue 13, legal corrections 1 and 2, at their thresholds (docs/legal-corrections.md).

1. § 2 Z 4 SchBV counts the Schiffsführerin bzw. der Schiffsführer in the Decksmannschaft, so days as master of a
   sea-going ship are experience "als Mitglied einer Decksmannschaft auf einem Seeschiff" (§ 12 Z 2 lit. c,
   § 15 Z 3 lit. b, § 15 Z 4 lit. a SchBV). Not the converse: § 14 Z 3 lit. a asks for days as master.
2. A role reached through the role hierarchy (a higher certificate held) still needs the minimum age its own
   certificate asks (§ 10 Z 1 SchBV: 18 years for the Decksmann).

Both are data: the first is a crew:CapacityInclusion in the kb, the second reads the ages of the kb's MinimumAge
requirements; the last tests change the kb and see the answer change.
"""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.answers.render import print_answer
from crewkg.api import law
from crewkg.law.statute import Law, load_law
from crewkg.locations import kb_dir
from crewkg.records.persons import person_from_mapping
from crewkg.rules.kinds import missing_sentence

AS_OF = date(2026, 11, 30)
DAY = timedelta(days=1)


def answer(record: dict[str, Any], as_of: date = AS_OF, the_law: Law | None = None) -> dict[str, Any]:
    the_law = the_law or law()
    p = person_from_mapping({"id": "applicant"} | record, the_law, as_of, "test")
    return check(the_law, [p], as_of)[0]


def pathway(a: dict[str, Any], provision: str) -> dict[str, Any]:
    for c in a["certificates"]:
        for w in c["pathways"]:
            if w["provision"] == provision:
                return w
    raise KeyError(provision)


def eligible(a: dict[str, Any], certificate: str) -> bool:
    return next(c for c in a["certificates"] if c["id"] == certificate)["eligible"]


def litera(w: dict[str, Any], provision: str) -> dict[str, Any]:
    return next(r for r in w["requirements"] if r["provision"] == provision)


# --------------------------------------------------------------------------------------------------------------
# 1. Sea time as master is sea time as a member of the deck crew
# --------------------------------------------------------------------------------------------------------------

# A former sea captain: adult, 180 days of inland Fahrzeit, the § 134 SchFG exams of § 15 Z 3 lit. c, radio and
# medical fitness — everything § 15 Z 3 asks except the sea time of lit. b, which the cases vary.
CAPTAIN = {
    "birth_date": "1970-01-15",
    "sailing_days": {"Steuermann": 180},
    "exams": ["Anlage9", "Anlage10", "Anlage11"],
    "radio_certificate": True,
    "medical_fitness": True,
}


@pytest.mark.parametrize(
    ("sea_days", "issuable"),
    [
        pytest.param({"master": 500}, True, id="500 sea days as master: § 15 Z 3 issuable"),
        pytest.param({"master": 499}, False, id="499 sea days as master: one short"),
        pytest.param({"deck_crew": 500}, True, id="500 sea days as deck crew below the master still count"),
        pytest.param({"deck_crew": 499}, False, id="499 sea days as deck crew: one short"),
        pytest.param({"deck_crew": 250, "master": 250}, True, id="250 as deck crew + 250 as master are added"),
        pytest.param({"deck_crew": 250, "master": 249}, False, id="250 + 249 are one short"),
        pytest.param({}, False, id="no sea days: lit. b needs 540 days of Fahrzeit"),
    ],
)
def test_sea_captain_gets_the_boatmaster_certificate_under_paragraph_15_Z3(sea_days, issuable):
    a = answer(CAPTAIN | {"sea_days": sea_days})
    w = pathway(a, "§ 15 Z 3 SchBV")
    assert w["satisfied"] is issuable
    assert eligible(a, "UBZ-Schiffsfuehrer") is issuable
    lit_b = litera(w, "§ 15 Z 3 lit. b SchBV")
    shortened = lit_b["alternatives"][1]
    sea = next(part for part in shortened["parts"] if part["kind"] == "SeaTime")
    assert (sea["needed"], sea["have"], sea["met"]) == (500, sum(sea_days.values()), issuable)
    assert sea["capacity"] == "AsDeckCrew"


def test_sea_days_as_master_count_in_every_provision_that_names_the_deck_crew_at_sea():
    """§ 12 Z 2 lit. c (250 days), § 15 Z 4 lit. a (500 days): the same reading in each, at the threshold."""
    matrose = {"birth_date": "1990-01-01", "exams": ["Anlage8"], "sailing_days": {"Decksmann": 180},
               "medical_fitness": True}
    assert pathway(answer(matrose | {"sea_days": {"master": 250}}), "§ 12 Z 2 SchBV")["satisfied"] is True
    assert pathway(answer(matrose | {"sea_days": {"master": 249}}), "§ 12 Z 2 SchBV")["satisfied"] is False
    programme = {"programmes": [{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 180, "sailing_days_after": 180}],
                 "radio_certificate": True, "medical_fitness": True}
    assert pathway(answer(programme | {"sea_days": {"master": 500}}), "§ 15 Z 4 SchBV")["satisfied"] is True
    assert pathway(answer(programme | {"sea_days": {"master": 499}}), "§ 15 Z 4 SchBV")["satisfied"] is False


def test_deck_crew_days_are_not_days_as_master():
    """§ 14 Z 3 lit. a SchBV asks for days 'als Schiffsführerin bzw. Schiffsführer auf See': the inclusion runs
    one way, so 500 days in the deck crew below the master do not make a Steuermann."""
    steuermann = {"exams": ["Anlage8"], "radio_certificate": True, "medical_fitness": True}
    assert pathway(answer(steuermann | {"sea_days": {"master": 500}}), "§ 14 Z 3 SchBV")["satisfied"] is True
    w = pathway(answer(steuermann | {"sea_days": {"deck_crew": 500}}), "§ 14 Z 3 SchBV")
    assert w["satisfied"] is False
    lit_a = litera(w, "§ 14 Z 3 lit. a SchBV")
    assert (lit_a["needed"], lit_a["have"]) == (500, 0)


def test_the_inclusion_is_data_with_its_provision_and_wording():
    from rdflib import RDF, Literal, URIRef
    from rdflib.namespace import SKOS

    from crewkg.law.cache import load_graph
    from crewkg.law.namespaces import CREW, CREW_IRI, KB

    g = load_graph()
    (node,) = [s for s in g.subjects(RDF.type, CREW.CapacityInclusion)
               if g.value(s, CREW.includedCapacity) == CREW.AsMaster and g.value(s, CREW.includingCapacity) == CREW.AsDeckCrew]
    assert g.value(node, CREW.provision) == KB["SchBV2022-P2-Z4"]
    quoted = g.value(node, URIRef(CREW_IRI + "quotedText"))
    assert isinstance(quoted, Literal) and quoted.language == "de" and "Schiffsführer" in str(quoted)
    assert "Schiffsführerin bzw. Schiffsführer" in str(g.value(KB["SchBV2022-P2-Z4"], CREW.wording))
    assert g.value(node, SKOS.editorialNote) is not None
    assert law().counted_capacities("AsDeckCrew") == {"AsDeckCrew", "AsMaster"}
    assert law().counted_capacities("AsMaster") == {"AsMaster"}


def _kb_without_the_master_inclusion(tmp_path: Path) -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "01_allgemeine_bestimmungen.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = "crew:includingCapacity crew:AsDeckCrew ; crew:includedCapacity crew:AsMaster ;"
    assert old in text
    ttl.write_text(text.replace(old, "crew:includingCapacity crew:AsDeckCrew ; crew:includedCapacity crew:AsDeckCrew ;"),
                   encoding="utf-8")
    return copy


def test_the_kb_decides_which_capacities_count(tmp_path):
    """Remove the § 2 Z 4 inclusion from a copy of the kb: the captain is refused again, with no Python edit."""
    edited = load_law(kb=_kb_without_the_master_inclusion(tmp_path))
    captain = CAPTAIN | {"sea_days": {"master": 500}}
    assert pathway(answer(captain), "§ 15 Z 3 SchBV")["satisfied"] is True
    assert pathway(answer(captain, the_law=edited), "§ 15 Z 3 SchBV")["satisfied"] is False
    # "in any capacity" (§ 12 Z 3 lit. a) includes the master by its own definition, not through § 2 Z 4
    career_changer = {"sea_days": {"master": 500}, "programmes": [{"for": "Matrose", "months": 9, "sailing_days": 90}],
                      "medical_fitness": True}
    assert pathway(answer(career_changer, the_law=edited), "§ 12 Z 3 SchBV")["satisfied"] is True


# --------------------------------------------------------------------------------------------------------------
# 2. Filling a lower role keeps that role's age
# --------------------------------------------------------------------------------------------------------------

# Born on 15 June 2011: the 15th year is completed on 15 June 2026, the 18th on 15 June 2029.
BORN = "2011-06-15"
EIGHTEENTH = date(2029, 6, 15)
LEICHTMATROSE = {"birth_date": BORN, "apprenticeship": {"contract": True, "year": 1}, "medical_fitness": True,
                 "certificates": ["UBZ-Leichtmatrose"]}


def test_a_fifteen_year_old_leichtmatrose_cannot_fill_decksmann():
    a = answer(LEICHTMATROSE)
    assert a["roles"] == ["Leichtmatrose"]
    (withheld,) = a["roles_withheld"]
    assert withheld["role"] == "Decksmann"
    assert (withheld["needed"], withheld["have"], withheld["unit"]) == (18, 15, "years")
    assert withheld["provision"] == "§ 10 Z 1 SchBV"
    assert withheld["reached_on"] == EIGHTEENTH.isoformat()
    assert "18" in withheld["text"] and "§ 10 Z 1 SchBV" in withheld["text"]


@pytest.mark.parametrize(
    ("as_of", "fills"),
    [
        pytest.param(EIGHTEENTH - DAY, False, id="the day before the 18th birthday: not Decksmann"),
        pytest.param(EIGHTEENTH, True, id="on the 18th birthday: Decksmann"),
    ],
)
def test_the_age_of_the_lower_role_is_met_exactly_on_the_birthday(as_of, fills):
    a = answer(LEICHTMATROSE, as_of)
    assert ("Decksmann" in a["roles"]) is fills
    assert "Leichtmatrose" in a["roles"]
    assert bool(a.get("roles_withheld")) is not fills


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "das 18. Lebensjahr ist noch nicht vollendet (17 Jahre alt; vollendet es am 2029-06-15)"),
    ("en", "not yet 18 years of age (aged 17; turns 18 on 2029-06-15)"),
])
def test_the_age_shortfall_says_the_age_and_the_day_the_age_is_reached(lang, sentence):
    """Needed and have in one sentence: the day before the 18th birthday 17 years, reached on the birthday; on the
    birthday itself the age is no longer missing (§ 10 Z 1 SchBV)."""
    the_law = law()

    def ages(as_of: date) -> list[str]:
        p = person_from_mapping({"id": "applicant"} | LEICHTMATROSE, the_law, as_of, "test")
        a = check(the_law, [p], as_of, lang=lang)[0]
        return [missing_sentence(the_law, m, lang) for c in a["certificates"] for w in c["pathways"]
                for m in w.get("missing", []) if m["kind"] == "MinimumAge" and m["needed"] == 18] + [
                    w["text"] for w in a.get("roles_withheld", [])]

    before = ages(EIGHTEENTH - DAY)
    assert before and all(t.startswith(sentence) for t in before)
    assert ages(EIGHTEENTH) == []


def test_a_role_whose_certificate_names_no_age_in_one_pathway_asks_none():
    """§ 12 Z 3 SchBV names no age, so the Matrose certificate can be had at any age (the least age over its
    pathways): a seventeen-year-old who holds the Bootsmann certificate fills Matrose and Bootsmann, Leichtmatrose
    (15 years, § 11 Z 1) too, but not Decksmann (18 years, § 10 Z 1)."""
    a = answer({"birth_date": "2009-06-15", "certificates": ["UBZ-Bootsmann"]})
    assert a["roles"] == ["Leichtmatrose", "Matrose", "Bootsmann"]
    assert [w["role"] for w in a["roles_withheld"]] == ["Decksmann"]


def test_a_certificate_held_is_filled_whatever_the_age():
    """The age applies to roles reached through the hierarchy; a certificate held is the authority's own finding."""
    a = answer({"birth_date": "2011-06-15", "certificates": ["UBZ-Decksmann", "UBZ-Leichtmatrose"]})
    assert a["roles"] == ["Decksmann", "Leichtmatrose"]
    assert "roles_withheld" not in a


def test_without_a_birth_date_the_age_of_the_lower_role_is_not_shown():
    a = answer({"certificates": ["UBZ-Matrose"]})
    assert a["roles"] == ["Matrose"]
    assert [(w["role"], w["needed"], w["have"]) for w in a["roles_withheld"]] == [
        ("Decksmann", 18, None), ("Leichtmatrose", 15, None)]
    assert "reached_on" not in a["roles_withheld"][0]


@pytest.mark.parametrize(("lang", "words", "reason"), [
    ("de", "Kann wegen des Alters nicht besetzen", "das 18. Lebensjahr ist noch nicht vollendet"),
    ("en", "Cannot fill because of age", "not yet 18 years of age"),
])
def test_the_text_answer_says_why(capsys, lang, words, reason):
    p = person_from_mapping({"id": "applicant"} | LEICHTMATROSE, law(), AS_OF, "test")
    print_answer(law(), check(law(), [p], AS_OF, lang=lang)[0], lang)
    out = capsys.readouterr().out
    assert words in out and reason in out and "§ 10 Z 1 SchBV" in out and "2029-06-15" in out


def test_the_roster_check_keeps_the_age_of_the_lower_role():
    """The roster path derives can_fill with the same rule: a fifteen-year-old Leichtmatrose fills no Decksmann
    slot, on the 18th birthday they do."""
    from crewkg.manning.people import people_of

    p = person_from_mapping({"id": "lena"} | LEICHTMATROSE, law(), AS_OF, "test")
    young = people_of(law(), [p], EIGHTEENTH - DAY)
    assert "Decksmann" not in young.fills["lena"] and "Leichtmatrose" in young.fills["lena"]
    grown = people_of(law(), [p], EIGHTEENTH)
    assert "Decksmann" in grown.fills["lena"]


def test_the_kb_decides_the_age(tmp_path):
    """Change § 10 Z 1 from 18 to 15 years in a copy of the kb: the Leichtmatrose fills Decksmann, no Python edit."""
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = "kb:Req-SchBV2022-P10-Z1 a crew:MinimumAgeRequirement ; crew:provision kb:SchBV2022-P10-Z1 ; crew:statuteOrder 1 ;\n    crew:minimumYears 18 ;"
    assert old in text
    text = text.replace(old, old.replace("minimumYears 18", "minimumYears 15"))
    ttl.write_text(text.replace('"das 18. Lebensjahr vollendet"@de , "has completed 18 years of age"@en .\n',
                                '"das 15. Lebensjahr vollendet"@de , "has completed 15 years of age"@en .\n', 1),
                   encoding="utf-8")
    edited = load_law(kb=copy)
    assert "Decksmann" not in answer(LEICHTMATROSE)["roles"]
    assert "Decksmann" in answer(LEICHTMATROSE, the_law=edited)["roles"]


def test_the_exported_result_rests_on_the_sea_records_that_counted():
    """The RDF export's provenance follows the same inclusion: the captain's deck-crew sea time (§ 15 Z 3 lit. b)
    rests on both of his sea records, § 14 Z 3 lit. a (master only) on the master record alone."""
    from rdflib import Graph, URIRef

    from crewkg.law.namespaces import PERSON
    from crewkg.service.derived import FULL
    from crewkg.service.derived_terms import D, requirement_iri
    from crewkg.service.export import export_graph
    from crewkg.service.records_rdf import record_triples

    p = person_from_mapping({"id": "cap"} | CAPTAIN | {"sea_days": {"deck_crew": 100, "master": 400}}, law(), AS_OF, "test")
    g = Graph()
    for t in list(record_triples(p)) + list(export_graph(law(), [p], AS_OF, shape=FULL)):  # every pathway's results
        g.add(t)
    deck, master = (URIRef(f"{PERSON['cap']}/sea/{c}") for c in ("AsDeckCrew", "AsMaster"))
    assert set(g.objects(requirement_iri("cap", "Req-SchBV2022-P15-Z3-b-2a"), D.basedOnRecord)) == {deck, master}
    assert set(g.objects(requirement_iri("cap", "Req-SchBV2022-P14-Z3-a"), D.basedOnRecord)) == {master}


@pytest.mark.parametrize(("on", "cap", "outside"), [(date(2026, 11, 30), "§ 6 Abs. 4 SchBV", True),
                                                    (date(2021, 6, 1), "§ 3 Abs. 6 SchBesV", False)])
def test_a_capped_count_says_when_the_caps_wording_is_outside_the_bundled_texts(on, cap, outside):
    """360 days as Matrose in one block are 180 credited (short of § 47 Abs. 4 SchBV, § 4 Abs. 2 Z 5
    lit. b SchBesV). The sentence cites the cap; § 6 Abs. 4 SchBV
    is the kb's paraphrase (only its heading is bundled), and the answer says so in either language; § 3 Abs. 6 SchBesV
    is bundled, and nothing is added."""
    start = on - timedelta(days=400)
    a = answer({"birth_date": "1980-01-01", "medical_fitness": True,
                "service": [{"from": start.isoformat(), "to": (start + timedelta(days=359)).isoformat(), "role": "Matrose"}]}, on)
    gaps = [m for c in a["certificates"] for w in c["pathways"] for m in w["missing"] if m.get("capped")]
    assert gaps, "a requirement counting the block must show capped days"
    for lang, words in (("en", "paraphrased: its wording is not in the texts crewkg bundles"),
                        ("de", "sinngemäß wiedergegeben: sein Wortlaut ist nicht in den von crewkg mitgelieferten Texten")):
        sentence = missing_sentence(law(), gaps[0], lang)
        assert cap in sentence and (words in sentence) is outside, sentence
