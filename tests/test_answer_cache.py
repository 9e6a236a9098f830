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


def test_the_sparql_answer_cache_drops_the_least_recently_used_and_keeps_no_large_answer():
    from crewkg.service.querying import AnswerCache

    def key(n: int) -> tuple:
        return (0, f"q{n:02d}", "", (), ())

    answer = (b"x" * 97, "text/csv")  # 97 bytes + the query's 3: 100 bytes a cached answer
    cache = AnswerCache(2400)  # an answer may take up to 300 bytes (an eighth); 24 answers of 100 fit
    for n in range(24):
        cache.put(key(n), answer)
    assert all(cache.get(key(n)) == answer for n in range(24))
    cache.get(key(0))  # asked again: the most recently used now
    cache.put(key(24), answer)  # pushes out the least recently used, q1
    assert cache.get(key(1)) is None and cache.get(key(0)) == answer and cache.get(key(24)) == answer
    cache.put(key(99), (b"y" * 298, "text/csv"))  # 301 bytes: over an eighth of the bound, not kept
    assert cache.get(key(99)) is None and cache.get(key(2)) == answer
    cache.put(key(98), (b"y" * 297, "text/csv"))  # 300 bytes: kept, and three answers of 100 make room
    assert cache.get(key(98)) is not None and sum(cache.get(key(n)) is not None for n in range(25)) == 21
    off = AnswerCache(0)  # 0: no cache
    off.put(key(0), answer)
    assert off.get(key(0)) is None
