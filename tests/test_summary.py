"""Answer first (issue 42): the check answer's `summary` — roles, issuable since, what no longer counts and why, the
next steps with their earliest day and actions — and the default text that opens with it and lists only the
certificates that concern the person (`--all`: every certificate and pathway)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from crewkg import api
from crewkg.cli import app

PERSONS = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
DAY = "2026-11-30"


def _text(answer: dict, lang: str, every: bool = False, width: int = 80) -> str:
    """The check text of one answer as `crewkg check` prints it, at `width` columns."""
    import crewkg.answers.render as render
    from crewkg.api.texts import print_answer

    buf = io.StringIO()
    kept = render.console
    render.console = Console(file=buf, width=width, highlight=False, soft_wrap=False, emoji=False)
    try:
        print_answer(api.law(), answer, lang, every)
    finally:
        render.console = kept
    return buf.getvalue()


def _check(record, day: str = DAY, lang: str = "en") -> dict:
    return api.check(record, as_of=day, lang=lang)


def test_days_awaiting_validation_are_the_first_action():
    """Sofia's 183 days of 2026 await validation: validated, they give UBZ Matrose today (§ 12 Z 2 lit. c SchBV)."""
    s = _check(PERSONS / "23-sofia-awaiting-validation.yaml")["summary"]
    first = s["next_steps"][0]
    assert first["certificate"] == "UBZ-Matrose" and first["earliest"] == DAY
    assert first["actions"][0] == {"kind": "validate_days", "days": 183, "provision": "§ 12 Z 2 lit. c SchBV",
                                   "text": "get the 183 recorded days validated (§ 12 Z 2 lit. c SchBV)"}
    assert s["issuable"] == [{"certificate": "UBZ-Decksmann", "since": "2024-10-27", "via": ["§ 10 SchBV"]}]


def test_one_day_short_after_validation_is_planned_not_issuable_now():
    """With one validated day fewer the validated log gives 359 of the 360 days: the step is not today."""
    record = {"id": "short", "birth_date": "2000-01-01", "medical_fitness": True, "radio_certificate": True,
              "exams": ["Anlage8"],
              "service": [{"from": "2025-01-01", "to": "2025-06-29", "role": "Decksmann"},          # 180 days
                          {"from": "2026-01-01", "to": "2026-06-29", "role": "Decksmann", "validated": False}]}  # 180
    s = _check(record)["summary"]
    matrose = next(x for x in s["next_steps"] if x["certificate"] == "UBZ-Matrose")
    assert matrose["earliest"] == DAY and matrose["actions"][0]["kind"] == "validate_days"
    record["service"][1]["to"] = "2026-06-28"  # 179 awaiting validation: 359 once validated
    s = _check(record)["summary"]
    matrose = next(x for x in s["next_steps"] if x["certificate"] == "UBZ-Matrose")
    assert matrose["earliest"] > DAY
    assert [a["kind"] for a in matrose["actions"]][:2] == ["validate_days", "serve_days"]
    assert matrose["actions"][1]["days"] == 1


def test_overdue_boatmaster_is_told_why_and_what_to_do():
    """Helga (70) holds UBZ Schiffsführer; her proof of medical fitness is overdue: lapsed, § 22 Abs. 1 SchBV, and the
    next step is to renew it."""
    s = _check(PERSONS / "32-helga-boatmaster-at-70.yaml")["summary"]
    assert s["roles"] == []
    assert [(x["certificate"], x["reason"], x["provision"]) for x in s["lapsed"]] == [
        ("UBZ-Schiffsfuehrer", "medical_overdue", "§ 22 Abs. 1 SchBV")]
    assert s["next_steps"][0]["certificate"] == "UBZ-Schiffsfuehrer"
    assert s["next_steps"][0]["actions"][0]["kind"] == "renew_medical"
    assert s["held"] == [{"certificate": "UBZ-Schiffsfuehrer", "counts": False}]


def test_the_day_before_the_birthday_nothing_has_lapsed():
    s = _check(PERSONS / "32-helga-boatmaster-at-70.yaml", day="2026-05-03")["summary"]
    assert s["lapsed"] == [] and "Schiffsfuehrer" in s["roles"]


def test_next_steps_are_the_next_rungs_by_date():
    """Lena (16, UBZ Leichtmatrose issuable): nothing at or below a role reached; UBZ Bootsmann, whose route passes
    through the UBZ Matrose (itself a next step), comes after it and is no next step; the steps by date."""
    s = _check(PERSONS / "01-lena-apprentice.yaml")["summary"]
    named = [x["certificate"] for x in s["next_steps"]]
    assert named[0] == "UBZ-Matrose" and "UBZ-Bootsmann" not in named
    assert not {"UBZ-Leichtmatrose", "UBZ-Decksmann"} & set(named)
    days = [x["earliest"] for x in s["next_steps"]]
    assert days == sorted(days)
    age = next(a for a in s["next_steps"][0]["actions"] if a["kind"] == "reach_age")
    assert (age["age"], age["on"]) == (18, "2028-04-12")


def test_a_higher_step_that_asks_no_more_leaves_out_the_lower_one():
    """Maria holds UBZ Bootsmann: UBZ Schiffsführer today (exams) does not leave out UBZ Steuermann (days only)."""
    record = {"id": "maria", "birth_date": "1998-02-10", "medical_fitness": True, "radio_certificate": True,
              "certificates": ["UBZ-Bootsmann"], "sailing_days": {"Matrose": 400, "Bootsmann": 140}}
    s = _check(record)["summary"]
    assert [x["certificate"] for x in s["next_steps"]] == ["UBZ-Schiffsfuehrer", "UBZ-Steuermann"]
    assert [a["kind"] for a in s["next_steps"][1]["actions"]] == ["serve_days"]
    assert s["next_steps"][1]["actions"][0]["days"] == 40


def test_json_keeps_every_certificate():
    a = _check(PERSONS / "anna-matrose.yaml")
    assert len(a["certificates"]) == len([c for c in api.law().certificates_in_order()
                                          if c.regulation == "SchBV2022"])
    assert set(a["summary"]) >= {"roles", "issuable", "lapsed", "next_steps"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_default_text_is_short_and_opens_with_the_summary(lang):
    """Every bundled person's default text is at most 40 lines at 80 columns; its second line names the roles."""
    counts = {}
    for f in sorted(PERSONS.iterdir()):
        a = _check(f, lang=lang)
        text = _text(a, lang)
        counts[f.name] = len(text.splitlines())
        assert text.splitlines()[1].startswith("Kann besetzen:" if lang == "de" else "Can fill:"), f.name
        assert max(len(line) for line in text.splitlines()) <= 80, f.name
    assert max(counts.values()) <= 40, counts


def test_all_lists_every_certificate_and_pathway():
    a = _check(PERSONS / "23-sofia-awaiting-validation.yaml")
    short, every = _text(a, "en"), _text(a, "en", every=True, width=140)
    for c in a["certificates"]:
        assert c["label"] in every
        for w in c["pathways"]:
            assert w["provision"] in every
    assert "§ 47 Abs. 13 Z 6 SchBV" not in short and "§ 47 Abs. 13 Z 6 SchBV" in every
    assert every.index("Next steps:") < every.index("Union certificate of qualification as deckhand")


def test_cli_all_flag():
    runner = CliRunner()
    f = str(PERSONS / "32-helga-boatmaster-at-70.yaml")
    short = runner.invoke(app, ["check", f, "--as-of", DAY, "--lang", "de"])
    every = runner.invoke(app, ["check", f, "--as-of", DAY, "--lang", "de", "--all"])
    assert short.exit_code == every.exit_code == 0
    words = " ".join(short.output.split())
    assert "§ 22 Abs. 1 SchBV" in words.split("Nächste Schritte")[0]  # the lapse before the steps
    assert len(every.output.splitlines()) > 3 * len(short.output.splitlines())


def test_the_readme_excerpt_is_what_check_prints():
    """README's quick start for a crew member shows the first lines of a real answer (lines with "…" are cut)."""
    readme = (PERSONS.parents[2] / "README.md").read_text(encoding="utf-8")
    excerpt = readme.split("<!-- excerpt: check -->\n```text\n")[1].split("```")[0]
    out = CliRunner().invoke(app, ["check", str(PERSONS / "20-franz-schifferdienstbuch.yaml"), "--as-of", DAY,
                                   "--lang", "en"]).output
    printed = [" ".join(line.split()) for line in out.splitlines()]
    for line in excerpt.splitlines():
        if "…" not in line:
            assert " ".join(line.split()) in printed, line


def test_the_http_api_answers_with_the_same_summary():
    """CLI, Python API and HTTP API alike: the service's answer carries the summary the library gives."""
    from datetime import date

    import yaml
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app
    from crewkg.service.loading import build_store

    law = api.law()
    client = TestClient(create_app(Service(law, build_store("memory", law, [], date.fromisoformat(DAY), [], []))))
    for name in ("32-helga-boatmaster-at-70.yaml", "23-sofia-awaiting-validation.yaml"):
        # YAML dates as the ISO strings a JSON client sends
        record = json.loads(json.dumps(yaml.safe_load((PERSONS / name).read_text(encoding="utf-8")), default=str))
        got = client.post("/api/eligibility", params={"as_of": DAY, "lang": "en"}, json=record)
        assert got.status_code == 200, got.text
        assert got.json()["summary"] == _check(PERSONS / name)["summary"]


def test_a_batchs_summaries_are_each_persons_own():
    """`summarise` plans a batch together (its planners' steps confirmed in one Datalog run a pathway, the records
    awaiting validation evaluated in one run); each summary is the one its person gets planned alone — every example
    person, among them franz-huber's Steuermann step on the day his 180 more days as Bootsmann are served (§ 14 Z 1 lit. a
    SchBV) and the dated records whose days await validation."""
    import copy
    from datetime import date

    from crewkg.answers.eligibility import check
    from crewkg.careers.summary import summarise, summary
    from crewkg.records.load import load_person_file

    law, day = api.law(), date.fromisoformat(DAY)
    persons = [load_person_file(f, law, day) for f in sorted(PERSONS.iterdir()) if f.suffix in (".yaml", ".json")]
    answers = check(law, persons, day, "en")
    alone = [summary(law, p, a, day, "en") for p, a in zip(persons, copy.deepcopy(answers), strict=True)]
    summarise(law, persons, answers, day, "en")
    assert [a["summary"] for a in answers] == alone
    franz = next(a["summary"] for p, a in zip(persons, answers, strict=True) if p.id == "franz-huber")
    assert {"certificate": "UBZ-Steuermann", "earliest": "2027-09-27"}.items() <= next(
        n for n in franz["next_steps"] if n["certificate"] == "UBZ-Steuermann").items()
    assert any(a["kind"] == "validate_days" for s in alone for n in s["next_steps"] for a in n["actions"])
