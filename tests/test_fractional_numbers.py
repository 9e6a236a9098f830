"""Fractional numbers of a record (years of professional experience, of vocational training) reach the law as they
are written: the program compares them exactly with the minimum (pyDatalog would round them to about 8 significant
digits, so that 4.999999999 years met a minimum of 5), the answer's `have` is the record's number, and a text says
what is missing as people write it (0.01, in German 0,01), not the remainder of a binary subtraction."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.answers.register import answer_register
from crewkg.records.persons import person_from_mapping
from crewkg.records.register import Entry
from crewkg.rules.kinds import missing_sentence

ON = date(2026, 11, 30)
#: § 12 Z 3 SchBV: lit. a (five years of professional experience, or 500 days at sea, or three years of vocational
#: training), lit. b (a 9-month programme), lit. c (90 days within it)
MATROSE_Z3 = {"birth_date": "2000-01-01", "medical_fitness": True, "vocational_training_years": 2.99,
              "programmes": [{"for": "Matrose", "months": 9, "sailing_days": 90}]}


def z3(law, years: float, lang: str = "en") -> dict[str, Any]:
    person = person_from_mapping({"id": "p", **MATROSE_Z3, "professional_experience_years": years}, law, ON, "test")
    a = check(law, [person], ON, lang=lang)[0]
    c = next(c for c in a["certificates"] if c["id"] == "UBZ-Matrose")
    return next(w for w in c["pathways"] if w["provision"] == "§ 12 Z 3 SchBV")


@pytest.mark.parametrize(("years", "met"), [(4.999999999, False), (4.99, False), (5, True), (5.000000001, True)])
def test_five_years_of_experience_are_compared_exactly(law, years, met):
    assert z3(law, years)["satisfied"] is met


def test_the_register_line_agrees_on_a_fraction_below_the_minimum(law):
    person = person_from_mapping({"id": "p", **MATROSE_Z3, "professional_experience_years": 4.999999999}, law, ON, "t")
    line = next(answer_register(law, [Entry(label="p", where="line 1", person=person)], ON))
    assert "UBZ-Matrose" not in line["eligible"]


@pytest.mark.parametrize(("lang", "said"), [("en", "0.01 more years"), ("de", "noch 0,01 Jahre")])
def test_the_years_missing_are_written_as_people_write_them(law, lang, said):
    w = z3(law, 4.99, lang)
    (lit_a,) = [r for r in w["requirements"] if r["provision"] == "§ 12 Z 3 lit. a SchBV"]
    (experience,) = [alt for alt in lit_a["alternatives"] if alt["kind"] == "ProfessionalExperience"]
    assert experience["have"] == 4.99
    text = missing_sentence(law, lit_a, lang)
    assert said in text, text
    assert {"en": "(has 2.99 years)", "de": "(vorhanden: 2,99 Jahre)"}[lang] in text  # with its unit
    assert "0.0099" not in text and "0,0099" not in text
