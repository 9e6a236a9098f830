"""Bad input to `crewkg check`: one test per class of bad input. Each must exit 2 with one message on
standard error that names the file and the field and says what was expected, show no traceback, and
write nothing (standard output empty, no file created).

Whole-file errors (empty, unreadable, malformed, missing) have no field; there the message names the
position (line/column) where the parser gives one.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli.common import app

AS_OF = "2026-11-30"
TTL_HEAD = (
    "@prefix crew: <https://w3id.org/crewkg/onto#> .\n"
    "@prefix kb:   <https://w3id.org/crewkg/kb/> .\n"
    "@prefix xsd:  <http://www.w3.org/2001/XMLSchema#> .\n"
)
GOOD = "id: good\nbirth_date: 1990-01-01\nmedical_fitness: true\nexams: [Anlage8]\n"


@pytest.fixture(scope="module", autouse=True)
def _fresh_cache(tmp_path_factory):
    """Own cache folder, so no 'already validated' marker from another run can mask a SHACL violation."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CREWKG_CACHE", str(tmp_path_factory.mktemp("crewkg-cache")))
        yield


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into output unless told not to
    except TypeError:  # click >= 8.2 and typer's own runner always keep stderr apart
        return CliRunner()


def _stderr(result) -> str:
    try:
        return result.stderr
    except ValueError:  # a runner that mixed the streams
        return result.output


@dataclass(frozen=True)
class Case:
    id: str
    files: dict[str, str | bytes]  # written into tmp_path/"in"
    target: str  # path under tmp_path/"in" given to crewkg (may not exist)
    field: str | None  # the field the message must name (None: a whole-file error)
    expected: tuple[str, ...]  # fragments of what was expected
    as_of: str = AS_OF
    names: tuple[str, ...] = ()  # further files the message must name
    file_named: bool = True  # False where the bad value is not a file (--as-of)


CASES = [
    Case("unknown_top_level_key", {"p.yaml": "id: x\nbirth_date: 1990-01-01\nshoe_size: 44\n"}, "p.yaml",
         "shoe_size", ("one of the known keys", "sailing_days")),
    Case("wrong_type", {"p.yaml": "id: x\nsailing_days:\n  Matrose: many\n"}, "p.yaml",
         "sailing_days.Matrose", ("a whole number of days", "'many'")),
    Case("negative_number", {"p.yaml": "id: x\nsailing_days:\n  Matrose: -5\n"}, "p.yaml",
         "sailing_days.Matrose", ("not negative", "-5")),
    # a count says its own unit: months of a programme, the year of an apprenticeship (both said "days" before)
    Case("fractional_programme_months", {"p.yaml": "id: x\nbirth_date: 1990-01-01\n"
                                          "programmes: [{for: Steuermann, months: 35.5, sailing_days: 360}]\n"},
         "p.yaml", "programmes[0].months", ("a whole number of months", "35.5")),
    Case("fractional_apprenticeship_year", {"p.yaml": "id: x\nbirth_date: 2008-01-01\n"
                                             "apprenticeship: {contract: true, year: 2.5}\n"},
         "p.yaml", "apprenticeship.year", ("an apprenticeship year from 1 to", "2.5")),
    Case("birth_date_in_future", {"p.yaml": "id: x\nbirth_date: 2030-01-01\n"}, "p.yaml",
         "birth_date", ("a birth date not after", "2030-01-01")),
    Case("unknown_role", {"p.yaml": "id: x\nsailing_days:\n  Schiffskoch: 30\n"}, "p.yaml",
         "sailing_days.Schiffskoch", ("a deck role id", "Matrose")),
    Case("unknown_certificate", {"p.yaml": "id: x\ncertificates: [UBZ-Kapitaen]\n"}, "p.yaml",
         "certificates[0]", ("a known certificate id", "UBZ-Steuermann", "UBZ-Kapitaen")),
    Case("unknown_exam", {"p.json": '{"id": "x", "exams": ["Anlage8", "Anlage12"]}'}, "p.json",
         "exams[1]", ("a known exam id", "Anlage9", "Anlage12")),
    Case("unknown_function", {"p.yaml": "id: x\nfunctions: [Bordkoch]\n"}, "p.yaml",
         "functions[0]", ("a known function id", "FirstAid", "Bordkoch")),
    Case("empty_file", {"p.yaml": "  \n\n"}, "p.yaml", None, ("a non-empty record",)),
    Case("invalid_utf8", {"p.yaml": b"id: x\nbirth_date: \xff\xfe\x00\x81\n"}, "p.yaml", None, ("a readable UTF-8 text file",)),
    Case("malformed_yaml", {"p.yaml": "id: x\nsailing_days: [Matrose, 3\nexams: []\n"}, "p.yaml",
         None, ("valid YAML", "line ")),
    Case("malformed_json", {"p.json": '{"id": "x", "sailing_days": {"Matrose": 3,}}'}, "p.json",
         None, ("valid JSON", "line 1, column")),
    Case("malformed_turtle", {"p.ttl": TTL_HEAD + '<https://w3id.org/crewkg/person/x> a crew:Person ;; crew:personId "x"\n'},
         "p.ttl", None, ("valid Turtle", "line")),
    Case("turtle_violates_shapes_negative_days",
         {"p.ttl": TTL_HEAD + '<https://w3id.org/crewkg/person/x> a crew:Person ; crew:personId "x" ;\n'
                              "  crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Matrose ; crew:days -5 ] .\n"},
         "p.ttl", "days", ("conforms to ontology/shapes.ttl", "0 or more")),
    Case("turtle_violates_shapes_unknown_role",
         {"p.ttl": TTL_HEAD + '<https://w3id.org/crewkg/person/x> a crew:Person ; crew:personId "x" ;\n'
                              "  crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Schiffskoch ; crew:days 30 ] .\n"},
         "p.ttl", "hasSailingRecord|inRole", ("conforms to ontology/shapes.ttl",)),
    Case("missing_file", {}, "nobody.yaml", None, ("an existing file or folder",)),
    Case("bad_as_of", {"p.yaml": GOOD}, "p.yaml", "as_of", ("an ISO date YYYY-MM-DD", "2026-13-01"),
         as_of="2026-13-01", names=("--as-of",), file_named=False),
]


def _write(base: Path, files: dict[str, str | bytes]) -> None:
    base.mkdir()
    for name, content in files.items():
        path = base / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _tree(root: Path) -> list[tuple[str, int]]:
    return sorted((str(p.relative_to(root)), p.stat().st_size) for p in root.rglob("*"))


def _run_bad(tmp_path: Path, case: Case, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING)
    base = tmp_path / "in"
    _write(base, case.files)
    target = base / case.target
    before = _tree(tmp_path)
    result = _runner().invoke(app, ["check", str(target), "--as-of", case.as_of, "--format", "json", "--lang", "en"])
    msg = _stderr(result)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == "", "nothing may be written to standard output"
    assert _tree(tmp_path) == before, "no file may be written"
    assert "Traceback" not in result.output and "Traceback" not in msg
    # a library that logs reaches the user's terminal as a second message (with its traceback); pytest's log
    # capture takes such records away from the runner's stderr, so look for them here
    logged = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    assert not logged, logged
    assert isinstance(result.exception, SystemExit) or result.exception is None, result.exception
    assert msg.startswith("crewkg: error: ") and msg.count("crewkg: error:") == 1
    return target, msg


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_exits_2_with_one_message_naming_file_field_and_expectation(tmp_path, caplog, case):
    target, msg = _run_bad(tmp_path, case, caplog)
    if case.file_named:
        assert str(target) in msg, msg
    for name in case.names:
        assert name in msg, msg
    if case.field is not None:
        assert any(f"field '{f}'" in msg for f in case.field.split("|")), msg
    assert "expected" in msg
    for fragment in case.expected:
        assert fragment in msg, msg


# ------------------------------------------------------------------------------------------------------
# Found while writing the cases above and fixed in src/: impossible dates, NaN/infinity, ill-typed Turtle
# literals, and SHACL messages that must name the innermost field.
# ------------------------------------------------------------------------------------------------------
KNOWN = [
    pytest.param(Case("yaml_impossible_date", {"p.yaml": "id: x\nbirth_date: 2001-02-30\n"}, "p.yaml",
                      "birth_date", ("date",)),
                 id="yaml_impossible_date"),
    pytest.param(Case("nan_years", {"p.yaml": "id: x\nprofessional_experience_years: .nan\n"}, "p.yaml",
                      "professional_experience_years", ("number",)),
                 id="nan_years"),
    pytest.param(Case("infinite_years", {"p.yaml": "id: x\nprofessional_experience_years: .inf\n"}, "p.yaml",
                      "professional_experience_years", ("number",)),
                 id="infinite_years"),
    pytest.param(Case("turtle_ill_typed_date",
                      {"p.ttl": TTL_HEAD + '<https://w3id.org/crewkg/person/x> a crew:Person ; crew:personId "x" ;\n'
                                           '  crew:birthDate "2001-02-30"^^xsd:date .\n'},
                      "p.ttl", "birthDate", ("xsd:date",)),
                 id="turtle_ill_typed_date"),
    pytest.param(Case("turtle_unknown_role_names_inRole",
                      {"p.ttl": TTL_HEAD + '<https://w3id.org/crewkg/person/x> a crew:Person ; crew:personId "x" ;\n'
                                           "  crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Schiffskoch ;"
                                           " crew:days 30 ] .\n"},
                      "p.ttl", "inRole", ("a deck crew role",)),
                 id="turtle_unknown_role_names_inRole"),
]


@pytest.mark.parametrize("case", KNOWN)
def test_formerly_unhandled_bad_input_now_exits_2_with_a_clear_message(tmp_path, caplog, case):
    test_bad_input_exits_2_with_one_message_naming_file_field_and_expectation(tmp_path, caplog, case)


def test_a_folder_answers_the_good_records_and_names_each_bad_one(tmp_path):
    """design: a folder gives a JSON list where a record that fails stands as {file, error}; exit status 1."""
    base = tmp_path / "in"
    _write(base, {"a.yaml": GOOD, "b.yaml": GOOD.replace("1990", "1991"), "c.yaml": "id: [x\n", "d.yaml": GOOD.replace("good", "other")})
    (base / "e.yaml").symlink_to(base / "missing.yaml")
    result = _runner().invoke(app, ["check", str(base), "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 1, result.output
    out = json.loads(result.stdout)
    assert [o.get("person") or Path(o["file"]).name for o in out] == ["good", "b.yaml", "c.yaml", "other", "e.yaml"]
    assert "an id not used by another record" in out[1]["error"] and "a.yaml" in out[1]["error"]
    assert "valid YAML" in out[2]["error"]
    assert "e.yaml" in out[4]["error"]
    text = _runner().invoke(app, ["check", str(base), "--as-of", "2026-11-30", "--lang", "en"])
    assert text.exit_code == 1 and _stderr(text).count("crewkg: error:") == 3


@pytest.mark.parametrize("command", [["export"], ["sparql", "ASK { ?s ?p ?o }", "--data"]])
def test_export_and_sparql_answer_the_good_records_of_a_folder_and_name_the_bad(tmp_path, command):
    base = tmp_path / "in"
    _write(base, {"a.yaml": GOOD, "c.yaml": "id: [x\n"})
    result = _runner().invoke(app, [*command, str(base), "--as-of", "2026-11-30"])
    assert result.exit_code == 1, result.output
    err = _stderr(result)
    assert err.count("crewkg: error:") == 1 and "c.yaml" in err
    assert "good" in result.stdout or "true" in result.stdout


# ------------------------------------------------------------------------------------------------------
# Found by benchmarks/bad_inputs.py (tracebacks and hangs) and fixed in src/: numbers far beyond anything the law
# counts, a programme reaching back before the calendar, a service log older than its sailor, a named pipe in a
# folder, and a long service log sent whole to pySHACL.
# ------------------------------------------------------------------------------------------------------
HUGE = "1" + "0" * 400


@pytest.mark.parametrize("case", [
    Case("days_10e400", {"p.yaml": f"id: x\nsailing_days:\n  Matrose: {HUGE}\n"}, "p.yaml", "sailing_days.Matrose",
         ("a number of at most 100000",)),
    Case("years_10e400", {"p.yaml": f"id: x\nprofessional_experience_years: {HUGE}\n"}, "p.yaml",
         "professional_experience_years", ("a number of at most 100000",)),
    Case("service_before_birth", {"p.yaml": "id: x\nbirth_date: 1990-01-01\nservice:\n"
                                            "  - {from: 1900-01-01, to: 2010-12-31, role: Matrose}\n"}, "p.yaml",
         "service[0].from", ("a first Fahrtag not before the birth date (1990-01-01)",)),
    # 0001 to 9899: 3.6 million days, each counted (took seconds and gigabytes, without a birth date too)
    Case("service_over_the_ages", {"p.yaml": "id: x\nservice:\n  - {from: 2024-03-01, to: 2024-10-31, role: Matrose}\n"
                                             "  - {from: 0001-01-01, to: 9899-12-31, role: Decksmann}\n"}, "p.yaml",
         "service[1].to", ("a service log of at most 100000 days from its first Fahrtag (0001-01-01)",)),
], ids=lambda c: c.id)
def test_numbers_beyond_the_law_and_service_before_birth_exit_2(tmp_path, caplog, case):
    test_bad_input_exits_2_with_one_message_naming_file_field_and_expectation(tmp_path, caplog, case)


def test_a_service_log_a_day_younger_than_its_sailor_is_refused_and_one_from_the_birth_date_is_not(tmp_path):
    log = "id: x\nbirth_date: 1990-01-01\nservice:\n  - {{from: {start}, to: 2010-12-31, role: Matrose}}\n"
    (tmp_path / "early.yaml").write_text(log.format(start="1989-12-31"))
    (tmp_path / "born.yaml").write_text(log.format(start="1990-01-01"))
    early = _runner().invoke(app, ["check", str(tmp_path / "early.yaml"), "--as-of", AS_OF, "--lang", "en"])
    assert early.exit_code == 2 and "service[0].from" in _stderr(early)
    born = _runner().invoke(app, ["check", str(tmp_path / "born.yaml"), "--as-of", AS_OF, "--format", "json"])
    assert born.exit_code == 0, born.output


def test_a_vessel_with_more_passengers_than_numbers_mean_exits_2(tmp_path):
    vessel = (Path(__file__).resolve().parents[1] / "kb/examples/vessels/01-ms-wachau-danube-day-trip.yaml").read_text()
    f = tmp_path / "v.yaml"
    f.write_text(vessel.replace("passengers: 300", f"passengers: {HUGE}"))
    r = _runner().invoke(app, ["crew", str(f), "--as-of", AS_OF, "--lang", "en"])
    assert r.exit_code == 2, r.output
    assert "field 'passengers'" in _stderr(r) and "at most 100000" in _stderr(r) and "Traceback" not in r.output
    f.write_text(vessel.replace("passengers: 300", "passengers: 100000"))  # at the bound: a number, if an odd one
    assert _runner().invoke(app, ["crew", str(f), "--as-of", AS_OF, "--lang", "en"]).exit_code in (0, 1)


@pytest.mark.parametrize("months, expected", [(HUGE, "a number of at most 100000"), ("99999", "after the year 1")])
def test_a_programme_longer_than_the_calendar_exits_2(tmp_path, months, expected):
    design = (Path(__file__).resolve().parents[1] / "kb/examples/programmes/matrosen-24-monate.yaml").read_text()
    f = tmp_path / "prog.yaml"
    f.write_text(design.replace("months: 24", f"months: {months}"))
    r = _runner().invoke(app, ["programme", str(f), "--as-of", AS_OF, "--lang", "en"])
    assert r.exit_code == 2, r.output
    assert "field 'months'" in _stderr(r) and expected in _stderr(r)


def test_a_named_pipe_in_a_folder_is_named_not_skipped(tmp_path):
    import os

    base = tmp_path / "in"
    _write(base, {"a.yaml": GOOD})
    os.mkfifo(base / "b.yaml")
    r = _runner().invoke(app, ["check", str(base), "--as-of", AS_OF, "--format", "json", "--lang", "en"])
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert out[0]["person"] == "good" and "b.yaml" in out[1]["error"] and "regular" in out[1]["error"]


def test_a_long_service_log_sends_one_entry_of_each_kind_to_shacl(tmp_path, monkeypatch):
    """pySHACL takes milliseconds per entry (10 000 entries took 44 s); the schema check has checked every entry."""
    from crewkg.records import load

    seen = []
    monkeypatch.setattr(load, "shacl_check", lambda g, source, key: seen.append(g))
    entries = "".join(f"  - {{from: 2020-{m:02d}-01, to: 2020-{m:02d}-10, role: {r}}}\n"
                      for m in range(1, 13) for r in ("Matrose", "Decksmann"))
    f = tmp_path / "p.yaml"
    f.write_text("id: logged\nbirth_date: 1990-01-01\nservice:\n" + entries
                 + "  - {from: 2021-01-01, to: 2021-01-05, role: Matrose, validated: false}\n")
    from datetime import date

    from crewkg.law.statute import load_law

    load.load_person_file(f, load_law(), date.fromisoformat(AS_OF), shacl=True)  # SHACL where asked (uploads)
    from rdflib import URIRef

    from crewkg.law.namespaces import CREW_IRI

    assert len(seen) == 1
    assert len(list(seen[0].objects(None, URIRef(CREW_IRI + "hasServiceEntry")))) == 3
    r = _runner().invoke(app, ["check", str(f), "--as-of", AS_OF, "--format", "json"])
    assert r.exit_code == 0, r.output
    assert len(seen) == 1  # `check` runs the schema check alone (records.load)
    assert json.loads(r.stdout)["certificates"]  # the whole log is still credited: 240 days, checked below


@pytest.mark.parametrize("capacity", [{}, [], {"deck_crew": 1}])
def test_a_sea_entry_whose_capacity_is_no_name_exits_2(tmp_path, capacity):
    """Found by schemathesis: a mapping as the capacity of a sea entry was looked up in a table and crashed."""
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"id": "x", "service": [{"from": "2020-01-01", "to": "2020-01-02", "waters": "sea",
                                                      "capacity": capacity}]}))
    r = _runner().invoke(app, ["check", str(f), "--as-of", AS_OF, "--lang", "en"])
    assert r.exit_code == 2, r.output
    assert "field 'service[0].capacity'" in _stderr(r) and "Traceback" not in r.output


@pytest.mark.parametrize(("body", "got"), [("birth_date: 2000-01-01\n", "(got no value: the field is missing)"),
                                           ("id: 'a b'\n", "(got 'a b')")])
def test_a_missing_id_is_said_missing_and_a_bad_one_quoted(tmp_path, body, got):
    path = tmp_path / "p.yaml"
    path.write_text(body, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert f"field 'id': expected an id of at most 128 letters, digits, _ and - {got}" in result.output
