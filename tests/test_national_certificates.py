"""SchBV 2022 §§ 28–29: the national certificates as kb data, and a roster's safety functions derived from the dated
proofs of its members' records (crew:heldByProof) instead of being stated. The thresholds of the pathways are
casebook cases (tests/cases/schbv2022_28-29.yaml); here: what the YAML format does not express — how a roster
answer says a function was derived or stated, that Decksmann – AT fills no position, the Maschinist certificate in
the engine rule, the record field `hours` (validation, Turtle) and the text the `crew` command prints."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.cli.common import app
from crewkg.law.statute import load_law
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirement
from crewkg.manning.rosters import check_roster
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping
from crewkg.records.persons import person_from_mapping

ROOT = Path(__file__).resolve().parents[1]
WOLFGANG = ROOT / "kb" / "examples" / "vessels" / "02-ms-wolfgang-lake-boat.yaml"
RECORDS_ROSTER = ROOT / "kb" / "examples" / "rosters" / "02-ms-wolfgang-records.yaml"
#: MS Wolfgang (§ 43 Abs. 3 SchBV, 250 passengers): Schiffsführer and Decksmann; Fahrgastbetreuer and Fahrgast-Ersthelfer
LAKE = {"kind": "day_trip_passenger", "waters": "other", "length_m": 32, "breadth_m": 7.2, "passengers": 250,
        "standard": "S1", "engine_kw": 300}
SKIPPER = {"id": "sepp", "birth_date": "1968-09-09", "certificates": ["UBZ-Schiffsfuehrer"], "functions": ["FirstAid"]}
DECKHAND = {"id": "franz", "birth_date": "2001-06-15", "certificates": ["UBZ-Decksmann"]}
INSTRUCTED = {"id": "mia", "birth_date": "2000-03-30",
              "exams": [{"id": "Unterweisung-Fahrgastbetreuer-Theorie", "passed": "2024-04-02", "hours": 4},
                        {"id": "Unterweisung-Fahrgastbetreuer-Praxis", "passed": "2024-04-03", "hours": 4.5}]}


def roster(vessel: dict[str, Any], crew: list[dict[str, Any]], on: str, lang: str = "de") -> dict[str, Any]:
    law = load_law()
    ml = load_manning(law)
    day = date.fromisoformat(on)
    req = requirement(law, ml, vessel_from_mapping({"id": "v", **vessel}, ml, "v"), day, False, lang)
    return check_roster(law, ml, req, roster_from_mapping({"crew": crew}, law, day, "roster"), lang)


def detail(r: dict[str, Any], role: str) -> dict[str, Any] | None:
    return next((d for d in r["details"] if d["role"] == role), None)


# --- the kb -----------------------------------------------------------------------------------------------------------
def test_the_national_certificates_and_their_pathways(law):
    expected = {"Decksmann-AT": ("DecksmannAT", ["§ 28 Abs. 1 SchBV"]),
                "SchBV2022-Maschinist": ("Maschinist", ["§ 28 Abs. 2 Z 1 SchBV", "§ 28 Abs. 2 Z 2 SchBV"]),
                "SchBV2022-Fahrgastbetreuer": ("Fahrgastbetreuer", ["§ 29 Abs. 1 SchBV"]),
                "SchBV2022-FahrgastErsthelfer": ("FahrgastErsthelfer", ["§ 29 Abs. 3 SchBV"]),
                "SchBV2022-Atemschutzgeraetetraeger": ("Atemschutzgeraetetraeger", ["§ 29 Abs. 4 SchBV"])}
    for cid, (role, pathways) in expected.items():
        c = law.certificates[cid]
        assert (c.role, c.regulation, c.national) == (role, "SchBV2022", True), cid
        assert [law.citation(law.pathways[w].provision) for w in c.pathways] == pathways
        # a national certificate is no 'UBZ': it goes by its own label
        assert not law.certificate_short(cid).startswith("UBZ")
    # only the § 29 qualifications (and their SchBesV 2004 forerunners, § 4 Abs. 2 Z 9–11) are made by the record's
    # own proofs (no authority issues them)
    assert {c.id for c in law.certificates.values() if c.by_proof} == {
        "SchBV2022-Fahrgastbetreuer", "SchBV2022-FahrgastErsthelfer", "SchBV2022-Atemschutzgeraetetraeger",
        "SchBesV2004-Fahrgastbetreuer", "SchBesV2004-FahrgastErsthelfer", "SchBesV2004-Atemschutzgeraetetraeger"}


def test_wording_from_outside_the_bundled_texts_is_marked(law):
    for pid in ("SchBV2022-P28-Abs1", "SchBV2022-P28-Abs2", "SchBV2022-P28-Abs2-Z1", "SchBV2022-P28-Abs2-Z2",
                "SchBV2022-P28-Abs3", "SchBV2022-P29-Abs1", "SchBV2022-P29-Abs1-Z1", "SchBV2022-P29-Abs1-Z2",
                "SchBV2022-P29-Abs2", "SchBV2022-P29-Abs3", "SchBV2022-P29-Abs4"):
        notes = law.provisions[pid].notes
        assert any("not in the bundled texts" in n for n in notes["en"]), pid
        assert any("nicht in den mitgelieferten Texten" in n for n in notes["de"]), pid
    assert any("NOT IN THE SOURCES" in n for n in law.provisions["SchBV2022-P30"].notes["en"])


def test_two_years_as_matrose_are_the_kbs_one_year_reading_twice(law):
    """'zwei Jahre' Fahrzeit (§ 28 Abs. 2 Z 2) = 2 × 180 credited days, the reading of § 10 Z 2 SchBV."""
    one_year = law.requirements["Req-SchBV2022-P10-Z2-2"].minimum
    r = law.requirements["Req-SchBV2022-P28-Abs2-Z2-days"]
    assert (r.minimum, r.served_as) == (2 * one_year, "Matrose") == (360, "Matrose")


# --- rosters: functions derived from the record -----------------------------------------------------------------------
def test_a_roster_derives_the_safety_functions_from_dated_proofs():
    franz = DECKHAND | {"exams": [{"id": "Ersthelfer-Ausbildung", "passed": "2025-05-10"}]}
    r = roster(LAKE, [SKIPPER, franz, INSTRUCTED], "2026-11-30")
    assert r["satisfied"] is True
    fb, eh = detail(r, "Fahrgastbetreuer"), detail(r, "FahrgastErsthelfer")
    assert (fb["person"], fb["via"], fb["certificate"], fb["certificate_provision"]) == (
        "mia", "record", "SchBV2022-Fahrgastbetreuer", "§ 29 Abs. 1 SchBV")
    assert (eh["person"], eh["via"], eh["certificate"], eh["certificate_provision"]) == (
        "franz", "record", "SchBV2022-FahrgastErsthelfer", "§ 29 Abs. 3 SchBV")


def test_a_stated_function_still_counts_and_is_marked_as_stated():
    """Backwards compatible: `functions: [FahrgastErsthelfer]` without any proof still fills the function (via 'function')."""
    franz = DECKHAND | {"functions": ["FahrgastErsthelfer"]}
    r = roster(LAKE, [SKIPPER, franz, INSTRUCTED], "2026-11-30")
    assert r["satisfied"] is True
    eh = detail(r, "FahrgastErsthelfer")
    assert (eh["person"], eh["via"]) == ("franz", "function") and "certificate" not in eh


def test_a_derived_function_lapses_with_its_proof():
    """The first-aid training of 30 Nov 2021 counts up to and including 30 Nov 2026 (five years), not on 1 Dec 2026."""
    franz = DECKHAND | {"exams": [{"id": "Ersthelfer-Ausbildung", "passed": "2021-11-30"}]}
    mia = INSTRUCTED
    assert roster(LAKE, [SKIPPER, franz, mia], "2026-11-30")["satisfied"] is True
    later = roster(LAKE, [SKIPPER, franz, mia], "2026-12-01")
    assert later["satisfied"] is False
    assert [m["role"] for m in later["missing"]] == ["FahrgastErsthelfer"]


def test_the_first_aider_function_follows_from_the_record_at_17_not_the_day_before():
    """§ 29 Abs. 3: 17 years. A crew member born 30 Nov 2009 is Fahrgast-Ersthelfer on 30 Nov 2026, not on 29 Nov."""
    young = {"id": "lea", "birth_date": "2009-11-30", "exams": [{"id": "Ersthelfer-Ausbildung", "passed": "2025-06-01"}]}
    crew = [SKIPPER, DECKHAND, INSTRUCTED, young]
    on_birthday = roster(LAKE, crew, "2026-11-30")
    assert on_birthday["satisfied"] is True and detail(on_birthday, "FahrgastErsthelfer")["person"] == "lea"
    day_before = roster(LAKE, crew, "2026-11-29")
    assert day_before["satisfied"] is False and [m["role"] for m in day_before["missing"]] == ["FahrgastErsthelfer"]


def test_decksmann_at_fills_no_position_of_the_tables():
    """INTERPRETATION (kb:SchBV2022-P28-Abs1): where a Decksmann – AT may stand in for a Decksmann is not in the
    sources, so the holder does not fill the Decksmann's place; a roster complete only if he did is undecided."""
    holder = {"id": "anton", "birth_date": "1990-01-01", "certificates": ["Decksmann-AT"],
              "functions": ["FahrgastErsthelfer"]}
    r = roster(LAKE, [SKIPPER, holder, INSTRUCTED], "2026-11-30")
    assert r["satisfied"] is None and r["standing_unknown"] == [{"person": "anton", "role": "DecksmannAT", "as": "Decksmann"}]
    assert "Decksmann" in [m["role"] for m in r["missing"] if m["kind"] == "position"]


def test_the_maschinist_qualification_meets_the_engine_rule_above_1000_kw(law):
    """§ 43 Abs. 9 SchBV: above 1000 kW a crew member needs 'eine Befähigung als Maschinistin bzw. Maschinist'; the
    national qualification of § 28 Abs. 2 (entered in the Schifferdienstbuch, Abs. 3) is one."""
    big = LAKE | {"engine_kw": 1200}
    franz = DECKHAND | {"functions": ["FahrgastErsthelfer"]}
    without = roster(big, [SKIPPER, franz, INSTRUCTED], "2026-11-30")
    assert without["satisfied"] is False
    assert any(m["role"] == "Maschinist" for m in without["missing"])
    engineer = {"id": "max", "birth_date": "1985-01-01", "certificates": ["SchBV2022-Maschinist"]}
    r = roster(big, [SKIPPER, franz, INSTRUCTED, engineer], "2026-11-30")
    assert r["satisfied"] is True
    q = next(q for q in r["qualifications"] if q["function"] == "Maschinist")
    assert q["have"] == ["max"] and q["met"] is True


# --- eligibility: the dated proofs --------------------------------------------------------------------------------------
def _answer(law, record: dict[str, Any], on: str) -> dict[str, Any]:
    day = date.fromisoformat(on)
    return check(law, [person_from_mapping({"id": "p", **record}, law, day, "test")], day)[0]


def test_the_answer_states_the_hours_and_the_cut_off_day(law):
    a = _answer(law, {"birth_date": "1990-01-01", "exams": [
        {"id": "Unterweisung-Fahrgastbetreuer-Theorie", "passed": "2024-03-01", "hours": 4},
        {"id": "Unterweisung-Fahrgastbetreuer-Praxis", "passed": "2024-03-01", "hours": 3.5}]}, "2026-11-30")
    c = next(c for c in a["certificates"] if c["id"] == "SchBV2022-Fahrgastbetreuer")
    practice = next(r for r in c["pathways"][0]["requirements"] if r["id"] == "Req-SchBV2022-P29-Abs1-Z2")
    assert practice["met"] is False and practice["minimum_hours"] == 4.0
    assert practice["hours"] == {"Unterweisung-Fahrgastbetreuer-Praxis": 3.5}
    from crewkg.rules.kinds import kind

    # the proof is there, half an hour short: said as such, not as missing
    assert kind("DatedProof").missing(law, practice, "de") == (
        "praktische Unterweisung für Fahrgastbetreuer (§ 29 Abs. 1 Z 2 SchBV): 3,5 Stunden nachgewiesen, mindestens 4 verlangt")
    assert kind("DatedProof").missing(law, practice, "en").endswith(": 3.5 hours proven, at least 4 required")
    absent = practice | {"hours": {}}
    assert kind("DatedProof").missing(law, absent, "de") == (
        "Nachweis fehlt oder liegt länger als 60 Monate zurück: praktische Unterweisung für Fahrgastbetreuer "
        "(§ 29 Abs. 1 Z 2 SchBV) (mindestens 4 Stunden)")
    assert kind("DatedProof").missing(law, absent, "en").endswith("(at least 4 hours)")


def test_an_instruction_without_hours_is_taken_as_stated(law):
    a = _answer(law, {"birth_date": "1990-01-01", "exams": [
        {"id": "Unterweisung-Fahrgastbetreuer-Theorie", "passed": "2024-03-01"},
        {"id": "Unterweisung-Fahrgastbetreuer-Praxis", "passed": "2024-03-01"}]}, "2026-11-30")
    assert next(c for c in a["certificates"] if c["id"] == "SchBV2022-Fahrgastbetreuer")["eligible"] is True


# --- the record field `hours` --------------------------------------------------------------------------------------------
def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


@pytest.mark.parametrize("entry, field", [
    ("{id: Unterweisung-Fahrgastbetreuer-Praxis, passed: 2024-03-01, hours: -1}", "exams[0].hours"),
    ("{id: Unterweisung-Fahrgastbetreuer-Praxis, passed: 2024-03-01, hours: vier}", "exams[0].hours"),
    ("{id: Unterweisung-Fahrgastbetreuer-Praxis, passed: 2024-03-01, stunden: 4}", "exams[0].stunden"),
], ids=["negative", "not a number", "misspelt key"])
def test_bad_hours_exit_2_naming_the_field(tmp_path, entry, field):
    f = tmp_path / "p.yaml"
    f.write_text(f"id: p\nbirth_date: 1990-01-01\nexams: [{entry}]\n", encoding="utf-8")
    r = _runner().invoke(app, ["check", str(f), "--as-of", "2026-11-30", "--lang", "en"])
    try:
        err = r.stderr
    except ValueError:
        err = r.output
    assert r.exit_code == 2 and field in err and "p.yaml" in err and "Traceback" not in err


def test_hours_survive_turtle(tmp_path, law):
    from crewkg.records.turtle import person_from_turtle, person_graph

    day = date(2026, 11, 30)
    p = person_from_mapping({**INSTRUCTED, "id": "p"}, law, day, "test")
    f = tmp_path / "p.ttl"
    f.write_text(person_graph(p).serialize(format="turtle"), encoding="utf-8")
    back = person_from_turtle(f, law, day)
    assert back.exam_hours == {"Unterweisung-Fahrgastbetreuer-Theorie": 4, "Unterweisung-Fahrgastbetreuer-Praxis": 4.5}
    assert back.exam_passed == p.exam_passed


# --- the crew command -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, words", [("de", "aus den datierten Nachweisen des Datensatzes abgeleitet"),
                                         ("en", "derived from the dated proofs of the record")])
def test_the_crew_command_says_a_function_was_derived(lang, words):
    args = ["crew", str(WOLFGANG), "--roster", str(RECORDS_ROSTER), "--as-of", "2026-11-30", "--lang", lang]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    assert words in text.output and "§ 29 Abs. 1 SchBV" in text.output and "§ 29 Abs. 3 SchBV" in text.output
    as_json = json.loads(CliRunner().invoke(app, [*args, "--format", "json"]).output)
    vias = {(d["person"], d["role"]): d["via"] for d in as_json["roster"]["details"]}
    assert vias[("mia", "Fahrgastbetreuer")] == vias[("franz", "FahrgastErsthelfer")] == "record"
    assert vias[("sepp", "Schiffsfuehrer")] == "certificate"


def test_only_the_law_in_force_makes_a_function_from_proofs(law):
    """The § 29 SchBV qualifications exist from 17 Jan 2022: on a date under the SchBesV 2004 the same proofs derive
    no function (the roster then needs the function stated), on the SchBV's first day they do."""
    from crewkg.manning.people import people_of

    def proven(on: str) -> dict[str, str]:
        day = date.fromisoformat(on)
        p = person_from_mapping({**INSTRUCTED, "exams": [e | {"passed": "2021-06-01"} for e in INSTRUCTED["exams"]]},
                                law, day, "test")
        return people_of(law, [p], day).proven["mia"]

    assert proven("2022-01-16") == {}
    assert proven("2022-01-17") == {"Fahrgastbetreuer": "SchBV2022-Fahrgastbetreuer"}


def test_the_cut_off_day_is_said_in_the_missing_sentence(law):
    from crewkg.rules.kinds import kind

    a = _answer(law, {"birth_date": "1990-01-01", "functions": ["Eignung-SchBV-P30-Abs4"],
                      "exams": [{"id": "Nachweis-Beschaeftigung-Decksmann", "passed": "2022-01-17"}]}, "2026-11-30")
    c = next(c for c in a["certificates"] if c["id"] == "Decksmann-AT")
    safety = next(r for r in c["pathways"][0]["requirements"] if r["id"] == "Req-SchBV2022-P28-Abs1-safety")
    employment = safety["alternatives"][1]
    assert employment["met"] is False and employment["taken_before"] == "2022-01-17"
    # the proof is there, dated on the cut-off day: said as such
    assert employment["taken_too_late"] == {"Nachweis-Beschaeftigung-Decksmann": "2022-01-17"}
    assert kind("DatedProof").missing(law, employment, "de") == (
        "Nachweis der Beschäftigung als Decksfrau bzw. Decksmann: mit 2022-01-17 datiert, zählt nur vor dem 2022-01-17")
    assert kind("DatedProof").missing(law, employment, "en") == (
        "proof of employment as deckhand: dated 2022-01-17, counts only before 2022-01-17")
    absent = employment | {"taken_too_late": {}}
    assert kind("DatedProof").missing(law, absent, "de") == (
        "Nachweis fehlt oder ist nicht vor dem 2022-01-17 datiert: Nachweis der Beschäftigung als Decksfrau bzw. Decksmann"
        " oder eine bestätigte Eintragung im Schifferdienstbuch als Decksfrau bzw. Decksmann, begonnen vor dem 2022-01-17")
    assert kind("DatedProof").missing(law, absent, "en") == (
        "proof missing or not dated before 2022-01-17: proof of employment as deckhand"
        " or a validated service-log entry as deckhand begun before 2022-01-17")


@pytest.mark.parametrize("on, roles", [("2022-01-16", []), ("2022-01-17", ["Fahrgastbetreuer"])],
                         ids=["§ 29 Abs. 1 SchBV: no qualification of the SchBV before it took effect (check)",
                              "from its first day the proofs make the Fahrgastbetreuer (check)"])
def test_check_makes_a_function_from_proofs_only_under_the_law_in_force(law, on, roles):
    record = {**INSTRUCTED, "exams": [e | {"passed": "2021-06-01"} for e in INSTRUCTED["exams"]]}
    assert _answer(law, record, on)["roles"] == roles


def _employment_by_log(law, entry: dict[str, Any], on: str = "2026-11-30") -> tuple[dict[str, Any], dict[str, Any]]:
    """(the Decksmann – AT answer, the Maschinist answer) of a fit person whose only proof is one service-log entry."""
    a = _answer(law, {"birth_date": "1990-01-01", "functions": ["Eignung-SchBV-P30-Abs4", "Eignung-SchBV-P30-Abs3"],
                      "service": [{"vessel": "MS Linz", **entry}]}, on)
    return tuple(next(c for c in a["certificates"] if c["id"] == cid)  # type: ignore[return-value]
                 for cid in ("Decksmann-AT", "SchBV2022-Maschinist"))


@pytest.mark.parametrize("start, met", [("2022-01-16", True), ("2022-01-17", False)],
                         ids=["§ 47 zweiter Abs. 12: Dienst als Decksmann ab 16. Jänner 2022 im Schifferdienstbuch",
                              "ab 17. Jänner 2022: keine Beschäftigung 'vor dem 17. Jänner 2022'"])
def test_a_service_log_entry_as_decksmann_before_17_january_2022_proves_the_employment(law, start, met):
    decksmann_at, _ = _employment_by_log(law, {"from": start, "to": "2022-06-30", "role": "Decksmann"})
    assert decksmann_at["eligible"] is met
    safety = next(r for r in decksmann_at["pathways"][0]["requirements"] if r["id"] == "Req-SchBV2022-P28-Abs1-safety")
    employment = safety["alternatives"][1]
    assert employment["met"] is met and employment["proven_by_service_as"] == "Decksmann"
    if met:
        assert employment["by_service"] == {"role": "Decksmann", "from": "2022-01-16", "to": "2022-06-30",
                                             "vessel": "MS Linz"}
    else:
        assert "by_service" not in employment
        from crewkg.rules.kinds import kind

        assert kind("DatedProof").missing(law, employment, "de").endswith(
            "oder eine bestätigte Eintragung im Schifferdienstbuch als Decksfrau bzw. Decksmann, begonnen vor dem 2022-01-17")


@pytest.mark.parametrize("entry", [
    {"from": "2021-04-01", "to": "2021-10-31", "role": "Decksmann", "validated": False},
    {"from": "2021-04-01", "to": "2021-10-31", "role": "Matrose"},
    {"from": "2021-04-01", "to": "2021-10-31", "waters": "sea", "capacity": "deck_crew"},
], ids=["not validated", "as Matrose, not as Decksmann (literal)", "at sea"])
def test_only_a_validated_inland_entry_as_decksmann_proves_it(law, entry):
    decksmann_at, _ = _employment_by_log(law, entry)
    assert decksmann_at["eligible"] is False


def test_the_log_entry_proves_the_employment_for_the_maschinist_too(law):
    """§ 47 zweiter Abs. 12 names § 28 Abs. 1 and Abs. 2 Z 1."""
    entry = {"from": "2021-04-01", "to": "2021-10-31", "role": "Decksmann"}
    _, maschinist = _employment_by_log(law, entry)
    z1 = next(w for w in maschinist["pathways"] if w["provision"] == "§ 28 Abs. 2 Z 1 SchBV")
    safety = next(r for r in z1["requirements"] if r["id"] == "Req-SchBV2022-P28-Abs2-Z1-safety")
    assert safety["met"] is True


@pytest.mark.parametrize("lang, words", [("en", "Not in the texts crewkg bundles: the ordinary conditions"),
                                         ("de", "Nicht in den von crewkg mitgelieferten Texten: die gewöhnlichen")])
def test_explain_says_what_the_kb_notes_of_the_certificate_itself(lang, words, tmp_path):
    """The authorisations of § 18 SchBV have only a § 47 replacement encoded; the kb notes on the certificate that
    their ordinary conditions are not in the sources, and `explain` now prints that note (it printed only the notes of
    the pathways' provisions)."""
    from typer.testing import CliRunner

    from crewkg.cli import app

    rec = tmp_path / "p.yaml"
    rec.write_text("id: p\nbirth_date: 1990-01-01\nmedical_fitness: true\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["explain", str(rec), "Berechtigung-Besondere-Risiken", "--as-of", "2024-05-10",
                                   "--lang", lang])
    assert out.exit_code == 0 and words in out.stdout and "§ 18 SchBV" in out.stdout
