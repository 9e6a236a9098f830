"""§ 47 SchBV: replacement of earlier qualifications by Union certificates, as pathways of the certificates they lead
to — Abs. 4 (the identical UBZ; the Fahrzeit routes Z 1 to Z 3), Abs. 5 (shortening by a recognised training, at
most 360 days and not beyond its length), Abs. 6 (Kapitänspatente, Streckenzeugnis) — each open up to and including
17 Jan 2032, at every threshold."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.records.persons import person_from_mapping
from crewkg.rules.kinds import missing_sentence

ON = "2026-11-30"
FIT = {"valid_until": "2033-12-31"}


def answer(law, record: dict[str, Any], on: str = ON) -> dict[str, Any]:
    day = date.fromisoformat(on)
    return check(law, [person_from_mapping({"id": "p", "birth_date": "1970-01-01", **record}, law, day, "test")], day)[0]


def pathway(a: dict[str, Any], cert: str, provision: str) -> dict[str, Any]:
    c = next(c for c in a["certificates"] if c["id"] == cert)
    found = [w for w in c["pathways"] if w["provision"] == provision]
    assert len(found) == 1, (cert, provision)
    return found[0]


def legacy(days: dict[str, int], sea: int = 0, training: int = 0, cert: str = "SchBesV2004-Decksmann") -> dict[str, Any]:
    rec: dict[str, Any] = {"medical_fitness": FIT, "certificates": [cert], "sailing_days": days}
    if sea:
        rec["sea_days"] = {"deck_crew": sea}
    if training:
        rec["inland_training_days"] = training
    return rec


# --- Abs. 4 first sentence: the identical UBZ -------------------------------------------------------------------------
@pytest.mark.parametrize("role", ["Decksmann", "Leichtmatrose", "Matrose", "Bootsmann", "Steuermann"])
def test_a_legacy_qualification_is_replaced_by_the_identical_ubz(law, role):
    a = answer(law, {"medical_fitness": FIT, "certificates": [f"SchBesV2004-{role}"]})
    assert pathway(a, f"UBZ-{role}", "§ 47 Abs. 4 SchBV")["satisfied"] is True
    other = "Decksmann" if role != "Decksmann" else "Matrose"
    assert pathway(a, f"UBZ-{other}", "§ 47 Abs. 4 SchBV")["satisfied"] is False


def test_the_identical_replacement_needs_medical_fitness(law):
    a = answer(law, {"certificates": ["SchBesV2004-Matrose"]})
    w = pathway(a, "UBZ-Matrose", "§ 47 Abs. 4 SchBV")
    assert w["satisfied"] is False and [m["kind"] for m in w["missing"]] == ["Document"]


@pytest.mark.parametrize("on, open_", [("2032-01-17", True), ("2032-01-18", False)])
def test_the_replacement_is_open_up_to_and_including_17_january_2032(law, on, open_):
    a = answer(law, {"medical_fitness": FIT, "certificates": ["SchBesV2004-Matrose"]}, on)
    w = pathway(a, "UBZ-Matrose", "§ 47 Abs. 4 SchBV")
    assert w["satisfied"] is open_
    period = next(r for r in w["requirements"] if r["kind"] == "ApplicationPeriod")
    assert period["needed"] == "2032-01-17" and period["have"] == on and period["met"] is open_
    assert period["provision"] == "§ 47 Abs. 2 SchBV"
    if not open_:
        assert "2032-01-17" in missing_sentence(law, period, "de") and "2032-01-17" in missing_sentence(law, period, "en")
        assert "UBZ-Matrose" not in {c["id"] for c in a["certificates"] if c["eligible"]}


# --- Abs. 4 last sentence: a similar certificate for the Matrosen-Motorwart -------------------------------------------
LAST = "§ 47 Abs. 4 letzter Satz SchBV"


@pytest.mark.parametrize("record, on, satisfied", [
    ({"medical_fitness": FIT, "certificates": ["SchBesV2004-MatroseMotorwart"]}, ON, True),
    ({"certificates": ["SchBesV2004-MatroseMotorwart"]}, ON, False),  # the Anlage 7 proof, as the identical one
    ({"medical_fitness": FIT, "certificates": ["SchBesV2004-MatroseMotorwart"]}, "2032-01-17", True),
    ({"medical_fitness": FIT, "certificates": ["SchBesV2004-MatroseMotorwart"]}, "2032-01-18", False),
    ({"medical_fitness": FIT, "certificates": ["SchBesV2004-Matrose"]}, ON, False),  # has its identical UBZ instead
], ids=["Motorwart, fit", "Motorwart, no medical proof", "on 17 Jan 2032", "on 18 Jan 2032", "a Matrose"])
def test_the_matrosen_motorwart_is_replaced_by_the_ubz_matrose_under_the_last_sentence(law, record, on, satisfied):
    """Seed text: 'Können die in Z 1 bis Z 3 geforderten Fahrzeiten nicht nachgewiesen werden, so besteht die
    Möglichkeit einer Ersetzung durch ein Unionsbefähigungszeugnis, dessen Voraussetzungen den Anforderungen des
    bestehenden Befähigungsnachweises ähneln': with no Fahrzeit at all, the Matrosen-Motorwart's similar UBZ is the
    Matrose's."""
    a = answer(law, record, on)
    assert pathway(a, "UBZ-Matrose", LAST)["satisfied"] is satisfied
    identical = record["certificates"] == ["SchBesV2004-Matrose"]  # fit, on ON: the first sentence gives it
    assert ("UBZ-Matrose" in {c["id"] for c in a["certificates"] if c["eligible"]}) is (satisfied or identical)


def test_a_replacement_does_not_lower_the_roles_minimum_age(law):
    """§ 47 Abs. 4 names no age, yet the Decksmann role keeps the 18 years of § 10 and the Leichtmatrose role the 15
    of § 11: a 14-year-old holding UBZ-Matrose fills neither (crew:ReplacementPathway sets no role's age)."""
    from crewkg.rules.eligibility import role_ages

    ages = role_ages(law)
    assert (ages["Decksmann"].years, ages["Leichtmatrose"].years) == (18, 15)
    day = date(2026, 11, 30)
    p = person_from_mapping({"id": "y", "birth_date": "2012-06-01", "certificates": ["UBZ-Matrose"]}, law, day, "t")
    assert check(law, [p], day)[0]["roles"] == ["Matrose"]


# --- Abs. 4 Z 1 to Z 3: Fahrzeit in total (inland and sea) and inland -------------------------------------------------
@pytest.mark.parametrize("cert, z, total, inland", [
    ("UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV", 540, 180),
    ("UBZ-Bootsmann", "§ 47 Abs. 4 Z 2 SchBV", 900, 540),
    ("UBZ-Steuermann", "§ 47 Abs. 4 Z 3 SchBV", 1080, 720),
])
def test_the_fahrzeit_routes_at_their_thresholds(law, cert, z, total, inland):
    # total at the threshold, made of inland days at the inland threshold and sea days for the rest
    assert pathway(answer(law, legacy({"Matrose": inland}, sea=total - inland)), cert, z)["satisfied"] is True
    w = pathway(answer(law, legacy({"Matrose": inland}, sea=total - inland - 1)), cert, z)
    assert w["satisfied"] is False
    assert [(m["needed"], m["have"]) for m in w["missing"]] == [(total, total - 1)]
    w = pathway(answer(law, legacy({"Matrose": inland - 1}, sea=total - inland + 1)), cert, z)
    assert w["satisfied"] is False
    assert [(m["needed"], m["have"]) for m in w["missing"]] == [(inland, inland - 1)]


def test_the_fahrzeit_routes_presuppose_a_legacy_deck_qualification(law):
    no_legacy = {"medical_fitness": FIT, "sailing_days": {"Matrose": 1080}}
    w = pathway(answer(law, no_legacy), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")
    assert w["satisfied"] is False and [m["kind"] for m in w["missing"]] == ["CertificateHeld"]
    for held in ("SchBesV2004-Leichtmatrose", "SchBesV2004-MatroseMotorwart"):
        assert pathway(answer(law, legacy({"Matrose": 540}, cert=held)), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")["satisfied"]


def test_z3_leads_to_the_steuermann_certificate_as_the_recorded_reading(law):
    w = law.pathways["Pathway-SchBV2022-P47-Abs4-Z3"]
    assert w.certificate == "UBZ-Steuermann"
    notes = law.provisions["SchBV2022-P47-Abs4-Z3"].notes
    assert any("Steuermann" in n for n in notes["en"]) and any("Steuerleute" in n for n in notes["de"])
    assert pathway(answer(law, legacy({"Matrose": 1080})), "UBZ-Steuermann", "§ 47 Abs. 4 Z 3 SchBV")["satisfied"]


# --- Abs. 5: shortening by a recognised training, at most 360 days, not beyond its length ---------------------------
@pytest.mark.parametrize("training, total, ok", [
    (360, 180, True),    # the whole 360 days: 540 - 360 = 180
    (361, 180, True),    # a longer training still shortens by 360 only ...
    (361, 179, False),   # ... so 179 days are one short
    (360, 179, False),
    (200, 340, True),    # capped by the training's length: 540 - 200 = 340
    (200, 339, False),
])
def test_abs5_shortens_the_total_by_the_training_at_most_360_days(law, training, total, ok):
    # inland days meet the inland share (180); the total is inland plus sea
    rec = legacy({"Matrose": 180}, sea=total - 180, training=training) if total > 180 else legacy({"Matrose": total}, training=training)
    w = pathway(answer(law, rec), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")
    assert w["satisfied"] is ok
    r = next(r for r in w["requirements"] if r["id"] == "Req-SchBV2022-P47-Abs4-Z1-total")
    assert r["minimum"] == 540 and r["reduced_by"] == min(training, 360) and r["needed"] == 540 - min(training, 360)
    assert r["reduction_provision"] == "§ 47 Abs. 5 SchBV"
    if not ok:
        de, en = missing_sentence(law, r, "de"), missing_sentence(law, r, "en")
        assert f"{r['needed']} Tage nötig, {total} vorhanden" in de and f"{r['needed']} days needed, {total} held" in en


def test_abs5_does_not_shorten_the_inland_share(law):
    w = pathway(answer(law, legacy({"Matrose": 179}, sea=1, training=360)), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")
    assert [(m["id"], m["needed"], m["have"]) for m in w["missing"]] == [("Req-SchBV2022-P47-Abs4-Z1-inland", 180, 179)]


@pytest.mark.parametrize("lang, said", [
    ("de", "davon noch 1 Tag Fahrzeit in der Binnenschifffahrt (§ 47 Abs. 4 Z 1 SchBV, sinngemäß wiedergegeben: sein "
           "Wortlaut ist nicht in den von crewkg mitgelieferten Texten enthalten)"),
    ("en", "of which 1 more day of sailing time in inland navigation (§ 47 Abs. 4 Z 1 SchBV, paraphrased: its wording is "
           "not in the texts crewkg bundles)")])
def test_the_inland_share_is_said_to_be_the_inland_share(law, lang, said):
    """Two gaps with the same citation (the total, the inland share) must not read as one: the share says so."""
    w = pathway(answer(law, legacy({"Matrose": 179}, sea=1, training=360)), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")
    (share,) = w["missing"]
    assert share["inland_share"] is True and missing_sentence(law, share, lang) == said
    total = next(r for r in w["requirements"] if r["id"] == "Req-SchBV2022-P47-Abs4-Z1-total")
    assert "inland_share" not in total
    # a Fahrzeit in any role with no sea-time requirement beside it is no share of anything
    z2 = pathway(answer(law, legacy({"Matrose": 100})), "UBZ-Matrose", "§ 12 Z 2 SchBV")
    assert "inland_share" not in json.dumps(z2)


def test_without_a_training_the_answer_says_the_total_can_be_shortened(law):
    r = pathway(answer(law, legacy({"Matrose": 100})), "UBZ-Matrose", "§ 47 Abs. 4 Z 1 SchBV")["missing"][0]
    assert r["reduced_by"] == 0 and r["needed"] == 540
    assert "360" in missing_sentence(law, r, "de") and "§ 47 Abs. 5 SchBV" in missing_sentence(law, r, "en")


# --- Abs. 6: Kapitänspatente and the Streckenzeugnis -------------------------------------------------------------------
@pytest.mark.parametrize("held, cert, provision", [
    ("Kapitaenspatent-A", "UBZ-Schiffsfuehrer", "§ 47 Abs. 6 Z 1 SchBV"),
    ("Kapitaenspatent-A", "Berechtigung-Maritim", "§ 47 Abs. 6 Z 1 SchBV"),
    ("Kapitaenspatent-B", "UBZ-Schiffsfuehrer", "§ 47 Abs. 6 Z 2 SchBV"),
    ("Streckenzeugnis-Donau", "Berechtigung-Besondere-Risiken", "§ 47 Abs. 6 Z 3 SchBV"),
])
@pytest.mark.parametrize("on, open_", [("2032-01-17", True), ("2032-01-18", False)])
def test_abs6_replacements_until_17_january_2032(law, held, cert, provision, on, open_):
    a = answer(law, {"medical_fitness": FIT, "certificates": [held]}, on)
    assert pathway(a, cert, provision)["satisfied"] is open_
    assert pathway(answer(law, {"certificates": [held]}, on), cert, provision)["satisfied"] is False  # no fitness


def test_an_authorisation_fills_no_role(law):
    a = answer(law, {"medical_fitness": FIT, "certificates": ["Streckenzeugnis-Donau"]})
    assert a["roles"] == []
    assert "Berechtigung-Besondere-Risiken" in {c["id"] for c in a["certificates"] if c["eligible"]}
    assert law.certificates["Berechtigung-Maritim"].role is None
    assert law.certificates["Berechtigung-Maritim"].authorisation_for == "Schiffsfuehrer"


def test_eligible_since_is_the_day_the_shortened_minimum_is_credited(law):
    """A dated record: with a training of 200 days the UBZ Matrose (§ 47 Abs. 4 Z 1) is issuable from the day the
    340th Fahrtag is credited, not the 540th."""
    from crewkg.records.dated import ledger

    rec = {"id": "p", "birth_date": "1970-01-01", "medical_fitness": FIT, "inland_training_days": 200,
           "certificates": ["SchBesV2004-Decksmann"],
           "service": [{"from": "2023-03-01", "to": "2023-10-31", "role": "Decksmann"},
                       {"from": "2024-03-01", "to": "2024-10-31", "role": "Decksmann"}]}
    day = date(2026, 11, 30)
    p = person_from_mapping(rec, law, day, "test")
    cert = next(c for c in check(law, [p], day)[0]["certificates"] if c["id"] == "UBZ-Matrose")
    expected = ledger(p, law)["any"].nth(340)
    assert cert["eligible"] and expected is not None
    assert cert["eligible_since"] == expected.isoformat()


# --- Abs. 7 and 8: the national Schiffsführerpatent – AT and Streckenzeugnis – AT -------------------------------------
@pytest.mark.parametrize("held", ["Kapitaenspatent-A", "Kapitaenspatent-B"])
@pytest.mark.parametrize("on, open_", [("2032-01-17", True), ("2032-01-18", False)],
                         ids=["§ 47 Abs. 7 SchBV: while the patent is valid", "not after 17 Jan 2032"])
def test_abs7_a_kapitaenspatent_is_replaced_by_a_schiffsfuehrerpatent_at(law, held, on, open_):
    fit = {"certificates": [held], "functions": ["Eignung-SchBV-P30-Abs4"]}
    assert pathway(answer(law, fit, on), "Schiffsfuehrerpatent-AT", "§ 47 Abs. 7 SchBV")["satisfied"] is open_
    # the fitness of § 30 is its own proof: the Anlage 7 medical fitness does not stand for it
    w = pathway(answer(law, {"certificates": [held], "medical_fitness": FIT}, on), "Schiffsfuehrerpatent-AT", "§ 47 Abs. 7 SchBV")
    assert w["satisfied"] is False and "Req-SchBV2022-P47-Abs7-fitness" in [m["id"] for m in w["missing"]]


@pytest.mark.parametrize("on, open_", [("2032-01-17", True), ("2032-01-18", False)],
                         ids=["§ 47 Abs. 8 SchBV: while the Streckenzeugnis is valid", "not after 17 Jan 2032"])
def test_abs8_a_streckenzeugnis_is_replaced_by_a_streckenzeugnis_at_without_a_proof_of_fitness(law, on, open_):
    a = answer(law, {"certificates": ["Streckenzeugnis-Donau"]}, on)
    assert pathway(a, "Streckenzeugnis-AT", "§ 47 Abs. 8 SchBV")["satisfied"] is open_
    assert a["roles"] == []  # an authorisation fills no role by itself


def test_the_national_patent_fills_no_position_of_the_tables(law):
    """Where a Schiffsführerpatent – AT may stand for the Union certificate as boatmaster is not in the bundled texts."""
    assert law.certificates["Schiffsfuehrerpatent-AT"].role == "SchiffsfuehrerAT"
    assert pathway(answer(law, {"certificates": ["UBZ-Matrose"]}), "Schiffsfuehrerpatent-AT",
                   "§ 47 Abs. 7 SchBV")["satisfied"] is False


@pytest.mark.parametrize(("on", "satisfied"), [("2032-01-17", True), ("2032-01-18", False)])
def test_a_held_patent_that_no_longer_counts_is_said_so_not_called_missing(law, on, satisfied):
    """§ 47 Abs. 6 Z 2 SchBV: a Kapitänspatent B keeps its validity and may be replaced up to and including 17 Jan 2032.
    On the 18th the pathway fails; its "no" says the patent is held but no longer counts, not that it is missing."""
    a = answer(law, {"birth_date": "1960-01-01", "medical_fitness": FIT,
                     "certificates": [{"id": "Kapitaenspatent-B", "issued": "2001-03-01"}]}, on)
    w = pathway(a, "UBZ-Schiffsfuehrer", "§ 47 Abs. 6 Z 2 SchBV")
    assert w["satisfied"] is satisfied
    if not satisfied:
        (held,) = [m for m in w["missing"] if m["kind"] == "CertificateHeld"]
        assert held["lapsed"] == ["Kapitaenspatent-B"] and held["have"] == []
        assert missing_sentence(law, held, "en").startswith("certificate no longer counting on this date")
        assert missing_sentence(law, held, "de").startswith("Zeugnis an diesem Tag nicht mehr gültig")
