"""SchBesV 2004 (BGBl. II Nr. 518/2004) on the dates it governed (1 Jan 2005 – 16 Jan 2022): the qualifications of
§ 4 Abs. 2 Z 1–11 as certificates with pathways, evaluated by the same program, at every threshold of the kb's
rules; the switch to the SchBV on 17 Jan 2022; and held legacy qualifications, which fill their roles until
17 Jan 2032 (§ 47 Abs. 2 SchBV) and no longer on 18 Jan 2032."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirement
from crewkg.manning.rosters import check_roster
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping
from crewkg.records.persons import person_from_mapping
from crewkg.records.reading import read_mapping
from crewkg.rules.validity import counts

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
MEDICAL = {"valid_until": "2030-12-31"}


def answer(law, record: dict[str, Any], on: str) -> dict[str, Any]:
    day = date.fromisoformat(on)
    person = person_from_mapping({"id": "p", **record}, law, day, "test")
    return check(law, [person], day)[0]


def eligible(law, record: dict[str, Any], on: str) -> set[str]:
    return {c["id"] for c in answer(law, record, on)["certificates"] if c.get("eligible")}


def pathway(a: dict[str, Any], cert: str, provision: str) -> dict[str, Any]:
    c = next(c for c in a["certificates"] if c["id"] == cert)
    return next(w for w in c["pathways"] if w["provision"] == provision)


# --- which law answers ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("on, regulation", [
    ("2004-12-31", None), ("2005-01-01", "SchBesV 2004"), ("2015-06-01", "SchBesV 2004"),
    ("2022-01-16", "SchBesV 2004"), ("2022-01-17", "SchBV 2022"),
], ids=["before 1 Jan 2005: not covered", "§ 19 Abs. 1 SchBesV: in force on 1 Jan 2005", "2015: SchBesV 2004",
        "16 Jan 2022: last day of the SchBesV 2004", "17 Jan 2022: the SchBV"])
def test_the_regulation_in_force_answers(law, on, regulation):
    a = answer(law, {"birth_date": "1980-01-01", "medical_fitness": MEDICAL}, on)
    assert a["regulation"] == regulation and a["covered"] is (regulation is not None)
    ids = {c["id"] for c in a["certificates"]}
    if regulation == "SchBesV 2004":
        assert ids == {"SchBesV2004-Decksmann", "SchBesV2004-Leichtmatrose", "SchBesV2004-Matrose",
                       "SchBesV2004-MatroseMotorwart", "SchBesV2004-Bootsmann", "SchBesV2004-Steuermann",
                       "Kapitaenspatent-A", "Kapitaenspatent-B", "SchBesV2004-Maschinist", "SchBesV2004-Fahrgastbetreuer",
                       "SchBesV2004-FahrgastErsthelfer", "SchBesV2004-Atemschutzgeraetetraeger"}
        assert "SchBesV2004-Decksmann" in eligible(law, {"birth_date": "1980-01-01", "medical_fitness": MEDICAL}, on)
    elif regulation == "SchBV 2022":
        assert not any(i.startswith("SchBesV2004") for i in ids) and "UBZ-Decksmann" in ids


# --- the birthdays ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cert, record, day_before, birthday", [
    ("SchBesV2004-Decksmann", {"birth_date": "1990-06-01"}, "2008-05-31", "2008-06-01"),
    ("SchBesV2004-Leichtmatrose", {"birth_date": "1995-06-01", "apprenticeship": {"contract": True, "year": 1}},
     "2010-05-31", "2010-06-01"),
    ("SchBesV2004-Matrose", {"birth_date": "1990-06-01", "sailing_days": {"Decksmann": 180}}, "2009-05-31", "2009-06-01"),
    ("SchBesV2004-Maschinist", {"birth_date": "1990-06-01", "functions": ["SchiffsmaschinenwaerterUeber1000kW"]},
     "2008-05-31", "2008-06-01"),
], ids=["§ 4 Abs. 2 Z 1 SchBesV: Decksmann at 18", "§ 4 Abs. 2 Z 2 SchBesV: Leichtmatrose at 15",
        "§ 4 Abs. 2 Z 3 SchBesV: Matrose at 19", "§ 4 Abs. 2 Z 8 SchBesV: Maschinist at 18"])
def test_a_qualification_is_issuable_on_the_birthday_not_the_day_before(law, cert, record, day_before, birthday):
    record = record | {"medical_fitness": MEDICAL}
    assert cert not in eligible(law, record, day_before)
    assert cert in eligible(law, record, birthday)
    missing = _only_pathway(answer(law, record, day_before), cert)["missing"]
    assert [(m["kind"], m["reached_on"]) for m in missing] == [("MinimumAge", birthday)]


def _only_pathway(a: dict[str, Any], cert: str) -> dict[str, Any]:
    return next(c for c in a["certificates"] if c["id"] == cert)["pathways"][0]


# --- days of Fahrzeit (§ 3 Abs. 6: one year = 180 Fahrtage) ----------------------------------------------------------
@pytest.mark.parametrize("cert, role, needed", [
    ("SchBesV2004-Matrose", "Decksmann", 180), ("SchBesV2004-Bootsmann", "Matrose", 360),
    ("SchBesV2004-Steuermann", "Bootsmann", 180),
], ids=["§ 4 Abs. 2 Z 3 SchBesV: 180 days as Decksmann", "§ 4 Abs. 2 Z 5 lit. b SchBesV: 360 days as Matrose",
        "§ 4 Abs. 2 Z 6 SchBesV: 180 days as Bootsmann"])
def test_the_days_served_in_the_role_reach_one_year_at_180(law, cert, role, needed):
    base = {"birth_date": "1980-01-01", "medical_fitness": MEDICAL}
    short = answer(law, base | {"sailing_days": {role: needed - 1}}, "2015-06-01")
    assert cert not in {c["id"] for c in short["certificates"] if c["eligible"]}
    assert cert in eligible(law, base | {"sailing_days": {role: needed}}, "2015-06-01")


def test_only_days_as_decksmann_count_for_the_matrose(law):
    """LITERAL (§ 4 Abs. 2 Z 3 SchBesV: 'eine Fahrzeit als Decksmann'): 180 days as Leichtmatrose do not count."""
    record = {"birth_date": "1980-01-01", "medical_fitness": MEDICAL, "sailing_days": {"Leichtmatrose": 400}}
    a = answer(law, record, "2015-06-01")
    missing = _only_pathway(a, "SchBesV2004-Matrose")["missing"]
    assert [(m["provision"], m["needed"], m["have"]) for m in missing] == [("§ 4 Abs. 2 Z 3 SchBesV", 180, 0)]


def test_the_matrose_needs_the_medical_report_of_paragraph_5(law):
    a = answer(law, {"birth_date": "1980-01-01", "sailing_days": {"Decksmann": 180}}, "2015-06-01")
    missing = _only_pathway(a, "SchBesV2004-Matrose")["missing"]
    assert [(m["provision"], m["kind"]) for m in missing] == [("§ 5 Abs. 1 SchBesV", "AnyOf")]
    # the report (§ 5 Abs. 1) or the confirmation of an employment before 1 Jan 2005 (§ 18 Abs. 2)
    assert [(x["provision"], x["kind"]) for x in missing[0]["alternatives"]] == [
        ("§ 5 Abs. 1 SchBesV", "Document"), ("§ 18 Abs. 2 SchBesV", "DatedProof")]


def test_the_bootsmann_by_apprenticeship_needs_36_months_with_180_days_within(law):
    prog = {"for": "Leichtmatrose", "months": 36, "sailing_days": 180}
    base = {"birth_date": "1990-01-01", "medical_fitness": MEDICAL}
    a = answer(law, base | {"programmes": [prog]}, "2015-06-01")
    assert pathway(a, "SchBesV2004-Bootsmann", "§ 4 Abs. 2 Z 5 lit. a SchBesV")["satisfied"] is True
    short = answer(law, base | {"programmes": [prog | {"months": 35}]}, "2015-06-01")
    assert pathway(short, "SchBesV2004-Bootsmann", "§ 4 Abs. 2 Z 5 lit. a SchBesV")["satisfied"] is False
    few = answer(law, base | {"programmes": [prog | {"sailing_days": 179}]}, "2015-06-01")
    assert pathway(few, "SchBesV2004-Bootsmann", "§ 4 Abs. 2 Z 5 lit. a SchBesV")["satisfied"] is False


def test_the_matrosen_motorwart_needs_the_matrose_and_a_dkbg_qualification(law):
    base = {"birth_date": "1980-01-01", "medical_fitness": MEDICAL, "certificates": ["SchBesV2004-Matrose"]}
    assert "SchBesV2004-MatroseMotorwart" not in eligible(law, base, "2015-06-01")
    assert "SchBesV2004-MatroseMotorwart" in eligible(law, base | {"functions": ["Schiffsmaschinenwaerter"]}, "2015-06-01")
    none = {"birth_date": "1980-01-01", "medical_fitness": MEDICAL, "functions": ["Schiffsmaschinenwaerter"]}
    assert "SchBesV2004-MatroseMotorwart" not in eligible(law, none, "2015-06-01")


# --- dated proofs: instructions not older than five years, yearly exercises -----------------------------------------
@pytest.mark.parametrize("cert, exams, last_day", [
    ("SchBesV2004-Fahrgastbetreuer", [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2010-06-01"}], "2015-06-01"),
    ("SchBesV2004-FahrgastErsthelfer", [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2012-01-01"},
                                        {"id": "Unterweisung-Sofortmassnahmen", "passed": "2010-06-01"}], "2015-06-01"),
    ("SchBesV2004-Atemschutzgeraetetraeger", [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2012-01-01"},
                                              {"id": "Uebung-Atemschutz", "passed": "2014-06-01"},
                                              {"id": "Gutachten-Atemschutz", "passed": "2014-07-01"}], "2015-06-01"),
], ids=["§ 4 Abs. 2 Z 9 SchBesV: instruction counts five years", "§ 4 Abs. 2 Z 10 SchBesV: first-aid instruction five years",
        "§ 4 Abs. 2 Z 11 SchBesV: the exercise counts one year"])
def test_a_dated_proof_counts_up_to_the_same_day_later_and_lapses_the_day_after(law, cert, exams, last_day):
    record = {"birth_date": "1980-01-01", "exams": exams}
    assert cert in eligible(law, record, last_day)
    after = date.fromordinal(date.fromisoformat(last_day).toordinal() + 1).isoformat()
    a = answer(law, record, after)
    assert cert not in {c["id"] for c in a["certificates"] if c["eligible"]}
    missing = _only_pathway(a, cert)["missing"]
    assert [m["kind"] for m in missing] == ["DatedProof"] and missing[0]["have"] == []


def test_a_proof_taken_after_the_evaluation_date_does_not_count(law):
    record = {"birth_date": "1980-01-01", "exams": [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2015-06-02"}]}
    assert "SchBesV2004-Fahrgastbetreuer" not in eligible(law, record, "2015-06-01")
    assert "SchBesV2004-Fahrgastbetreuer" in eligible(law, record, "2015-06-02")


# --- held legacy qualifications (§ 47 Abs. 2 SchBV) ------------------------------------------------------------------
@pytest.mark.parametrize("on, roles", [
    ("2015-06-01", ["Decksmann", "Leichtmatrose", "Matrose"]), ("2026-11-30", ["Decksmann", "Leichtmatrose", "Matrose"]),
    ("2032-01-17", ["Decksmann", "Leichtmatrose", "Matrose"]), ("2032-01-18", []),
], ids=["2015: under the SchBesV", "2026: kept by § 47 Abs. 2 SchBV", "17 Jan 2032: the last day it counts",
        "18 Jan 2032: no longer"])
def test_a_legacy_matrose_fills_its_roles_until_17_january_2032(law, on, roles):
    # 60 in 2031: from then § 22 Abs. 1 SchBV asks a medical proof of a kept qualification too (a reading of the kb,
    # tests/cases/schbv2022_47_tauglichkeit.yaml); one stated without dates is taken as stated
    a = answer(law, {"birth_date": "1971-08-09", "medical_fitness": True, "certificates": ["SchBesV2004-Matrose"]}, on)
    assert a["roles"] == roles


def test_the_end_date_is_data_with_its_provision(law):
    c = law.certificates["SchBesV2004-Matrose"]
    assert c.valid_until == date(2032, 1, 17) and law.citation(c.validity_provision) == "§ 47 Abs. 2 SchBV"
    holder = person_from_mapping({"id": "rosa", "certificates": ["SchBesV2004-Matrose"]}, law, date(2032, 1, 18), "test")
    assert counts(holder, law, "SchBesV2004-Matrose", date(2032, 1, 17))
    assert not counts(holder, law, "SchBesV2004-Matrose", date(2032, 1, 18))
    notes = law.provisions["SchBV2022-P47-Abs2"].notes
    assert set(notes) == {"de", "en"} and any("17 Jan 2032" in n for n in notes["en"])
    assert law.citation(law.certificates["Kapitaenspatent-B"].validity_provision) == "§ 47 Abs. 6 SchBV"


# --- rosters by date --------------------------------------------------------------------------------------------------
def _roster(vessel: dict[str, Any], crew: list[dict[str, Any]], on: str) -> dict[str, Any]:
    law = load_law()
    ml = load_manning(law)
    day = date.fromisoformat(on)
    req = requirement(law, ml, vessel_from_mapping({"id": "v", **vessel}, ml, "v"), day, False, "de")
    return check_roster(law, ml, req, roster_from_mapping({"crew": crew}, law, day, "roster"), "de")


CONVOY = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 180, "breadth_m": 22.8, "standard": "S2",
          "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 2}}
SMALL = {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 25, "passengers": 70, "standard": "S1",
         "engine_kw": 200}


def _p(pid: str, *certs: str, **kw: Any) -> dict[str, Any]:
    return {"id": pid, "birth_date": "1975-01-01", "certificates": list(certs), **kw}


def test_a_2015_roster_is_filled_with_schbesv_qualifications_and_a_kapitaenspatent(law):
    """SchBesV 2004 § 13 Stufe 4 S2 (pusher + 2 lighters): Schiffsführer, Steuermann, two Leichtmatrosen."""
    crew = [_p("sf", "Kapitaenspatent-B", functions=["FirstAid"]), _p("st", "SchBesV2004-Steuermann", functions=["FirstAid"]),
            _p("l1", "SchBesV2004-Leichtmatrose"), _p("l2", "SchBesV2004-Leichtmatrose")]
    r = _roster(CONVOY, crew, "2015-06-01")
    assert r["satisfied"] is True, r["missing"]
    assert r["assignment"]["sf"][0] == "Schiffsfuehrer" and r["assignment"]["st"][0] == "Steuermann"
    without = _roster(CONVOY, [_p("sf", functions=["FirstAid"]), *crew[1:]], "2015-06-01")
    assert ("position", "Schiffsfuehrer") in [(m["kind"], m["role"]) for m in without["missing"]]


@pytest.mark.parametrize("on, ok", [("2032-01-17", True), ("2032-01-18", False)],
                         ids=["§ 47 Abs. 2 SchBV: the legacy Matrose counts on 17 Jan 2032", "not on 18 Jan 2032"])
def test_a_legacy_matrose_fills_the_matrose_position_until_17_january_2032(on, ok):
    crew = [_p("sf", "UBZ-Schiffsfuehrer", functions=["FirstAid"]), _p("ma", "SchBesV2004-Matrose", functions=["FirstAid"]),
            _p("sk", "UBZ-SachkundigerFahrgastschifffahrt"), _p("eh", functions=["FahrgastErsthelfer"])]
    r = _roster(SMALL, crew, on)
    assert r["satisfied"] is ok
    if not ok:
        assert ("position", "Matrose") in [(m["kind"], m["role"]) for m in r["missing"]]


def test_a_legacy_matrose_is_no_qualification_issued_after_17_january_2022_for_the_engine_rule():
    """§ 41 Abs. 5 / § 43 Abs. 9 SchBV accept 'eine nach dem 17. Jänner 2022 erteilte Befähigung zumindest als Matrose'
    besides the Matrosen-Motorwart of SchBesV 2004: the legacy Matrose qualification is neither."""
    vessel = SMALL | {"engine_kw": 800}
    # the Schiffsführer holds a Kapitänspatent (kept by § 47 Abs. 6 SchBV), no UBZ: he does not count either
    base = [_p("sf", "Kapitaenspatent-B", functions=["FirstAid"]), _p("sk", "UBZ-SachkundigerFahrgastschifffahrt"),
            _p("eh", functions=["FahrgastErsthelfer"])]
    legacy = _roster(vessel, [*base, _p("ma", "SchBesV2004-Matrose", functions=["FirstAid"])], "2026-11-30")
    assert [m["role"] for m in legacy["missing"] if m["kind"] == "qualification"] == ["MatroseMotorwart"]
    motorwart = _roster(vessel, [*base, _p("ma", "SchBesV2004-MatroseMotorwart", functions=["FirstAid"])], "2026-11-30")
    assert motorwart["satisfied"] is True, motorwart["missing"]
    ubz = _roster(vessel, [*base, _p("ma", "UBZ-Matrose", functions=["FirstAid"])], "2026-11-30")
    assert ubz["satisfied"] is True, ubz["missing"]


# --- the examples -----------------------------------------------------------------------------------------------------
def test_karl_of_2010_turns_19_and_becomes_eligible_as_matrose(law):
    path = EXAMPLES / "30-karl-matrose-2010.yaml"
    before = date(2010, 5, 19)
    on = date(2010, 5, 20)
    a_before = check(law, [person_from_mapping(read_mapping(path), law, before, str(path))], before)[0]
    a_on = check(law, [person_from_mapping(read_mapping(path), law, on, str(path))], on)[0]
    assert a_before["regulation"] == a_on["regulation"] == "SchBesV 2004"
    assert "SchBesV2004-Matrose" not in {c["id"] for c in a_before["certificates"] if c["eligible"]}
    matrose = next(c for c in a_on["certificates"] if c["id"] == "SchBesV2004-Matrose")
    assert matrose["eligible"] is True and matrose["eligible_since"] == "2010-05-20"
    year = next(r for r in matrose["pathways"][0]["requirements"] if r["id"] == "Req-SchBesV2004-P4-Abs2-Z3-fahrzeit")
    days = next(r for r in year["alternatives"] if r["kind"] == "Fahrzeit")  # the inland year (§ 3 Abs. 6), not the sea one
    assert (days["have"], days["recorded"], days["capped"]) == (180, 214, 34)
    assert a_on["roles"] == ["Decksmann"]


@pytest.mark.parametrize("lang, words", [("de", "nicht ausstellbar"), ("en", "cannot be issued")])
def test_the_cli_answers_under_the_schbesv_in_both_languages(lang, words):
    result = CliRunner().invoke(app, ["check", str(EXAMPLES / "30-karl-matrose-2010.yaml"), "--as-of", "2010-05-19",
                                      "--lang", lang, "--all"])  # every qualification with every pathway
    assert result.exit_code == 0, result.output
    assert "SchBesV 2004" in result.output and "§ 4 Abs. 2 Z 3 SchBesV" in result.output and words in result.output
    data = json.loads(CliRunner().invoke(app, ["check", str(EXAMPLES / "30-karl-matrose-2010.yaml"), "--as-of",
                                               "2010-05-19", "--format", "json"]).output)
    assert data["regulation"] == "SchBesV 2004"


def test_the_readings_are_recorded_in_both_languages(law):
    for pid in ("SchBesV2004-P4-Abs1", "SchBesV2004-P4-Abs2", "SchBesV2004-P4-Abs2-Z5-a", "SchBesV2004-P4-Abs2-Z9",
                "SchBesV2004-P4-Abs2-Z10", "SchBesV2004-P4-Abs2-Z11", "SchBesV2004-P5-Abs1", "SchBV2022-P47-Abs2"):
        assert set(law.provisions[pid].notes) == {"de", "en"}, pid
    for rid in ("Req-SchBesV2004-P4-Abs2-Z3-fahrzeit", "Req-SchBesV2004-P4-Abs2-Z4-matrose", "Req-SchBesV2004-P4-Abs2-Z4-dkbg"):
        assert set(law.requirements[rid].notes) == {"de", "en"}, rid


@pytest.mark.parametrize("day, fills", [("2011-02-28", False), ("2011-03-01", True), ("2022-01-16", True)])
def test_a_role_reached_through_the_hierarchy_asks_the_age_of_the_law_in_force(tmp_path, day, fills):
    """§ 4 Abs. 2 Z 3 SchBesV 2004: a Matrose is 19; a Bootsmann of 18 reaches the Matrose's role only on the 19th
    birthday (kb:RoleHierarchy: the age the role's own qualification asks under the regulation in force)."""
    import json

    from typer.testing import CliRunner

    from crewkg.cli import app

    f = tmp_path / "hans.yaml"
    f.write_text("id: hans\nbirth_date: 1992-03-01\ncertificates: [SchBesV2004-Bootsmann]\n")
    out = json.loads(CliRunner().invoke(app, ["check", str(f), "--as-of", day, "--format", "json"]).stdout)
    assert out["regulation"] == "SchBesV 2004"
    assert ("Matrose" in out["roles"]) is fills and "Bootsmann" in out["roles"]
    assert [w["role"] for w in out.get("roles_withheld", [])] == ([] if fills else ["Matrose"])


@pytest.mark.parametrize("day, fills", [("2015-06-01", True), ("2019-06-01", True), ("2019-06-02", False)])
def test_the_passenger_attendant_of_2004_is_held_by_the_dated_instruction(tmp_path, day, fills):
    """§ 4 Abs. 2 Z 9 SchBesV 2004: 18 years and an instruction not longer than five years back — the written proof is
    the qualification (crew:heldByProof), so the role follows from the record on each day, without being stated."""
    import json

    from typer.testing import CliRunner

    from crewkg.cli import app

    f = tmp_path / "mia.yaml"
    f.write_text("id: mia\nbirth_date: 1990-03-30\nexams: [{id: Unterweisung-Fahrgastbetreuer, passed: 2014-06-01}]\n")
    out = json.loads(CliRunner().invoke(app, ["check", str(f), "--as-of", day, "--format", "json"]).stdout)
    assert ("Fahrgastbetreuer" in out["roles"]) is fills


#: § 14 Abs. 4 SchBesV: a passenger vessel sailing without passengers is manned under § 12 (its table is missing from
#: the sources); § 14 Abs. 8 still asks, on waterways, a Matrosen-Motorwart (Maschinist) 'gemäß Abs. 1 oder Abs. 4 mit
#: Ausnahme des oder der Schiffsführer'
EMPTY = {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 40, "breadth_m": 6, "passengers": 200,
         "passengers_on_board": 0, "standard": "S1", "engine_kw": 500}


def _engine_rule(r: dict[str, Any], provision: str) -> dict[str, Any] | None:
    return next((q for q in r.get("qualifications", []) if q["provision"] == provision), None)


@pytest.mark.parametrize("vessel, holder", [
    (EMPTY, "SchBesV2004-MatroseMotorwart"),
    (EMPTY | {"kind": "cabin_passenger", "beds": 120, "engine_kw": 1500}, "SchBesV2004-Maschinist"),
], ids=["day-trip vessel without passengers, 500 kW", "cabin vessel without passengers, 1500 kW"])
def test_on_a_passenger_vessel_without_passengers_the_schiffsfuehrer_is_not_the_engine_qualified_member(vessel, holder):
    only_sf = [_p("sf", "UBZ-Schiffsfuehrer", holder, functions=["FirstAid"]), _p("m", "SchBesV2004-Matrose", functions=["FirstAid"])]
    r = _roster(vessel, only_sf, "2015-06-01")
    assert r["satisfied"] is False, r
    assert [m["provision"] for m in r["missing"] if m["kind"] == "qualification"] == ["§ 14 Abs. 8 SchBesV"]
    assert _engine_rule(r, "§ 14 Abs. 8 SchBesV")["have"] == []
    # § 12 Abs. 4 alone would let the Schiffsführer hold it
    assert _engine_rule(r, "§ 12 Abs. 4 SchBesV")["met"] is True
    # a Matrose who holds it: the table is still missing, so undecided, never satisfied
    other = [_p("sf", "UBZ-Schiffsfuehrer", functions=["FirstAid"]), _p("m", "SchBesV2004-Matrose", holder, functions=["FirstAid"])]
    assert _roster(vessel, other, "2015-06-01")["satisfied"] is None


def test_the_rule_of_paragraph_14_abs_8_is_named_beside_the_missing_table(law):
    from crewkg.manning.crew import crew_answer

    ml = load_manning(law)

    def answer(vessel: dict[str, Any]) -> dict[str, Any]:
        return crew_answer(law, ml, vessel_from_mapping({"id": "v", **vessel}, ml, "v"), date(2015, 6, 1), None, False, "en")

    a = answer(EMPTY)
    assert a["covered"] is False
    assert "§ 14 Abs. 8 SchBesV" in [r["provision"] for r in a["known_rules"]]
    # with one passenger on board the vessel is manned under § 14 Abs. 1, not § 12
    assert "§ 12 Abs. 4 SchBesV" not in json.dumps(answer(EMPTY | {"passengers_on_board": 1}))


@pytest.mark.parametrize("lang, words, not_words", [
    ("de", "fehlt: erfolgreich abgeschlossene dreijährige Lehre im Lehrberuf Binnenschifffahrt (36 Monate) "
           "(vorhanden: 0 Monate)", "zugelassenes Ausbildungsprogramm"),
    ("en", "missing: completed three-year apprenticeship in inland navigation (36 months) (has 0 months)",
     "approved programme")])
def test_the_apprenticeship_of_z5_lit_a_is_said_as_one_not_as_an_approved_programme(law, lang, words, not_words):
    """§ 4 Abs. 2 Z 5 lit. a SchBesV asks a completed three-year apprenticeship (Z 2), not a programme approved
    under § 132 SchFG (the SchBV's term)."""
    from crewkg.rules.kinds import missing_sentence

    a = check(law, [person_from_mapping({"id": "p", "birth_date": "1990-01-01", "medical_fitness": MEDICAL}, law,
                                        date(2011, 6, 1), "test")], date(2011, 6, 1), lang)[0]
    lit_a = next(w for c in a["certificates"] if c["id"] == "SchBesV2004-Bootsmann" for w in c["pathways"]
                 if w["provision"] == "§ 4 Abs. 2 Z 5 lit. a SchBesV")
    said = [missing_sentence(law, m, lang) for m in lit_a["missing"] if m["kind"] == "Programme"]
    assert said and said[0].startswith(words) and not_words not in said[0]


@pytest.mark.parametrize("on", ["2010-12-14", "2010-12-15", "2022-01-16"])
def test_the_bundled_row_of_paragraph_14_abs_1_z_2_governs_on_every_date_and_the_2010_wording_is_the_other_reading(on):
    """The bundled table has 'Unter 20 m Länge' for any number of passengers, and rows by the number of passengers
    without a length: read as Stufe 1 of Z 1 is (H.8), the length row governs every vessel below 20 m, so a 19.99 m
    vessel with 200 on board needs one Fahrgast-Ersthelfer and no Fahrgastbetreuer — on every date, as the bundled
    text governs where a source outside it disagrees (§ 13 Abs. 1 Stufe 5 alike). From 15 Dec 2010 the row reported
    for BGBl. II Nr. 420/2010 ('unter 20 m Länge und bis 75 Fahrgäste') is stated as the other reading, with the row
    of 76–300 passengers it would take; not before that day."""
    law = load_law()
    ml = load_manning(law)
    vessel = {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 19.99, "breadth_m": 5, "passengers": 200,
              "standard": "S1", "engine_kw": 100}
    a = requirement(law, ml, vessel_from_mapping({"id": "v", **vessel}, ml, "v"), date.fromisoformat(on), False, "en").answer
    assert a["covered"] is True and a["function_row"] == "Unter 20 m Länge | - | 1"
    assert a["functions"]["Fahrgastbetreuer"] == 0 and a["functions"]["FahrgastErsthelfer"] == 1
    assert any(n.startswith("INTERPRETATION (as review flag H.8") for n in a["notes"]), a["notes"]
    other = [r for r in a.get("readings", []) if r["id"] == "SchBesV2004-P14-Abs1-Z2-Reading-Amendment2010"]
    if on < "2010-12-15":
        assert other == []
    else:
        assert other and other[0]["differs"] is True and "420/2010" in other[0]["other"], other
        assert other[0]["under_other_reading"]["function_row"] == "76 bis 300 Fahrgäste | 2 | 1"


@pytest.mark.parametrize(("cert", "on", "said"), [
    ("UBZ-Matrose", "2015-06-01", True),
    ({"id": "UBZ-Matrose", "issued": "2022-05-01"}, "2022-06-01", False),
    ("UBZ-Matrose", "2022-01-17", False),
    ("SchBesV2004-Matrose", "2015-06-01", False)])
def test_an_undated_union_certificate_before_the_schbv_is_counted_and_said(law, cert, on, said):
    """A UBZ named without an issue date on a day before the SchBV 2022 issued any (17 Jan 2022, crew:certificatesIssuedFrom)
    still gives its role, read as the SchBesV qualification (kb:SchBesV2004-P4-Abs1); the answer says the date cannot
    have it. From 17 Jan 2022, or with an issue date, or for a qualification of the SchBesV itself, nothing is said."""
    a = answer(law, {"id": "x", "birth_date": "1980-01-01", "certificates": [cert], "medical_fitness": True}, on)
    assert "Matrose" in a["roles"]
    assert bool(a.get("undated_early")) is said
    if said:
        (x,) = a["undated_early"]
        assert (x["certificate"], x["regulation"], x["from"], x["read_under"]) == (
            "UBZ-Matrose", "SchBV 2022", "2022-01-17", "SchBesV 2004")
