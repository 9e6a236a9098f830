"""Fastest routes (`crewkg plan`), checked by hand for the example persons on 2026-11-30 at the § 6 Abs. 4 SchBV pace:
at most 180 credited days in any 365 consecutive days, so n days from a fresh window end on day
(n-1)//180*365 + (n-1)%180 + 1 — 180 → day 180, 360 → day 545, 540 → day 910, 720 → day 1275."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.careers.planning import Pace, accrue
from crewkg.careers.routes import plan, plan_lines, replacements, why_first
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.records.load import load_persons
from crewkg.records.persons import person_from_mapping

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
runner = CliRunner()


def day(n: int) -> str:
    return (AS_OF + timedelta(days=n)).isoformat()


def _plan(person, target: str, days: int | None = None) -> dict:
    law = load_law()
    answer = check(law, [person], AS_OF)[0]
    return plan(law, person, answer, target, AS_OF, Pace.from_kb(days=days))


def example(name: str, target: str, days: int | None = None) -> dict:
    (person,) = load_persons(EXAMPLES / name, load_law(), AS_OF)
    return _plan(person, target, days)


def record(data: dict, target: str, days: int | None = None) -> dict:
    return _plan(person_from_mapping(data, load_law(), AS_OF, "test"), target, days)


def chain(route: dict) -> list[tuple[str, str | None]]:
    return [(s["provision"], s["earliest"]) for s in route["steps"]]


def item(step: dict, provision: str) -> dict:
    return next(m for m in step["remaining"] if m["provision"] == provision)


# --- the pace --------------------------------------------------------------------------------------------------


def _greedy(history: set[int], start: int, n: int, cap: int = 180, period: int = 365) -> int:
    """Day-by-day reference: credit a day when the 365-day window ending on it holds fewer than 180."""
    credited, d = set(history), start
    while True:
        if sum(1 for x in range(d - period + 1, d) if x in credited) < cap:
            credited.add(d)
            n -= 1
            if n == 0:
                return d
        d += 1


def test_closed_form_crediting_matches_day_by_day_crediting_and_never_exceeds_180_in_365():
    pace = Pace(180, 365, "§ 6 Abs. 4 SchBV")
    rnd = random.Random(4)
    for _ in range(60):
        ledger, start = (), 1
        for _ in range(rnd.randint(0, 3)):
            last, ledger = accrue(ledger, start, rnd.randint(1, 300), pace)
            start = last + 1 + rnd.randint(0, 400)
        history = {d for a, b in ledger for d in range(a, b + 1)}
        n = rnd.randint(1, 600)
        last, after = accrue(ledger, start, n, pace)
        assert last == _greedy(history, start, n)
        days = sorted(d for a, b in after for d in range(a, b + 1))
        assert len(days) == len(history) + n
        assert all(sum(1 for x in days if d - 364 <= x <= d) <= 180 for d in days[::7])


@pytest.mark.parametrize(("n", "last"), [(1, 1), (180, 180), (181, 366), (360, 545), (361, 731), (540, 910), (720, 1275)])
def test_n_days_from_a_fresh_window_end_on_the_day_the_pace_allows(n, last):
    assert accrue((), 1, n, Pace.from_kb())[0] == last


# --- routes of the example persons -----------------------------------------------------------------------------


def test_ali_newcomer_reaches_steuermann_fastest_by_the_programme_of_14_Z2_not_by_fahrzeit():
    """§ 14 Z 2: 36 months from 2026-11-30 → the programme's last day 2029-11-29 (360 days within are credited by day 545).
    Fahrzeit route § 12 Z 2 → § 13 Z 1 → § 14 Z 1: 360, 540, 720 credited days → days 545, 910, 1275."""
    result = example("09-ali-newcomer.yaml", "UBZ-Steuermann")
    first = result["routes"][0]
    second = next(r for r in result["routes"] if chain(r)[0][0] == "§ 12 Z 2 SchBV")  # ties with § 13 Z 2 → § 14 Z 1
    assert chain(first) == [("§ 14 Z 2 SchBV", "2029-11-29")]
    assert chain(second) == [("§ 12 Z 2 SchBV", day(545)), ("§ 13 Z 1 SchBV", day(910)), ("§ 14 Z 1 SchBV", day(1275))]
    assert second["earliest"] == "2030-05-28"
    within = item(first["steps"][0], "§ 14 Z 2 lit. b SchBV")
    assert (within["needed"], within["have"], within["met_on"]) == (360, 0, day(545))
    radio = item(first["steps"][0], "§ 14 Z 2 lit. c SchBV")
    assert radio["kind"] == "Document" and radio["met_on"] == "2029-11-29"  # listed, takes no time


def test_ali_cannot_plan_the_sea_master_route_of_14_Z3():
    result = example("09-ali-newcomer.yaml", "UBZ-Steuermann")
    (blocked,) = [r for r in result["routes"] if chain(r)[0][0] == "§ 14 Z 3 SchBV"]
    assert blocked["earliest"] is None
    sea = item(blocked["steps"][0], "§ 14 Z 3 lit. a SchBV")
    assert (sea["kind"], sea["needed"], sea["have"], sea["met_on"]) == ("SeaTime", 500, 0, None)
    assert result["routes"][-1]["earliest"] is None  # routes that cannot be planned come last


def test_piotr_reaches_matrose_today_because_his_sea_time_is_the_fastest_alternative_of_12_Z2_lit_c():
    result = example("02-piotr-sea-deckhand.yaml", "UBZ-Matrose")
    assert chain(result["routes"][0]) == [("§ 12 Z 2 SchBV", "2026-11-30")]
    assert result["routes"][0]["steps"][0]["remaining"] == []


def test_with_100_inland_days_the_sea_alternative_of_12_Z2_lit_c_is_planned_80_days_ahead():
    data = yaml.safe_load((EXAMPLES / "02-piotr-sea-deckhand.yaml").read_text(encoding="utf-8"))
    data["sailing_days"] = {"Decksmann": 100}
    step = record(data, "UBZ-Matrose")["routes"][0]["steps"][0]
    lit_c = item(step, "§ 12 Z 2 lit. c SchBV")
    assert lit_c["plan"] == 2  # 180 days + 250 sea days: 80 more days
    assert [a["met_on"] for a in lit_c["alternatives"]] == [day(445), day(80)]  # 360: 260 more → 365 + 80
    assert step["earliest"] == day(80) == "2027-02-18"
    data.pop("sea_days")
    assert record(data, "UBZ-Matrose")["routes"][0]["earliest"] == day(445)


def test_maria_needs_40_more_days_as_matrose_for_bootsmann_under_13_Z1():
    first = example("03-maria-matrose-to-bootsmann.yaml", "UBZ-Bootsmann")["routes"][0]
    assert chain(first) == [("§ 13 Z 1 SchBV", "2027-01-09")]
    days = item(first["steps"][0], "§ 13 Z 1 SchBV")
    assert (days["needed"], days["have"], days["role"]) == (180, 140, "Matrose")


def test_days_served_as_matrose_without_the_ubz_matrose_lead_to_bootsmann_today_as_check_says():
    """§ 13 Z 1 SchBV asks 'eine als Matrosin bzw. Matrose geleistete Mindestfahrzeit von 180 Tagen', not the UBZ
    Matrose: with 180 days served the plan says today, as `check` does. With 179, the day still missing is served
    after the UBZ Matrose (crew:presupposes: new days as Matrose are served holding it), so the route passes it."""
    data = {"id": "g1", "birth_date": "1990-01-01", "medical_fitness": True, "sailing_days": {"Matrose": 180}}
    assert chain(record(data, "UBZ-Bootsmann")["routes"][0]) == [("§ 13 Z 1 SchBV", "2026-11-30")]
    data["sailing_days"] = {"Matrose": 179}
    first = record(data, "UBZ-Bootsmann")["routes"][0]
    assert [s["certificate"] for s in first["steps"]] == ["UBZ-Matrose", "UBZ-Bootsmann"]


def test_maria_reaches_schiffsfuehrer_fastest_by_15_Z3_and_days_as_bootsmann_start_only_after_its_certificate():
    result = example("03-maria-matrose-to-bootsmann.yaml", "UBZ-Schiffsfuehrer")
    first, second = result["routes"][:2]
    assert chain(first) == [("§ 15 Z 3 SchBV", day(130))]  # 540 - 410 days
    # 40 days as Matrose (days 1–40); then as Bootsmann 140 days fit the first window (41–180), 40 more from day 366
    assert chain(second) == [("§ 13 Z 1 SchBV", day(40)), ("§ 14 Z 1 SchBV", day(405)), ("§ 15 Z 2 SchBV", day(405))]
    bootsmann_days = item(second["steps"][1], "§ 14 Z 1 lit. a SchBV")
    assert bootsmann_days["have"] == 0  # her 140 days as Matrose do not count as days as Bootsmann


def test_tobias_serves_as_matrose_only_after_the_certificate_so_bootsmann_is_180_days_away():
    result = example("06-tobias-programme-graduate.yaml", "UBZ-Bootsmann")
    assert chain(result["routes"][0]) == [("§ 12 Z 1 SchBV", "2026-11-30"), ("§ 13 Z 1 SchBV", day(180))]


def test_lena_reaches_matrose_the_day_after_her_18th_birthday_when_her_315_days_are_credited():
    first = example("01-lena-apprentice.yaml", "UBZ-Matrose")["routes"][0]
    assert chain(first) == [("§ 12 Z 2 SchBV", day(500))]  # 360 - 45 = 315 days → 365 + 135
    age = item(first["steps"][0], "§ 12 Z 2 lit. a SchBV")
    assert (age["needed"], age["have"], age["met_on"]) == (18, 16, "2028-04-12")


def test_henrik_goes_from_sea_master_to_schiffsfuehrer_in_180_inland_days():
    """His 500 days as master at sea are days as member of a deck crew (§ 2 Z 4 SchBV), so § 15 Z 3 lit. b needs
    only 180 days of Fahrzeit: one step on the same day as the two-step route via Steuermann (§ 14 Z 3, § 15 Z 2)."""
    result = example("08-henrik-former-sea-captain.yaml", "UBZ-Schiffsfuehrer")
    assert chain(result["routes"][0]) == [("§ 15 Z 3 SchBV", day(180))]
    assert chain(result["routes"][1]) == [("§ 14 Z 3 SchBV", "2026-11-30"), ("§ 15 Z 2 SchBV", day(180))]
    exams = item(result["routes"][1]["steps"][1], "§ 15 Z 2 lit. d SchBV")
    assert exams["met_on"] == day(180)  # taken once admitted, no extra time


def test_markus_already_qualifies_for_schiffsfuehrer_under_15_Z4():
    first = example("12-markus-sea-to-boatmaster-programme.ttl", "UBZ-Schiffsfuehrer")["routes"][0]
    assert chain(first) == [("§ 15 Z 4 SchBV", "2026-11-30")] and first["steps"][0]["remaining"] == []


def test_georg_with_an_expired_medical_still_reaches_bootsmann_in_30_days_as_13_Z1_names_no_medical():
    result = example("10-georg-medical-expired.yaml", "UBZ-Bootsmann")
    assert chain(result["routes"][0]) == [("§ 13 Z 1 SchBV", day(30))]
    medical = item(result["routes"][1]["steps"][0], "§ 13 Z 2 lit. c SchBV")
    assert medical["have"] is False and medical["valid_until"] == "2026-09-30"


def test_a_medical_certificate_expiring_before_the_step_is_listed_as_remaining():
    """Jonas' medical is valid until 2029-01-31; the 36-month programme of § 15 Z 1 ends 2029-11-29."""
    result = example("04-jonas-steuermann-one-exam-short.yaml", "UBZ-Schiffsfuehrer")
    (z1,) = [r for r in result["routes"] if chain(r)[0][0] == "§ 15 Z 1 SchBV"]
    medical = item(z1["steps"][0], "§ 15 Z 1 lit. e SchBV")
    assert (medical["have"], medical["valid_until"], medical["met_on"]) == (False, "2029-01-31", "2029-11-29")
    z2 = result["routes"][0]  # the exam route today: his medical is valid today
    assert chain(z2) == [("§ 15 Z 2 SchBV", "2026-11-30")]
    assert [m["kind"] for m in z2["steps"][0]["remaining"]] == ["Exam"]


def test_a_person_holding_the_target_gets_one_empty_route():
    result = example("07-katharina-bootsmann-to-steuermann.yaml", "UBZ-Bootsmann")
    assert result["routes"] == [{"earliest": "2026-11-30", "steps": []}]


def test_a_slower_pace_moves_the_dates():
    """At 90 days per 365: Ali's 360 days for § 12 Z 2 end on day 3 * 365 + 90."""
    result = example("09-ali-newcomer.yaml", "UBZ-Matrose", days=90)
    (z2,) = [r for r in result["routes"] if chain(r)[0][0] == "§ 12 Z 2 SchBV"]
    assert z2["earliest"] == day(3 * 365 + 90)


# --- output ----------------------------------------------------------------------------------------------------


def test_the_json_answer_has_exactly_the_issue_s_shape(tmp_path):
    result = runner.invoke(app, ["plan", str(EXAMPLES / "09-ali-newcomer.yaml"), "--target", "UBZ-Steuermann",
                                 "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert set(answer) == {"person", "target", "as_of", "routes"}
    assert answer["person"] == "ali-yilmaz" and answer["target"] == "UBZ-Steuermann"
    for route in answer["routes"]:
        assert set(route) == {"earliest", "steps"}
        for s in route["steps"]:
            assert set(s) == {"certificate", "provision", "remaining", "earliest"}
            for m in s["remaining"]:
                assert {"needed", "have", "unit", "provision", "met_on"} <= set(m)
    dates = [r["earliest"] for r in answer["routes"] if r["earliest"]]
    assert dates == sorted(dates)


def test_the_text_says_in_one_sentence_why_route_1_beats_route_2():
    result = example("09-ali-newcomer.yaml", "UBZ-Steuermann")
    law = load_law()
    de = why_first(law, result, "de")
    assert de.startswith("Weg 1 ist am 2029-11-29 abgeschlossen, 180 Tage vor Weg 2 (2030-05-28)")
    assert "Weg 1 1095 Tage braucht (§ 14 Z 2 1095 Tage)" in de
    assert "Weg 2 1275 Tage (§ 13 Z 2 1095 Tage + § 14 Z 1 180 Tage;" in de  # ties with § 12 Z 2 → § 13 Z 1 → § 14 Z 1, fewer steps first
    en = why_first(law, result, "en")
    assert en.startswith("Route 1 is complete on 2029-11-29, 180 days before route 2 (2030-05-28)")
    lines = plan_lines(law, result, Pace.from_kb(), "en")
    assert lines[-1] == "Why route 1: " + en


def test_the_sentence_names_the_blocker_when_route_2_cannot_be_planned():
    result = example("02-piotr-sea-deckhand.yaml", "UBZ-Matrose")
    result["routes"] = [result["routes"][0], result["routes"][-1]]
    sentence = why_first(load_law(), result, "en")
    assert "route 2 cannot be planned" in sentence and "§ 12 Z 3 lit. a SchBV" in sentence


BERTA = {"id": "berta", "birth_date": "2000-01-15", "medical_fitness": True,
         "sailing_days": {"Decksmann": 200, "Matrose": 140}, "exams": ["Anlage8"], "certificates": ["UBZ-Matrose"]}


@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Nur dieser eine Weg der Laufbahn führt zu UBZ Decksmann; die Ersetzung einer Befähigung nach älterem Recht "
           "(§ 47 Abs. 4 SchBV, § 47 Abs. 4 letzter Satz SchBV) ist am Stichtag nicht erfüllt, `crewkg check` sagt, was fehlt."),
    ("en", "Only this one career route leads to UBZ deckhand; replacing a qualification held under earlier law "
           "(§ 47 Abs. 4 SchBV, § 47 Abs. 4 letzter Satz SchBV) is not met on the evaluation date, `crewkg check` says what is missing."),
])
def test_a_single_route_does_not_claim_to_be_the_only_way_when_a_replacement_pathway_exists(lang, sentence):
    """`check` lists § 10 and § 47 Abs. 4 (the identical and the lower UBZ) for the UBZ Decksmann; the replacement of an earlier qualification is not
    met, so the plan has one route, and says so instead of calling it the only way."""
    result = record(BERTA, "UBZ-Decksmann")
    assert len(result["routes"]) == 1
    assert replacements(load_law(), "UBZ-Decksmann") == [
        {"pathway": "Pathway-SchBV2022-P47-Abs4-Decksmann", "provision": "§ 47 Abs. 4 SchBV"},
        {"pathway": "Pathway-SchBV2022-P47-Abs4-Niedriger-Decksmann", "provision": "§ 47 Abs. 4 letzter Satz SchBV"}]
    assert why_first(load_law(), result, lang) == sentence


def test_a_single_route_to_a_certificate_without_replacement_is_the_only_way():
    result = record(BERTA, "Decksmann-AT")
    assert len(result["routes"]) == 1 and replacements(load_law(), "Decksmann-AT") == []
    assert why_first(load_law(), result, "de") == "Nur dieser eine Weg führt zu Befähigungsausweis Decksfrau – AT bzw. Decksmann – AT."


def test_plan_text_in_german_lists_each_step_and_when_each_requirement_is_met():
    result = runner.invoke(app, ["plan", str(EXAMPLES / "03-maria-matrose-to-bootsmann.yaml"), "--target", "UBZ-Bootsmann",
                                 "--as-of", "2026-11-30"])
    assert result.exit_code == 0, result.output
    assert "noch 40 Tage Fahrzeit als Matrosin bzw. Matrose (§ 13 Z 1 SchBV) → 2027-01-09" in result.stdout
    assert "Warum Weg 1:" in result.stdout


def test_plan_draws_the_route_on_the_career_graph(tmp_path):
    out = tmp_path / "route.svg"
    result = runner.invoke(app, ["plan", str(EXAMPLES / "09-ali-newcomer.yaml"), "--target", "UBZ-Steuermann",
                                 "--as-of", "2026-11-30", "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "ali-yilmaz" in svg and "#d9480f" in svg  # the title names the person; the route is drawn highlighted
    # where it wrote on standard error (as export, paths, timeline and cohort say it); the JSON answer stays alone
    assert result.stderr == f"{out}: schnellster Weg von ali-yilmaz auf dem Laufbahngraphen\n"
    assert json.loads(result.stdout)["person"] == "ali-yilmaz"


@pytest.mark.parametrize(("args", "expected"), [
    (["--target", "UBZ-Kapitaen"], "UBZ-Kapitaen"),
    (["--target", "UBZ-Matrose", "--days-per-year", "200"], "§ 6 Abs. 4 SchBV"),
    (["--target", "UBZ-Matrose", "--out", "route.txt"], ".svg, .png or .html"),
])
def test_bad_plan_arguments_exit_2_with_one_message(tmp_path, args, expected):
    args = [a if a != "route.txt" else str(tmp_path / a) for a in args]
    result = runner.invoke(app, ["plan", str(EXAMPLES / "09-ali-newcomer.yaml"), "--as-of", "2026-11-30", *args, "--lang", "en"])
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_days_per_year_below_the_law_are_said_as_the_users_assumption_with_the_legal_maximum(tmp_path):
    """`--days-per-year 100` printed 'Fahrzeit höchstens 100 Tage in 365 aufeinanderfolgenden Tagen (§ 6 Abs. 4
    SchBV)', crediting the user's 100 to the provision, which says 180 (the kb's number, not written here)."""
    from crewkg.law.crediting import crediting_limits
    from crewkg.rules.kinds import cited

    legal = crediting_limits().get("InlandNavigation")
    de, en = cited(legal.citation, "de"), cited(legal.citation, "en")  # § 6 Abs. 4: said to be the kb's paraphrase
    ali = str(EXAMPLES / "09-ali-newcomer.yaml")
    args = ["plan", ali, "--target", "UBZ-Matrose", "--as-of", "2026-11-30"]
    head = " ".join(runner.invoke(app, [*args, "--days-per-year", "100"]).stdout.split("\n\n")[0].split())
    assert f"; angenommen 100 Tage Fahrzeit in {legal.period} aufeinanderfolgenden Tagen (höchstens {legal.days} nach {de})" in head, head
    head = " ".join(runner.invoke(app, [*args, "--days-per-year", "100", "--lang", "en"]).stdout.split("\n\n")[0].split())
    assert f"; assumed 100 days of sailing time in {legal.period} consecutive days (at most {legal.days} under {en})" in head, head
    head = " ".join(runner.invoke(app, args).stdout.split("\n\n")[0].split())  # the law's own pace, as before
    assert f"; Fahrzeit höchstens {legal.days} Tage in {legal.period} aufeinanderfolgenden Tagen ({de})" in head, head
    out = tmp_path / "route.svg"
    assert runner.invoke(app, [*args, "--days-per-year", "100", "--out", str(out)]).exit_code == 0
    assert f"angenommen 100 Tage in {legal.period}" in out.read_text(encoding="utf-8")
    cohort = EXAMPLES.parent / "cohorts" / "schifffahrtsschule-2026.csv"
    report = tmp_path / "r.html"
    runner.invoke(app, ["cohort", str(cohort), "--target", "UBZ-Matrose", "--as-of", "2026-11-30", "--days-per-year", "100",
                        "--out", str(report)])
    assert f"Angenommen 100 Tage Fahrzeit in {legal.period} aufeinanderfolgenden Tagen (höchstens {legal.days} nach " \
           in report.read_text(encoding="utf-8")


def test_plan_needs_exactly_one_person():
    result = runner.invoke(app, ["plan", str(EXAMPLES), "--target", "UBZ-Matrose", "--as-of", "2026-11-30", "--lang", "en"])
    assert result.exit_code == 2 and "exactly one person record" in result.output


def test_a_running_programme_is_planned_to_its_end_not_started_anew():
    """A Schiffsführer programme of 18 months running from 1 Sep 2025 to 28 Feb 2027 with its 180 days within already
    served: § 15 Z 4 needs only the 180 days after it, from 1 Mar 2027, the 180th on 27 Aug 2027 (it planned a new
    programme of 18 months from the evaluation date: 2028). On 28 Feb 2027 its completed months reach 18."""
    data = {"id": "otto", "birth_date": "1980-01-01", "medical_fitness": True, "radio_certificate": True,
            "professional_experience_years": 6,
            "programmes": [{"for": "Schiffsfuehrer", "from": "2025-09-01", "to": "2027-02-28"}],
            "service": [{"from": "2026-03-01", "to": "2026-08-31", "role": "Matrose"}]}
    result = record(data, "UBZ-Schiffsfuehrer")
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 15 Z 4 SchBV"])
    assert chain(route) == [("§ 15 Z 4 SchBV", "2027-08-27")]
    assert item(route["steps"][0], "§ 15 Z 4 lit. b SchBV")["met_on"] == "2027-02-28"


def test_a_running_programme_longer_than_asked_counts_on_its_last_day_not_when_its_months_reach_the_minimum():
    """'absolviert' (§ 12 Z 1 lit. b SchBV): a Matrosen programme of 36 months from 1 Jan 2024 to 31 Dec 2026 has
    more than the 24 months asked on the evaluation date (30 Nov 2026: 35), but counts only once completed, on
    31 Dec 2026; the plan's § 12 Z 1 step is that day, and check answers it is not issuable yet."""
    data = {"id": "lisa", "birth_date": "2000-01-01", "medical_fitness": True,
            "programmes": [{"for": "Matrose", "from": "2024-01-01", "to": "2026-12-31"}],
            "service": [{"from": "2024-04-01", "to": "2024-06-29", "role": "Leichtmatrose"}]}
    result = record(data, "UBZ-Matrose")
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 12 Z 1 SchBV"])
    assert chain(route) == [("§ 12 Z 1 SchBV", "2026-12-31")]
    assert item(route["steps"][0], "§ 12 Z 1 lit. b SchBV")["met_on"] == "2026-12-31"


def test_a_running_programme_of_a_record_with_totals_is_planned_to_its_last_day():
    """The same for a record that gives totals (no service log): its running programme of 24 months completes on
    31 Aug 2026 and § 12 Z 1 is route 1 on that day, as check says on that day."""
    data = {"id": "ptot", "birth_date": "2000-01-01", "medical_fitness": True, "sailing_days": {"Decksmann": 100},
            "programmes": [{"for": "Matrose", "from": "2024-09-01", "to": "2026-08-31", "sailing_days": 100}]}
    law = load_law()
    on = date(2026, 3, 1)
    person = person_from_mapping(data, law, on, "test")
    result = plan(law, person, check(law, [person], on)[0], "UBZ-Matrose", on, Pace.from_kb())
    assert chain(result["routes"][0]) == [("§ 12 Z 1 SchBV", "2026-08-31")]
    on_the_day = check(law, [person_from_mapping(data, law, date(2026, 8, 31), "test")], date(2026, 8, 31), "en")[0]
    assert "UBZ-Matrose" in {c["id"] for c in on_the_day["certificates"] if c["eligible"]}


@pytest.mark.parametrize("record", [
    {"sailing_days": {"Decksmann": 100},
     "programmes": [{"for": "Matrose", "from": "2027-01-01", "to": "2028-12-31", "sailing_days": 0, "sailing_days_after": 0}]},
    {"service": [{"from": "2025-03-01", "to": "2025-06-30", "role": "Decksmann"}],
     "programmes": [{"for": "Matrose", "from": "2027-01-01", "to": "2028-12-31"}]}], ids=["totals", "log"])
def test_a_programme_not_yet_begun_is_planned_from_its_first_day_not_replaced_by_a_new_one(record):
    """A trainee enrolled in a Matrosen programme from 1 Jan 2027 to 31 Dec 2028 (§ 12 Z 1 SchBV): on 30 Nov 2026 the
    plan waits for it rather than planning a new one from the evaluation date (which would end on 29 Nov 2028); its 90
    days within (lit. c) are sailed from its first day, the 90th on 31 Mar 2027, and it counts once completed, on
    its last day."""
    data = {"id": "fut", "birth_date": "2000-01-01", "medical_fitness": True} | record
    law = load_law()
    person = person_from_mapping(data, law, AS_OF, "test")
    result = plan(law, person, check(law, [person], AS_OF)[0], "UBZ-Matrose", AS_OF, Pace.from_kb())
    route = next(r for r in result["routes"] if [s["provision"] for s in r["steps"]] == ["§ 12 Z 1 SchBV"])
    assert chain(route) == [("§ 12 Z 1 SchBV", "2028-12-31")]
    assert item(route["steps"][0], "§ 12 Z 1 lit. b SchBV")["met_on"] == "2028-12-31"
    assert item(route["steps"][0], "§ 12 Z 1 lit. c SchBV")["met_on"] == "2027-03-31"


# --- § 47 replacements met on the evaluation date are planned as a first step ------------------------------------
KAPITAEN = {"id": "kapitaen", "birth_date": "1970-04-04", "medical_fitness": True, "radio_certificate": True,
            "certificates": [{"id": "Kapitaenspatent-B", "issued": "2001-05-01"}]}
ALT_MATROSE = {"id": "alt", "birth_date": "1980-04-04", "medical_fitness": True,
               "certificates": [{"id": "SchBesV2004-Matrose", "issued": "2006-05-01"}], "sailing_days": {"Matrose": 150}}


def test_a_replacement_met_today_is_route_1_to_its_certificate():
    """check: UBZ Schiffsführer issuable today under § 47 Abs. 6 Z 2; the plan says the same, not 2028 by § 15."""
    result = record(KAPITAEN, "UBZ-Schiffsfuehrer")
    first = result["routes"][0]
    assert chain(first) == [("§ 47 Abs. 6 Z 2 SchBV", day(0))] and first["earliest"] == day(0)
    assert first["steps"][0]["remaining"] == []
    assert all(r["earliest"] is None or r["earliest"] > day(0) for r in result["routes"][1:])


def test_the_routes_onward_from_a_replacement_start_on_the_evaluation_date():
    """§ 47 Abs. 4 gives the UBZ Matrose today; § 13 Z 1 then asks 180 days as Matrose, 150 are there: 30 more."""
    result = record(ALT_MATROSE, "UBZ-Bootsmann")
    assert chain(result["routes"][0]) == [("§ 47 Abs. 4 SchBV", day(0)), ("§ 13 Z 1 SchBV", day(30))]
    without = record({**ALT_MATROSE, "certificates": []}, "UBZ-Bootsmann")
    assert all(s["provision"] != "§ 47 Abs. 4 SchBV" for r in without["routes"] for s in r["steps"])
    assert without["routes"][0]["earliest"] > day(30)


def test_a_replacement_lacking_only_the_medical_fitness_is_planned_today_with_it_remaining():
    """Without the medical fitness § 47 Abs. 6 is not met ('bei Nachweis der Identität und der medizinischen
    Tauglichkeit'); a document takes no time (the planning assumptions), so route 1 is still § 47 Abs. 6 Z 2 on the
    evaluation date, with the medical fitness remaining, not § 15 two years later."""
    result = record({**KAPITAEN, "medical_fitness": False}, "UBZ-Schiffsfuehrer")
    first = result["routes"][0]
    assert chain(first) == [("§ 47 Abs. 6 Z 2 SchBV", day(0))]
    assert [(m["kind"], m["document"], m["met_on"]) for m in first["steps"][0]["remaining"]] == [
        ("Document", "MedicalFitness", day(0))]


def test_a_replacement_lacking_more_than_documents_is_not_planned():
    """The Berechtigung Maritim replaces a Kapitänspatent A (§ 47 Abs. 6 Z 1); a holder of the Kapitänspatent B lacks
    that certificate, which no time gives: no route begins with that replacement, with or without the medical."""
    for fit in (True, False):
        result = record({**KAPITAEN, "medical_fitness": fit}, "Berechtigung-Maritim")
        assert all(s["provision"] != "§ 47 Abs. 6 Z 1 SchBV" for r in result["routes"] for s in r["steps"])
    held_a = record({**KAPITAEN, "certificates": [{"id": "Kapitaenspatent-A", "issued": "2001-05-01"}]}, "Berechtigung-Maritim")
    assert chain(held_a["routes"][0]) == [("§ 47 Abs. 6 Z 1 SchBV", day(0))]


@pytest.mark.parametrize(("fit", "first"), [(True, "§ 47 Abs. 7 SchBV"), (False, None)])
def test_a_certificate_only_a_replacement_leads_to_is_a_target(fit, first, tmp_path):
    """The Schiffsführerpatent – AT has no career pathway, only § 47 Abs. 7, 10 and 12: planned when one is met
    today, else no route and a sentence that says why."""
    rec = {**KAPITAEN, "functions": ["Eignung-SchBV-P30-Abs4"] if fit else []}
    result = record(rec, "Schiffsfuehrerpatent-AT")
    assert [chain(r) for r in result["routes"]] == ([[(first, day(0))]] if first else [])
    if not first:
        assert why_first(load_law(), result, "en") == (
            "The kb encodes only the replacement of a qualification held under earlier law as a way to Schiffsführerpatent – AT "
            "(national boatmaster's patent) (§ 47 Abs. 7 SchBV, § 47 Abs. 10 SchBV, § 47 Abs. 12 SchBV) — its other "
            "conditions are not in the sources —, not met on the evaluation date; `crewkg check` says what is missing.")
    path = tmp_path / "kapitaen.yaml"
    path.write_text(yaml.safe_dump(rec), encoding="utf-8")
    cli = runner.invoke(app, ["plan", str(path), "--target", "Schiffsfuehrerpatent-AT", "--as-of", AS_OF.isoformat(), "--lang", "en"])
    assert cli.exit_code == 0, cli.output


@pytest.mark.parametrize(("as_of", "lapsed"), [("2026-05-03", False), ("2026-05-04", True)])
def test_a_held_target_that_does_not_count_is_said_so_with_its_provision(as_of, lapsed):
    """Helga holds the UBZ Schiffsführer; from her 70th birthday (4 May 2026) her proof of 15 Apr 2024 is overdue
    (§ 22 Abs. 1 SchBV): the plan says she holds it and, from that day, that it does not count and why."""
    path = EXAMPLES / "32-helga-boatmaster-at-70.yaml"
    out = runner.invoke(app, ["plan", str(path), "--target", "UBZ-Schiffsfuehrer", "--as-of", as_of, "--lang", "en"])
    assert out.exit_code == 0, out.output
    assert "helga-berger already holds UBZ boatmaster." in out.stdout
    said = f"But it does not count on {as_of}: UBZ boatmaster gives no role while the proof of medical fitness is overdue"
    assert (said in out.stdout) is lapsed
    # § 22 Abs. 1 is the kb's paraphrase: cited as such (rules.kinds.cited)
    assert ("(§ 22 Abs. 1 SchBV, paraphrased: its wording is not in the texts crewkg bundles)" in out.stdout) is lapsed
    data = json.loads(runner.invoke(app, ["plan", str(path), "--target", "UBZ-Schiffsfuehrer", "--as-of", as_of,
                                          "--format", "json"]).stdout)
    assert [x["reason"] for x in data.get("held_not_counting", [])] == (["medical_overdue"] if lapsed else [])


def test_the_plan_says_what_its_dates_assume_and_not_when_nothing_is_planned():
    anna = EXAMPLES / "anna-matrose.yaml"
    en = runner.invoke(app, ["plan", str(anna), "--target", "UBZ-Steuermann", "--as-of", "2026-11-30", "--lang", "en"]).stdout
    assert en.splitlines()[1].startswith("The dates assume: exams and proofs without a duration of their own")
    de = runner.invoke(app, ["plan", str(anna), "--target", "UBZ-Steuermann", "--as-of", "2026-11-30"]).stdout
    assert de.splitlines()[1].startswith("Die Termine setzen voraus: Prüfungen und Nachweise, die keine eigene Dauer haben")
    held = runner.invoke(app, ["plan", str(anna), "--target", "UBZ-Matrose", "--as-of", "2026-11-30", "--lang", "en"]).stdout
    assert "already holds" in held and "The dates assume" not in held


@pytest.mark.parametrize(("issued", "held_from"), [("2026-11-30", None), ("2026-12-01", "2026-12-01")])
def test_a_target_issued_after_the_evaluation_date_is_held_only_from_that_day(tmp_path, issued, held_from):
    rec = tmp_path / "later.yaml"
    rec.write_text(f"id: later\nbirth_date: 1990-01-01\nmedical_fitness: true\ncertificates: [{{id: UBZ-Matrose, issued: {issued}}}]\n",
                   encoding="utf-8")
    data = json.loads(runner.invoke(app, ["plan", str(rec), "--target", "UBZ-Matrose", "--as-of", "2026-11-30",
                                          "--format", "json"]).stdout)
    assert data.get("held_from") == held_from and data["routes"][0]["earliest"] == (held_from or "2026-11-30")
    text = runner.invoke(app, ["plan", str(rec), "--target", "UBZ-Matrose", "--as-of", "2026-11-30", "--lang", "en"]).stdout
    said = "later holds UBZ boatman only from 2026-12-01: on 2026-11-30 it is not yet issued."
    assert (said in text) is (held_from is not None) and ("already holds" in text) is (held_from is None)


@pytest.mark.parametrize("target, provision", [("UBZ-SachkundigerLNG", "§ 17 SchBV"),
                                               ("UBZ-SachkundigerFahrgastschifffahrt", "§ 16 SchBV")])
def test_a_target_whose_conditions_the_sources_lack_is_planned_as_not_covered(target, provision):
    """`plan --target UBZ-SachkundigerLNG` was refused as a bad argument (exit 2) where `check` answers „not
    covered“ (§ 17 SchBV: heading only): the plan now says the same, with the provision, and plans no route."""
    import crewkg

    ali = str(EXAMPLES / "09-ali-newcomer.yaml")
    data = json.loads(runner.invoke(app, ["plan", ali, "--target", target, "--as-of", "2026-11-30",
                                          "--format", "json"]).stdout)
    assert data["covered"] is False and data["provision"] == provision and data["routes"] == []
    assert crewkg.plan(ali, target, as_of="2026-11-30")["covered"] is False
    assert "covered" not in crewkg.plan(ali, "UBZ-Matrose", as_of="2026-11-30")  # the issue's shape where covered
    for lang, words in (("en", "Not covered"), ("de", "Nicht abgedeckt")):
        text = runner.invoke(app, ["plan", ali, "--target", target, "--as-of", "2026-11-30", "--lang", lang])
        assert text.exit_code == 0 and words in text.stdout and provision in text.stdout
    cohort = runner.invoke(app, ["cohort", str(EXAMPLES.parent / "cohorts" / "schifffahrtsschule-2026.csv"),
                                 "--target", target, "--as-of", "2026-11-30"])
    assert cohort.exit_code == 2  # a cohort's table has no column for it


def test_a_certificate_of_a_law_without_a_career_graph_is_still_refused_as_a_target():
    """Plans are made with the SchBV 2022's career graph: on a SchBesV 2004 date a certificate without pathways
    (Kapitänspatent A, § 4 Abs. 2 Z 7 SchBesV) is refused as a target (exit 2), not answered „not covered“."""
    ali = str(EXAMPLES / "09-ali-newcomer.yaml")
    result = runner.invoke(app, ["plan", ali, "--target", "Kapitaenspatent-A", "--as-of", "2010-06-01", "--lang", "en"])
    assert result.exit_code == 2 and "Not covered" not in result.output


def test_an_authorisation_only_a_replacement_leads_to_is_a_target(tmp_path):
    """The maritime authorisation (§ 47 Abs. 6 Z 1, Abs. 9 Z 1, Abs. 11 Z 1 SchBV) is no node of the career graph, so
    `plan --target Berechtigung-Maritim` was refused as a bad argument though the kb has pathways to it."""
    rec = tmp_path / "k.yaml"
    rec.write_text("id: k\nbirth_date: 1962-03-01\nmedical_fitness: true\n"
                   "functions: [Berechtigungsumfang-Seeschifffahrtsstrassen]\n"
                   "certificates: [{id: Kapitaenspatent-A, issued: 1995-01-01}]\n", encoding="utf-8")
    out = runner.invoke(app, ["plan", str(rec), "--target", "Berechtigung-Maritim", "--as-of", "2026-06-01",
                              "--format", "json"])
    assert out.exit_code == 0, out.output
    (route,) = json.loads(out.stdout)["routes"]
    assert route["earliest"] == "2026-06-01" and [s["provision"] for s in route["steps"]] == ["§ 47 Abs. 9 Z 1 SchBV"]
