"""Folders, registers, cohorts and exports behave alike with bad records (issue 13 point 8): the good records are
answered, each bad one is named with its first error and all its errors (JSON: {"file"|"line"|"person"|"id", "error",
"errors"}), the status is 1 and a summary line says how many failed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from crewkg.cli.common import app

AS_OF = "2026-11-30"
GOOD = {"id": "good", "birth_date": "1990-01-01", "medical_fitness": True, "sailing_days": {"Matrose": 100}}
#: two errors: an impossible date and negative days
BAD = {"id": "bad", "birth_date": "2001-13-01", "sailing_days": {"Matrose": -5}}
FIRST = "field 'birth_date': expected an ISO date YYYY-MM-DD (got '2001-13-01')"
SECOND = "field 'sailing_days.Matrose': expected a number that is not negative (got -5)"


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def _folder(tmp: Path) -> Path:
    folder = tmp / "records"
    folder.mkdir()
    (folder / "a-good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    (folder / "b-bad.json").write_text(json.dumps(BAD), encoding="utf-8")
    return folder


def _tails(messages: list[str]) -> list[str]:
    """The messages without where the record stands (that differs: a file, a line, a row)."""
    return ["field " + m.split(": field ", 1)[1] for m in messages]


def _shape(entry: dict) -> None:
    assert entry["error"] == entry["errors"][0]
    assert _tails(entry["errors"]) == [FIRST, SECOND], entry


def test_a_folder(tmp_path):
    folder = _folder(tmp_path)
    r = _runner().invoke(app, ["check", str(folder), "--as-of", AS_OF, "--format", "json", "--lang", "en"])
    assert r.exit_code == 1, r.output
    good, bad = json.loads(r.stdout)
    assert good["person"] == "good" and good["certificates"]
    assert bad["file"] == str(folder / "b-bad.json")
    _shape(bad)
    assert r.stderr.splitlines()[-1] == "crewkg: 1 record could not be evaluated; see its error line"


def test_a_folder_in_text_names_both_errors_in_the_language_asked(tmp_path):
    folder = _folder(tmp_path)
    r = _runner().invoke(app, ["check", str(folder), "--as-of", AS_OF, "--lang", "de"])
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0] == f"crewkg: Fehler: {folder / 'b-bad.json'}: Feld „birth_date“: erwartet wird ein ISO-Datum JJJJ-MM-TT (erhalten: '2001-13-01')"
    assert lines[1] == f"  außerdem: {folder / 'b-bad.json'}: Feld „sailing_days.Matrose“: erwartet wird eine Zahl, die nicht negativ ist (erhalten: -5)"
    assert lines[2].startswith("crewkg: 1 Datensatz konnte nicht ausgewertet werden")
    assert "good" in r.stdout


def test_a_register(tmp_path):
    reg = tmp_path / "register.jsonl"
    reg.write_text(json.dumps(GOOD) + "\n" + json.dumps(BAD) + "\n", encoding="utf-8")
    r = _runner().invoke(app, ["check", str(reg), "--as-of", AS_OF, "--format", "json", "--lang", "en"])
    assert r.exit_code == 1, r.output
    good, bad = json.loads(r.stdout)
    assert good["person"] == "good"
    assert bad["person"] == "bad"  # as in --format jsonl: named by its id where it could be read
    _shape(bad)
    assert r.stderr.splitlines()[-1] == "crewkg: 1 record could not be evaluated; see its error line"
    r = _runner().invoke(app, ["check", str(reg), "--as-of", AS_OF, "--format", "jsonl", "--lang", "en"])
    assert r.exit_code == 1
    good, bad = (json.loads(line) for line in r.stdout.splitlines())
    assert good["person"] == "good" and bad["person"] == "bad"
    _shape(bad)


def test_a_cohort(tmp_path):
    cohort = tmp_path / "cohort.csv"
    cohort.write_text("id,birth_date,sailing_days.Matrose\ngood,1990-01-01,100\nbad,2001-13-01,-5\n", encoding="utf-8")
    r = _runner().invoke(app, ["cohort", str(cohort), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--format", "json",
                               "--lang", "en"])
    assert r.exit_code == 1, r.output
    good, bad = json.loads(r.stdout)["trainees"]
    assert good["id"] == "good" and good["error"] is None
    assert bad["id"] == "bad"
    _shape(bad)
    lines = r.stderr.splitlines()
    assert _tails(lines[:2]) == [FIRST, SECOND] and lines[1].startswith("  also: ")
    assert lines[-1] == "crewkg: 1 of 2 trainees could not be evaluated; see the error column"


def test_an_export(tmp_path):
    folder = _folder(tmp_path)
    r = _runner().invoke(app, ["export", str(folder), "--as-of", AS_OF])
    assert r.exit_code == 1, r.output
    assert "person/good" in r.stdout and "person/bad" not in r.stdout
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"crewkg: error: {folder / 'b-bad.json'}: ")
    assert _tails(lines[:2]) == [FIRST, SECOND] and lines[1].startswith("  also: ")
    # an export writes no error lines (the bad record is named above and left out): its summary says so
    assert lines[-1] == "crewkg: 1 record could not be evaluated and was left out; it is named above"
    out = tmp_path / "x.ttl"
    r = _runner().invoke(app, ["export", str(folder), "--as-of", AS_OF, "--out", str(out)])
    assert r.exit_code == 1 and r.stderr.splitlines()[-1].startswith(f"{out}: derived facts of 1 person on {AS_OF}, ")
    r = _runner().invoke(app, ["sparql", "eligible-count", "--data", str(folder), "--as-of", AS_OF, "--format", "csv"])
    assert r.exit_code == 1 and "see its error line" not in r.stderr and "was left out; it is named above" in r.stderr


def test_a_record_alone_is_still_bad_input(tmp_path):
    """One record file named alone is no batch: exit 2 with its first error, as before."""
    bad = _folder(tmp_path) / "b-bad.json"
    r = _runner().invoke(app, ["check", str(bad), "--as-of", AS_OF, "--lang", "en"])
    assert r.exit_code == 2
    assert r.stderr == f"crewkg: error: {bad}: {FIRST}\n"
