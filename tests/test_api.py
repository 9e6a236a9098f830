"""The Python API (crewkg.api): its doctested examples run, `import crewkg` stays light, and the CLI answers
through it (same JSON)."""

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import crewkg
import crewkg.api

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "kb" / "examples" / "persons" / "04-jonas-steuermann-one-exam-short.yaml"
VESSEL = sorted((ROOT / "kb" / "examples" / "vessels").glob("*.yaml"))[0]


def test_doctests_of_the_api_module():
    result = doctest.testmod(crewkg.api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4
    assert result.failed == 0


def test_import_crewkg_is_light():
    code = "import sys, crewkg; print(sorted(m for m in ('rdflib', 'pyDatalog', 'crewkg.api') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_api_answer_equals_cli_json():
    cli = subprocess.run([sys.executable, "-m", "crewkg", "check", str(EXAMPLE), "--as-of", "2024-06-01", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(cli) == crewkg.check(EXAMPLE, as_of="2024-06-01")


def test_bad_input_raises_input_error():
    try:
        crewkg.check({"id": "x", "birth_date": "1990-01-01"}, as_of="yesterday")
    except crewkg.InputError as exc:
        assert exc.field == "as_of"
    else:
        raise AssertionError("a bad date must raise InputError")


@pytest.mark.parametrize("call", ["check", "explain", "plan", "crew"])
@pytest.mark.parametrize("lang", ["fr", "EN"])
def test_an_unknown_language_raises_input_error_as_the_cli_refuses_it(call, lang):
    args = {"check": ({"id": "x", "birth_date": "1990-01-01"},), "explain": (EXAMPLE, "UBZ-Steuermann"),
            "plan": (EXAMPLE, "UBZ-Steuermann"), "crew": (VESSEL,)}[call]
    with pytest.raises(crewkg.InputError) as exc:
        getattr(crewkg, call)(*args, as_of="2024-06-01", lang=lang)
    assert exc.value.field == "lang"


def test_explain_gives_structure_and_text():
    out = crewkg.explain(EXAMPLE, "UBZ-Steuermann", as_of="2024-06-01", lang="en")
    assert out["certificate"]["id"] == "UBZ-Steuermann"
    assert "UBZ-Steuermann" in json.dumps(out["answer"]) and out["text"].strip()


def test_plan_and_crew_through_the_api():
    vessel = {"id": "ms-wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5,
              "breadth_m": 11.4, "passengers": 300, "passengers_on_board": 250, "standard": "S1", "engine_kw": 800}
    answer = crewkg.crew(vessel, as_of="2024-06-01")
    assert answer["vessel"] == "ms-wachau" and answer["covered"] is True and answer["alternatives"]
    routes = crewkg.plan(EXAMPLE, "UBZ-Steuermann", as_of="2024-06-01")
    assert "routes" in routes
    try:
        crewkg.plan(EXAMPLE, "no-such-certificate", as_of="2024-06-01")
    except crewkg.InputError as exc:
        assert exc.field == "target"
    else:
        raise AssertionError("an unknown target must raise InputError")


def test_plan_refuses_a_target_of_another_regulation_as_the_cli_does():
    # on 2015-06-01 the SchBesV 2004 applies: a SchBV 2022 UBZ is refused with the day it applies from (a KeyError
    # before); the day before and on 17 Jan 2022
    for day in ("2015-06-01", "2022-01-16"):
        try:
            crewkg.plan(EXAMPLE, "UBZ-Steuermann", as_of=day)
        except crewkg.InputError as exc:
            assert exc.field == "as_of" and "2022-01-17" in str(exc)
        else:
            raise AssertionError(f"a SchBV 2022 target on {day} must raise InputError")
    assert crewkg.plan(EXAMPLE, "UBZ-Steuermann", as_of="2022-01-17")["target"] == "UBZ-Steuermann"
    # a short name resolves as in the CLI
    assert crewkg.plan(EXAMPLE, "Steuermann", as_of="2022-01-17")["target"] == "UBZ-Steuermann"


def test_crewkg_law_stays_the_function_after_the_subpackage_is_imported():
    import crewkg
    import crewkg.law.statute  # noqa: F401 - the subpackage of the same name

    crewkg.check({"id": "x", "birth_date": "2000-01-01"}, as_of="2026-11-30")
    assert callable(crewkg.law) and "UBZ-Steuermann" in crewkg.law().certificates


CABIN = {"id": "cab", "kind": "cabin_passenger", "waters": "waterway", "length_m": 110.0, "beds": 120,
         "standard": "S1", "engine_kw": 900}


@pytest.mark.parametrize(("drop", "field"), [
    ("engine_kw", "engine_kw"),  # § 43 Abs. 9: without the rated power the engine rule cannot be decided
    ("waters", "waters"),        # § 43 Abs. 2 or 3: which table depends on the waters
    ("beds", "beds"),            # § 43 Abs. 4 Z 1: the table counts beds
    ("passengers_on_board", "passengers_on_board"),  # § 43 Abs. 4 Z 2 counts the passengers on board (Abs. 5: none)
])
def test_the_api_refuses_a_vessel_the_tables_cannot_place_as_the_cli_does(drop, field):
    """`crewkg.crew` (and so `crewkg test` and /api/crew) skipped the SHACL check the CLI makes: a cabin ship without
    the passengers on board was answered „no table covers this vessel“ (§ 45), a day-trip ship without its engine
    power passed a roster without a Matrose-Motorwart. Now every face refuses the record, naming the field."""
    from crewkg.errors import InputError

    vessel = {**CABIN, "passengers_on_board": 90}
    vessel.pop(drop)
    with pytest.raises(InputError) as exc:
        crewkg.crew(vessel, as_of="2026-11-30", lang="en")
    assert exc.value.field == field


@pytest.mark.parametrize("numbers", [{"passengers_on_board": 90}, {"passengers": 90}])
def test_a_cabin_ship_needs_its_beds_and_the_passengers_on_board_not_the_permitted_number(numbers):
    """§ 43 Abs. 4 counts beds (Z 1) and passengers on board (Z 2); the permitted number of passengers stands for the
    passengers on board when the record gives no other (the record's default), and is not asked for itself."""
    a = crewkg.crew({**CABIN, **numbers}, as_of="2026-11-30", lang="en")
    assert a["covered"] is True and a["stufe"] == 3 and a["provision"] == "§ 43 Abs. 4 Z 1 SchBV"


def test_a_convoy_without_a_row_still_states_the_engine_and_first_aid_rules():
    """§ 13 Abs. 4 and 5 SchBesV ask nothing of the table's row: a convoy no Stufe covers (a pusher with 3 lighters,
    200 m, under the bundled wording) is not covered, but its answer says the Maschinist above 1000 kW and the two
    first-aiders apply, as a roster's verdict holds them to."""
    convoy = {"id": "p3", "kind": "pushed_convoy", "waters": "waterway", "length_m": 200, "breadth_m": 22,
              "standard": "S1", "engine_kw": 1600, "convoy": {"propelled_by": "pusher", "barges": 3}}
    a = crewkg.crew(convoy, as_of="2015-06-01", lang="en")
    assert a["covered"] is False
    assert [r["provision"] for r in a["known_rules"]] == ["§ 13 Abs. 4 SchBesV", "§ 13 Abs. 5 SchBesV"]
