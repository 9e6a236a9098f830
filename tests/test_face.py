"""What a new user meets (issue 13, point 10): "one of" lines show what already counts, typos get a "did you mean",
`explain` and `plan` understand a certificate's short name, and CSV flags are true/false in every language."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from crewkg.cli.common import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
SEA = {"id": "sea", "birth_date": "1990-01-01", "medical_fitness": True, "exams": ["Anlage8"],
       "sailing_days": {"Decksmann": 200}, "sea_days": {"deck_crew": 100}}


def _write(tmp_path: Path, record: dict) -> Path:
    path = tmp_path / "person.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_one_of_line_names_the_parts_already_met():
    import crewkg
    from crewkg.rules.kinds import missing_sentence

    said = {}
    for lang in ("de", "en"):
        answer = crewkg.check(SEA, as_of="2026-11-30", lang=lang)
        matrose = next(c for c in answer["certificates"] if c["id"] == "UBZ-Matrose")
        z2 = next(w for w in matrose["pathways"] if w["provision"] == "§ 12 Z 2 SchBV")
        (lit_c,) = [m for m in z2["missing"] if m["provision"] == "§ 12 Z 2 lit. c SchBV"]
        said[lang] = missing_sentence(crewkg.law(), lit_c, lang)
    assert said["de"] == ("eine davon fehlt: (noch 160 Tage Fahrzeit) oder (noch 150 Tage Berufserfahrung als Mitglied "
                          "einer Decksmannschaft auf einem Seeschiff; bereits erfüllt: Mindestfahrzeit von 180 Tagen) "
                          "(§ 12 Z 2 lit. c SchBV)")
    assert "; already met: at least 180 days of sailing time)" in said["en"]


def test_a_misspelt_key_gets_a_did_you_mean(tmp_path):
    record = {k: v for k, v in SEA.items() if k != "sailing_days"} | {"sailing_day": {"Decksmann": 200}}
    path = str(_write(tmp_path, record))
    result = runner.invoke(app, ["check", path, "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 2
    assert "did you mean 'sailing_days'?" in result.output
    german = runner.invoke(app, ["check", path, "--as-of", "2026-11-30"])
    assert german.exit_code == 2 and "meinten Sie 'sailing_days'?" in german.output


def test_a_misspelt_role_gets_a_did_you_mean(tmp_path):
    record = SEA | {"sailing_days": {"Decksman": 200}}
    path = str(_write(tmp_path, record))
    result = runner.invoke(app, ["check", path, "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 2
    assert "did you mean 'Decksmann'?" in result.output
    german = runner.invoke(app, ["check", path, "--as-of", "2026-11-30"])
    assert german.exit_code == 2 and "meinten Sie 'Decksmann'?" in german.output


def test_explain_and_plan_understand_the_short_name(tmp_path):
    path = _write(tmp_path, SEA)
    for name in ("Steuermann", "steuermann", "UBZ-Steuermann"):
        result = runner.invoke(app, ["explain", str(path), name, "--as-of", "2026-11-30"])
        assert result.exit_code == 0, result.output
        assert "(§ 14 SchBV)" in result.stdout
    plan = runner.invoke(app, ["plan", str(path), "--target", "Schiffsführer", "--as-of", "2026-11-30", "--format", "json"])
    assert plan.exit_code == 0, plan.output
    assert json.loads(plan.stdout)["target"] == "UBZ-Schiffsfuehrer"
    wrong = runner.invoke(app, ["explain", str(path), "Stuermann", "--as-of", "2026-11-30", "--lang", "en"])
    assert wrong.exit_code == 2 and "did you mean 'UBZ-Steuermann'?" in wrong.output
    wrong = runner.invoke(app, ["explain", str(path), "Stuermann", "--as-of", "2026-11-30"])
    assert wrong.exit_code == 2 and "meinten Sie 'UBZ-Steuermann'?" in wrong.output


def test_cohort_csv_flags_are_true_or_false_in_every_language():
    for lang in ("de", "en"):
        result = runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Steuermann", "--as-of", "2026-11-30",
                                     "--format", "csv", "--lang", lang])
        assert result.exit_code == 0, result.output
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert rows and {r["target_today"] for r in rows} <= {"true", "false"}
        assert {r["holds_target"] for r in rows} <= {"true", "false"}
        assert "true" in {r["target_today"] for r in rows} | {r["holds_target"] for r in rows} or \
            "false" in {r["target_today"] for r in rows}


def test_check_text_reads_well_in_an_80_column_terminal(monkeypatch):
    """Issue 13 point 6: in a narrow terminal each missing requirement is a line of its own, wrapped at words under
    its indent; no line is wider than the terminal, and no table border cuts a sentence."""
    from rich.console import Console

    import crewkg
    from crewkg.answers import render

    out = io.StringIO()
    monkeypatch.setattr(render, "console", Console(file=out, width=80, highlight=False, emoji=False))
    render.print_answer(crewkg.law(), crewkg.check(SEA, as_of="2026-11-30"), "de")
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "│" not in text and "┃" not in text
    flat = " ".join(text.split())
    assert "✗ § 13 Z 1 SchBV – noch 180 Tage Fahrzeit als Matrosin bzw. Matrose (§ 13 Z 1 SchBV)" in flat


def test_english_output_explains_the_role_names_once_and_german_output_needs_no_such_line(tmp_path):
    """Issue 13 point 7: English text names the roles in the Directive's English; one line maps them to the
    regulation's German terms, from the kb's labels."""
    examples = Path(__file__).resolve().parents[1] / "kb" / "examples"
    folder = examples / "persons"
    vessel = examples / "vessels" / "01-ms-wachau-danube-day-trip.yaml"
    runs = {
        "check folder": ["check", str(folder), "--as-of", "2026-11-30"],
        "explain": ["explain", str(_write(tmp_path, SEA)), "Steuermann", "--as-of", "2026-11-30"],
        "crew": ["crew", str(vessel), "--as-of", "2026-11-30"],
    }
    for name, args in runs.items():
        english = runner.invoke(app, [*args, "--lang", "en"]).stdout
        flat = " ".join(english.split())
        assert flat.count("Role names:") == 1, name
        assert "boatman (Matrose)" in flat and "helmsman (Steuermann)" in flat and "boatmaster (Schiffsführer)" in flat, name
        german = runner.invoke(app, [*args, "--lang", "de"]).stdout
        assert "Role names" not in german and "boatman" not in german, name
