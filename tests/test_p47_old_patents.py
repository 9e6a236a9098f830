"""§ 47 Abs. 9 to 12 SchBV: Kapitänspatente told apart by their issue date. A record names Kapitaenspatent-A or -B
with the date it was issued; the date selects the patent the law treats (crew:issuedFrom, crew:issuedUntil,
crew:datedFormOf): from 1 Jul 1997 the SchFVO patent of Abs. 6 and 7, from 1 Jan 1990 to 30 Jun 1997 the
Kapitänspatent A of Abs. 9 and 10, until 31 Dec 1989 the Kapitänspatent of Abs. 11 and 12 — at every threshold."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from crewkg.answers.eligibility import check
from crewkg.records.persons import person_from_mapping, person_to_mapping

ON = "2026-01-01"
#: the proofs every replacement asks: Anlage 7 medical fitness (Abs. 6, 9, 11), § 30 fitness (Abs. 7, 10, 12)
FIT: dict[str, Any] = {"medical_fitness": True, "functions": ["Eignung-SchBV-P30-Abs4"]}

ABS6_A, ABS6_B, ABS9, ABS11 = "§ 47 Abs. 6 Z 1 SchBV", "§ 47 Abs. 6 Z 2 SchBV", "§ 47 Abs. 9 SchBV", "§ 47 Abs. 11 SchBV"
ABS7, ABS10, ABS12 = "§ 47 Abs. 7 SchBV", "§ 47 Abs. 10 SchBV", "§ 47 Abs. 12 SchBV"
ABS13_Z1 = "§ 47 Abs. 13 Z 1 SchBV"


def person(law, patent: str, issued: str | None, on: str = ON, **more: Any):
    cert: Any = patent if issued is None else {"id": patent, "issued": issued}
    record = {"id": "p", "birth_date": "1960-05-01", **FIT, "certificates": [cert]} | more
    return person_from_mapping(record, law, date.fromisoformat(on), "test")


def answer(law, patent: str, issued: str | None, on: str = ON, **more: Any) -> dict[str, Any]:
    return check(law, [person(law, patent, issued, on, **more)], date.fromisoformat(on))[0]


def satisfied(a: dict[str, Any], cert: str) -> set[str]:
    """The provisions of the satisfied pathways of `cert`."""
    c = next(c for c in a["certificates"] if c["id"] == cert)
    return {w["provision"] for w in c["pathways"] if w["satisfied"]}


def eligible(a: dict[str, Any]) -> set[str]:
    return {c["id"] for c in a["certificates"] if c["eligible"]}


# --- the issue date selects the patent --------------------------------------------------------------------------------
@pytest.mark.parametrize("patent, issued, held", [
    ("Kapitaenspatent-A", "1997-07-01", "Kapitaenspatent-A"),
    ("Kapitaenspatent-A", "1997-06-30", "Kapitaenspatent-A-1990"),
    ("Kapitaenspatent-A", "1990-01-01", "Kapitaenspatent-A-1990"),
    ("Kapitaenspatent-A", "1989-12-31", "Kapitaenspatent-1989"),
    ("Kapitaenspatent-B", "1989-12-31", "Kapitaenspatent-1989"),
    ("Kapitaenspatent-B", "1990-01-01", "Kapitaenspatent-B-1990"),
    ("Kapitaenspatent-B", "1997-06-30", "Kapitaenspatent-B-1990"),
    ("Kapitaenspatent-B", "1997-07-01", "Kapitaenspatent-B"),
    ("Kapitaenspatent-A", None, "Kapitaenspatent-A"),
    ("Kapitaenspatent-A-1990", "1995-03-01", "Kapitaenspatent-A-1990"),
    ("Kapitaenspatent-A-1990", "1997-07-01", "Kapitaenspatent-A"),
    ("Kapitaenspatent-A-1990", "1989-12-31", "Kapitaenspatent-1989"),
    ("Kapitaenspatent-1989", "1995-03-01", "Kapitaenspatent-1989"),
    ("Kapitaenspatent-1989", "2005-01-01", "Kapitaenspatent-1989"),
], ids=["A from 1 Jul 1997: the SchFVO patent of Abs. 6", "A of 30 Jun 1997: Abs. 9 ('vor dem 1. Juli 1997')",
        "A of 1 Jan 1990: Abs. 9 ('nach dem 31. Dezember 1989')", "A of 31 Dec 1989: Abs. 11 ('bis zum 31. Dezember 1989')",
        "B of 31 Dec 1989: Abs. 11 ('Kapitänspatente')",
        "B of 1 Jan 1990: the Schiffahrtsgesetz 1990 patent of Abs. 13 Z 1", "B of 30 Jun 1997: Abs. 13 Z 1",
        "B of 1 Jul 1997: the SchFVO patent of Abs. 6",
        "no issue date: taken as named", "the dated form named itself is kept",
        "the 1990 form named with a date of 1 Jul 1997: the Kapitänspatent A it is a form of",
        "the 1990 form named with a date of 31 Dec 1989: the form of Abs. 11",
        "the 1989 form named with a date of 1995: an A and a B of 1995 differ: taken as named",
        "the 1989 form named with a date of 2005: A or B, undecided, taken as named"])
def test_the_issue_date_selects_the_patent(law, patent, issued, held):
    p = person(law, patent, issued)
    assert p.certificates == [held]
    if issued is not None:
        assert p.certificate_issued == {held: date.fromisoformat(issued)}
    assert p.certificate_named == ({held: patent} if held != patent else {})


# --- the replacements on 1 Jan 2026 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("patent, issued, ubz, national, maritime", [
    ("Kapitaenspatent-A", "1997-07-01", {ABS6_A}, {ABS7}, True),
    ("Kapitaenspatent-A", "1997-06-30", {ABS9}, {ABS10}, False),
    ("Kapitaenspatent-A", "1990-01-01", {ABS9}, {ABS10}, False),
    ("Kapitaenspatent-A", "1989-12-31", {ABS11}, {ABS12}, False),
    ("Kapitaenspatent-B", "1989-12-31", {ABS11}, {ABS12}, False),
    ("Kapitaenspatent-B", "1997-07-01", {ABS6_B}, {ABS7}, False),
], ids=["A of 1 Jul 1997: § 47 Abs. 6 Z 1 with the maritime authorisation, Abs. 7",
        "A of 30 Jun 1997: Abs. 9 (no maritime authorisation: it depends on the scope), Abs. 10",
        "A of 1 Jan 1990: Abs. 9, Abs. 10", "A of 31 Dec 1989: Abs. 11, Abs. 12", "B of 31 Dec 1989: Abs. 11, Abs. 12",
        "B of 1 Jul 1997: Abs. 6 Z 2, Abs. 7"])
def test_which_replacement_a_patent_has(law, patent, issued, ubz, national, maritime):
    a = answer(law, patent, issued)
    assert satisfied(a, "UBZ-Schiffsfuehrer") == ubz
    assert satisfied(a, "Schiffsfuehrerpatent-AT") == national
    assert ("Berechtigung-Maritim" in eligible(a)) is maritime
    assert {"UBZ-Schiffsfuehrer", "Schiffsfuehrerpatent-AT"} <= eligible(a)
    assert "Schiffsfuehrer" in a["roles"]


@pytest.mark.parametrize("patent, issued, ubz, national", [
    ("Kapitaenspatent-A", "1995-03-01", ABS9, ABS10), ("Kapitaenspatent-A", "1985-03-01", ABS11, ABS12),
])
def test_each_replacement_asks_its_own_proof(law, patent, issued, ubz, national):
    """Abs. 9 and 11 ask the Anlage 7 medical fitness, Abs. 10 and 12 the § 30 fitness: neither stands for the other."""
    only_medical = answer(law, patent, issued, functions=[])
    assert satisfied(only_medical, "UBZ-Schiffsfuehrer") == {ubz}
    assert satisfied(only_medical, "Schiffsfuehrerpatent-AT") == set()
    only_p30 = answer(law, patent, issued, medical_fitness=False)
    assert satisfied(only_p30, "UBZ-Schiffsfuehrer") == set()
    assert satisfied(only_p30, "Schiffsfuehrerpatent-AT") == {national}


@pytest.mark.parametrize("issued, provisions, validity", [("1995-03-01", {ABS9, ABS10}, ABS9),
                                                          ("1985-03-01", {ABS11, ABS12}, ABS11)])
@pytest.mark.parametrize("on, open_", [("2032-01-17", True), ("2032-01-18", False)],
                         ids=["up to and including 17 Jan 2032", "not from 18 Jan 2032"])
def test_the_replacements_are_open_up_to_and_including_17_january_2032(law, issued, provisions, validity, on, open_):
    a = answer(law, "Kapitaenspatent-A", issued, on)
    got = satisfied(a, "UBZ-Schiffsfuehrer") | satisfied(a, "Schiffsfuehrerpatent-AT")
    assert got == (provisions if open_ else set())
    # the patent itself counts as long: 'behalten bis längsten 17. Jänner 2032 ihre Gültigkeit'
    assert ("Schiffsfuehrer" in a["roles"]) is open_
    if not open_:
        (lapse,) = a["lapsed"]
        assert lapse["reason"] == "end_of_validity" and lapse["provision"] == validity


# --- before 2022: the SchBesV 2004 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("patent, issued", [
    ("Kapitaenspatent-A", "1997-07-01"), ("Kapitaenspatent-A", "1997-06-30"), ("Kapitaenspatent-A", "1990-01-01"),
    ("Kapitaenspatent-A", "1989-12-31"), ("Kapitaenspatent-B", "1989-12-31"), ("Kapitaenspatent-B", "1997-07-01"),
])
def test_every_form_fills_the_boatmasters_role_under_the_schbesv(law, patent, issued):
    a = answer(law, patent, issued, "2015-06-01", birth_date="1970-01-01")
    assert a["regulation"] == "SchBesV 2004"
    assert "Schiffsfuehrer" in a["roles"] and not a.get("lapsed")


@pytest.mark.parametrize("issued", ["1995-03-01", "1985-03-01"])
@pytest.mark.parametrize("on, roles", [("2015-06-10", True), ("2015-06-11", False)],
                         ids=["§ 5 Abs. 3 SchBesV: the report of 64 counts up to three months after the 65th birthday",
                              "the day after, the old patent gives no role either"])
def test_an_old_patents_holder_renews_the_report_after_65(law, issued, on, roles):
    a = answer(law, "Kapitaenspatent-A", issued, on, birth_date="1950-03-10", medical_fitness={"examined": "2014-12-01"})
    assert bool(a["roles"]) is roles
    assert [(x["reason"], x["provision"]) for x in a.get("lapsed", [])] == \
        ([] if roles else [("medical_overdue", "§ 5 Abs. 3 SchBesV")])


# --- the answer says how it read the record ---------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_answer_says_which_patent_the_date_selects(law, lang):
    day = date.fromisoformat(ON)
    p = person(law, "Kapitaenspatent-A", "1995-03-01")
    a = check(law, [p], day, lang)[0]
    (note,) = a["dated_forms"]
    assert (note["certificate"], note["named"], note["issued"], note["provision"]) == \
        ("Kapitaenspatent-A-1990", "Kapitaenspatent-A", "1995-03-01", ABS9)
    assert "1995-03-01" in note["text"] and ABS9 in note["text"] and "§ 47 Abs. 6 SchBV" in note["text"]
    assert "dated_forms" not in answer(law, "Kapitaenspatent-A", "1997-07-01")


def test_every_input_path_reads_the_date_alike(law, tmp_path):
    """The record form (person_to_mapping) gives the patent back as named; a Turtle record and a JSON Lines register
    go through the same reading."""
    from crewkg.records.register import each_person
    from crewkg.records.turtle import person_from_turtle, person_graph

    day = date.fromisoformat(ON)
    p = person(law, "Kapitaenspatent-A", "1995-03-01")
    back = person_to_mapping(p)
    assert back["certificates"] == [{"id": "Kapitaenspatent-A", "issued": "1995-03-01"}]
    assert person_from_mapping(back, law, day, "again").certificates == ["Kapitaenspatent-A-1990"]
    ttl = tmp_path / "p.ttl"
    person_graph(person(law, "Kapitaenspatent-A", "1985-03-01")).serialize(ttl, format="turtle")
    assert person_from_turtle(ttl, law, day).certificates == ["Kapitaenspatent-1989"]
    reg = tmp_path / "r.jsonl"
    reg.write_text(json.dumps({"id": "r", "birth_date": "1960-05-01", "medical_fitness": True,
                               "certificates": [{"id": "Kapitaenspatent-A", "issued": "1990-01-01"}]}) + "\n")
    (q,) = each_person(reg, law, day)
    assert q.certificates == ["Kapitaenspatent-A-1990"] and q.certificate_named == {"Kapitaenspatent-A-1990": "Kapitaenspatent-A"}


# --- Abs. 13 Z 1: the Kapitänspatent B of the Schiffahrtsgesetz 1990 ---------------------------------------------------
@pytest.mark.parametrize("on", ["2026-01-01", "2032-01-18", "2040-06-01"])
def test_the_1990_kapitaenspatent_b_leads_to_the_national_patent_only(law, on):
    """Abs. 13 Z 1 replaces it by the Kapitänspatent – Seen und Flüsse, on § 30 fitness and with no period; Abs. 6 and
    7 (the SchFVO patents) do not treat it, so it leads to no Union certificate and no Schiffsführerpatent – AT."""
    a = answer(law, "Kapitaenspatent-B", "1995-01-01", on)
    assert satisfied(a, "Kapitaenspatent-SeenUndFluesse") == {ABS13_Z1}
    assert satisfied(a, "UBZ-Schiffsfuehrer") == set() and satisfied(a, "Schiffsfuehrerpatent-AT") == set()
    assert "Schiffsfuehrer" not in a["roles"] and "KapitaenSeenFluesse" in a["roles"]
    unfit = answer(law, "Kapitaenspatent-B", "1995-01-01", on, functions=[])
    assert satisfied(unfit, "Kapitaenspatent-SeenUndFluesse") == set()
    (w,) = next(c for c in unfit["certificates"] if c["id"] == "Kapitaenspatent-SeenUndFluesse")["pathways"]
    assert [m["provision"] for m in w["missing"]] == ["§ 47 Abs. 13 SchBV"]


def test_the_1997_kapitaenspatent_b_is_not_the_1990_one(law):
    a = answer(law, "Kapitaenspatent-B", "1997-07-01")
    assert satisfied(a, "Kapitaenspatent-SeenUndFluesse") == set()
    assert satisfied(a, "UBZ-Schiffsfuehrer") == {ABS6_B} and "Schiffsfuehrer" in a["roles"]


@pytest.mark.parametrize("issued, satisfied_, unknown", [("1995-01-01", None, True), ("1997-07-01", True, False)])
def test_a_roster_does_not_take_the_1990_b_for_the_boatmaster(law, issued, satisfied_, unknown):
    """Whether the Schiffahrtsgesetz 1990 patent stands for the Schiffsführer on a waterway is not in the sources: the
    roster is undecided (crew:standingUnknownFor), never satisfied by it."""
    from crewkg.api import crew

    vessel = {"id": "v", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 40, "breadth_m": 8,
              "passengers": 75, "standard": "S1", "engine_kw": 300}
    roster = [{"id": "k", "birth_date": "1960-05-01", **FIT, "certificates": [{"id": "Kapitaenspatent-B", "issued": issued}],
             "functions": ["FirstAid"]},
            {"id": "m", "birth_date": "1990-01-01", "certificates": ["UBZ-Matrose", "UBZ-SachkundigerFahrgastschifffahrt"],
             "functions": ["FirstAid"]},
            {"id": "e", "birth_date": "1990-01-01", "functions": ["FahrgastErsthelfer"]}]
    r = crew(vessel, {"crew": roster}, "2027-03-01", lang="en")["roster"]
    assert r["satisfied"] is satisfied_
    assert bool(r.get("standing_unknown")) is unknown


def test_the_windows_are_data(law):
    """The windows and dated forms come from the kb, not the engine."""
    a, a90, k89 = (law.certificates[c] for c in ("Kapitaenspatent-A", "Kapitaenspatent-A-1990", "Kapitaenspatent-1989"))
    assert a.issued_from == date(1997, 7, 1) and a.issued_until is None
    assert (a90.issued_from, a90.issued_until, a90.dated_form_of) == (date(1990, 1, 1), date(1997, 6, 30), ("Kapitaenspatent-A",))
    assert (k89.issued_from, k89.issued_until) == (None, date(1989, 12, 31))
    assert set(k89.dated_form_of) == {"Kapitaenspatent-A", "Kapitaenspatent-B"}
    assert a90.regulation is None and k89.regulation is None  # listed by no regulation: no pathway leads to them
    assert law.citation(a90.validity_provision) == ABS9 and law.citation(k89.validity_provision) == ABS11


# --- Abs. 13 Z 2 to Z 14: the Schiffsführerpatente of the Schiffahrtsgesetz 1990 and those issued before 1990 ---------
ABS13 = {  # Ziffer: (the patent a record names, the national patent that replaces it)
    2: ("Schiffsfuehrerpatent-A-1990", "Schiffsfuehrerpatent-20m"),
    3: ("Schiffsfuehrerpatent-B-1990", "Schiffsfuehrerpatent-20m-AndereGewaesser"),
    4: ("Schiffsfuehrerpatent-C-1990", "Schiffsfuehrerpatent-10m-Wasserstrassen"),
    5: ("Schiffsfuehrerpatent-D-1990", "Schiffsfuehrerpatent-10m-AndereGewaesser"),
    6: ("Schiffsfuehrerpatent-10m-1989", "Schiffsfuehrerpatent-10m"),
    7: ("Schiffsfuehrerpatent-10m-1989-Wasserstrassen", "Schiffsfuehrerpatent-10m-Wasserstrassen"),
    8: ("Schiffsfuehrerpatent-10m-1989-Binnengewaesser", "Schiffsfuehrerpatent-10m-AndereGewaesser"),
    9: ("Schiffsfuehrerpatent-20m-1989", "Schiffsfuehrerpatent-20m"),
    10: ("Schiffsfuehrerpatent-20m-1989-Wasserstrassen", "Schiffsfuehrerpatent-20m-Wasserstrassen"),
    11: ("Schiffsfuehrerpatent-20m-1989-Binnengewaesser", "Schiffsfuehrerpatent-20m-AndereGewaesser"),
    12: ("Schiffsfuehrerpatent-15m-1989", "Schiffsfuehrerpatent-20m-15m"),
    13: ("Schiffsfuehrerpatent-15m-1989-Wasserstrassen", "Schiffsfuehrerpatent-20m-Wasserstrassen-15m"),
    14: ("Schiffsfuehrerpatent-15m-1989-Binnengewaesser", "Schiffsfuehrerpatent-20m-AndereGewaesser-15m"),
}


@pytest.mark.parametrize("z", sorted(ABS13))
def test_each_ziffer_of_abs_13_replaces_its_patent_on_the_section_30_proof(law, z):
    """„… können über Antrag …, sofern die geistige und körperliche Eignung gemäß § 30 nachgewiesen wird, wie folgt
    ersetzt werden: … Z“: the patent named leads to the national patent of its Ziffer, and to no other, and without
    the § 30 proof to none; Abs. 13 sets no period, so it holds after 17 Jan 2032 too."""
    held, national = ABS13[z]
    for on in ("2026-01-01", "2032-01-18"):
        a = answer(law, held, None, on)
        assert satisfied(a, national) == {f"§ 47 Abs. 13 Z {z} SchBV"}, (z, on)
        assert eligible(a) == {national}, (z, on)
        assert "SchiffsfuehrerPatentSchFG" in a["roles"] and "Schiffsfuehrer" not in a["roles"]
    unfit = answer(law, held, None, functions=[])
    assert satisfied(unfit, national) == set()
    (w,) = [w for c in unfit["certificates"] if c["id"] == national for w in c["pathways"]
            if w["provision"] == f"§ 47 Abs. 13 Z {z} SchBV"]
    assert [m["provision"] for m in w["missing"]] == ["§ 47 Abs. 13 SchBV"]


def test_z_4_is_closed_to_a_holder_of_the_patent_d_too(law):
    """Z 4: C → Schiffsführerpatent – 10 m on waterways „sofern die Inhaberin bzw. der Inhaber nicht auch ein
    Schiffsführerpatent D … besitzt“. With D too, Z 4 is not met (the D held is named), and Z 5 replaces the D."""
    c, d = ABS13[4][0], ABS13[5][0]
    alone = check(law, [person_from_mapping({"id": "c", "birth_date": "1960-05-01", **FIT, "certificates": [c]},
                                            law, date.fromisoformat(ON), "test")], date.fromisoformat(ON))[0]
    assert satisfied(alone, "Schiffsfuehrerpatent-10m-Wasserstrassen") == {"§ 47 Abs. 13 Z 4 SchBV"}
    both = check(law, [person_from_mapping({"id": "cd", "birth_date": "1960-05-01", **FIT, "certificates": [c, d]},
                                           law, date.fromisoformat(ON), "test")], date.fromisoformat(ON))[0]
    assert satisfied(both, "Schiffsfuehrerpatent-10m-Wasserstrassen") == set()
    assert eligible(both) == {"Schiffsfuehrerpatent-10m-AndereGewaesser"}
    (w,) = [w for c_ in both["certificates"] if c_["id"] == "Schiffsfuehrerpatent-10m-Wasserstrassen"
            for w in c_["pathways"] if w["provision"] == "§ 47 Abs. 13 Z 4 SchBV"]
    (m,) = w["missing"]
    assert m["kind"] == "NotHeld" and m["have"] == [d] and m["met"] is False
    assert m["unit"] == "document"  # an exclusion names documents (a patent, a restriction), not a count of certificates
    assert "Schiffsführerpatent D" in m["text"]


def test_the_exclusion_speaks_both_languages(law):
    from crewkg.rules.kinds import missing_sentence

    c, d = ABS13[4][0], ABS13[5][0]
    for lang, words in (("de", "ausgeschlossen durch"), ("en", "excluded by")):
        p = person_from_mapping({"id": "cd", "birth_date": "1960-05-01", **FIT, "certificates": [c, d]},
                                law, date.fromisoformat(ON), "test")
        a = check(law, [p], date.fromisoformat(ON), lang)[0]
        (w,) = [w for c_ in a["certificates"] if c_["id"] == "Schiffsfuehrerpatent-10m-Wasserstrassen"
                for w in c_["pathways"] if w["provision"] == "§ 47 Abs. 13 Z 4 SchBV"]
        sentence = missing_sentence(law, w["missing"][0], lang)
        assert words in sentence and law.label(d, lang) in sentence, sentence


# --- Abs. 9 and 11, last sentence: a patent restricted in its local scope needs the supplementary exam ---------------
RESTRICTED = {"functions": ["Eignung-SchBV-P30-Abs4", "Einschraenkung-Oertlicher-Geltungsbereich"]}
SUPPLEMENTARY = {"exams": [{"id": "Ergaenzungspruefung-SchBV-P47", "passed": "2025-03-01"}]}


@pytest.mark.parametrize("issued, provision", [("1995-01-01", ABS9), ("1985-01-01", ABS11)])
def test_a_restricted_patent_is_replaced_only_after_the_supplementary_exam(law, issued, provision):
    """„Kapitänspatente A, die einer Einschränkung des örtlichen Geltungsbereichs unterliegen, können nur nach
    erfolgreicher Ablegung einer Ergänzungsprüfung entsprechend Z 1 oder Z 2 ersetzt werden“ (Abs. 9; Abs. 11 alike):
    the restriction stated, the UBZ is refused with the restriction named; with the exam it is issued; unrestricted,
    no exam is asked. Abs. 10 and 12 (Schiffsführerpatent – AT, „unter Berücksichtigung der Einschränkungen“) stay open."""
    assert satisfied(answer(law, "Kapitaenspatent-A", issued), "UBZ-Schiffsfuehrer") == {provision}
    restricted = answer(law, "Kapitaenspatent-A", issued, **RESTRICTED)
    assert satisfied(restricted, "UBZ-Schiffsfuehrer") == set()
    (w,) = [w for c in restricted["certificates"] if c["id"] == "UBZ-Schiffsfuehrer" for w in c["pathways"]
            if w["provision"] == provision]
    (m,) = w["missing"]
    assert m["kind"] == "AnyOf" and m["provision"] == provision
    assert [a["have"] for a in m["alternatives"]] == [["Einschraenkung-Oertlicher-Geltungsbereich"], []]
    assert satisfied(restricted, "Schiffsfuehrerpatent-AT") == {ABS10 if provision == ABS9 else ABS12}
    examined = answer(law, "Kapitaenspatent-A", issued, **RESTRICTED, **SUPPLEMENTARY)
    assert satisfied(examined, "UBZ-Schiffsfuehrer") == {provision}


def test_the_maritime_authorisation_of_a_restricted_patent_needs_the_exam_too(law):
    scope = {"functions": ["Eignung-SchBV-P30-Abs4", "Einschraenkung-Oertlicher-Geltungsbereich",
                           "Berechtigungsumfang-Seeschifffahrtsstrassen"]}
    assert satisfied(answer(law, "Kapitaenspatent-A", "1995-01-01", **scope), "Berechtigung-Maritim") == set()
    assert satisfied(answer(law, "Kapitaenspatent-A", "1995-01-01", **scope, **SUPPLEMENTARY),
                     "Berechtigung-Maritim") == {"§ 47 Abs. 9 Z 1 SchBV"}


@pytest.mark.parametrize("more, on, first", [
    (RESTRICTED, ON, ABS9),  # the supplementary exam is passed on the route's first day, as the plan assumes of exams
    ({}, ON, ABS9),
    (RESTRICTED, "2032-01-17", ABS9),  # the last day of the replacement („bis zum 17. Jänner 2032“, Abs. 9)
    (RESTRICTED, "2032-01-18", "§ 15 Z 3 SchBV"),  # after it: a closed application period is not given by a day
])
def test_the_plan_starts_a_restricted_patents_replacement_with_the_supplementary_exam(law, more, on, first):
    """A route began with a replacement only when it lacked documents alone, so a restricted Kapitänspatent holder
    was sent to § 15 for years instead of „Ergänzungsprüfung, then Abs. 9“: now what a step's date gives (documents,
    exams) may be missing; a replacement lacking something else (its application period closed) is not begun."""
    import crewkg

    p = person(law, "Kapitaenspatent-A", "1995-01-01", on, **more)
    best = crewkg.plan(p, "UBZ-Schiffsfuehrer", as_of=on)["routes"][0]
    assert best["steps"][0]["provision"] == first
    if first == ABS9:
        assert best["earliest"] == on
        assert [m["kind"] for m in best["steps"][0]["remaining"]] == (["AnyOf"] if more else [])


PLAETTEN = {"id": "mb-plaetten", "kind": "day_trip_passenger", "waters": "other", "length_m": 18, "breadth_m": 4.5,
            "passengers": 50, "standard": "S1", "engine_kw": 120, "mooring_system": True}


@pytest.mark.parametrize(("waters", "patent", "satisfied"), [
    ("other", "Schiffsfuehrerpatent-10m-Wasserstrassen", False),   # Z 4: restricted to waterways, on a lake
    ("other", "Schiffsfuehrerpatent-10m-AndereGewaesser", None),   # Z 5: its waters; how far it reaches is not known
    ("other", "Schiffsfuehrerpatent-10m-1989-Wasserstrassen", False),  # Z 7: „gültig für Wasserstraßen“
    ("waterway", "Schiffsfuehrerpatent-10m-AndereGewaesser", False),
    ("waterway", "Schiffsfuehrerpatent-10m-1989-Binnengewaesser", False),  # Z 8: „ausgenommen Wasserstraßen“
    ("waterway", "Schiffsfuehrerpatent-10m-Wasserstrassen", None),
    ("waterway", "Schiffsfuehrerpatent-10m", None),  # valid on both kinds of waters
    ("other", "Schiffsfuehrerpatent-10m", None),
])
def test_a_patent_restricted_to_other_waters_stands_for_no_boatmaster_there(law, waters, patent, satisfied):
    """Whether a national Schiffsführerpatent stands for the boatmaster of a table is not in the sources (the roster is
    undecided), but § 47 Abs. 13 SchBV words some as restricted to waterways or to other waters: on a vessel on the
    other kind of waters such a patent stands for nothing, and the roster lacks its boatmaster."""
    import crewkg

    crew = [{"id": "hannes", "birth_date": "1979-11-11", "certificates": [patent], "functions": ["FirstAid"]},
            {"id": "mia", "birth_date": "1990-01-01", "certificates": ["UBZ-Matrose"], "functions": ["FirstAid"]},
            {"id": "sophie", "birth_date": "1995-01-01", "functions": ["FahrgastErsthelfer"]}]  # all but the boatmaster
    roster = crewkg.crew({**PLAETTEN, "waters": waters}, {"crew": crew}, as_of="2026-11-30", lang="en")["roster"]
    assert roster["satisfied"] is satisfied
