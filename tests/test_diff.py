"""The register diff (`crewkg diff`, issue 45): across 17/18 Jan 2032 exactly the holders of old qualifications who
lose a role (§ 47 SchBV), and on 16/17 Jan 2022 what the new regulation changed for each bundled person, as the
register's own lines on the two days say; the 2032 report's replacement routes; error lines and exit status."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import crewkg
from crewkg.cli import app

pytestmark = pytest.mark.xdist_group("test_diff")

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT / "kb" / "examples" / "persons"
REGISTER = ROOT / "kb" / "examples" / "registers" / "altbefaehigungen-2032.jsonl"
END_OLD = date(2032, 1, 17)  # the last day the old qualifications count (§ 47 Abs. 2, 6 SchBV)
runner = CliRunner()


def _jsonl(*args: str) -> list[dict]:
    result = runner.invoke(app, [*args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def _register_lines(path: Path, day: date) -> dict[str, dict]:
    return {x["person"]: x for x in _jsonl("check", str(path), "--format", "jsonl", "--as-of", day.isoformat())}


def _expected(path: Path, first: date, second: date) -> dict[str, dict]:
    """The diff as the register's compact lines of the two days give it."""
    a, b = _register_lines(path, first), _register_lines(path, second)
    out = {}
    for pid in a:
        x, y = a[pid], b[pid]
        line = {"person": pid, "from": first.isoformat(), "to": second.isoformat(),
                "gained": {c: v for c, v in y["eligible"].items() if c not in x["eligible"]},
                "lost": {c: v for c, v in x["eligible"].items() if c not in y["eligible"]},
                "roles_gained": [r for r in y["roles"] if r not in x["roles"]],
                "roles_lost": [r for r in x["roles"] if r not in y["roles"]]}
        if line["gained"] or line["lost"] or line["roles_gained"] or line["roles_lost"]:
            out[pid] = line
    return out


def _holders_of_old_qualifications(path: Path) -> set[str]:
    """The persons whose held certificate counts on 17 Jan 2032 and has that day as its last (crew:validUntil)."""
    from crewkg.rules.validity import counts

    law = crewkg.api.law()
    found = set()
    for p in crewkg.api.records.each(path, law, END_OLD):
        if any(law.certificates[c].valid_until == END_OLD and law.certificates[c].role and counts(p, law, c, END_OLD)
               for c in p.certificates if c in law.certificates):
            found.add(p.id)
    return found


@pytest.mark.parametrize("path", [PERSONS, REGISTER], ids=["persons", "register"])
def test_across_17_and_18_january_2032_exactly_the_holders_of_old_qualifications_lose_a_role(path):
    lines = _jsonl("diff", str(path), "--from", "2032-01-17", "--to", "2032-01-18", "--format", "jsonl")
    losers = {x["person"] for x in lines if x["roles_lost"]}
    assert losers == _holders_of_old_qualifications(path) and losers
    assert all(x["person"] in losers and not x["gained"] and not x["roles_gained"] for x in lines)
    assert {x["person"]: x for x in lines} == _expected(path, date(2032, 1, 17), date(2032, 1, 18))
    # the day before: nothing changes yet
    assert _jsonl("diff", str(path), "--from", "2032-01-16", "--to", "2032-01-17", "--format", "jsonl") == []


def test_the_example_register_names_its_four_holders():
    lines = {x["person"]: x for x in crewkg.api.diff(REGISTER, "2032-01-17", "2032-01-18", "en")}
    assert set(lines) == {"berta-steiner", "otto-kern", "herbert-lang", "franz-gruber"}
    assert lines["herbert-lang"]["roles_lost"][-1] == "Schiffsfuehrer"
    assert lines["herbert-lang"]["lost"] == {"UBZ-Schiffsfuehrer": ["§ 47 Abs. 6 Z 2 SchBV"]}
    assert lines["berta-steiner"]["lost"]["UBZ-Matrose"] == ["§ 47 Abs. 4 SchBV"]
    assert lines["otto-kern"] == {"person": "otto-kern", "from": "2032-01-17", "to": "2032-01-18", "gained": {}, "lost": {},
                                  "roles_gained": [], "roles_lost": ["Decksmann"]}


def test_across_16_and_17_january_2022_each_bundled_person_is_said_what_the_new_regulation_changed():
    lines = _jsonl("diff", str(PERSONS), "--from", "2022-01-16", "--to", "2022-01-17", "--format", "jsonl")
    expected = _expected(PERSONS, date(2022, 1, 16), date(2022, 1, 17))
    assert {x["person"]: x for x in lines} == expected
    maria = expected["maria-hofer"]
    assert maria["gained"]["UBZ-Matrose"] == ["§ 12 Z 2 SchBV"] and "SchBesV2004-Matrose" in maria["lost"]
    # every person with an answer under either regulation, and only they, has a line
    assert len(lines) >= 10


def test_the_2032_report_says_the_replacement_routes_and_whether_an_application_can_still_be_made():
    result = runner.invoke(app, ["diff", str(REGISTER), "--from", "2032-01-17", "--to", "2032-01-18", "--lang", "en"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("From 2032-01-17 to 2032-01-18: 4 persons whose answer changes")
    assert "Persons per certificate and role (gained / lost):" in text and "  deckhand: +0 / −4" in text
    assert "berta-steiner: UBZ boatman (§ 47 Abs. 4 SchBV) — can be applied for until 2032-01-17" in text
    assert "herbert-lang: UBZ boatmaster (§ 47 Abs. 6 Z 2 SchBV) — can be applied for until 2032-01-17" in text
    assert ("otto-kern: UBZ deckhand (§ 47 Abs. 4 SchBV) — could be applied for from 2022-01-17 to 2026-12-31; "
            "not on 2032-01-17") in text
    german = runner.invoke(app, ["diff", str(REGISTER), "--from", "2032-01-17", "--to", "2032-01-18"])
    assert "kann bis 2032-01-17 beantragt werden" in german.stdout
    for word in (" the ", " not ", " and ", " of ", " can "):
        assert word not in german.stdout, word


def test_the_routes_are_the_rules_answers_on_their_days():
    """otto-kern's medical proof counts up to 2026-12-31: the replacement of § 47 Abs. 4 SchBV is open that day, not the next."""
    otto = json.loads(REGISTER.read_text(encoding="utf-8").splitlines()[1])
    for day, open_ in (("2026-12-31", True), ("2027-01-01", False)):
        answer = crewkg.check(otto, day, "en")
        cert = next(c for c in answer["certificates"] if c["id"] == "UBZ-Decksmann")
        assert next(w for w in cert["pathways"] if w["provision"] == "§ 47 Abs. 4 SchBV")["satisfied"] is open_


def test_a_bad_record_is_an_error_line_and_the_others_are_answered(tmp_path):
    register = tmp_path / "r.jsonl"
    register.write_text(REGISTER.read_text(encoding="utf-8") + '{"id": "kaputt", "birth_date": "gestern"}\n',
                        encoding="utf-8")
    result = runner.invoke(app, ["diff", str(register), "--from", "2032-01-17", "--to", "2032-01-18", "--format", "jsonl"])
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert lines[-1]["person"] == "kaputt" and "error" in lines[-1] and len(lines) == 5
    missing = runner.invoke(app, ["diff", str(tmp_path / "none.jsonl"), "--from", "2032-01-17", "--to", "2032-01-18"])
    assert missing.exit_code == 2 and missing.stdout == ""


def test_worker_processes_give_the_same_lines():
    one = crewkg.api.diff(PERSONS, "2022-01-16", "2022-01-17", "en", workers=1)
    assert crewkg.api.diff(PERSONS, "2022-01-16", "2022-01-17", "en", workers=2) == one
