"""Casebook for SchBV 2022 §§ 10–15 (Unionsbefähigungszeugnisse), written in the style of OpenFisca tests.

Every case names the provision it reads and says, in one sentence, what the case shows. The law's wording is
quoted in kb/schbv2022/02_unionsbefaehigungszeugnisse.ttl; each Ziffer is a pathway (alternatives) and each
litera a requirement (all must be met).

The cases start from one minimal applicant per pathway (`MINIMAL`) and move one fact across the threshold of one
litera, so that each failing case misses by the smallest possible margin.

List values in the answer (exams, accepted certificates) are compared without regard to order.
"""

from __future__ import annotations

import copy
from datetime import date, timedelta
from functools import cache
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.law.statute import Law, load_law
from crewkg.records.persons import Person, person_from_mapping

AS_OF = date(2026, 11, 30)
DAY = timedelta(days=1)
DROP = object()  # in `variant`: remove the key from the record

# An applicant born on 15 June 2004 completes the 18th year on 15 June 2022; one born on 15 June 2007 the 15th.
BORN_18 = "2004-06-15"
BORN_15 = "2007-06-15"
BIRTHDAY = date(2022, 6, 15)
EVE_OF_BIRTHDAY = BIRTHDAY - DAY

UBZ = {
    "§ 10 SchBV": "UBZ-Decksmann",
    "§ 11 SchBV": "UBZ-Leichtmatrose",
    "§ 12 Z 1 SchBV": "UBZ-Matrose",
    "§ 12 Z 2 SchBV": "UBZ-Matrose",
    "§ 12 Z 3 SchBV": "UBZ-Matrose",
    "§ 13 Z 1 SchBV": "UBZ-Bootsmann",
    "§ 13 Z 2 SchBV": "UBZ-Bootsmann",
    "§ 14 Z 1 SchBV": "UBZ-Steuermann",
    "§ 14 Z 2 SchBV": "UBZ-Steuermann",
    "§ 14 Z 3 SchBV": "UBZ-Steuermann",
    "§ 15 Z 1 SchBV": "UBZ-Schiffsfuehrer",
    "§ 15 Z 2 SchBV": "UBZ-Schiffsfuehrer",
    "§ 15 Z 3 SchBV": "UBZ-Schiffsfuehrer",
    "§ 15 Z 4 SchBV": "UBZ-Schiffsfuehrer",
}

# The minimal applicant for each pathway: exactly what the Ziffer asks for, nothing more.
MINIMAL: dict[str, dict[str, Any]] = {
    "§ 10 SchBV": {"birth_date": "2000-01-01", "basic_safety_training": True, "medical_fitness": True},
    "§ 11 SchBV": {"birth_date": "2010-01-01", "apprenticeship": {"contract": True}, "medical_fitness": True},
    "§ 12 Z 1 SchBV": {
        "birth_date": "2000-01-01",
        "programmes": [{"for": "Matrose", "months": 24, "sailing_days": 90}],
        "medical_fitness": True,
    },
    "§ 12 Z 2 SchBV": {
        "birth_date": "2000-01-01",
        "exams": ["Anlage8"],
        "sailing_days": {"Decksmann": 360},
        "medical_fitness": True,
    },
    "§ 12 Z 3 SchBV": {
        "professional_experience_years": 5,
        "programmes": [{"for": "Matrose", "months": 9, "sailing_days": 90}],
        "medical_fitness": True,
    },
    "§ 13 Z 1 SchBV": {"sailing_days": {"Matrose": 180}},
    "§ 13 Z 2 SchBV": {
        "programmes": [{"for": "Bootsmann", "months": 36, "sailing_days": 270}],
        "medical_fitness": True,
    },
    "§ 14 Z 1 SchBV": {"sailing_days": {"Bootsmann": 180}, "radio_certificate": True},
    "§ 14 Z 2 SchBV": {
        "programmes": [{"for": "Steuermann", "months": 36, "sailing_days": 360}],
        "radio_certificate": True,
        "medical_fitness": True,
    },
    "§ 14 Z 3 SchBV": {
        "sea_days": {"master": 500},
        "exams": ["Anlage8"],
        "radio_certificate": True,
        "medical_fitness": True,
    },
    "§ 15 Z 1 SchBV": {
        "birth_date": "2000-01-01",
        "programmes": [{"for": "Schiffsfuehrer", "months": 36, "sailing_days": 360}],
        "radio_certificate": True,
        "medical_fitness": True,
    },
    "§ 15 Z 2 SchBV": {
        "birth_date": "2000-01-01",
        "certificates": ["UBZ-Steuermann"],
        "sailing_days": {"Steuermann": 180},
        "exams": ["Anlage9", "Anlage10"],
        "radio_certificate": True,
        "medical_fitness": True,
    },
    "§ 15 Z 3 SchBV": {
        "birth_date": "2000-01-01",
        "sailing_days": {"Steuermann": 540},
        "exams": ["Anlage9", "Anlage10", "Anlage11"],
        "radio_certificate": True,
        "medical_fitness": True,
    },
    "§ 15 Z 4 SchBV": {
        "professional_experience_years": 5,
        "programmes": [{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 180, "sailing_days_after": 180}],
        "radio_certificate": True,
        "medical_fitness": True,
    },
}

# Pathways that the minimal applicant satisfies besides its own: 180 days of Fahrzeit of an adult with medical
# fitness also meet § 10 (Z 2, second alternative).
ALSO_SATISFIED = {
    "§ 12 Z 2 SchBV": {"§ 10 SchBV"},
    "§ 15 Z 2 SchBV": {"§ 10 SchBV"},
    "§ 15 Z 3 SchBV": {"§ 10 SchBV"},
}

AGE_PATHWAYS = {  # pathway -> (litera of the age requirement, completed years required)
    "§ 10 SchBV": ("§ 10 Z 1 SchBV", 18),
    "§ 11 SchBV": ("§ 11 Z 1 SchBV", 15),
    "§ 12 Z 1 SchBV": ("§ 12 Z 1 lit. a SchBV", 18),
    "§ 12 Z 2 SchBV": ("§ 12 Z 2 lit. a SchBV", 18),
    "§ 15 Z 1 SchBV": ("§ 15 Z 1 lit. a SchBV", 18),
    "§ 15 Z 2 SchBV": ("§ 15 Z 2 lit. a SchBV", 18),
    "§ 15 Z 3 SchBV": ("§ 15 Z 3 lit. a SchBV", 18),
}

MEDICAL_LITERA = {
    "§ 10 SchBV": "§ 10 Z 3 SchBV",
    "§ 11 SchBV": "§ 11 Z 3 SchBV",
    "§ 12 Z 1 SchBV": "§ 12 Z 1 lit. d SchBV",
    "§ 12 Z 2 SchBV": "§ 12 Z 2 lit. d SchBV",
    "§ 12 Z 3 SchBV": "§ 12 Z 3 lit. d SchBV",
    "§ 13 Z 2 SchBV": "§ 13 Z 2 lit. c SchBV",
    "§ 14 Z 2 SchBV": "§ 14 Z 2 lit. d SchBV",
    "§ 14 Z 3 SchBV": "§ 14 Z 3 lit. d SchBV",
    "§ 15 Z 1 SchBV": "§ 15 Z 1 lit. e SchBV",
    "§ 15 Z 2 SchBV": "§ 15 Z 2 lit. f SchBV",
    "§ 15 Z 3 SchBV": "§ 15 Z 3 lit. e SchBV",
    "§ 15 Z 4 SchBV": "§ 15 Z 4 lit. e SchBV",
}

RADIO_LITERA = {
    "§ 14 Z 1 SchBV": "§ 14 Z 1 lit. b SchBV",
    "§ 14 Z 2 SchBV": "§ 14 Z 2 lit. c SchBV",
    "§ 14 Z 3 SchBV": "§ 14 Z 3 lit. c SchBV",
    "§ 15 Z 1 SchBV": "§ 15 Z 1 lit. d SchBV",
    "§ 15 Z 2 SchBV": "§ 15 Z 2 lit. e SchBV",
    "§ 15 Z 3 SchBV": "§ 15 Z 3 lit. d SchBV",
    "§ 15 Z 4 SchBV": "§ 15 Z 4 lit. d SchBV",
}

DECK_ROLES = ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann", "Schiffsfuehrer"]


# --------------------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------------------


@cache
def law() -> Law:
    return load_law()


def person(record: dict[str, Any], as_of: date = AS_OF, pid: str = "applicant") -> Person:
    """A Person from a record without id (the id is added here)."""
    return person_from_mapping({"id": pid, **copy.deepcopy(record)}, law(), as_of, "casebook")


def evaluate(record: dict[str, Any], as_of: date = AS_OF) -> dict[str, Any]:
    """The eligibility answer for one applicant, evaluated alone."""
    return check(law(), [person(record, as_of)], as_of)[0]


def variant(pathway: str, **changes: Any) -> dict[str, Any]:
    """The minimal applicant of a pathway with some facts replaced (DROP removes a fact)."""
    record = copy.deepcopy(MINIMAL[pathway])
    for key, value in changes.items():
        if value is DROP:
            record.pop(key, None)
        else:
            record[key] = value
    return record


def certificate_result(answer: dict[str, Any], certificate: str) -> dict[str, Any]:
    found = [c for c in answer["certificates"] if c["id"] == certificate]
    assert len(found) == 1, f"the answer has no single entry for {certificate}"
    return found[0]


def pathway_result(answer: dict[str, Any], provision: str) -> dict[str, Any]:
    """The pathway result for a Ziffer, fetched by its citation, e.g. '§ 12 Z 2 SchBV'."""
    found = [w for c in answer["certificates"] for w in c["pathways"] if w["provision"] == provision]
    assert len(found) == 1, f"the answer has no single pathway {provision}"
    return found[0]


def satisfied_pathways(answer: dict[str, Any]) -> set[str]:
    return {w["provision"] for c in answer["certificates"] for w in c["pathways"] if w["satisfied"]}


def missing_provisions(pathway: dict[str, Any]) -> set[str]:
    return {r["provision"] for r in pathway["missing"]}


def missing_entry(pathway: dict[str, Any], litera: str) -> dict[str, Any]:
    found = [r for r in pathway["missing"] if r["provision"] == litera]
    assert len(found) == 1, f"{pathway['provision']} does not name {litera} as missing: {missing_provisions(pathway)}"
    return found[0]


def requirement_entry(pathway: dict[str, Any], litera: str) -> dict[str, Any]:
    found = [r for r in pathway["requirements"] if r["provision"] == litera]
    assert len(found) == 1, f"{pathway['provision']} has no single requirement {litera}"
    return found[0]


def sub_entry(entry: dict[str, Any], path: tuple[int, ...]) -> dict[str, Any]:
    """Walk into an any-of (alternatives) or all-of (parts) requirement by position."""
    for index in path:
        entry = (entry.get("alternatives") or entry.get("parts"))[index]
    return entry


def case(case_id: str, *values: Any) -> Any:
    return pytest.param(*values, id=case_id)


def same(value: Any) -> Any:
    """Lists in the answer are compared as sorted lists (the order of exams or certificates carries no meaning)."""
    return sorted(value) if isinstance(value, list) else value


# --------------------------------------------------------------------------------------------------------------
# 0. A batch without any exam (regression: pyDatalog raised "Predicate without definition: exam/2")
# --------------------------------------------------------------------------------------------------------------


def test_engine_evaluates_a_batch_in_which_nobody_passed_an_exam():
    """§ 10 SchBV names no exam: an adult with basic safety training and medical fitness must simply be eligible."""
    answer = evaluate(MINIMAL["§ 10 SchBV"])
    assert certificate_result(answer, "UBZ-Decksmann")["eligible"] is True


# --------------------------------------------------------------------------------------------------------------
# 1. One minimal applicant per pathway
# --------------------------------------------------------------------------------------------------------------

MINIMAL_CASES = [
    case("§ 10 SchBV: an adult with basic safety training and medical fitness is a Decksmann",
         MINIMAL["§ 10 SchBV"], "§ 10 SchBV"),
    case("§ 11 SchBV: a sixteen-year-old with a Lehrvertrag and medical fitness is a Leichtmatrose",
         MINIMAL["§ 11 SchBV"], "§ 11 SchBV"),
    case("§ 12 Z 1 SchBV: an adult after a two-year Matrosen programme with 90 days of Fahrzeit in it is a Matrose",
         MINIMAL["§ 12 Z 1 SchBV"], "§ 12 Z 1 SchBV"),
    case("§ 12 Z 2 SchBV: an adult with the Anlage 8 exam and 360 days of Fahrzeit is a Matrose",
         MINIMAL["§ 12 Z 2 SchBV"], "§ 12 Z 2 SchBV"),
    case("§ 12 Z 3 SchBV: five years of work experience then a nine-month programme with 90 days make a Matrose",
         MINIMAL["§ 12 Z 3 SchBV"], "§ 12 Z 3 SchBV"),
    case("§ 13 Z 1 SchBV: 180 days of Fahrzeit served as Matrose make a Bootsmann",
         MINIMAL["§ 13 Z 1 SchBV"], "§ 13 Z 1 SchBV"),
    case("§ 13 Z 2 SchBV: a three-year Bootsleute programme with 270 days in it and medical fitness make a Bootsmann",
         MINIMAL["§ 13 Z 2 SchBV"], "§ 13 Z 2 SchBV"),
    case("§ 14 Z 1 SchBV: 180 days served as Bootsmann and a radio certificate make a Steuermann",
         MINIMAL["§ 14 Z 1 SchBV"], "§ 14 Z 1 SchBV"),
    case("§ 14 Z 2 SchBV: a three-year Steuerleute programme with 360 days, radio and medical fitness make a Steuermann",
         MINIMAL["§ 14 Z 2 SchBV"], "§ 14 Z 2 SchBV"),
    case("§ 14 Z 3 SchBV: 500 days as master at sea, the Anlage 8 exam, radio and medical fitness make a Steuermann",
         MINIMAL["§ 14 Z 3 SchBV"], "§ 14 Z 3 SchBV"),
    case("§ 15 Z 1 SchBV: an adult after a three-year Schiffsführer programme with 360 days is a Schiffsführer",
         MINIMAL["§ 15 Z 1 SchBV"], "§ 15 Z 1 SchBV"),
    case("§ 15 Z 2 SchBV: an adult Steuermann with 180 days and the Anlage 9 and 10 exams is a Schiffsführer",
         MINIMAL["§ 15 Z 2 SchBV"], "§ 15 Z 2 SchBV"),
    case("§ 15 Z 3 SchBV: an adult with 540 days and the Anlage 9, 10 and 11 exams is a Schiffsführer",
         MINIMAL["§ 15 Z 3 SchBV"], "§ 15 Z 3 SchBV"),
    case("§ 15 Z 4 SchBV: five years of work experience and an 18-month programme with 180 + 180 days make a Schiffsführer",
         MINIMAL["§ 15 Z 4 SchBV"], "§ 15 Z 4 SchBV"),
]


@pytest.mark.parametrize(("record", "provision"), MINIMAL_CASES)
def test_minimal_applicant_satisfies_exactly_that_pathway(record, provision):
    answer = evaluate(record)
    pathway = pathway_result(answer, provision)
    assert pathway["satisfied"] is True
    assert pathway["missing"] == []
    assert certificate_result(answer, UBZ[provision])["eligible"] is True
    assert satisfied_pathways(answer) == {provision} | ALSO_SATISFIED.get(provision, set())


def test_every_encoded_pathway_has_a_minimal_applicant_in_this_casebook():
    """§§ 10–15 SchBV: the casebook covers every pathway the kb encodes for the Unionsbefähigungszeugnisse."""
    encoded = {law().citation(w.provision) for w in law().pathways.values()}
    assert encoded == set(MINIMAL)


# --------------------------------------------------------------------------------------------------------------
# 2. Each litera fails by the smallest margin
# --------------------------------------------------------------------------------------------------------------

# (id, pathway, changes, as_of, litera, path into any-of/all-of, needed, have, other literae also missing)
NARROW_MISSES: list[tuple[str, str, dict[str, Any], date, str, tuple[int, ...], Any, Any, set[str]]] = [
    # § 10
    ("§ 10 Z 1 SchBV: on the day before the 18th birthday the age is not reached",
     "§ 10 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 10 Z 1 SchBV", (), 18, 17, set()),
    ("§ 10 Z 2 SchBV: without basic safety training and without any Fahrzeit neither alternative is met",
     "§ 10 SchBV", {"basic_safety_training": DROP}, AS_OF, "§ 10 Z 2 SchBV", (), 1, 0, set()),
    ("§ 10 Z 2 SchBV: 179 days of Fahrzeit are one short of the year of experience",
     "§ 10 SchBV", {"basic_safety_training": DROP, "sailing_days": {"Decksmann": 179}}, AS_OF,
     "§ 10 Z 2 SchBV", (1,), 180, 179, set()),
    # § 11
    ("§ 11 Z 1 SchBV: on the day before the 15th birthday the age is not reached",
     "§ 11 SchBV", {"birth_date": BORN_15}, EVE_OF_BIRTHDAY, "§ 11 Z 1 SchBV", (), 15, 14, set()),
    ("§ 11 Z 2 SchBV: without a Lehrvertrag there is no Leichtmatrose certificate",
     "§ 11 SchBV", {"apprenticeship": DROP}, AS_OF, "§ 11 Z 2 SchBV", (), True, False, set()),
    ("§ 11 Z 2 SchBV: an apprenticeship record that denies a contract is no Lehrvertrag",
     "§ 11 SchBV", {"apprenticeship": {"contract": False, "year": 1}}, AS_OF, "§ 11 Z 2 SchBV", (), True, False, set()),
    # § 12 Z 1
    ("§ 12 Z 1 lit. a SchBV: on the day before the 18th birthday the age is not reached",
     "§ 12 Z 1 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 12 Z 1 lit. a SchBV", (), 18, 17, set()),
    ("§ 12 Z 1 lit. b SchBV: a 23-month programme is one month short of two years, and lit. c loses its programme",
     "§ 12 Z 1 SchBV", {"programmes": [{"for": "Matrose", "months": 23, "sailing_days": 90}]}, AS_OF,
     "§ 12 Z 1 lit. b SchBV", (), 24, 23, {"§ 12 Z 1 lit. c SchBV"}),
    ("§ 12 Z 1 lit. c SchBV: 89 days of Fahrzeit within the programme are one short",
     "§ 12 Z 1 SchBV", {"programmes": [{"for": "Matrose", "months": 24, "sailing_days": 89}]}, AS_OF,
     "§ 12 Z 1 lit. c SchBV", (), 90, 89, set()),
    # § 12 Z 2
    ("§ 12 Z 2 lit. a SchBV: on the day before the 18th birthday the age is not reached",
     "§ 12 Z 2 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 12 Z 2 lit. a SchBV", (), 18, 17, set()),
    ("§ 12 Z 2 lit. b SchBV: without the Anlage 8 exam there is no Matrose certificate by exam",
     "§ 12 Z 2 SchBV", {"exams": DROP}, AS_OF, "§ 12 Z 2 lit. b SchBV", (), ["Anlage8"], [], set()),
    ("§ 12 Z 2 lit. b SchBV: the Anlage 9 exam does not replace the Anlage 8 exam",
     "§ 12 Z 2 SchBV", {"exams": ["Anlage9"]}, AS_OF, "§ 12 Z 2 lit. b SchBV", (), ["Anlage8"], [], set()),
    ("§ 12 Z 2 lit. c SchBV: 359 days of Fahrzeit are one short",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 359}}, AS_OF, "§ 12 Z 2 lit. c SchBV", (0,), 360, 359, set()),
    # § 12 Z 3
    ("§ 12 Z 3 lit. a SchBV: four years of work experience are one year short",
     "§ 12 Z 3 SchBV", {"professional_experience_years": 4}, AS_OF, "§ 12 Z 3 lit. a SchBV", (0,), 5, 4, set()),
    ("§ 12 Z 3 lit. b SchBV: an eight-month programme is one month short, and lit. c loses its programme",
     "§ 12 Z 3 SchBV", {"programmes": [{"for": "Matrose", "months": 8, "sailing_days": 90}]}, AS_OF,
     "§ 12 Z 3 lit. b SchBV", (), 9, 8, {"§ 12 Z 3 lit. c SchBV"}),
    ("§ 12 Z 3 lit. c SchBV: 89 days of Fahrzeit within the programme are one short",
     "§ 12 Z 3 SchBV", {"programmes": [{"for": "Matrose", "months": 9, "sailing_days": 89}]}, AS_OF,
     "§ 12 Z 3 lit. c SchBV", (), 90, 89, set()),
    # § 13 Z 1
    ("§ 13 Z 1 SchBV: 179 days served as Matrose are one short",
     "§ 13 Z 1 SchBV", {"sailing_days": {"Matrose": 179}}, AS_OF, "§ 13 Z 1 SchBV", (), 180, 179, set()),
    # § 13 Z 2
    ("§ 13 Z 2 lit. a SchBV: a 35-month programme is one month short of three years, and lit. b loses its programme",
     "§ 13 Z 2 SchBV", {"programmes": [{"for": "Bootsmann", "months": 35, "sailing_days": 270}]}, AS_OF,
     "§ 13 Z 2 lit. a SchBV", (), 36, 35, {"§ 13 Z 2 lit. b SchBV"}),
    ("§ 13 Z 2 lit. b SchBV: 269 days of Fahrzeit within the programme are one short",
     "§ 13 Z 2 SchBV", {"programmes": [{"for": "Bootsmann", "months": 36, "sailing_days": 269}]}, AS_OF,
     "§ 13 Z 2 lit. b SchBV", (), 270, 269, set()),
    # § 14 Z 1
    ("§ 14 Z 1 lit. a SchBV: 179 days served as Bootsmann are one short",
     "§ 14 Z 1 SchBV", {"sailing_days": {"Bootsmann": 179}}, AS_OF, "§ 14 Z 1 lit. a SchBV", (), 180, 179, set()),
    # § 14 Z 2
    ("§ 14 Z 2 lit. a SchBV: a 35-month programme is one month short of three years, and lit. b loses its programme",
     "§ 14 Z 2 SchBV", {"programmes": [{"for": "Steuermann", "months": 35, "sailing_days": 360}]}, AS_OF,
     "§ 14 Z 2 lit. a SchBV", (), 36, 35, {"§ 14 Z 2 lit. b SchBV"}),
    ("§ 14 Z 2 lit. b SchBV: 359 days of Fahrzeit within the programme are one short",
     "§ 14 Z 2 SchBV", {"programmes": [{"for": "Steuermann", "months": 36, "sailing_days": 359}]}, AS_OF,
     "§ 14 Z 2 lit. b SchBV", (), 360, 359, set()),
    # § 14 Z 3
    ("§ 14 Z 3 lit. a SchBV: 499 days as master at sea are one short",
     "§ 14 Z 3 SchBV", {"sea_days": {"master": 499}}, AS_OF, "§ 14 Z 3 lit. a SchBV", (), 500, 499, set()),
    ("§ 14 Z 3 lit. a SchBV: 500 days at sea as deck crew are not days as master",
     "§ 14 Z 3 SchBV", {"sea_days": {"deck_crew": 500}}, AS_OF, "§ 14 Z 3 lit. a SchBV", (), 500, 0, set()),
    ("§ 14 Z 3 lit. b SchBV: without the Anlage 8 exam there is no Steuermann certificate from sea service",
     "§ 14 Z 3 SchBV", {"exams": DROP}, AS_OF, "§ 14 Z 3 lit. b SchBV", (), ["Anlage8"], [], set()),
    # § 15 Z 1
    ("§ 15 Z 1 lit. a SchBV: on the day before the 18th birthday the age is not reached",
     "§ 15 Z 1 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 15 Z 1 lit. a SchBV", (), 18, 17, set()),
    ("§ 15 Z 1 lit. b SchBV: a 35-month programme is one month short of three years, and lit. c loses its programme",
     "§ 15 Z 1 SchBV", {"programmes": [{"for": "Schiffsfuehrer", "months": 35, "sailing_days": 360}]}, AS_OF,
     "§ 15 Z 1 lit. b SchBV", (), 36, 35, {"§ 15 Z 1 lit. c SchBV"}),
    ("§ 15 Z 1 lit. c SchBV: 359 days of Fahrzeit within the programme are one short",
     "§ 15 Z 1 SchBV", {"programmes": [{"for": "Schiffsfuehrer", "months": 36, "sailing_days": 359}]}, AS_OF,
     "§ 15 Z 1 lit. c SchBV", (), 360, 359, set()),
    # § 15 Z 2
    ("§ 15 Z 2 lit. a SchBV: on the day before the 18th birthday the age is not reached",
     "§ 15 Z 2 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 15 Z 2 lit. a SchBV", (), 18, 17, set()),
    ("§ 15 Z 2 lit. b SchBV: without the Steuermann certificate or a recognised third-country one Z 2 is closed",
     "§ 15 Z 2 SchBV", {"certificates": DROP}, AS_OF, "§ 15 Z 2 lit. b SchBV", (),
     ["UBZ-Steuermann", "ThirdCountry-Steuermann"], [], set()),
    ("§ 15 Z 2 lit. b SchBV: the Bootsmann certificate is not the Steuermann certificate",
     "§ 15 Z 2 SchBV", {"certificates": ["UBZ-Bootsmann"]}, AS_OF, "§ 15 Z 2 lit. b SchBV", (),
     ["UBZ-Steuermann", "ThirdCountry-Steuermann"], [], set()),
    ("§ 15 Z 2 lit. c SchBV: 179 days of Fahrzeit are one short",
     "§ 15 Z 2 SchBV", {"sailing_days": {"Steuermann": 179}}, AS_OF, "§ 15 Z 2 lit. c SchBV", (), 180, 179, set()),
    ("§ 15 Z 2 lit. d SchBV: the Anlage 9 exam without the practical Anlage 10 exam is not enough",
     "§ 15 Z 2 SchBV", {"exams": ["Anlage9"]}, AS_OF, "§ 15 Z 2 lit. d SchBV", (),
     ["Anlage9", "Anlage10"], ["Anlage9"], set()),
    ("§ 15 Z 2 lit. d SchBV: the practical Anlage 10 exam without the Anlage 9 exam is not enough",
     "§ 15 Z 2 SchBV", {"exams": ["Anlage10"]}, AS_OF, "§ 15 Z 2 lit. d SchBV", (),
     ["Anlage9", "Anlage10"], ["Anlage10"], set()),
    # § 15 Z 3
    ("§ 15 Z 3 lit. a SchBV: on the day before the 18th birthday the age is not reached",
     "§ 15 Z 3 SchBV", {"birth_date": BORN_18}, EVE_OF_BIRTHDAY, "§ 15 Z 3 lit. a SchBV", (), 18, 17, set()),
    ("§ 15 Z 3 lit. b SchBV: 539 days of Fahrzeit are one short",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 539}}, AS_OF, "§ 15 Z 3 lit. b SchBV", (0,), 540, 539, set()),
    ("§ 15 Z 3 lit. c SchBV: the Anlage 9 and 10 exams without the practical Anlage 11 exam are not enough",
     "§ 15 Z 3 SchBV", {"exams": ["Anlage9", "Anlage10"]}, AS_OF, "§ 15 Z 3 lit. c SchBV", (),
     ["Anlage9", "Anlage10", "Anlage11"], ["Anlage9", "Anlage10"], set()),
    # § 15 Z 4
    ("§ 15 Z 4 lit. a SchBV: four years of work experience are one year short",
     "§ 15 Z 4 SchBV", {"professional_experience_years": 4}, AS_OF, "§ 15 Z 4 lit. a SchBV", (0,), 5, 4, set()),
    ("§ 15 Z 4 lit. b SchBV: a 17-month programme is one month short of eighteen, and lit. c loses its programme",
     "§ 15 Z 4 SchBV",
     {"programmes": [{"for": "Schiffsfuehrer", "months": 17, "sailing_days": 180, "sailing_days_after": 180}]}, AS_OF,
     "§ 15 Z 4 lit. b SchBV", (), 18, 17, {"§ 15 Z 4 lit. c SchBV"}),
    ("§ 15 Z 4 lit. c SchBV: 179 days within the programme are one short",
     "§ 15 Z 4 SchBV",
     {"programmes": [{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 179, "sailing_days_after": 180}]}, AS_OF,
     "§ 15 Z 4 lit. c SchBV", (0,), 180, 179, set()),
    ("§ 15 Z 4 lit. c SchBV: 179 days after the programme are one short",
     "§ 15 Z 4 SchBV",
     {"programmes": [{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 180, "sailing_days_after": 179}]}, AS_OF,
     "§ 15 Z 4 lit. c SchBV", (1,), 180, 179, set()),
]

for _pathway, _litera in MEDICAL_LITERA.items():
    NARROW_MISSES.append((
        f"{_litera}: without medical fitness under Anlage 7 {_pathway} is not satisfied",
        _pathway, {"medical_fitness": DROP}, AS_OF, _litera, (), True, False, set()))
    NARROW_MISSES.append((
        f"{_litera}: medical fitness that expired the day before the evaluation date no longer counts",
        _pathway, {"medical_fitness": {"valid_until": (AS_OF - DAY).isoformat()}}, AS_OF, _litera, (), True, False, set()))
for _pathway, _litera in RADIO_LITERA.items():
    NARROW_MISSES.append((
        f"{_litera}: without a Sprechfunkzeugnis {_pathway} is not satisfied",
        _pathway, {"radio_certificate": DROP}, AS_OF, _litera, (), True, False, set()))


@pytest.mark.parametrize(
    ("record", "provision", "as_of", "litera", "path", "needed", "have", "also_missing"),
    [case(cid, variant(pw, **changes), pw, as_of, litera, path, needed, have, also)
     for cid, pw, changes, as_of, litera, path, needed, have, also in NARROW_MISSES],
)
def test_one_litera_missed_by_the_smallest_margin(record, provision, as_of, litera, path, needed, have, also_missing):
    answer = evaluate(record, as_of)
    pathway = pathway_result(answer, provision)
    assert pathway["satisfied"] is False
    assert missing_provisions(pathway) == {litera} | also_missing
    entry = missing_entry(pathway, litera)
    assert entry["met"] is False
    leaf = sub_entry(entry, path)
    assert leaf["met"] is False
    assert (same(leaf["needed"]), same(leaf["have"])) == (same(needed), same(have))
    if provision not in {"§ 12 Z 2 SchBV", "§ 15 Z 2 SchBV", "§ 15 Z 3 SchBV"}:
        # no other pathway of the same certificate is open to these applicants
        assert certificate_result(answer, UBZ[provision])["eligible"] is False


# The passing side of the boundaries that are not already the minimal applicant.
BOUNDARY_PASSES: list[tuple[str, str, dict[str, Any], date, str]] = []
for _pathway, (_litera, _years) in AGE_PATHWAYS.items():
    BOUNDARY_PASSES.append((
        f"{_litera}: on the {_years}th birthday itself the {_years}th year of life is completed",
        _pathway, {"birth_date": BORN_18 if _years == 18 else BORN_15}, BIRTHDAY, _litera))
for _pathway, _litera in MEDICAL_LITERA.items():
    BOUNDARY_PASSES.append((
        f"{_litera}: medical fitness valid until the evaluation date still counts on that date",
        _pathway, {"medical_fitness": {"valid_until": AS_OF.isoformat()}}, AS_OF, _litera))
BOUNDARY_PASSES.append((
    "§ 15 Z 2 lit. b SchBV: a third-country Steuermann certificate recognised under § 117 Abs. 4 SchFG is accepted",
    "§ 15 Z 2 SchBV", {"certificates": ["ThirdCountry-Steuermann"]}, AS_OF, "§ 15 Z 2 lit. b SchBV"))


@pytest.mark.parametrize(
    ("record", "provision", "as_of", "litera"),
    [case(cid, variant(pw, **changes), pw, as_of, litera) for cid, pw, changes, as_of, litera in BOUNDARY_PASSES],
)
def test_boundary_is_met_exactly_at_the_threshold(record, provision, as_of, litera):
    answer = evaluate(record, as_of)
    pathway = pathway_result(answer, provision)
    assert requirement_entry(pathway, litera)["met"] is True
    assert pathway["satisfied"] is True
    assert certificate_result(answer, UBZ[provision])["eligible"] is True


def test_age_entry_states_the_completed_years_and_the_day_they_are_reached():
    """§ 12 Z 2 lit. a SchBV: the day before the 18th birthday the answer says 17 years and when 18 is reached."""
    record = variant("§ 12 Z 2 SchBV", birth_date=BORN_18)
    entry = missing_entry(pathway_result(evaluate(record, EVE_OF_BIRTHDAY), "§ 12 Z 2 SchBV"), "§ 12 Z 2 lit. a SchBV")
    assert entry["reached_on"] == BIRTHDAY.isoformat()
    assert entry["unit"] == "years"


# --------------------------------------------------------------------------------------------------------------
# 3. Alternatives inside one litera
# --------------------------------------------------------------------------------------------------------------

# (id, pathway, changes, litera, satisfied?)
ALTERNATIVES: list[tuple[str, str, dict[str, Any], str, bool]] = [
    # § 10 Z 2
    ("§ 10 Z 2 SchBV: 180 days of Fahrzeit count as one year of deck-crew experience instead of safety training",
     "§ 10 SchBV", {"basic_safety_training": DROP, "sailing_days": {"Decksmann": 180}}, "§ 10 Z 2 SchBV", True),
    ("§ 10 Z 2 SchBV: the year of experience may be served in several deck roles (90 as Decksmann + 90 as Leichtmatrose)",
     "§ 10 SchBV", {"basic_safety_training": DROP, "sailing_days": {"Decksmann": 90, "Leichtmatrose": 90}},
     "§ 10 Z 2 SchBV", True),
    ("§ 10 Z 2 SchBV: 89 + 90 days in two deck roles are one short of the year of experience",
     "§ 10 SchBV", {"basic_safety_training": DROP, "sailing_days": {"Decksmann": 89, "Leichtmatrose": 90}},
     "§ 10 Z 2 SchBV", False),
    ("§ 10 Z 2 SchBV: sea time as deck crew is not named, so 365 sea days are no year of inland experience",
     "§ 10 SchBV", {"basic_safety_training": DROP, "sea_days": {"deck_crew": 365}}, "§ 10 Z 2 SchBV", False),
    # § 12 Z 2 lit. c
    ("§ 12 Z 2 lit. c SchBV: 180 days of Fahrzeit plus 250 days as deck crew at sea replace the 360 days",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"deck_crew": 250}}, "§ 12 Z 2 lit. c SchBV", True),
    ("§ 12 Z 2 lit. c SchBV: 180 days of Fahrzeit plus 249 days as deck crew at sea are one sea day short",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"deck_crew": 249}}, "§ 12 Z 2 lit. c SchBV", False),
    ("§ 12 Z 2 lit. c SchBV: 179 days of Fahrzeit plus 250 days as deck crew at sea are one Fahrzeit day short",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 179}, "sea_days": {"deck_crew": 250}}, "§ 12 Z 2 lit. c SchBV", False),
    # § 2 Z 4 SchBV counts the Schiffsführer in the Decksmannschaft (issue 13, legal correction 1)
    ("§ 12 Z 2 lit. c SchBV: 250 sea days as master are experience as member of a deck crew (§ 2 Z 4)",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"master": 250}}, "§ 12 Z 2 lit. c SchBV", True),
    ("§ 12 Z 2 lit. c SchBV: 249 sea days as master are one sea day short",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"master": 249}}, "§ 12 Z 2 lit. c SchBV", False),
    ("§ 12 Z 2 lit. c SchBV: sea days as deck crew and as master are added for the 250 days (125 + 125)",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"deck_crew": 125, "master": 125}},
     "§ 12 Z 2 lit. c SchBV", True),
    ("§ 12 Z 2 lit. c SchBV: 125 + 124 sea days as deck crew and as master are one day short",
     "§ 12 Z 2 SchBV", {"sailing_days": {"Decksmann": 180}, "sea_days": {"deck_crew": 125, "master": 124}},
     "§ 12 Z 2 lit. c SchBV", False),
    # § 12 Z 3 lit. a
    ("§ 12 Z 3 lit. a SchBV: 500 days on a sea-going ship replace five years of work experience",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "sea_days": {"deck_crew": 500}}, "§ 12 Z 3 lit. a SchBV", True),
    ("§ 12 Z 3 lit. a SchBV: 500 days as master at sea are 500 days on a sea-going ship",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "sea_days": {"master": 500}}, "§ 12 Z 3 lit. a SchBV", True),
    ("§ 12 Z 3 lit. a SchBV: sea days in any capacity are added (250 as deck crew + 250 as master)",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "sea_days": {"deck_crew": 250, "master": 250}},
     "§ 12 Z 3 lit. a SchBV", True),
    ("§ 12 Z 3 lit. a SchBV: 250 + 249 sea days are one day short of 500",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "sea_days": {"deck_crew": 250, "master": 249}},
     "§ 12 Z 3 lit. a SchBV", False),
    ("§ 12 Z 3 lit. a SchBV: a three-year vocational training of any kind replaces work experience",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "vocational_training_years": 3}, "§ 12 Z 3 lit. a SchBV", True),
    ("§ 12 Z 3 lit. a SchBV: a two-year vocational training is one year short",
     "§ 12 Z 3 SchBV", {"professional_experience_years": DROP, "vocational_training_years": 2}, "§ 12 Z 3 lit. a SchBV", False),
    ("§ 12 Z 3 lit. a SchBV: four years of work and two of training are not added to reach an alternative",
     "§ 12 Z 3 SchBV", {"professional_experience_years": 4, "vocational_training_years": 2}, "§ 12 Z 3 lit. a SchBV", False),
    # § 15 Z 3 lit. b
    ("§ 15 Z 3 lit. b SchBV: 500 days as deck crew at sea and 180 days of Fahrzeit replace the 540 days",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 180}, "sea_days": {"deck_crew": 500}}, "§ 15 Z 3 lit. b SchBV", True),
    ("§ 15 Z 3 lit. b SchBV: 499 days as deck crew at sea and 180 days of Fahrzeit are one sea day short",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 180}, "sea_days": {"deck_crew": 499}}, "§ 15 Z 3 lit. b SchBV", False),
    ("§ 15 Z 3 lit. b SchBV: 500 days as deck crew at sea and 179 days of Fahrzeit are one Fahrzeit day short",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 179}, "sea_days": {"deck_crew": 500}}, "§ 15 Z 3 lit. b SchBV", False),
    ("§ 15 Z 3 lit. b SchBV: 500 days as master at sea are experience as member of a deck crew (§ 2 Z 4)",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 180}, "sea_days": {"master": 500}}, "§ 15 Z 3 lit. b SchBV", True),
    ("§ 15 Z 3 lit. b SchBV: 499 days as master at sea are one sea day short",
     "§ 15 Z 3 SchBV", {"sailing_days": {"Steuermann": 180}, "sea_days": {"master": 499}}, "§ 15 Z 3 lit. b SchBV", False),
    # § 15 Z 4 lit. a
    ("§ 15 Z 4 lit. a SchBV: 500 days as deck crew at sea replace five years of work experience",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "sea_days": {"deck_crew": 500}}, "§ 15 Z 4 lit. a SchBV", True),
    ("§ 15 Z 4 lit. a SchBV: 499 days as deck crew at sea are one day short",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "sea_days": {"deck_crew": 499}}, "§ 15 Z 4 lit. a SchBV", False),
    ("§ 15 Z 4 lit. a SchBV: 500 days as master at sea are days as member of a deck crew (§ 2 Z 4)",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "sea_days": {"master": 500}}, "§ 15 Z 4 lit. a SchBV", True),
    ("§ 15 Z 4 lit. a SchBV: 499 days as master at sea are one day short",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "sea_days": {"master": 499}}, "§ 15 Z 4 lit. a SchBV", False),
    ("§ 15 Z 4 lit. a SchBV: a three-year vocational training of any kind replaces work experience",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "vocational_training_years": 3}, "§ 15 Z 4 lit. a SchBV", True),
    ("§ 15 Z 4 lit. a SchBV: a two-year vocational training is one year short",
     "§ 15 Z 4 SchBV", {"professional_experience_years": DROP, "vocational_training_years": 2}, "§ 15 Z 4 lit. a SchBV", False),
]


@pytest.mark.parametrize(
    ("record", "provision", "litera", "satisfied"),
    [case(cid, variant(pw, **changes), pw, litera, ok) for cid, pw, changes, litera, ok in ALTERNATIVES],
)
def test_alternatives_within_one_litera(record, provision, litera, satisfied):
    pathway = pathway_result(evaluate(record), provision)
    entry = requirement_entry(pathway, litera)
    assert entry["kind"] == "AnyOf"
    assert entry["met"] is satisfied
    assert pathway["satisfied"] is satisfied
    assert missing_provisions(pathway) == (set() if satisfied else {litera})


def test_alternatives_report_each_threshold_separately():
    """§ 12 Z 2 lit. c SchBV: with 180 days and 249 deck sea days the answer shows 360/180, 180/180 and 250/249."""
    record = variant("§ 12 Z 2 SchBV", sailing_days={"Decksmann": 180}, sea_days={"deck_crew": 249})
    entry = missing_entry(pathway_result(evaluate(record), "§ 12 Z 2 SchBV"), "§ 12 Z 2 lit. c SchBV")
    assert (entry["needed"], entry["have"]) == (1, 0)
    first, second = entry["alternatives"]
    assert (first["needed"], first["have"], first["met"]) == (360, 180, False)
    fahrzeit, sea = second["parts"]
    assert (fahrzeit["needed"], fahrzeit["have"], fahrzeit["met"]) == (180, 180, True)
    assert (sea["needed"], sea["have"], sea["met"], sea["capacity"]) == (250, 249, False, "AsDeckCrew")


def test_sea_days_in_any_capacity_are_added_in_the_answer():
    """§ 12 Z 3 lit. a SchBV: 250 deck-crew and 249 master sea days are reported as 499 of 500."""
    record = variant("§ 12 Z 3 SchBV", professional_experience_years=DROP, sea_days={"deck_crew": 250, "master": 249})
    entry = missing_entry(pathway_result(evaluate(record), "§ 12 Z 3 SchBV"), "§ 12 Z 3 lit. a SchBV")
    experience, sea, training = entry["alternatives"]
    assert (experience["needed"], experience["have"]) == (5, 0)
    assert (sea["needed"], sea["have"]) == (500, 499)
    assert (training["needed"], training["have"]) == (3, 0)


# --------------------------------------------------------------------------------------------------------------
# 4. Literal readings
# --------------------------------------------------------------------------------------------------------------

LITERAL_PASSES = [
    case("§ 12 Z 3 SchBV: Z 3 names no minimum age, so a sixteen-year-old career changer can satisfy it",
         variant("§ 12 Z 3 SchBV", birth_date="2010-06-01"), "§ 12 Z 3 SchBV"),
    case("§ 15 Z 4 SchBV: Z 4 names no minimum age, so a seventeen-year-old can satisfy it",
         variant("§ 15 Z 4 SchBV", birth_date="2009-06-01"), "§ 15 Z 4 SchBV"),
    case("§ 13 Z 1 SchBV: Z 1 names no medical fitness, so 180 days as Matrose suffice without it",
         variant("§ 13 Z 1 SchBV", medical_fitness=False), "§ 13 Z 1 SchBV"),
    case("§ 14 Z 1 SchBV: Z 1 names no medical fitness, so 180 days as Bootsmann and radio suffice without it",
         variant("§ 14 Z 1 SchBV", medical_fitness=False), "§ 14 Z 1 SchBV"),
    case("§ 14 Z 1 SchBV: expired medical fitness does not matter where none is required",
         variant("§ 14 Z 1 SchBV", medical_fitness={"valid_until": "2020-01-01"}), "§ 14 Z 1 SchBV"),
    case("§ 15 Z 1 lit. c SchBV: days within and after the programme are added (200 + 160 = 360)",
         variant("§ 15 Z 1 SchBV",
                 programmes=[{"for": "Schiffsfuehrer", "months": 36, "sailing_days": 200, "sailing_days_after": 160}]),
         "§ 15 Z 1 SchBV"),
    case("§ 15 Z 1 lit. c SchBV: all 360 days may lie after the programme",
         variant("§ 15 Z 1 SchBV",
                 programmes=[{"for": "Schiffsfuehrer", "months": 36, "sailing_days": 0, "sailing_days_after": 360}]),
         "§ 15 Z 1 SchBV"),
    case("§ 15 Z 2 lit. c SchBV: no role is named, so Fahrzeit as Decksmann before the Steuermann certificate counts",
         variant("§ 15 Z 2 SchBV", sailing_days={"Decksmann": 180}), "§ 15 Z 2 SchBV"),
    case("§ 12 Z 3 lit. b SchBV: a longer approved Matrosen programme (23 months) is at least the nine-month one",
         variant("§ 12 Z 3 SchBV", programmes=[{"for": "Matrose", "months": 23, "sailing_days": 90}]), "§ 12 Z 3 SchBV"),
    case("§ 12 Z 1 lit. c SchBV: the 90 days may come from the qualifying one of two Matrosen programmes",
         variant("§ 12 Z 1 SchBV", programmes=[{"for": "Matrose", "months": 9, "sailing_days": 0},
                                               {"for": "Matrose", "months": 24, "sailing_days": 90}]),
         "§ 12 Z 1 SchBV"),
]


@pytest.mark.parametrize(("record", "provision"), LITERAL_PASSES)
def test_literal_reading_lets_the_pathway_succeed(record, provision):
    answer = evaluate(record)
    pathway = pathway_result(answer, provision)
    assert pathway["missing"] == []
    assert pathway["satisfied"] is True
    assert certificate_result(answer, UBZ[provision])["eligible"] is True


def test_no_age_requirement_is_listed_for_a_pathway_that_names_none():
    """§ 12 Z 3 and § 15 Z 4 SchBV: their literae contain no minimum-age requirement at all."""
    answer = evaluate(MINIMAL["§ 12 Z 3 SchBV"] | {"exams": ["Anlage8"]})
    for provision in ("§ 12 Z 3 SchBV", "§ 15 Z 4 SchBV", "§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"):
        kinds = {r["kind"] for r in pathway_result(answer, provision)["requirements"]}
        assert "MinimumAge" not in kinds, provision
    for provision in ("§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"):
        documents = {r.get("document") for r in pathway_result(answer, provision)["requirements"]}
        assert "MedicalFitness" not in documents, provision


# (id, record, pathway, {litera: (path, needed, have)})
LITERAL_FAILS: list[tuple[str, dict[str, Any], str, dict[str, tuple[tuple[int, ...], Any, Any]]]] = [
    ("§ 13 Z 1 SchBV: days served as Decksmann are not Fahrzeit 'als Matrose geleistet'",
     variant("§ 13 Z 1 SchBV", sailing_days={"Decksmann": 180}), "§ 13 Z 1 SchBV",
     {"§ 13 Z 1 SchBV": ((), 180, 0)}),
    ("§ 13 Z 1 SchBV: days in other roles are not added to days as Matrose (179 as Matrose + 1 as Decksmann)",
     variant("§ 13 Z 1 SchBV", sailing_days={"Matrose": 179, "Decksmann": 1}), "§ 13 Z 1 SchBV",
     {"§ 13 Z 1 SchBV": ((), 180, 179)}),
    ("§ 14 Z 1 lit. a SchBV: days served as Matrose are not Fahrzeit 'als Bootsmann geleistet'",
     variant("§ 14 Z 1 SchBV", sailing_days={"Matrose": 180}), "§ 14 Z 1 SchBV",
     {"§ 14 Z 1 lit. a SchBV": ((), 180, 0)}),
    ("§ 15 Z 1 lit. c SchBV: 200 days within and 159 after the programme are one short of 360",
     variant("§ 15 Z 1 SchBV",
             programmes=[{"for": "Schiffsfuehrer", "months": 36, "sailing_days": 200, "sailing_days_after": 159}]),
     "§ 15 Z 1 SchBV", {"§ 15 Z 1 lit. c SchBV": ((), 360, 359)}),
    ("§ 15 Z 1 lit. c SchBV: Fahrzeit outside any programme is not Fahrzeit of 'this' programme",
     variant("§ 15 Z 1 SchBV", programmes=[{"for": "Schiffsfuehrer", "months": 36}],
             sailing_days={"Steuermann": 360}),
     "§ 15 Z 1 SchBV", {"§ 15 Z 1 lit. c SchBV": ((), 360, 0)}),
    ("§ 15 Z 4 lit. c SchBV: 360 days within the programme do not replace the 180 days after it",
     variant("§ 15 Z 4 SchBV",
             programmes=[{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 360, "sailing_days_after": 0}]),
     "§ 15 Z 4 SchBV", {"§ 15 Z 4 lit. c SchBV": ((1,), 180, 0)}),
    ("§ 15 Z 4 lit. c SchBV: 360 days after the programme do not replace the 180 days within it",
     variant("§ 15 Z 4 SchBV",
             programmes=[{"for": "Schiffsfuehrer", "months": 18, "sailing_days": 0, "sailing_days_after": 360}]),
     "§ 15 Z 4 SchBV", {"§ 15 Z 4 lit. c SchBV": ((0,), 180, 0)}),
    ("§ 12 Z 1 lit. b and c SchBV: a 23-month programme with 90 days fails lit. b, and its days are not credited to lit. c",
     variant("§ 12 Z 1 SchBV", programmes=[{"for": "Matrose", "months": 23, "sailing_days": 90}]), "§ 12 Z 1 SchBV",
     {"§ 12 Z 1 lit. b SchBV": ((), 24, 23), "§ 12 Z 1 lit. c SchBV": ((), 90, 0)}),
    ("§ 12 Z 1 lit. c SchBV: 90 days in a 23-month programme are not credited to a second, qualifying programme",
     variant("§ 12 Z 1 SchBV", programmes=[{"for": "Matrose", "months": 24, "sailing_days": 0},
                                           {"for": "Matrose", "months": 23, "sailing_days": 90}]),
     "§ 12 Z 1 SchBV", {"§ 12 Z 1 lit. c SchBV": ((), 90, 0)}),
    ("§ 12 Z 1 lit. c SchBV: Fahrzeit outside the programme does not replace the 90 days within it",
     variant("§ 12 Z 1 SchBV", programmes=[{"for": "Matrose", "months": 24, "sailing_days": 89}],
             sailing_days={"Decksmann": 360}),
     "§ 12 Z 1 SchBV", {"§ 12 Z 1 lit. c SchBV": ((), 90, 89)}),
    ("§ 12 Z 1 lit. b SchBV: a three-year Bootsleute programme is no programme for Matrosen",
     variant("§ 12 Z 1 SchBV", programmes=[{"for": "Bootsmann", "months": 36, "sailing_days": 270}]), "§ 12 Z 1 SchBV",
     {"§ 12 Z 1 lit. b SchBV": ((), 24, 0), "§ 12 Z 1 lit. c SchBV": ((), 90, 0)}),
    ("§ 13 Z 2 lit. a SchBV: a three-year Steuerleute programme is no programme for Bootsleute",
     variant("§ 13 Z 2 SchBV", programmes=[{"for": "Steuermann", "months": 36, "sailing_days": 360}]), "§ 13 Z 2 SchBV",
     {"§ 13 Z 2 lit. a SchBV": ((), 36, 0), "§ 13 Z 2 lit. b SchBV": ((), 270, 0)}),
    ("§ 15 Z 4 lit. b SchBV: an 18-month Steuerleute programme is no programme for Schiffsführer",
     variant("§ 15 Z 4 SchBV",
             programmes=[{"for": "Steuermann", "months": 18, "sailing_days": 180, "sailing_days_after": 180}]),
     "§ 15 Z 4 SchBV",
     {"§ 15 Z 4 lit. b SchBV": ((), 18, 0), "§ 15 Z 4 lit. c SchBV": ((0,), 180, 0)}),
    ("§ 15 Z 3 lit. b SchBV: programme Fahrzeit recorded only inside a programme is not plain Fahrzeit of 540 days",
     variant("§ 15 Z 3 SchBV", sailing_days=DROP,
             programmes=[{"for": "Schiffsfuehrer", "months": 12, "sailing_days": 540}]),
     "§ 15 Z 3 SchBV", {"§ 15 Z 3 lit. b SchBV": ((0,), 540, 0)}),
]


@pytest.mark.parametrize(
    ("record", "provision", "expected"),
    [case(cid, record, pw, expected) for cid, record, pw, expected in LITERAL_FAILS],
)
def test_literal_reading_makes_the_pathway_fail(record, provision, expected):
    answer = evaluate(record)
    pathway = pathway_result(answer, provision)
    assert pathway["satisfied"] is False
    assert missing_provisions(pathway) == set(expected)
    for litera, (path, needed, have) in expected.items():
        leaf = sub_entry(missing_entry(pathway, litera), path)
        assert leaf["met"] is False
        assert (same(leaf["needed"]), same(leaf["have"])) == (same(needed), same(have)), litera


# --------------------------------------------------------------------------------------------------------------
# 5. Roles a holder can fill
# --------------------------------------------------------------------------------------------------------------

ROLE_CASES = [
    case("Role hierarchy: the holder of the Bootsmann certificate can serve as Decksmann, Leichtmatrose, Matrose and "
         "Bootsmann but not as Steuermann",
         {"certificates": ["UBZ-Bootsmann"], "birth_date": "1990-01-01"}, ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann"]),
    case("Role hierarchy: a person who holds no certificate can fill no role, whatever Fahrzeit they have",
         {"sailing_days": {"Matrose": 1000}, "birth_date": "1990-01-01", "medical_fitness": True}, []),
    case("Role hierarchy: the holder of the Schiffsführer certificate can fill all six deck roles",
         {"certificates": ["UBZ-Schiffsfuehrer"], "birth_date": "1990-01-01"}, DECK_ROLES),
    case("Role hierarchy: the holder of the Decksmann certificate can serve only as Decksmann",
         {"certificates": ["UBZ-Decksmann"]}, ["Decksmann"]),
]


@pytest.mark.parametrize(("record", "expected"), ROLE_CASES)
def test_roles_follow_from_the_certificates_held(record, expected):
    roles = evaluate(record)["roles"]
    assert [r for r in roles if r in DECK_ROLES] == expected
    if "Steuermann" not in expected:
        assert "Steuermann" not in roles
        assert "Schiffsfuehrer" not in roles


def test_eligibility_is_not_holding():
    """§ 12 Z 2 SchBV: being eligible for the Matrose certificate does not yet let the applicant fill the role."""
    answer = evaluate(MINIMAL["§ 12 Z 2 SchBV"])
    assert certificate_result(answer, "UBZ-Matrose")["eligible"] is True
    assert answer["roles"] == []


# --------------------------------------------------------------------------------------------------------------
# 6. A batch does not leak facts between persons
# --------------------------------------------------------------------------------------------------------------

ELIGIBLE = MINIMAL["§ 12 Z 2 SchBV"] | {"certificates": ["UBZ-Schiffsfuehrer"]}
INELIGIBLE = {"birth_date": "2000-01-01", "sailing_days": {"Decksmann": 359}, "medical_fitness": True}


@pytest.mark.parametrize(
    "order",
    [pytest.param(("eligible", "ineligible"), id="Batch [eligible, ineligible]: each person gets their own answer"),
     pytest.param(("ineligible", "eligible"), id="Batch [ineligible, eligible]: each person gets their own answer")],
)
def test_batch_does_not_leak_facts_between_persons(order):
    records = {"eligible": ELIGIBLE, "ineligible": INELIGIBLE}
    persons = [person(records[name], pid=name) for name in order]
    answers = {a["person"]: a for a in check(law(), persons, AS_OF)}
    assert set(answers) == set(order)

    good = answers["eligible"]
    assert certificate_result(good, "UBZ-Matrose")["eligible"] is True
    assert pathway_result(good, "§ 12 Z 2 SchBV")["satisfied"] is True
    assert good["roles"] == [r for r in good["roles"] if r in DECK_ROLES] == DECK_ROLES

    bad = answers["ineligible"]
    assert certificate_result(bad, "UBZ-Matrose")["eligible"] is False
    pathway = pathway_result(bad, "§ 12 Z 2 SchBV")
    assert missing_provisions(pathway) == {"§ 12 Z 2 lit. b SchBV", "§ 12 Z 2 lit. c SchBV"}
    exam = missing_entry(pathway, "§ 12 Z 2 lit. b SchBV")
    assert (same(exam["needed"]), same(exam["have"])) == (["Anlage8"], [])
    fahrzeit = sub_entry(missing_entry(pathway, "§ 12 Z 2 lit. c SchBV"), (0,))
    assert (fahrzeit["needed"], fahrzeit["have"]) == (360, 359)
    assert bad["roles"] == []


def test_successive_evaluations_do_not_leak_facts():
    """§ 12 Z 2 SchBV: an eligible applicant evaluated first leaves nothing behind for the next evaluation."""
    first = evaluate(ELIGIBLE)
    assert certificate_result(first, "UBZ-Matrose")["eligible"] is True
    second = evaluate(INELIGIBLE | {"exams": ["Anlage11"]})
    assert certificate_result(second, "UBZ-Matrose")["eligible"] is False
    assert second["roles"] == []
    fahrzeit = sub_entry(missing_entry(pathway_result(second, "§ 12 Z 2 SchBV"), "§ 12 Z 2 lit. c SchBV"), (0,))
    assert fahrzeit["have"] == 359


def test_a_batch_of_all_minimal_applicants_answers_as_each_alone():
    """§§ 10–15 SchBV: evaluated together, the fourteen minimal applicants get exactly the answers they get alone."""
    names = {provision: f"p{index}" for index, provision in enumerate(MINIMAL)}
    batch = [person(MINIMAL[provision], pid=names[provision]) for provision in MINIMAL]
    together = {a["person"]: a for a in check(law(), batch, AS_OF)}
    for provision, record in MINIMAL.items():
        alone = check(law(), [person(record, pid=names[provision])], AS_OF)[0]
        assert together[names[provision]] == alone, provision
        assert satisfied_pathways(alone) == {provision} | ALSO_SATISFIED.get(provision, set())


# § 902 ABGB: born on 29 February, a year of life is completed at the end of 28 February in common years; the age
# counts from 1 March (issue 13, legal correction 3).
def test_born_on_29_february_is_18_from_1_march_in_a_common_year():
    from datetime import date

    from crewkg.rules.eligibility import birthday, completed_years

    born = date(2008, 2, 29)
    assert completed_years(born, date(2026, 2, 28)) == 17
    assert completed_years(born, date(2026, 3, 1)) == 18
    assert birthday(born, 18) == date(2026, 3, 1)
    assert completed_years(born, date(2028, 2, 28)) == 19 and completed_years(born, date(2028, 2, 29)) == 20
    law = load_law()
    answer = check(law, [person_from_mapping({"id": "leap", "birth_date": "2008-02-29", "medical_fitness": True},
                                             law, date(2026, 2, 28), "t")], date(2026, 2, 28))[0]

    def age_met(a):
        deck = next(c for c in a["certificates"] if c["id"] == "UBZ-Decksmann")
        return [r["met"] for w in deck["pathways"] for r in w["requirements"] if r["kind"] == "MinimumAge"]

    assert age_met(answer) == [False]
    answer = check(law, [person_from_mapping({"id": "leap", "birth_date": "2008-02-29", "medical_fitness": True},
                                             law, date(2026, 3, 1), "t")], date(2026, 3, 1))[0]
    assert age_met(answer) == [True]
