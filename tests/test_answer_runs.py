"""The Datalog runs a new answer makes (issue 44, a new answer's CPU) decide as the whole program does: the check over
the pathways an answer on its date reads (`rules.eligibility.derive_answered`), the runs over a few pathways that
evaluate each signature once and remember its outcome (`satisfied_pathways`)."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from crewkg.law.statute import load_law
from crewkg.records.load import load_persons
from crewkg.records.persons import person_from_mapping
from crewkg.rules import eligibility

AS_OF = date(2026, 11, 30)
P12_Z2 = "Pathway-SchBV2022-P12-Z2"
P10 = "Pathway-SchBV2022-P10"
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"


@pytest.fixture(scope="module")
def law():
    return load_law()


def deckhand(law, pid: str, days: int):
    """§ 12 Z 2 SchBV: an adult with the Anlage 8 exam, medical fitness and `days` days of Fahrzeit as Decksmann."""
    return person_from_mapping({"id": pid, "birth_date": "2000-01-01", "exams": ["Anlage8"], "medical_fitness": True,
                                "sailing_days": {"Decksmann": days}}, law, AS_OF, pid)


def test_a_pathway_run_says_yes_on_the_day_and_no_the_day_before_also_when_it_remembers(law):
    """§ 12 Z 2 lit. c SchBV asks 360 days: 359 do not satisfy it, 360 do — asked fresh, then again (the outcome
    remembered), and for other records alike (361 and 400 days, 300 and 358: the same side of every minimum the
    pathway names), under other ids, in another batch."""
    chosen = frozenset({P12_Z2})
    law.__dict__.pop("_satisfied_outcomes", None)
    first = [(deckhand(law, "a", 359), AS_OF), (deckhand(law, "b", 360), AS_OF)]
    assert eligibility.satisfied_pathways(first, law, chosen) == {("b", P12_Z2)}
    assert eligibility.satisfied_pathways(first, law, chosen) == {("b", P12_Z2)}  # remembered
    alike = [(deckhand(law, n, d), AS_OF) for n, d in (("c", 361), ("d", 358), ("e", 400), ("f", 300))]
    assert eligibility.satisfied_pathways(alike, law, chosen) == {("c", P12_Z2), ("e", P12_Z2)}
    # the whole program, fresh, agrees
    whole = eligibility.derive([p for p, _ in first + alike], law, AS_OF)
    assert {x for x in whole.satisfied if x[1] == P12_Z2} == {("b", P12_Z2), ("c", P12_Z2), ("e", P12_Z2)}


def test_outcomes_are_remembered_per_pathways_asked(law):
    """The same record asked about another pathway is evaluated for that one (§ 10 SchBV: no Fahrzeit asked)."""
    record = [(deckhand(law, "g", 359), AS_OF)]
    assert eligibility.satisfied_pathways(record, law, frozenset({P12_Z2})) == set()
    assert eligibility.satisfied_pathways(record, law, frozenset({P10})) == {("g", P10)}
    assert eligibility.satisfied_pathways(record, law, frozenset({P10, P12_Z2})) == {("g", P10)}


def test_the_answered_pathways_derive_what_the_whole_program_derives_for_them(law):
    """Every example person: what the check reads (requirements met and had, pathways, certificates, roles) is the
    whole program's for every pathway an answer on the date lists; the pathways of the SchBesV 2004 that no answer
    under the SchBV 2022 lists are not asked."""
    persons = [p for f in sorted(EXAMPLES.iterdir()) for p in load_persons(f, law, AS_OF)]
    persons = [dataclasses.replace(p, id=f"{p.id}-{i}") for i, p in enumerate(persons)]
    answered, whole = eligibility.derive_answered(persons, law, AS_OF), eligibility.derive(persons, law, AS_OF)
    kept = eligibility.register_pathways(law, AS_OF)
    assert "Pathway-SchBesV2004-P4-Abs2-Z1" not in kept and P12_Z2 in kept
    requirements = set(eligibility._requirement_ids(law, [r for w in kept for r in law.pathways[w].requirements]))
    assert answered.satisfied == {x for x in whole.satisfied if x[1] in kept}
    assert answered.met == {x for x in whole.met if x[1] in requirements}
    assert {k: sorted(v) for k, v in answered.have.items()} == {
        k: sorted(v) for k, v in whole.have.items() if k[1] in requirements}
    for name in ("can_fill", "reached", "too_young", "by_proof"):
        assert getattr(answered, name) == getattr(whole, name), name
    certificates = {law.pathways[w].certificate for w in kept}
    assert answered.eligible == {x for x in whole.eligible if x[1] in certificates}


def test_the_services_answers_plan_from_the_checks_own_run(law, monkeypatch):
    """The service's workers have `check` evaluate the records the summary plans from in its own run
    (`answers.eligibility.planning_in_check`): the answers and their summaries are the same as planned apart. Sofia's
    183 days of 2026 are not yet validated, so she is a Decksfrau only (§ 12 Z 2 lit. c SchBV: 360 days credited),
    and her next step asks that they be validated."""
    from crewkg.answers import eligibility as answers
    from crewkg.careers.summary import summarise

    persons = [p for name in ("23-sofia-awaiting-validation.yaml", "20-franz-schifferdienstbuch.yaml",
                              "anna-matrose.yaml") for p in load_persons(EXAMPLES / name, law, AS_OF)]
    apart = answers.check(law, persons, AS_OF, "de")
    assert not hasattr(apart, "planning")
    summarise(law, persons, apart, AS_OF, "de")
    monkeypatch.setattr(answers, "_PLANNING_IN_CHECK", [True])
    together = answers.check(law, persons, AS_OF, "de")
    assert together.planning is not None
    summarise(law, persons, together, AS_OF, "de")
    assert together == apart
    sofia = together[0]
    assert [c["id"] for c in sofia["certificates"] if c["eligible"]] == ["UBZ-Decksmann"]
    assert any(a["kind"] == "validate_days" for s in sofia["summary"]["next_steps"] for a in s["actions"])
