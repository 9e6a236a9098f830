"""The law is data: an edited copy of the kb changes the answer with no Python edit."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir
from crewkg.records.persons import person_from_mapping

AS_OF = date(2026, 11, 30)
RECORD = {"id": "eva", "birth_date": "2000-01-01", "medical_fitness": True, "exams": ["Anlage8"],
          "sailing_days": {"Decksmann": 362}}


def _pathway(answer, provision):
    for c in answer["certificates"]:
        for w in c["pathways"]:
            if w["provision"] == provision:
                return w
    raise KeyError(provision)


def _edited_kb(tmp_path: Path) -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = "kb:Req-SchBV2022-P12-Z2-c-1 a crew:FahrzeitRequirement ; crew:provision kb:SchBV2022-P12-Z2-c ; crew:statuteOrder 1 ;\n    crew:minimumDays 360 ;"
    assert old in text
    ttl.write_text(text.replace(old, old.replace("minimumDays 360", "minimumDays 365")), encoding="utf-8")
    return copy


def test_changing_360_to_365_in_paragraph_12_Z2_changes_the_answer(tmp_path):
    law = load_law()
    person = person_from_mapping(RECORD, law, AS_OF, "test")
    before = _pathway(check(law, [person], AS_OF)[0], "§ 12 Z 2 SchBV")
    assert before["satisfied"] is True

    edited = load_law(kb=_edited_kb(tmp_path))
    assert edited.version != law.version
    after = _pathway(check(edited, [person], AS_OF)[0], "§ 12 Z 2 SchBV")
    assert after["satisfied"] is False
    (lit_c,) = after["missing"]
    assert lit_c["provision"] == "§ 12 Z 2 lit. c SchBV"
    assert lit_c["alternatives"][0]["needed"] == 365 and lit_c["alternatives"][0]["have"] == 362


def test_the_cli_reads_the_kb_named_by_CREWKG_KB(tmp_path):
    record = tmp_path / "eva.json"
    record.write_text(json.dumps(RECORD), encoding="utf-8")
    runner = CliRunner()
    args = ["check", str(record), "--as-of", AS_OF.isoformat(), "--format", "json"]
    plain = json.loads(runner.invoke(app, args).stdout)
    edited = json.loads(runner.invoke(app, args, env={"CREWKG_KB": str(_edited_kb(tmp_path))}).stdout)
    assert _pathway(plain, "§ 12 Z 2 SchBV")["satisfied"] is True
    assert _pathway(edited, "§ 12 Z 2 SchBV")["satisfied"] is False
