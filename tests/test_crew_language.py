"""`crewkg crew` speaks one language to the last word of its reasons: the German answer for every bundled vessel and
roster holds no English sentence in its reasons, notes of the last known table, explanations and roster texts, and
the English answer no German one.

The kb's editorial notes (`notes`, the bullets under 'Lesarten und Hinweise') are maintainers' readings written in
English only; they are left out here (docs/vessels-and-rosters.md). Quoted statute text („…“) is German in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crewkg.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
VESSELS = sorted((EXAMPLES / "vessels").glob("*.yaml"))
ROSTERS = sorted((EXAMPLES / "rosters").glob("*.yaml"))
#: the fields of an answer written for people (the rest are ids, citations, counts and quoted statute text)
HUMAN = {"reason", "note", "why", "fill_with", "lacks", "text"}
#: words of an English sentence; none is a German word, a role name or part of a citation
ENGLISH = (" the ", " is ", " are ", "covers", " cover ", "not known", "needed", " have ", " has ", " or ", " and ",
           " of ", "sources", "vessel", "table", " which ", "cannot", " only ")
#: words of a German sentence; none occurs in the English wording (quoted German statute text is cut out first)
GERMAN = ("nicht", " oder ", " und ", "Fahrzeug", "erfasst", "Quellen", "nötig", "mindestens", "höchstens",
          " keine ", " dürfen ", "Besatzungsliste", " ist ", " sind ")
DAYS = ("2026-11-30", "2015-06-01", "2000-01-01")


def _vessel_of(roster: Path) -> Path:
    (vessel,) = (EXAMPLES / "vessels").glob(roster.name.split("-")[0] + "-*.yaml")
    return vessel


CALLS = [pytest.param([str(v), "--as-of", day], id=f"{v.stem}@{day}") for v in VESSELS for day in DAYS]
CALLS += [pytest.param([str(_vessel_of(r)), "--roster", str(r), "--as-of", "2026-11-30"], id=f"{r.stem}") for r in ROSTERS]


def _run(args: list[str], lang: str, capsys) -> tuple[dict[str, Any], list[str]]:
    """The JSON answer of `crewkg crew … --format json`, and its text form as `--format text` prints it (the same
    printer, given the same answer, without a second evaluation)."""
    from crewkg.cli.crew import print_crew
    from crewkg.law.statute import load_law

    result = CliRunner().invoke(app, ["crew", *args, "--lang", lang, "--format", "json"])
    answer = json.loads(result.stdout)
    # 1: a roster given and not confirmed to fill the minimum crew (tests/test_manning_cli.py tests the status)
    assert result.exit_code == (1 if "roster" in answer and answer["roster"]["satisfied"] is not True else 0), result.output
    capsys.readouterr()
    print_crew(load_law(), answer, lang)
    return answer, _text_lines(capsys.readouterr().out, _notes(answer))


def _texts(value: Any, key: str = "") -> list[str]:
    """Every text for people in an answer (nested answers such as `last_known` and `roster` included)."""
    if isinstance(value, dict):
        return [t for k, v in value.items() if k != "notes" for t in _texts(v, k)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v, key)]
    return [value] if key in HUMAN and isinstance(value, str) else []


def _notes(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value.get("notes") or ()) | {n for v in value.values() for n in _notes(v)}
    if isinstance(value, list):
        return {n for v in value for n in _notes(v)}
    return set()


def _unquoted(text: str) -> str:
    return re.sub(r"„[^“]*“|'[^']*'", "", text)


def _offending(texts: list[str], words: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(w, t) for t in texts for w in words if w in f" {_unquoted(t)} "]


def _text_lines(output: str, notes: set[str]) -> list[str]:
    """The lines of the text answer, without the kb's editorial notes."""
    return [line for line in output.splitlines() if line.strip().removeprefix("• ") not in notes]


@pytest.mark.parametrize("args", CALLS)
def test_the_german_answer_has_no_english_sentence(args, capsys):
    answer, lines = _run(args, "de", capsys)
    texts = _texts(answer)
    assert texts and lines, "the answer has texts for people"
    assert _offending(texts, ENGLISH) == []
    assert _offending(lines, ENGLISH) == []


@pytest.mark.parametrize("args", CALLS)
def test_the_english_answer_has_no_german_sentence(args, capsys):
    answer, lines = _run(args, "en", capsys)
    assert _offending(_texts(answer), GERMAN) == []
    assert _offending(lines, GERMAN) == []


def test_the_markers_find_the_sentences_they_look_for():
    """The check can fail: an English reason is caught in German output, a German one in English output."""
    assert _offending(["no Stufe of the table of § 43 Abs. 3 Z 1 SchBV covers the vessel"], ENGLISH)
    assert _offending(["keine Stufe der Tabelle des § 43 Abs. 3 Z 1 SchBV erfasst das Fahrzeug"], GERMAN)
    assert not _offending(["keine Stufe der Tabelle des § 43 Abs. 3 Z 1 SchBV erfasst das Fahrzeug"], ENGLISH)


def test_a_decimal_number_of_the_vessel_has_the_comma_in_german(capsys):
    """'Länge in m 62.5' stood in the German answer: German writes 62,5; English keeps 62.5."""
    wachau = str(EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml")
    answer, lines = _run([wachau, "--as-of", "2026-11-30"], "de", capsys)
    assert "Länge in m 62,5: mindestens 20" in answer["why"] and "62.5" not in "\n".join(lines)
    answer, _ = _run([wachau, "--as-of", "2026-11-30"], "en", capsys)
    assert "length in m 62.5: at least 20" in answer["why"]
