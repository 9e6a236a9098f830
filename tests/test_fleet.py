"""The fleet forecast (`crewkg fleet`, issue 45): the example fleet's days and causes, each on the day before and the
day itself as `crewkg crew` answers them; remedies only where the rules say the person can hold what is missing from
that day; the calendar file parsed back; the picture drawn; bad fleet records refused (exit 2)."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, timedelta
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import crewkg
from crewkg.cli import app

pytestmark = pytest.mark.xdist_group("test_fleet")  # the example forecast is made once, on one worker

ROOT = Path(__file__).resolve().parents[1]
FLEET = ROOT / "kb" / "examples" / "fleets" / "donau-reederei.yaml"
START, END = date(2026, 11, 30), date(2032, 6, 30)
DAY = timedelta(days=1)
runner = CliRunner()


@pytest.fixture(scope="module")
def forecast() -> dict:
    return crewkg.api.fleet(FLEET, START, END, "en")


def _entries() -> dict[str, tuple[Path, Path]]:
    data = yaml.safe_load(FLEET.read_text(encoding="utf-8"))
    out = {}
    for v in data["vessels"]:
        vessel, roster = FLEET.parent / v["vessel"], FLEET.parent / v["roster"]
        out[yaml.safe_load(vessel.read_text(encoding="utf-8"))["id"]] = (vessel, roster)
    return out


def _crew(vessel: str, day: date) -> bool | None:
    path, roster = _entries()[vessel]
    return crewkg.api.crew(path, roster, day, "en")["roster"]["satisfied"]


def _vessel(forecast: dict, vid: str) -> dict:
    return next(v for v in forecast["vessels"] if v["vessel"] == vid)


def test_the_answer_keeps_to_the_contract(forecast):
    assert set(forecast) >= {"fleet", "from", "until", "vessels"}
    assert (forecast["fleet"], forecast["from"], forecast["until"]) == ("donau-reederei", "2026-11-30", "2032-06-30")
    for v in forecast["vessels"]:
        assert set(v) >= {"vessel", "satisfied", "events"}
        assert [e["date"] for e in v["events"]] == sorted(e["date"] for e in v["events"])
        for e in v["events"]:
            assert set(e) >= {"date", "satisfied", "causes", "remedies"}
            assert all(set(c) >= {"person", "certificate", "reason", "provision"} for c in e["causes"])
            assert all(set(r) >= {"person", "certificate", "from", "provision"} for r in e["remedies"])


def test_the_example_fleet_names_the_right_days_and_causes(forecast):
    wachau, wolfgang, amadeus = (_vessel(forecast, v) for v in ("ms-wachau", "ms-wolfgang", "mv-amadeus"))
    assert wachau["satisfied"] is False and wachau["missing"][0]["role"] == "Matrose"
    assert [(e["date"], e["satisfied"]) for e in wachau["events"]] == [("2027-02-01", True), ("2027-03-15", False)]
    turns_17, turns_70 = (e["causes"] for e in wachau["events"])
    assert turns_17 == [{"person": "lena-gruber", "certificate": "UBZ-Leichtmatrose", "reason": "age_reached",
                         "provision": "§ 43 Abs. 6 SchBV", "role": "Leichtmatrose", "instead_of": "Matrose"}]
    assert turns_70 == [{"person": "kapitaenin-berger", "certificate": "UBZ-Schiffsfuehrer", "reason": "medical_overdue",
                         "provision": "§ 22 Abs. 1 SchBV"}]
    assert wolfgang["satisfied"] is True
    assert [(e["date"], e["satisfied"], e["causes"]) for e in wolfgang["events"]] == [
        ("2032-01-18", False, [{"person": "josef-brandner", "certificate": "Kapitaenspatent-B", "reason": "end_of_validity",
                                "provision": "§ 47 Abs. 6 SchBV"}])]
    assert [(e["date"], e["satisfied"], e["causes"]) for e in amadeus["events"]] == [
        ("2032-01-18", False, [{"person": "rosa-lechner", "certificate": "SchBesV2004-Matrose", "reason": "end_of_validity",
                                "provision": "§ 47 Abs. 2 SchBV"}])]


def test_each_day_is_the_verdict_of_crewkg_crew_on_the_day_before_and_the_day_itself(forecast):
    for v in forecast["vessels"]:
        assert _crew(v["vessel"], START) is v["satisfied"]
        before = v["satisfied"]
        for e in v["events"]:
            day = date.fromisoformat(e["date"])
            assert _crew(v["vessel"], day - DAY) is before, (v["vessel"], e["date"])
            assert _crew(v["vessel"], day) is e["satisfied"], (v["vessel"], e["date"])
            before = e["satisfied"]


def _eligible(record: dict | Path, certificate: str, day: date) -> bool:
    answer = crewkg.check(record, day, "en")
    return next(c for c in answer["certificates"] if c["id"] == certificate)["eligible"]


def _member(vessel: str, pid: str) -> dict:
    roster = yaml.safe_load(_entries()[vessel][1].read_text(encoding="utf-8"))
    return next(m for m in roster["crew"] if m["id"] == pid)


def test_an_application_is_proposed_only_from_a_day_the_rules_let_it_be_issued(forecast):
    """josef-brandner can have his Kapitänspatent B replaced by the UBZ Schiffsführer (§ 47 Abs. 6 Z 2 SchBV) from his
    medical examination of 2025-04-10 (at 52: it counts until his 60th birthday, 2 Oct 2032, § 22 Abs. 1 SchBV) up to
    and including 17 January 2032; rosa-lechner her qualification as Matrose up to and including 17 January 2032."""
    wolfgang, amadeus = _vessel(forecast, "ms-wolfgang"), _vessel(forecast, "mv-amadeus")
    (josef,) = [r for r in wolfgang["events"][0]["remedies"] if r["person"] == "josef-brandner"]
    assert (josef["certificate"], josef["from"], josef["apply_by"], josef["provision"]) == (
        "UBZ-Schiffsfuehrer", "2025-04-10", "2032-01-17", "§ 47 Abs. 6 Z 2 SchBV")
    assert josef["actions"] == ["apply"]  # his proof of 2025 still counts on 2032-01-18 (he turns 60 on 2032-10-02)
    (rosa,) = [r for r in amadeus["events"][0]["remedies"] if r["person"] == "rosa-lechner"]
    assert (rosa["certificate"], rosa["from"], rosa["apply_by"], rosa["provision"]) == (
        "UBZ-Matrose", "2022-01-17", "2032-01-17", "§ 47 Abs. 4 SchBV")
    for vessel, r in (("ms-wolfgang", josef), ("mv-amadeus", rosa)):
        record = _member(vessel, r["person"])
        first, last = date.fromisoformat(r["from"]), date.fromisoformat(r["apply_by"])
        assert _eligible(record, r["certificate"], first) and _eligible(record, r["certificate"], last)
        assert not _eligible(record, r["certificate"], last + DAY)
    assert not _eligible(_member("ms-wolfgang", "josef-brandner"), "UBZ-Schiffsfuehrer", date(2025, 4, 9))


def test_a_renewal_is_proposed_where_a_proof_examined_that_day_lets_the_certificate_count(forecast):
    event = _vessel(forecast, "ms-wachau")["events"][1]
    (renew,) = [r for r in event["remedies"] if r["action"] == "renew_medical"]
    assert (renew["person"], renew["certificate"], renew["from"]) == ("kapitaenin-berger", "UBZ-Schiffsfuehrer", "2027-03-15")
    record = _member("ms-wachau", "kapitaenin-berger")
    renewed = dict(record, medical_fitness={"examined": renew["from"]})
    assert "Schiffsfuehrer" not in crewkg.check(record, renew["from"], "en")["roles"]
    assert "Schiffsfuehrer" in crewkg.check(renewed, renew["from"], "en")["roles"]


def test_a_member_of_another_vessel_is_proposed_only_where_the_roster_with_them_is_manned(forecast):
    event = _vessel(forecast, "ms-wachau")["events"][1]
    assigned = [r for r in event["remedies"] if r["action"] == "assign"]
    assert {r["person"] for r in assigned} >= {"peter-hofer"}
    vessel, roster = _entries()["ms-wachau"]
    crew = yaml.safe_load(roster.read_text(encoding="utf-8"))["crew"]
    for r in assigned:
        other = _member(r["vessel"], r["person"])
        day = date.fromisoformat(r["from"])
        without = crewkg.api.crew(vessel, {"crew": crew}, day, "en")["roster"]
        with_them = crewkg.api.crew(vessel, {"crew": [*crew, other]}, day, "en")["roster"]
        assert len(with_them["missing"]) < len(without["missing"]), r
    first_day = _vessel(forecast, "ms-wachau")["remedies"]
    (lena,) = [r for r in first_day if r["person"] == "lena-gruber"]
    assert (lena["from"], lena["action"], lena["provision"]) == ("2027-02-01", "later", "§ 43 Abs. 6 SchBV")


def test_the_calendar_file_parses_back_with_one_alarm_per_event(forecast):
    icalendar = pytest.importorskip("icalendar")
    result = runner.invoke(app, ["fleet", str(FLEET), "--from", START.isoformat(), "--until", END.isoformat(),
                                 "--format", "ics", "--lang", "en"])
    assert result.exit_code == 1, result.output  # a vessel is not manned on some day
    cal = icalendar.Calendar.from_ical(result.stdout_bytes)
    events = [c for c in cal.walk("VEVENT")]
    expected = [(v["vessel"], START.isoformat()) for v in forecast["vessels"] if v["satisfied"] is not True]
    expected += [(v["vessel"], e["date"]) for v in forecast["vessels"] for e in v["events"]]
    assert sorted((str(e["uid"]).split("-2")[0].removeprefix("donau-reederei-"), e.decoded("dtstart").isoformat())
                  for e in events) == sorted(expected)
    for e in events:
        (alarm,) = e.walk("VALARM")
        assert str(alarm["action"]) == "DISPLAY" and str(alarm["description"])
    turns_70 = next(e for e in events if e.decoded("dtstart") == date(2027, 3, 15))
    assert "kapitaenin-berger renews the medical proof" in str(turns_70["description"])


def test_the_text_opens_with_the_summary_and_says_one_line_per_event(forecast):
    result = runner.invoke(app, ["fleet", str(FLEET), "--from", START.isoformat(), "--until", END.isoformat(), "--lang", "en"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("donau-reederei: minimum crew from 2026-11-30 to 2032-06-30")
    assert lines[1] == "Summary:" and lines[2].startswith("  ms-wachau: minimum crew not met on 2026-11-30")
    days = [line.split(" ", 1)[0] for line in lines[lines.index("Day by day:") + 1:]]
    assert days == ["2026-11-30", "2027-02-01", "2027-03-15", "2032-01-18", "2032-01-18"]
    german = runner.invoke(app, ["fleet", str(FLEET), "--from", START.isoformat(), "--until", END.isoformat()])
    for word in (" the ", " not ", " and ", " of ", " from ", " can "):
        assert word not in german.stdout, word
    for word in (" nicht ", " und ", " der ", " die ", " ab "):
        assert word not in result.stdout, word


def test_a_fleet_met_on_every_day_exits_0(tmp_path):
    fleet = {"id": "klein", "vessels": [{"vessel": str(ROOT / "kb/examples/vessels/01-ms-wachau-danube-day-trip.yaml"),
                                         "roster": str(ROOT / "kb/examples/rosters/01-ms-wachau-full.yaml")}]}
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump(fleet), encoding="utf-8")
    result = runner.invoke(app, ["fleet", str(path), "--from", "2026-11-30", "--until", "2027-11-30", "--format", "json"])
    assert result.exit_code == 0, result.output
    (v,) = json.loads(result.stdout)["vessels"]
    assert v["satisfied"] is True and v["events"] == [] and v["not_met_days"] == 0


def test_worker_processes_give_the_same_answer(forecast):
    assert crewkg.api.fleet(FLEET, START, END, "en", workers=2) == forecast


def test_school_attendance_takes_the_member_off_board_and_reduces_the_crew_only_while_its_conditions_hold(tmp_path):
    """§ 43 Abs. 7 Z 2 SchBV: while the Leichtmatrose is at school the table's temporary reduction applies, for at most
    three uninterrupted months (from 10 Jan: up to 9 Apr, § 902 Abs. 2 ABGB); the forecast's verdict on each day is
    `crewkg crew` of the same roster with its school attendance, and it names the day the reduction ends."""
    roster = yaml.safe_load((ROOT / "kb/examples/rosters/01-ms-wachau-full.yaml").read_text(encoding="utf-8"))
    roster["school_attendance"] = [{"member": "tobias", "from": "2027-01-10", "to": "2027-04-30"}]
    vessel = ROOT / "kb/examples/vessels/01-ms-wachau-danube-day-trip.yaml"
    fleet = {"id": "schule", "vessels": [{"vessel": str(vessel), "roster": roster}]}
    from crewkg.api.forecasts import read_fleet
    from crewkg.careers.fleet import Context
    from crewkg.manning.forecast import evaluate_members, prepare, vessel_checks

    law = crewkg.api.law()
    ml, f = read_fleet(law, fleet, START)
    until = date(2027, 12, 31)
    reqs, members, proofs = prepare(law, ml, f, START, until)
    evaluate_members(law, ml, members, proofs)
    Context(law, ml, f, START, until, members, reqs, "en")
    checks = vessel_checks(law, ml, f.vessels[0], members, reqs, START, until, "en")
    assert {date(2027, 1, 10), date(2027, 4, 10), date(2027, 5, 1)} <= {c.day for c in checks}
    expected = {date(2027, 1, 9): True, date(2027, 1, 10): True, date(2027, 4, 9): True, date(2027, 4, 10): False,
                date(2027, 4, 30): False, date(2027, 5, 1): True}
    for day, satisfied in expected.items():
        on_day = [c for c in checks if c.day <= day][-1]
        answer = crewkg.api.crew(vessel, roster, day, "en")
        assert on_day.verdict["satisfied"] is answer["roster"]["satisfied"] is satisfied, day
        assert ("tobias" in on_day.on_board) is (day < date(2027, 1, 10) or day > date(2027, 4, 30))
    forecast = crewkg.api.fleet(fleet, START, until, "en")
    (v,) = forecast["vessels"]
    ends = [e for e in v["events"] if e["date"] == "2027-04-10"]
    assert ends and ends[0]["satisfied"] is False
    assert [c["reason"] for c in ends[0]["causes"]] == ["school_reduction_ends"]
    assert ends[0]["causes"][0]["provision"].startswith("§ 43 Abs. 7")


def test_the_picture_is_drawn(forecast, tmp_path):
    pytest.importorskip("matplotlib")
    for suffix in (".png", ".svg", ".html"):
        out = tmp_path / f"fleet{suffix}"
        result = runner.invoke(app, ["fleet", str(FLEET), "--from", START.isoformat(), "--until", END.isoformat(),
                                     "--out", str(out), "--format", "json", "--lang", "en"])
        assert result.exit_code == 1 and out.stat().st_size > 1000, result.output
    page = (tmp_path / "fleet.html").read_text(encoding="utf-8")
    assert "<svg" in page and "kapitaenin-berger: medical" in page


def _refused(tmp_path, data, *args) -> str:
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True) if not isinstance(data, str) else data, encoding="utf-8")
    result = runner.invoke(app, ["fleet", str(path), "--from", "2026-11-30", "--until", "2027-11-30", "--lang", "en", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and "Traceback" not in result.output
    return result.stderr


def test_bad_fleet_records_are_refused_with_file_field_and_expectation(tmp_path):
    vessel = str(ROOT / "kb/examples/vessels/01-ms-wachau-danube-day-trip.yaml")
    roster = str(ROOT / "kb/examples/rosters/01-ms-wachau-full.yaml")
    assert "field 'vessels'" in _refused(tmp_path, {"id": "f", "vessels": []})
    assert "field 'vesels'" in _refused(tmp_path, {"id": "f", "vesels": []})
    assert "field 'id'" in _refused(tmp_path, {"id": "f f", "vessels": [{"vessel": vessel, "roster": roster}]})
    assert "field 'vessels[0].roster'" in _refused(tmp_path, {"id": "f", "vessels": [{"vessel": vessel}]})
    missing = _refused(tmp_path, {"id": "f", "vessels": [{"vessel": "nowhere.yaml", "roster": roster}]})
    assert "nowhere.yaml" in missing and "an existing file" in missing
    twice = _refused(tmp_path, {"id": "f", "vessels": [{"vessel": vessel, "roster": roster}] * 2})
    assert "field 'vessels[1].vessel'" in twice and "also vessels[0]" in twice
    inline = _refused(tmp_path, {"id": "f", "vessels": [{"vessel": {"id": "x", "kind": "ship"}, "roster": roster}]})
    assert "field 'vessels[0].vessel.kind'" in inline
    school = yaml.safe_load(Path(roster).read_text(encoding="utf-8")) | {
        "school_attendance": [{"member": "nobody", "from": "2027-01-10", "to": "2027-03-31"}]}
    assert "field 'vessels[0].roster.school_attendance[0].member'" in _refused(
        tmp_path, {"id": "f", "vessels": [{"vessel": vessel, "roster": school}]})
    assert "--until: field 'until'" in _refused(tmp_path, {"id": "f", "vessels": [{"vessel": vessel, "roster": roster}]},
                                   "--until", "2026-01-01")
    (tmp_path / "fleet.yaml").write_text(yaml.safe_dump({"id": "f", "vessels": []}), encoding="utf-8")
    german = runner.invoke(app, ["fleet", str(tmp_path / "fleet.yaml"), "--from", "2026-11-30", "--until", "2027-11-30"])
    assert german.exit_code == 2 and "erwartet" in german.stderr and "Fahrzeugen" in german.stderr


def test_the_fleet_shapes_can_fail():
    """ontology/manning-shapes.ttl: a fleet whose vessel has no roster, or which operates no vessel, is refused."""
    from rdflib import URIRef

    from crewkg.api.forecasts import read_fleet
    from crewkg.manning.fleet import fleet_graph
    from crewkg.manning.tables import MANNING
    from crewkg.manning.vessels import _shapes, _vocabulary
    from crewkg.records.shacl import violations

    law = crewkg.api.law()
    ml, f = read_fleet(law, FLEET, START)
    g = fleet_graph(f, ml)
    assert violations(g, _vocabulary(), _shapes(), "test-fleet-ok-" + str(id(g))) == []
    g.remove((None, MANNING.crewedBy, None))
    found = violations(g, _vocabulary(), _shapes(), "test-fleet-bad-" + str(id(g)))
    assert {msg for _, _, msg in found} == {"each vessel of a fleet is crewed by exactly one roster record"}
    empty = fleet_graph(dataclasses.replace(f, vessels=[]), ml)
    assert [m for _, node, m in violations(empty, _vocabulary(), _shapes(), "test-fleet-empty")
            if URIRef(node) == URIRef("https://w3id.org/crewkg/fleet/donau-reederei")] == [
        "a fleet operates at least one vessel record"]
