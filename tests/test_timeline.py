"""`crewkg timeline` (issue 10, point 5) and planning from a service log (point 6), at the thresholds of the dated
examples: the credited days of each scope, when each certificate became issuable, the planned next certificates,
the calendar file, the picture, and both languages."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli import app

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT / "kb" / "examples" / "persons"
FRANZ = PERSONS / "20-franz-schifferdienstbuch.yaml"
DATED = sorted(PERSONS.glob("2[0-3]-*.yaml"))
AS_OF = "2026-11-30"
runner = CliRunner()


def _run(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def _json(path: Path, lang: str = "en") -> dict:
    return json.loads(_run("timeline", str(path), "--as-of", AS_OF, "--format", "json", "--lang", lang))


def test_franz_credited_days_spells_and_plan():
    t = _json(FRANZ)
    scopes = {s["scope"]: s for s in t["credited"]}
    any_ = scopes["any"]
    # § 12 Z 2 lit. c: the 360th day in any role is credited on 10 Sep 2024 (the example's comment)
    assert any_["reached"]["360"] == "2024-09-10"
    # 2025: the days from 1 Apr are credited until the window holds 180 (27 Sep); 2026: the window frees on 1 Apr
    # (1 Apr 2025 leaves it) and is full again on 27 Sep 2026
    assert {"from": "2026-04-01", "to": "2026-09-27", "credited": 720} in any_["runs"]
    assert scopes["role:Matrose"]["reached"]["180"] == "2025-09-27"
    certs = {c["id"]: c for c in t["certificates"]}
    assert certs["UBZ-Matrose"]["eligible_since"] == "2025-03-10"  # the Anlage 8 exam, the last requirement met
    assert certs["UBZ-Matrose"]["spells"] == [["2025-03-10", None]]
    assert certs["UBZ-Bootsmann"]["spells"] == [["2025-09-27", None]]  # § 13 Z 1: 180 days as Matrose
    # § 14 Z 1: 180 days as Bootsmann after the UBZ Bootsmann; the window of 30 Nov 2026 holds 180 credited days
    # (1 Apr - 27 Sep 2026), so the next day is credited on 1 Apr 2027 and the 180th on 27 Sep 2027
    assert certs["UBZ-Steuermann"]["planned"] == "2027-09-27"
    assert certs["UBZ-Steuermann"]["eligible"] is False
    held = t["held"]
    # § 22 Abs. 2 SchBV: at most 13 years from the issue on 20 Mar 2025, up to and including the 13th anniversary
    # (§ 902 Abs. 2 ABGB; kb:Reading-Fristende-ABGB902)
    assert held == [{"id": "UBZ-Matrose", "label": "UBZ boatman", "issued": "2025-03-20", "valid_until": "2038-03-20",
                     "validity": {"covered": True, "provision": "§ 22 Abs. 2 SchBV",
                                  "text": "valid up to and including 2038-03-20 (§ 22 Abs. 2 SchBV, paraphrased: its "
                                          "wording is not in the texts crewkg bundles)"}}]
    assert t["medical"]["examined"] == "2025-02-01"
    # § 22 Abs. 1 SchBV: no renewal is due before the 60th birthday (12 Apr 2058); then the 2025 proof is too old
    assert t["medical"]["schedule"]["covered"] is True and t["medical"]["schedule"]["provision"] == "§ 22 Abs. 1 SchBV"
    assert t["medical"]["valid_until"] == "2058-04-11"
    assert any(e["kind"] == "certificate_valid_until" and e["date"] == "2038-03-20" for e in t["events"])
    assert any(e["certificate"] == "UBZ-Steuermann" and e["date"] == "2027-09-27" for e in t["events"])


def test_unvalidated_days_are_shown_not_credited():
    t = _json(PERSONS / "23-sofia-awaiting-validation.yaml")
    any_ = next(s for s in t["credited"] if s["scope"] == "any")
    assert (any_["credited"], any_["not_validated"], any_["capped"]) == (249, 183, 4)
    certs = {c["id"]: c for c in t["certificates"]}
    assert certs["UBZ-Matrose"]["eligible"] is False and certs["UBZ-Matrose"]["spells"] == []


def test_an_earlier_spell_ends_the_day_before_the_medical_certificate_lapses(tmp_path):
    rec = tmp_path / "r.yaml"
    rec.write_text("id: lapsed\nbirth_date: 1990-01-01\nmedical_fitness: {valid_until: 2025-06-30}\n"
                   "service:\n  - {from: 2024-01-01, to: 2024-12-31, role: Decksmann}\n", encoding="utf-8")
    t = _json(rec)
    dm = next(c for c in t["certificates"] if c["id"] == "UBZ-Decksmann")
    # § 10: age 18, 180 days (one year, credited on 28 Jun 2024) and medical fitness (until 30 Jun 2025)
    assert dm["spells"] == [["2024-06-28", "2025-06-30"]]
    assert dm["eligible"] is False and dm["eligible_since"] is None


def test_ics_parses_and_holds_the_coming_dates():
    from icalendar import Calendar

    raw = runner.invoke(app, ["timeline", str(FRANZ), "--as-of", AS_OF, "--format", "ics", "--lang", "de"]).stdout_bytes
    cal = Calendar.from_ical(raw)
    events = {str(e["uid"]): e for e in cal.walk("VEVENT")}
    steuermann = events["franz-huber-planned-UBZ-Steuermann@crewkg"]
    assert steuermann.decoded("dtstart") == date(2027, 9, 27)
    assert str(steuermann["summary"]) == "UBZ Steuermann: frühester geplanter Termin"
    assert "§ 14 Z 1 SchBV" in str(steuermann["description"])
    assert all(e.decoded("dtstart") >= date(2026, 11, 30) for e in events.values())


def test_ics_has_the_medical_end_a_record_states(tmp_path):
    from icalendar import Calendar

    rec = tmp_path / "r.yaml"
    rec.write_text("id: med\nbirth_date: 1990-01-01\nmedical_fitness: {valid_until: 2027-03-31}\n"
                   "service:\n  - {from: 2026-01-01, to: 2026-06-29, role: Decksmann}\n", encoding="utf-8")
    raw = runner.invoke(app, ["timeline", str(rec), "--as-of", AS_OF, "--format", "ics", "--lang", "en"]).stdout_bytes
    events = {str(e["uid"]): e for e in Calendar.from_ical(raw).walk("VEVENT")}
    assert events["med-medical_valid_until-medical@crewkg"].decoded("dtstart") == date(2027, 3, 31)


@pytest.mark.parametrize("suffix", [".svg", ".png", ".html"])
def test_pictures_are_written_with_a_legend(tmp_path, suffix):
    out = tmp_path / f"franz{suffix}"
    _run("timeline", str(FRANZ), "--as-of", AS_OF, "--lang", "de", "--out", str(out))
    data = out.read_bytes()
    assert len(data) > 5000
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    else:
        text = data.decode("utf-8")
        for word in ("Legende", "Stichtag", "ausstellbar", "frühester geplanter Termin", "als Matrose"):
            assert word in text


@pytest.mark.parametrize(("lang", "said"), [("de", "Zeitleiste von franz-huber am 2026-11-30"),
                                           ("en", "timeline of franz-huber on 2026-11-30")])
def test_out_says_where_it_wrote_on_standard_error(tmp_path, lang, said):
    """As `export --out`, `plan --out`, `paths --out` and `cohort --out`: '{out}: what it holds', on standard error;
    standard output keeps the timeline's text."""
    out = tmp_path / "franz.svg"
    res = runner.invoke(app, ["timeline", str(FRANZ), "--as-of", AS_OF, "--lang", lang, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stderr == f"{out}: {said}\n" and out.is_file()
    assert str(out) not in res.stdout


def test_bad_picture_suffix_exits_2(tmp_path):
    res = runner.invoke(app, ["timeline", str(FRANZ), "--out", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("path", DATED, ids=lambda p: p.stem)
def test_each_language_is_pure(path):
    from test_languages import ENGLISH, GERMAN

    de = _run("timeline", str(path), "--as-of", AS_OF, "--lang", "de")
    en = _run("timeline", str(path), "--as-of", AS_OF, "--lang", "en")
    assert not [w for w in ENGLISH if w in de], de
    assert not [w for w in GERMAN if w in en], en


def test_a_record_with_totals_has_a_timeline_without_log():
    out = _run("timeline", str(PERSONS / "03-maria-matrose-to-bootsmann.yaml"), "--as-of", AS_OF, "--lang", "en")
    assert "no service log: the record gives totals" in out


@pytest.mark.parametrize(("lang", "said"), [("de", "nicht abgedeckt: die Voraussetzungen sind nicht in den Quellen"),
                                             ("en", "not covered: its conditions are not in the sources")])
def test_a_certificate_whose_conditions_the_sources_lack_is_listed_not_covered(lang, said):
    """§§ 16, 17 SchBV are headings in the sources: `check` answers them „not covered“; the timeline listed them not at
    all. They are listed, said not covered with their provision, and nothing is planned for them."""
    ali = PERSONS / "09-ali-newcomer.yaml"
    out = _run("timeline", str(ali), "--as-of", AS_OF, "--lang", lang, "--all").splitlines()
    assert any(x.startswith("  UBZ ") and "(§ 17 SchBV): " + said in x for x in out), out
    certs = {c["id"]: c for c in _json(ali, lang)["certificates"]}
    lng = certs["UBZ-SachkundigerLNG"]
    assert (lng["covered"], lng["eligible"], lng["planned"], lng["provision"]) == (False, None, None, "§ 17 SchBV")
    assert certs["UBZ-Matrose"]["covered"] is True


@pytest.mark.parametrize(("lang", "line"), [("de", "  UBZ Matrose (§ 12 SchBV): besessen"),
                                             ("en", "  UBZ boatman (§ 12 SchBV): held")])
def test_a_certificate_held_is_shown_held_not_unplannable(tmp_path, lang, line):
    """She holds the UBZ Matrose but no pathway of § 12 is met today: the timeline says held, as `crewkg plan` says
    she has it, not that it cannot be planned."""
    record = tmp_path / "berta.yaml"
    record.write_text("id: berta\nbirth_date: 2000-01-15\nmedical_fitness: true\n"
                      "sailing_days: {Decksmann: 200, Matrose: 140}\nexams: [Anlage8]\ncertificates: [UBZ-Matrose]\n",
                      encoding="utf-8")
    out = _run("timeline", str(record), "--as-of", AS_OF, "--lang", lang, "--all").splitlines()
    assert line in out
    certs = json.loads(_run("timeline", str(record), "--as-of", AS_OF, "--format", "json"))["certificates"]
    assert {c["id"]: c for c in certs}["UBZ-Matrose"]["held"] is True


@pytest.mark.parametrize(("lang", "said"), [("de", "am Stichtag ausstellbar"), ("en", "issuable on the evaluation date")])
def test_a_certificate_issuable_on_the_evaluation_date_is_not_said_issuable_now(tmp_path, lang, said):
    """The timeline of 2026-11-30 said 'jetzt ausstellbar' / 'issuable now' of a certificate issuable on that day,
    whatever day it is run on."""
    record = tmp_path / "deckhand.yaml"
    record.write_text("id: deckhand\nbirth_date: 2000-01-15\nmedical_fitness: true\nbasic_safety_training: true\n",
                      encoding="utf-8")
    out = _run("timeline", str(record), "--as-of", AS_OF, "--lang", lang, "--all")
    assert f"(§ 10 SchBV): {said}" in out
    assert not re.search(r"\b(jetzt|heute|now|today)\b", out), out


@pytest.mark.parametrize(("lang", "line"), [("de", "  UBZ Leichtmatrose (§ 11 SchBV): nicht nötig: UBZ Matrose ist besessen"),
                                             ("en", "  UBZ apprentice deckhand (§ 11 SchBV): not needed: UBZ boatman is held")])
def test_a_certificate_below_one_held_is_not_planned(lang, line):
    """Maria holds the UBZ Matrose: the timeline planned her the UBZ Leichtmatrose (earliest on the evaluation date,
    once she signs an apprenticeship contract) and put it in the calendar. A certificate of a role below a held one
    (crew:ranksAbove) is not planned; the ones above still are."""
    maria = PERSONS / "03-maria-matrose-to-bootsmann.yaml"
    assert line in _run("timeline", str(maria), "--as-of", AS_OF, "--lang", lang, "--all").splitlines()
    t = _json(maria)
    certs = {c["id"]: c for c in t["certificates"]}
    for below in ("UBZ-Decksmann", "UBZ-Leichtmatrose"):
        assert certs[below]["planned"] is None and certs[below]["held_above"]["id"] == "UBZ-Matrose", certs[below]
    assert certs["UBZ-Matrose"]["held_above"] is None and certs["UBZ-Bootsmann"]["planned"]
    assert {e["certificate"] for e in t["events"] if e["kind"] == "planned"}.isdisjoint({"UBZ-Decksmann", "UBZ-Leichtmatrose"})


# ------------------------------------------------------------------------------------------------------------
# Planning from the log (point 6)

WINDOW_FULL = """id: window-full
birth_date: 2000-01-01
medical_fitness: true
service:
  - {from: 2026-01-01, to: 2026-06-29, role: Decksmann}
exams: [Anlage8]
"""


def test_plan_starts_from_the_real_window(tmp_path):
    """180 days credited from 1 Jan to 29 Jun 2026 fill the window of 30 Jun 2026. § 12 Z 2 lit. c needs 360: the
    next day can be credited only when 1 Jan 2026 leaves the window, on 1 Jan 2027 (the 365 days ending on it
    begin on 2 Jan 2026 and hold 179), and the 180th more day is 29 Jun 2027 — not 27 Dec 2026, which an empty
    window would give."""
    rec = tmp_path / "w.yaml"
    rec.write_text(WINDOW_FULL, encoding="utf-8")
    plan = json.loads(_run("plan", str(rec), "--target", "UBZ-Matrose", "--as-of", "2026-06-30", "--format", "json",
                           "--lang", "en"))
    best = plan["routes"][0]
    assert best["earliest"] == "2027-06-29"
    assert best["steps"][0]["provision"] == "§ 12 Z 2 SchBV"
    # the same days as totals (no dates): the window is taken to be empty
    rec.write_text("id: totals\nbirth_date: 2000-01-01\nmedical_fitness: true\nsailing_days: {Decksmann: 180}\n"
                   "exams: [Anlage8]\n", encoding="utf-8")
    plan = json.loads(_run("plan", str(rec), "--target", "UBZ-Matrose", "--as-of", "2026-06-30", "--format", "json"))
    assert plan["routes"][0]["earliest"] == "2026-12-27"


def test_plan_from_a_lower_pace_keeps_the_latest_window_days(tmp_path):
    rec = tmp_path / "w.yaml"
    rec.write_text(WINDOW_FULL, encoding="utf-8")
    plan = json.loads(_run("plan", str(rec), "--target", "UBZ-Matrose", "--as-of", "2026-06-30", "--format", "json",
                           "--days-per-year", "90"))
    # at 90 days in 365, the latest 90 credited days (1 Apr - 29 Jun 2026) fill the window; the next 90 from
    # 1 Apr 2027 (1 Apr 2026 + 365 days) to 29 Jun 2027, the last 90 from 31 Mar 2028 (1 Apr 2027 + 365 days: 2028
    # has 29 Feb) to 28 Jun 2028
    assert plan["routes"][0]["earliest"] == "2028-06-28"


# ------------------------------------------------------------------------------------------------------------
# A roster member given as a logged record (point 7)


@pytest.mark.parametrize("start, validated, ok", [("2026-06-04", True, True), ("2026-06-05", True, False),
                                                   ("2026-06-04", False, False)],
                         ids=["180 credited days on the day: substitutes", "179 credited days: does not",
                              "180 days not validated: does not"])
def test_a_logged_leichtmatrose_replaces_the_matrose_at_180_credited_days(start, validated, ok):
    """§ 43 Abs. 6 SchBV: a Leichtmatrose in the 3rd apprenticeship year, 17, with one year (180 days) of Fahrzeit
    may replace the Matrose. Logged from `start` to the evaluation day 30 Nov 2026: 4 Jun gives 180 days."""
    from test_rosters import CREW_WITHOUT_MATROSE, NOW, P, check, via

    assert NOW == date(2026, 11, 30)
    lena = P("lena", "2009-01-01", "UBZ-Leichtmatrose", apprenticeship={"contract": True, "year": 3},
             service=[{"from": start, "to": "2026-11-30", "role": "Leichtmatrose", "validated": validated}])
    r = check("wachau", [*CREW_WITHOUT_MATROSE, lena])
    assert r["satisfied"] is ok
    if ok:
        assert ("Matrose", "substitution", "SchBV2022-P43-Abs6-Substitution-Matrose") in via(r, "lena")


def test_the_cap_is_cited_from_the_regulation_in_force_and_no_empty_regulation_slot(tmp_path):
    f = tmp_path / "old.yaml"
    f.write_text("id: old\nbirth_date: 1980-01-01\nmedical_fitness: true\nservice:\n"
                 "  - {from: 2004-06-01, to: 2004-12-31, role: Decksmann, vessel: MS Test}\n")
    # 214 days in 2004: 180 credited; on 2005-06-01 the SchBesV 2004 sets the limit (§ 3 Abs. 6), not the SchBV
    r = CliRunner().invoke(app, ["timeline", str(f), "--as-of", "2005-06-01", "--format", "json", "--lang", "en"])
    scope = json.loads(r.stdout)["credited"][0]
    assert (scope["capped"], scope["cap_provision"]) == (34, "§ 3 Abs. 6 SchBesV")
    text = CliRunner().invoke(app, ["timeline", str(f), "--as-of", "2005-06-01", "--lang", "de"]).stdout
    assert "34 Tage wegen der Höchstgrenze nicht anrechenbar (§ 3 Abs. 6 SchBesV)" in text and "SchBV)" not in text
    later = CliRunner().invoke(app, ["timeline", str(f), "--as-of", "2022-06-01", "--format", "json"]).stdout
    assert json.loads(later)["credited"][0]["cap_provision"] == "§ 6 Abs. 4 SchBV"
    before = CliRunner().invoke(app, ["timeline", str(f), "--as-of", "2004-12-31", "--lang", "de"]).stdout
    assert before.splitlines()[0] == "Zeitleiste von old zum 2004-12-31"


@pytest.mark.parametrize(("as_of", "until"), [("2015-07-01", None), ("2022-01-16", None), ("2022-01-17", "2032-01-17")])
def test_the_end_a_later_regulation_sets_is_not_said_before_that_regulation(tmp_path, as_of, until):
    """§ 47 Abs. 2 SchBV ends SchBesV 2004 qualifications on 17 Jan 2032; on a day the SchBesV 2004 governs no law
    says so yet, so the timeline gives no end (the law in force on the evaluation date decides)."""
    record = tmp_path / "steuermann.yaml"
    record.write_text("id: st\nbirth_date: 1960-01-01\nmedical_fitness: {examined: 2014-01-01}\n"
                      "certificates: [{id: SchBesV2004-Steuermann, issued: 2006-01-01}]\n", encoding="utf-8")
    held = json.loads(_run("timeline", str(record), "--as-of", as_of, "--format", "json"))["held"]
    assert [h["valid_until"] for h in held] == [until]


@pytest.mark.parametrize(("as_of", "completes"), [("2026-08-30", "2026-08-31"), ("2026-08-31", None)])
def test_days_in_a_running_programme_are_said_to_count_once_it_is_completed(as_of, completes):
    """David's programme runs to 31 Aug 2026 (§ 12 Z 1 SchBV: 'absolviert'): the day before, its days are shown with
    the day they start to count; on its last day they count."""
    david = PERSONS / "22-david-programme-trainee.yaml"
    t = json.loads(_run("timeline", str(david), "--as-of", as_of, "--format", "json", "--lang", "en"))
    within = next(s for s in t["credited"] if s["scope"].endswith(":WithinProgramme"))
    assert within["credited"] > 0 and within["completes"] == completes
    text = _run("timeline", str(david), "--as-of", as_of, "--lang", "en")
    assert ("these days count only once the programme is completed on 2026-08-31" in text) is (completes is not None)
    de = _run("timeline", str(david), "--as-of", as_of)
    assert ("diese Tage zählen erst, wenn das Ausbildungsprogramm am 2026-08-31 absolviert ist" in de) is (completes is not None)


def test_days_in_a_running_programme_too_short_for_every_pathway_get_no_completion_day(tmp_path):
    """A Bootsmann programme of 12 months (§ 13 Z 2 lit. a SchBV asks 36): its days never count, so the timeline does
    not say they will once it is completed."""
    rec = tmp_path / "short.yaml"
    rec.write_text("id: short\nbirth_date: 1990-01-01\nmedical_fitness: true\n"
                   "programmes: [{for: Bootsmann, from: 2026-01-01, to: 2026-12-31}]\n"
                   "service: [{from: 2026-03-01, to: 2026-06-30, role: Matrose}]\n", encoding="utf-8")
    t = json.loads(_run("timeline", str(rec), "--as-of", AS_OF, "--format", "json", "--lang", "en"))
    within = next(s for s in t["credited"] if s["scope"].endswith(":WithinProgramme"))
    assert within["credited"] > 0 and within["completes"] is None


def test_a_route_begun_on_the_evaluation_date_says_what_that_day_still_asks(tmp_path):
    """A restricted Kapitänspatent A of 1995 is replaced under § 47 Abs. 9 SchBV after the supplementary exam: the
    timeline's route begins that day and now says the exam is still needed (it said only the step)."""
    rec = tmp_path / "kapa.yaml"
    rec.write_text("id: kurt\nbirth_date: 1962-03-01\nmedical_fitness: {valid_until: 2027-08-31}\n"
                   "functions: [Eignung-SchBV-P30-Abs4, Einschraenkung-Oertlicher-Geltungsbereich]\n"
                   "certificates: [{id: Kapitaenspatent-A, issued: 1995-01-01}]\n", encoding="utf-8")
    for lang, exam in (("en", "supplementary exam"), ("de", "Ergänzungsprüfung")):
        out = CliRunner().invoke(app, ["timeline", str(rec), "--as-of", "2026-06-01", "--lang", lang])
        assert out.exit_code == 0, out.output
        lines = out.stdout.splitlines()
        step = next(i for i, line in enumerate(lines) if "§ 47 Abs. 9 SchBV" in line and "2026-06-01" in line)
        assert exam in lines[step + 1]
    data = json.loads(CliRunner().invoke(app, ["timeline", str(rec), "--as-of", "2026-06-01", "--format", "json",
                                               "--lang", "en"]).stdout)
    (first,) = data["route"]["steps"][:1]
    assert first["provision"] == "§ 47 Abs. 9 SchBV" and any("supplementary exam" in x for x in first["remaining"])


def test_by_default_the_timeline_shows_what_concerns_the_person():
    """Answer first (issue 42): the summary opens the text; the certificates, the calendar and the picture keep to
    those that concern the person (no pre-1990 patent of § 47 Abs. 13 for a 24-year-old); `--all` shows every one."""
    sofia = str(PERSONS / "23-sofia-awaiting-validation.yaml")
    short = _run("timeline", sofia, "--as-of", AS_OF, "--lang", "en").splitlines()
    every = _run("timeline", sofia, "--as-of", AS_OF, "--lang", "en", "--all").splitlines()
    assert short[1].startswith("Can fill:") and "Next steps:" in short
    assert not any("§ 47 Abs. 13" in line for line in short) and any("§ 47 Abs. 13" in line for line in every)
    assert sum("cannot be planned" in line for line in short) == 0
    ics = _run("timeline", sofia, "--as-of", AS_OF, "--format", "ics")
    assert "Kapit" not in ics and "Schiffsführerpatent" not in ics
