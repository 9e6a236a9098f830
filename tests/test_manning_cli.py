"""`crewkg crew` as people and programs use it: the JSON contract, the text for people, and bad vessel
and roster records, which exit 2 with one message naming file, field and what was expected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.cli.common import app


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into output unless told not to
    except TypeError:  # click >= 8.2 keeps stderr apart
        return CliRunner()


runner = _runner()
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
WACHAU = EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml"
SUBSTITUTION = EXAMPLES / "rosters" / "01-ms-wachau-substitution.yaml"
SHORT = EXAMPLES / "rosters" / "01-ms-wachau-short.yaml"
FULL = EXAMPLES / "rosters" / "01-ms-wachau-full.yaml"
ENNS = EXAMPLES / "vessels" / "07-gms-enns-motor-cargo.yaml"
DAY_TRIP = {"id": "v", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 40, "passengers": 100, "standard": "S1",
            "engine_kw": 300}


@pytest.fixture(scope="module", autouse=True)
def _fresh_cache(tmp_path_factory):
    """Own cache folder, so no 'already valid' SHACL marker from another run hides a violation."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CREWKG_CACHE", str(tmp_path_factory.mktemp("crewkg-cache")))
        yield


def crew_json(*args: str, status: int = 0) -> dict:
    result = runner.invoke(app, ["crew", *args, "--format", "json"])
    assert result.exit_code == status, (result.output, result.exception)
    return json.loads(result.stdout)


def test_the_json_answer_keeps_the_contract_of_the_design():
    a = crew_json(str(WACHAU), "--roster", str(SUBSTITUTION), "--as-of", "2026-11-30")
    assert (a["regulation"], a["provision"], a["stufe"], a["covered"]) == ("SchBV 2022", "§ 43 Abs. 2 Z 1 SchBV", 3, True)
    assert a["alternatives"] == [{"Schiffsfuehrer": 1, "Matrose": 1, "Leichtmatrose": 1}]
    assert set(a["functions"]) == {"SachkundigerFahrgastschifffahrt", "FahrgastErsthelfer", "Fahrgastbetreuer",
                                   "Atemschutzgeraetetraeger", "FirstAid", "engine", "SachkundigerLNG"}
    assert a["functions"]["engine"] in ("MatroseMotorwart", "Maschinist", None)
    roster = a["roster"]
    assert roster["satisfied"] is True and roster["missing"] == []
    assert roster["assignment"]["lena"] == ["Matrose"]


def test_a_failing_roster_names_each_gap_with_its_provision_and_who_would_fill_it():
    r = crew_json(str(WACHAU), "--roster", str(SHORT), "--as-of", "2026-11-30", status=1)["roster"]
    assert r["satisfied"] is False
    assert [(m["kind"], m["role"], m["provision"]) for m in r["missing"]] == [
        ("position", "Matrose", "§ 43 Abs. 2 Z 1 SchBV"), ("function", "FahrgastErsthelfer", "§ 43 Abs. 2 Z 2 SchBV"),
        ("qualification", "FirstAid", "§ 43 Abs. 11 SchBV")]
    assert all(m["fill_with"] for m in r["missing"])


def test_a_vessel_no_table_covers_answers_not_covered_with_the_provisions():
    a = crew_json(str(ENNS), "--as-of", "2026-11-30")
    assert a["covered"] is False and a["alternatives"] == [] and a["functions"] is None
    assert "§ 41 Abs. 2 SchBV" in a["reason"] and a["provisions"] == ["§ 46 SchBV"]
    # the table governs the motor vessel, only the sources lack it: § 45 SchBV and § 16 Abs. 1 SchBesV ('Fahrzeuge, die
    # nicht unter die §§ 12 bis 14 fallen') are for vessels no table governs, so only the deviation provisions are named
    a = crew_json(str(ENNS), "--as-of", "2015-06-01")
    # the authority fixes the minimum crew with the admission (§ 3 Abs. 1 SchBesV) and may depart from §§ 12-15 (§ 17)
    assert "§ 12 Abs. 1 SchBesV" in a["reason"] and a["provisions"] == ["§ 17 SchBesV", "§ 3 Abs. 1 SchBesV"]


def test_the_text_says_which_row_applies_why_and_the_roster_verdict():
    result = runner.invoke(app, ["crew", str(WACHAU), "--roster", str(SUBSTITUTION), "--as-of", "2026-11-30"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "§ 43 Abs. 2 Z 1 SchBV, Stufe 3" in out
    assert "Zulässige Anzahl der Fahrgäste: von 76 bis 300" in out
    assert "zulässige Anzahl der Fahrgäste 300: mindestens 76" in out
    assert "✓ erfüllt" in out and "lena → Matrosin bzw. Matrose [Ersetzung als Leichtmatrosin bzw. Leichtmatrose (§ 43 Abs. 6 SchBV)]" in out


def test_the_text_of_a_failing_roster_in_english():
    result = runner.invoke(app, ["crew", str(WACHAU), "--roster", str(SHORT), "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 1, result.output
    assert "✗ not satisfied" in result.stdout
    assert "aged 16, at least 17 needed (reached on 2027-03-01)" in result.stdout


@pytest.mark.parametrize("lang, satisfied, first_aid", [
    ("de", "✓ erfüllt", "✓ Ersthelferin bzw. Ersthelfer (§ 40 Abs. 2 AStV): 2/2 (kapitaen-huber, sophie) (§ 43 Abs. 11 SchBV)"),
    ("en", "✓ satisfied", "✓ first-aider: 2/2 (kapitaen-huber, sophie) (§ 43 Abs. 11 SchBV)")])
def test_the_text_counts_a_declared_fahrgast_ersthelfer_as_first_aider(tmp_path, lang, satisfied, first_aid):
    """§ 43 Abs. 11 SchBV with § 29 Abs. 3 SchBV: the captain and the Fahrgast-Ersthelferin are the two first-aiders."""
    roster = yaml.safe_load(FULL.read_text(encoding="utf-8"))
    for p in roster["crew"]:
        if p["id"] == "maria":
            p["functions"] = ["MatroseMotorwart"]
    result = runner.invoke(app, ["crew", str(WACHAU), "--roster", str(_write(tmp_path, roster, "r.yaml")), "--as-of", "2026-11-30",
                                 "--lang", lang])
    assert result.exit_code == 0, result.output
    roster_part = result.stdout.split(satisfied, 1)[1]
    assert first_aid in roster_part
    assert "✗" not in roster_part.split("\n\n", 1)[0]


def test_the_text_of_a_vessel_not_covered_marks_the_last_known_table_as_not_the_answer():
    result = runner.invoke(app, ["crew", str(EXAMPLES / "vessels" / "06-sb-linz-push-convoy-2026.yaml"), "--as-of", "2026-11-30"])
    assert result.exit_code == 0, result.output
    assert "nicht abgedeckt" in result.stdout and "NICHT die Antwort" in result.stdout and "§ 13 Abs. 1 SchBesV, Stufe 5" in result.stdout


@pytest.mark.parametrize("lang, says", [("de", "Die Behörde entscheidet nach: § 17 SchBesV, § 3 Abs. 1 SchBesV"),
                                         ("en", "The authority decides under: § 17 SchBesV, § 3 Abs. 1 SchBesV")])
def test_the_missing_table_of_paragraph_12_schbesv_names_the_admission_and_paragraph_17(lang, says):
    result = runner.invoke(app, ["crew", str(ENNS), "--as-of", "2015-06-01", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert says in result.stdout


def _at_school(tmp_path: Path, start: str = "2026-11-01", end: str = "2026-12-31") -> Path:
    """The full MS Wachau roster with its Leichtmatrose tobias at school in the period given."""
    roster = yaml.safe_load(FULL.read_text(encoding="utf-8"))
    roster["school_attendance"] = [{"member": "tobias", "from": start, "to": end}]
    return _write(tmp_path, roster, "r.yaml")


def test_school_attendance_applies_the_temporary_reduction_only_on_a_date_the_roster_states(tmp_path):
    """The reduction is dated data of the roster (§ 43 Abs. 7 SchBV): on a day of school attendance the crew needs no
    Leichtmatrose and tobias, at school, is not on board; the day before the period the table's crew stands."""
    roster = str(_at_school(tmp_path))
    before = crew_json(str(WACHAU), "--roster", roster, "--as-of", "2026-10-31")
    during = crew_json(str(WACHAU), "--roster", roster, "--as-of", "2026-11-30")
    assert before["alternatives"] == [{"Schiffsfuehrer": 1, "Matrose": 1, "Leichtmatrose": 1}]
    assert during["alternatives"] == [{"Schiffsfuehrer": 1, "Matrose": 1}]
    assert during["roster"]["satisfied"] is True and during["roster"]["at_school"] == ["tobias"]
    assert "tobias" not in during["roster"]["assignment"]
    (r,) = during["school_attendance"]["reductions"]
    assert r["applies"] is True and r["provision"] == "§ 43 Abs. 7 SchBV" and r["fails"] == []
    assert crew_json(str(WACHAU), "--as-of", "2026-11-30")["alternatives"][0]["Leichtmatrose"] == 1  # no roster: no reduction


def test_the_school_attendance_switch_is_gone():
    result = runner.invoke(app, ["crew", str(WACHAU), "--as-of", "2026-11-30", "--school-attendance"])
    assert result.exit_code == 2


def test_the_as_of_date_selects_the_law():
    before = crew_json(str(WACHAU), "--as-of", "2022-01-16")
    after = crew_json(str(WACHAU), "--as-of", "2022-01-17")
    assert (before["regulation"], before["provision"]) == ("SchBesV 2004", "§ 14 Abs. 1 Z 1 SchBesV")
    assert (after["regulation"], after["provision"]) == ("SchBV 2022", "§ 43 Abs. 2 Z 1 SchBV")


# --- the exit status: a script can gate on the roster -------------------------------------------------------------------
LINZ_2004 = EXAMPLES / "vessels" / "05-sb-linz-push-convoy-2004.yaml"
LINZ_ROSTER = EXAMPLES / "rosters" / "05-sb-linz-2015.yaml"


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize(("roster", "satisfied", "status"), [(FULL, True, 0), (SUBSTITUTION, True, 0), (SHORT, False, 1)],
                         ids=["full: satisfied", "substitution: satisfied", "short: not satisfied"])
def test_the_exit_status_says_whether_the_roster_fills_the_minimum_crew(fmt, roster, satisfied, status):
    """Exit 0 exactly when the roster is satisfied, 1 when it is not: the same in text and in JSON."""
    result = runner.invoke(app, ["crew", str(WACHAU), "--roster", str(roster), "--as-of", "2026-11-30", "--format", fmt,
                                 "--lang", "en"])
    assert result.exit_code == status, (result.output, result.exception)
    if fmt == "json":
        assert json.loads(result.stdout)["roster"]["satisfied"] is satisfied
    else:
        assert ("✓ satisfied" if satisfied else "✗ not satisfied") in result.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_roster_that_cannot_be_confirmed_exits_1(fmt):
    """No table of the sources covers the convoy on the date: the verdict is neither yes nor no (null), and a script
    that gates on the roster must not pass it."""
    result = runner.invoke(app, ["crew", str(LINZ_2004), "--roster", str(LINZ_ROSTER), "--as-of", "2026-11-30",
                                 "--format", fmt, "--lang", "en"])
    assert result.exit_code == 1, (result.output, result.exception)
    if fmt == "json":
        a = json.loads(result.stdout)
        assert a["covered"] is False and a["roster"]["satisfied"] is None
    else:
        assert "? cannot be decided" in result.stdout


@pytest.mark.parametrize("vessel", [WACHAU, LINZ_2004], ids=["covered", "not covered"])
def test_without_a_roster_the_minimum_crew_exits_0(vessel):
    assert runner.invoke(app, ["crew", str(vessel), "--as-of", "2026-11-30", "--format", "json"]).exit_code == 0


def test_the_help_of_crew_says_its_exit_status():
    result = runner.invoke(app, ["crew", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "Exit status" in text and "1 when a roster is given and does not fill it or cannot be confirmed" in text
    assert "2 for bad input" in text


# --- bad input --------------------------------------------------------------------------------------------------------
def _write(tmp_path: Path, data, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    if not isinstance(data, str):
        data = json.dumps(data) if name.endswith(".json") else yaml.safe_dump(data, allow_unicode=True)
    path.write_text(data, encoding="utf-8")
    return path


BAD_VESSELS = {
    "unknown key": (DAY_TRIP | {"tonnage": 900}, "field 'tonnage'"),
    "wrong type": (DAY_TRIP | {"length_m": "long"}, "field 'length_m': expected a number"),
    "negative number": (DAY_TRIP | {"engine_kw": -5}, "field 'engine_kw': expected a number that is not negative"),
    "unknown kind": (DAY_TRIP | {"kind": "ferry"}, "field 'kind': expected one of"),
    "unknown waters": (DAY_TRIP | {"waters": "sea"}, "field 'waters': expected one of waterway, other"),
    "missing id": ({k: v for k, v in DAY_TRIP.items() if k != "id"}, "field 'id'"),
    "passengers missing for a passenger vessel": ({k: v for k, v in DAY_TRIP.items() if k != "passengers"},
                                                  "field 'passengers': expected what the minimum-crew tables need to know "
                                                  "of this vessel (the field is missing, and the minimum-crew tables for "
                                                  "this kind of vessel ask for it)"),
    "more on board than permitted": (DAY_TRIP | {"passengers_on_board": 101}, "field 'passengers_on_board': expected at most the permitted number"),
    "a convoy on a day-trip ship": (DAY_TRIP | {"convoy": {"propelled_by": "pusher", "barges": 1}}, "only for pushed_convoy or coupled_convoy"),
    "s1_unmet with standard S1": (DAY_TRIP | {"s1_unmet": ["a"]}, "field 's1_unmet'"),
    "unknown S1 litera": (DAY_TRIP | {"standard": "none", "s1_unmet": ["j"]}, "field 's1_unmet[0]'"),
    "length zero": (DAY_TRIP | {"length_m": 0}, "field 'length_m'"),
    "infinite length (YAML .inf)": (DAY_TRIP | {"length_m": float("inf")}, "field 'length_m': expected a finite number"),
    "engine power not a number (YAML .nan)": (DAY_TRIP | {"engine_kw": float("nan")}, "field 'engine_kw': expected a finite number"),
    "a convoy without lighters": ({"id": "c", "kind": "pushed_convoy", "waters": "waterway", "length_m": 80, "breadth_m": 11, "standard": "S1",
                                   "engine_kw": 500, "convoy": {"propelled_by": "pusher", "barges": 0}}, "field 'convoy.barges'"),
    "a convoy propelled by a cabin ship": ({"id": "c", "kind": "pushed_convoy", "waters": "waterway", "length_m": 80, "breadth_m": 11,
                                            "standard": "S1", "engine_kw": 500, "convoy": {"propelled_by": "cabin_passenger", "barges": 1}},
                                           "field 'convoy.propelled_by'"),
    "a bad lighter": ({"id": "c", "kind": "pushed_convoy", "waters": "waterway", "length_m": 80, "breadth_m": 11, "standard": "S1",
                       "engine_kw": 500, "convoy": {"propelled_by": "pusher", "barges": [{"length_m": 40}]}}, "field 'convoy.barges[0]'"),
    "lighters side by side: none": ({"id": "c", "kind": "pushed_convoy", "waters": "waterway", "length_m": 80, "breadth_m": 22.8,
                                     "standard": "S1", "engine_kw": 500, "convoy": {"propelled_by": "pusher", "barges": [
                                         {"length_m": 76.5, "breadth_m": 22.8, "abreast": 0}]}},
                                    "field 'convoy.barges[0].abreast': expected a whole number of 1 or more"),
    "a list, not a record": (["id", "kind"], "expected a mapping"),
    "malformed YAML": ("id: [v\nkind: x\n", "expected valid YAML"),
    "empty file": ("", "expected a non-empty record"),
}


@pytest.mark.parametrize("name", list(BAD_VESSELS), ids=list(BAD_VESSELS))
def test_a_bad_vessel_record_exits_2_with_one_clear_message(tmp_path, name):
    data, expected = BAD_VESSELS[name]
    path = _write(tmp_path, data)
    result = runner.invoke(app, ["crew", str(path), "--format", "json", "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"crewkg: error: {path}: ")
    assert expected in result.stderr, result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("target, expected", [
    ("missing.yaml", "expected an existing file"), ("folder", "expected a vessel record file, not a folder"),
    ("v.txt", "expected a vessel record in YAML or JSON")], ids=["missing file", "a folder", "a .txt file"])
def test_a_vessel_path_that_is_no_record_exits_2(tmp_path, target, expected):
    (tmp_path / "folder").mkdir()
    (tmp_path / "v.txt").write_text("id: v\n", encoding="utf-8")
    result = runner.invoke(app, ["crew", str(tmp_path / target), "--lang", "en"])
    assert result.exit_code == 2 and expected in result.stderr


GOOD_PERSON = {"id": "sf", "birth_date": "1975-01-01", "certificates": ["UBZ-Schiffsfuehrer"]}
BAD_ROSTERS = {
    "no crew key": ({"people": [GOOD_PERSON]}, "field 'people': expected only the keys 'crew'"),
    "empty crew": ({"crew": []}, "field 'crew': expected a non-empty list of person records"),
    "unknown certificate": ({"crew": [GOOD_PERSON, {"id": "x", "certificates": ["UBZ-Kapitaen"]}]}, "field 'crew[1].certificates[0]'"),
    "unknown person key": ({"crew": [GOOD_PERSON | {"rank": "captain"}]}, "field 'crew[0].rank'"),
    "duplicate ids": ({"crew": [GOOD_PERSON, GOOD_PERSON]}, "field 'crew[1].id': expected an id not used by another crew member"),
    "born after the evaluation date": ({"crew": [GOOD_PERSON | {"birth_date": "2026-12-01"}]}, "field 'crew[0].birth_date'"),
    "school attendance not a list": ({"crew": [GOOD_PERSON], "school_attendance": {"member": "x"}},
                                     "field 'school_attendance': expected a list of periods of school attendance"),
    "school attendance of no crew member": (
        {"crew": [GOOD_PERSON], "school_attendance": [{"member": "lena", "from": "2026-11-01", "to": "2026-11-30"}]},
        "field 'school_attendance[0].member': expected the id of a member of the roster's crew"),
    "school attendance ending before it begins": (
        {"crew": [GOOD_PERSON], "school_attendance": [{"member": GOOD_PERSON["id"], "from": "2026-11-30", "to": "2026-11-01"}]},
        "field 'school_attendance[0].to': expected a date on or after the first day 2026-11-30"),
    "school attendance with a bad date": (
        {"crew": [GOOD_PERSON], "school_attendance": [{"member": GOOD_PERSON["id"], "from": "1.11.2026", "to": "2026-11-30"}]},
        "field 'school_attendance[0].from'"),
    "school attendance with an unknown key": (
        {"crew": [GOOD_PERSON], "school_attendance": [{"member": GOOD_PERSON["id"], "from": "2026-11-01", "to": "2026-11-30",
                                                       "school": "X"}]},
        "field 'school_attendance[0].school': expected only the keys member, from and to"),
}


@pytest.mark.parametrize("name", list(BAD_ROSTERS), ids=list(BAD_ROSTERS))
def test_a_bad_roster_record_exits_2_with_one_clear_message(tmp_path, name):
    data, expected = BAD_ROSTERS[name]
    vessel = _write(tmp_path, DAY_TRIP)
    roster = _write(tmp_path, data, "r.json") if name == "duplicate ids" else _write(tmp_path, data, "r.yaml")
    result = runner.invoke(app, ["crew", str(vessel), "--roster", str(roster), "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.startswith(f"crewkg: error: {roster}: ")
    assert expected in result.stderr, result.stderr


def test_a_bad_date_exits_2():
    result = runner.invoke(app, ["crew", str(WACHAU), "--as-of", "30.11.2026", "--lang", "en"])
    assert result.exit_code == 2 and "--as-of" in result.stderr and "YYYY-MM-DD" in result.stderr


@pytest.mark.parametrize("passengers, idle", [(800, True), (300, False)],
                         ids=["§ 43 Abs. 7 SchBV: Stufe 5 S1 holds no Leichtmatrose, the reduction removes nothing",
                              "§ 43 Abs. 7 SchBV: Stufe 3 S1 loses its Leichtmatrose"])
def test_a_reduction_with_nothing_to_remove_says_so(tmp_path, passengers, idle):
    vessel = tmp_path / "v.yaml"
    vessel.write_text(yaml.safe_dump(DAY_TRIP | {"length_m": 80, "passengers": passengers}), encoding="utf-8")
    result = runner.invoke(app, ["crew", str(vessel), "--roster", str(_at_school(tmp_path)), "--as-of", "2026-11-30",
                                 "--lang", "en"])
    line = next(x for x in result.output.splitlines() if x.strip().startswith("applied:"))
    assert ("nothing to remove in this cell" in line) is idle
    # the school attendance says which condition fails: the cell prescribes no Leichtmatrose to leave out
    assert ("✗ the table cell prescribes no place for apprentice deckhand" in result.output) is idle


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "under alternative 1 the roster would lack instead: 1 × able boatman (§ 13 Abs. 1 SchBesV)"),
    ("de", "bei Variante 1 fehlte stattdessen: 1 × Bootsfrau bzw. Bootsmann (§ 13 Abs. 1 SchBesV)")])
def test_the_text_names_what_the_other_alternative_of_the_row_would_lack(tmp_path, lang, line):
    """§ 13 Abs. 1 SchBesV Stufe 2 S1: a Schiffsführer and a Matrose lack a Leichtmatrose under alternative 2 and a
    Bootsmann under alternative 1; the reader is told both ways out, in the language asked for."""
    vessel, roster = tmp_path / "v.yaml", tmp_path / "r.yaml"
    vessel.write_text(yaml.safe_dump({"id": "sb", "kind": "pushed_convoy", "waters": "waterway", "length_m": 60.0,
                                      "breadth_m": 11.4, "standard": "S1", "engine_kw": 300,
                                      "convoy": {"propelled_by": "pusher", "barges": 1}}))
    roster.write_text(yaml.safe_dump({"crew": [
        {"id": "sf", "birth_date": "1960-01-01", "certificates": ["Kapitaenspatent-A"], "functions": ["FirstAid"]},
        {"id": "m", "birth_date": "1980-01-01", "certificates": ["SchBesV2004-Matrose"], "functions": ["FirstAid"]}]}))
    result = runner.invoke(app, ["crew", str(vessel), "--roster", str(roster), "--as-of", "2015-06-01", "--lang", lang],
                           env={"COLUMNS": "250"})
    assert result.exit_code == 1, (result.output, result.exception)  # the roster lacks one of the two
    assert line in " ".join(result.stdout.split())
