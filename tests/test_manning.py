"""The minimum crew at every threshold of the tables: permitted passengers, passengers on board, beds, lengths,
mooring system, engine power, every alternative column, the reductions and additions, and the dates on which the
law changes. Each case is one vessel with the answer the text gives; all cases of one date are evaluated in one
Datalog run (manning.requirements), each test then reads its own answer.

The cases that state only the Stufe, the crew alternatives and the functions of a vessel at a threshold live in the
casebook, tests/cases/mindestbesatzung.yaml (run by tests/test_casebook_yaml.py and `crewkg test`); the cases here
assert reasons, adjustments, known rules and the last known table as well."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pytest

from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirements
from crewkg.manning.vessels import vessel_from_mapping

pytestmark = pytest.mark.xdist_group("test_manning")  # its module fixtures are made once, on one worker

NOW = date(2026, 11, 30)
OLD = date(2015, 6, 1)
SF, StM, BM, M, LM, D, MMW = "Schiffsfuehrer", "Steuermann", "Bootsmann", "Matrose", "Leichtmatrose", "Decksmann", "MatroseMotorwart"


def day_trip(passengers: int, *, waters: str = "waterway", length: float = 40.0, standard: str = "S1", on_board: int | None = None,
             kw: float = 300, **extra: Any) -> dict[str, Any]:
    rec = {"kind": "day_trip_passenger", "waters": waters, "length_m": length, "breadth_m": 8.0, "passengers": passengers,
           "standard": standard, "engine_kw": kw, **extra}
    if on_board is not None:
        rec["passengers_on_board"] = on_board
    return rec


def cabin(beds: int, *, on_board: int = 100, standard: str = "S1", kw: float = 800, **extra: Any) -> dict[str, Any]:
    return {"kind": "cabin_passenger", "waters": "waterway", "length_m": 110.0, "breadth_m": 11.4, "passengers": max(beds, on_board),
            "passengers_on_board": on_board, "beds": beds, "standard": standard, "engine_kw": kw, **extra}


def convoy(length: float, breadth: float = 11.4, *, by: str = "pusher", barges: Any = 1, standard: str = "S1",
           kind: str = "pushed_convoy", kw: float = 800) -> dict[str, Any]:
    return {"kind": kind, "waters": "waterway", "length_m": length, "breadth_m": breadth, "standard": standard,
            "engine_kw": kw, "convoy": {"propelled_by": by, "barges": barges}}


@dataclass
class Case:
    name: str
    record: dict[str, Any]
    as_of: date = NOW
    #: the temporary reductions whose dated conditions hold (a roster's school attendance decides them: test_attendance)
    temporary: frozenset[str] = frozenset()
    expect: dict[str, Any] = field(default_factory=dict)


def C(name: str, record: dict[str, Any], as_of: date = NOW, temporary: frozenset[str] = frozenset(), **expect: Any) -> Case:
    return Case(name, record, as_of, temporary, expect)


CASES = [
    # --- § 43 Abs. 2 Z 1 SchBV: permitted passengers, both columns -----------------------------------------------------
    C("§ 43 Abs. 2 Z 1 SchBV: 76 permitted passengers are Stufe 3", day_trip(76), stufe=3, alternatives=[{SF: 1, M: 1, LM: 1}]),
    # --- § 43 Abs. 2 Z 2 SchBV: passengers on board ----------------------------------------------------------------------
    C("§ 43 Abs. 2 Z 2 SchBV: 251 on board need 2 Ersthelfer", day_trip(300, on_board=251),
      functions={"SachkundigerFahrgastschifffahrt": 1, "FahrgastErsthelfer": 2}),
    # --- § 43 Abs. 3 SchBV: other waters ---------------------------------------------------------------------------------
    C("§ 43 Abs. 3 Z 1 SchBV (H.8): 701 permitted passengers on other waters: no Stufe", day_trip(701, waters="other", on_board=100),
      covered=False, reason="no Stufe", provisions=["§ 45 SchBV", "§ 46 SchBV"]),
    C("§ 43 Abs. 3 Z 1 SchBV: 60 passengers with a mooring system: the Decksmann falls away",
      day_trip(60, waters="other", length=18, mooring_system=True), alternatives=[{SF: 1}], adjusted=["SchBV2022-P43-Abs3-Reduction"]),
    C("§ 43 Abs. 3 Z 1 SchBV: 61 passengers with a mooring system keep the Decksmann",
      day_trip(61, waters="other", length=18, mooring_system=True), alternatives=[{SF: 1, D: 1}], adjusted=[]),
    # --- § 13 SchBesV: convoys, lengths and compositions -------------------------------------------------------------------
    C("§ 13 Abs. 1 SchBesV: a motor vessel with 1 lighter of 116.5 m and 11.4 m meets Stufe 3 and Stufe 4: Stufe 4 applies",
      convoy(116.5, by="motor_vessel", kind="coupled_convoy"), OLD, stufe=4, alternatives=[{SF: 1, StM: 1, M: 1, LM: 1}]),
    C("§ 13 Abs. 1 SchBesV (D.3 iv): a pusher with 1 lighter of 80 m and 16 m: no Stufe", convoy(80, 16), OLD, covered=False, reason="no Stufe"),
    C("§ 13 Abs. 1 SchBesV (H.9): pusher + 3 lighters had no Stufe in the original wording", convoy(200, 22.8, barges=3), date(2008, 12, 31),
      covered=False, reason="no Stufe"),
    C("§ 13 Abs. 1 SchBesV: the bundled wording ('mehr als 3 Leichter') governs in 2009 too: pusher + 3 lighters have no Stufe",
      convoy(200, 22.8, barges=3), date(2009, 6, 1), covered=False, reason="no Stufe"),
    C("§ 13 Abs. 1 SchBesV: and in 2015 (BGBl. II 199/2009 is reported outside the bundled texts only: the other reading)",
      convoy(200, 22.8, barges=3), date(2015, 6, 1), covered=False, reason="no Stufe"),
    C("§ 13 Abs. 1 SchBesV: a motor vessel + 2 lighters, 200 m: no Stufe either ('mehr als 2 Leichter')",
      convoy(200, 22.8, barges=2, by="motor_vessel"), date(2015, 6, 1), covered=False, reason="no Stufe"),
    C("§ 13 Abs. 1 SchBesV: a motor vessel + 3 lighters is Stufe 5", convoy(200, 22.8, barges=3, by="motor_vessel"),
      date(2015, 6, 1), stufe=5),
    C("§ 13 Abs. 1 SchBesV footnote *2: two 40 m lighters in line count as two (Stufe 4 before the dimension row 3)",
      convoy(100, barges=[{"length_m": 40, "breadth_m": 11.4}, {"length_m": 40, "breadth_m": 11.4}]), OLD, stufe=4),
    C("§ 13 Abs. 1 SchBesV footnote *2: two lighters of 38.25 m in line are one Leichter (76.50 m): pusher + 1 lighter, Stufe 3",
      convoy(100, barges=[{"length_m": 38.25, "breadth_m": 11.4}, {"length_m": 38.25, "breadth_m": 11.4}]), OLD, stufe=3),
    C("§ 13 Abs. 1 SchBesV footnote *2: two Europa II side by side (22.80 m, more than 15 m) are two Leichter: Stufe 4",
      convoy(100, 22.8, barges=[{"length_m": 76.5, "breadth_m": 22.8, "abreast": 2}]), OLD, stufe=4),
    C("§ 13 Abs. 1 SchBesV footnote *2: four Europa II in a 2 x 2 formation are four Leichter, as barges: 4 (Stufe 5)",
      convoy(188, 22.8, barges=[{"length_m": 76.5, "breadth_m": 22.8, "abreast": 2}] * 2), OLD, stufe=5),
    C("§ 13 Abs. 1 SchBesV footnote *2: two narrow lighters side by side within 15 m are one Leichter: Stufe 3",
      convoy(100, 14.0, barges=[{"length_m": 50, "breadth_m": 14.0, "abreast": 2}]), OLD, stufe=3),
    # --- dates -----------------------------------------------------------------------------------------------------------
    C("§ 19 Abs. 1 SchBesV: before 1 Jan 2005 no encoded law governs", day_trip(100), date(2004, 12, 31), covered=False,
      reason="2005-01-01", regulation=None),
    C("SchBesV 2004 governs on 16 Jan 2022 (Fahrgastbetreuer, no Sachkundige)", day_trip(300, on_board=250), date(2022, 1, 16),
      regulation="SchBesV 2004", provision="§ 14 Abs. 1 Z 1 SchBesV",
      functions={"Fahrgastbetreuer": 2, "FahrgastErsthelfer": 1, "SachkundigerFahrgastschifffahrt": 0}),
    C("SchBV 2022 governs from 17 Jan 2022 (Sachkundige)", day_trip(300, on_board=250), date(2022, 1, 17), regulation="SchBV 2022",
      provision="§ 43 Abs. 2 Z 1 SchBV", functions={"Fahrgastbetreuer": 0, "FahrgastErsthelfer": 1, "SachkundigerFahrgastschifffahrt": 1}),
    C("§ 47 Abs. 13 SchBV (second): on 17 Jan 2027 the transitional rule still applies", day_trip(300), date(2027, 1, 17),
      transitional=["2027-01-17"]),
    C("§ 47 Abs. 13 SchBV (second): from 18 Jan 2027 it no longer applies", day_trip(300), date(2027, 1, 18), transitional=[]),
    C("§ 14 Abs. 1 Z 2 SchBesV (H.8, H.10): original rows: a 15 m vessel with 100 on board takes the length row",
      day_trip(120, length=15, on_board=100), date(2010, 12, 14), covered=True, stufe=1,
      functions={"Fahrgastbetreuer": 0, "FahrgastErsthelfer": 1, "SachkundigerFahrgastschifffahrt": 0}),
    # --- tables not in the sources, gaps -------------------------------------------------------------------------------
    C("§ 41 SchBV: a motor vessel is not covered, §§ 45, 46 named", {"kind": "motor_vessel", "waters": "waterway", "length_m": 110,
                                                                   "standard": "S2", "engine_kw": 1200},
      covered=False, reason="§ 41 Abs. 2", provisions=["§ 46 SchBV"], alternatives=[], functions=None,
      known=["SchBV2022-P41-Abs5-Maschinist", "SchBV2022-P41-Abs7-FirstAid", "SchBV2022-P41-Abs3-Substitution"]),
    C("§ 41 Abs. 8 SchBV: on other waters the Decksmann-for-Matrose rule is known beside the missing table",
      {"kind": "motor_vessel", "waters": "other", "length_m": 25, "standard": "S1", "engine_kw": 200}, covered=False,
      known=["SchBV2022-P41-Abs8-Substitution"]),
    C("§ 41 Abs. 9 SchBV: a motor vessel up to 30 m on still waters: the reduction is known beside the missing table",
      {"kind": "motor_vessel", "waters": "other", "length_m": 30, "standard": "S1", "engine_kw": 200, "still_waters": True,
       "anchor_from_wheelhouse": True, "mooring_person_at_landings": True}, covered=False, known=["SchBV2022-P41-Abs9-Reduction"]),
    C("§ 41 Abs. 9 SchBV: 30.5 m are too long for the reduction",
      {"kind": "motor_vessel", "waters": "other", "length_m": 30.5, "standard": "S1", "engine_kw": 200, "still_waters": True,
       "anchor_from_wheelhouse": True, "mooring_person_at_landings": True}, covered=False, not_known=["SchBV2022-P41-Abs9-Reduction"]),
    C("§ 43 Abs. 5 SchBV: a day-trip ship sailing without passengers follows § 41 (not covered)", day_trip(300, on_board=0),
      covered=False, reason="§ 41 Abs. 2"),
    C("§ 43 Abs. 5 SchBV: a cabin ship sailing without passengers follows § 41 (not covered)", cabin(120, on_board=0),
      covered=False, reason="§ 41 Abs. 2"),
    C("§ 14 Abs. 4 SchBesV: in 2015 an empty day-trip ship followed § 12 (not covered)", day_trip(300, on_board=0), OLD,
      covered=False, reason="§ 12 Abs. 1"),
    C("§ 42 SchBV: a push convoy in 2026 is not covered; the last known table is information only", convoy(188, 22.8, barges=4),
      covered=False, reason="§ 42 Abs. 1", provisions=["§ 46 SchBV"], last_known_stufe=5),
    C("§ 44 SchBV: a vessel below S1 in 2026 is not covered; SchBesV 2004 § 15 is the last known rule",
      day_trip(70, length=24, standard="none", s1_unmet=["c"]), covered=False, reason="§ 44", last_known_stufe=2),
    C("§ 44 SchBV: standard 'none' alone (no S1 literae named) is answered, not refused: not covered in 2026",
      day_trip(70, length=24, standard="none"), covered=False, reason="§ 44", last_known_stufe=2),
    C("§ 15 Abs. 1 SchBesV: standard 'none' naming no unmet litera: one Matrose more, § 15 Abs. 2 not reached",
      day_trip(70, length=24, standard="none"), date(2010, 6, 1), stufe=2, standard="S1", alternatives=[{SF: 1, M: 2}],
      adjusted=["SchBesV2004-P15-Abs1-Addition"]),
    C("§ 15 Abs. 1 SchBesV: below S1 one Matrose more on column S1", day_trip(70, length=24, standard="none", s1_unmet=["d"]), date(2010, 6, 1),
      stufe=2, standard="S1", alternatives=[{SF: 1, M: 2}], adjusted=["SchBesV2004-P15-Abs1-Addition"]),
    C("§ 15 Abs. 2 SchBesV: lit. a–c not met: the additional crew member is a Matrosen-Motorwart",
      day_trip(70, length=24, standard="none", s1_unmet=["c", "d"]), date(2010, 6, 1), alternatives=[{SF: 1, MMW: 1, M: 1}],
      adjusted=["SchBesV2004-P15-Abs2-Addition"]),
    # --- temporary reductions, only on a date whose school attendance allows them --------------------------------------------------------------------------
    C("§ 43 Abs. 7 SchBV: not applied without school attendance", day_trip(300), alternatives=[{SF: 1, M: 1, LM: 1}],
      offered=["SchBV2022-P43-Abs7-Reduction"]),
    C("§ 43 Abs. 7 SchBV: Stufe 3 S1 without the Leichtmatrose when its conditions hold", day_trip(300), temporary=frozenset({"SchBV2022-P43-Abs7-Reduction"}), alternatives=[{SF: 1, M: 1}],
      adjusted=["SchBV2022-P43-Abs7-Reduction"]),
    C("§ 43 Abs. 7 SchBV (H.6): Stufe 5 S1 has no Leichtmatrose to remove", day_trip(1100), temporary=frozenset({"SchBV2022-P43-Abs7-Reduction"}),
      alternatives=[{SF: 1, StM: 1, M: 2}], idle=["SchBV2022-P43-Abs7-Reduction"]),
    C("§ 43 Abs. 7 SchBV (H.6): Stufe 2 S2 has no Leichtmatrose to remove", day_trip(75, standard="S2"), temporary=frozenset({"SchBV2022-P43-Abs7-Reduction"}),
      alternatives=[{SF: 1, M: 1}], idle=["SchBV2022-P43-Abs7-Reduction"]),
]


@pytest.fixture(scope="module")
def answers() -> dict[str, dict[str, Any]]:
    """All cases, one Datalog run per (date, temporary)."""
    law = load_law()
    ml = load_manning(law)
    groups: dict[tuple[date, frozenset[str]], list[tuple[Case, Any]]] = {}
    for i, case in enumerate(CASES):
        v = vessel_from_mapping({"id": f"v{i}", **case.record}, ml, case.name)
        groups.setdefault((case.as_of, case.temporary), []).append((case, v))
    out = {}
    for (as_of, temporary), items in groups.items():
        reqs = requirements(law, ml, [v for _, v in items], as_of, temporary, lang="en")  # the reasons are asserted in English
        for (case, _), req in zip(items, reqs, strict=True):
            out[case.name] = req.answer
    return out


def test_case_names_are_unique():
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_minimum_crew(case: Case, answers):
    a = answers[case.name]
    e = case.expect
    assert a["covered"] is e.get("covered", True), a.get("reason")
    for key in ("stufe", "provision", "standard", "regulation", "alternatives", "provisions"):
        if key in e:
            assert a.get(key) == e[key], key
    if "functions" in e:
        if e["functions"] is None:
            assert a["functions"] is None
        else:
            assert {k: a["functions"][k] for k in e["functions"]} == e["functions"]
    if "reason" in e:
        assert e["reason"] in a["reason"]
    if "adjusted" in e:
        assert [x["id"] for x in a["adjustments"]] == e["adjusted"]
    if "idle" in e:
        assert [x["id"] for x in a["adjustments"] if x["no_effect_on"]] == e["idle"]
    if "offered" in e:
        assert [x["id"] for x in a["temporary_reductions_available"]] == e["offered"]
    if "transitional" in e:
        assert [x["until"] for x in a["transitional"]] == e["transitional"]
    if "known" in e:
        assert set(e["known"]) <= {r["id"] for r in a["known_rules"]}
    if "not_known" in e:
        assert not set(e["not_known"]) & {r["id"] for r in a["known_rules"]}
    if "last_known_stufe" in e:
        lk = a["last_known"]
        assert lk["information_only"] is True and "not the answer" in lk["note"]
        assert lk["regulation"] == "SchBesV 2004" and lk["valid_until"] == "2022-01-16"
        assert lk["stufe"] == e["last_known_stufe"]


def test_the_functions_object_has_exactly_the_keys_of_the_design(answers):
    a = answers["§ 43 Abs. 2 Z 2 SchBV: 251 on board need 2 Ersthelfer"]
    assert set(a["functions"]) == {"SachkundigerFahrgastschifffahrt", "FahrgastErsthelfer", "Fahrgastbetreuer",
                                   "Atemschutzgeraetetraeger", "FirstAid", "engine", "SachkundigerLNG"}


def test_the_answer_says_why_the_row_applies(answers):
    a = answers["§ 43 Abs. 2 Z 1 SchBV: 76 permitted passengers are Stufe 3"]
    assert {"attribute": "passengers", "op": "ge", "value": 76.0, "have": 76} in a["conditions"]
    assert a["row"].startswith("3 | Zulässige Anzahl der Fahrgäste: von 76 bis 300")
    assert any("76" in line for line in a["why"])


def test_where_two_rows_meet_the_answer_states_the_other_reading(answers):
    """Stufe 3 (dimensions) and Stufe 4 (composition): Stufe 4 applies, Stufe 3 is the other reading (tests/test_readings.py)."""
    a = answers["§ 13 Abs. 1 SchBesV: a motor vessel with 1 lighter of 116.5 m and 11.4 m meets Stufe 3 and Stufe 4: Stufe 4 applies"]
    (r,) = a["readings"]
    assert r["id"] == "SchBesV2004-P13-Abs1-Reading-Stufe3" and r["provision"] == "§ 13 Abs. 1 SchBesV"
    assert r["differs"] is True and r["under_other_reading"]["stufe"] == 3
