"""Which certificates concern a person (answers/relevance.py): the summary's rule, and `reach`, the same rule without
a planner run, which the compact derivation graph applies to every person of a register. Every certificate the
summary names concerns the person by `reach` too, and the compact answer holds each next step with a pathway."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

import pytest

from crewkg.answers import relevance
from crewkg.answers.eligibility import check
from crewkg.answers.register import satisfied_pathways
from crewkg.careers.summary import summarise
from crewkg.records.load import load_persons
from crewkg.records.persons import person_from_mapping
from crewkg.rules.validity import held

AS_OF = date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("synthetic", ROOT / "benchmarks" / "synthetic.py")
synthetic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synthetic)


@pytest.fixture(scope="module")
def answered(law):
    persons = load_persons(ROOT / "kb" / "examples" / "persons", law, AS_OF)
    persons += [person_from_mapping(r, law, AS_OF, "synthetic") for r in synthetic.persons(60, seed=7)]
    answers = check(law, persons, AS_OF, "en")
    summarise(law, persons, answers, AS_OF, "en")
    return persons, answers


def _line(answer) -> dict:
    """The register line of an answer (answers.register.compact's form)."""
    return {"eligible": {c["id"]: [w["provision"] for w in c["pathways"] if w["satisfied"]]
                         for c in answer["certificates"] if c.get("eligible")}, "roles": answer["roles"]}


def test_every_certificate_the_summary_names_concerns_the_person_by_reach_too(law, answered):
    for p, a in zip(*answered, strict=True):
        r = relevance.reach(law, p, AS_OF, satisfied_pathways(law, _line(a)), a["roles"])
        missing = relevance.concerned(a) - set(r.pathways)
        assert not missing, (p.id, missing)
        for step in a["summary"]["next_steps"]:  # a next step up is a candidate whose closest pathways are kept
            if step["actions"] and step["actions"][0]["kind"] == "renew_medical":
                continue
            assert step["certificate"] in r.closest and r.pathways[step["certificate"]], (p.id, step["certificate"])


def test_the_summary_plans_among_the_candidates_relevance_names(law, answered):
    """One home of the rule: the summary's candidates are relevance.candidates."""
    from crewkg.careers.summary import _candidates

    for p, a in zip(*answered, strict=True):
        counting = set(held(p, AS_OF, law))
        renewable = [x["certificate"] for x in a.get("lapsed", []) if x["reason"] == relevance.MEDICAL_LAPSE]
        eligible = [c["id"] for c in a["certificates"] if c.get("eligible")]
        assert _candidates(law, p, a, AS_OF, counting) == relevance.candidates(law, p, AS_OF, eligible, a["roles"],
                                                                               counting, renewable)
        assert all(s["certificate"] in _candidates(law, p, a, AS_OF, counting) or s["actions"][0]["kind"] == "renew_medical"
                   for s in a["summary"]["next_steps"]), p.id


def test_of_a_next_step_the_closest_pathway_and_every_near_miss_are_kept(law):
    """A holder of the UBZ Matrose with 100 days as Matrose: of the UBZ Bootsmann (the next step) § 13 Z 1 SchBV lacks
    only the days and is kept, § 13 Z 2 (three requirements short) is not; a step whose pathways all lack more than one
    keeps the one that the fewest days hold up."""
    record = {"id": "mia", "birth_date": "1995-04-02", "medical_fitness": True, "radio_certificate": True,
              "certificates": ["UBZ-Matrose"], "exams": ["Anlage8"], "sailing_days": {"Decksmann": 400, "Matrose": 100}}
    p = person_from_mapping(record, law, AS_OF, "test")
    a = check(law, [p], AS_OF, "en")[0]
    r = relevance.reach(law, p, AS_OF, satisfied_pathways(law, _line(a)), a["roles"])
    # the answer's entries with the pathways that concern her (answers.eligibility.concerned_answer builds only those)
    entries = {c["id"]: {**c, "pathways": [w for w in c["pathways"] if w["id"] in r.pathways.get(c["id"], [])]}
               for c in a["certificates"]}
    kept = {c: [w["id"] for w in relevance.trimmed(r, entries[c])["pathways"]] for c in r.closest}
    assert kept["UBZ-Bootsmann"] == ["Pathway-SchBV2022-P13-Z1"]
    assert all(len(ws) >= 1 for ws in kept.values())
    for c, ws in kept.items():
        fewest = min(len(w["missing"]) for w in entries[c]["pathways"])
        assert all(len(w["missing"]) == fewest for w in entries[c]["pathways"] if w["id"] in ws), c
        assert len(ws) == 1 or fewest == relevance.NEAR_MISS, c
