"""The regulation in force on a date has one home, `Law.regulation_on`: the eligibility program (its `under` fact)
and the minimum-crew program (its `in_force` fact) both ask it. On the days the law changes — 31 Dec 2004 / 1 Jan 2005
(the SchBesV 2004 comes into force) and 16 / 17 Jan 2022 (the SchBV 2022 replaces it) — a person's check and a
vessel's minimum crew name the same regulation, and the manning program no longer works it out for itself."""

from __future__ import annotations

from datetime import date

import pytest

from crewkg.answers.eligibility import check
from crewkg.manning.crew import crew_answer
from crewkg.manning.program import FACT_PREDICATES, RULES, derive
from crewkg.manning.vessels import vessel_from_mapping
from crewkg.records.persons import person_from_mapping
from crewkg.rules.eligibility import person_facts

PERSON = {"id": "eva", "birth_date": "1980-01-01", "medical_fitness": True, "exams": ["Anlage8"],
          "sailing_days": {"Decksmann": 362}}
VESSEL = {"id": "wachau", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 40.0, "breadth_m": 8.0,
          "passengers": 100, "standard": "S1", "engine_kw": 300}

#: (day, the regulation that governs it): the last day before the encoded law and its first, the last day of the
#: SchBesV 2004 and the first of the SchBV 2022
BOUNDARIES = [
    (date(2004, 12, 31), None),
    (date(2005, 1, 1), "SchBesV2004"),
    (date(2022, 1, 16), "SchBesV2004"),
    (date(2022, 1, 17), "SchBV2022"),
]


@pytest.mark.parametrize(("day", "expected"), BOUNDARIES, ids=[d.isoformat() for d, _ in BOUNDARIES])
def test_both_programs_agree_on_the_regulation_in_force(law, manning, day, expected):
    reg = law.regulation_on(day)
    assert (reg.id if reg else None) == expected
    name = reg.name if reg else None

    person = person_from_mapping(PERSON, law, day, "test")
    facts = person_facts(person, law, day)
    assert (("under", "eva", expected) if expected else ("no_regulation", "eva")) in facts
    eligibility = check(law, [person], day)[0]
    assert eligibility["regulation"] == name
    assert {law.certificates[c["id"]].regulation for c in eligibility["certificates"]} <= {expected}

    ml = manning
    vessel = vessel_from_mapping(VESSEL, ml, "test")
    derived = derive(ml, law, [vessel], day)[vessel.id]
    assert derived.in_force == ({expected} if expected else set())
    assert ("no_regulation" in derived.uncovered) is (expected is None)
    crew = crew_answer(law, ml, vessel, day)
    assert crew["regulation"] == name == eligibility["regulation"]


def test_the_manning_program_reads_the_regulation_in_force_as_a_fact():
    """No rule of the manning program derives in_force from regulation windows: it is given, as `under` is."""
    assert FACT_PREDICATES["in_force"] == 1 and "reg_window" not in FACT_PREDICATES
    assert not any(line.startswith("in_force(") for line in RULES.splitlines())
