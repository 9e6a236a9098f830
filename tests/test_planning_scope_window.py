"""Planning from a service log when a scope's own crediting window is fuller than the any-role window.

The planner credits future days at the pace of the any-role window (§ 6 Abs. 4 SchBV: at most 180 in 365 days); the
rules confirm each step on the real crediting of the planned log, where every scope (a role, any role, a programme
phase) has its window of its own. Days served as Bootsmann while the any-role window was full of days as Matrose are
credited as Bootsmann but not in any role: when the days as Matrose leave the any-role window, it has room while the
window of the days as Bootsmann is still full. A requirement asking more days in one role than the cap allows in 365
then is met later than the any-role pace says; the step must move to that date, not become unplannable.

The kb asks at most 180 days in a role, which a full role window always meets, so the test raises § 14 Z 1 lit. a
SchBV to 360 days as Bootsmann in a copy of the kb (the engine is generic: the law is data)."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from crewkg.locations import kb_dir

pytestmark = pytest.mark.xdist_group("test_planning_scope_window")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 5, 26)
#: 180 days as Matrose fill the any-role window; the next 180 as Bootsmann are credited as Bootsmann only
RECORD = {"id": "bo", "birth_date": "1990-01-01", "medical_fitness": True, "radio_certificate": True,
          "exams": ["Anlage8"], "certificates": ["UBZ-Matrose", "UBZ-Bootsmann"],
          "service": [{"from": "2025-06-01", "to": "2025-11-27", "role": "Matrose"},
                      {"from": "2025-11-28", "to": "2026-05-26", "role": "Bootsmann"}]}
#: the Bootsmann window is full until 2025-11-28 leaves it on 2026-11-28; from then one day a day: the 360th day as
#: Bootsmann is credited on 2027-05-26 (day 180 + 180)
EARLIEST = "2027-05-26"


@pytest.fixture(scope="module")
def law(tmp_path_factory):
    from crewkg.law.statute import load_law

    copy = tmp_path_factory.mktemp("kb") / "kb"
    shutil.copytree(kb_dir(), copy)
    ttl = copy / "schbv2022" / "02_unionsbefaehigungszeugnisse.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = "crew:servedAs kb:Bootsmann ; crew:minimumDays 180 ;"
    assert text.count(old) == 1
    ttl.write_text(text.replace(old, "crew:servedAs kb:Bootsmann ; crew:minimumDays 360 ;"), encoding="utf-8")
    return load_law(kb=Path(copy))


def _answer(law, record, on):
    from crewkg.answers.eligibility import check
    from crewkg.records.persons import person_from_mapping

    p = person_from_mapping(record, law, on, "test")
    return p, check(law, [p], on)[0]


def _steuermann(answer):
    return next(c for c in answer["certificates"] if c["id"] == "UBZ-Steuermann")


def test_the_step_moves_to_the_day_the_role_window_credits_the_last_day(law):
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan

    p, answer = _answer(law, RECORD, AS_OF)
    z1 = next(x for w in _steuermann(answer)["pathways"] for x in w["requirements"] if x["provision"] == "§ 14 Z 1 lit. a SchBV")
    assert (z1["needed"], z1["have"]) == (360, 180)
    result = plan(law, p, answer, "UBZ-Steuermann", AS_OF, Pace.from_kb())
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 14 Z 1 SchBV"])
    assert route["earliest"] == EARLIEST, route
    step = route["steps"][0]
    assert step["earliest"] == EARLIEST
    days = next(x for x in step["remaining"] if x["provision"] == "§ 14 Z 1 lit. a SchBV")
    assert days["met_on"] == EARLIEST
    assert result["routes"][0]["earliest"] == EARLIEST  # the fastest route


@pytest.mark.parametrize(("on", "eligible"), [("2027-05-25", False), (EARLIEST, True)])
def test_the_rules_agree_at_the_threshold(law, on, eligible):
    """The log the plan describes: sailing as Bootsmann every day after the evaluation date."""
    record = dict(RECORD, service=[*RECORD["service"], {"from": "2026-05-27", "to": "2027-12-31", "role": "Bootsmann"}])
    _, answer = _answer(law, record, date.fromisoformat(on))
    assert _steuermann(answer)["eligible"] is eligible


def test_a_record_of_totals_is_planned_as_before(law):
    """Totals have no dated window: the any-role pace is the plan (360 days as Bootsmann from 180: 180 more)."""
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan

    record = {k: v for k, v in RECORD.items() if k != "service"} | {"sailing_days": {"Matrose": 180, "Bootsmann": 180}}
    p, answer = _answer(law, record, AS_OF)
    result = plan(law, p, answer, "UBZ-Steuermann", AS_OF, Pace.from_kb())
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 14 Z 1 SchBV"])
    assert route["earliest"] == "2026-11-22"  # 180 days from 2026-05-27, an empty window


def test_the_steps_after_a_moved_step_are_planned_from_its_new_date(law):
    """§ 15 Z 2 SchBV after the Steuermann UBZ: planned (and confirmed) from 2027-05-26, not left unplannable."""
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan

    p, answer = _answer(law, RECORD, AS_OF)
    result = plan(law, p, answer, "UBZ-Schiffsfuehrer", AS_OF, Pace.from_kb())
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 14 Z 1 SchBV", "§ 15 Z 2 SchBV"])
    assert [s["earliest"] for s in route["steps"]] == [EARLIEST, EARLIEST]
    assert result["routes"][0] is route or result["routes"][0]["earliest"] == EARLIEST
