"""Doubtful provisions of the eligibility law (issue 43, readings 4, 5 and 8): one reading applied, the other stated in
the answer where its verdict differs, every reading data of the kb (crew:Reading), evaluated by the same Datalog
program and never counted in the answer's own verdict. The legal outcomes at their thresholds are cases of
tests/cases/zweifelhafte_bestimmungen.yaml; here: the kind that closes the last sentence of § 47 Abs. 4 SchBV, the
records and the law as the other reading reads them, the answer's shape in both languages, the text, and the kb."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from rdflib import Literal
from rdflib.namespace import RDF, SKOS
from typer.testing import CliRunner

import crewkg
from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.law.cache import load_graph
from crewkg.law.namespaces import CREW, KB
from crewkg.law.readings import eligibility_readings, law_under
from crewkg.law.statute import load_law
from crewkg.records.dated import read_otherwise
from crewkg.records.persons import person_from_mapping

NOW, OLD = date(2026, 11, 30), date(2015, 6, 1)
FAHRZEITEN = "SchBV2022-P47-Abs4-Reading-Fahrzeiten"
LEHRVERTRAG = "SchBV2022-P47-Abs4-Reading-Lehrvertrag"
MOTORWART = "SchBesV2004-P4-Abs2-Z5-b-Reading-Motorwart"
PER_PERSON = "SchBesV2004-P3-Abs6-Reading-PerPerson"
NONE_OF = "Req-SchBV2022-P47-Abs4-Letzter-Satz-Fahrzeiten"
LOG = [{"from": "2024-01-01", "to": "2024-06-28", "role": "Decksmann"},
       {"from": "2024-06-29", "to": "2024-12-25", "role": "Matrose"}]


def holder(cert: str, **kw: Any) -> dict[str, Any]:
    return {"id": "h", "birth_date": "1970-01-01", "medical_fitness": True, "certificates": [f"SchBesV2004-{cert}"], **kw}


def answer(record: dict[str, Any], on: date = NOW, lang: str = "en") -> dict[str, Any]:
    return crewkg.check(record, as_of=on.isoformat(), lang=lang)


def pathway(a: dict[str, Any], cert: str, provision: str) -> dict[str, Any]:
    (c,) = [c for c in a["certificates"] if c["id"] == cert]
    (w,) = [w for w in c["pathways"] if w["provision"] == provision]
    return w


def reading(a: dict[str, Any], rid: str) -> dict[str, Any] | None:
    return next((r for r in a.get("readings", []) if r["id"] == rid), None)


# --- NoneOf: the Fahrzeiten of Z 1 to Z 3 not shown -------------------------------------------------------------------------
@pytest.mark.parametrize("days, inland, met", [
    ({"Bootsmann": 539}, None, True), ({"Bootsmann": 540}, None, False),
    ({"Bootsmann": 179}, {"deck_crew": 400}, True), ({"Bootsmann": 180}, {"deck_crew": 360}, False),
], ids=["539 days: not shown", "540 days: Z 1 shown", "179 inland + 400 at sea: the inland share is missing",
        "180 inland + 360 at sea: Z 1 shown"])
def test_the_last_sentence_is_closed_once_the_fahrzeiten_of_z1_are_shown(days, inland, met):
    record = holder("Steuermann", sailing_days=days) | ({"sea_days": inland} if inland else {})
    w = pathway(answer(record), "UBZ-Bootsmann", "§ 47 Abs. 4 letzter Satz SchBV")
    (r,) = [r for r in w["requirements"] if r["id"] == NONE_OF]
    assert r["met"] is met and r["kind"] == "NoneOf" and w["satisfied"] is met
    assert r["have"] == ([] if met else ["Req-SchBV2022-P47-Abs4-Z1-Fahrzeiten"])


@pytest.mark.parametrize("training, met", [(359, True), (360, False)])
def test_a_shortened_fahrzeit_of_abs_5_counts_as_shown(training, met):
    """§ 47 Abs. 5: a training of 360 days shortens the 540 days of Z 1 to 180; 180 inland days then show Z 1 (the
    none-of rule reads the person's own lowered minimum as the reduction rule does)."""
    record = holder("Steuermann", sailing_days={"Bootsmann": 180}, inland_training_days=training)
    w = pathway(answer(record), "UBZ-Bootsmann", "§ 47 Abs. 4 letzter Satz SchBV")
    assert next(r for r in w["requirements"] if r["id"] == NONE_OF)["met"] is met


def test_the_none_of_rule_can_say_yes_and_no_in_one_batch():
    law = load_law()
    ps = [person_from_mapping(holder("Steuermann", id=f"p{n}", sailing_days={"Bootsmann": n}), law, NOW, "t")
          for n in (0, 539, 540, 1200)]
    from crewkg.rules.eligibility import derive

    d = derive(ps, law, NOW)
    assert [(p.id, NONE_OF) in d.met for p in ps] == [True, True, False, False]


# --- the answer's readings ----------------------------------------------------------------------------------------------------
def test_the_answer_states_the_other_reading_where_its_verdict_differs_in_both_languages():
    for lang, words in (("en", "under the other reading UBZ able boatman could be issued"),
                        ("de", "nach der anderen Lesart könnte UBZ Bootsmann ausgestellt werden")):
        a = answer(holder("Steuermann", sailing_days={"Bootsmann": 540}), lang=lang)
        r = reading(a, FAHRZEITEN)
        assert r is not None and r["provision"] == "§ 47 Abs. 4 letzter Satz SchBV"
        assert r["verdict_other"] == {"certificates": [{"certificate": "UBZ-Bootsmann", "eligible": True,
                                                        "pathways": ["§ 47 Abs. 4 letzter Satz SchBV"]}], "roles": []}
        assert r["text"].startswith(words) and r["applied"] and r["other"] and r["notes"]
        assert {"id", "provision", "applied", "other", "verdict_other", "text"} <= set(r)
        (c,) = [c for c in a["certificates"] if c["id"] == "UBZ-Bootsmann"]
        assert c["eligible"] is False  # never counted in the answer's own verdict
    assert answer(holder("Steuermann", sailing_days={"Bootsmann": 540}), lang="de")["readings"][0]["applied"].startswith("Wie geschrieben")


def test_no_reading_is_stated_where_none_reaches_the_person():
    a = answer({"id": "p", "birth_date": "1990-01-01", "medical_fitness": True, "sailing_days": {"Decksmann": 400}})
    assert "readings" not in a


def test_the_planner_s_answers_compute_no_readings():
    law = load_law()
    p = person_from_mapping(holder("Steuermann", sailing_days={"Bootsmann": 540}), law, NOW, "t")
    assert "readings" not in check(law, [p], NOW, "en")[0]
    assert reading(check(law, [p], NOW, "en", readings=True)[0], FAHRZEITEN) is not None


def test_the_lower_pathways_name_the_conditions_the_authority_waives():
    a = answer(holder("Bootsmann", birth_date="1984-06-01"), lang="de")
    w = pathway(a, "UBZ-Decksmann", "§ 47 Abs. 4 letzter Satz SchBV")
    assert [x["provision"] for x in w["waived"]] == ["§ 10 Z 2 SchBV"]
    assert {r["provision"] for r in w["requirements"]} >= {"§ 10 Z 1 SchBV", "§ 47 Abs. 4 SchBV"}  # kept: age, medical
    leicht = pathway(a, "UBZ-Leichtmatrose", "§ 47 Abs. 4 letzter Satz SchBV")
    assert "waived" not in leicht and [m["provision"] for m in leicht["missing"]] == ["§ 11 Z 2 SchBV"]


def test_the_text_says_the_other_reading_briefly(tmp_path):
    f = tmp_path / "b.json"
    f.write_text(json.dumps(holder("Bootsmann", birth_date="1984-06-01")), encoding="utf-8")
    for lang, words in (("de", "Zweifelhafte Bestimmung § 47 Abs. 4 letzter Satz SchBV: nach der anderen Lesart"),
                        ("en", "Doubtful provision § 47 Abs. 4 letzter Satz SchBV: under the other reading")):
        out = CliRunner().invoke(app, ["check", str(f), "--as-of", NOW.isoformat(), "--lang", lang]).output
        assert words in " ".join(out.split()), out
    out = CliRunner().invoke(app, ["check", str(f), "--as-of", NOW.isoformat(), "--lang", "de", "--all"]).output
    assert "die Behörde sieht ab von" in out


# --- the record and the law as the other reading reads them ---------------------------------------------------------------------
def test_the_cap_per_person_credits_the_matrose_days_of_a_full_window_none():
    law = load_law()
    p = person_from_mapping({"id": "l", "birth_date": "1990-01-01", "service": LOG}, law, date(2024, 12, 31), "t")
    q = read_otherwise(p, law, date(2024, 12, 31), per_person=True)
    assert p.sailing_days == {"Decksmann": 180, "Matrose": 180}
    assert q is not None and q.sailing_days == {"Decksmann": 180, "Matrose": 0} and q.any_role_days == p.any_role_days


def test_a_record_the_other_reading_reads_alike_is_not_evaluated_again():
    law = load_law()
    far = [{"from": "2023-01-01", "to": "2023-06-29", "role": "Decksmann"}, LOG[1]]
    p = person_from_mapping({"id": "l", "birth_date": "1990-01-01", "service": far}, law, date(2024, 12, 31), "t")
    assert read_otherwise(p, law, date(2024, 12, 31), per_person=True) is None
    assert read_otherwise(p, law, date(2024, 12, 31), counts_as=("MatroseMotorwart", "Matrose")) is None


def test_days_as_motorwart_count_as_matrose_days_without_counting_any_day_twice():
    law = load_law()
    totals = person_from_mapping(holder("Matrose", sailing_days={"Matrose": 100, "MatroseMotorwart": 260}), law, OLD, "t")
    q = read_otherwise(totals, law, OLD, counts_as=("MatroseMotorwart", "Matrose"))
    assert q.sailing_days["Matrose"] == 360 and q.sailing_days["MatroseMotorwart"] == 260 and q.any_role_days == 360
    log = [{"from": "2024-01-01", "to": "2024-03-31", "role": "MatroseMotorwart"},
           {"from": "2024-03-15", "to": "2024-04-30", "role": "Matrose"}]
    logged = person_from_mapping({"id": "l", "birth_date": "1990-01-01", "service": log}, law, NOW, "t")
    q = read_otherwise(logged, law, NOW, counts_as=("MatroseMotorwart", "Matrose"))
    assert logged.sailing_days["Matrose"] == 30 and q.sailing_days["Matrose"] == 121 == q.any_role_days


def test_the_law_under_the_other_reading_lacks_only_what_gives_way():
    law = load_law()
    rd = eligibility_readings(law)[LEHRVERTRAG]
    other = law_under(law, rd)
    w = "Pathway-SchBV2022-P47-Abs4-Niedriger-Leichtmatrose"
    assert set(law.pathways[w].requirements) - set(other.pathways[w].requirements) == set(rd.replaced)
    assert other.pathways["Pathway-SchBV2022-P11"] == law.pathways["Pathway-SchBV2022-P11"]
    assert law_under(law, rd) is other  # remembered per law


# --- the readings are data ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rid", [FAHRZEITEN, LEHRVERTRAG, MOTORWART, PER_PERSON])
def test_each_reading_is_a_kb_resource_with_both_readings_and_notes_in_german_and_english(rid):
    g = load_graph()
    s = KB[rid]
    assert (s, RDF.type, CREW.Reading) in g
    assert {o.language for o in g.objects(s, SKOS.editorialNote) if isinstance(o, Literal)} >= {"de", "en"}
    for p in (CREW.appliedReading, CREW.otherReading):
        assert {o.language for o in g.objects(s, p)} == {"de", "en"}
    assert rid in eligibility_readings(load_law())


def test_the_eligibility_readings_are_not_readings_of_the_minimum_crew_law():
    from crewkg.manning.compile import load_manning

    assert not set(load_manning(load_law()).readings) & set(eligibility_readings(load_law()))


def test_removing_a_reading_from_the_kb_removes_it_from_the_answer(tmp_path, monkeypatch):
    """The engine names no reading: without the kb resource the requirement that gave way stays as the reading applied,
    and the answer states no other reading."""
    import shutil

    from crewkg.locations import kb_dir

    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    f = kb / "schbv2022" / "05_uebergang_befaehigungen.ttl"
    f.write_text(f.read_text(encoding="utf-8").replace(f"kb:{FAHRZEITEN} a crew:Reading ;", f"kb:{FAHRZEITEN} a skos:Concept ;"),
                 encoding="utf-8")
    monkeypatch.setenv("CREWKG_KB", str(kb))
    a = answer(holder("Steuermann", sailing_days={"Bootsmann": 540}))
    assert reading(a, FAHRZEITEN) is None
    assert pathway(a, "UBZ-Bootsmann", "§ 47 Abs. 4 letzter Satz SchBV")["satisfied"] is False
