"""The service keeps eligibility answers by record, date and language: a record asked again is answered from the
cache with the same answer; a record that differs in anything, another date or language is evaluated anew."""

import dataclasses
from datetime import date

import pytest

import crewkg.answers.eligibility as eligibility
from crewkg.law.statute import load_law
from crewkg.records.persons import person_from_mapping
from crewkg.service.evaluator import Evaluator

DAY = date(2026, 11, 30)
RECORD = {"id": "anna", "birth_date": "2000-05-01", "medical_fitness": True, "exams": ["Anlage8"],
          "sailing_days": {"Decksmann": 359}}


@pytest.fixture()
def runs(monkeypatch):
    counted: list[int] = []
    real = eligibility.check

    def counting(law, persons, as_of, lang):
        counted.append(len(persons))
        return real(law, persons, as_of, lang)

    monkeypatch.setattr(eligibility, "check", counting)
    return counted


def _person(law, **changes):
    return person_from_mapping(RECORD | changes, law, DAY, "request")


def test_a_record_asked_again_is_answered_from_the_cache(runs):
    law = load_law()
    ev = Evaluator(law)
    first = ev.check(_person(law), DAY, "en")
    again = ev.check(_person(law), DAY, "en")
    assert again == first and len(runs) == 1
    again["certificates"].clear()  # a caller's change does not reach the cache
    assert ev.check(_person(law), DAY, "en") == first and len(runs) == 1


def test_anything_that_changes_the_answer_is_evaluated_anew(runs):
    law = load_law()
    ev = Evaluator(law)
    at_359 = ev.check(_person(law), DAY, "en")
    at_360 = ev.check(_person(law, sailing_days={"Decksmann": 360}), DAY, "en")
    assert len(runs) == 2
    matrose = [next(c for c in a["certificates"] if c["id"] == "UBZ-Matrose") for a in (at_359, at_360)]
    assert [m["eligible"] for m in matrose] == [False, True]  # § 12 Z 2 SchBV: 360 days of Fahrzeit, not 359
    ev.check(_person(law), date(2026, 12, 1), "en")
    ev.check(_person(law), DAY, "de")
    assert len(runs) == 4


def test_the_cache_is_bounded_by_bytes(runs):
    law = load_law()
    ev = Evaluator(law, cache_bytes=0)
    ev.check(_person(law), DAY, "en")
    ev.check(_person(law), DAY, "en")
    assert len(runs) == 2
    small = Evaluator(law, cache_bytes=len(ev.check_json(_person(law), DAY, "en")) * 3 // 2)
    small.check(_person(law), DAY, "en")
    small.check(_person(law, birth_date="2000-05-02"), DAY, "en")  # pushes the first one out
    small.check(_person(law), DAY, "en")
    assert len(runs) == 3 + 3
    assert dataclasses.is_dataclass(_person(law))
