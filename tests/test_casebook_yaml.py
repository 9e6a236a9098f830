"""The YAML casebook (tests/cases/*.yaml, format in docs/casebook.md): every case is its own pytest item, and the
`crewkg test` command reports a passing file with exit 0, a wrong expectation with exit 1 (case, field, expected,
actual) and a malformed file with exit 2 (file, case, field). The engine must be able to fail: changed expectations
on real answers are reported."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import crewkg
from crewkg.api import law
from crewkg.casebook import Case, load_cases, person_differences, run_case, same, vessel_differences
from crewkg.cli import app
from crewkg.errors import InputError

CASES_DIR = Path(__file__).parent / "cases"
FILES = sorted(CASES_DIR.glob("*.yaml"))
CASES = [case for f in FILES for case in load_cases(f)]
runner = CliRunner()


def test_the_casebook_has_its_files():
    assert {f.name for f in FILES} >= {"schbv2022_10-15.yaml", "schbv2022_10-15_lesarten.yaml", "mindestbesatzung.yaml",
                                       "besatzungslisten.yaml"}
    assert len(CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case):
    outcome = run_case(case)
    assert outcome.passed, "\n".join(f"{d.field}: expected {d.expected!r}, got {d.actual!r}" for d in outcome.differences)


def test_every_encoded_pathway_has_a_minimal_applicant_in_the_yaml_casebook():
    """§§ 10–15 SchBV, §§ 28–29 SchBV (national certificates) and § 4 Abs. 2 SchBesV 2004: each pathway the kb encodes has
    a case in which it alone (with § 10 SchBV, § 4 Abs. 2 Z 1 or Z 9 SchBesV, or another it implies) is satisfied."""
    for regulation, national, file in (("SchBV2022", False, "schbv2022_10-15.yaml"), ("SchBV2022", True, "schbv2022_28-29.yaml"),
                                       ("SchBesV2004", False, "schbesv2004_4.yaml")):
        encoded = {law().citation(w.provision) for w in law().pathways.values()  # (crewkg.law is the subpackage here)
                   if law().certificates[w.certificate].regulation == regulation
                   and law().certificates[w.certificate].national is national and not w.replacement}
        minimal = {cert["pathway"] for c in CASES if c.file.endswith(file) and "satisfied_pathways" in c.expect
                   for cert in c.expect.values() if isinstance(cert, dict) and cert.get("satisfied")}
        assert minimal == encoded, regulation


def test_every_replacement_pathway_of_paragraph_47_has_a_case_that_satisfies_it():
    """§ 47 SchBV: each replacement pathway (crew:ReplacementPathway) is satisfied in a case of schbv2022_47.yaml, and
    the casebook states at least one closed on 18 Jan 2032."""
    encoded = {law().citation(w.provision) for w in law().pathways.values() if w.replacement}
    cases = [c for c in CASES if c.file.endswith("schbv2022_47.yaml")]
    satisfied = {cert["pathway"] for c in cases for cert in c.expect.values() if isinstance(cert, dict) and cert.get("satisfied")}
    assert encoded == satisfied
    assert any(str(c.as_of) == "2032-01-18" for c in cases)


def test_every_case_names_its_provision_and_what_it_shows():
    for c in CASES:
        assert re.match(r"§ \d+ .*\b(SchBV|SchBesV)\b", c.provision), c.name
        assert c.description.endswith("."), c.name


# ---- the engine can fail ---------------------------------------------------------------------------------------------

NARROW = "§ 12 Z 2 lit. c SchBV: 359 days of Fahrzeit are one short"


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


def _answer(case: Case) -> dict:
    return crewkg.check({"id": "case", **case.person}, as_of=case.as_of)


def test_changed_person_expectations_are_reported():
    case = _case(NARROW)
    answer = _answer(case)
    assert person_differences(case.expect, answer) == []
    cert = case.expect["UBZ-Matrose"]
    changes = [
        ("eligible", lambda e: e["UBZ-Matrose"].__setitem__("eligible", True)),
        ("satisfied", lambda e: e["UBZ-Matrose"].__setitem__("satisfied", True)),
        ("have", lambda e: e["UBZ-Matrose"]["missing"][0].__setitem__("have", 360)),
        ("needed", lambda e: e["UBZ-Matrose"]["missing"][0].__setitem__("needed", 359)),
        ("missing", lambda e: e["UBZ-Matrose"]["missing"].append("§ 12 Z 2 lit. b SchBV")),
        ("missing", lambda e: e["UBZ-Matrose"].__setitem__("missing", ["§ 12 Z 2 lit. a SchBV"])),
        ("[2]", lambda e: e["UBZ-Matrose"]["missing"][0].__setitem__("at", [2])),
        ("§ 13 Z 1 SchBV", lambda e: e["UBZ-Matrose"].__setitem__("pathway", "§ 13 Z 1 SchBV")),
        ("roles", lambda e: e.__setitem__("roles", ["Decksmann"])),
        ("satisfied_pathways", lambda e: e.__setitem__("satisfied_pathways", ["§ 12 Z 2 SchBV"])),
        ("eligible", lambda e: e["UBZ-Matrose"].__setitem__("eligible", None)),  # not covered is neither yes nor no
        ("covered", lambda e: e["UBZ-Matrose"].__setitem__("covered", False)),
        ("covered", lambda e: e.__setitem__("covered", False)),
    ]
    assert cert["missing"][0]["at"] == [1]
    for field, change in changes:
        expect = copy.deepcopy(case.expect)
        change(expect)
        found = person_differences(expect, answer)
        assert found and any(field in d.field for d in found), (field, found)


def test_a_requirement_named_as_met_must_be_met():
    case = _case("§ 10 Z 1 SchBV: on the 18th birthday itself the 18th year of life is completed")
    answer = _answer(case)
    assert person_differences(case.expect, answer) == []
    expect = copy.deepcopy(case.expect)
    expect["UBZ-Decksmann"]["requirements"][0]["met"] = False
    assert [d.field for d in person_differences(expect, answer)] == ["UBZ-Decksmann › § 10 SchBV › requirements › § 10 Z 1 SchBV › met"]


def test_changed_crew_expectations_are_reported():
    case = _case("§ 43 Abs. 4 Z 1 SchBV: 101 beds are Stufe 3 with both alternatives of column S1")
    answer = crewkg.crew({"id": "v", **case.vessel}, as_of=case.as_of)
    assert vessel_differences(case.expect, answer) == []
    swapped = case.expect | {"alternatives": list(reversed(case.expect["alternatives"]))}
    assert [d.field for d in vessel_differences(swapped, answer)] == ["alternatives"]  # the table's order is kept
    assert [d.field for d in vessel_differences(case.expect | {"stufe": 2}, answer)] == ["stufe"]
    assert [d.field for d in vessel_differences({"functions": {"FahrgastErsthelfer": 9}}, answer)] == ["functions › FahrgastErsthelfer"]


def test_lists_of_plain_values_are_compared_without_order_and_booleans_strictly():
    assert same(["Anlage9", "Anlage10"], ["Anlage10", "Anlage9"])
    assert not same(["Anlage9"], ["Anlage9", "Anlage9"])
    assert same([360], [360.0]) and not same([1], [True]) and not same(True, 1) and not same(0, False)
    assert not same([{"Matrose": 1}, {"Bootsmann": 1}], [{"Bootsmann": 1}, {"Matrose": 1}])


# ---- the command -----------------------------------------------------------------------------------------------------

WRONG = """\
- name: "§ 12 Z 2 lit. c SchBV: 359 days are one short"
  description: The case expects the Matrose certificate, which 359 days do not give.
  provision: § 12 Z 2 lit. c SchBV
  as_of: 2026-11-30
  person: {birth_date: 2000-01-01, exams: [Anlage8], sailing_days: {Decksmann: 359}, medical_fitness: true}
  expect:
    UBZ-Matrose:
      eligible: true
- name: "§ 10 SchBV: an adult with basic safety training is a Decksmann"
  description: This case passes.
  provision: § 10 SchBV
  as_of: 2026-11-30
  person: {birth_date: 2000-01-01, basic_safety_training: true, medical_fitness: true}
  expect:
    UBZ-Decksmann: {eligible: true}
"""


def _write(tmp_path: Path, text: str, name: str = "cases.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_passing_file_exits_0():
    result = runner.invoke(app, ["test", str(CASES_DIR / "besatzungslisten.yaml")])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "6 Fälle: 6 bestanden, 0 nicht bestanden"
    assert "✗" not in result.output


def test_a_wrong_expectation_exits_1_with_case_field_expected_and_actual(tmp_path):
    result = runner.invoke(app, ["test", str(_write(tmp_path, WRONG))])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert "✗ § 12 Z 2 lit. c SchBV: 359 days are one short" in lines
    assert "  UBZ-Matrose › eligible: erwartet true, erhalten false" in lines
    assert "  The case expects the Matrose certificate, which 359 days do not give." in lines
    assert any(line.startswith("  Datei: ") and "cases.yaml" in line and "Stichtag: 2026-11-30" in line for line in lines)
    assert "an adult with basic safety training" not in result.output  # passing cases are not listed
    assert lines[-1] == "2 Fälle: 1 bestanden, 1 nicht bestanden"


def test_the_output_is_english_when_asked_and_lists_passes_when_verbose(tmp_path):
    result = runner.invoke(app, ["test", str(_write(tmp_path, WRONG)), "--lang", "en", "-v"])
    assert result.exit_code == 1
    assert "  UBZ-Matrose › eligible: expected true, got false" in result.output
    assert "✓ § 10 SchBV: an adult with basic safety training is a Decksmann" in result.output
    assert result.output.splitlines()[-1] == "2 cases: 1 passed, 1 failed"


def test_name_filter_and_folders(tmp_path):
    _write(tmp_path, WRONG, "a.yaml")
    result = runner.invoke(app, ["test", str(tmp_path), "--name", "§ 10 SchBV"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "1 Fall: 1 bestanden, 0 nicht bestanden"
    english = runner.invoke(app, ["test", str(tmp_path), "--name", "§ 10 SchBV", "--lang", "en"])
    assert english.exit_code == 0 and english.output.splitlines()[-1] == "1 case: 1 passed, 0 failed", english.output


def test_a_name_filter_that_matches_no_case_is_an_error_not_a_green_run(tmp_path):
    """A mistyped `--name` printed "0 Fälle: 0 bestanden, 0 nicht bestanden" and exited 0: CI stayed green with
    nothing run."""
    _write(tmp_path, WRONG, "a.yaml")
    for lang, said in (("de", "crewkg: Fehler: kein Fall passt zu --name 'zzz'"),
                       ("en", "crewkg: error: no case matches --name 'zzz'")):
        result = runner.invoke(app, ["test", str(tmp_path), "--name", "zzz", "--lang", lang])
        assert result.exit_code == 2 and result.stderr.strip() == said, result.output


MALFORMED = [
    ("an unknown key in a certificate's expectation", WRONG.replace("eligible: true\n- name", "eligibel: true\n- name"),
     "case '§ 12 Z 2 lit. c SchBV: 359 days are one short'", "expect.UBZ-Matrose.eligibel"),
    ("an unknown key in the case", WRONG.replace("  provision: § 10 SchBV", "  provison: § 10 SchBV"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "provison"),
    ("an unknown certificate", WRONG.replace("UBZ-Decksmann: {eligible: true}", "UBZ-Kapitaen: {eligible: true}"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "expect.UBZ-Kapitaen"),
    ("a bad date", WRONG.replace("as_of: 2026-11-30\n  person: {birth_date: 2000-01-01, basic", "as_of: 30.11.2026\n  person: {birth_date: 2000-01-01, basic"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "as_of"),
    ("a bad person record", WRONG.replace("exams: [Anlage8]", "exams: Anlage8"),
     "case '§ 12 Z 2 lit. c SchBV: 359 days are one short'", "person.exams"),
    ("a case without description", WRONG.replace("  description: This case passes.\n", ""),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "description"),
    ("both person and vessel", WRONG.replace("  expect:\n    UBZ-Decksmann", "  vessel: {kind: motor_vessel}\n  expect:\n    UBZ-Decksmann"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "person/vessel"),
    ("two cases of one name", WRONG.replace("§ 10 SchBV: an adult with basic safety training is a Decksmann",
                                            "§ 12 Z 2 lit. c SchBV: 359 days are one short"),
     "case '§ 12 Z 2 lit. c SchBV: 359 days are one short'", "name"),
    ("a missing position counted from 0", WRONG.replace("      eligible: true\n- name",
                                                        "      pathway: § 12 Z 2 SchBV\n      missing:\n        - {provision: x, at: [0]}\n- name"),
     "case '§ 12 Z 2 lit. c SchBV: 359 days are one short'", "expect.UBZ-Matrose.missing[1].at"),
    ("eligible neither a boolean nor null", WRONG.replace("UBZ-Decksmann: {eligible: true}", "UBZ-Decksmann: {eligible: maybe}"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "expect.UBZ-Decksmann.eligible"),
    ("covered not a boolean", WRONG.replace("UBZ-Decksmann: {eligible: true}", "UBZ-Decksmann: {covered: 1}"),
     "case '§ 10 SchBV: an adult with basic safety training is a Decksmann'", "expect.UBZ-Decksmann.covered"),
    ("a case that is no mapping", "- just text\n", "case 1", ""),
    ("YAML that does not parse", "- name: [unclosed\n", "", ""),
]


@pytest.mark.parametrize(("what", "text", "case", "field"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_file_exits_2_naming_file_case_and_field(tmp_path, what, text, case, field):
    path = _write(tmp_path, text)
    result = runner.invoke(app, ["test", str(path), "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith(f"crewkg: error: {path}"), message
    assert case in message
    if field:
        assert f"field '{field}'" in message
    german = runner.invoke(app, ["test", str(path)])  # German by default, to the last word
    assert german.exit_code == 2 and german.stderr.startswith(f"crewkg: Fehler: {path}"), german.stderr
    assert "erwartet wird" in german.stderr and (not field or f"Feld „{field}“" in german.stderr)
    with pytest.raises(InputError):
        load_cases(path) if what != "a bad person record" else [run_case(c) for c in load_cases(path)]


def test_no_case_file_exits_2(tmp_path):
    result = runner.invoke(app, ["test", str(tmp_path)])
    assert result.exit_code == 2
    assert "keine Falldatei" in result.stderr


@pytest.mark.parametrize("body", ["cases:\n  - name: x\n", "cases:\n  a: 1\n"])
def test_cases_under_a_key_are_refused_as_not_the_top_level_list(tmp_path, body):
    path = tmp_path / "nested.yaml"
    path.write_text(body, encoding="utf-8")
    result = runner.invoke(app, ["test", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert "field 'cases': expected a YAML list of cases at the top level of the file" in result.output
    assert "'name'" not in result.output
