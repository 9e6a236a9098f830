"""Casebook for SchBV 2022 §§ 10–15 (Unionsbefähigungszeugnisse): what does not read clearly as a YAML case.

The threshold cases themselves — one minimal applicant per pathway, each litera missed by the smallest margin and met
exactly at its threshold, the alternatives inside one litera and the literal readings — are YAML cases in
tests/cases/schbv2022_10-15.yaml and tests/cases/schbv2022_10-15_lesarten.yaml (run by tests/test_casebook_yaml.py
and by `crewkg test tests/cases/`). Here remain the cases that compare whole answers, walk into their structure,
evaluate batches or order the roles. The law's wording is quoted in kb/schbv2022/02_unionsbefaehigungszeugnisse.ttl.

List values in the answer (exams, accepted certificates) are compared without regard to order.
"""

from __future__ import annotations

import copy
from datetime import date, timedelta
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.api import law
from crewkg.law.statute import load_law
from crewkg.records.persons import Person, person_from_mapping

AS_OF = date(2026, 11, 30)
DAY = timedelta(days=1)
DROP = object()  # in `variant`: remove the key from the record

# An applicant born on 15 June 2004 completes the 18th year on 15 June 2022.
BORN_18 = "2004-06-15"
BIRTHDAY = date(2022, 6, 15)
EVE_OF_BIRTHDAY = BIRTHDAY - DAY


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


DECK_ROLES = ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann", "Schiffsfuehrer"]


# --------------------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------------------


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


def test_every_encoded_pathway_has_a_minimal_applicant_in_this_casebook():
    """§§ 10–15 SchBV: the casebook covers every pathway the kb encodes for the Unionsbefähigungszeugnisse."""
    encoded = {law().citation(w.provision) for w in law().pathways.values()
               if law().certificates[w.certificate].regulation == "SchBV2022" and not law().certificates[w.certificate].national
               and not w.replacement}
    assert encoded == set(MINIMAL)


# --------------------------------------------------------------------------------------------------------------
# 2. Each litera fails by the smallest margin
# --------------------------------------------------------------------------------------------------------------


def test_age_entry_states_the_completed_years_and_the_day_they_are_reached():
    """§ 12 Z 2 lit. a SchBV: the day before the 18th birthday the answer says 17 years and when 18 is reached."""
    record = variant("§ 12 Z 2 SchBV", birth_date=BORN_18)
    entry = missing_entry(pathway_result(evaluate(record, EVE_OF_BIRTHDAY), "§ 12 Z 2 SchBV"), "§ 12 Z 2 lit. a SchBV")
    assert entry["reached_on"] == BIRTHDAY.isoformat()
    assert entry["unit"] == "years"


# --------------------------------------------------------------------------------------------------------------
# 3. Alternatives inside one litera
# --------------------------------------------------------------------------------------------------------------


def test_alternatives_report_each_threshold_separately():
    """§ 12 Z 2 lit. c SchBV: with 180 days and 249 deck sea days the answer shows 360/180, 180/180 and 250/249."""
    record = variant("§ 12 Z 2 SchBV", sailing_days={"Decksmann": 180}, sea_days={"deck_crew": 249})
    entry = missing_entry(pathway_result(evaluate(record), "§ 12 Z 2 SchBV"), "§ 12 Z 2 lit. c SchBV")
    first, second = entry["alternatives"]
    # none is met: the litera says the gap in the figures of the first alternative counted in days
    assert (entry["needed"], entry["have"], entry["unit"], entry["figures_of"]) == (360, 180, "days", first["id"])
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


def test_no_age_requirement_is_listed_for_a_pathway_that_names_none():
    """§ 12 Z 3 and § 15 Z 4 SchBV: their literae contain no minimum-age requirement at all."""
    answer = evaluate(MINIMAL["§ 12 Z 3 SchBV"] | {"exams": ["Anlage8"]})
    for provision in ("§ 12 Z 3 SchBV", "§ 15 Z 4 SchBV", "§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"):
        kinds = {r["kind"] for r in pathway_result(answer, provision)["requirements"]}
        assert "MinimumAge" not in kinds, provision
    for provision in ("§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"):
        documents = {r.get("document") for r in pathway_result(answer, provision)["requirements"]}
        assert "MedicalFitness" not in documents, provision


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
        return [r["met"] for w in deck["pathways"] if w["provision"] == "§ 10 SchBV" for r in w["requirements"]
                if r["kind"] == "MinimumAge"]

    assert age_met(answer) == [False]
    answer = check(law, [person_from_mapping({"id": "leap", "birth_date": "2008-02-29", "medical_fitness": True},
                                             law, date(2026, 3, 1), "t")], date(2026, 3, 1))[0]
    assert age_met(answer) == [True]


def test_a_folder_of_cases_reads_its_sub_folders_but_not_hidden_ones(tmp_path):
    """A casebook folder may be organised in sub-folders; a hidden one (an editor's or a tool's) holds no cases: a stray
    YAML file there stopped the whole run."""
    from crewkg.casebook import case_files

    (tmp_path / "a.yaml").write_text("[]\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yml").write_text("[]\n", encoding="utf-8")
    (tmp_path / ".aux").mkdir()
    (tmp_path / ".aux" / "vessel.yaml").write_text("id: v\n", encoding="utf-8")
    assert [f.relative_to(tmp_path).as_posix() for f in case_files([tmp_path])] == ["a.yaml", "sub/b.yml"]
