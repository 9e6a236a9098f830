"""The example person records in kb/examples/persons/: each one loads, conforms to the SHACL shapes, and
gets the answer its header comment promises on 2026-11-30; the folder as a whole gives the JSON list
the design promises (design.md, 'Eligibility answer').

11-eva-boatmaster-by-exam.json cannot carry a comment (JSON has none, and the schema rejects unknown keys),
so its story is told here: Eva Schneider, 36, Bootsfrau with 300 days as Matrosin and 260 as Bootsfrau,
passed the exams of Anlagen 8, 9, 10 and 11, holds a Sprechfunkzeugnis. On 2026-11-30 crewkg answers:
UBZ-Schiffsfuehrer via § 15 Z 3 SchBV (540 days and the full exam) — § 15 Z 2 fails only on lit. b because
she does not hold the Steuermann certificate; UBZ-Steuermann via § 14 Z 1; roles up to Bootsmann.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.errors import InputError
from crewkg.records.persons import SUFFIXES, person_from_mapping
from crewkg.records.reading import read_mapping
from crewkg.records.shacl import shacl_check
from crewkg.records.turtle import person_from_turtle, person_graph

pytestmark = pytest.mark.xdist_group("test_examples")  # its module fixtures are made once, on one worker

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
AS_OF = date(2026, 11, 30)
FILES = sorted(p for p in EXAMPLES.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)

CERTIFICATES = [
    "UBZ-Decksmann", "UBZ-Leichtmatrose", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann", "UBZ-Schiffsfuehrer",
    "UBZ-SachkundigerFahrgastschifffahrt", "UBZ-SachkundigerLNG", "Berechtigung-Besondere-Risiken", "Berechtigung-Maritim",
    # the national certificates of §§ 28–29 SchBV, after the UBZ in statute order
    "Decksmann-AT", "SchBV2022-Maschinist", "SchBV2022-Fahrgastbetreuer", "SchBV2022-FahrgastErsthelfer",
    "SchBV2022-Atemschutzgeraetetraeger",
    # the national patents § 47 Abs. 7, 8 and 13 Z 1 SchBV replace old ones with
    "Schiffsfuehrerpatent-AT", "Streckenzeugnis-AT", "Kapitaenspatent-SeenUndFluesse",
    # and the national Schiffsführerpatente – 20 m and – 10 m of § 47 Abs. 13 Z 2–14 SchBV
    "Schiffsfuehrerpatent-20m", "Schiffsfuehrerpatent-20m-Wasserstrassen", "Schiffsfuehrerpatent-20m-AndereGewaesser",
    "Schiffsfuehrerpatent-20m-15m", "Schiffsfuehrerpatent-20m-Wasserstrassen-15m", "Schiffsfuehrerpatent-20m-AndereGewaesser-15m",
    "Schiffsfuehrerpatent-10m", "Schiffsfuehrerpatent-10m-Wasserstrassen", "Schiffsfuehrerpatent-10m-AndereGewaesser",
]
D, L, M, B, S, SF = "Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann", "Schiffsfuehrer"


@pytest.fixture(scope="module", autouse=True)
def _fresh_cache(tmp_path_factory):
    """Own cache folder: no SHACL 'already valid' marker or compiled law from another run hides anything."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CREWKG_CACHE", str(tmp_path_factory.mktemp("crewkg-cache")))
        yield


def _parse(path: Path, law):
    """Schema check only (plus SHACL for Turtle, which the reader does itself)."""
    if path.suffix.lower() == ".ttl":
        return person_from_turtle(path, law, AS_OF)
    return person_from_mapping(read_mapping(path), law, AS_OF, str(path))


@pytest.fixture(scope="module")
def answers(law) -> dict[str, dict]:
    """One evaluation of all examples through the library (file name -> answer)."""
    persons = [_parse(p, law) for p in FILES]
    return {p.name: a for p, a in zip(FILES, check(law, persons, AS_OF), strict=True)}


# ------------------------------------------------------------------------------------------------------
# The stories: what each header comment promises
# ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    person: str
    eligible: set[str]
    roles: list[str]
    satisfied: tuple[str, ...] = ()  # pathway provisions that must be satisfied
    #: pathway provision -> the exact missing list as (provision, needed, have); exam lists compare as sets
    missing: dict[str, list[tuple]] = field(default_factory=dict)
    #: requirement id (at any depth) -> (met, have)
    requirements: dict[str, tuple] = field(default_factory=dict)


THIRD = ["ThirdCountry-Steuermann", "UBZ-Steuermann"]
OUTCOMES: dict[str, Outcome] = {
    # dated records (a service log): the Fahrzeit is credited under § 6 Abs. 4 SchBV on the evaluation date
    "20-franz-schifferdienstbuch.yaml": Outcome(
        "franz-huber", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann"}, [D, L, M], ("§ 12 Z 2 SchBV", "§ 13 Z 1 SchBV"),
        requirements={"Req-SchBV2022-P13-Z1": (True, 360)}),
    "21-ines-sea-to-inland.yaml": Outcome(
        "ines-kovac", {"UBZ-Decksmann", "UBZ-Matrose"}, [], ("§ 12 Z 2 SchBV",)),
    "22-david-programme-trainee.yaml": Outcome(
        "david-novak", {"UBZ-Decksmann", "UBZ-Matrose"}, [], ("§ 12 Z 1 SchBV",),
        requirements={"Req-SchBV2022-P12-Z1-b": (True, 24), "Req-SchBV2022-P12-Z1-c": (True, 244)}),
    "23-sofia-awaiting-validation.yaml": Outcome(
        "sofia-berger", {"UBZ-Decksmann"}, [], ("§ 10 SchBV",)),
    # SchBesV 2004 qualifications held on 2026-11-30: they fill their roles until 17 Jan 2032 (§ 47 Abs. 2 SchBV)
    "30-karl-matrose-2010.yaml": Outcome(
        "karl-wimmer", set(), [D], missing={"§ 10 SchBV": [("§ 10 Z 3 SchBV", True, False)]}),
    # a legacy holder applying: the identical UBZ and the Fahrzeit route of § 47 Abs. 4 Z 1 SchBV, not yet Z 2
    "31-rosa-legacy-matrose.yaml": Outcome(
        "rosa-lechner", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann"}, [D, L, M],
        ("§ 47 Abs. 4 Z 1 SchBV", "§ 13 Z 1 SchBV"),
        missing={"§ 47 Abs. 4 Z 2 SchBV": [("§ 47 Abs. 4 Z 2 SchBV", 900, 720)]}),
    # § 22 Abs. 1 SchBV: at 70 her proof of 2024 is overdue, so her UBZ Schiffsführer gives no role and the medical
    # requirement of § 10 Z 3 is not met either
    "32-helga-boatmaster-at-70.yaml": Outcome(
        "helga-berger", set(), [], missing={"§ 10 SchBV": [("§ 10 Z 2 SchBV", 180, 0), ("§ 10 Z 3 SchBV", True, False)]}),
    "01-lena-apprentice.yaml": Outcome(
        "lena-gruber", {"UBZ-Leichtmatrose"}, [], ("§ 11 SchBV",),
        missing={"§ 10 SchBV": [("§ 10 Z 1 SchBV", 18, 16), ("§ 10 Z 2 SchBV", 180, 45)]},
        requirements={"Req-SchBV2022-P11-Z1": (True, 16), "Req-SchBV2022-P11-Z2": (True, True)}),
    "02-piotr-sea-deckhand.yaml": Outcome(
        "piotr-nowak", {"UBZ-Decksmann", "UBZ-Matrose"}, [D], ("§ 10 SchBV", "§ 12 Z 2 SchBV"),
        missing={"§ 12 Z 3 SchBV": [("§ 12 Z 3 lit. a SchBV", 5, 0), ("§ 12 Z 3 lit. b SchBV", 9, 0),
                                    ("§ 12 Z 3 lit. c SchBV", 90, 0)]},
        requirements={"Req-SchBV2022-P12-Z2-c-1": (False, 180), "Req-SchBV2022-P12-Z2-c-2": (True, 2),
                      "Req-SchBV2022-P12-Z2-c-2a": (True, 180), "Req-SchBV2022-P12-Z2-c-2b": (True, 280)}),
    "03-maria-matrose-to-bootsmann.yaml": Outcome(
        "maria-hofer", {"UBZ-Decksmann", "UBZ-Matrose"}, [D, L, M], ("§ 12 Z 2 SchBV",),
        missing={"§ 13 Z 1 SchBV": [("§ 13 Z 1 SchBV", 180, 140)]}),
    "04-jonas-steuermann-one-exam-short.yaml": Outcome(
        "jonas-leitner", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann"}, [D, L, M, B, S],
        ("§ 12 Z 1 SchBV", "§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"),
        missing={"§ 15 Z 2 SchBV": [("§ 15 Z 2 lit. d SchBV", ["Anlage9", "Anlage10"], ["Anlage9"])],
                 "§ 15 Z 3 SchBV": [("§ 15 Z 3 lit. c SchBV", ["Anlage9", "Anlage10", "Anlage11"], ["Anlage9"])]}),
    "05-sabine-career-changer.yaml": Outcome(
        "sabine-wimmer", {"UBZ-Decksmann", "UBZ-Matrose"}, [], ("§ 10 SchBV", "§ 12 Z 3 SchBV"),
        missing={"§ 12 Z 1 SchBV": [("§ 12 Z 1 lit. b SchBV", 24, 9), ("§ 12 Z 1 lit. c SchBV", 90, 0)]},
        requirements={"Req-SchBV2022-P12-Z3-a-1": (True, 5), "Req-SchBV2022-P12-Z3-b": (True, 9),
                      "Req-SchBV2022-P12-Z3-c": (True, 90)}),
    "06-tobias-programme-graduate.yaml": Outcome(
        "tobias-berger", {"UBZ-Matrose"}, [], ("§ 12 Z 1 SchBV",),
        missing={"§ 10 SchBV": [("§ 10 Z 2 SchBV", 180, 90)]},
        requirements={"Req-SchBV2022-P12-Z1-a": (True, 19), "Req-SchBV2022-P12-Z1-b": (True, 24),
                      "Req-SchBV2022-P12-Z1-c": (True, 90)}),
    "07-katharina-bootsmann-to-steuermann.yaml": Outcome(
        "katharina-pichler", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann"}, [D, L, M, B],
        ("§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"),
        missing={"§ 15 Z 2 SchBV": [("§ 15 Z 2 lit. b SchBV", THIRD, []),
                                    ("§ 15 Z 2 lit. d SchBV", ["Anlage9", "Anlage10"], [])]},
        requirements={"Req-SchBV2022-P14-Z1-a": (True, 180), "Req-SchBV2022-P14-Z1-b": (True, True)}),
    "08-henrik-former-sea-captain.yaml": Outcome(
        "henrik-jansen", {"UBZ-Steuermann"}, [], ("§ 14 Z 3 SchBV",),
        missing={"§ 10 SchBV": [("§ 10 Z 2 SchBV", 180, 0)], "§ 12 Z 2 SchBV": [("§ 12 Z 2 lit. c SchBV", 360, 0)]},
        requirements={"Req-SchBV2022-P14-Z3-a": (True, 500), "Req-SchBV2022-P14-Z3-b": (True, ["Anlage8"])}),
    "09-ali-newcomer.yaml": Outcome(
        "ali-yilmaz", {"UBZ-Decksmann"}, [], ("§ 10 SchBV",),
        missing={"§ 11 SchBV": [("§ 11 Z 2 SchBV", True, False)]},
        requirements={"Req-SchBV2022-P10-Z1": (True, 18), "Req-SchBV2022-P10-Z2-1": (True, True)}),
    "10-georg-medical-expired.yaml": Outcome(
        "georg-huber", set(), [D, L, M], (),
        missing={"§ 10 SchBV": [("§ 10 Z 3 SchBV", True, False)],
                 "§ 12 Z 2 SchBV": [("§ 12 Z 2 lit. d SchBV", True, False)],
                 "§ 13 Z 1 SchBV": [("§ 13 Z 1 SchBV", 180, 150)]}),
    "11-eva-boatmaster-by-exam.json": Outcome(
        "eva-schneider", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann", "UBZ-Schiffsfuehrer"},
        [D, L, M, B], ("§ 14 Z 1 SchBV", "§ 15 Z 3 SchBV"),
        missing={"§ 15 Z 2 SchBV": [("§ 15 Z 2 lit. b SchBV", THIRD, [])]}),
    "12-markus-sea-to-boatmaster-programme.ttl": Outcome(
        "markus-steiner", {"UBZ-Decksmann", "UBZ-Schiffsfuehrer"}, [], ("§ 15 Z 4 SchBV",),
        missing={"§ 15 Z 3 SchBV": [("§ 15 Z 3 lit. c SchBV", ["Anlage9", "Anlage10", "Anlage11"], [])]},
        requirements={"Req-SchBV2022-P15-Z4-a-2": (True, 520), "Req-SchBV2022-P15-Z4-b": (True, 18),
                      "Req-SchBV2022-P15-Z4-c-1": (True, 180), "Req-SchBV2022-P15-Z4-c-2": (True, 180)}),
    # written by the kb author (design.md's example person)
    "anna-matrose.yaml": Outcome(
        "anna", {"UBZ-Decksmann", "UBZ-Matrose", "UBZ-Bootsmann"}, [D, L, M], ("§ 12 Z 2 SchBV", "§ 13 Z 1 SchBV"),
        missing={"§ 14 Z 1 SchBV": [("§ 14 Z 1 lit. a SchBV", 180, 0)]}),
}


def _norm(value):
    return sorted(value) if isinstance(value, list) else value


def _pathway(answer: dict, provision: str) -> dict:
    found = [w for c in answer["certificates"] for w in c["pathways"] if w["provision"] == provision]
    assert len(found) == 1, f"{provision} appears {len(found)} times"
    return found[0]


def _requirement(answer: dict, rid: str) -> dict:
    def walk(reqs):
        for r in reqs:
            yield r
            yield from walk(r.get("alternatives", []) + r.get("parts", []))

    found = [r for c in answer["certificates"] for w in c["pathways"] for r in walk(w["requirements"]) if r["id"] == rid]
    assert found, f"requirement {rid} not in the answer"
    return found[0]


def test_the_folder_holds_the_promised_examples():
    yaml_files = [p for p in FILES if p.suffix in {".yaml", ".yml"}]
    assert len(yaml_files) >= 9
    assert any(p.suffix == ".json" for p in FILES) and any(p.suffix == ".ttl" for p in FILES)
    assert sorted(OUTCOMES) == [p.name for p in FILES], "every example needs its key outcome in OUTCOMES"


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix != ".json"], ids=lambda p: p.name)
def test_each_example_starts_with_a_comment_telling_its_story(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    header = []
    for line in lines:
        if not line.startswith("#"):
            break
        header.append(line)
    assert len(header) >= 3, "the file must start with a comment telling who this is"
    assert any("2026-11-30" in line for line in header), "the comment must say what crewkg answers on 2026-11-30"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_example_loads_and_conforms_to_the_shapes(path, law):
    person = _parse(path, law)
    assert person.id == OUTCOMES[path.name].person
    try:
        shacl_check(person_graph(person), str(path))
    except InputError as exc:
        pytest.fail(f"SHACL: {exc.message()}")


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_each_example_gets_its_key_outcome(name, answers):
    answer, want = answers[name], OUTCOMES[name]
    assert answer["person"] == want.person
    assert answer["as_of"] == "2026-11-30"
    assert {c["id"] for c in answer["certificates"] if c["eligible"]} == want.eligible
    assert answer["roles"] == want.roles
    for provision in want.satisfied:
        assert _pathway(answer, provision)["satisfied"] is True, provision
    for provision, expected in want.missing.items():
        pathway = _pathway(answer, provision)
        assert pathway["satisfied"] is False
        got = [(m["provision"], _norm(m["needed"]), _norm(m["have"])) for m in pathway["missing"]]
        assert got == [(p, _norm(n), _norm(h)) for p, n, h in expected], provision
    for rid, (met, have) in want.requirements.items():
        r = _requirement(answer, rid)
        assert (r["met"], _norm(r["have"])) == (met, _norm(have)), rid


def test_one_short_stories_name_the_unit_of_the_gap(answers):
    (gap,) = _pathway(answers["03-maria-matrose-to-bootsmann.yaml"], "§ 13 Z 1 SchBV")["missing"]
    assert (gap["needed"] - gap["have"], gap["unit"]) == (40, "days")
    (exam,) = _pathway(answers["04-jonas-steuermann-one-exam-short.yaml"], "§ 15 Z 2 SchBV")["missing"]
    assert (set(exam["needed"]) - set(exam["have"]), exam["unit"]) == ({"Anlage10"}, "exams")


def test_an_expired_medical_names_its_end_date(answers):
    (medical,) = _pathway(answers["10-georg-medical-expired.yaml"], "§ 10 SchBV")["missing"]
    assert medical["document"] == "MedicalFitness"
    assert medical["valid_until"] == "2026-09-30"


def test_the_newcomer_turns_18_on_the_evaluation_date(answers):
    age = _requirement(answers["09-ali-newcomer.yaml"], "Req-SchBV2022-P10-Z1")
    assert age["reached_on"] == "2026-11-30"


# ------------------------------------------------------------------------------------------------------
# The command line
# ------------------------------------------------------------------------------------------------------
def _check_json(path: Path) -> object:
    result = CliRunner().invoke(app, ["check", str(path), "--format", "json", "--as-of", AS_OF.isoformat()])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


def _assert_contract(answer: dict) -> None:
    assert [c["id"] for c in answer["certificates"]] == CERTIFICATES
    for c in answer["certificates"]:
        assert "eligible" in c and "pathways" in c
        for w in c["pathways"]:
            assert {"provision", "satisfied", "requirements", "missing"} <= set(w)
            assert w["satisfied"] is (not w["missing"])
            for r in w["requirements"] + w["missing"]:
                assert {"needed", "have", "unit", "provision"} <= set(r), r
            assert w["missing"] == [r for r in w["requirements"] if not r["met"]]
    # §§ 10–15 have pathways; §§ 16, 17 are headings only in the sources
    assert all(c["pathways"] for c in answer["certificates"][:6])


def test_the_dated_examples_name_since_when_each_certificate_is_issuable(answers):
    since = {name: {c["id"]: c["eligible_since"] for c in a["certificates"] if c["eligible"]}
             for name, a in answers.items() if name.startswith("2")}
    assert since["20-franz-schifferdienstbuch.yaml"] == {"UBZ-Decksmann": "2025-02-01", "UBZ-Matrose": "2025-03-10",
                                                         "UBZ-Bootsmann": "2025-09-27"}
    assert since["21-ines-sea-to-inland.yaml"]["UBZ-Matrose"] == "2026-10-15"
    assert since["22-david-programme-trainee.yaml"]["UBZ-Matrose"] == "2026-08-31"
    sofia = _requirement(answers["23-sofia-awaiting-validation.yaml"], "Req-SchBV2022-P12-Z2-c-1")
    assert (sofia["have"], sofia["recorded"], sofia["not_validated"], sofia["capped"]) == (249, 436, 183, 4)
    # a record of totals has no date to tell
    assert all(c.get("eligible_since") is None for c in answers["anna-matrose.yaml"]["certificates"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_example_checks_on_its_own_like_in_the_batch(path, answers):
    answer = _check_json(path)
    assert isinstance(answer, dict)
    _assert_contract(answer)
    assert _without_summary(answer) == answers[path.name]  # the library's answer, and the summary read first


def test_the_folder_gives_one_json_object_per_file_with_every_certificate_and_pathway(answers):
    out = _check_json(EXAMPLES)
    assert isinstance(out, list) and len(out) == len(FILES)
    assert [a["person"] for a in out] == [OUTCOMES[p.name].person for p in FILES]
    for a, p in zip(out, FILES, strict=True):
        _assert_contract(a)
        assert _without_summary(a) == answers[p.name]


def _without_summary(answer: dict) -> dict:
    """The answer of `answers.check` a CLI answer holds: all of it but the summary (which it must carry)."""
    assert set(answer["summary"]) >= {"roles", "issuable", "lapsed", "next_steps"}
    return {k: v for k, v in answer.items() if k != "summary"}


def test_a_litera_with_alternatives_answers_in_the_figures_of_the_one_that_decides(answers):
    """The design's own example: Anna's § 12 Z 2 lit. c SchBV reads needed 360, have 380, unit days (the first
    alternative met decides and is named); where no alternative is met the first one counted in days, months or years
    gives the figures (named by figures_of)."""
    anna = answers["anna-matrose.yaml"]
    lit_c = next(r for r in _pathway(anna, "§ 12 Z 2 SchBV")["requirements"] if r["provision"] == "§ 12 Z 2 lit. c SchBV")
    assert (lit_c["met"], lit_c["needed"], lit_c["have"], lit_c["unit"]) == (True, 360, 380, "days")
    assert lit_c["decided_by"] == lit_c["alternatives"][0]["id"] and lit_c["kind"] == "AnyOf"
    piotr = answers["02-piotr-sea-deckhand.yaml"]
    lit_a = next(m for m in _pathway(piotr, "§ 12 Z 3 SchBV")["missing"] if m["provision"] == "§ 12 Z 3 lit. a SchBV")
    first = lit_a["alternatives"][0]
    assert (lit_a["needed"], lit_a["have"], lit_a["unit"]) == (first["needed"], first["have"], first["unit"])
    assert first["unit"] in ("days", "months", "years") and lit_a["have"] < lit_a["needed"]
    assert lit_a["figures_of"] == first["id"] and "decided_by" not in lit_a
