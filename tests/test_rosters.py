"""Roster checks: who fills which position and function, through certificates, the role hierarchy and the
substitutions with their conditions; and, where a roster fails, exactly what is missing and who almost qualifies."""

from __future__ import annotations

from datetime import date
from functools import cache
from typing import Any

import pytest

from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirement
from crewkg.manning.rosters import check_roster
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping

NOW = date(2026, 11, 30)
OLD = date(2015, 6, 1)

VESSELS: dict[str, dict[str, Any]] = {
    # § 43 Abs. 2 Z 1 Stufe 3 S1: SF, M, LM; 1 Sachkundige, 1 Ersthelfer (76–250 on board); first aid 2; engine: Motorwart
    "wachau": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5, "passengers": 300, "passengers_on_board": 250,
               "standard": "S1", "engine_kw": 800},
    # § 43 Abs. 2 Z 1 Stufe 2 S1: SF, M; 1 Sachkundige, 1 Ersthelfer; no engine rule
    "small": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 25, "passengers": 70, "standard": "S1", "engine_kw": 200},
    # § 43 Abs. 2 Z 1 Stufe 4 S1: SF, StM, BM; Stufe 5 S2: SF, StM, M, LM (footnote 1)
    "stufe4": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 70, "passengers": 500, "passengers_on_board": 75,
               "standard": "S1", "engine_kw": 200},
    "stufe5s2": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 80, "passengers": 900, "passengers_on_board": 75,
                 "standard": "S2", "engine_kw": 200},
    # § 43 Abs. 3 Z 1 Stufe 1: SF, D; 201–300 on board: 1 Fahrgastbetreuer, 1 Ersthelfer; first aid 1
    "lake": {"kind": "day_trip_passenger", "waters": "other", "length_m": 30, "passengers": 250, "standard": "S1", "engine_kw": 200},
    # § 43 Abs. 3 Z 1 with the mooring reduction: SF alone; 1 Ersthelfer (may be the SF)
    "alone": {"kind": "day_trip_passenger", "waters": "other", "length_m": 18, "passengers": 50, "standard": "S1", "engine_kw": 100,
              "mooring_system": True},
    # § 43 Abs. 4 Stufe 3 S1 (two alternatives); 1 Sachkundige, 2 Ersthelfer, 2 Atemschutz; Maschinist
    "cabin": {"kind": "cabin_passenger", "waters": "waterway", "length_m": 135, "passengers": 190, "passengers_on_board": 150,
              "beds": 190, "standard": "S1", "engine_kw": 2000},
    # LNG day-trip Stufe 2 S1: SF (LNG expert), M
    "lng": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 30, "passengers": 70, "standard": "S1", "engine_kw": 300,
            "lng": True},
    # SchBesV 2004 § 13 Stufe 4 S2 (pusher + 2): SF, StM, 2 LM (footnote *1); Stufe 5 S2: SF, StM, 2 M, LM
    "convoy4": {"kind": "pushed_convoy", "waters": "waterway", "length_m": 180, "breadth_m": 22.8, "standard": "S2", "engine_kw": 300,
                "convoy": {"propelled_by": "pusher", "barges": 2}},
    "convoy5": {"kind": "pushed_convoy", "waters": "waterway", "length_m": 188, "breadth_m": 22.8, "standard": "S2", "engine_kw": 300,
                "convoy": {"propelled_by": "pusher", "barges": 4}},
    # SchBesV 2004 § 15: below S1 (lit. d): § 14 Abs. 1 Stufe 2 S1 plus one Matrose
    "below": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 24, "passengers": 70, "standard": "none", "s1_unmet": ["d"],
              "engine_kw": 200},
    "motor": {"kind": "motor_vessel", "waters": "waterway", "length_m": 110, "standard": "S2", "engine_kw": 1200},
    # below S1 under the SchBV: § 44 (not in the sources), but the § 43 Abs. 2 Z 2 row (76-250 on board) still holds
    "wachau-none": {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 25, "passengers": 200,
                    "passengers_on_board": 100, "standard": "none", "engine_kw": 300},
}


@cache
def _req(name: str, as_of: date, temporary: frozenset[str] = frozenset(), lang: str = "de"):
    law = load_law()
    ml = load_manning(law)
    return law, ml, requirement(law, ml, vessel_from_mapping({"id": name, **VESSELS[name]}, ml, name), as_of, temporary, lang)


def check(vessel: str, crew: list[dict[str, Any]], as_of: date = NOW, temporary: frozenset[str] = frozenset(),
          lang: str = "de") -> dict[str, Any]:
    law, ml, req = _req(vessel, as_of, temporary, lang)
    persons = roster_from_mapping({"crew": crew}, law, as_of, "roster")
    return check_roster(law, ml, req, persons, lang)


def P(pid: str, born: str, *certs: str, **kw: Any) -> dict[str, Any]:
    return {"id": pid, "birth_date": born, "certificates": list(certs), **kw}


SF = P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid"])
SF_PLAIN = P("sf", "1975-01-01", "UBZ-Schiffsfuehrer")
MATROSE = P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid"])
SACHKUNDIG = P("sk", "1985-01-01", "UBZ-SachkundigerFahrgastschifffahrt")
ERSTHELFER = P("eh", "1999-01-01", functions=["FahrgastErsthelfer"])
LM_YOUNG = P("lm", "2010-05-01", "UBZ-Leichtmatrose", apprenticeship={"contract": True, "year": 1})


def apprentice(pid: str, born: str, year: int = 3, days: int = 180) -> dict[str, Any]:
    return P(pid, born, "UBZ-Leichtmatrose", apprenticeship={"contract": True, "year": year}, sailing_days={"Leichtmatrose": days})


def missing(r: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["kind"], m["role"]) for m in r["missing"]]


def via(r: dict[str, Any], person: str) -> list[tuple[str, str, str | None]]:
    return [(d["role"], d["via"], d.get("substitution")) for d in r["details"] if d["person"] == person]


# --- a full roster, by certificates ------------------------------------------------------------------------------------
def test_a_full_crew_by_certificate_satisfies_paragraph_43_Abs_2():
    r = check("wachau", [SF, MATROSE | {"functions": ["FirstAid", "MatroseMotorwart"]}, LM_YOUNG, SACHKUNDIG, ERSTHELFER])
    assert r["satisfied"] is True and r["missing"] == []
    assert r["assignment"]["sf"][0] == "Schiffsfuehrer" and r["assignment"]["ma"][0] == "Matrose"
    assert "SachkundigerFahrgastschifffahrt" in r["assignment"]["sk"] and "FahrgastErsthelfer" in r["assignment"]["eh"]


# --- § 43 Abs. 6: Leichtmatrose for Matrose, every condition at its threshold ---------------------------------------------
CREW_WITHOUT_MATROSE = [SF, LM_YOUNG, SACHKUNDIG | {"functions": ["FirstAid"]}, ERSTHELFER]


@pytest.mark.parametrize("sub, ok, lack", [
    (apprentice("lena", "2009-11-30"), True, None),                      # 17 on the evaluation day
    (apprentice("lena", "2009-12-01"), False, "16 Jahre alt"),           # 17 one day later
    (apprentice("lena", "2009-01-01", year=2), False, "im 2. Lehrjahr"),
    (apprentice("lena", "2009-01-01", days=179), False, "179 Tage Fahrzeit"),
    (apprentice("lena", "2009-01-01", days=180), True, None),
    (apprentice("lena", "2009-01-01") | {"apprenticeship": {"contract": False, "year": 3}}, False, "ohne Lehrvertrag"),
], ids=["§ 43 Abs. 6 SchBV: 17 on the day passes", "§ 43 Abs. 6 SchBV: one day short of 17 fails",
        "§ 43 Abs. 6 SchBV: second apprenticeship year fails", "§ 43 Abs. 6 SchBV: 179 days of Fahrzeit fail",
        "§ 43 Abs. 6 SchBV: 180 days of Fahrzeit pass",
        "§ 43 Abs. 6 SchBV: a third year without an apprenticeship contract is no Lehrjahr"])
def test_a_leichtmatrose_replaces_the_matrose_only_under_the_conditions_of_paragraph_43_Abs_6(sub, ok, lack):
    r = check("wachau", [*CREW_WITHOUT_MATROSE, sub])
    assert r["satisfied"] is ok
    if ok:
        assert ("Matrose", "substitution", "SchBV2022-P43-Abs6-Substitution-Matrose") in via(r, "lena")
    else:
        (gap,) = [m for m in r["missing"] if m["role"] == "Matrose"]
        assert gap["provision"] == "§ 43 Abs. 2 Z 1 SchBV"
        assert gap["accepts"]["substitutions"] == [{"by": "Leichtmatrose", "provision": "§ 43 Abs. 6 SchBV", "conditions": {
            "min_age": 17, "min_apprenticeship_year": 3, "min_fahrzeit_days": 180}}]
        assert any(lack in text for nm in gap["near_misses"] if nm["person"] == "lena" for text in nm["lacks"])


@pytest.mark.parametrize("service, ok", [
    ([{"from": "2026-01-01", "to": "2026-03-31", "role": "Leichtmatrose"},   # 90 days, logged in two roles
      {"from": "2026-01-01", "to": "2026-03-31", "role": "Decksmann"},
      {"from": "2026-04-01", "to": "2026-06-28", "role": "Leichtmatrose"}], False),  # 89 more: 179 Fahrtage
    ([{"from": "2026-01-01", "to": "2026-03-31", "role": "Leichtmatrose"},
      {"from": "2026-01-01", "to": "2026-03-31", "role": "Decksmann"},
      {"from": "2026-04-01", "to": "2026-06-29", "role": "Leichtmatrose"}], True)],   # 180 Fahrtage
    ids=["179 Fahrtage, 90 of them logged twice: fails", "180 Fahrtage, 90 of them logged twice: passes"])
def test_the_year_of_fahrzeit_of_paragraph_43_abs_6_counts_a_day_in_two_roles_once(service, ok):
    """'ein Jahr Fahrzeit': a service log's days in any role, each calendar day once (not the roles' counts added)."""
    lena = P("lena", "2009-01-01", "UBZ-Leichtmatrose", apprenticeship={"contract": True, "year": 3}, service=service)
    assert check("wachau", [*CREW_WITHOUT_MATROSE, lena])["satisfied"] is ok


def test_the_substitute_is_named_in_the_assignment_and_the_table_role_is_kept():
    r = check("wachau", [*CREW_WITHOUT_MATROSE, apprentice("lena", "2009-01-01")])
    assert r["assignment"]["lena"] == ["Matrose"]
    (d,) = [d for d in r["details"] if d["person"] == "lena"]
    assert (d["via"], d["as"], d["substitution_provision"]) == ("substitution", "Leichtmatrose", "§ 43 Abs. 6 SchBV")


# --- § 43 Abs. 6: Leichtmatrose for Decksmann, and the hierarchy step it governs --------------------------------------------
LAKE = [SF, P("fb", "1990-01-01", functions=["Fahrgastbetreuer"]), P("eh2", "1990-01-01", functions=["FahrgastErsthelfer"])]


def test_a_qualified_leichtmatrose_replaces_the_decksmann_on_a_lake_boat():
    r = check("lake", [*LAKE, apprentice("lena", "2009-01-01")])
    assert r["satisfied"] is True
    assert ("Decksmann", "substitution", "SchBV2022-P43-Abs6-Substitution-Decksmann") in via(r, "lena")


def test_an_unqualified_leichtmatrose_does_not_fill_the_decksmann_through_the_hierarchy_where_paragraph_43_Abs_6_governs():
    r = check("lake", [*LAKE, LM_YOUNG])
    assert r["satisfied"] is False and missing(r) == [("position", "Decksmann")]


def test_a_matrose_fills_the_decksmann_through_the_hierarchy():
    r = check("lake", [*LAKE, P("ma", "1990-01-01", "UBZ-Matrose")])
    assert r["satisfied"] is True and ("Decksmann", "hierarchy", None) in via(r, "ma")


def test_a_higher_certificate_fills_a_lower_position_but_not_the_other_way_round():
    up = check("stufe4", [SF, P("st1", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"]), P("st2", "1981-01-01", "UBZ-Steuermann"),
                          SACHKUNDIG, ERSTHELFER])
    assert up["satisfied"] is True and ("Bootsmann", "hierarchy", None) in via(up, "st1") + via(up, "st2")
    down = check("stufe4", [SF, P("bm1", "1980-01-01", "UBZ-Bootsmann", functions=["FirstAid"]), P("bm2", "1981-01-01", "UBZ-Bootsmann"),
                            SACHKUNDIG, ERSTHELFER])
    assert down["satisfied"] is False and missing(down) == [("position", "Steuermann")]


# --- footnotes: Decksmann for Leichtmatrose -------------------------------------------------------------------------------
def test_footnote_1_of_paragraph_43_Abs_2_lets_a_decksmann_take_the_leichtmatrose_of_stufe_5_S2():
    r = check("stufe5s2", [SF, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"]), MATROSE, P("dm", "1995-01-01", "UBZ-Decksmann"),
                           SACHKUNDIG, ERSTHELFER])
    assert r["satisfied"] is True
    assert ("Leichtmatrose", "substitution", "SchBV2022-P43-Abs2-Z1-Fn1-Substitution") in via(r, "dm")


def test_footnote_1_does_not_reach_stufe_3():
    r = check("wachau", [SF, MATROSE | {"functions": ["FirstAid", "MatroseMotorwart"]}, P("dm", "1995-01-01", "UBZ-Decksmann"), SACHKUNDIG, ERSTHELFER])
    assert r["satisfied"] is False and missing(r) == [("position", "Leichtmatrose")]


def test_footnote_1_of_paragraph_13_SchBesV_replaces_one_leichtmatrose_only():
    crew = [SF, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"])]
    one = check("convoy4", [*crew, P("d1", "1990-01-01", "UBZ-Decksmann"), P("lm", "1999-01-01", "UBZ-Leichtmatrose")], OLD)
    assert one["satisfied"] is True
    two = check("convoy4", [*crew, P("d1", "1990-01-01", "UBZ-Decksmann"), P("d2", "1991-01-01", "UBZ-Decksmann")], OLD)
    assert two["satisfied"] is False and missing(two) == [("position", "Leichtmatrose")]
    assert two["missing"][0]["provision"] == "§ 13 Abs. 1 SchBesV"


def test_paragraph_13_Abs_2_SchBesV_lets_a_qualified_leichtmatrose_replace_a_matrose_of_a_convoy():
    crew = [SF, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"]), P("m1", "1990-01-01", "UBZ-Matrose"),
            P("lm", "1999-01-01", "UBZ-Leichtmatrose")]
    r = check("convoy5", [*crew, apprentice("kurt", "1997-01-01")], OLD)
    assert r["satisfied"] is True
    assert ("Matrose", "substitution", "SchBesV2004-P13-Abs2-Substitution-Matrose") in via(r, "kurt")


def test_paragraph_14_Abs_5_SchBesV_lets_a_qualified_leichtmatrose_replace_the_decksmann_in_2015():
    r = check("lake", [*LAKE, apprentice("lena", "1997-01-01")], OLD)
    assert r["satisfied"] is True
    assert ("Decksmann", "substitution", "SchBesV2004-P14-Abs5-Substitution-Decksmann") in via(r, "lena")


# --- functions: who may hold them besides a position --------------------------------------------------------------------
LATER = date(2027, 2, 1)  # after the transitional rule of § 47 Abs. 13 (second), so a missing Sachkundige is a plain gap


def test_the_prescribed_schiffsfuehrer_cannot_be_the_sachkundige_of_paragraph_43_Abs_2():
    sf = P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", "UBZ-SachkundigerFahrgastschifffahrt", functions=["FirstAid"])
    r = check("small", [sf, MATROSE, ERSTHELFER], LATER)
    assert r["satisfied"] is False and missing(r) == [("function", "SachkundigerFahrgastschifffahrt")]
    assert "außer der bzw. dem vorgeschriebenen Schiffsführerin bzw. Schiffsführer" in r["missing"][0]["fill_with"]


def test_a_second_schiffsfuehrer_in_a_lower_position_may_be_the_sachkundige():
    sf2 = P("sf2", "1980-01-01", "UBZ-Schiffsfuehrer", "UBZ-SachkundigerFahrgastschifffahrt", functions=["FirstAid"])
    r = check("small", [SF, sf2, ERSTHELFER])
    assert r["satisfied"] is True and r["assignment"]["sf2"] == ["Matrose", "SachkundigerFahrgastschifffahrt", "FirstAid"]


def test_the_fahrgast_ersthelfer_of_paragraph_43_Abs_2_holds_no_nautical_position():
    r = check("small", [SF, MATROSE | {"functions": ["FirstAid", "FahrgastErsthelfer"]}, SACHKUNDIG])
    assert r["satisfied"] is False and missing(r) == [("function", "FahrgastErsthelfer")]
    assert r["missing"][0]["accepts"]["combinable_with_position"] is False


def test_on_a_lake_the_decksmann_may_be_the_ersthelfer_and_a_sachkundige_the_fahrgastbetreuer():
    r = check("lake", [SF, P("dm", "1995-01-01", "UBZ-Decksmann", functions=["FahrgastErsthelfer"]), SACHKUNDIG])
    assert r["satisfied"] is True
    assert r["assignment"]["dm"][:2] == ["Decksmann", "FahrgastErsthelfer"]
    assert ("Fahrgastbetreuer", "substitution", "SchBV2022-P43-Abs3-Z2-Substitution-Fahrgastbetreuer") in via(r, "sk")


def test_a_schiffsfuehrer_sailing_alone_may_be_the_ersthelfer():
    r = check("alone", [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid", "FahrgastErsthelfer"])])
    assert r["satisfied"] is True and r["assignment"]["sf"] == ["Schiffsfuehrer", "FahrgastErsthelfer", "FirstAid"]


def test_with_a_decksmann_prescribed_the_schiffsfuehrer_may_not_be_the_ersthelfer():
    r = check("lake", [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid", "FahrgastErsthelfer"]),
                       P("dm", "1995-01-01", "UBZ-Decksmann"), P("fb", "1990-01-01", functions=["Fahrgastbetreuer"])])
    assert r["satisfied"] is False and missing(r) == [("function", "FahrgastErsthelfer")]


CABIN_DECK = [SF, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"]), P("m1", "1990-01-01", "UBZ-Matrose", functions=["FahrgastErsthelfer"]),
              P("m2", "1991-01-01", "UBZ-Matrose", "UBZ-SachkundigerFahrgastschifffahrt"),
              P("m3", "1992-01-01", "UBZ-Matrose", functions=["FahrgastErsthelfer"]), P("eng", "1970-01-01", functions=["Maschinist"])]


def test_atemschutz_wearers_of_a_cabin_ship_hold_no_nautical_position():
    deck_as = [P("m4", "1993-01-01", "UBZ-Matrose", functions=["Atemschutzgeraetetraeger"]),
               P("m5", "1994-01-01", "UBZ-Matrose", functions=["Atemschutzgeraetetraeger"])]
    r = check("cabin", [*CABIN_DECK[:3], *deck_as, CABIN_DECK[3], CABIN_DECK[4], CABIN_DECK[5]])
    assert r["satisfied"] is True  # two Matrosen stay free of positions: the first alternative needs 3 Matrosen of 5
    short = check("cabin", [*CABIN_DECK[:2], CABIN_DECK[2], *deck_as, CABIN_DECK[5],
                            P("sk", "1985-01-01", "UBZ-SachkundigerFahrgastschifffahrt", functions=["FahrgastErsthelfer"])])
    assert short["satisfied"] is False
    assert ("function", "Atemschutzgeraetetraeger") in missing(short)


def test_the_cabin_ship_takes_the_alternative_the_roster_can_fill():
    hotel = [P("as1", "1988-01-01", functions=["Atemschutzgeraetetraeger"]), P("as2", "1989-01-01", functions=["Atemschutzgeraetetraeger"])]
    three = check("cabin", [*CABIN_DECK, *hotel])
    assert three["satisfied"] is True and three["alternative"] == 0
    two_two = check("cabin", [*CABIN_DECK[:4], CABIN_DECK[5], *hotel, P("eh2", "1990-01-01", functions=["FahrgastErsthelfer"]),
                              P("lm1", "2009-01-01", "UBZ-Leichtmatrose"), P("lm2", "2010-01-01", "UBZ-Leichtmatrose")])
    assert two_two["satisfied"] is True and two_two["alternative"] == 1


# --- qualifications: first aid, engine, LNG -------------------------------------------------------------------------------
def test_two_first_aiders_on_waterways_one_is_not_enough():
    # the Fahrgast-Ersthelfer is the one first-aider (§ 29 Abs. 3 SchBV); the Schiffsführer has no first-aid training
    r = check("small", [SF_PLAIN, P("ma", "1990-01-01", "UBZ-Matrose"), SACHKUNDIG, ERSTHELFER])
    assert r["satisfied"] is False
    (q,) = r["missing"]
    assert (q["kind"], q["role"], q["needed"], q["have"], q["provision"]) == ("qualification", "FirstAid", 2, 1, "§ 43 Abs. 11 SchBV")
    assert next(x["have"] for x in r["qualifications"] if x["function"] == "FirstAid") == ["eh"]


# --- § 43 Abs. 11 SchBV: a Fahrgast-Ersthelfer (§ 29 Abs. 3 SchBV) has the first-aid training of § 40 Abs. 2 AStV -----
MA_NO_FIRST_AID = P("ma", "1990-01-01", "UBZ-Matrose", functions=["MatroseMotorwart"])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_declared_fahrgast_ersthelfer_counts_as_one_of_the_two_first_aiders(lang):
    r = check("wachau", [SF, MA_NO_FIRST_AID, LM_YOUNG, SACHKUNDIG, ERSTHELFER], lang=lang)
    first_aid = next(q for q in r["qualifications"] if q["function"] == "FirstAid")
    assert (first_aid["have"], first_aid["met"], first_aid["provision"]) == (["sf", "eh"], True, "§ 43 Abs. 11 SchBV")
    assert r["satisfied"] is True and r["missing"] == []
    assert r["assignment"]["eh"] == ["FahrgastErsthelfer", "FirstAid"]


@pytest.mark.parametrize("lang, accepts", [("de", "oder Fahrgast-Ersthelferin bzw. Fahrgast-Ersthelfer"),
                                           ("en", "or passenger first-aider")])
def test_a_fahrgast_ersthelfer_as_the_only_person_with_first_aid_is_one_first_aider_not_two(lang, accepts):
    r = check("wachau", [SF_PLAIN, MA_NO_FIRST_AID, LM_YOUNG, SACHKUNDIG, ERSTHELFER], lang=lang)
    assert r["satisfied"] is False and missing(r) == [("qualification", "FirstAid")]
    (q,) = r["missing"]
    assert (q["needed"], q["have"], q["provision"]) == (2, 1, "§ 43 Abs. 11 SchBV")
    assert q["fill_with"].endswith(accepts)


def test_a_fahrgast_ersthelfer_qualification_of_the_schbesv_2004_is_no_first_aid_training_under_the_schbv():
    """§ 4 Abs. 2 Z 10 SchBesV asked for an instruction under § 6 FSG-DV, not the training of § 40 Abs. 2 AStV: the
    certificate kept by § 47 Abs. 2 SchBV fills the Fahrgast-Ersthelfer, but does not count as first-aider."""
    old = P("eh", "1999-01-01", "SchBesV2004-FahrgastErsthelfer")
    r = check("wachau", [SF, MA_NO_FIRST_AID, LM_YOUNG, SACHKUNDIG, old])
    assert r["satisfied"] is False and missing(r) == [("qualification", "FirstAid")]
    assert "FahrgastErsthelfer" in r["assignment"]["eh"]
    assert next(q["have"] for q in r["qualifications"] if q["function"] == "FirstAid") == ["sf"]


def test_under_the_schbesv_2004_a_fahrgast_ersthelfer_does_not_count_as_first_aider():
    """§ 13 Abs. 5 SchBesV asks for the training of § 40 Abs. 2 AStV; the Fahrgast-Ersthelfer of § 4 Abs. 2 Z 10 SchBesV
    proves an instruction under § 6 FSG-DV only."""
    crew = [SF, P("d1", "1990-01-01", "UBZ-Decksmann"), P("lm", "1999-01-01", "UBZ-Leichtmatrose")]
    r = check("convoy4", [*crew, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FahrgastErsthelfer"])], OLD)
    assert r["satisfied"] is False and missing(r) == [("qualification", "FirstAid")]
    assert (r["missing"][0]["have"], r["missing"][0]["provision"]) == (1, "§ 13 Abs. 5 SchBesV")
    ok = check("convoy4", [*crew, P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"])], OLD)
    assert ok["satisfied"] is True


def test_one_first_aider_is_enough_on_other_waters():
    r = check("lake", [SF, P("dm", "1995-01-01", "UBZ-Decksmann", functions=["FahrgastErsthelfer"]), SACHKUNDIG])
    assert r["satisfied"] is True and r["qualifications"][0]["needed"] == 1


def test_the_schiffsfuehrer_must_be_an_lng_expert_on_an_lng_vessel():
    crew = [MATROSE, SACHKUNDIG, ERSTHELFER]
    other = check("lng", [SF, *crew[:1], P("lngx", "1980-01-01", "UBZ-SachkundigerLNG"), *crew[1:]])
    assert other["satisfied"] is False
    (gap,) = other["missing"]
    assert (gap["role"], gap["of"], gap["provision"]) == ("SachkundigerLNG", "Schiffsfuehrer", "§ 43 Abs. 10 SchBV")
    ok = check("lng", [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", "UBZ-SachkundigerLNG", functions=["FirstAid"]), *crew])
    assert ok["satisfied"] is True


def test_above_370_kW_a_UBZ_matrose_counts_in_2026_but_not_in_2015():
    crew = [SF, MATROSE, LM_YOUNG | {"birth_date": "1998-01-01"}, SACHKUNDIG, ERSTHELFER,
            P("fb1", "1990-01-01", functions=["Fahrgastbetreuer"]), P("fb2", "1991-01-01", functions=["Fahrgastbetreuer"])]
    assert check("wachau", crew)["satisfied"] is True
    old = check("wachau", crew, OLD)
    assert old["satisfied"] is False and ("qualification", "MatroseMotorwart") in missing(old)


def test_in_2015_the_schiffsfuehrer_did_not_count_as_the_matrosen_motorwart_on_waterways():
    crew = [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid", "MatroseMotorwart"]), MATROSE,
            LM_YOUNG | {"birth_date": "1998-01-01"}, P("fb1", "1990-01-01", functions=["Fahrgastbetreuer"]),
            P("fb2", "1991-01-01", functions=["Fahrgastbetreuer"]), ERSTHELFER]
    old = check("wachau", crew, OLD)
    assert old["satisfied"] is False and missing(old) == [("qualification", "MatroseMotorwart")]
    assert "außer der bzw. dem vorgeschriebenen Schiffsführerin bzw. Schiffsführer" in old["missing"][0]["fill_with"]


def test_above_1000_kW_a_matrosen_motorwart_is_not_enough():
    crew = [*CABIN_DECK[:5], P("mmw", "1970-01-01", functions=["MatroseMotorwart"]),
            P("as1", "1988-01-01", functions=["Atemschutzgeraetetraeger"]), P("as2", "1989-01-01", functions=["Atemschutzgeraetetraeger"])]
    r = check("cabin", crew)
    assert r["satisfied"] is False and missing(r) == [("qualification", "Maschinist")]


# --- additions, temporary reductions, dates ---------------------------------------------------------------------------------
def test_the_matrose_added_by_paragraph_15_SchBesV_cannot_be_replaced_by_a_leichtmatrose():
    crew = [SF, P("fb", "1990-01-01", functions=["Fahrgastbetreuer", "FirstAid"]), ERSTHELFER]
    ok = check("below", [*crew, MATROSE, apprentice("lena", "1990-01-01")], date(2010, 6, 1))
    assert ok["satisfied"] is True
    short = check("below", [*crew, apprentice("lena", "1990-01-01"), apprentice("lisa", "1990-02-01")], date(2010, 6, 1))
    assert short["satisfied"] is False
    (gap,) = short["missing"]
    assert (gap["role"], gap["provision"], gap["accepts"]["substitutions"]) == ("Matrose", "§ 15 Abs. 1 SchBesV", [])


def test_with_school_attendance_stufe_3_S1_sails_without_its_leichtmatrose():
    """The reduction that holds on the date (a roster's school attendance decides it: tests/test_attendance.py)."""
    crew = [SF, MATROSE | {"functions": ["FirstAid", "MatroseMotorwart"]}, SACHKUNDIG, ERSTHELFER]
    assert check("wachau", crew)["satisfied"] is False
    assert check("wachau", crew, temporary=frozenset({"SchBV2022-P43-Abs7-Reduction"}))["satisfied"] is True


def test_until_17_jan_2027_a_roster_without_sachkundige_cannot_be_judged_from_18_jan_it_fails():
    crew = [SF, MATROSE | {"functions": ["FirstAid", "MatroseMotorwart"]}, LM_YOUNG, ERSTHELFER,
            P("fb", "1990-01-01", functions=["Fahrgastbetreuer"])]
    before = check("wachau", crew, date(2027, 1, 17), lang="en")  # the reason is asserted in English
    assert before["satisfied"] is None and "not in the sources" in before["reason"]
    assert before["missing"][0]["transitional"] == {"provision": "§ 47 Abs. 13 SchBV (zweiter Absatz dieser Nummer)",
                                                   "until": "2027-01-17", "covered": False}
    after = check("wachau", crew, date(2027, 1, 18))
    assert after["satisfied"] is False and missing(after) == [("function", "SachkundigerFahrgastschifffahrt")]


@pytest.mark.parametrize("on, satisfied", [(date(2027, 1, 17), None), (date(2027, 1, 18), False)],
                         ids=["17 Jan 2027: cannot be judged", "18 Jan 2027: fails"])
def test_below_s1_the_transitional_rule_of_47_abs_13_holds_for_the_passenger_safety_row_too(on, satisfied):
    """The minimum crew below S1 is § 44 (not in the sources), the passenger-safety row is not: until 17 Jan 2027 a
    missing Sachkundiger may be replaced as § 47 Abs. 13 (second) says, by a table the sources lack."""
    crew = [SF, MATROSE, LM_YOUNG, ERSTHELFER, P("fb", "1990-01-01", functions=["Fahrgastbetreuer"])]
    r = check("wachau-none", crew, on)
    assert r["satisfied"] is satisfied
    assert missing(r) == [("function", "SachkundigerFahrgastschifffahrt")]
    assert ("transitional" in r["missing"][0]) is (satisfied is None)
    assert "nicht geprüft" in r["reason"]  # no position is checked: the reason says so whatever the verdict


def test_a_roster_for_a_vessel_whose_table_is_missing_is_judged_only_on_the_rules_beside_it():
    """The § 41 Abs. 2 table is not in the sources, so no position is checked; § 41 Abs. 5 (a Maschinist above
    1000 kW) and Abs. 7 (two first-aiders) hold whatever the table says: a roster without a Maschinist is not
    satisfied, one with both is undecided."""
    r = check("motor", [SF, MATROSE], lang="en")  # the reason is asserted in English
    assert r["satisfied"] is False and "not covered" in r["reason"]
    assert [(m["kind"], m["role"], m["provision"], m["needed"], m["have"]) for m in r["missing"]] == [
        ("qualification", "Maschinist", "§ 41 Abs. 5 SchBV", 1, 0)]
    r = check("motor", [SF, MATROSE | {"functions": ["FirstAid", "Maschinist"]}], lang="en")
    assert r["satisfied"] is None and r["missing"] == [] and "not covered" in r["reason"]
    assert [(q["function"], q["have"], q["met"]) for q in r["qualifications"]] == [
        ("Maschinist", ["ma"], True), ("FirstAid", ["sf", "ma"], True)]
    r = check("motor", [SF_PLAIN, MATROSE | {"functions": ["Maschinist"]}], lang="en")
    assert r["satisfied"] is False and [m["role"] for m in r["missing"]] == ["FirstAid"]


def test_a_rule_that_names_a_position_is_decided_without_the_table_only_where_nobody_holds_it():
    """§ 41 Abs. 6 SchBV: the prescribed Schiffsführer holds the LNG certificate. Without the table nobody is
    prescribed, so a roster whose LNG holder could be the Schiffsführer stays undecided; one without any holder, or
    whose only holder cannot be the Schiffsführer (a Matrose), is not satisfied."""
    lng = {"id": "lngmv", "kind": "motor_vessel", "waters": "waterway", "length_m": 80, "standard": "S1", "engine_kw": 300, "lng": True}
    VESSELS["lngmv"] = lng
    r = check("lngmv", [SF, MATROSE])
    assert r["satisfied"] is False and [m["role"] for m in r["missing"]] == ["SachkundigerLNG"]
    r = check("lngmv", [SF, MATROSE | {"certificates": ["UBZ-Matrose", "UBZ-SachkundigerLNG"]}])
    assert r["satisfied"] is False and [m["role"] for m in r["missing"]] == ["SachkundigerLNG"]
    r = check("lngmv", [SF | {"certificates": ["UBZ-Schiffsfuehrer", "UBZ-SachkundigerLNG"]}, MATROSE])
    assert r["satisfied"] is None and r["missing"] == []
    assert "SachkundigerLNG" not in [q["function"] for q in r["qualifications"]]


def test_the_precise_missing_list_of_a_failing_roster():
    r = check("wachau", [SF, apprentice("lena", "2010-03-01", days=400), LM_YOUNG | {"id": "tobias"}, SACHKUNDIG])
    assert r["satisfied"] is False
    assert missing(r) == [("position", "Matrose"), ("function", "FahrgastErsthelfer"), ("qualification", "FirstAid")]
    gap = r["missing"][0]
    assert gap["near_misses"][0]["person"] == "lena"
    assert gap["near_misses"][0]["lacks"] == ["16 Jahre alt, mindestens 17 nötig (erreicht am 2027-03-01)"]
    assert "UBZ-Matrose" in gap["accepts"]["certificates"] and "UBZ-Leichtmatrose" not in gap["accepts"]["certificates"]


# --- § 43 Abs. 9: 'eine nach dem 17. Jänner 2022 erteilte Befähigung zumindest als Matrose' --------------------------------
@pytest.mark.parametrize("issued, ok", [("2022-01-17", False), ("2022-01-18", True), (None, True)],
                         ids=["§ 43 Abs. 9 SchBV: a UBZ Matrose issued on 17 Jan 2022 is not 'nach dem 17. Jänner 2022 erteilt'",
                              "§ 43 Abs. 9 SchBV: issued on 18 Jan 2022 it counts as the Matrosen-Motorwart",
                              "§ 43 Abs. 9 SchBV: a UBZ without an issue date counts (the kb's reading)"])
def test_the_engine_rule_counts_a_matrose_certificate_issued_after_17_january_2022(issued, ok):
    cert = {"id": "UBZ-Matrose", "issued": issued} if issued else "UBZ-Matrose"
    sf = P("sf", "1975-01-01", {"id": "UBZ-Schiffsfuehrer", "issued": "2022-01-17"}, functions=["FirstAid"])  # not after
    r = check("wachau", [sf, P("ma", "1990-01-01", cert, functions=["FirstAid"]), LM_YOUNG, SACHKUNDIG, ERSTHELFER])
    engine = next(q for q in r["qualifications"] if q["function"] == "MatroseMotorwart")
    assert (engine["met"], engine["have"]) == ((True, ["ma"]) if ok else (False, []))
    assert r["satisfied"] is ok


# --- § 43 Abs. 11/12: the first-aid training proven by the record's dated proof ----------------------------------------
@pytest.mark.parametrize("passed, counts", [("2026-11-30", True), ("2026-12-01", False)],
                         ids=["§ 43 Abs. 12 SchBV: a first-aid training passed on the day counts as first-aider",
                              "§ 43 Abs. 12 SchBV: one passed the day after does not"])
def test_a_proven_first_aid_training_counts_for_the_first_aid_rule(passed, counts):
    franz = P("franz", "2001-06-15", "UBZ-Decksmann", exams=[{"id": "Ersthelfer-Ausbildung", "passed": passed}])
    r = check("lake", [SF_PLAIN, franz])
    first_aid = next(q for q in r["qualifications"] if q["function"] == "FirstAid")
    assert first_aid["have"] == (["franz"] if counts else [])
    assert first_aid["provision"] == "§ 43 Abs. 12 SchBV"


def test_a_certificate_issued_after_the_date_is_named_in_the_roster_answer():
    """As in `check`: a certificate the record dates after the evaluation date is not held on it, and said so."""
    later = P("ma", "1990-01-01", {"id": "UBZ-Matrose", "issued": "2026-12-01"}, functions=["FirstAid"])
    r = check("wachau", [SF, later, LM_YOUNG, SACHKUNDIG, ERSTHELFER])
    assert [x["certificate"] for x in r["not_yet_issued"]["ma"]] == ["UBZ-Matrose"]
    assert ("position", "Matrose") in missing(r)


def test_a_written_proof_of_the_schbesv_2004_keeps_its_role_on_a_roster_after_17_january_2022():
    """§ 47 Abs. 2 SchBV keeps 'schriftliche Nachweise für Fahrgastbetreuer' of the SchBesV 2004 (their own five years):
    the roster counts them as `check` does."""
    mia = P("mia", "2000-03-30", exams=[{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2021-06-01"}])
    r = check("lake", [SF, P("d", "1995-01-01", "UBZ-Decksmann"), mia, ERSTHELFER], as_of=date(2023, 1, 1))
    assert ("Fahrgastbetreuer", "record", None) in via(r, "mia")


def test_a_deck_role_stated_as_a_function_fills_the_roles_below_it_as_a_higher_qualification():
    """A Matrosen-Motorwart stated under `functions` (no certificate) fills the Matrose position through the hierarchy;
    the text calls it a higher qualification, not a higher certificate."""
    from crewkg.messages.catalogue import say

    stated = P("ma", "1990-01-01", functions=["FirstAid", "MatroseMotorwart"])
    r = check("wachau", [SF, stated, LM_YOUNG, SACHKUNDIG, ERSTHELFER], lang="en")
    assert ("Matrose", "hierarchy", None) in via(r, "ma")
    assert say("en", "crew.cli.via_hierarchy") == "higher qualification"


# --- § 6 Abs. 6 SchBesV: a Decksmann on other waters by age and medical report ---------------------------------------
KAPITAEN = P("sf", "1970-01-01", "Kapitaenspatent-A", functions=["FirstAid"])
FIT_2015 = {"examined": "2015-01-10"}


@pytest.mark.parametrize(("born", "fills"), [("1997-06-01", True), ("1997-06-02", False)])
def test_on_other_waters_under_the_schbesv_age_18_and_a_medical_report_prove_the_decksmann(born, fills):
    """'kann auf anderen Gewässern als Wasserstraßen die Befähigung zum Decksmann durch den Nachweis des Mindestalters
    von 18 Jahren und das ärztliche Gutachten gemäß § 5 nachgewiesen werden': no Schifferdienstbuch needed; on the 18th
    birthday (2015-06-01), not the day before."""
    r = check("lake", [KAPITAEN, P("dm", born, medical_fitness=FIT_2015)], as_of=OLD)
    d = next((d for d in r["details"] if d["person"] == "dm"), None)
    if fills:
        assert (d["role"], d["via"], d["certificate"], d["proof_provision"]) == (
            "Decksmann", "record", "SchBesV2004-Decksmann", "§ 6 Abs. 6 SchBesV")
        assert ("position", "Decksmann") not in missing(r)
    else:
        assert d is None and ("position", "Decksmann") in missing(r)


def test_without_a_medical_report_age_alone_proves_no_decksmann_and_the_answer_names_paragraph_6_abs_6():
    r = check("lake", [KAPITAEN, P("dm", "1990-01-01"), P("young", "1997-06-02", medical_fitness=FIT_2015)], as_of=OLD, lang="en")
    (gap,) = [m for m in r["missing"] if m["role"] == "Decksmann"]
    assert gap["accepts"]["proofs"] == [{"certificate": "SchBesV2004-Decksmann", "provision": "§ 6 Abs. 6 SchBesV"}]
    assert "on these waters, a person who proves: minimum age of 18 years, medical report" in gap["fill_with"]
    assert [(m["person"], m["as"], m["provision"], m["lacks"]) for m in gap["near_misses"]] == [
        ("dm", "Decksmann", "§ 6 Abs. 6 SchBesV", ["lacks: medical report on physical fitness (FSG-GV) or confirmation of "
                                                   "employment as a crew member before the regulation came into force"]),
        ("young", "Decksmann", "§ 6 Abs. 6 SchBesV", ["aged 17, at least 18 needed (reached on 2015-06-02)"])]


def test_paragraph_6_abs_6_schbesv_needs_other_waters_and_the_schbesv_in_force():
    """On a waterway (the convoy of § 13: its footnote *1 Decksmann) and on the lake under the SchBV 2022 the record's
    age and medical report prove no Decksmann."""
    dm = P("dm", "1990-01-01", medical_fitness={"examined": "2026-01-10"})
    r = check("lake", [SF, dm], as_of=NOW)
    assert ("position", "Decksmann") in missing(r) and not via(r, "dm")
    assert "proofs" not in next(m for m in r["missing"] if m["role"] == "Decksmann")["accepts"]
    crew = [KAPITAEN, P("st", "1980-01-01", "SchBesV2004-Steuermann", medical_fitness=FIT_2015),
            P("lm", "1998-01-01", "SchBesV2004-Leichtmatrose", medical_fitness=FIT_2015, apprenticeship={"contract": True, "year": 2}),
            P("dm", "1990-01-01", medical_fitness=FIT_2015)]
    r = check("convoy4", crew, as_of=OLD)
    assert not via(r, "dm")


def test_a_vessel_its_table_has_no_row_for_is_judged_on_the_passenger_safety_row_that_applies():
    """§ 43 Abs. 3 Z 1 has no Stufe above 700 permitted passengers, but the row of § 43 Abs. 3 Z 2 for 250 on board
    (one Fahrgastbetreuer, one Fahrgast-Ersthelfer) governs whatever the missing Stufe says: a roster without them is
    not satisfied; with them its positions stay unchecked."""
    VESSELS["lake800"] = {"kind": "day_trip_passenger", "waters": "other", "length_m": 40, "passengers": 800,
                          "passengers_on_board": 250, "standard": "S1", "engine_kw": 200}
    deck = P("d", "1995-01-01", "UBZ-Decksmann", functions=["FirstAid"])
    r = check("lake800", [SF, deck])
    assert r["satisfied"] is False
    assert [(m["kind"], m["role"], m["provision"], m["needed"], m["have"]) for m in r["missing"]] == [
        ("function", "FahrgastErsthelfer", "§ 43 Abs. 3 Z 2 SchBV", 1, 0), ("function", "Fahrgastbetreuer", "§ 43 Abs. 3 Z 2 SchBV", 1, 0)]
    r = check("lake800", [SF, deck | {"functions": ["FirstAid", "Fahrgastbetreuer"]}, ERSTHELFER])
    assert r["satisfied"] is None and r["missing"] == []


def test_a_decksmann_proven_on_other_waters_may_take_the_place_a_substitution_gives_a_decksmann():
    """§ 13 Abs. 1 SchBesV, footnote *1: a Decksmann for one of the Leichtmatrosen; on other waters the Decksmann is
    proven by age and medical report (§ 6 Abs. 6), and the answer cites both."""
    VESSELS["convoy4lake"] = VESSELS["convoy4"] | {"waters": "other"}
    crew = [KAPITAEN | {"functions": ["FirstAid"]}, P("st", "1980-01-01", "SchBesV2004-Steuermann", medical_fitness=FIT_2015, functions=["FirstAid"]),
            P("lm", "1998-01-01", "SchBesV2004-Leichtmatrose", medical_fitness=FIT_2015, apprenticeship={"contract": True, "year": 2}),
            P("dm", "1990-01-01", medical_fitness=FIT_2015)]
    r = check("convoy4lake", crew, as_of=OLD)
    (d,) = [d for d in r["details"] if d["person"] == "dm"]
    assert (d["role"], d["via"], d["as"], d["substitution_provision"], d["proof_provision"]) == (
        "Leichtmatrose", "substitution", "Decksmann", "§ 13 Abs. 1 SchBesV, Fn. *1", "§ 6 Abs. 6 SchBesV")


def test_a_roster_complete_only_with_a_national_deckhand_in_a_decksmann_position_is_undecided():
    """Where a Decksmann – AT (§ 28 Abs. 1 SchBV) may take a Decksmann's position is not in the sources
    (crew:standingUnknownFor): a roster complete only if it does is neither satisfied nor not satisfied; one that
    lacks something else as well stays not satisfied."""
    at = P("max", "1990-06-01", "Decksmann-AT")
    r = check("lake", [SF, at, ERSTHELFER, P("fb", "1990-01-01", functions=["Fahrgastbetreuer"])], lang="en")
    assert r["satisfied"] is None and r["standing_unknown"] == [{"person": "max", "role": "DecksmannAT", "as": "Decksmann"}]
    assert "not in the sources (§ 28 Abs. 1 SchBV)" in r["reason"]
    assert ("position", "Decksmann") in missing(r)
    r = check("lake", [SF, at, ERSTHELFER], lang="en")  # the Fahrgastbetreuer is missing too
    assert r["satisfied"] is False and "standing_unknown" not in r


def test_the_minimum_crew_answer_names_the_proof_these_waters_allow():
    """Without a roster too, the answer for a vessel on other waters under the SchBesV 2004 names § 6 Abs. 6; not on
    a waterway, not under the SchBV 2022."""
    assert _req("lake", OLD)[2].answer["qualification_proofs"] == [{
        "certificate": "SchBesV2004-Decksmann", "provision": "§ 6 Abs. 6 SchBesV",
        "text": "Decksmann auf anderen Gewässern durch Mindestalter und ärztliches Gutachten (§ 6 Abs. 6 SchBesV)"}]
    assert "qualification_proofs" not in _req("lake", NOW)[2].answer
    assert "qualification_proofs" not in _req("convoy4", OLD)[2].answer


# --- rule role-age: a higher qualification held fills a lower post only at that post's age, and says so --------------
@pytest.mark.parametrize(("born", "fills"), [("1996-06-01", True), ("1996-06-02", False)])
def test_a_bootsmann_too_young_for_the_matrose_post_is_named_with_the_age_and_its_provision(born, fills):
    """§ 4 Abs. 2 Z 5 lit. a SchBesV gives the Bootsmann without an age, § 4 Abs. 2 Z 3 asks the Matrose to be 19
    (the role-age reading of kb:RoleHierarchy). On his 19th birthday (2015-06-01) the Bootsmann fills the Matrose post
    of § 13 Abs. 1 Stufe 1; one born a day later is 18 on that day: the post is missing, and the answer says why and
    by which provision, not only who would be accepted."""
    VESSELS["convoy1"] = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 37, "breadth_m": 15, "standard": "S1",
                          "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 1}}
    boots = P("boots", born, "SchBesV2004-Bootsmann", functions=["FirstAid"])
    r = check("convoy1", [KAPITAEN, boots], as_of=OLD, lang="en")
    if fills:
        assert r["satisfied"] is True and ("Matrose", "hierarchy", None) in via(r, "boots")
    else:
        (gap,) = [m for m in r["missing"] if m["role"] == "Matrose"]
        assert [(m["person"], m["as"], m["provision"], m["lacks"]) for m in gap["near_misses"]][0] == (
            "boots", "Matrose", "§ 4 Abs. 2 Z 3 SchBesV", ["aged 18, at least 19 needed (reached on 2015-06-02)"])


def test_a_fahrgast_ersthelfer_of_the_schbesv_2004_made_by_dated_proofs_is_no_first_aider_of_paragraph_43_Abs_12():
    """§ 43 Abs. 12 SchBV asks for first-aid training under § 40 Abs. 2 AStV or a Fahrgast-Ersthelfer of § 29 Abs. 3
    SchBV; the Fahrgast-Ersthelfer of § 4 Abs. 2 Z 10 SchBesV rests on another instruction (§ 6 FSG-DV). Kept by
    § 47 Abs. 2 SchBV, it still fills that function on the roster, whether the record gives it as held or, as here,
    by its dated proofs; it does not give the first aid. The AStV training of the same person does."""
    proofs = [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2019-06-01"}]
    eh = P("eh", "1990-01-01", exams=proofs + [{"id": "Unterweisung-Sofortmassnahmen", "passed": "2019-06-01"}])
    crew = [SF_PLAIN | {"medical_fitness": True}, P("dm", "1997-06-01", "UBZ-Decksmann"), P("fb", "1990-01-01", exams=proofs), eh]
    r = check("lake", crew, date(2023, 6, 1))
    assert ("FahrgastErsthelfer", "record", None) in via(r, "eh")
    assert r["satisfied"] is False and missing(r) == [("qualification", "FirstAid")]
    trained = eh | {"exams": eh["exams"] + [{"id": "Ersthelfer-Ausbildung", "passed": "2023-01-01"}]}
    r = check("lake", crew[:3] + [trained], date(2023, 6, 1))
    assert r["satisfied"] is True, r["missing"]


@pytest.mark.parametrize(("function", "born", "fills"), [
    ("Fahrgastbetreuer", "2008-12-01", False),   # 17 on 2026-11-30: one day short of 18
    ("Fahrgastbetreuer", "2008-11-30", True),    # 18 that day
    ("FahrgastErsthelfer", "2009-12-01", False),  # 16, one day short of 17
    ("FahrgastErsthelfer", "2009-11-30", True),
])
def test_a_stated_function_is_not_held_below_the_age_its_qualification_asks(function, born, fills):
    """A 16-year-old with `functions: [Fahrgastbetreuer]` filled the passenger attendant's post, though § 29 SchBV
    gives the qualification only „bei Vorliegen eines Mindestalters“ (18; 17 for the Fahrgast-Ersthelfer, kb): a
    stated function is held from that age, and below it the answer names the person as a near miss with the day."""
    import crewkg

    vessel = {"id": "wolf", "kind": "day_trip_passenger", "waters": "other", "length_m": 25, "passengers": 250,
              "standard": "S1", "engine_kw": 200}
    crew = [{"id": "sepp", "birth_date": "1968-09-09", "certificates": ["UBZ-Schiffsfuehrer"], "functions": ["FirstAid"]},
            {"id": "franz", "birth_date": "2001-06-15", "certificates": ["UBZ-Decksmann"],
             "functions": ["FahrgastErsthelfer", "Fahrgastbetreuer"]},
            {"id": "lisa", "birth_date": born, "functions": [function]}]
    crew[1]["functions"].remove(function)
    roster = crewkg.crew(vessel, {"crew": crew}, as_of="2026-11-30", lang="en")["roster"]
    assert (function in roster["assignment"].get("lisa", [])) is fills
    if not fills:
        (m,) = [m for m in roster["missing"] if m["role"] == function]
        assert m["near_misses"][0]["person"] == "lisa" and "2026-12-01" in m["near_misses"][0]["lacks"][0]  # the birthday


@pytest.mark.parametrize(("days", "named"), [(179, False), (180, True)])
def test_a_person_who_meets_a_qualification_not_held_is_named_a_near_miss(days, named):
    """SchBesV 2004: the Matrose of a roster holds the entered qualification (§ 6 Abs. 1 Z 2, the Schifferdienstbuch;
    kb:SchBesV2004-P6-Abs1), so a 19-year-old with a year as Decksmann does not fill the post — but meets § 4 Abs. 2
    Z 3, and the missing Matrose names him as a near miss with what he lacks: the entry, not the conditions. At 179 days
    he meets nothing and is not named."""
    vessel = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 35, "breadth_m": 9, "standard": "S1",
              "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 1}}
    VESSELS["convoy1"] = vessel
    crew = [P("sf", "1960-01-01", "Kapitaenspatent-A", functions=["FirstAid"]),
            P("m", "1996-06-01", medical_fitness=True, sailing_days={"Decksmann": days}, functions=["FirstAid"])]
    for lang, words in (("en", "meets the conditions of"), ("de", "erfüllt die Voraussetzungen für")):
        r = check("convoy1", crew, OLD, lang=lang)
        assert r["satisfied"] is False and missing(r) == [("position", "Matrose")]
        near = [m for m in r["missing"][0].get("near_misses", []) if m["person"] == "m"]
        assert bool(near) is named, near
        if named:
            assert near[0]["as"] == "Matrose" and near[0]["provision"] == "§ 4 Abs. 2 Z 3 SchBesV"
            assert near[0]["lacks"][0].startswith(words)


@pytest.mark.parametrize(("second", "satisfied"), [("SchBesV2004-Matrose", False), ("SchBesV2004-Bootsmann", True)])
def test_a_roster_that_fills_no_alternative_names_what_each_other_alternative_lacks(second, satisfied):
    """§ 13 Abs. 1 SchBesV Stufe 2 S1 (37 m < L ≤ 86 m, B ≤ 15 m): Schiffsführer and Bootsmann, or Schiffsführer,
    Matrose and Leichtmatrose. A Schiffsführer and a Matrose fill neither: the verdict names alternative 2 (a
    Leichtmatrose missing), and the answer adds that alternative 1 would lack one Bootsmann instead. With a Bootsmann
    alternative 1 is met and no other alternative is named."""
    VESSELS["convoy2"] = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 60, "breadth_m": 11.4,
                          "standard": "S1", "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 1}}
    crew = [P("sf", "1960-01-01", "Kapitaenspatent-A", functions=["FirstAid"]),
            P("m", "1980-01-01", second, functions=["FirstAid"])]
    r = check("convoy2", crew, OLD)
    assert r["satisfied"] is satisfied
    if satisfied:
        assert r["alternative"] == 0 and "other_alternatives" not in r
    else:
        assert r["alternative"] == 1 and missing(r) == [("position", "Leichtmatrose")]
        assert r["other_alternatives"] == [{"alternative": 0, "missing": [
            {"kind": "position", "role": "Bootsmann", "provision": "§ 13 Abs. 1 SchBesV", "count": 1}]}]


@pytest.mark.parametrize(("vessel", "as_of", "lists"), [("convoy-60", OLD, False), ("lake", NOW, True)])
def test_a_substitution_is_listed_only_where_the_row_prescribes_its_place(vessel, as_of, lists):
    """§ 13 Abs. 2 SchBesV lets a Leichtmatrose take a Matrose's or a Decksmann's place; Stufe 2 of § 13 Abs. 1
    (37 m < L ≤ 86 m) prescribes no Decksmann, so only the Matrose's substitution is listed, and only for the
    alternative with a Matrose. § 43 Abs. 3 Z 1 SchBV Stufe 1 prescribes a Decksmann, and § 43 Abs. 6 (a Leichtmatrose
    instead of a Decksmann) is listed there."""
    VESSELS["convoy-60"] = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 60, "breadth_m": 11.4,
                            "standard": "S1", "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 1}}
    _, _, req = _req(vessel, as_of)
    replaced = {s.role for alt in req.alternatives for s in alt.substitutions}
    assert ("Decksmann" in replaced) is lists
    assert all(s.role in alt.counts for alt in req.alternatives for s in alt.substitutions)
    if not lists:
        assert [(alt.index, [s.role for s in alt.substitutions]) for alt in req.alternatives] == [(0, []), (1, ["Matrose"])]


def test_a_roster_says_which_members_name_a_union_certificate_their_date_cannot_have():
    """A 2015 convoy roster whose Matrose names an undated UBZ: he still fills the post (kb:SchBesV2004-P4-Abs1), and
    the answer names him under `undated_early`; the Schiffsführer's dated Kapitänspatent is not named."""
    crew = [P("sf", "1960-01-01", functions=["FirstAid"]) | {"certificates": [{"id": "Kapitaenspatent-A", "issued": "1998-05-04"}]},
            P("m", "1980-01-01", "UBZ-Matrose", functions=["FirstAid"])]
    VESSELS["convoy1"] = {"kind": "pushed_convoy", "waters": "waterway", "length_m": 35, "breadth_m": 9, "standard": "S1",
                          "engine_kw": 300, "convoy": {"propelled_by": "pusher", "barges": 1}}
    r = check("convoy1", crew, OLD, lang="en")
    assert r["satisfied"] is True and r["assignment"]["m"][0] == "Matrose"
    assert list(r["undated_early"]) == ["m"] and "2022-01-17" in r["undated_early"]["m"][0]["text"]
