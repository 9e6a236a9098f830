"""The law's edges (issue 43) beyond what the YAML casebook states: the shape of the new answer parts (the overlap
warning, the other reading's verdict, the roster that cannot be confirmed), their wording in both languages, the
register's grouping of logs whose inland and sea days overlap, and one way of saying that a provision's wording is
not in the bundled texts. The legal outcomes at their thresholds are the casebook's (tests/cases/fahrzeit_ein_tag.yaml,
fristen.yaml, schbesv2004_18_bestaetigung.yaml, schbv2022_47_tauglichkeit.yaml)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli import app
from crewkg.records.persons import person_from_mapping

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def answer(law, record: dict[str, Any], on: str, lang: str = "de") -> dict[str, Any]:
    day = date.fromisoformat(on)
    return check(law, [person_from_mapping({"id": "p", **record}, law, day, "test")], day, lang)[0]


OVERLAP = {"birth_date": "1980-01-01", "medical_fitness": True, "certificates": ["SchBesV2004-Decksmann"],
           "service": [{"from": "2022-02-01", "to": "2022-07-30", "role": "Decksmann", "vessel": "MS Wachau"},
                       {"from": "2022-07-01", "to": "2023-06-30", "waters": "sea", "capacity": "deck_crew"}]}


# --- one calendar day, one Fahrtag (§ 2 Z 3 SchBV) ------------------------------------------------------------------
def test_the_overlap_warning_names_both_entries_and_the_days(law):
    a = answer(law, OVERLAP, "2023-07-01", "en")
    (w,) = a["warnings"]
    assert w["kind"] == "overlap" and (w["from"], w["to"], w["days"]) == ("2022-07-01", "2022-07-30", 30)
    assert w["entries"] == [
        {"entry": 1, "waters": "inland", "from": "2022-02-01", "to": "2022-07-30", "role": "Decksmann", "vessel": "MS Wachau"},
        {"entry": 2, "waters": "sea", "from": "2022-07-01", "to": "2023-06-30", "capacity": "AsDeckCrew"}]
    assert w["provision"] == "§ 2 Z 3 SchBV"
    assert "entry 1" in w["text"] and "entry 2" in w["text"] and "30 days" in w["text"] and "typing error" in w["text"]
    de = answer(law, OVERLAP, "2023-07-01", "de")["warnings"][0]["text"]
    assert "Eintrag 1" in de and "Eintrag 2" in de and "30 Tage" in de and "Tippfehler" in de


@pytest.mark.parametrize("service", [
    [{"from": "2022-02-01", "to": "2022-07-30", "role": "Decksmann"},
     {"from": "2022-07-31", "to": "2023-06-30", "waters": "sea", "capacity": "deck_crew"}],
    [{"from": "2022-02-01", "to": "2022-07-30", "role": "Decksmann"},
     {"from": "2022-07-01", "to": "2022-12-31", "role": "Matrose"}],
], ids=["inland, then sea from the next day", "two inland entries (a day in two roles is no typing error)"])
def test_no_warning_without_an_inland_and_a_sea_entry_on_one_day(law, service):
    a = answer(law, {"birth_date": "1980-01-01", "service": service}, "2023-07-01")
    assert "warnings" not in a


def test_the_check_text_says_the_warning(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(json.dumps({"id": "p", **OVERLAP}))
    r = runner.invoke(app, ["check", str(f), "--as-of", "2023-07-01", "--lang", "en"])
    assert r.exit_code == 0, r.output
    assert "Warning: entry 1" in " ".join(r.output.split())


def test_a_total_with_sea_days_counts_each_day_once_and_says_its_parts(law):
    """§ 47 Abs. 4 Z 1: 180 inland days of which 30 inside the sea entry: 180 + 365 sea days - 30 = 515 days logged."""
    a = answer(law, OVERLAP, "2023-07-01", "en")
    c = next(c for c in a["certificates"] if c["id"] == "UBZ-Matrose")
    w = next(w for w in c["pathways"] if w["provision"] == "§ 47 Abs. 4 Z 1 SchBV")
    total = next(r for r in w["requirements"] if r["id"] == "Req-SchBV2022-P47-Abs4-Z1-total")
    assert total["recorded"] == 515 and total["have"] <= 515 and total["with_sea"] == "AsDeckCrew"


def test_the_register_groups_logs_of_both_waters_as_it_answers_each_alone(law):
    """The credited days together (with_sea_credited) and the sea days 'zusätzlich' (sea_apart) reach the program
    through the comparisons the kinds abstract: persons one day either side of 430 and 540 get their own answers."""
    from crewkg.answers.register import answer_register
    from crewkg.records.register import Entry

    day = date(2023, 6, 1)
    records = []
    for i, start in enumerate(("2022-07-29", "2022-07-30", "2022-07-31", "2022-08-01")):
        records.append({"id": f"z{i}", "birth_date": "1990-01-01", "medical_fitness": True, "exams": ["Anlage8"],
                        "service": [{"from": "2022-02-01", "to": "2022-07-30", "role": "Decksmann"},
                                    {"from": start, "to": "2023-04-07", "waters": "sea", "capacity": "deck_crew"}]})
    for i, first in enumerate(("2020-08-27", "2020-08-28")):
        records.append({"id": f"l{i}", "birth_date": "1980-01-01", "medical_fitness": True,
                        "certificates": ["SchBesV2004-Decksmann"],
                        "service": [{"from": "2020-03-01", "to": "2020-08-27", "role": "Decksmann"},
                                    {"from": first, "to": "2021-05-04", "waters": "sea", "capacity": "deck_crew"},
                                    {"from": "2022-01-01", "to": "2022-04-20", "waters": "sea", "capacity": "deck_crew"}]})
    persons = [person_from_mapping(r, law, day, "t") for r in records]
    alone = [check(law, [p], day)[0] for p in persons]
    grouped = list(answer_register(law, [Entry(p.id, "t", person=p) for p in persons], day))
    for one, line in zip(alone, grouped, strict=True):
        assert line["eligible"] == {x["id"]: [w["provision"] for w in x["pathways"] if w["satisfied"]]
                                    for x in one["certificates"] if x.get("eligible")}, one["person"]
    eligible = {line["person"]: "UBZ-Matrose" in line["eligible"] for line in grouped}
    assert eligible == {"z0": False, "z1": False, "z2": True, "z3": True, "l0": False, "l1": True}


# --- § 18 Abs. 2 SchBesV: the confirmation stands for the first report only --------------------------------------------
def test_the_confirmation_says_from_when_the_renewal_is_due(law):
    record = {"birth_date": "1949-03-10", "exams": [{"id": "Bestaetigung-Beschaeftigung-Besatzungsmitglied",
                                                     "passed": "2004-06-01"}]}
    from crewkg.rules.kinds import missing_sentence

    for lang, words in (("de", "bis einschließlich 2014-06-10"), ("en", "up to and including 2014-06-10")):
        c = next(c for c in answer(law, record, "2014-06-11", lang)["certificates"] if c["id"] == "SchBesV2004-Decksmann")
        fitness = c["pathways"][0]["requirements"][-1]["alternatives"][1]
        assert fitness["renewal_overdue"] is True and fitness["stands_in_until"] == "2014-06-10"
        assert fitness["renewal_provision"] == "§ 5 Abs. 3 SchBesV"
        assert words in missing_sentence(law, fitness, lang) and "§ 5 Abs. 3 SchBesV" in missing_sentence(law, fitness, lang)


# --- readings as data ----------------------------------------------------------------------------------------------------
def test_the_validity_readings_are_data_and_stay_out_of_the_manning_tables_and_the_eligibility_readings(law):
    from crewkg.law.readings import extended_to, reading_of, validity_readings
    from crewkg.manning.compile import load_manning

    found = validity_readings()
    assert {"Reading-Tauglichkeit-nach-Vollendung", "Reading-SchBV2022-P47-Tauglichkeit",
            "Reading-Fristende-ABGB902"} <= set(found)
    for rd in found.values():  # each states both readings in both languages
        assert set(rd.applied) == set(rd.other) == {"de", "en"} and rd.of
    assert reading_of("SchBV2022-MedicalSchedule-60").id == "Reading-Tauglichkeit-nach-Vollendung"
    assert reading_of("SchBV2022-CertificateValidity").id == "Reading-Fristende-ABGB902"
    kept = extended_to("SchBV2022-MedicalSchedule")
    assert kept["Kapitaenspatent-A"] == "Reading-SchBV2022-P47-Tauglichkeit" and "SchBesV2004-Maschinist" not in kept
    assert not set(found) & set(load_manning(law).readings)
    from crewkg.law.readings import eligibility_readings

    assert not set(found) & set(eligibility_readings(law))  # one family each: a reading is answered once


def test_the_other_reading_of_a_validity_is_said_on_its_anniversary_only(law):
    record = {"birth_date": "2000-01-01", "certificates": [{"id": "UBZ-Matrose", "issued": "2022-05-01"}]}
    (x,) = answer(law, record, "2035-05-01", "en")["other_readings"]
    assert (x["certificate"], x["counts"], x["valid_until"], x["provision"]) == ("UBZ-Matrose", False, "2035-04-30",
                                                                                  "§ 22 Abs. 2 SchBV")
    assert "2035-04-30" in x["text"] and "other reading" in x["text"]
    assert "other_readings" not in answer(law, record, "2035-04-30")
    assert "other_readings" not in answer(law, record, "2035-05-02")


# --- the roster that cannot be confirmed -----------------------------------------------------------------------------
ROSTER = {"crew": [{"id": "kapitaen-alt", "birth_date": "1950-01-01", "medical_fitness": {"examined": "2014-06-01"},
                    "certificates": ["Kapitaenspatent-A"], "functions": ["FirstAid", "FahrgastErsthelfer"]}]}
VESSEL = ROOT / "kb" / "examples" / "vessels" / "03-mb-plaetten-small-lake-boat.yaml"


@pytest.mark.parametrize("lang, words", [("de", "kann nicht bestätigt werden"), ("en", "cannot be confirmed")])
def test_a_roster_complete_only_under_the_other_reading_is_not_confirmed(tmp_path, lang, words):
    roster = tmp_path / "r.yaml"
    roster.write_text(json.dumps(ROSTER))
    r = runner.invoke(app, ["crew", str(VESSEL), "--roster", str(roster), "--as-of", "2022-01-17", "--format", "json",
                            "--lang", lang])
    assert r.exit_code == 1, r.output  # not confirmed to fill the minimum crew
    verdict = json.loads(r.stdout)["roster"]
    assert verdict["satisfied"] is None and words in verdict["reason"] and "kapitaen-alt" in verdict["reason"]
    assert verdict["unconfirmed"] == [{"person": "kapitaen-alt", "certificate": "Kapitaenspatent-A",
                                       "reading": "Reading-SchBV2022-P47-Tauglichkeit", "provision": "§ 22 Abs. 1 SchBV",
                                       "since": "2015-04-02"}]
    text = runner.invoke(app, ["crew", str(VESSEL), "--roster", str(roster), "--as-of", "2022-01-17", "--lang", lang])
    assert text.exit_code == 1 and words in " ".join(text.output.split())


# --- sources, said honestly -------------------------------------------------------------------------------------------
SAID = {"de": ", sinngemäß wiedergegeben: sein Wortlaut ist nicht in den von crewkg mitgelieferten Texten enthalten",
        "en": ", paraphrased: its wording is not in the texts crewkg bundles"}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("record, on, cert, provision", [
    ({"birth_date": "1980-01-01", "certificates": ["SchBesV2004-Decksmann"], "medical_fitness": True,
      "sailing_days": {"Decksmann": 100}, "sea_days": {"deck_crew": 100}}, "2026-11-30", "UBZ-Matrose",
     "§ 47 Abs. 4 Z 1 SchBV"),
    ({"birth_date": "1990-01-01", "exams": [{"id": "Unterweisung-Fahrgastbetreuer-Theorie", "passed": "2019-01-01",
                                             "hours": 4}]}, "2026-11-30", "SchBV2022-Fahrgastbetreuer", "§ 29 Abs. 1 Z 1 SchBV"),
    ({"birth_date": "2010-01-01"}, "2026-11-30", "Decksmann-AT", "§ 28 Abs. 1 SchBV"),
    ({"birth_date": "1980-01-01", "medical_fitness": True, "certificates": ["SchBesV2004-Matrose"]}, "2032-01-18",
     "UBZ-Matrose", "§ 47 Abs. 2 SchBV"),
], ids=["§ 47 Abs. 4 Z 1", "§ 29 Abs. 1", "§ 28 Abs. 1", "§ 47 Abs. 2"])
def test_every_sentence_resting_on_a_paraphrase_says_so_the_same_way(law, lang, record, on, cert, provision):
    from crewkg.rules.kinds import missing_sentence

    a = answer(law, record, on, lang)
    c = next(c for c in a["certificates"] if c["id"] == cert)
    found = [m for w in c["pathways"] for m in w["missing"] if m["provision"] == provision]
    assert found, [m["provision"] for w in c["pathways"] for m in w["missing"]]
    for m in found:
        assert m["paraphrased"] is True
        assert missing_sentence(law, m, lang).endswith(f"({provision}{SAID[lang]})")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_lapse_under_a_paraphrased_provision_says_so_in_the_text_and_the_json(tmp_path, lang):
    f = tmp_path / "p.yaml"
    f.write_text("id: p\nbirth_date: 1950-01-01\nmedical_fitness: {examined: 2014-06-01}\ncertificates: [Kapitaenspatent-A]\n")
    r = runner.invoke(app, ["check", str(f), "--as-of", "2022-01-17", "--format", "json", "--lang", lang])
    (x,) = json.loads(r.stdout)["lapsed"]
    assert x["paraphrased"] is True and x["provision"] == "§ 22 Abs. 1 SchBV"
    text = " ".join(runner.invoke(app, ["check", str(f), "--as-of", "2022-01-17", "--lang", lang]).output.split())
    assert f"(§ 22 Abs. 1 SchBV{SAID[lang]})" in text
    # the bundled § 5 Abs. 3 SchBesV is cited plainly
    old = json.loads(runner.invoke(app, ["check", str(f), "--as-of", "2022-01-16", "--format", "json"]).stdout)["lapsed"][0]
    assert "paraphrased" not in old and old["provision"] == "§ 5 Abs. 3 SchBesV"


def test_the_provisions_the_kb_paraphrases_are_the_ones_outside_the_bundled_texts(law):
    said = sorted({p.citation for p in law.provisions.values() if p.paraphrased})
    assert said == sorted(["§ 6 Abs. 4 SchBV", "§ 22 Abs. 1 SchBV", "§ 22 Abs. 2 SchBV", "§ 22 Abs. 3 SchBV",
                           "§ 28 Abs. 1 SchBV", "§ 28 Abs. 2 SchBV", "§ 28 Abs. 2 Z 1 SchBV", "§ 28 Abs. 2 Z 2 SchBV",
                           "§ 28 Abs. 3 SchBV", "§ 29 Abs. 1 SchBV", "§ 29 Abs. 1 Z 1 SchBV", "§ 29 Abs. 1 Z 2 SchBV",
                           "§ 29 Abs. 2 SchBV", "§ 29 Abs. 3 SchBV", "§ 29 Abs. 4 SchBV", "§ 47 Abs. 2 SchBV",
                           "§ 47 Abs. 4 Z 1 SchBV", "§ 47 Abs. 4 Z 2 SchBV", "§ 47 Abs. 4 Z 3 SchBV"])
    # § 1 and § 2 Z 1, 2, 6 SchBV: their bundled text is quoted, not paraphrased
    for pid in ("SchBV2022-P1", "SchBV2022-P2-Z1", "SchBV2022-P2-Z2", "SchBV2022-P2-Z6"):
        assert not law.provisions[pid].paraphrased and law.provisions[pid].wording


def test_what_is_made_from_the_law_is_kept_on_it_once_and_bounded_where_asked():
    """`Law.remembered` makes a value at the first asking and keeps it on that law only (a law made anew, as another
    kb or a reading makes one, starts afresh); `remembered_for` keeps one per key and, with a bound, forgets them
    together once that many are kept."""
    import dataclasses

    from crewkg.law.statute import load_law

    law = dataclasses.replace(load_law())
    made: list[str] = []
    assert law.remembered("_t_value", lambda: made.append("v") or ["v"]) == ["v"]
    assert law.remembered("_t_value", lambda: made.append("again") or ["again"]) == ["v"] and made == ["v"]
    assert dataclasses.replace(law).remembered("_t_value", lambda: ["other"]) == ["other"]
    for key in (1, 2, 1):
        law.remembered_for("_t_keyed", key, lambda k=key: made.append(f"k{k}") or k, bound=2)
    assert made == ["v", "k1", "k2"]
    law.remembered_for("_t_keyed", 3, lambda: made.append("k3") or 3, bound=2)  # two kept: forgotten, then 3
    law.remembered_for("_t_keyed", 1, lambda: made.append("k1 again") or 1, bound=2)
    assert made == ["v", "k1", "k2", "k3", "k1 again"]
