"""The command line as people and programs use it: text in German and English, explain, dates outside the law."""

from __future__ import annotations

import json
import subprocess
import sys

import yaml
from typer.testing import CliRunner

from crewkg.cli.common import app

runner = CliRunner()
BOOTSMANN_140 = {"id": "maria", "birth_date": "1998-02-10", "medical_fitness": True, "radio_certificate": True,
                 "certificates": ["UBZ-Bootsmann"], "sailing_days": {"Matrose": 400, "Bootsmann": 140}}


def _write(tmp_path, record, name="p.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(record), encoding="utf-8")
    return path


def test_text_output_says_exactly_what_is_missing_in_german(tmp_path):
    result = runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2026-11-30"])
    assert result.exit_code == 0
    assert "noch 40 Tage Fahrzeit als Bootsfrau bzw. Bootsmann (§ 14 Z 1 lit. a SchBV)" in result.stdout


def test_text_output_in_english(tmp_path):
    result = runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 0
    assert "40 more days of sailing time as able boatman (§ 14 Z 1 lit. a SchBV)" in result.stdout


def test_explain_quotes_the_provision_and_names_the_facts(tmp_path):
    result = runner.invoke(app, ["explain", str(_write(tmp_path, BOOTSMANN_140)), "UBZ-Steuermann", "--as-of", "2026-11-30"])
    assert result.exit_code == 0
    out = result.stdout
    assert "eine als Bootsfrau bzw. Bootsmann geleistete Mindestfahrzeit von 180 Tagen nachweist" in out
    assert "sailing_days.Bootsmann = 140" in out
    assert "§ 14 Z 1 lit. b SchBV" in out


def test_explain_rejects_an_unknown_certificate(tmp_path):
    result = runner.invoke(app, ["explain", str(_write(tmp_path, BOOTSMANN_140)), "UBZ-Kapitaen"])
    assert result.exit_code == 2
    assert "certificate" in result.output and "UBZ-Kapitaen" in result.output


def test_a_date_before_the_SchBesV_2004_is_not_covered_and_the_day_before_the_SchBV_is_SchBesV_2004(tmp_path):
    result = runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2004-12-31", "--format", "json"])
    answer = json.loads(result.stdout)
    assert answer["covered"] is False and answer["certificates"] == []
    assert "2005-01-01" in answer["reason"]
    before = json.loads(runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2022-01-16",
                                            "--format", "json"]).stdout)
    assert before["covered"] is True and before["regulation"] == "SchBesV 2004"
    on_day = json.loads(runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2022-01-17",
                                            "--format", "json"]).stdout)
    assert on_day["covered"] is True and on_day["regulation"] == "SchBV 2022"


def test_the_text_header_of_a_date_before_any_regulation_says_so_instead_of_an_empty_slot(tmp_path):
    """`check --as-of 2003-05-01` printed 'maria —  — 2003-05-01'."""
    path = _write(tmp_path, BOOTSMANN_140)
    for lang, said in (("de", "keine erfasste Verordnung in Kraft"), ("en", "no encoded regulation in force")):
        result = runner.invoke(app, ["check", str(path), "--as-of", "2003-05-01", "--lang", lang])
        assert result.exit_code == 0 and result.stdout.splitlines()[0] == f"maria — {said} — 2003-05-01", result.stdout


def test_certificates_without_text_in_the_sources_are_not_covered_rather_than_refused(tmp_path):
    answer = json.loads(runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--format", "json"]).stdout)
    lng = next(c for c in answer["certificates"] if c["id"] == "UBZ-SachkundigerLNG")
    assert lng["covered"] is False and lng["eligible"] is None and "§ 17 SchBV" in lng["reason"]


def test_turtle_yaml_and_json_records_give_the_same_answer(tmp_path):
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping
    from crewkg.records.turtle import person_graph

    law = load_law()
    from datetime import date

    person = person_from_mapping(BOOTSMANN_140, law, date(2026, 11, 30), "x")
    (tmp_path / "maria.ttl").write_text(person_graph(person).serialize(format="turtle"), encoding="utf-8")
    (tmp_path / "maria.json").write_text(json.dumps(BOOTSMANN_140), encoding="utf-8")
    answers = []
    for name in ("maria.ttl", "maria.json"):
        out = runner.invoke(app, ["check", str(tmp_path / name), "--as-of", "2026-11-30", "--format", "json"])
        assert out.exit_code == 0, out.output
        answers.append(json.loads(out.stdout))
    yaml_answer = json.loads(runner.invoke(app, ["check", str(_write(tmp_path, BOOTSMANN_140)), "--as-of", "2026-11-30",
                                                  "--format", "json"]).stdout)
    assert answers[0] == answers[1] == yaml_answer


HEAVY = ("rdflib", "pyshacl", "rich", "pydantic", "networkx", "matplotlib", "fastapi", "pyoxigraph", "markdown_it")


def test_a_plain_check_loads_none_of_the_heavy_libraries(tmp_path, monkeypatch):
    """The cold-start budget (benchmarks/cold_check.py) rests on this: once the kb is compiled, `crewkg check
    --format json` of a record never seen before needs neither rdflib nor pySHACL (the schema check is as strict as
    the shapes, records.load) nor rich nor a web or graph library. Guards against a module-level import (or a typer
    that imports rich or pydantic) creeping back in."""
    monkeypatch.setenv("CREWKG_CACHE", str(tmp_path / "cache"))

    def probe(record) -> str:
        return (
            "import sys\nfrom crewkg.cli import app\n"
            f"try:\n    app(['check', {str(record)!r}, '--format', 'json', '--as-of', '2026-11-30'])\n"
            "except SystemExit:\n    pass\n"
            f"print('LOADED', sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
        )

    other = tmp_path / "other"
    other.mkdir()
    subprocess.run([sys.executable, "-c", probe(_write(other, {**BOOTSMANN_140, "id": "other"}))],
                   capture_output=True, check=True)  # compiles the kb
    record = _write(tmp_path, BOOTSMANN_140)  # a record this cache has never seen
    warm = subprocess.run([sys.executable, "-c", probe(record)], capture_output=True, text=True, check=True).stdout
    *answer, loaded = warm.rstrip().splitlines()
    assert json.loads("\n".join(answer))["person"] == "maria"
    assert loaded == "LOADED []"


# --- how wide text for people is: COLUMNS, else the terminal, else a default for files and pipes --------------------
def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_piped_check_text_is_as_wide_as_COLUMNS_says(tmp_path):
    """`COLUMNS=80 crewkg check … | less`: no line wider than 80, in the same process as commands before it that were
    wider (the console reads the width when it prints, not when it was made)."""
    path = _write(tmp_path, BOOTSMANN_140)
    for columns in ("80", "60"):
        result = runner.invoke(app, ["check", str(path), "--as-of", "2026-11-30"], env={"COLUMNS": columns})
        assert result.exit_code == 0, result.output
        assert _widest(result.stdout) <= int(columns), result.stdout
        assert "noch 40 Tage Fahrzeit als Bootsfrau bzw. Bootsmann" in " ".join(result.stdout.split())


def test_the_cohort_table_follows_COLUMNS_and_is_wider_without_it():
    from pathlib import Path

    cohort = Path(__file__).resolve().parents[1] / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
    args = ["cohort", str(cohort), "--target", "UBZ-Matrose", "--as-of", "2026-11-30"]
    narrow = runner.invoke(app, args, env={"COLUMNS": "80"})
    wide = runner.invoke(app, args, env={"COLUMNS": None})
    assert narrow.exit_code == wide.exit_code == 0, (narrow.output, wide.output)
    assert _widest(narrow.stdout) <= 80 < _widest(wide.stdout) <= 200


def test_output_width_takes_COLUMNS_only_where_it_is_a_width(monkeypatch):
    """A whole number of at least 40; anything else is left aside for the terminal's width or, piped, the default.
    The shared console of the check text follows it without being changed (the service's threads read it too)."""
    import io

    from crewkg.answers.render import console, output_width

    monkeypatch.setattr(sys, "stdout", io.StringIO())  # piped, also under `pytest -s` in a terminal
    for columns, width in (("80", 80), ("40", 40), ("39", 140), ("0", 140), ("-90", 140), ("wide", 140), ("", 140)):
        monkeypatch.setenv("COLUMNS", columns)
        assert (output_width(), console.width) == (width, width), columns
    monkeypatch.delenv("COLUMNS")
    assert (output_width(), output_width(piped=200), console.width) == (140, 200, 140)
