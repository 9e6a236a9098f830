"""Dated evidence (issue 10): the service log credited under the cap of § 6 Abs. 4 SchBV (SchBesV 2004 § 3 Abs. 6),
the answer's recorded / not_validated / capped days, eligible-since, and bad logs refused with the entry named."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli import app
from crewkg.errors import InputError
from crewkg.law.crediting import credited_days, crediting_limits
from crewkg.records.persons import person_from_mapping

BASE = {"id": "d", "birth_date": "1990-01-01", "medical_fitness": True, "radio_certificate": True}


def person(law, as_of: date, **fields):
    return person_from_mapping(BASE | fields, law, as_of, "test")


def inland(start: str, end: str, role: str = "Decksmann", **more) -> dict:
    return {"from": start, "to": end, "role": role} | more


def requirement(answer: dict, cert: str, provision_prefix: str, kind: str) -> dict:
    def walk(items):
        for r in items:
            yield r
            for v in r.values():
                if isinstance(v, list) and v and isinstance(v[0], dict):
                    yield from walk(v)

    for c in answer["certificates"]:
        if c["id"] == cert:
            for w in c["pathways"]:
                for x in walk(w["requirements"]):
                    if x["provision"].startswith(provision_prefix) and x["kind"] == kind:
                        return x
    raise AssertionError((cert, provision_prefix, kind))


def cert(answer: dict, cid: str) -> dict:
    return next(c for c in answer["certificates"] if c["id"] == cid)


def test_the_limits_are_the_kbs():
    limits = crediting_limits()
    assert (limits["InlandNavigation"].days, limits["InlandNavigation"].period) == (180, 365)
    assert (limits["SeaNavigation"].days, limits["SeaNavigation"].period) == (250, 365)


def test_continuous_service_from_1_january_2023_credits_the_360th_day_on_28_june_2024(law):
    """180 days are credited from 1 Jan to 29 Jun 2023; the next from 1 Jan 2024, when 1 Jan 2023 leaves the window;
    then one a day as each credited day of 2023 leaves it: 359 on 27 Jun 2024, 360 on 28 Jun 2024."""
    log = [inland("2023-01-01", "2024-12-31")]
    for on, credited in ((date(2023, 6, 29), 180), (date(2023, 6, 30), 180), (date(2023, 12, 31), 180),
                         (date(2024, 1, 1), 181), (date(2024, 6, 27), 359), (date(2024, 6, 28), 360)):
        p = person(law, on, service=log)
        assert p.any_role_days == credited, on
        assert p.sailing_days["Decksmann"] == credited
        assert p.credits["any"].recorded == on.toordinal() - date(2023, 1, 1).toordinal() + 1
        assert p.credits["any"].capped == p.credits["any"].recorded - credited
    # the Matrose certificate (§ 12 Z 2 lit. c: 360 days) is issuable from that day, not the day before
    before = check(law, [person(law, date(2024, 6, 27), service=log, exams=["Anlage8"])], date(2024, 6, 27))[0]
    on = check(law, [person(law, date(2024, 6, 28), service=log, exams=["Anlage8"])], date(2024, 6, 28))[0]
    assert not cert(before, "UBZ-Matrose")["eligible"] and cert(on, "UBZ-Matrose")["eligible"]
    assert cert(on, "UBZ-Matrose")["eligible_since"] == "2024-06-28"
    assert cert(before, "UBZ-Matrose")["eligible_since"] is None


def test_crediting_chronologically_never_puts_more_than_the_cap_in_a_window():
    import random

    rnd = random.Random(7)
    for _ in range(50):
        days = sorted({rnd.randrange(0, 2000) for _ in range(rnd.randrange(0, 1200))})
        got = credited_days(days, 180, 365)
        assert all(sum(1 for x in got if d - 365 < x <= d) <= 180 for d in got)
        # and greedily: a day left out had a full window ending on it
        left = set(days) - set(got)
        assert all(sum(1 for x in got if d - 365 < x <= d) == 180 for d in left)


def test_overlapping_entries_count_each_day_once(law):
    log = [inland("2024-01-01", "2024-01-31"), inland("2024-01-15", "2024-02-15"), inland("2024-01-20", "2024-01-25", "Matrose")]
    p = person(law, date(2024, 12, 31), service=log)
    assert p.any_role_days == 46  # 1 Jan – 15 Feb
    # a Fahrtag is served in one role: the six days also logged as Matrose count as Matrose, the higher role, only
    assert p.sailing_days == {"Decksmann": 40, "Matrose": 6}


@pytest.mark.parametrize("validated, bootsmann, matrose", [(True, 180, 0), (False, 0, 180)],
                         ids=["both validated: the higher role keeps the day", "the higher role's entry not validated"])
def test_a_day_logged_in_two_roles_counts_for_one_role_specific_requirement_only(law, validated, bootsmann, matrose):
    """§ 13 Z 1 ('als Matrose geleistete') and § 14 Z 1 lit. a ('als Bootsmann geleistete') cannot both be met by
    one half year logged in both roles."""
    log = [inland("2023-01-01", "2023-06-29", "Matrose"), inland("2023-01-01", "2023-06-29", "Bootsmann", validated=validated)]
    on = date(2023, 6, 29)
    a = check(law, [person(law, on, service=log)], on)[0]
    assert requirement(a, "UBZ-Bootsmann", "§ 13 Z 1", "Fahrzeit")["have"] == matrose
    assert requirement(a, "UBZ-Steuermann", "§ 14 Z 1 lit. a", "Fahrzeit")["have"] == bootsmann
    assert (cert(a, "UBZ-Bootsmann")["eligible"], cert(a, "UBZ-Steuermann")["eligible"]) == (not validated, validated)


def test_unvalidated_entries_are_shown_never_credited(law):
    log = [inland("2024-01-01", "2024-04-30"), inland("2024-05-01", "2024-06-29", validated=False)]
    on = date(2024, 12, 31)
    p = person(law, on, service=log)
    assert p.any_role_days == 121
    assert p.credits["any"] == type(p.credits["any"])(recorded=181, credited=121, not_validated=60, capped=0)
    a = check(law, [p], on)[0]
    r = requirement(a, "UBZ-Decksmann", "§ 10", "Fahrzeit")
    assert (r["have"], r["recorded"], r["not_validated"], r["capped"]) == (121, 181, 60, 0)
    # a day covered by a validated entry too is validated
    both = person(law, on, service=[*log, inland("2024-05-01", "2024-05-10")])
    assert both.credits["any"].not_validated == 50 and both.any_role_days == 131


def test_the_missing_sentence_explains_the_gap(law):
    on = date(2024, 6, 27)
    p = person(law, on, service=[inland("2023-01-01", "2024-06-27"), inland("2024-07-01", "2024-07-30", validated=False)],
               exams=["Anlage8"])
    from crewkg.rules.kinds import missing_sentence

    a = check(law, [p], on, "de")[0]
    r = requirement(a, "UBZ-Matrose", "§ 12 Z 2", "Fahrzeit")
    assert (r["needed"], r["have"], r["capped"]) == (360, 359, 185)
    assert missing_sentence(law, r, "de") == ("noch 1 Tag Fahrzeit; 185 Tage wegen der Höchstgrenze von 180 Tagen in 365 "
                                              "Tagen nicht anrechenbar (§ 6 Abs. 4 SchBV, sinngemäß wiedergegeben: sein "
                                              "Wortlaut ist nicht in den von crewkg mitgelieferten Texten enthalten) "
                                              "(§ 12 Z 2 lit. c SchBV)")
    later = date(2024, 8, 1)
    q = person(law, later, service=[inland("2024-01-01", "2024-04-30"), inland("2024-07-01", "2024-08-29", validated=False)])
    r = requirement(check(law, [q], later, "en")[0], "UBZ-Decksmann", "§ 10", "Fahrzeit")
    assert missing_sentence(law, r, "en", cite=False) == "59 more days of sailing time; 32 days recorded but not validated"


def test_days_after_the_evaluation_date_do_not_count(law):
    log = [inland("2024-01-01", "2024-12-31")]
    p = person(law, date(2024, 1, 10), service=log)
    assert p.any_role_days == 10 and p.credits["any"].recorded == 10


def test_first_and_last_day_of_a_programme_window(law):
    prog = [{"for": "Matrose", "from": "2023-09-01", "to": "2025-08-31"}]
    log = [inland("2023-08-31", "2023-09-01"), inland("2025-08-31", "2025-09-01")]
    p = person(law, date(2025, 12, 31), service=log, programmes=prog)
    g = p.programmes[0]
    assert g.months == 24
    assert (g.sailing_days, g.sailing_days_after, g.within_or_after) == (2, 1, 3)  # 1 Sep 2023 and 31 Aug 2025 within
    # on its last day the programme has its 24 months; the day before 23
    assert person(law, date(2025, 8, 31), service=log, programmes=prog).programmes[0].months == 24
    assert person(law, date(2025, 8, 30), service=log, programmes=prog).programmes[0].months == 23


def test_the_sea_cap_is_250_and_master_days_count_as_deck_crew(law):
    on = date(2021, 12, 31)
    p = person(law, on, service=[{"from": "2021-01-01", "to": "2021-12-31", "waters": "sea", "capacity": "deck_crew"}])
    assert p.sea_credited["AsDeckCrew"] == 250 and p.credits["sea:AsDeckCrew"].capped == 115
    q = person(law, on, service=[{"from": "2021-01-01", "to": "2021-06-30", "waters": "sea", "capacity": "deck_crew"},
                                 {"from": "2021-07-01", "to": "2021-12-31", "waters": "sea", "capacity": "master"}])
    # credited together: the cap applies to the days the requirement counts, not to each capacity apart
    assert q.sea_credited == {"AsDeckCrew": 250, "AsMaster": 184, "AnyCapacity": 250}


def test_eligible_since_is_exact_at_a_birthday_and_an_exam(law):
    on = date(2025, 6, 1)
    log = [inland("2022-02-01", "2024-12-31")]
    p = person(law, on, service=log, exams=[{"id": "Anlage8", "passed": "2025-03-10"}])
    assert cert(check(law, [p], on)[0], "UBZ-Matrose")["eligible_since"] == "2025-03-10"
    before = person(law, date(2025, 3, 9), service=log, exams=[{"id": "Anlage8", "passed": "2025-03-10"}])
    assert not cert(check(law, [before], date(2025, 3, 9))[0], "UBZ-Matrose")["eligible"]


def test_eligible_since_is_null_without_dated_evidence(law):
    on = date(2026, 11, 30)
    p = person_from_mapping(BASE | {"sailing_days": {"Decksmann": 400}, "exams": ["Anlage8"]}, law, on, "t")
    a = check(law, [p], on)[0]
    assert cert(a, "UBZ-Matrose")["eligible"] and cert(a, "UBZ-Matrose")["eligible_since"] is None


@pytest.mark.parametrize(("change", "field"), [
    ({"service": [inland("2024-02-01", "2024-01-31")]}, "service[0].to"),
    ({"service": [inland("2024-01-01", "2024-01-31"), inland("2024-02-30", "2024-03-01")]}, "service[1].from"),
    ({"service": [inland("2024-01-01", "2024-01-31"), inland("2024-02-01", "2024-02-28", "Koch")]}, "service[1].role"),
    ({"service": [{"from": "2024-01-01", "to": "2024-01-31", "waters": "sea", "capacity": "master", "role": "Matrose"}]},
     "service[0].role"),
    ({"service": [inland("2024-01-01", "2024-01-31", capacity="master")]}, "service[0].capacity"),
    ({"service": [inland("2024-01-01", "2024-01-31")], "sailing_days": {"Matrose": 10}}, "sailing_days"),
    ({"service": [{"from": "2024-01-01", "to": "2024-01-31", "waters": "sea", "capacity": "master"}],
      "sea_days": {"master": 10}}, "sea_days"),
    ({"service": [inland("2024-01-01", "2024-01-31")], "programmes": [{"for": "Matrose", "months": 24}]}, "programmes[0].from"),
    ({"programmes": [{"for": "Matrose", "from": "2023-09-01", "to": "2025-08-31", "months": 36}]}, "programmes[0].months"),
    # inland totals cannot say which of their days fell within a dated programme: the record says it, or gives a log
    ({"sailing_days": {"Matrose": 400}, "programmes": [{"for": "Matrose", "from": "2023-09-01", "to": "2025-08-31"}]},
     "programmes[0].sailing_days"),
])
def test_bad_logs_are_refused_with_the_entry_and_field_named(law, tmp_path: Path, change: dict, field: str):
    with pytest.raises(InputError) as err:
        person_from_mapping(BASE | change, law, date(2026, 1, 1), "r.yaml")
    assert err.value.field == field
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(BASE | change))
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["check", str(f), "--format", "json", "--as-of", "2026-01-01"])
    assert result.exit_code == 2, result.output
    assert str(f) in result.output and field in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_the_json_api_accepts_a_log(law):
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, create_app
    from crewkg.service.loading import build_store

    store = build_store("memory", law, [], date(2024, 6, 28), [], [])
    client = TestClient(create_app(Service(law, store)))
    body = BASE | {"service": [inland("2023-01-01", "2024-12-31")], "exams": ["Anlage8"]}
    r = client.post("/api/eligibility?as_of=2024-06-28", json=body)
    assert r.status_code == 200, r.text
    m = next(c for c in r.json()["certificates"] if c["id"] == "UBZ-Matrose")
    assert m["eligible"] and m["eligible_since"] == "2024-06-28"


def test_explain_takes_a_log(tmp_path: Path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(BASE | {"service": [inland("2023-01-01", "2024-06-27")]}))
    result = CliRunner().invoke(app, ["explain", str(f), "UBZ-Matrose", "--as-of", "2024-06-27", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "Höchstgrenze von 180 Tagen in 365 Tagen" in " ".join(result.output.split())


def test_days_within_and_after_a_programme_are_each_credited_under_the_cap(law):
    """§ 15 Z 4 lit. c SchBV asks for 180 days within the programme and again 180 after it: two requirements, each
    counting its own days under the cap. Continuous service from 1 Jan 2025 credits 180 days within the programme
    (ended 30 Jun 2025) and, from 1 Jul 2025, the days after it: the 180th on 27 Dec 2025. (The reading that credits
    the two together, the 180th after it on 29 Jun 2026, is recorded in the kb, not encoded.)"""
    prog = [{"for": "Schiffsfuehrer", "from": "2024-01-01", "to": "2025-06-30"}]
    log = [inland("2025-01-01", "2026-12-31", role="Matrose")]
    fields = {"service": log, "programmes": prog, "professional_experience_years": 5}

    def z4(on: date) -> bool:
        p = person(law, on, **fields)
        w = next(w for w in cert(check(law, [p], on)[0], "UBZ-Schiffsfuehrer")["pathways"]
                 if w["provision"] == "§ 15 Z 4 SchBV")
        return w["satisfied"]

    day_before = person(law, date(2025, 12, 26), **fields).programmes[0]
    assert (day_before.sailing_days, day_before.sailing_days_after) == (180, 179)
    assert not z4(date(2025, 12, 26))
    assert z4(date(2025, 12, 27))


def test_the_cap_cited_is_the_one_of_the_regulation_in_force(law):
    """Before 17 Jan 2022 an answer applies the SchBesV 2004: days the cap leaves out are left out under its § 3 Abs. 6
    (the SchBV, whose § 6 Abs. 4 sets the same figures, was not in force yet); from 17 Jan 2022 under § 6 Abs. 4 SchBV."""
    log = [inland("2021-01-01", "2022-06-30", role="Matrose")]
    old = date(2022, 1, 16)
    r = requirement(check(law, [person(law, old, service=log)], old)[0], "SchBesV2004-Bootsmann", "§ 4 Abs. 2 Z 5",
                    "Fahrzeit")
    # 381 days recorded to 16 Jan 2022: 180 credited in 2021 (to 29 Jun), 16 from 1 Jan 2022; 185 left out
    assert (r["have"], r["capped"], r["cap_provision"]) == (196, 185, "§ 3 Abs. 6 SchBesV")
    new = date(2022, 1, 17)
    answer = check(law, [person(law, new, service=log)], new)[0]
    assert answer["regulation"] == "SchBV 2022"
    capped = [x for c in answer["certificates"] for w in c["pathways"] for x in w["requirements"] if x.get("capped")]
    assert capped and {x["cap_provision"] for x in capped} == {"§ 6 Abs. 4 SchBV"}


@pytest.mark.parametrize("start, have, met", [("2021-09-07", 500, True), ("2021-09-06", 499, False)],
                         ids=["§ 15 Z 4 lit. a SchBV: the 500th sea day credited the day before enrolling counts",
                              "§ 15 Z 4 lit. a SchBV: credited on the first day of the programme it does not"])
def test_sea_time_before_enrolling_counts_only_the_days_before_the_programme(law, start, have, met):
    """'vor der Einschreibung in ein … Ausbildungsprogramm für Schiffsführer … 500 Tagen als Mitglied einer
    Decksmannschaft auf einem Seeschiff': with a dated log and a dated programme only the sea days before its first
    day count. From 1 Jan 2020 at sea without a break, the 500th day is credited on 6 Sep 2021 (250 in 365)."""
    on = date(2026, 12, 31)
    sea = [{"from": "2020-01-01", "to": "2021-12-31", "waters": "sea", "capacity": "deck_crew"}]
    prog = [{"for": "Schiffsfuehrer", "from": start, "to": "2023-06-30"}]
    r = requirement(check(law, [person(law, on, service=sea, programmes=prog)], on)[0], "UBZ-Schiffsfuehrer",
                    "§ 15 Z 4 lit. a", "SeaTime")
    assert (r["have"], r["before_programme"], r["before"]) == (have, "Schiffsfuehrer", start)
    assert r["met"] is met
    # sea time given as totals cannot be dated: it is taken as stated
    totals = person(law, on, sea_days={"deck_crew": 499}, programmes=[{"for": "Schiffsfuehrer", "months": 18}])
    assert requirement(check(law, [totals], on)[0], "UBZ-Schiffsfuehrer", "§ 15 Z 4 lit. a", "SeaTime")["have"] == 499


@pytest.mark.parametrize("months, have, short", [(23, 0, 300), (24, 300, None)],
                         ids=["§ 12 Z 1 SchBV: days in a 23-month programme are named, not hidden behind 0",
                              "in a 24-month programme they count"])
def test_days_in_a_programme_too_short_are_named(law, months, have, short):
    on = date(2026, 6, 1)
    p = person(law, on, programmes=[{"for": "Matrose", "months": months, "sailing_days": 300}])
    r = requirement(check(law, [p], on)[0], "UBZ-Matrose", "§ 12 Z 1 lit. c", "ProgrammeFahrzeit")
    assert (r["have"], r.get("in_short_programme")) == (have, short)


def test_days_in_a_programme_still_running_say_until_when_it_runs(law):
    """A dated programme of 18 months still running on the evaluation date has 15 completed months: its days are named
    with its last day, as days that count once it has its length (§ 15 Z 4 lit. b, c SchBV)."""
    on = date(2026, 11, 30)
    p = person(law, on, programmes=[{"for": "Schiffsfuehrer", "from": "2025-09-01", "to": "2027-02-28"}],
               service=[inland("2026-03-01", "2026-08-31", role="Matrose")], professional_experience_years=6)
    r = requirement(check(law, [p], on)[0], "UBZ-Schiffsfuehrer", "§ 15 Z 4 lit. c", "ProgrammeFahrzeit")
    assert (r["have"], r["in_short_programme"], r["programme_runs_until"]) == (0, 180, "2027-02-28")


@pytest.mark.parametrize(("passed", "later"), [("2026-11-30", None), ("2026-12-01", "2026-12-01")])
def test_an_exam_passed_after_the_evaluation_date_is_named_with_its_date(law, passed, later):
    """§ 12 Z 2 lit. b SchBV asks for the Anlage 8 exam: passed on the evaluation date it counts; passed the day after,
    it is missing, and the answer says it was passed after that date rather than that there is none."""
    from crewkg.rules.kinds import missing_sentence

    on = date(2026, 11, 30)
    p = person(law, on, sailing_days={"Decksmann": 400}, exams=[{"id": "Anlage8", "passed": passed}])
    r = requirement(check(law, [p], on, "en")[0], "UBZ-Matrose", "§ 12 Z 2 lit. b", "Exam")
    assert r["met"] is (later is None) and r.get("passed_later") == ({"Anlage8": later} if later else None)
    if later:
        assert missing_sentence(law, r, "en") == ("exam missing: exam Annex 8 (passed on 2026-12-01, after the "
                                                  "evaluation date) (§ 12 Z 2 lit. b SchBV)")
        assert "(am 2026-12-01 bestanden, nach dem Stichtag)" in missing_sentence(law, r, "de")


@pytest.mark.parametrize(("examined", "later"), [("2026-11-30", None), ("2026-12-01", "2026-12-01")])
def test_a_medical_examination_after_the_evaluation_date_is_named_with_its_date(law, examined, later):
    """§ 10 Z 3 SchBV asks for medical fitness: a proof examined the day after the evaluation date is not yet there,
    and the answer says when it was examined."""
    from crewkg.rules.kinds import missing_sentence

    on = date(2026, 11, 30)
    p = person(law, on, medical_fitness={"examined": examined})
    r = requirement(check(law, [p], on, "en")[0], "UBZ-Decksmann", "§ 10 Z 3", "Document")
    assert r["met"] is (later is None) and r.get("examined_later") == later
    if later:
        assert missing_sentence(law, r, "en") == ("missing: medical fitness (examined on 2026-12-01, after the "
                                                  "evaluation date) (§ 10 Z 3 SchBV)")
        assert "(Untersuchung am 2026-12-01, nach dem Stichtag)" in missing_sentence(law, r, "de")


@pytest.mark.parametrize(("end", "sentence"), [
    ("2025-05-29", "90 more days of sailing time within the programme for boatman (89 days recorded in the programme "
                   "running until 2026-12-31; they count once it is completed)"),
    ("2025-05-30", "90 days recorded in the programme for boatman running until 2026-12-31, enough for the 90 days "
                   "needed; they count once it is completed")])
def test_days_served_in_a_running_programme_are_said_enough_once_they_are(law, end, sentence):
    """§ 12 Z 1 lit. c SchBV asks 90 days within the programme: 89 days in a running programme are named beside the 90
    it lacks (none counts before it is completed); 90 are enough, and what is missing then is the programme's
    completion, not days."""
    from crewkg.rules.kinds import missing_sentence

    on = date(2026, 11, 30)
    p = person(law, on, programmes=[{"for": "Matrose", "from": "2025-01-01", "to": "2026-12-31"}],
               service=[inland("2025-03-02", end)])
    r = requirement(check(law, [p], on, "en")[0], "UBZ-Matrose", "§ 12 Z 1 lit. c", "ProgrammeFahrzeit")
    assert r["met"] is False and r["have"] == 0
    assert missing_sentence(law, r, "en") == sentence + " (§ 12 Z 1 lit. c SchBV)"


@pytest.mark.parametrize(("more", "since"), [
    ({}, "2023-06-01"),                                       # the 18th birthday, after the dated examination
    ({"medical_fitness": {"examined": "2023-07-01"}}, "2023-07-01"),  # the examination, after the birthday
    ({"sailing_days": {"Decksmann": 10}}, None),              # a total of days: when they were served is unknown
    ({"medical_fitness": True}, None),                        # nothing dated
])
def test_a_record_dated_without_a_service_log_has_its_eligible_since(more, since):
    """`eligible_since` was computed only for a record with a service log; one whose evidence is dated otherwise (the
    medical examination, exams passed, certificates issued, dated programmes) got null though its dates fix the day.
    A total of days stays undated: the days could have come later than every date the record gives."""
    from crewkg.law.statute import load_law

    law = load_law()
    record = {"id": "d", "birth_date": "2005-06-01", "basic_safety_training": True,
              "medical_fitness": {"examined": "2023-01-10"}} | more
    on = date(2024, 5, 31)
    (a,) = check(law, [person_from_mapping(record, law, on, "test")], on)
    (c,) = [c for c in a["certificates"] if c["id"] == "UBZ-Decksmann"]
    assert c["eligible"] is True and c["eligible_since"] == since
