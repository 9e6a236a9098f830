"""The end of the calendar (issue 14): a plan whose steps would end after 31 December 9999, or a record whose
numbers are far beyond any the law asks, is answered — "not plannable" — never a traceback."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from crewkg.cli.common import app

runner = CliRunner()
ANNA = "kb/examples/persons/anna-matrose.yaml"


def test_plan_on_the_last_day_of_the_calendar_says_not_plannable():
    result = runner.invoke(app, ["plan", ANNA, "--target", "UBZ-Steuermann", "--as-of", "9999-12-31", "--format", "json"])
    assert result.exit_code == 0, result.output
    routes = json.loads(result.stdout)["routes"]
    assert routes and all(r["earliest"] is None for r in routes)


def test_a_record_with_numbers_beyond_what_the_law_can_mean_exits_2_and_the_bound_is_answered(tmp_path):
    """Numbers are bounded to what the law can mean (issue 14 point 7): 10**100 days is refused with the field named;
    the bound itself is answered, and planned without running past the calendar."""
    def record(n: int) -> dict:
        return {"id": "big", "birth_date": "1990-01-01", "medical_fitness": True, "sailing_days": {"Decksmann": n},
                "programmes": [{"for": "Matrose", "months": min(n, 1200), "sailing_days": 10}]}

    path = tmp_path / "big.json"
    path.write_text(json.dumps(record(10 ** 100)), encoding="utf-8")
    refused = runner.invoke(app, ["check", str(path), "--as-of", "2026-11-30", "--lang", "en"])
    assert refused.exit_code == 2 and "field 'sailing_days.Decksmann'" in refused.output, refused.output
    assert "Traceback" not in refused.output
    path.write_text(json.dumps(record(100_000)), encoding="utf-8")
    check = runner.invoke(app, ["check", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert check.exit_code == 0, check.output
    decksmann = next(c for c in json.loads(check.stdout)["certificates"] if c["id"] == "UBZ-Decksmann")
    assert decksmann["eligible"] is True
    plan = runner.invoke(app, ["plan", str(path), "--target", "UBZ-Schiffsfuehrer", "--as-of", "2026-11-30", "--format", "json"])
    assert plan.exit_code == 0, plan.output


def test_a_programme_checked_on_the_last_day_of_the_calendar_is_answered_or_refused_without_a_traceback(tmp_path):
    """31 December 9999 has no day after it: a design with an entry age gives a graduate born after today (exit 2,
    the field named); one without is answered, its months crediting the one day left."""
    design = tmp_path / "p.json"
    base = {"id": "p", "for": "Matrose", "months": 24, "sailing_days": 90}
    design.write_text(json.dumps(base | {"entry": {"min_age": 16}}), encoding="utf-8")
    refused = runner.invoke(app, ["programme", str(design), "--as-of", "9999-12-31"])
    assert refused.exit_code == 2 and "birth_date" in refused.output and "Traceback" not in refused.output
    design.write_text(json.dumps(base), encoding="utf-8")
    answered = runner.invoke(app, ["programme", str(design), "--as-of", "9999-12-31", "--format", "json"])
    assert answered.exit_code == 1, answered.output  # answered: one day credited serves no pathway (exit 1, not 2)
    assert json.loads(answered.stdout)["credit_cap"]["at_most"] == 1 and json.loads(answered.stdout)["serves"] == []
