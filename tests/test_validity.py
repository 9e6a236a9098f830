"""Validity of what a person holds, at every threshold of the kb's readings:

- § 22 Abs. 2, 3 SchBV: a UBZ for the deck crew is valid at most 13 years from its issue, a UBZ for experts at most
  five; the issue date is the first day, the last day is the day before the anniversary (29 February: 28 February);
- § 22 Abs. 1 SchBV: from the 60th birthday a proof of medical fitness counts five years after the examination, from
  the 70th two years (up to and including the same day; 29 February: 28 February); an overdue proof removes the roles
  of the UBZ held and does not prove medical fitness for a certificate either;
- § 5 Abs. 3 SchBesV 2004 (before 17 Jan 2022): renewed after the 65th birthday and after every birthday after it,
  each time at the latest within three months.

The answers (JSON in both languages, the text of `check`, the roster verdict, the timeline) say what lapsed, since
when and under which provision."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirement
from crewkg.manning.rosters import check_roster
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping
from crewkg.records.persons import person_from_mapping

runner = CliRunner()
DECK = ["Decksmann", "Leichtmatrose", "Matrose"]


def answer(law, record: dict[str, Any], on: str, lang: str = "de") -> dict[str, Any]:
    day = date.fromisoformat(on)
    person = person_from_mapping({"id": "p", **record}, law, day, "test")
    return check(law, [person], day, lang)[0]


def matrose(issued: str, **more: Any) -> dict[str, Any]:
    return {"birth_date": "2000-01-01", "certificates": [{"id": "UBZ-Matrose", "issued": issued}], **more}


# --- § 22 Abs. 2, 3 SchBV: the validity period from the issue date, ending with the anniversary (§ 902 Abs. 2 ABGB,
# kb:Reading-Fristende-ABGB902) ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("cert, issued, last", [
    ("UBZ-Matrose", "2022-05-01", "2035-05-01"),
    ("UBZ-Schiffsfuehrer", "2024-02-29", "2037-02-28"),
    ("UBZ-SachkundigerFahrgastschifffahrt", "2022-05-01", "2027-05-01"),
    ("UBZ-SachkundigerLNG", "2024-02-29", "2029-02-28"),
], ids=["§ 22 Abs. 2: 13 years, the anniversary", "§ 22 Abs. 2: issued on 29 Feb, 28 Feb",
        "§ 22 Abs. 3: five years", "§ 22 Abs. 3: issued on 29 Feb, 28 Feb five years later"])
def test_a_certificate_counts_up_to_its_last_day_and_not_the_day_after(law, cert, issued, last):
    role = law.certificates[cert].role
    record = {"birth_date": "1980-01-01", "medical_fitness": True, "certificates": [{"id": cert, "issued": issued}]}
    on_last = answer(law, record, last)
    assert role in on_last["roles"] and "lapsed" not in on_last
    after = date.fromordinal(date.fromisoformat(last).toordinal() + 1).isoformat()
    a = answer(law, record, after)
    assert role not in a["roles"]
    (x,) = a["lapsed"]
    abs_ = "2" if law.certificates[cert].role not in ("SachkundigerFahrgastschifffahrt", "SachkundigerLNG") else "3"
    assert x | {"text": None} == {"certificate": cert, "reason": "validity_period", "provision": f"§ 22 Abs. {abs_} SchBV",
                                  "since": after, "valid_until": last, "issued": issued, "role": role,
                                  "years": 13 if abs_ == "2" else 5, "text": None, "paraphrased": True}
    assert last in x["text"] and after in x["text"] and issued in x["text"]


def test_the_expiry_is_said_in_both_languages(law):
    de = answer(law, matrose("2022-05-01"), "2035-05-02", "de")["lapsed"][0]["text"]
    en = answer(law, matrose("2022-05-01"), "2035-05-02", "en")["lapsed"][0]["text"]
    assert de == ("UBZ Matrose gilt höchstens 13 Jahre ab der Ausstellung am 2022-05-01: gültig bis einschließlich "
                  "2035-05-01, abgelaufen seit 2035-05-02")
    assert en == ("UBZ boatman is valid for at most 13 years from its issue on 2022-05-01: valid up to and including "
                  "2035-05-01, expired since 2035-05-02")


def test_an_expired_certificate_no_longer_meets_a_pathway_that_asks_it(law):
    """§ 15 Z 2 lit. b SchBV asks a UBZ Steuermann held: the expired one does not count."""
    record = {"birth_date": "2000-01-01", "certificates": [{"id": "UBZ-Steuermann", "issued": "2022-05-01"}]}

    def lit_b(on: str) -> bool:
        c = next(c for c in answer(law, record, on)["certificates"] if c["id"] == "UBZ-Schiffsfuehrer")
        w = next(w for w in c["pathways"] if w["provision"] == "§ 15 Z 2 SchBV")
        return next(r for r in w["requirements"] if r["provision"] == "§ 15 Z 2 lit. b SchBV")["met"]

    assert lit_b("2035-05-01") is True
    assert lit_b("2035-05-02") is False


def test_a_certificate_without_issue_date_has_no_period_to_count(law):
    a = answer(law, {"birth_date": "2000-01-01", "certificates": ["UBZ-Matrose"]}, "2055-01-01")
    assert a["roles"] == DECK and "lapsed" not in a


# --- § 22 Abs. 1 SchBV: the medical schedule ------------------------------------------------------------------------
@pytest.mark.parametrize("birth, examined, on, fills, since", [
    # the day before the 60th birthday no proof is due; on it a proof older than five years no longer counts
    ("1966-06-15", "2020-01-10", "2026-06-14", True, None),
    ("1966-06-15", "2020-01-10", "2026-06-15", False, "2026-06-15"),
    # after 60: a proof exactly five years old counts, one day older not
    ("1960-01-10", "2022-03-01", "2027-03-01", True, None),
    ("1960-01-10", "2022-03-01", "2027-03-02", False, "2027-03-02"),
    # the day before the 70th birthday the five-year rhythm still applies; on it the proof must be at most two years old
    ("1956-08-20", "2024-05-01", "2026-08-19", True, None),
    ("1956-08-20", "2024-05-01", "2026-08-20", False, "2026-08-20"),
    # after 70: a proof exactly two years old counts, one day older not
    ("1950-01-10", "2024-09-01", "2026-09-01", True, None),
    ("1950-01-10", "2024-09-01", "2026-09-02", False, "2026-09-02"),
    # examined on 29 February: two years later it counts up to and including 28 February
    ("1950-01-10", "2024-02-29", "2026-02-28", True, None),
    ("1950-01-10", "2024-02-29", "2026-03-01", False, "2026-03-01"),
    # born on 29 February: the 70th birthday in a common year is 1 March (§ 902 ABGB, as for every age)
    ("1956-02-29", "2023-05-01", "2026-02-28", True, None),
    ("1956-02-29", "2023-05-01", "2026-03-01", False, "2026-03-01"),
], ids=["day before the 60th birthday", "60th birthday", "after 60: exactly five years", "after 60: one day older",
        "day before the 70th birthday", "70th birthday", "after 70: exactly two years", "after 70: one day older",
        "examined 29 Feb: 28 Feb two years later", "examined 29 Feb: 1 Mar two years later",
        "born 29 Feb: 28 Feb of the 70th year", "born 29 Feb: 1 Mar is the 70th birthday"])
def test_the_medical_schedule_of_22_abs_1(law, birth, examined, on, fills, since):
    record = {"birth_date": birth, "medical_fitness": {"examined": examined},
              "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]}
    a = answer(law, record, on)
    assert (a["roles"] == DECK) is fills
    if fills:
        assert "lapsed" not in a
        return
    assert a["roles"] == []
    (x,) = a["lapsed"]
    assert (x["reason"], x["provision"], x["since"], x["examined"]) == ("medical_overdue", "§ 22 Abs. 1 SchBV", since, examined)
    assert x["not_older_than_months"] == (24 if x["from_age"] == 70 else 60)
    assert since in x["text"] and examined in x["text"]


def test_a_holder_without_any_medical_proof_is_overdue_from_the_60th_birthday(law):
    record = {"birth_date": "1966-06-15", "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]}
    assert answer(law, record, "2026-06-14")["roles"] == DECK
    a = answer(law, record, "2026-06-15", "en")
    (x,) = a["lapsed"]
    assert a["roles"] == [] and x["since"] == "2026-06-15" and x["examined"] is None
    assert x["text"] == ("UBZ boatman gives no role while the proof of medical fitness is overdue, since 2026-06-15: "
                         "from age 60 a proof not older than 5 years is needed (no examination recorded)")


def test_the_schedule_concerns_the_deck_crew_not_the_experts(law):
    """§ 22 Abs. 1 names the deck crew; the UBZ for passenger navigation experts keeps its role (Abs. 3 only)."""
    record = {"birth_date": "1950-01-10", "certificates": [{"id": "UBZ-SachkundigerFahrgastschifffahrt", "issued": "2025-01-01"}]}
    a = answer(law, record, "2026-11-30")
    assert a["roles"] == ["SachkundigerFahrgastschifffahrt"] and "lapsed" not in a


def test_an_overdue_proof_does_not_prove_medical_fitness_for_a_certificate(law):
    """The Document requirement reads the same schedule: § 10 Z 3 SchBV at 72 with a proof 25 months old."""
    base = {"birth_date": "1954-01-10", "sailing_days": {"Decksmann": 180}}

    def medical(a):
        c = next(c for c in a["certificates"] if c["id"] == "UBZ-Decksmann")
        reqs = [r for w in c["pathways"] for r in w["requirements"] if r.get("document") == "MedicalFitness"]
        return c["eligible"], reqs[0]

    ok, req = medical(answer(law, base | {"medical_fitness": {"examined": "2024-11-30"}}, "2026-11-30"))
    assert ok and req["met"] and req["valid_until"] == "2026-11-30"
    ok, req = medical(answer(law, base | {"medical_fitness": {"examined": "2024-10-29"}}, "2026-11-30", "en"))
    assert not ok and not req["met"] and req["overdue_since"] == "2026-10-30"
    from crewkg.rules.kinds import missing_sentence

    assert missing_sentence(load_law(), req, "en") == (
        "missing: medical fitness: the proof examined on 2024-10-29 is overdue since 2026-10-30; from age "
        "70 a proof not older than 2 years is needed (§ 22 Abs. 1 SchBV, paraphrased: its wording is not in the texts "
        "crewkg bundles) (§ 10 Z 3 SchBV)")


def test_a_proof_held_without_dates_is_taken_as_stated(law):
    a = answer(law, {"birth_date": "1950-01-10", "medical_fitness": True,
                     "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]}, "2026-11-30")
    assert a["roles"] == DECK and "lapsed" not in a


# --- § 5 Abs. 3 SchBesV 2004 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("examined, on, fills, since", [
    # the first renewal is due within three months of the 65th birthday (10 Mar 2015): 10 Jun 2015 is the last day
    ("2013-01-15", "2015-06-10", True, None),
    ("2013-01-15", "2015-06-11", False, "2015-06-11"),
    # 'und danach jährlich … jeweils spätestens innerhalb von drei Monaten': a renewal counts a year and three months
    # from its examination (kb:Reading-Tauglichkeit-nach-Vollendung: the rhythm counts from the last proof)
    ("2015-05-01", "2016-08-01", True, None),
    ("2015-05-01", "2016-08-02", False, "2016-08-02"),
    # a report of 65 made a month before the 66th birthday counts its fifteen months too
    ("2016-02-01", "2017-05-01", True, None),
    ("2016-02-01", "2017-05-02", False, "2017-05-02"),
    # one made on the 66th birthday: fifteen months to the day
    ("2016-03-10", "2017-06-10", True, None),
    ("2016-03-10", "2017-06-11", False, "2017-06-11"),
    # before the 65th birthday no renewal is due
    ("2005-01-15", "2015-03-09", True, None),
], ids=["65th birthday + 3 months: last day", "65th birthday + 3 months + 1 day",
        "a renewal of 65: fifteen months, last day", "fifteen months + 1 day",
        "a report of 65 made a month before the 66th birthday: fifteen months", "and not a day longer",
        "a report of the 66th birthday: fifteen months", "fifteen months + 1 day", "day before the 65th birthday"])
def test_the_schbesv_2004_schedule_of_5_abs_3(law, examined, on, fills, since):
    record = {"birth_date": "1950-03-10", "medical_fitness": {"examined": examined},
              "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2005-06-01"}]}
    a = answer(law, record, on)
    assert a["regulation"] == "SchBesV 2004"
    assert ("Matrose" in a["roles"]) is fills
    if not fills:
        (x,) = a["lapsed"]
        assert (x["reason"], x["provision"], x["since"], x["from_age"], x["not_older_than_months"]) == (
            "medical_overdue", "§ 5 Abs. 3 SchBesV", since, 65, 15)


@pytest.mark.parametrize("on, fills, since", [
    ("2015-03-10", True, None),  # the 65th birthday: the renewal is due within three months, nothing is missed yet
    ("2015-06-10", True, None),
    ("2015-06-11", False, "2015-06-11"),
], ids=["65th birthday", "65th birthday + 3 months: last day", "65th birthday + 3 months + 1 day"])
@pytest.mark.parametrize("medical", [None, {"valid_until": "2014-12-31"}], ids=["no report", "a report that has ended"])
def test_5_abs_3_without_any_report_recorded_is_overdue_when_the_renewal_is(law, on, fills, since, medical):
    """'spätestens innerhalb von drei Monaten zu erneuern': a record without a report, or with one that ended before
    the 65th birthday, misses the renewal on the same day as one with an old report, not on the birthday."""
    record = {"birth_date": "1950-03-10", "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2005-06-01"}]}
    if medical:
        record["medical_fitness"] = medical
    a = answer(law, record, on)
    assert ("Matrose" in a["roles"]) is fills
    if not fills:
        (x,) = a["lapsed"]
        assert (x["reason"], x["provision"], x["since"], x["examined"]) == (
            "medical_overdue", "§ 5 Abs. 3 SchBesV", since, None)


def test_22_abs_1_schbv_without_any_report_has_no_grace(law):
    """The SchBV schedule has no months of grace: from the 60th birthday a record without a report proves nothing."""
    record = {"birth_date": "1964-06-15", "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]}
    assert answer(law, record, "2024-06-14")["roles"] == DECK
    a = answer(law, record, "2024-06-15")
    assert a["roles"] == []
    (x,) = a["lapsed"]
    assert (x["reason"], x["provision"], x["since"]) == ("medical_overdue", "§ 22 Abs. 1 SchBV", "2024-06-15")


# --- the faces: text, roster, timeline ---------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, head", [("de", "Zählt nicht"), ("en", "Does not count")])  # the summary says it first
def test_check_text_says_what_lapsed(tmp_path, lang, head):
    rec = tmp_path / "p.yaml"
    rec.write_text("id: p\nbirth_date: 2000-01-01\ncertificates: [{id: UBZ-Matrose, issued: 2022-05-01}]\n",
                   encoding="utf-8")
    r = runner.invoke(app, ["check", str(rec), "--as-of", "2035-05-02", "--lang", lang])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())  # the console wraps long lines
    line = text[text.index(head):]
    # § 22 Abs. 2 is the kb's paraphrase: the citation says so (rules.kinds.cited)
    assert "2035-05-01" in line and "2035-05-02" in line and "(§ 22 Abs. 2 SchBV, " in line


def test_the_roster_says_whose_certificate_lapsed(law):
    ml = load_manning(law)
    vessel = vessel_from_mapping({"id": "v", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 62.5,
                                  "breadth_m": 11.4, "passengers": 300, "passengers_on_board": 250, "standard": "S1",
                                  "engine_kw": 800}, ml, "test")
    crew = roster_from_mapping({"crew": [
        {"id": "kapitaen", "birth_date": "1975-04-02", "certificates": ["UBZ-Schiffsfuehrer"], "functions": ["FirstAid"]},
        {"id": "matrose", "birth_date": "1990-01-01", "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]},
        {"id": "eva", "birth_date": "1985-07-12", "functions": ["FirstAid"],
         "certificates": [{"id": "UBZ-SachkundigerFahrgastschifffahrt", "issued": "2022-05-01"}]},
        {"id": "sophie", "birth_date": "1999-01-01", "functions": ["FahrgastErsthelfer"]},
    ]}, law, date(2027, 5, 1), "test")

    def verdict(on: str) -> dict[str, Any]:
        day = date.fromisoformat(on)
        return check_roster(law, ml, requirement(law, ml, vessel, day), crew, "en")

    before = verdict("2027-05-01")
    assert "lapsed" not in before and "SachkundigerFahrgastschifffahrt" in before["assignment"]["eva"]
    after = verdict("2027-05-02")
    assert after["satisfied"] is False
    assert [x["provision"] for x in after["lapsed"]["eva"]] == ["§ 22 Abs. 3 SchBV"]
    assert after["lapsed"]["eva"][0]["since"] == "2027-05-02"
    assert any(m["role"] == "SachkundigerFahrgastschifffahrt" for m in after["missing"])


def test_the_timeline_gives_the_last_days(tmp_path):
    rec = tmp_path / "p.yaml"
    rec.write_text("id: p\nbirth_date: 1958-09-14\nmedical_fitness: {examined: 2024-10-01}\n"
                   "certificates: [{id: UBZ-Schiffsfuehrer, issued: 2022-03-01}]\n", encoding="utf-8")
    r = runner.invoke(app, ["timeline", str(rec), "--as-of", "2026-11-30", "--format", "json", "--lang", "en"])
    assert r.exit_code == 0, r.output
    t = json.loads(r.stdout)
    assert t["held"][0]["valid_until"] == "2035-03-01"  # § 22 Abs. 2: the anniversary (§ 902 Abs. 2 ABGB)
    # § 22 Abs. 1: the 2024 proof counts five years, but from the 70th birthday (14 Sep 2028) only two
    assert t["medical"]["valid_until"] == "2028-09-13"
    assert t["medical"]["schedule"]["provision"] == "§ 22 Abs. 1 SchBV"


def test_the_example_of_a_boatmaster_at_70(law):
    """kb/examples/persons/32-…: the proof of 15 Apr 2024 counts on 3 May 2026 and is overdue from 4 May 2026."""
    from pathlib import Path

    from crewkg.records.load import load_persons

    path = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons" / "32-helga-boatmaster-at-70.yaml"
    before = check(law, load_persons(path, law, date(2026, 5, 3)), date(2026, 5, 3))[0]
    assert before["roles"][-1] == "Schiffsfuehrer" and "lapsed" not in before
    a = check(law, load_persons(path, law, date(2026, 11, 30)), date(2026, 11, 30), "en")[0]
    (x,) = a["lapsed"]
    assert (x["certificate"], x["since"], x["from_age"], x["provision"]) == ("UBZ-Schiffsfuehrer", "2026-05-04", 70,
                                                                             "§ 22 Abs. 1 SchBV")


def test_the_schbesv_2004_medical_requirement_reads_the_same_schedule(law):
    """§ 4 Abs. 2 Z 1 with § 5 Abs. 1, 3 SchBesV: a report of 65 proves fitness fifteen months from its examination
    ('danach jährlich … jeweils spätestens innerhalb von drei Monaten'), not a day longer."""
    record = {"birth_date": "1950-03-10", "medical_fitness": {"examined": "2015-05-01"}}

    def z1(on: str, lang: str = "de") -> dict[str, Any]:
        c = next(c for c in answer(law, record, on, lang)["certificates"] if c["id"] == "SchBesV2004-Decksmann")
        fitness = c["pathways"][0]["requirements"][-1]  # the report, or employment before 2005 (§ 18 Abs. 2)
        return fitness["alternatives"][0] | {"eligible": c["eligible"]}

    assert z1("2016-08-01")["eligible"] is True
    req = z1("2016-08-02", "de")
    assert req["eligible"] is False and req["overdue_since"] == "2016-08-02"
    from crewkg.rules.kinds import missing_sentence

    said = missing_sentence(law, req, "de")
    assert "2015-05-01" in said and "2016-08-02" in said and "15 Monate" in said
    assert "§ 5 Abs. 3 SchBesV" in said


def test_a_legacy_qualification_ends_with_the_day_the_kb_gives_it(law):
    """§ 47 Abs. 2 SchBV: the Matrose qualification of 2006 counts up to and including 17 Jan 2032."""
    record = {"birth_date": "1985-01-01", "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2006-04-03"}]}
    assert "lapsed" not in answer(law, record, "2032-01-17")
    a = answer(law, record, "2032-01-18", "en")
    (x,) = a["lapsed"]
    assert (x["reason"], x["provision"], x["since"], x["valid_until"]) == ("end_of_validity", "§ 47 Abs. 2 SchBV",
                                                                           "2032-01-18", "2032-01-17")
    assert x["text"] == ("qualification as boatman (SchBesV 2004) counts up to and including 2032-01-17: no longer valid "
                         "since 2032-01-18")


def test_a_certificate_s_own_ends_are_read_in_one_place_for_the_lapse_and_the_timeline(law):
    """`rules.validity.own_ends`: the fixed last day (§ 47 Abs. 2 SchBV), shown only once the provision setting it is
    law, and the end of a validity period from the issue date (none without one); `counts` decides by them."""
    from crewkg.rules.validity import End, counts, own_ends

    fixed = End(date(2032, 1, 17), "SchBV2022-P47-Abs2", "end_of_validity")
    assert own_ends(law, "SchBesV2004-Matrose", date(2006, 4, 3)) == [fixed]
    assert own_ends(law, "SchBesV2004-Matrose", None, known_on=date(2026, 11, 30)) == [fixed]
    assert own_ends(law, "SchBesV2004-Matrose", None, known_on=date(2015, 6, 1)) == []
    period = own_ends(law, "UBZ-Schiffsfuehrer", date(2024, 2, 29))
    assert [(e.last_day, e.reason, e.years) for e in period] == [(date(2037, 2, 28), "validity_period", 13)]
    assert own_ends(law, "UBZ-Schiffsfuehrer", None) == []
    holder = person_from_mapping({"id": "p", "birth_date": "1980-01-01", "medical_fitness": True,
                                  "certificates": [{"id": "UBZ-Schiffsfuehrer", "issued": "2024-02-29"}]},
                                 law, date(2037, 3, 1), "test")
    assert counts(holder, law, "UBZ-Schiffsfuehrer", date(2037, 2, 28))
    assert not counts(holder, law, "UBZ-Schiffsfuehrer", date(2037, 3, 1))


def test_a_certificate_issued_after_the_evaluation_date_is_not_held_and_the_answer_says_so(tmp_path):
    from typer.testing import CliRunner

    from crewkg.cli import app

    f = tmp_path / "p.yaml"
    f.write_text("id: x\nbirth_date: 1990-01-01\nmedical_fitness: true\ncertificates: [{id: UBZ-Matrose, issued: 2026-12-01}]\n")
    runner = CliRunner()
    before = runner.invoke(app, ["check", str(f), "--as-of", "2026-11-30", "--format", "json", "--lang", "en"])
    on = runner.invoke(app, ["check", str(f), "--as-of", "2026-12-01", "--format", "json", "--lang", "en"])
    import json

    a, b = json.loads(before.stdout), json.loads(on.stdout)
    assert "Matrose" not in a["roles"] and "Matrose" in b["roles"]
    assert [x["certificate"] for x in a["not_yet_issued"]] == ["UBZ-Matrose"] and "not_yet_issued" not in b
    assert "2026-12-01" in a["not_yet_issued"][0]["text"]
    text = runner.invoke(app, ["check", str(f), "--as-of", "2026-11-30"]).stdout
    assert "Noch nicht ausgestellt: UBZ Matrose wird am 2026-12-01 ausgestellt" in text


# --- § 47 Abs. 2 SchBV: only what was entered before the SchBV took effect keeps its validity ---------------------------
@pytest.mark.parametrize("issued, roles", [("2022-01-16", ["Decksmann", "Leichtmatrose", "Matrose"]), ("2022-01-17", [])],
                         ids=["§ 47 Abs. 2 SchBV: a SchBesV 2004 Matrose entered on 16 Jan 2022 keeps its role",
                              "one dated 17 Jan 2022, after the SchBesV 2004 ended, gives none"])
def test_a_legacy_qualification_dated_after_its_regulation_gives_no_role(law, issued, roles):
    a = answer(law, {"birth_date": "1980-03-10", "medical_fitness": True,
                     "certificates": [{"id": "SchBesV2004-Matrose", "issued": issued}]}, "2024-01-01")
    assert a["roles"] == roles
    assert [x["reason"] for x in a.get("lapsed", [])] == ([] if roles else ["issued_after_regulation"])


@pytest.mark.parametrize("issued, as_of, roles", [
    ("2022-01-17", "2024-01-01", ["Decksmann", "Leichtmatrose", "Matrose"]),
    ("2022-01-16", "2024-01-01", []),
    ("2019-03-01", "2020-01-01", []),
], ids=["a UBZ Matrose dated on the day the SchBV took effect fills its roles",
        "one dated the day before is no UBZ (the SchBV issues them from 17 Jan 2022) and gives none",
        "nor under the SchBesV 2004, which knows no UBZ"])
def test_a_union_certificate_dated_before_the_schbv_gives_no_role(law, issued, as_of, roles):
    a = answer(law, {"birth_date": "1980-03-10", "medical_fitness": True,
                     "certificates": [{"id": "UBZ-Matrose", "issued": issued}]}, as_of)
    assert a["roles"] == roles
    lapsed = a.get("lapsed", [])
    assert [x["reason"] for x in lapsed] == ([] if roles else ["issued_before_regulation"])
    if not roles:
        assert lapsed[0]["regulation_from"] == "2022-01-17" and "2022-01-17" in lapsed[0]["text"]


@pytest.mark.parametrize("passed, roles", [("2022-01-16", ["Fahrgastbetreuer"]), ("2022-01-17", [])],
                         ids=["§ 47 Abs. 2 SchBV: an instruction of 16 Jan 2022 is a written proof of the SchBesV 2004",
                              "one of 17 Jan 2022 is none"])
def test_a_legacy_written_proof_counts_only_when_dated_before_the_schbv(law, passed, roles):
    a = answer(law, {"birth_date": "1990-03-10", "exams": [{"id": "Unterweisung-Fahrgastbetreuer", "passed": passed}]},
               "2022-06-01")
    assert a["roles"] == roles


@pytest.mark.parametrize("on, roles", [
    ("2022-06-01", ["Atemschutzgeraetetraeger", "Fahrgastbetreuer"]), ("2022-06-02", ["Fahrgastbetreuer"]),
    ("2026-06-01", ["Fahrgastbetreuer"]), ("2026-06-02", []),
], ids=["§ 4 Abs. 2 Z 11 SchBesV: the yearly exercise's year, its anniversary included",
        "a year and a day: no Atemschutzgeräteträger",
        "§ 4 Abs. 2 Z 9 SchBesV: 'nicht länger als fünf Jahre zurückliegt' on the fifth anniversary",
        "five years and a day: no Fahrgastbetreuer"])
def test_a_legacy_passenger_safety_qualification_counts_for_its_proof_s_term(law, on, roles):
    """Held with its issue date, the qualification counts as its proof of that date does: up to and including the
    anniversary (crew:countsOnAnniversary), the day a dated instruction of the same date stops counting too."""
    a = answer(law, {"birth_date": "1990-03-10", "certificates": [
        {"id": "SchBesV2004-Fahrgastbetreuer", "issued": "2021-06-01"},
        {"id": "SchBesV2004-Atemschutzgeraetetraeger", "issued": "2021-06-01"}]}, on)
    assert a["roles"] == roles


@pytest.mark.parametrize("examined, on, roles", [
    ("2014-12-01", "2015-06-10", True), ("2014-12-01", "2015-06-11", False),
    ("2015-03-10", "2016-06-10", True), ("2015-03-10", "2016-06-11", False),
], ids=["§ 5 Abs. 3 SchBesV: a report of 64 counts up to three months after the 65th birthday",
        "the day after, it is no renewal 'nach Vollendung des 65. Lebensjahres'",
        "a report of the 65th birthday counts fifteen months", "and not a day longer"])
def test_the_renewal_after_65_is_one_examined_after_the_birthday(law, examined, on, roles):
    a = answer(law, {"birth_date": "1950-03-10", "medical_fitness": {"examined": examined},
                     "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2006-01-01"}]}, on)
    assert bool(a["roles"]) is roles


@pytest.mark.parametrize("patent, on, roles", [
    ("Kapitaenspatent-B", "2015-06-10", True), ("Kapitaenspatent-B", "2015-06-11", False),
    ("Kapitaenspatent-A", "2015-06-11", False),
], ids=["§ 5 Abs. 1, 3 SchBesV name § 4 Abs. 2 Z 1 to 8: a Kapitänspatent (Z 7) holder's report of 64 counts up to "
        "three months after the 65th birthday", "the day after, the patent gives no role, not even a lower one",
        "nor does a Kapitänspatent A"])
def test_a_master_renews_the_report_after_65_too(law, patent, on, roles):
    a = answer(law, {"birth_date": "1950-03-10", "medical_fitness": {"examined": "2014-12-01"},
                     "certificates": [{"id": patent, "issued": "2001-04-03"}]}, on)
    assert bool(a["roles"]) is roles
    assert [(x["reason"], x["provision"]) for x in a.get("lapsed", [])] == \
        ([] if roles else [("medical_overdue", "§ 5 Abs. 3 SchBesV")])


@pytest.mark.parametrize("examined, on, age, renewal", [
    ("2014-12-01", "2015-06-11", 65, ("2015-03-10", "2015-06-10")),
], ids=["§ 5 Abs. 3 SchBesV: a report of 64 lapses for want of a renewal after the birthday, said as such"])
def test_the_answer_says_why_the_report_after_65_is_overdue(law, examined, on, age, renewal):
    from crewkg.rules.kinds import kind

    a = answer(law, {"birth_date": "1950-03-10", "medical_fitness": {"examined": examined},
                     "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2006-01-01"}]}, on)
    (x,) = a["lapsed"]
    fitness = next(r for c in a["certificates"] if c["id"] == "SchBesV2004-Decksmann" for w in c["pathways"]
                   for q in w["requirements"] for r in [q, *q.get("alternatives", [])]
                   if r["kind"] == "Document" and r["document"] == "MedicalFitness")
    said = kind("Document").missing(load_law(), fitness, "de")
    assert (x["birthday"], x["renew_by"]) == (fitness["birthday"], fitness["renew_by"]) == renewal
    assert x["renewal_age"] == fitness["renewal_age"] == age
    words = f"nach Vollendung des {age}. Lebensjahres am {renewal[0]} war er bis {renewal[1]} zu erneuern"
    assert words in said and words in x["text"]
    assert "15 Monate" not in said + x["text"]


# --- a dated proof there but not counting: said with its date, not as missing --------------------------------------
def _proof_sentences(law, a: dict[str, Any], lang: str) -> list[str]:
    from crewkg.rules.kinds import missing_sentence

    return [missing_sentence(law, m, lang) for c in a["certificates"] if c["id"] == "SchBV2022-Fahrgastbetreuer"
            for w in c["pathways"] for m in w["missing"]]


@pytest.mark.parametrize(("on", "said"), [
    ("2030-03-01", None),
    ("2030-03-02", "theoretical passenger attendant instruction (§ 29 Abs. 1 Z 1 SchBV): taken on 2025-03-01, counted up "
                   "to and including 2030-03-01 (at most 60 months old)"),
    ("2025-02-28", "theoretical passenger attendant instruction (§ 29 Abs. 1 Z 1 SchBV): dated 2025-03-01, after the "
                   "evaluation date"),
], ids=["§ 29 Abs. 1 SchBV: the instruction counts 60 months to the same day",
        "the day after, the answer gives the proof's date and its last day, not 'missing or older'",
        "before it was taken, the answer says it is dated after the evaluation date"])
def test_a_dated_proof_that_does_not_count_is_named_with_its_date(law, on, said):
    rec = {"birth_date": "1990-09-01", "exams": [{"id": "Unterweisung-Fahrgastbetreuer-Theorie", "passed": "2025-03-01", "hours": 4},
                                                 {"id": "Unterweisung-Fahrgastbetreuer-Praxis", "passed": "2025-03-01", "hours": 4}]}
    a = answer(law, rec, on, "en")
    sentences = _proof_sentences(law, a, "en")
    if said is None:
        assert "SchBV2022-Fahrgastbetreuer" in {c["id"] for c in a["certificates"] if c["eligible"]}, sentences
    else:
        assert any(said in s for s in sentences), sentences


@pytest.mark.parametrize(("on", "born", "lapsed", "said"), [
    ("2022-01-16", "1950-06-10", ["Kapitaenspatent-B", "SchBesV2004-Matrose", "SchBesV2004-Maschinist"], []),
    ("2022-01-17", "1950-06-10", ["Kapitaenspatent-B", "SchBesV2004-Matrose"], ["SchBesV2004-Maschinist"]),
    ("2022-01-17", "1980-06-10", [], []),
], ids=["under the SchBesV 2004 the overdue report ends the roles (§ 5 Abs. 3): a lapse, nothing unchecked",
        "from 17 Jan 2022 § 22 Abs. 1 SchBV governs the kept deck qualifications too (a reading): a lapse; the "
        "Maschinist, no member of the deck crew, is said as not checked",
        "below the schedule's first age nothing is said"])
def test_a_qualification_kept_valid_by_paragraph_47_follows_the_schedule_in_force(law, on, born, lapsed, said):
    a = answer(law, {"birth_date": born, "medical_fitness": {"examined": "2020-01-01"},
                     "certificates": [{"id": "Kapitaenspatent-B", "issued": "2000-01-01"},
                                      {"id": "SchBesV2004-Matrose", "issued": "2006-01-01"},
                                      {"id": "SchBesV2004-Maschinist", "issued": "2006-01-01"}]}, on, "en")
    assert [x["certificate"] for x in a.get("lapsed", [])] == lapsed
    assert [x["certificate"] for x in a.get("medical_not_checked", [])] == said
    if on == "2022-01-17" and lapsed:  # the reading that extends § 22 Abs. 1 to them, and the other one's verdict
        assert {x["reading"] for x in a["lapsed"]} == {"Reading-SchBV2022-P47-Tauglichkeit"}
        assert all(x["other_reading"]["counts"] and x["other_reading"]["valid_until"] == "2032-01-17" for x in a["lapsed"])
        assert "Schiffsfuehrer" not in a["roles"] and "Maschinist" in a["roles"]
    if said:
        assert all(x["provision"] == "§ 22 Abs. 1 SchBV" and "not check" in x["text"] for x in a["medical_not_checked"])


def test_a_renewal_an_earlier_schedule_asked_is_cited_with_that_schedule_in_a_lapse(law):
    """Born 1950-06-10, examined 2014-06-01: the renewal after the 65th birthday was due by 2015-09-10 under § 5
    Abs. 3 SchBesV 2004; a UBZ issued in 2022 lapses under § 22 Abs. 1 SchBV, and the sentence names both laws."""
    a = answer(law, {"birth_date": "1950-06-10", "medical_fitness": {"examined": "2014-06-01"},
                     "certificates": [{"id": "UBZ-Matrose", "issued": "2022-03-01"}]}, "2026-11-30", "en")
    (x,) = a["lapsed"]
    assert (x["provision"], x["renewal_schedule"], x["renew_by"]) == ("§ 22 Abs. 1 SchBV", "§ 5 Abs. 3 SchBesV", "2015-09-10")
    assert "renewed by 2015-09-10 under § 5 Abs. 3 SchBesV" in x["text"]


@pytest.mark.parametrize("on", ["2012-06-01", "2012-06-02"])
def test_a_held_fahrgastbetreuer_and_its_dated_instruction_end_on_the_same_day(law, on):
    held = answer(law, {"birth_date": "1985-01-01",
                        "certificates": [{"id": "SchBesV2004-Fahrgastbetreuer", "issued": "2007-06-01"}]}, on)
    proof = answer(law, {"birth_date": "1985-01-01",
                         "exams": [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2007-06-01", "hours": 8}]}, on)
    assert ("Fahrgastbetreuer" in held["roles"]) is ("Fahrgastbetreuer" in proof["roles"]) is (on == "2012-06-01")


def test_a_held_qualification_of_29_february_ends_with_its_proof_on_28_february(law):
    """Issued on 29 Feb 2016, the qualification rests on a proof of that day, which counts up to 28 Feb 2021 (five
    years counted in months, as a dated proof); on 1 Mar 2021 neither counts."""
    for on, counts in (("2021-02-28", True), ("2021-03-01", False)):
        held = answer(law, {"birth_date": "1985-01-01",
                            "certificates": [{"id": "SchBesV2004-Fahrgastbetreuer", "issued": "2016-02-29"}]}, on)
        proof = answer(law, {"birth_date": "1985-01-01",
                             "exams": [{"id": "Unterweisung-Fahrgastbetreuer", "passed": "2016-02-29", "hours": 8}]}, on)
        assert ("Fahrgastbetreuer" in held["roles"]) is ("Fahrgastbetreuer" in proof["roles"]) is counts, on


@pytest.mark.parametrize(("on", "roles"), [
    ("2015-06-01", []), ("2022-01-16", []),
    ("2022-01-17", ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann"]),
])
def test_a_third_country_certificate_counts_only_under_the_regulation_that_recognises_it(on, roles):
    """§ 15 Z 2 lit. b SchBV recognises a third-country certificate (§ 117 Abs. 4 SchFG); the SchBesV 2004 knows no
    such recognition (its § 8 names foreign proofs for the Maschinist and Matrose-Motorwart only). A certificate the
    third country issued in 2012 gave the Steuermann role on a 2015 roster; now only from 17 Jan 2022, whenever issued."""
    from crewkg.answers.eligibility import check
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping

    law = load_law()
    day = date.fromisoformat(on)
    record = {"id": "tc", "birth_date": "1980-01-01", "medical_fitness": True,
              "certificates": [{"id": "ThirdCountry-Steuermann", "issued": "2012-01-01"}]}
    (a,) = check(law, [person_from_mapping(record, law, day, "test")], day)
    assert a["roles"] == roles
    assert [x["reason"] for x in a.get("lapsed", [])] == ([] if roles else ["outside_regulation"])
