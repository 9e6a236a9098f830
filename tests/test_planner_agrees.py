"""One reading of the law: the planner's "issuable now" is `check`'s verdict, for every certificate of 1 000
generated persons (issue 9). The planner projects requirements forward per kind (`crewkg.rules.kinds`); what it
says of today must be what the Datalog program says."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

from crewkg.answers.eligibility import check
from crewkg.careers.planning import Pace, make_planner, step
from crewkg.law.statute import load_law
from crewkg.records.persons import person_from_mapping

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("synthetic", ROOT / "benchmarks" / "synthetic.py")
synthetic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synthetic)

AS_OF = date(2026, 11, 30)
N = 1000


def _issuable_now(planner, law, certificate: str) -> bool:
    """The planner's verdict: one of the certificate's pathways completes on the evaluation date with nothing left."""
    for w in law.certificates[certificate].pathways:
        res = step(planner.ctx, planner.start, w)
        if res.earliest == 0 and not res.remaining:
            return True
    return False


def test_the_planners_issuable_now_is_checks_verdict_for_every_certificate():
    law = load_law()
    pace = Pace.from_kb()
    persons = [person_from_mapping(r, law, AS_OF, "synthetic") for r in synthetic.persons(N, seed=11)]
    answers = check(law, persons, AS_OF, "en")
    compared = disagreements = 0
    eligible_seen = 0
    wrong = []
    for p, answer in zip(persons, answers, strict=True):
        planner = make_planner(law, p, answer, AS_OF, pace)
        for c in answer["certificates"]:
            if not c["covered"]:
                continue
            compared += 1
            eligible_seen += bool(c["eligible"])
            if _issuable_now(planner, law, c["id"]) != c["eligible"]:
                disagreements += 1
                wrong.append((p.id, c["id"], c["eligible"]))
    assert compared >= N * 5
    assert eligible_seen > 100, "the generated persons must include many who can be issued a certificate today"
    assert disagreements == 0, wrong[:10]
