"""Training institutions (issue 4): programme designs checked against the kb, and cohort plans with per-trainee
errors, CSV and a self-contained HTML report."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from datetime import date
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.careers import cohorts
from crewkg.careers.cohorts import chart_certificates, evaluate_cohort, load_cohort, month_counts, row_cells
from crewkg.careers.graph import career_graph
from crewkg.careers.planning import Pace
from crewkg.careers.programmes import check_programme, load_programme, programme_from_mapping
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.records.persons import person_from_mapping

pytestmark = pytest.mark.xdist_group("test_programmes_cohorts")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
ROOT = Path(__file__).resolve().parents[1]
PROGRAMMES = ROOT / "kb" / "examples" / "programmes"
COHORT = ROOT / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
runner = CliRunner()


def _split_runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into the output unless told not to
    except TypeError:  # click >= 8.2 keeps them apart
        return CliRunner()

MATROSE_24 = {"id": "m24", "for": "Matrose", "months": 24, "sailing_days": 90, "entry": {"min_age": 16}}


def _check(design: dict) -> dict:
    law = load_law()
    return check_programme(law, programme_from_mapping(design, law, "test.yaml"), AS_OF)


def _pathway(result: dict, provision: str) -> dict:
    return next(p for p in result["pathways"] if p["provision"] == provision)


def _programme_text(tmp_path: Path, design: dict, lang: str) -> str:
    """What `crewkg programme` prints for the design on AS_OF."""
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(design), encoding="utf-8")
    result = runner.invoke(app, ["programme", str(path), "--as-of", AS_OF.isoformat(), "--lang", lang])
    assert result.exit_code in (0, 1), result.output  # 1: it serves no pathway (its own test below)
    return result.stdout


# --- programmes ------------------------------------------------------------------------------------------------


def test_a_24_month_matrose_programme_with_90_days_within_serves_12_Z1():
    result = _check(MATROSE_24)
    assert result["serves"] == ["§ 12 Z 1 SchBV"]
    assert _pathway(result, "§ 12 Z 1 SchBV")["missing"] == []


def test_with_89_days_within_it_serves_no_pathway_and_12_Z1_lacks_exactly_one_day():
    result = _check(MATROSE_24 | {"sailing_days": 89})
    assert result["serves"] == []
    (lit_c,) = _pathway(result, "§ 12 Z 1 SchBV")["missing"]
    assert (lit_c["provision"], lit_c["needed"], lit_c["have"], lit_c["unit"]) == ("§ 12 Z 1 lit. c SchBV", 90, 89, "days")


def test_the_example_programmes_say_what_their_comments_promise():
    law = load_law()
    served = {f.stem: check_programme(law, load_programme(f, law), AS_OF)["serves"] for f in sorted(PROGRAMMES.glob("*.yaml"))}
    assert served == {
        "matrosen-24-monate": ["§ 12 Z 1 SchBV"],
        "matrosen-24-monate-89-tage": [],
        "quereinstieg-matrose-9-monate": ["§ 12 Z 3 SchBV"],
        "schiffsfuehrer-18-monate": ["§ 15 Z 4 SchBV"],
    }


def test_the_cli_names_the_one_missing_day_of_the_89_day_example():
    result = runner.invoke(app, ["programme", str(PROGRAMMES / "matrosen-24-monate-89-tage.yaml"), "--as-of", "2026-11-30"])
    assert result.exit_code == 1, result.output  # it serves no pathway
    assert "dient keinem Weg" in result.stdout
    assert "noch 1 Tag Fahrzeit im Rahmen des Ausbildungsprogramms für Matrosin bzw. Matrose (§ 12 Z 1 lit. c SchBV)" in result.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize(("design", "status"), [("matrosen-24-monate.yaml", 0), ("matrosen-24-monate-89-tage.yaml", 1)],
                         ids=["90 days: serves § 12 Z 1", "89 days: serves nothing"])
def test_the_exit_status_says_whether_the_design_serves_a_pathway(fmt, design, status):
    """A script can gate on a design: 0 when it serves a pathway, 1 when it serves none, in text and JSON alike."""
    result = runner.invoke(app, ["programme", str(PROGRAMMES / design), "--as-of", "2026-11-30", "--format", fmt])
    assert result.exit_code == status, result.output
    if fmt == "json":
        assert bool(json.loads(result.stdout)["serves"]) is (status == 0)


def test_a_design_no_pathway_accepts_exits_1(tmp_path):
    path = tmp_path / "d.yaml"
    path.write_text(yaml.safe_dump({"id": "d", "for": "Decksmann", "months": 6}), encoding="utf-8")
    result = runner.invoke(app, ["programme", str(path), "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["covered"] is False


def test_the_help_of_programme_says_its_exit_status():
    text = " ".join(runner.invoke(app, ["programme", "--help"], env={"COLUMNS": "200"}).stdout.replace("│", " ").split())
    assert "Exit status" in text and "1 when it serves none" in text and "2 for bad input" in text


def test_23_months_lack_one_month_of_12_Z1_lit_b():
    (lit_b,) = [m for m in _pathway(_check(MATROSE_24 | {"months": 23}), "§ 12 Z 1 SchBV")["missing"] if m["kind"] == "Programme"]
    assert (lit_b["provision"], lit_b["needed"], lit_b["have"]) == ("§ 12 Z 1 lit. b SchBV", 24, 23)


def test_a_programme_entered_at_15_serves_12_Z1_and_dates_the_18th_birthday_as_a_wait():
    """§ 12 Z 1 lit. a asks the applicant's age ("das 18. Lebensjahr vollendet hat"), not the programme's: the
    programme serves the pathway, and the answer says from which day its youngest graduates can apply."""
    result = _check(MATROSE_24 | {"entry": {"min_age": 15}})
    assert result["serves"] == ["§ 12 Z 1 SchBV"]
    z1 = _pathway(result, "§ 12 Z 1 SchBV")
    assert z1["served"] is True and z1["missing"] == []
    (age,) = z1["age_waits"]
    assert (age["provision"], age["needed"], age["have"]) == ("§ 12 Z 1 lit. a SchBV", 18, 16)


def test_a_programme_ends_on_the_day_before_the_same_day_months_later_as_check_counts_it():
    """Entering on 2026-11-30, a 24-month programme ends on 2028-11-29: `check` counts a dated programme from
    2026-11-30 to 2028-11-29 as 24 months (design: months to the day after `to`), and an entrant of 16 then reaches
    18 the next day."""
    (age,) = _pathway(_check(MATROSE_24), "§ 12 Z 1 SchBV")["age_waits"]
    assert (age["entry_on"], age["completed_on"], age["reached_on"], age["have"]) == (
        "2026-11-30", "2028-11-29", "2028-11-30", 17)
    law = load_law()
    for to, months in (("2028-11-28", 23), ("2028-11-29", 24)):
        person = person_from_mapping({"id": "t", "birth_date": "2000-01-01", "programmes": [{
            "for": "Matrose", "from": "2026-11-30", "to": to}]}, law, date(2028, 12, 1), "t")
        assert person.programmes[0].months == months, to


@pytest.mark.parametrize(("months", "completed"), [
    pytest.param(35, "2029-10-29", id="35 months: completed a month before the 18th birthday"),
    pytest.param(36, "2029-11-29", id="36 months: completed the day before the 18th birthday"),
    pytest.param(37, None, id="37 months: 18 on completion, no wait"),
])
def test_an_entrant_of_15_turns_18_three_years_after_entry_not_after_completion(months, completed):
    """Entering on the evaluation date aged 15, the youngest entrant turns 18 three years later (2029-11-30),
    whatever the programme's length."""
    z1 = _pathway(_check(MATROSE_24 | {"months": months, "entry": {"min_age": 15}}), "§ 12 Z 1 SchBV")
    assert z1["served"] is True
    if completed is None:
        assert z1["age_waits"] == []
    else:
        (age,) = z1["age_waits"]
        assert (age["needed"], age["have"], age["entry_on"], age["completed_on"], age["reached_on"]) == (
            18, 17, "2026-11-30", completed, "2029-11-30")


def test_a_schiffsfuehrer_programme_dates_the_18th_birthday_not_the_completion():
    result = _check({"id": "p4", "for": "Schiffsfuehrer", "months": 18, "sailing_days": 180, "sailing_days_after": 180,
                     "entry": {"min_age": 15}})
    (age,) = _pathway(result, "§ 15 Z 1 SchBV")["age_waits"]
    assert (age["have"], age["completed_on"], age["reached_on"]) == (16, "2028-05-29", "2029-11-30")


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "wer am 2026-11-30 mit 15 Jahren eintritt, schließt am 2028-11-29 ab und ist erst ab 2029-11-30 18 Jahre "
           "alt; vorher kann der Antrag nicht gestellt werden (§ 12 Z 1 lit. a SchBV)"),
    ("en", "entering on 2026-11-30 aged 15, one completes the programme on 2028-11-29 and is 18 years of age only from "
           "2029-11-30; no application before that day (§ 12 Z 1 lit. a SchBV)"),
])
def test_the_programme_text_says_when_its_youngest_graduates_can_apply(tmp_path, lang, sentence):
    text = _programme_text(tmp_path, MATROSE_24 | {"entry": {"min_age": 15}}, lang)
    assert ("✓ dient § 12 Z 1 SchBV" if lang == "de" else "✓ serves § 12 Z 1 SchBV") in text
    assert "    " + sentence + "\n" in text


@pytest.mark.parametrize(("months", "days", "most"), [
    pytest.param(24, 361, None, id="24 months from 2026-11-30 (731 days) credit 180 + 180 + 1: 361 stand"),
    pytest.param(24, 362, 361, id="362 days in 24 months: one more than § 6 Abs. 4 can credit"),
    pytest.param(9, 200, 180, id="9 months: at most 180"),
    pytest.param(0, 90, 0, id="0 months: nothing within the programme"),
])
def test_days_within_a_programme_are_counted_only_as_far_as_its_months_can_credit_them(months, days, most):
    result = _check(MATROSE_24 | {"months": months, "sailing_days": days})
    if most is None:
        assert "credit_cap" not in result
    else:
        cap = result["credit_cap"]
        assert (cap["days"], cap["at_most"], cap["from"], cap["provision"]) == (days, most, "2026-11-30", "§ 6 Abs. 4 SchBV")
    assert result["sailing_days"] == days  # the design as given


def test_a_capped_design_is_checked_with_the_days_it_can_credit():
    """89 creditable days are one short of § 12 Z 1 lit. c, whatever the design claims: a 24-month programme with
    900 days serves § 12 Z 1 (361 count), one of 0 months with 90 days does not (none count)."""
    assert _check(MATROSE_24 | {"sailing_days": 900})["serves"] == ["§ 12 Z 1 SchBV"]
    (lit_c,) = [m for m in _pathway(_check(MATROSE_24 | {"months": 0}), "§ 12 Z 1 SchBV")["missing"]
                if m["provision"] == "§ 12 Z 1 lit. c SchBV"]
    assert (lit_c["needed"], lit_c["have"]) == (90, 0)


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Das Programm gibt 900 Tage Fahrzeit im Programm an; in den 24 Monaten ab 2026-11-30 können höchstens 361 "
           "angerechnet werden (§ 6 Abs. 4 SchBV), geprüft wird mit 361"),
    ("en", "The design gives 900 days of sailing time within the programme; at most 361 can be credited in the 24 months "
           "from 2026-11-30 (§ 6 Abs. 4 SchBV), so it is checked with 361"),
])
def test_the_programme_text_says_how_many_days_its_months_can_credit(tmp_path, lang, sentence):
    assert sentence + "\n" in _programme_text(tmp_path, MATROSE_24 | {"sailing_days": 900}, lang)


@pytest.mark.parametrize(("start", "months", "end"), [
    pytest.param(date(2026, 11, 30), 24, date(2028, 11, 29), id="the day before the same day"),
    pytest.param(date(2028, 2, 29), 24, date(2030, 2, 28), id="29 Feb: 2030-02-27 completes only 23 months"),
    pytest.param(date(2026, 5, 31), 9, date(2027, 2, 28), id="31 May: the months are completed on 1 March"),
    pytest.param(date(2026, 1, 31), 1, date(2026, 2, 28), id="31 Jan, one month"),
])
def test_a_programmes_last_day_is_the_one_that_completes_its_months_as_check_counts_them(start, months, end):
    from datetime import timedelta

    from crewkg.law.crediting import completed_months, programme_end

    assert programme_end(start, months) == end
    assert completed_months(start, end + timedelta(days=1)) == months
    assert completed_months(start, end) == months - 1
    law = load_law()
    design = programme_from_mapping(MATROSE_24 | {"months": months, "entry": {"min_age": 15}}, law, "t.yaml")
    z1 = _pathway(check_programme(law, design, start), "§ 12 Z 1 SchBV")
    assert [w["completed_on"] for w in z1["age_waits"]] == [end.isoformat()]


def test_a_pathway_not_served_says_the_age_on_completion_but_no_day_to_apply(tmp_path):
    """23 months do not serve § 12 Z 1 (lit. b): no application is possible, so no day to apply is named."""
    for lang, plain, wait in (("de", "erst nach Abschluss 18 Jahre alt (18 Jahre verlangt, bei Abschluss 16)",
                               "vorher kann der Antrag nicht gestellt werden"),
                              ("en", "18 years of age only after completion (18 required, 16 on completion)",
                               "no application before that day")):
        text = _programme_text(tmp_path, MATROSE_24 | {"months": 23, "entry": {"min_age": 15}}, lang)
        assert plain in text and wait not in text
        note = {"de": "kein Mangel des Programms (das Mindestalter ist das der Bewerberin bzw. des Bewerbers): ",
                "en": "not a lack of the programme (a minimum age is the applicant's): "}[lang]
        assert note + plain in text


def test_a_programme_for_a_role_no_pathway_accepts_is_not_covered():
    result = _check({"id": "d", "for": "Decksmann", "months": 6})
    assert result["covered"] is False and "Decksmann" in result["reason"]


@pytest.mark.parametrize(("design", "field"), [
    ({"id": "x", "for": "Matrose", "months": 24, "weeks": 3}, "weeks"),
    ({"id": "x", "for": "Kapitaen", "months": 24}, "for"),
    ({"id": "x", "for": "Matrose", "months": -1}, "months"),
    ({"id": "x", "for": "Matrose", "months": 24, "entry": {"min_age": "16"}}, "entry.min_age"),
])
def test_a_bad_programme_file_exits_2_naming_the_field(tmp_path, design, field):
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(design), encoding="utf-8")
    result = runner.invoke(app, ["programme", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert f"field '{field}'" in result.output and str(path) in result.output and "Traceback" not in result.output


# --- cohorts ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def example_rows():
    law = load_law()
    pace = Pace.from_kb()
    trainees = load_cohort(COHORT, law, AS_OF)
    return evaluate_cohort(law, trainees, "UBZ-Steuermann", AS_OF, pace)


def test_the_example_cohort_of_30_trainees_is_evaluated_without_errors(example_rows):
    assert len(example_rows) == 30
    assert [r["error"] for r in example_rows] == [None] * 30
    assert all(r["earliest"] for r in example_rows)


def test_hand_checked_trainees_of_the_example_cohort(example_rows):
    rows = {r["id"]: r for r in example_rows}
    assert rows["steuermann-01"]["holds_target"] is True
    assert rows["bootsmann-03"]["target_today"] is True and rows["bootsmann-03"]["route"] == ["§ 14 Z 1 SchBV"]
    # 60 more days as Bootsmann
    assert rows["bootsmann-02"]["earliest"] == "2027-01-29"
    # 1 day as Matrose (day 1); as Bootsmann days 2–180 fill the window, the 180th day is day 366
    assert rows["matrose-03"]["route"] == ["§ 13 Z 1 SchBV", "§ 14 Z 1 SchBV"]
    assert rows["matrose-03"]["earliest"] == "2027-12-01"
    assert rows["matrose-03"]["reach"]["UBZ-Bootsmann"] == "2026-12-01"
    # a 24-month programme with 89 days does not make a Matrose: the helmsman programme of § 14 Z 2 is fastest
    assert rows["absolvent-03"]["eligible_today"] == [] and rows["absolvent-03"]["route"] == ["§ 14 Z 2 SchBV"]


@pytest.mark.parametrize(("lang", "said"), [("en", "not needed: UBZ helmsman held"), ("de", "nicht nötig: UBZ Steuermann vorhanden")])
def test_a_trainee_holding_a_certificate_above_the_target_is_said_not_to_need_it(lang, said):
    """steuermann-01 holds the UBZ Steuermann, a role above the Matrose's (crew:ranksAbove): for the target
    UBZ-Matrose the row says it is not needed, as the timeline does, not that it can be issued; a Matrose trainee's
    row is not touched."""
    law = load_law()
    rows = {r["id"]: r for r in evaluate_cohort(law, load_cohort(COHORT, law, AS_OF), "UBZ-Matrose", AS_OF, Pace.from_kb())}
    assert rows["steuermann-01"]["held_above"] == "UBZ-Steuermann" and rows["steuermann-01"]["holds_target"] is False
    assert row_cells(law, rows["steuermann-01"], lang)[2] == said
    # not needed, so no date, route or gap beside it (the JSON keeps the route asked for)
    assert row_cells(law, rows["steuermann-01"], lang)[3:6] == [{"de": "nicht nötig", "en": "not needed"}[lang], "", ""]
    assert rows["steuermann-01"]["earliest"] and rows["steuermann-01"]["route"]
    assert rows["lehrling-01"]["held_above"] is None
    from crewkg.careers.cohorts import csv_text

    table = {r["id"]: r for r in csv.DictReader(io.StringIO(csv_text(law, list(rows.values()), lang)))}
    assert table["steuermann-01"]["held_above"] == "UBZ-Steuermann" and table["lehrling-01"]["held_above"] == ""


def test_the_chart_counts_trainees_per_certificate_month_by_month(example_rows):
    law = load_law()
    g = career_graph(law)
    certs = chart_certificates(g, "UBZ-Steuermann")
    assert certs == ["UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann"]
    ticks, counts = month_counts(law, example_rows, certs, AS_OF)
    assert ticks[0] == AS_OF and counts["UBZ-Steuermann"][0] == 2  # bootsmann-03 eligible, steuermann-01 holds it
    assert counts["UBZ-Steuermann"][-1] == 30
    for c in certs:
        assert counts[c] == sorted(counts[c])


def test_cohort_cli_writes_a_self_contained_html_report_and_csv(tmp_path):
    html_out, csv_out = tmp_path / "report.html", tmp_path / "report.csv"
    for out in (html_out, csv_out):
        result = runner.invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Steuermann", "--as-of", "2026-11-30",
                                     "--out", str(out), "--format", "csv"])
        assert result.exit_code == 0, result.output
    page = html_out.read_text(encoding="utf-8")
    for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", page, flags=re.I):
        assert not re.search(r"(?:src|href)\s*=\s*['\"]?(?:https?:)?//", tag, flags=re.I), tag
    png = base64.b64decode(re.search(r'src="data:image/png;base64,([^"]+)"', page).group(1))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    assert page.count("<tr") == 31
    table = list(csv.DictReader(io.StringIO(csv_out.read_text(encoding="utf-8"))))
    assert len(table) == 30 and {r["id"] for r in table} >= {"lehrling-01", "steuermann-01"}
    assert {r["id"]: r["held_above"] for r in table}["steuermann-01"] == ""  # the target itself is held (holds_target)
    stdout = list(csv.DictReader(io.StringIO(result.stdout)))
    assert stdout == table


@pytest.mark.parametrize(("lang", "words"), [("de", ("am Stichtag ausstellbar", "Ziel am Stichtag")),
                                              ("en", ("can be issued on the evaluation date", "target on the evaluation date"))])
def test_a_cohort_says_the_evaluation_date_not_today(lang, words):
    """With --as-of 2026-11-30 the columns said 'heute ausstellbar', 'Ziel heute' and the summary 'Ziel heute
    erreichbar' of a day that need not be today; they name the evaluation date (Stichtag), as the report's 'Stand'."""
    law = load_law()
    rows = evaluate_cohort(law, load_cohort(COHORT, law, AS_OF)[:3], "UBZ-Matrose", AS_OF, Pace.from_kb(), lang)
    texts = cohorts.header(lang) + [cohorts.summary(rows, lang)]
    assert set(words) <= set(texts) and words[1] in texts[-1]
    assert not re.search(r"\b(heute|jetzt|today|now)\b", " ".join(texts)), texts


#: trainees whose route lacks only what takes no time (an exam, a medical fitness): planned on the evaluation date
UNTIMED = [{"id": "ohne-pruefung-und-tauglichkeit", "birth_date": "2003-09-15", "basic_safety_training": True,
            "sailing_days": {"Decksmann": 365}, "certificates": ["UBZ-Decksmann"]},
           {"id": "ohne-pruefung", "birth_date": "2003-09-15", "basic_safety_training": True, "medical_fitness": True,
            "sailing_days": {"Decksmann": 365}, "certificates": ["UBZ-Decksmann"]}]


def _untimed(tmp_path: Path) -> Path:
    path = tmp_path / "untimed.yaml"
    path.write_text(yaml.safe_dump(UNTIMED), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "first", "second"), [
    ("de", "2026-11-30, wenn bis dahin erlangt: Prüfung Anl. 8, medizinische Tauglichkeit",
     "2026-11-30, wenn bis dahin erlangt: Prüfung Anl. 8"),
    ("en", "2026-11-30, if obtained by then: exam Annex 8, medical fitness", "2026-11-30, if obtained by then: exam Annex 8")])
def test_a_date_that_assumes_an_exam_or_a_medical_obtained_says_so(tmp_path, lang, first, second):
    """'nein | 2026-11-30' read as a contradiction: not on the evaluation date, yet earliest on it. The date assumes the
    exam and the medical fitness obtained on the step's date (the plan's assumption), and the row names them."""
    law = load_law()
    rows = evaluate_cohort(law, load_cohort(_untimed(tmp_path), law, AS_OF), "UBZ-Matrose", AS_OF, Pace.from_kb(), lang)
    cells = [row_cells(law, r, lang) for r in rows]
    assert [c[2] for c in cells] == [{"de": "nein", "en": "no"}[lang]] * 2
    assert [c[3] for c in cells] == [first, second]
    assert [r["earliest"] for r in rows] == ["2026-11-30"] * 2  # the JSON keeps the date itself


def test_a_cohort_says_what_its_dates_assume_in_the_table_the_json_and_the_report(tmp_path):
    """The assumptions `plan` and `timeline` state (careers.plan.assumes), in every output for people and in the
    JSON; `--out` says where it wrote, on standard error, as `export --out` does."""
    from crewkg.messages.catalogue import say

    path, out = _untimed(tmp_path), tmp_path / "r.html"
    args = ["cohort", str(path), "--target", "UBZ-Matrose", "--as-of", "2026-11-30"]
    table = _split_runner().invoke(app, [*args, "--out", str(out)])
    assert table.exit_code == 0, table.output
    assert say("de", "careers.plan.assumes") in " ".join(table.stdout.split())
    assert table.stderr == f"{out}: Bericht über die Kohorte, 2 Auszubildende\n"
    assert say("de", "careers.plan.assumes") in out.read_text(encoding="utf-8")
    answer = json.loads(_split_runner().invoke(app, [*args, "--format", "json", "--lang", "en"]).stdout)
    assert answer["assumes"] == say("en", "careers.plan.assumes")
    one = _split_runner().invoke(app, [*args, "--lang", "en", "--out", str(tmp_path / "r.json"), "--format", "csv"])
    assert one.stderr == f"{tmp_path / 'r.json'}: cohort report, 2 trainees\n"
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["assumes"] == answer["assumes"]


def test_bad_rows_are_reported_per_trainee_and_the_others_are_evaluated(tmp_path):
    path = tmp_path / "cohort.csv"
    path.write_text("id,birth_date,medical_fitness,sailing_days.Matrose,certificates\n"
                    "good,2000-01-01,true,170,UBZ-Matrose\n"
                    "negative,2000-01-01,true,-5,UBZ-Matrose\n"
                    "unknown,2000-01-01,true,10,UBZ-Kapitaen\n"
                    "words,2000-01-01,maybe,10,\n", encoding="utf-8")
    law = load_law()
    trainees = load_cohort(path, law, AS_OF)
    rows = {r["id"]: r for r in evaluate_cohort(law, trainees, "UBZ-Bootsmann", AS_OF, Pace.from_kb())}
    assert rows["good"]["error"] is None and rows["good"]["earliest"] == "2026-12-10"
    assert "row 3" in rows["negative"]["error"] and "sailing_days.Matrose" in rows["negative"]["error"]
    assert "row 4" in rows["unknown"]["error"] and "UBZ-Kapitaen" in rows["unknown"]["error"]
    assert "row 5" in rows["words"]["error"] and "medical_fitness" in rows["words"]["error"]
    result = _split_runner().invoke(app, ["cohort", str(path), "--target", "UBZ-Bootsmann", "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 1, "the status says that some trainees failed (as check FOLDER does)"
    assert [t["id"] for t in json.loads(result.stdout)["trainees"]] == ["good", "negative", "unknown", "words"]
    assert "3 von 4 Auszubildenden konnten nicht ausgewertet werden" in result.stderr  # --lang de is the default


def test_yaml_cohorts_hold_person_records(tmp_path):
    path = tmp_path / "cohort.yaml"
    path.write_text(yaml.safe_dump({"trainees": [
        {"id": "a", "birth_date": "2000-01-01", "medical_fitness": True, "sailing_days": {"Matrose": 170}, "certificates": ["UBZ-Matrose"]},
        {"id": "a", "birth_date": "2000-01-01"},
    ]}), encoding="utf-8")
    rows = evaluate_cohort(load_law(), load_cohort(path, load_law(), AS_OF), "UBZ-Bootsmann", AS_OF, Pace.from_kb())
    assert rows[0]["earliest"] == "2026-12-10"
    assert "not used by another trainee" in rows[1]["error"]


@pytest.mark.parametrize(("text", "expected"), [
    ("id,shoe_size\nx,42\n", "shoe_size"),
    ("name\nx\n", "'id'"),
    ("id\n", "at least one trainee"),
])
def test_a_bad_cohort_file_exits_2_and_writes_nothing(tmp_path, text, expected):
    path = tmp_path / "cohort.csv"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["cohort", str(path), "--target", "UBZ-Matrose", "--out", str(out), "--lang", "en"])
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_worker_processes_give_the_same_rows_as_one_process(monkeypatch):
    law = load_law()
    trainees = load_cohort(COHORT, law, AS_OF)[:12]
    monkeypatch.setattr(cohorts, "BATCH", 4)
    one = evaluate_cohort(law, trainees, "UBZ-Schiffsfuehrer", AS_OF, Pace.from_kb())
    seen = []
    two = evaluate_cohort(law, trainees, "UBZ-Schiffsfuehrer", AS_OF, Pace.from_kb(), workers=2, on_progress=seen.append)
    assert two == one
    assert sum(seen) == 12


def test_a_large_cohort_shows_progress_and_still_answers(tmp_path, monkeypatch):
    monkeypatch.setattr(cohorts, "LARGE", 5)
    result = _split_runner().invoke(app, ["cohort", str(COHORT), "--target", "UBZ-Matrose", "--as-of", "2026-11-30",
                                          "--format", "json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["trainees"]) == 30


def test_a_date_before_the_SchBV_is_refused_rather_than_planned(tmp_path):
    """A UBZ target the day before the SchBV applies (SchBesV 2004 in force) is refused with the day it applies from,
    never planned with the law of another day; before 2005 nothing encoded governs."""
    anna = str(ROOT / "kb" / "examples" / "persons" / "anna-matrose.yaml")
    for args in (["cohort", str(COHORT), "--target", "UBZ-Matrose"], ["plan", anna, "--target", "UBZ-Steuermann"]):
        result = runner.invoke(app, [*args, "--as-of", "2022-01-16"])
        assert result.exit_code == 2, result.output
        assert "2022-01-17" in result.output and "Traceback" not in result.output
        ok = runner.invoke(app, [*args, "--as-of", "2022-01-17", "--format", "json"])
        assert ok.exit_code == 0, ok.output
    programme = ["programme", str(PROGRAMMES / "matrosen-24-monate.yaml")]
    result = runner.invoke(app, [*programme, "--as-of", "2004-12-31"])
    assert result.exit_code == 2 and "2005-01-01" in result.output and "Traceback" not in result.output
    assert runner.invoke(app, [*programme, "--as-of", "2022-01-17", "--format", "json"]).exit_code == 0


# --- cohorts of dated records (service logs) ------------------------------------------------------------------
PERSONS = ROOT / "kb" / "examples" / "persons"


def test_a_cohort_row_points_to_a_trainees_service_log_and_is_planned_as_plan_plans_it(tmp_path):
    """A CSV row holds totals; `record` names the trainee's own record file (here Franz's and Sofia's
    Schifferdienstbuch), read as `crewkg check` reads it: credited days, the real crediting window for the plan."""
    import crewkg

    for name in ("20-franz-schifferdienstbuch.yaml", "23-sofia-awaiting-validation.yaml"):
        (tmp_path / name).write_text((PERSONS / name).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "cohort.csv"
    path.write_text("id,record,birth_date,medical_fitness,sailing_days.Matrose,certificates\n"
                    "franz-huber,20-franz-schifferdienstbuch.yaml,,,,\n"
                    ",23-sofia-awaiting-validation.yaml,,,,\n"
                    "totals,,2000-01-01,true,170,UBZ-Matrose\n", encoding="utf-8")
    law = load_law()
    rows = {r["id"]: r for r in evaluate_cohort(law, load_cohort(path, law, AS_OF), "UBZ-Steuermann", AS_OF, Pace.from_kb())}
    assert [r["error"] for r in rows.values()] == [None, None, None]
    assert "UBZ-Bootsmann" in rows["franz-huber"]["eligible_today"]  # § 13 Z 1: 180 credited days as Matrose
    # Sofia: 249 credited days, 183 awaiting validation: no Matrose today (§ 12 Z 2 lit. c SchBV: 360)
    assert rows["sofia-berger"]["eligible_today"] == ["UBZ-Decksmann"]
    for pid, name in (("franz-huber", "20-franz-schifferdienstbuch.yaml"), ("sofia-berger", "23-sofia-awaiting-validation.yaml")):
        best = crewkg.plan(PERSONS / name, "UBZ-Steuermann", as_of=AS_OF.isoformat())["routes"][0]
        assert rows[pid]["earliest"] == best["earliest"], pid
        assert rows[pid]["route"] == [s["provision"] for s in best["steps"]]


@pytest.mark.parametrize(("on", "today", "earliest"), [("2024-06-27", False, "2024-06-28"), ("2024-06-28", True, "2024-06-28")])
def test_a_yaml_cohort_trainee_with_a_log_at_the_360th_credited_day(tmp_path, on, today, earliest):
    """Continuous service from 1 Jan 2023: 359 credited days on 27 Jun 2024, 360 on 28 Jun 2024 (§ 6 Abs. 4 SchBV),
    so the Matrose UBZ of § 12 Z 2 SchBV (Anlage 8 passed) is issuable from 28 Jun 2024."""
    path = tmp_path / "cohort.yaml"
    path.write_text(yaml.safe_dump({"trainees": [
        {"id": "lea", "birth_date": "2000-01-01", "medical_fitness": True, "exams": ["Anlage8"],
         "service": [{"from": "2023-01-01", "to": "2024-12-31", "role": "Decksmann"}]}]}), encoding="utf-8")
    law, day = load_law(), date.fromisoformat(on)
    [row] = evaluate_cohort(law, load_cohort(path, law, day), "UBZ-Matrose", day, Pace.from_kb())
    assert row["error"] is None and row["target_today"] is today and row["earliest"] == earliest


def test_a_bad_record_link_is_reported_for_its_row_and_the_others_are_evaluated(tmp_path):
    (tmp_path / "franz.yaml").write_text((PERSONS / "20-franz-schifferdienstbuch.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "cohort.csv"
    path.write_text("id,record,sailing_days.Matrose\n"
                    "gone,nowhere.yaml,\n"
                    "both,franz.yaml,10\n"
                    "other-id,franz.yaml,\n"
                    "fine,,10\n", encoding="utf-8")
    law = load_law()
    rows = {r["id"]: r for r in evaluate_cohort(law, load_cohort(path, law, AS_OF), "UBZ-Matrose", AS_OF, Pace.from_kb(), lang="en")}
    assert "row 2" in rows["gone"]["error"] and "'record'" in rows["gone"]["error"] and "existing record file" in rows["gone"]["error"]
    assert "row 3" in rows["both"]["error"] and "sailing_days" in rows["both"]["error"] and "nothing but the id" in rows["both"]["error"]
    assert "row 4" in rows["other-id"]["error"] and "franz-huber" in rows["other-id"]["error"]
    assert rows["fine"]["error"] is None
    # a YAML cohort links the same way
    linked = tmp_path / "cohort.yaml"
    linked.write_text(yaml.safe_dump({"trainees": [{"record": "franz.yaml"}, {"id": "x", "record": "franz.yaml"}]}), encoding="utf-8")
    first, second = evaluate_cohort(law, load_cohort(linked, law, AS_OF), "UBZ-Matrose", AS_OF, Pace.from_kb(), lang="en")
    assert first["id"] == "franz-huber" and first["error"] is None and first["holds_target"] is True
    assert "trainees[1]" in second["error"] and "franz-huber" in second["error"]


@pytest.mark.parametrize(("name", "text"), [
    ("c.json", '[{"id": "t1", "birth_date": "2000-01-01"}, {"id": "t2"}]'),
    ("c.yaml", "- id: t1\n  birth_date: 2000-01-01\n- id: t2\n"),
    ("t.yaml", "trainees:\n  - id: t1\n    birth_date: 2000-01-01\n  - id: t2\n"),
])
def test_a_cohort_is_a_plain_list_of_records_or_a_trainees_key(tmp_path, name, text):
    """The help promises 'YAML/JSON (a list of records)'; a plain list was refused as 'not a mapping'."""
    path = tmp_path / name
    path.write_text(text)
    assert [t.id for t in load_cohort(path, load_law(), AS_OF)] == ["t1", "t2"]


def test_a_cohort_csv_names_a_bad_row_in_english_and_in_the_language_asked(tmp_path):
    path = tmp_path / "cohort.csv"
    path.write_text("id,birth_date,sailing_days.Matrose\ngood,2000-01-01,170\nbad,2000-01-01,-5\n", encoding="utf-8")
    result = runner.invoke(app, ["cohort", str(path), "--target", "UBZ-Bootsmann", "--as-of", "2026-11-30",
                                 "--format", "csv", "--lang", "de"])
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(result.stdout))}
    assert "expected a number that is not negative" in rows["bad"]["error"]
    assert "Zeile 3: Feld „sailing_days.Matrose“: erwartet wird" in rows["bad"]["detail"]
    assert rows["good"]["error"] == rows["good"]["detail"] == ""
