"""The example vessels and rosters in kb/examples/: each loads, conforms to ontology/manning-shapes.ttl, tells its
story in a header comment, and gets the answer that comment promises on the date it names."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import crew_answer
from crewkg.manning.vessels import load_roster, load_vessel

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
VESSELS = sorted((EXAMPLES / "vessels").glob("*.yaml"))
ROSTERS = sorted((EXAMPLES / "rosters").glob("*.yaml"))
SF, StM, M, LM, D, MMW = "Schiffsfuehrer", "Steuermann", "Matrose", "Leichtmatrose", "Decksmann", "MatroseMotorwart"

#: file -> (covered, provision, stufe, alternatives, selected functions)
VESSEL_OUTCOMES = {
    "01-ms-wachau-danube-day-trip.yaml": (True, "§ 43 Abs. 2 Z 1 SchBV", 3, [{SF: 1, M: 1, LM: 1}],
                                          {"SachkundigerFahrgastschifffahrt": 1, "FahrgastErsthelfer": 1, "FirstAid": 2, "engine": MMW}),
    "02-ms-wolfgang-lake-boat.yaml": (True, "§ 43 Abs. 3 Z 1 SchBV", 1, [{SF: 1, D: 1}],
                                      {"Fahrgastbetreuer": 1, "FahrgastErsthelfer": 1, "FirstAid": 1, "engine": None}),
    "03-mb-plaetten-small-lake-boat.yaml": (True, "§ 43 Abs. 3 Z 1 SchBV", 1, [{SF: 1}], {"FahrgastErsthelfer": 1, "FirstAid": 1}),
    "04-mv-amadeus-cabin-ship.yaml": (True, "§ 43 Abs. 4 Z 1 SchBV", 3, [{SF: 1, StM: 1, M: 3}, {SF: 1, StM: 1, M: 2, LM: 2}],
                                      {"SachkundigerFahrgastschifffahrt": 1, "FahrgastErsthelfer": 2, "Atemschutzgeraetetraeger": 2,
                                       "engine": "Maschinist"}),
    "05-sb-linz-push-convoy-2004.yaml": (True, "§ 13 Abs. 1 SchBesV", 5, [{SF: 1, StM: 1, M: 2, LM: 1}], {"engine": "Maschinist", "FirstAid": 2}),
    "06-sb-linz-push-convoy-2026.yaml": (False, "§ 42 SchBV", None, [], None),
    "07-gms-enns-motor-cargo.yaml": (False, "§ 41 SchBV", None, [], None),
    "08-ms-stadt-wien-large-day-trip.yaml": (True, "§ 43 Abs. 2 Z 1 SchBV", 6, [{SF: 1, StM: 1, M: 2}],
                                             {"SachkundigerFahrgastschifffahrt": 2, "FahrgastErsthelfer": 2, "engine": "Maschinist"}),
    "09-kv-ybbs-coupled-2004.yaml": (True, "§ 13 Abs. 1 SchBesV", 4, [{SF: 1, StM: 1, M: 1, LM: 1}], {"engine": MMW, "FirstAid": 2}),
    # no Stufe above 700 permitted passengers, but the passenger-safety row of § 43 Abs. 3 Z 2 (by the passengers on
    # board) holds all the same, as a roster is judged by it
    "10-ms-traunsee-over-700.yaml": (False, "§ 43 Abs. 3 Z 1 SchBV", None, [], {"FahrgastErsthelfer": 2, "Fahrgastbetreuer": 1}),
    "11-ms-blue-danube-lng.yaml": (True, "§ 43 Abs. 2 Z 1 SchBV", 3, [{SF: 1, M: 1}], {"SachkundigerLNG": True, "engine": None}),
    "12-ms-alte-donau-2010-below-s1.yaml": (True, "§ 14 Abs. 1 Z 1 SchBesV", 2, [{SF: 1, MMW: 1, M: 1}],
                                            {"Fahrgastbetreuer": 1, "FahrgastErsthelfer": 1}),
}
#: roster -> (vessel file, satisfied, substitutions used)
ROSTER_OUTCOMES = {
    "01-ms-wachau-full.yaml": ("01-ms-wachau-danube-day-trip.yaml", True, []),
    "01-ms-wachau-school.yaml": ("01-ms-wachau-danube-day-trip.yaml", True, []),
    "01-ms-wachau-substitution.yaml": ("01-ms-wachau-danube-day-trip.yaml", True, ["SchBV2022-P43-Abs6-Substitution-Matrose"]),
    "01-ms-wachau-short.yaml": ("01-ms-wachau-danube-day-trip.yaml", False, []),
    "02-ms-wolfgang-crew.yaml": ("02-ms-wolfgang-lake-boat.yaml", True, ["SchBV2022-P43-Abs3-Z2-Substitution-Fahrgastbetreuer"]),
    "02-ms-wolfgang-records.yaml": ("02-ms-wolfgang-lake-boat.yaml", True, []),
    "03-mb-plaetten-alone.yaml": ("03-mb-plaetten-small-lake-boat.yaml", True, []),
    "04-mv-amadeus-crew.yaml": ("04-mv-amadeus-cabin-ship.yaml", True, []),
    "05-sb-linz-2015.yaml": ("05-sb-linz-push-convoy-2004.yaml", True, []),
    "09-kv-ybbs-decksmann.yaml": ("09-kv-ybbs-coupled-2004.yaml", True, ["SchBesV2004-P13-Abs1-Fn1-Substitution"]),
}


def header(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        out.append(line)
    return out


def promised_date(path: Path) -> date:
    m = re.search(r"crewkg on (\d{4}-\d{2}-\d{2})", "\n".join(header(path)))
    assert m, f"{path.name}: the header must say 'crewkg on YYYY-MM-DD: …'"
    return date.fromisoformat(m.group(1))


def test_the_folders_hold_the_promised_examples():
    assert len(VESSELS) >= 8
    assert sorted(VESSEL_OUTCOMES) == [p.name for p in VESSELS]
    assert sorted(ROSTER_OUTCOMES) == [p.name for p in ROSTERS]
    kinds = {load_vessel(p, load_law(), load_manning(load_law())).values["vesselKind"] for p in VESSELS}
    assert kinds == {"DayTripPassengerShip", "CabinPassengerShip", "PushedConvoy", "CoupledConvoy", "MotorVessel"}


@pytest.mark.parametrize("path", VESSELS + ROSTERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_example_starts_with_a_comment_telling_its_story(path):
    assert len(header(path)) >= 3
    promised_date(path)


@pytest.mark.parametrize("path", VESSELS, ids=lambda p: p.name)
def test_each_vessel_gets_the_answer_its_comment_promises(path, law):
    ml = load_manning(law)
    v = load_vessel(path, law, ml)  # schema check and SHACL
    covered, provision, stufe, alternatives, functions = VESSEL_OUTCOMES[path.name]
    a = crew_answer(law, ml, v, promised_date(path))
    assert (a["covered"], a.get("provision"), a.get("stufe"), a["alternatives"]) == (covered, provision, stufe, alternatives)
    if not covered:
        # § 45 SchBV (the other vessels) only where the table has no row for the vessel (10: above 700 passengers)
        other = ["§ 45 SchBV"] if path.name.startswith("10-") else []
        assert a["provisions"] == [*other, "§ 46 SchBV"]
    if functions is None:
        assert a["functions"] is None
    else:
        assert {k: a["functions"][k] for k in functions} == functions


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: p.name)
def test_each_roster_gets_the_verdict_its_comment_promises(path, law):
    ml = load_manning(law)
    vessel_file, satisfied, substitutions = ROSTER_OUTCOMES[path.name]
    day = promised_date(path)
    v = load_vessel(EXAMPLES / "vessels" / vessel_file, law, ml)
    persons = load_roster(path, law, ml, day)  # schema check, person shapes and roster shape
    r = crew_answer(law, ml, v, day, persons)["roster"]
    assert r["satisfied"] is satisfied, r["missing"]
    assert sorted(d["substitution"] for d in r["details"] if d["via"] == "substitution") == substitutions
