"""One reading of the law: the planner's "issuable now" is `check`'s verdict, for every certificate of 1 000
generated persons (issue 9; 500 under the default hypothesis profile, tests/conftest.py). The planner projects requirements forward per kind (`crewkg.rules.kinds`); what it
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


def test_the_planners_issuable_now_is_checks_verdict_for_every_certificate(sized):
    law = load_law()
    pace = Pace.from_kb()
    n = sized(N)
    persons = [person_from_mapping(r, law, AS_OF, "synthetic") for r in synthetic.persons(n, seed=11)]
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
    assert compared >= n * 5
    assert eligible_seen > n // 10, "the generated persons must include many who can be issued a certificate today"
    assert disagreements == 0, wrong[:10]


def test_a_new_programme_ends_on_the_day_check_counts_its_months_complete():
    """A programme the plan starts on the evaluation day and a dated programme of the same days agree: 24 months from
    2026-07-01 are complete on 2028-06-30 (its last day), not on 2028-07-01."""
    from datetime import date

    from crewkg.answers.eligibility import check
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping

    law = load_law()
    on = date(2026, 7, 1)
    record = {"id": "p", "birth_date": "2000-01-01", "medical_fitness": True}
    person = person_from_mapping(record, law, on, "t")
    result = plan(law, person, check(law, [person], on)[0], "UBZ-Matrose", on, Pace.from_kb())
    z1 = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 12 Z 1 SchBV"])
    prog = next(i for i in z1["steps"][0]["remaining"] if i["kind"] == "Programme")
    assert prog["met_on"] == "2028-06-30"

    def eligible(day: str) -> bool:
        d = date.fromisoformat(day)
        dated = person_from_mapping(record | {"service": [{"from": "2026-07-01", "to": "2026-09-28", "role": "Decksmann"}],
                                              "programmes": [{"for": "Matrose", "from": "2026-07-01", "to": "2028-06-30"}]},
                                    law, d, "t")
        c = next(c for c in check(law, [dated], d)[0]["certificates"] if c["id"] == "UBZ-Matrose")
        return any(w["satisfied"] for w in c["pathways"] if w["provision"] == "§ 12 Z 1 SchBV")

    assert eligible("2028-06-30") and not eligible("2028-06-29")
