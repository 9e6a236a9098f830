"""The light install and its extras (issue 41): a command that needs an extra which is not installed says which one
and how to install it, in the language asked, and exits 2 without a traceback and without writing anything. The
missing library is simulated in this process (a `None` in sys.modules makes its import fail); tests/test_wheel.py
checks the same on a real install without extras."""

from __future__ import annotations

import pickle
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli.common import app
from crewkg.errors import InputError
from crewkg.extras import EXTRAS, MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT / "kb" / "examples" / "persons"
FRANZ = PERSONS / "20-franz-schifferdienstbuch.yaml"
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
AS_OF = "2026-11-30"
runner = CliRunner()


@pytest.fixture
def missing(monkeypatch):
    """Make modules impossible to import for one test."""

    def hide(*modules: str) -> None:
        for m in modules:
            monkeypatch.setitem(sys.modules, m, None)

    return hide


def _refused(result, extra: str, module: str, lang: str = "en") -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback: a message and exit 2
    assert "Traceback" not in result.output
    assert f"[{extra}]" in result.output and f"pip install 'crewkg[{extra}]'" in result.output, result.output
    assert module in result.output
    assert ("needs" in result.output or "need " in result.output) if lang == "en" else "brauch" in result.output


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_picture_without_matplotlib_names_the_extra_pictures(missing, fmt):
    missing("matplotlib")
    _refused(runner.invoke(app, ["paths", "--format", fmt, "--lang", "en"]), "pictures", "matplotlib")


def test_the_message_is_in_the_language_asked(missing):
    missing("matplotlib")
    result = runner.invoke(app, ["paths", "--format", "svg"])
    _refused(result, "pictures", "matplotlib", lang="de")
    assert "das Extra [pictures]" in result.output


def test_the_interactive_graph_needs_no_extra(missing):
    """The HTML career graph inlines the vis-network script the package ships; matplotlib draws nothing of it."""
    missing("matplotlib")
    result = runner.invoke(app, ["paths", "--format", "html", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "<html" in result.output


def test_a_route_picture_without_matplotlib_writes_nothing(missing, tmp_path):
    missing("matplotlib")
    out = tmp_path / "route.svg"
    result = runner.invoke(app, ["plan", str(PERSONS / "01-lena-apprentice.yaml"), "--target", "UBZ-Matrose", "--as-of", AS_OF,
                                 "--out", str(out), "--lang", "en"])
    _refused(result, "pictures", "matplotlib")
    assert not out.exists()


def test_the_cohort_report_without_matplotlib_names_the_extra_and_its_table_needs_none(missing, tmp_path):
    missing("matplotlib")
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--out", str(out),
                                 "--lang", "en"])
    _refused(result, "pictures", "matplotlib")
    assert not out.exists()
    table = runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--format", "csv"])
    assert table.exit_code == 0 and table.output.count("\n") > 3


def test_the_timeline_picture_needs_pictures_and_its_calendar_needs_calendar(missing, tmp_path):
    missing("matplotlib", "icalendar")
    out = tmp_path / "franz.svg"
    _refused(runner.invoke(app, ["timeline", str(FRANZ), "--as-of", AS_OF, "--out", str(out), "--lang", "en"]),
             "pictures", "matplotlib")
    assert not out.exists()
    _refused(runner.invoke(app, ["timeline", str(FRANZ), "--as-of", AS_OF, "--format", "ics", "--lang", "en"]),
             "calendar", "icalendar")
    text = runner.invoke(app, ["timeline", str(FRANZ), "--as-of", AS_OF, "--format", "json"])
    assert text.exit_code == 0 and '"credited"' in text.output


def test_serve_and_the_stores_without_the_service_extra_name_it(missing, tmp_path):
    missing("fastapi", "pyoxigraph")
    _refused(runner.invoke(app, ["serve", "--port", "1"]), "service", "fastapi")
    _refused(runner.invoke(app, ["export", str(PERSONS / "anna-matrose.yaml"), "--store", str(tmp_path / "store")]),
             "service", "pyoxigraph")
    assert not (tmp_path / "store").exists()
    _refused(runner.invoke(app, ["sparql", "roles-per-person", "--store", "oxigraph"]), "service", "pyoxigraph")
    _refused(runner.invoke(app, ["sparql", "roles-per-person", "--data", str(PERSONS / "anna-matrose.yaml")]),
             "service", "pyoxigraph")


def test_require_is_quiet_when_the_extra_is_there_and_its_error_is_an_input_error():
    for extra in EXTRAS:
        require(extra)
    error = MissingExtra("", "", "extra", None, extra="calendar", module="icalendar")
    assert isinstance(error, InputError)
    again = pickle.loads(pickle.dumps(error))  # worker processes send errors back
    assert type(again) is MissingExtra and again.message("de") == error.message("de")
    assert error.expected == "the extra [calendar] of crewkg installed (pip install 'crewkg[calendar]')"


def test_the_extras_are_those_of_pyproject():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert set(EXTRAS) == set(extras) - {"all", "test"}
    assert extras["all"] == [f"crewkg[{','.join(EXTRAS)}]"]
