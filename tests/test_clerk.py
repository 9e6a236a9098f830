"""The clerk's draft (issue 47, docs/clerk.md): a draft an authority can work from, never a decision.

- The proposal follows the derivation at its threshold: 360 credited days under § 12 Z 2 lit. c SchBV propose the
  grant with that provision, 359 do not; 20 days short, the draft proposes refusal naming the 20 days and the
  provision; days recorded but not validated make it incomplete.
- The banner 'ENTWURF – kein Bescheid' with crewkg's and the kb's versions, the date and the input digest opens every
  draft; the authority's header and Rechtsmittelbelehrung are inserted as given, else the places say they are empty.
- No draft of any bundled person, in any kind, language and format, says 'wird abgewiesen' or 'festgestellt' or
  gives a reading without the other one.
- JSON, HTML and PDF are each made (the PDF opened and its text read back), and the JSON's PROV IRIs are those the
  RDF export writes."""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import crewkg
from crewkg import api
from crewkg.answers.eligibility import check
from crewkg.answers.explanation import derivation
from crewkg.cli import app
from crewkg.documents import pages
from crewkg.documents.authority import Authority
from crewkg.documents.draft import KINDS, build

ROOT = Path(__file__).resolve().parents[1]
PERSONS = sorted(p for p in (ROOT / "kb" / "examples" / "persons").iterdir() if p.suffix in (".yaml", ".json", ".ttl"))
ANNA = ROOT / "kb" / "examples" / "persons" / "anna-matrose.yaml"
AS_OF = "2026-11-30"
runner = CliRunner()

#: what a draft never says: a decision, a finding of fact, a reading given as the only law
FORBIDDEN = {"de": ("wird abgewiesen", "es wird festgestellt", "festgestellt", "einzig richtige", "einzige Lesart"),
             "en": ("is hereby refused", "is refused", "it is established", "it is hereby found", "the only reading")}


def _record(matrose_days: int, **more) -> dict:
    """Age, exam Anlage 8 and medical fitness of § 12 Z 2 SchBV met; 200 days as Decksmann and `matrose_days` as
    Matrose: lit. c (360 days) met from 160 Matrose days on."""
    return {"id": "bernd", "birth_date": "2000-02-01", "medical_fitness": True, "exams": ["Anlage8"],
            "sailing_days": {"Decksmann": 200, "Matrose": matrose_days}} | more


def test_anna_meets_paragraph_12_z_2_and_the_draft_proposes_the_grant_with_it():
    d = api.draft(ANNA, "UBZ-Matrose", AS_OF)
    assert d["draft"] is True and d["proposal"] == "grant" and d["pathway"] == "§ 12 Z 2 SchBV"
    assert [f["provision"] for f in d["findings"]] == [f"§ 12 Z 2 lit. {x} SchBV" for x in "abcd"]
    assert all(f["met"] for f in d["findings"]) and d["missing"] == []
    spruch = next(s for s in d["sections"] if s["id"] == "spruch")
    text = " ".join(b.get("text", "") for b in spruch["blocks"])
    assert "stattgegeben" in text and "§ 12 Z 2 SchBV" in text and "§ 12 Z 2 lit. c SchBV" in text
    # the validity a certificate issued on the evaluation date would have: 13 years, up to and including the
    # anniversary (§ 22 Abs. 2; § 902 Abs. 2 ABGB, kb:Reading-Fristende-ABGB902)
    assert d["validity"] == {"until": "2039-11-30", "provision": "§ 22 Abs. 2 SchBV", "years": 13, "issued": AS_OF}
    assert d["medical"]["provision"] == "§ 22 Abs. 1 SchBV" and [s["from_age"] for s in d["medical"]["steps"]] == [60, 70]
    assert "legt die Behörde fest" in text  # costs, conditions, restriction codes: left to the authority, said so


def test_the_banner_names_versions_date_and_digest_and_no_option_removes_it():
    d = api.draft(ANNA, "UBZ-Matrose", AS_OF)
    assert d["banner"].startswith("ENTWURF – kein Bescheid")
    for part in (crewkg.__version__, d["kb_version"], AS_OF, d["input_digest"]):
        assert part in d["banner"]
    assert re.fullmatch(r"[0-9a-f]{64}", d["input_digest"])
    html = api.draft(ANNA, "UBZ-Matrose", AS_OF, fmt="html")
    assert html.count(d["banner"]) >= 3  # the page head's CSS string, the top and the foot (and the title)
    en = api.draft(ANNA, "UBZ-Matrose", AS_OF, lang="en")
    assert "ENTWURF – kein Bescheid" in en["banner"] and en["banner"].startswith("DRAFT")


@pytest.mark.parametrize(("days", "proposal"), [(160, "grant"), (159, "refuse")])
def test_the_proposal_follows_the_threshold_of_360_days(days, proposal):
    """The day itself (360 credited days) and the day before (359): the draft follows the derivation."""
    d = api.draft(_record(days), "UBZ-Matrose", AS_OF)
    assert d["proposal"] == proposal
    if proposal == "refuse":
        assert d["missing"][0]["provision"] == "§ 12 Z 2 lit. c SchBV" and (d["missing"][0]["needed"], d["missing"][0]["have"]) == (360, 359)


def test_twenty_days_short_the_draft_proposes_refusal_naming_the_20_days_and_the_provision():
    d = api.draft(_record(140), "UBZ-Matrose", AS_OF)
    assert d["proposal"] == "refuse" and d["pathway"] is None and d["considered_pathway"] == "§ 12 Z 2 SchBV"
    (m,) = d["missing"]
    assert (m["provision"], m["needed"], m["have"], m["unit"]) == ("§ 12 Z 2 lit. c SchBV", 360, 340, "days")
    assert "noch 20 Tage Fahrzeit" in m["shortfall"]
    spruch = json.dumps(next(s for s in d["sections"] if s["id"] == "spruch"), ensure_ascii=False)
    assert "noch 20 Tage Fahrzeit" in spruch and "§ 12 Z 2 lit. c SchBV" in spruch and "abzuweisen" in spruch
    assert "--kind completion" in spruch and "§ 45 Abs. 3 AVG" in spruch  # the drafts of less risk, named first
    assert "20 more days of sailing time" in api.draft(_record(140), "UBZ-Matrose", AS_OF, lang="en")["missing"][0]["shortfall"]


def test_days_recorded_but_not_validated_make_the_application_incomplete():
    """Sofia's log holds 183 days not yet validated, more than the 111 she lacks: a request to complete, not a refusal."""
    sofia = ROOT / "kb" / "examples" / "persons" / "23-sofia-awaiting-validation.yaml"
    d = api.draft(sofia, "UBZ-Matrose", AS_OF)
    assert d["proposal"] == "incomplete" and d["missing"][0]["submittable"] is True
    days = " ".join(d["days"])
    assert "183 Tage" in days and "nicht bestätigt" in days  # days not credited, and why


@pytest.mark.parametrize("kind", ["completion", "hearing"])
def test_before_a_refusal_the_request_to_complete_and_the_hearing_list_what_is_missing(kind):
    d = api.draft(_record(140), "UBZ-Matrose", AS_OF, kind=kind)
    body = next(s for s in d["sections"] if s["id"] == ("request" if kind == "completion" else "hearing"))
    text = json.dumps(body, ensure_ascii=False)
    assert ("§ 13 Abs. 3 AVG" if kind == "completion" else "§ 45 Abs. 3 AVG") in text
    assert "noch 20 Tage Fahrzeit" in text and "festzusetzenden Frist" in text
    assert "spruch" not in [s["id"] for s in d["sections"]]
    remedy = next(s for s in d["sections"] if s["id"] == "remedy")
    assert "kein Bescheid" in remedy["blocks"][0]["text"]


def test_the_authoritys_texts_are_inserted_as_given_and_without_them_the_places_say_they_are_empty(tmp_path):
    header = "Bezirkshauptmannschaft Musterstadt\nSchifffahrtsreferat <b>nicht fett</b> & Co"
    remedy = "Gegen diesen Bescheid kann binnen vier Wochen Beschwerde erhoben werden.\n  (eingerückt)"
    f = tmp_path / "behoerde.yaml"
    f.write_text(f"header: |\n  {header.replace(chr(10), chr(10) + '  ')}\nrechtsmittelbelehrung: |\n"
                 f"  {remedy.replace(chr(10), chr(10) + '  ')}\n", encoding="utf-8")
    d = api.draft(ANNA, "UBZ-Matrose", AS_OF, authority=f)
    assert d["authority_text"] == {"header": header + "\n", "rechtsmittelbelehrung": remedy + "\n"}
    html = api.draft(ANNA, "UBZ-Matrose", AS_OF, fmt="html", authority=f)
    assert "&lt;b&gt;nicht fett&lt;/b&gt; &amp; Co" in html and "<b>nicht fett</b>" not in html  # text, never markup
    bare = api.draft(ANNA, "UBZ-Matrose", AS_OF)
    assert bare["authority_text"] == {"header": None, "rechtsmittelbelehrung": None}
    empty = [b["text"] for s in bare["sections"] for b in s["blocks"] if b["type"] == "empty"]
    assert len(empty) == 2 and all("leer" in t and "crewkg erzeugt" in t for t in empty)


def test_a_bad_authority_file_is_refused_with_file_key_and_expectation_and_nothing_is_written(tmp_path):
    f = tmp_path / "behoerde.yaml"
    f.write_text("header: Kopf\nsignatur: ja\n", encoding="utf-8")
    out = tmp_path / "draft.html"
    result = runner.invoke(app, ["draft", str(ANNA), "--certificate", "UBZ-Matrose", "--as-of", AS_OF, "--format", "html",
                                 "--authority", str(f), "--out", str(out), "--lang", "en"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "behoerde.yaml" in result.output and "signatur" in result.output and "rechtsmittelbelehrung" in result.output
    assert not out.exists()


def test_a_certificate_crewkg_does_not_cover_or_does_not_know_is_refused():
    result = runner.invoke(app, ["draft", str(ANNA), "--certificate", "UBZ-SachkundigerLNG", "--as-of", AS_OF])
    assert result.exit_code == 2 and "nicht abgedeckt" in result.output
    result = runner.invoke(app, ["draft", str(ANNA), "--certificate", "UBZ-Matrsoe", "--as-of", AS_OF, "--lang", "en"])
    assert result.exit_code == 2 and "UBZ-Matrose" in result.output  # the nearest id is named


def _texts(doc) -> list[str]:
    """Every text of a draft's JSON (keys are ids, values the words)."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.append(x)

    walk(doc)
    return out


@pytest.mark.parametrize("person", PERSONS, ids=[p.stem for p in PERSONS])
def test_no_draft_of_a_bundled_person_decides_finds_facts_or_gives_one_reading_as_the_only_law(person, law):
    """Every covered certificate, every kind, both languages, JSON and HTML (the PDF is the HTML rendered; a PDF of
    each kind is read back below)."""
    day = date.fromisoformat(AS_OF)
    for lang in ("de", "en"):
        p = crewkg.person(person, AS_OF)
        answer = check(law, [p], day, lang)[0]
        for c in (c for c in answer["certificates"] if c["covered"]):
            tree = derivation(law, p, answer, c["id"], lang)
            for kind in KINDS:
                doc = build(law, p, answer, tree, c["id"], day, kind, lang, Authority())
                html = re.sub(r"<[^>]+>", " ", pages.html(doc))
                for text in [*_texts(doc), html]:
                    for phrase in FORBIDDEN[lang]:
                        assert phrase not in text, (person.stem, c["id"], kind, lang, phrase)
                assert doc["banner"] in html
                for r in doc["readings"]:  # every reading applied stands with the other one
                    assert r["applied"].strip() and r["other"].strip(), (person.stem, c["id"], r)
                readings = [b for s in doc["sections"] for b in s["blocks"] if b["type"] == "reading"]
                assert len(readings) == len(doc["readings"]) and all(b["other"] for b in readings)


def test_readings_come_with_the_other_reading_where_the_kb_states_one_and_with_the_catalogues_sentence_else():
    """Sabine's § 12 Z 3 applies the kb's reading of 'neun Monate dauernd'; the kb states no other reading there, so
    the draft says that the reading applied is one reading, not the law."""
    sabine = ROOT / "kb" / "examples" / "persons" / "05-sabine-career-changer.yaml"
    d = api.draft(sabine, "UBZ-Matrose", AS_OF)
    assert d["pathway"] == "§ 12 Z 3 SchBV"
    r = next(r for r in d["readings"] if r["provision"] == "§ 12 Z 3 lit. b SchBV")
    assert "neun Monate" in r["applied"] and not r["other_stated"] and "nicht gebunden" in r["other"]


@pytest.mark.parametrize("kind", KINDS)
def test_json_html_and_pdf_are_made_and_the_pdf_reads_back(kind, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    try:  # WeasyPrint needs the system's Pango (Debian's chromium, which .ci/run installs, brings it)
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"WeasyPrint cannot render here: {exc}")
    record = tmp_path / "bernd.yaml"
    record.write_text(json.dumps(_record(140)), encoding="utf-8")
    base = ["draft", str(record), "--certificate", "UBZ-Matrose", "--as-of", AS_OF, "--kind", kind]
    j = runner.invoke(app, [*base, "--format", "json"])
    assert j.exit_code == 0, j.output
    doc = json.loads(j.stdout)
    assert doc["kind"] == kind and doc["banner"].startswith("ENTWURF – kein Bescheid")
    h = runner.invoke(app, [*base, "--format", "html"])
    assert h.exit_code == 0 and h.stdout.startswith("<!DOCTYPE html>") and "<script" not in h.stdout
    out = tmp_path / "draft.pdf"
    r = runner.invoke(app, [*base, "--format", "pdf", "--out", str(out)])
    assert r.exit_code == 0, r.output
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "ENTWURF – kein Bescheid" in text and doc["input_digest"] in text.replace(" ", "")
    assert "noch 20 Tage Fahrzeit" in text and "§ 12 Z 2 lit. c SchBV" in text
    for page in reader.pages:  # the banner heads every page
        assert "ENTWURF – kein Bescheid" in page.extract_text()
    root = reader.trailer["/Root"]  # PDF/A-3b: the XMP says so, and an output intent is there
    assert b'pdfaid:part="3"' in root["/Metadata"].get_object().get_data() and "/OutputIntents" in root


def test_the_json_names_the_prov_iris_the_export_writes(law):

    from crewkg.service.derived import FULL
    from crewkg.service.export import export_graph

    day = date.fromisoformat(AS_OF)
    for record in (ANNA, _record(140)):
        d = api.draft(record, "UBZ-Matrose", AS_OF)
        g = export_graph(law, [crewkg.person(record, AS_OF)], day, shape=FULL)  # the full graph (docs/clerk.md)
        subjects = {str(s) for s in g.subjects()}
        named = {iri for s in d["sections"] for iri in s["prov"]} | {f["prov"] for f in d["findings"] if f["prov"]}
        assert named and named <= subjects, sorted(named - subjects)


def test_a_pdf_without_the_documents_extra_names_it(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "weasyprint", None)
    out = tmp_path / "d.pdf"
    result = runner.invoke(app, ["draft", str(ANNA), "--certificate", "UBZ-Matrose", "--as-of", AS_OF, "--format", "pdf",
                                 "--out", str(out), "--lang", "en"])
    assert result.exit_code == 2 and "[documents]" in result.output and "pip install 'crewkg[documents]'" in result.output
    assert not out.exists()


def test_the_service_answers_a_draft_and_a_credential_for_the_record_in_the_body(law):
    from fastapi.testclient import TestClient

    from crewkg.service.app import Service, Settings, create_app
    from crewkg.service.loading import build_store

    day = date.fromisoformat(AS_OF)
    guard = create_app(Service(law, build_store("memory", law, [], day), {}, day, Settings()))
    client = TestClient(guard.fastapi)
    r = client.post(f"/api/draft?certificate=UBZ-Matrose&format=html&as_of={AS_OF}", json=_record(140))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html") and "ENTWURF – kein Bescheid" in r.text
    r = client.post(f"/api/draft?certificate=UBZ-Matrose&kind=hearing&as_of={AS_OF}", json=_record(140))
    assert r.status_code == 200 and r.json()["missing"][0]["provision"] == "§ 12 Z 2 lit. c SchBV"
    r = client.post(f"/api/credential?certificate=UBZ-Matrose&as_of={AS_OF}", json=_record(140))
    assert r.status_code == 422 and r.json()["field"] == "certificates"
