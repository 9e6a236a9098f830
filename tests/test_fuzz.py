"""Fuzzing every record kind: whatever a record holds, the answer is an answer or one InputError naming what was
expected — never another exception (a traceback at the CLI, a 500 at the API). And the monotonicity of the law as
encoded: more days, sea days, exams or a higher certificate never lose a certificate that was issuable.

Derandomized, so every run tries the same cases: the `dev` profile (the default) a few per test, `--hypothesis-profile=ci`
as many as CI always ran, `--hypothesis-profile=deep` a long search (profiles: tests/conftest.py)."""

import json
from datetime import date
from functools import cache

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from crewkg.answers.eligibility import check
from crewkg.careers.programmes import check_programme, programme_from_mapping
from crewkg.errors import InputError
from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping
from crewkg.records.persons import TOP_KEYS, person_from_mapping
from crewkg.records.reading import parse_mapping

LAW = load_law()
ML = load_manning(LAW)
AS_OF = date(2026, 11, 30)
ROLES = LAW.ids_of("DeckCrewRole")
CERTS = sorted(LAW.certificates)
EXAMS = LAW.ids_of("Exam")


@cache
def listed() -> set[str]:
    """Every certificate the regulation in force lists, eligible or not, whatever the record says."""
    return {c["id"] for c in check(LAW, [person_from_mapping({"id": "x"}, LAW, AS_OF, "x")], AS_OF)[0]["certificates"]}


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10_000), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(ROLES + CERTS + EXAMS + ["2001-02-30", "1990-01-01", "2099-01-01", "x\n", ""]),
    st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 1, 1)).map(date.isoformat),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.one_of(st.text(max_size=8), st.sampled_from(ROLES + ["deck_crew", "master", "for", "months", "valid_until"])), inner,
    max_size=4), max_leaves=12)


def _mapping(keys):
    return st.dictionaries(st.one_of(st.sampled_from(sorted(keys)), st.text(max_size=6)), values, max_size=len(keys) + 1)


person_like = st.builds(lambda d, pid: {**d, "id": pid},
                        _mapping(TOP_KEYS), st.one_of(st.sampled_from(["anna", "b-2", "x_y"]), values))


def _only_input_errors(fn, *args):
    try:
        return fn(*args)
    except InputError as exc:
        assert exc.message().startswith(exc.file + ": ") if exc.file else True
        return None


@given(person_like, st.sampled_from(["yaml", "json"]))
def test_person_records(data, syntax):
    try:
        text = yaml.safe_dump(data, allow_unicode=True) if syntax == "yaml" else json.dumps(data, allow_nan=True)
    except (ValueError, yaml.YAMLError):
        return
    parsed = _only_input_errors(parse_mapping, text, "fuzz", syntax == "json")
    if parsed is None:
        return
    person = _only_input_errors(person_from_mapping, parsed, LAW, AS_OF, "fuzz")
    if person is not None:
        answer = check(LAW, [person], AS_OF)[0]
        assert {c["id"] for c in answer["certificates"]} == listed()


VESSEL_KEYS = {"id", "kind", "waters", "length_m", "breadth_m", "passengers", "passengers_on_board", "beds", "standard",
               "engine_kw", "lng", "mooring_system", "convoy"}
vessel_like = st.builds(lambda d, kind: {**d, "kind": kind}, _mapping(VESSEL_KEYS),
                        st.one_of(st.sampled_from(["motor_vessel", "pusher", "pushed_convoy", "coupled_convoy",
                                                   "day_trip_passenger", "cabin_passenger"]), values))


@given(vessel_like)
def test_vessel_records(data):
    from crewkg.manning.crew import crew_answer

    vessel = _only_input_errors(vessel_from_mapping, data, ML, "fuzz")
    if vessel is not None:
        for day in (AS_OF, date(2015, 6, 1)):
            answer = _only_input_errors(crew_answer, LAW, ML, vessel, day)
            assert answer is None or "covered" in answer or "alternatives" in answer


@given(st.one_of(values, st.builds(lambda crew: {"crew": crew}, st.lists(person_like, max_size=3))))
def test_roster_records(data):
    _only_input_errors(roster_from_mapping, data, LAW, AS_OF, "fuzz")


PROGRAMME_KEYS = {"id", "title", "for", "months", "sailing_days", "sailing_days_after", "entry"}


@given(_mapping(PROGRAMME_KEYS))
def test_programme_records(data):
    design = _only_input_errors(programme_from_mapping, data, LAW, "fuzz")
    if design is not None:
        _only_input_errors(check_programme, LAW, design, AS_OF)


@given(st.lists(st.lists(st.one_of(st.text(max_size=8), st.sampled_from(["true", "false", "1", "-1", "2001-02-30"])),
                         min_size=1, max_size=6), min_size=1, max_size=4))
def test_cohort_files(tmp_path_factory, rows):
    from crewkg.careers.cohorts import load_cohort

    path = tmp_path_factory.mktemp("cohort") / "c.csv"
    header = "id,birth_date,medical_fitness,sailing_days.Matrose,exams,certificates\n"
    path.write_text(header + "".join(",".join(c.replace(",", " ").replace("\n", " ") for c in r) + "\n" for r in rows))
    trainees = _only_input_errors(load_cohort, path, LAW, AS_OF)
    assert trainees is None or all(t.person is not None or t.error for t in trainees)


# ---- monotonicity: more evidence never loses an issuable certificate -----------------------------------------
base_person = st.fixed_dictionaries({
    "id": st.just("m"),
    "birth_date": st.dates(min_value=date(1950, 1, 1), max_value=date(2012, 1, 1)).map(date.isoformat),
    "medical_fitness": st.booleans(), "radio_certificate": st.booleans(),
    "sailing_days": st.dictionaries(st.sampled_from(ROLES), st.integers(0, 1500), max_size=4),
    "sea_days": st.dictionaries(st.sampled_from(["deck_crew", "master"]), st.integers(0, 800), max_size=2),
    "exams": st.lists(st.sampled_from(EXAMS), unique=True, max_size=3),
    "certificates": st.lists(st.sampled_from(CERTS), unique=True, max_size=2),
})


def _eligible(data) -> set[str]:
    p = person_from_mapping(data, LAW, AS_OF, "m")
    return {c["id"] for c in check(LAW, [p], AS_OF)[0]["certificates"] if c["eligible"]}


@given(base_person, st.sampled_from(ROLES), st.integers(1, 400))
def test_more_sailing_days_never_lose_an_answer(data, role, more):
    richer = {**data, "sailing_days": {**data["sailing_days"], role: data["sailing_days"].get(role, 0) + more}}
    assert _eligible(data) <= _eligible(richer)


@given(base_person, st.sampled_from(["deck_crew", "master"]), st.integers(1, 400))
def test_more_sea_days_never_lose_an_answer(data, capacity, more):
    richer = {**data, "sea_days": {**data["sea_days"], capacity: data["sea_days"].get(capacity, 0) + more}}
    assert _eligible(data) <= _eligible(richer)


@given(base_person, st.sampled_from(EXAMS))
def test_another_exam_never_loses_an_answer(data, exam):
    richer = {**data, "exams": sorted(set(data["exams"]) | {exam})}
    assert _eligible(data) <= _eligible(richer)


@given(base_person, st.sampled_from(CERTS))
def test_another_certificate_never_loses_an_answer(data, cert):
    richer = {**data, "certificates": sorted(set(data["certificates"]) | {cert})}
    assert _eligible(data) <= _eligible(richer)


def test_the_fuzzers_can_fail():
    """The property helper lets only InputError through: anything else is a failure."""
    with pytest.raises(ZeroDivisionError):
        _only_input_errors(lambda: 1 / 0)
