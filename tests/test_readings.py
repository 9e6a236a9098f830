"""Doubtful provisions (issue 13 points 4 and 5): the answer applies one reading and states the other one beside it,
with what the other reading would require and, for a roster, how the roster fares under it. Every reading is data in
the kb (crew:Reading with skos:editorialNote in German and English); the cases here sit at the thresholds.

- SchBesV § 14 Abs. 8 'gemäß Abs. 1 oder Abs. 4': as written, cabin vessels (Abs. 3) need no engine qualification;
  read as 'Abs. 3' they would need a Matrosen-Motorwart above 370 kW and a Maschinist above 1000 kW.
- SchBesV § 13 Abs. 1: Stufe 3 by length (86 m < L <= 116,5 m) against Stufe 4 by composition (motor vessel + 1
  lighter): Stufe 4 applies, Stufe 3 is the other reading.
- SchBV § 43 Abs. 2 Z 2: only the Sachkundige may hold a deck position besides; the other reading lets the first-aider
  do so too.
- SchBV § 43 Abs. 2 Z 2: 'unter 20 m Länge und bis 75 Fahrgäste' — read literally, a vessel under 20 m with more than
  75 on board falls under the row by the number on board; the other reading makes 'unter 20 m' a length class.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from rdflib import Literal
from rdflib.namespace import RDF, SKOS

from crewkg.law.cache import load_graph
from crewkg.law.namespaces import KB
from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import crew_answer
from crewkg.manning.tables import MANNING
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping

NOW = date(2026, 11, 30)
OLD = date(2015, 6, 1)
ABS8 = "SchBesV2004-P14-Abs8-Reading-Abs3"
STUFE3 = "SchBesV2004-P13-Abs1-Reading-Stufe3"
ERSTHELFER = "SchBV2022-P43-Abs2-Z2-Reading-Ersthelfer"
LENGTH = "SchBV2022-P43-Abs2-Z2-Reading-Length"


def answer(record: dict[str, Any], as_of: date, crew: list[dict[str, Any]] | None = None, lang: str = "en") -> dict[str, Any]:
    law = load_law()
    ml = load_manning(law)
    vessel = vessel_from_mapping({"id": "v", **record}, ml, "v")
    persons = roster_from_mapping({"crew": crew}, law, as_of, "roster") if crew is not None else None
    return crew_answer(law, ml, vessel, as_of, persons, False, lang)


def reading(a: dict[str, Any], rid: str) -> dict[str, Any] | None:
    return next((r for r in a.get("readings", []) if r["id"] == rid), None)


def P(pid: str, born: str, *certs: str, **kw: Any) -> dict[str, Any]:
    return {"id": pid, "birth_date": born, "certificates": list(certs), **kw}


def cabin(kw: float, waters: str = "waterway") -> dict[str, Any]:
    return {"kind": "cabin_passenger", "waters": waters, "length_m": 110.0, "breadth_m": 11.4, "passengers": 120,
            "passengers_on_board": 100, "beds": 120, "standard": "S1", "engine_kw": kw}


def convoy(length: float, barges: int = 1, by: str = "motor_vessel", kind: str = "coupled_convoy") -> dict[str, Any]:
    return {"kind": kind, "waters": "waterway", "length_m": length, "breadth_m": 11.4, "standard": "S1", "engine_kw": 300,
            "convoy": {"propelled_by": by, "barges": barges}}


def day_trip(length: float, on_board: int, passengers: int = 300) -> dict[str, Any]:
    return {"kind": "day_trip_passenger", "waters": "waterway", "length_m": length, "breadth_m": 5.0, "passengers": passengers,
            "passengers_on_board": on_board, "standard": "S1", "engine_kw": 200}


# --- SchBesV § 14 Abs. 8: 'Abs. 1 oder Abs. 4' — cabin vessels under each reading ------------------------------------------
@pytest.mark.parametrize("kw, other_engine", [
    (370, None), (371, "MatroseMotorwart"), (1000, "MatroseMotorwart"), (1001, "Maschinist"),
], ids=["370 kW: neither reading asks", "371 kW: the other reading asks a Matrosen-Motorwart",
        "1000 kW: still the Matrosen-Motorwart", "1001 kW: the other reading asks a Maschinist"])
def test_paragraph_14_Abs_8_SchBesV_cabin_vessel_engine_under_each_reading(kw, other_engine):
    a = answer(cabin(kw), OLD)
    assert a["covered"] is True and a["provision"] == "§ 14 Abs. 3 Z 1 SchBesV"
    assert a["functions"]["engine"] is None  # the reading applied: as written, Abs. 8 does not reach Abs. 3
    r = reading(a, ABS8)
    assert r is not None and r["provision"] == "§ 14 Abs. 8 SchBesV"
    assert r["under_other_reading"]["functions"]["engine"] == other_engine
    assert r["differs"] is (other_engine is not None)
    assert "'Abs. 3'" in r["other"] and r["applied"].startswith("As written")


def test_paragraph_14_Abs_8_SchBesV_reading_does_not_reach_day_trip_vessels_or_other_waters():
    day = answer({**day_trip(40, 100), "engine_kw": 371}, OLD)
    assert day["functions"]["engine"] == "MatroseMotorwart" and reading(day, ABS8) is None
    assert reading(answer(cabin(371, waters="other"), OLD), ABS8) is None


def test_paragraph_14_Abs_8_SchBesV_is_not_a_doubt_under_the_SchBV():
    assert reading(answer(cabin(371), NOW), ABS8) is None


# --- SchBesV § 13 Abs. 1: Stufe 3 by length against Stufe 4 by composition -------------------------------------------------
@pytest.mark.parametrize("length, stufe, other_stufe", [
    (86.01, 4, 3), (100, 4, 3), (116.5, 4, 3), (116.51, 4, 4),
], ids=["86.01 m: both rows, Stufe 4 applies", "100 m: both rows", "116.5 m: both rows at the limit",
        "116.51 m: only Stufe 4, the readings agree"])
def test_paragraph_13_SchBesV_motor_vessel_with_one_lighter_at_the_stufe_3_length_limits(length, stufe, other_stufe):
    a = answer(convoy(length), OLD)
    assert a["covered"] is True and a["stufe"] == stufe
    assert a["alternatives"] == [{"Schiffsfuehrer": 1, "Steuermann": 1, "Matrose": 1, "Leichtmatrose": 1}]
    r = reading(a, STUFE3)
    assert r is not None and r["provision"] == "§ 13 Abs. 1 SchBesV"
    assert r["under_other_reading"]["stufe"] == other_stufe
    assert r["differs"] is (other_stufe != stufe)
    if other_stufe == 3:
        assert r["under_other_reading"]["alternatives"] == [{"Schiffsfuehrer": 1, "Steuermann": 1, "Matrose": 1},
                                                            {"Schiffsfuehrer": 1, "Steuermann": 1, "Leichtmatrose": 2}]


def test_paragraph_13_SchBesV_without_the_one_lighter_there_is_no_doubt():
    """A motor vessel with two lighters (no Stufe of its composition in the bundled wording) meets no composition of Stufe 4: no reading;
    a pusher with one lighter meets Stufe 3 only."""
    two = answer(convoy(116.5, barges=2), OLD)
    assert reading(two, STUFE3) is None
    pusher = answer(convoy(116.5, by="pusher", kind="pushed_convoy"), OLD)
    assert pusher["stufe"] == 3 and reading(pusher, STUFE3) is None


@pytest.mark.parametrize("length, barges, stufe, other_stufe", [
    (37, 1, 4, 1), (37.01, 1, 4, 2), (86, 1, 4, 2), (116.5, 3, 5, 3), (86, 3, 5, 2)],
    ids=["motor vessel + 1 lighter, 37 m: Stufe 4, Stufe 1 by the dimensions", "37.01 m: Stufe 2 by the dimensions",
         "86 m: Stufe 2 by the dimensions", "motor vessel + 3 lighters, 116.5 m: Stufe 5, Stufe 3 by the dimensions",
         "86 m: Stufe 5, Stufe 2 by the dimensions"])
def test_paragraph_13_SchBesV_the_composition_governs_every_dimension_row(length, barges, stufe, other_stufe):
    """Where a composition row (Stufe 4, 5) and a dimension row (Stufen 1–3) both cover a formation, the composition
    governs and the dimension row is the other reading."""
    a = answer(convoy(length, barges=barges), OLD)
    assert a["covered"] is True and a["stufe"] == stufe
    r = reading(a, STUFE3)
    assert r is not None and r["differs"] is True and r["under_other_reading"]["stufe"] == other_stufe


def test_paragraph_13_SchBesV_a_stufe_5_convoy_beyond_the_dimension_rows_states_no_reading():
    a = answer(convoy(188, barges=4, by="pusher", kind="pushed_convoy"), OLD)
    assert a["stufe"] == 5 and reading(a, STUFE3) is None


def test_paragraph_13_SchBesV_roster_without_leichtmatrose_passes_only_under_the_length_reading():
    crew = [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid"]),
            P("st", "1980-01-01", "UBZ-Steuermann", functions=["FirstAid"]), P("m1", "1990-01-01", "UBZ-Matrose")]
    a = answer(convoy(116.5), OLD, crew)
    assert a["roster"]["satisfied"] is False
    assert [(m["kind"], m["role"]) for m in a["roster"]["missing"]] == [("position", "Leichtmatrose")]
    ro = reading(a, STUFE3)["roster"]
    assert ro["satisfied"] is True and ro["verdict_differs"] is True
    assert ro["not_required"] == [{"kind": "position", "role": "Leichtmatrose", "persons": []}]
    assert ro["leaves_open"] == [] and ro["fills"] == []
    at_116_51 = answer(convoy(116.51), OLD, crew)
    assert reading(at_116_51, STUFE3)["roster"]["verdict_differs"] is False


# --- SchBV § 43 Abs. 2 Z 2: may the first-aider hold a deck position? --------------------------------------------------------
SF = P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid"])
SACHKUNDIG = P("sk", "1985-01-01", "UBZ-SachkundigerFahrgastschifffahrt")
SMALL = {"kind": "day_trip_passenger", "waters": "waterway", "length_m": 25, "passengers": 70, "standard": "S1", "engine_kw": 200}


def test_paragraph_43_Abs_2_SchBV_first_aider_on_a_deck_position_fills_only_under_the_other_reading():
    crew = [SF, P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid", "FahrgastErsthelfer"]), SACHKUNDIG]
    a = answer(SMALL, NOW, crew)
    assert a["roster"]["satisfied"] is False
    assert [(m["kind"], m["role"]) for m in a["roster"]["missing"]] == [("function", "FahrgastErsthelfer")]
    r = reading(a, ERSTHELFER)
    assert r["provision"] == "§ 43 Abs. 2 Z 2 SchBV" and r["differs"] is True
    assert r["under_other_reading"]["alternatives"] == a["alternatives"]  # the same minimum crew, other holders
    ro = r["roster"]
    assert ro["satisfied"] is True and ro["verdict_differs"] is True
    assert ro["fills"] == [{"kind": "function", "role": "FahrgastErsthelfer", "persons": ["ma"]}]
    assert ro["assignment"]["ma"][:2] == ["Matrose", "FahrgastErsthelfer"]


def test_paragraph_43_Abs_2_SchBV_a_separate_first_aider_passes_under_both_readings():
    crew = [SF, P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid"]), SACHKUNDIG,
            P("eh", "1999-01-01", functions=["FahrgastErsthelfer"])]
    a = answer(SMALL, NOW, crew)
    ro = reading(a, ERSTHELFER)["roster"]
    assert a["roster"]["satisfied"] is True and ro["satisfied"] is True and ro["verdict_differs"] is False
    assert ro["fills"] == [] and ro["leaves_open"] == []


def test_paragraph_43_Abs_2_SchBV_the_schiffsfuehrer_is_no_first_aider_under_either_reading():
    crew = [P("sf", "1975-01-01", "UBZ-Schiffsfuehrer", functions=["FirstAid", "FahrgastErsthelfer"]),
            P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid"]), SACHKUNDIG]
    ro = reading(answer(SMALL, NOW, crew), ERSTHELFER)["roster"]
    assert ro["satisfied"] is False and ro["verdict_differs"] is False


# --- SchBV § 43 Abs. 2 Z 2: under 20 m with more than 75 on board ---------------------------------------------------------------
@pytest.mark.parametrize("length, on_board, sachkundige, other, reaches", [
    (19.99, 75, 0, 0, True), (19.99, 76, 1, 0, True), (20, 75, 1, 1, False), (20, 76, 1, 1, False),
], ids=["19.99 m, 75 on board: the first row under both readings",
        "19.99 m, 76 on board: the row by number (1 Sachkundige); as a length class 0",
        "20 m, 75 on board: the row 'über 20 m', no doubt", "20 m, 76 on board: the row by number, no doubt"])
def test_paragraph_43_Abs_2_Z_2_SchBV_under_20_m_with_more_than_75_on_board(length, on_board, sachkundige, other, reaches):
    a = answer(day_trip(length, on_board), NOW)
    assert a["functions"]["SachkundigerFahrgastschifffahrt"] == sachkundige
    assert a["functions"]["FahrgastErsthelfer"] == 1
    assert a["function_provisions"]["SachkundigerFahrgastschifffahrt"] == "§ 43 Abs. 2 Z 2 SchBV"
    r = reading(a, LENGTH)
    if not reaches:
        assert r is None
        return
    assert r["provision"] == "§ 43 Abs. 2 Z 2 SchBV"  # what the answer rests on
    assert r["applied"].startswith("Literally") and "'unter 20 m Länge und bis 75 Fahrgäste'" in r["applied"]
    assert r["under_other_reading"]["functions"]["SachkundigerFahrgastschifffahrt"] == other
    assert r["differs"] is (other != sachkundige)
    if on_board == 76:
        assert a["function_row"] == "76 bis 250 Fahrgäste | 1 | 1"
        assert r["under_other_reading"]["function_row"] == "unter 20 m Länge und bis 75 Fahrgäste | 0 | 1"


def test_the_readings_speak_the_language_asked():
    de = reading(answer(day_trip(19.99, 76), NOW, lang="de"), LENGTH)
    assert de["applied"].startswith("Wörtlich") and de["notes"][0].startswith("Auslegung (zwei Lesarten)")
    en = reading(answer(day_trip(19.99, 76), NOW, lang="en"), LENGTH)
    assert en["applied"].startswith("Literally") and en["notes"][0].startswith("INTERPRETATION (two readings)")


def test_the_text_answer_states_both_readings(capsys):
    from crewkg.cli.crew import print_crew

    crew = [SF, P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid", "FahrgastErsthelfer"]), SACHKUNDIG]
    for lang, words in (("de", ("Zweifelhafte Stellen", "angewandte Lesart", "andere Lesart", "das Ergebnis wäre ein anderes")),
                        ("en", ("Doubtful provisions", "reading applied", "other reading", "the verdict would differ"))):
        print_crew(load_law(), answer(SMALL, NOW, crew, lang=lang), lang)
        out = capsys.readouterr().out
        assert all(w in out for w in words), (lang, out)


# --- the readings are data ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rid", [ABS8, STUFE3, ERSTHELFER, LENGTH])
def test_each_reading_is_a_kb_resource_with_notes_in_german_and_english(rid):
    g = load_graph()
    s = KB[rid]
    assert (s, RDF.type, MANNING.Reading) in g
    langs = {o.language for o in g.objects(s, SKOS.editorialNote) if isinstance(o, Literal)}
    assert {"de", "en"} <= langs
    for p in (MANNING.appliedReading, MANNING.otherReading):
        assert {o.language for o in g.objects(s, p)} == {"de", "en"}


def test_removing_a_reading_from_the_kb_removes_it_from_the_answer(tmp_path):
    """The engine names no reading: without the kb resource the answer has none, and the reading applied stays."""
    import shutil

    from crewkg.law.statute import load_law as ll
    from crewkg.locations import kb_dir, ontology_dir
    from crewkg.manning.compile import load_manning as lm

    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    f = kb / "schbesv2004" / "03_mindestbesatzung.ttl"
    f.write_text(f.read_text(encoding="utf-8").replace("kb:SchBesV2004-P14-Abs8-Reading-Abs3 a crew:Reading ;",
                                                       "kb:SchBesV2004-P14-Abs8-Reading-Abs3 a skos:Concept ;"), encoding="utf-8")
    law = ll(kb, ontology_dir())
    ml = lm(law, kb, ontology_dir())
    assert ABS8 not in ml.readings
    v = vessel_from_mapping({"id": "v", **cabin(371)}, ml, "v")
    a = crew_answer(law, ml, v, OLD, None, False, "en")
    assert a["functions"]["engine"] is None and reading(a, ABS8) is None


def test_the_http_api_carries_the_readings_and_the_roster_under_the_other_reading():
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app
    from crewkg.service.loading import build_store

    law = load_law()
    client = TestClient(create_app(Service(law, build_store("memory", law, [], NOW, [], []))))
    crew = [SF, P("ma", "1990-01-01", "UBZ-Matrose", functions=["FirstAid", "FahrgastErsthelfer"]), SACHKUNDIG]
    r = client.post("/api/crew", params={"as_of": NOW.isoformat(), "lang": "en"}, json={"vessel": {"id": "v", **SMALL}, "roster": {"crew": crew}})
    assert r.status_code == 200, r.text
    a = r.json()
    ro = reading(a, ERSTHELFER)["roster"]
    assert a["roster"]["satisfied"] is False and ro["satisfied"] is True and ro["verdict_differs"] is True


@pytest.mark.parametrize(("on", "stated"), [(date(2008, 12, 31), False), (date(2009, 1, 1), True)])
def test_a_reading_reported_in_an_amendment_is_not_stated_before_its_earliest_day(on, stated):
    """§ 13 Abs. 1 SchBesV Stufe 5: the wording „2 oder mehr Leichter“ is reported for BGBl. II Nr. 199/2009, whose
    earliest day the kb gives as 1 Jan 2009 (crew:inForceFromEarliest); on a date before it that wording cannot be
    in force, so a motor vessel with 2 lighters gets the bundled wording's answer without the other reading."""
    a = answer(convoy(100.0, barges=2), on)
    assert a["stufe"] == 3
    assert (reading(a, "SchBesV2004-P13-Abs1-Reading-Amendment2009") is not None) is stated
