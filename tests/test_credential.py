"""A certificate the record holds as a European Digital Credential (issue 47, docs/clerk.md).

- Every bundled holder of a UBZ with its issue date gets a credential that conforms to the official EDC shapes,
  checked offline (the network is closed while it is checked); one whose record does not hold the certificate, or
  holds it without an issue date, is refused (exit 2, a message naming it).
- A misspelt key, a misspelt type and a missing mandatory property fail the check: nothing is dropped silently.
- The credential says what § 22 SchBV gives (validity), the Union as its jurisdiction, the issuer as configured, a
  rendered page, and evidence that points to the PROV derivation without the record's entries.
- The bundled shapes and contexts are those their README names (digests) with their licences beside them."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import re
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg import api
from crewkg.cli import app

pytest.importorskip("pyld")
from crewkg.documents import conformance  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT / "kb" / "examples" / "persons"
AS_OF = "2026-11-30"
runner = CliRunner()
#: bundled persons who hold a UBZ with its issue date (certificates: [{id, issued}]), found by reading them
HOLDERS = sorted((p, c) for p in PERSONS.iterdir() if p.suffix in (".yaml", ".json", ".ttl")
                 for c, issued in api.person(p, AS_OF).certificate_issued.items() if c.startswith("UBZ-"))


@pytest.fixture
def offline(monkeypatch):
    """No connection can be opened: a check that reached for a context or a shape on the network fails."""

    def refuse(*args, **kwargs):
        raise OSError("the network is closed in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_there_are_bundled_holders_of_a_ubz_with_its_issue_date():
    assert [(p.stem, c) for p, c in HOLDERS] == [("20-franz-schifferdienstbuch", "UBZ-Matrose"),
                                                 ("32-helga-boatmaster-at-70", "UBZ-Schiffsfuehrer")]


@pytest.mark.parametrize(("person", "cert"), HOLDERS, ids=[p.stem for p, _ in HOLDERS])
def test_every_bundled_holder_gets_a_credential_that_conforms_to_the_official_shapes_offline(person, cert, offline, tmp_path):
    out = tmp_path / "credential.jsonld"
    result = runner.invoke(app, ["credential", str(person), "--certificate", cert, "--format", "edc", "--as-of", AS_OF,
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert conformance.problems(doc) == []
    assert doc["type"] == ["VerifiableCredential", "EuropeanDigitalCredential"]
    assert doc["@context"] == ["https://www.w3.org/2018/credentials/v1", "http://data.europa.eu/snb/model/context/edc-ap"]


def test_franzs_credential_says_the_certificate_its_dates_its_entitlement_and_its_evidence():
    franz = PERSONS / "20-franz-schifferdienstbuch.yaml"
    doc = api.credential(franz, "UBZ-Matrose", AS_OF)
    # issued on 20 March 2025 (the record), valid 13 years up to and including 20 March 2038 (§ 22 Abs. 2 SchBV;
    # the anniversary is the last day, § 902 Abs. 2 ABGB)
    assert (doc["issued"], doc["validFrom"], doc["validUntil"]) == ("2025-03-20T00:00:00Z", "2025-03-20T00:00:00Z",
                                                                    "2038-03-20T23:59:59Z")
    claim = doc["credentialSubject"]["hasClaim"]
    assert claim["type"] == "LearningAchievement" and claim["title"]["de"] == "Unionsbefähigungszeugnis für Matrosin bzw. Matrose"
    assert claim["awardedBy"]["awardingBody"]["id"] == doc["issuer"]["id"]
    (entitlement,) = claim["entitlesTo"]
    spec = entitlement["specifiedBy"]
    assert spec["dcType"]["prefLabel"]["en"] == "occupation" and spec["entitlementStatus"]["prefLabel"]["en"] == "actual"
    assert [j["id"] for j in spec["limitJurisdiction"]] == ["http://publications.europa.eu/resource/authority/atu/EUR"]
    assert entitlement["expiryDate"] == doc["validUntil"]
    notes = json.dumps(claim["additionalNote"], ensure_ascii=False)
    assert "Siegel" in notes and "§ 2 Z 2 SchBV" in notes  # sealing is the authority's; not the legal document
    page = doc["displayParameter"]["individualDisplay"][0]["displayDetail"][0]
    assert page["page"] == 1 and base64.b64decode(page["image"]["content"]).startswith(b"\x89PNG")
    (evidence,) = doc["evidence"]
    assert "https://w3id.org/crewkg/derived/franz-huber/evaluation" in evidence["evidenceStatement"]
    embedded = json.loads(base64.b64decode(evidence["embeddedEvidence"][0]["content"]))
    assert embedded["@id"] == "https://w3id.org/crewkg/derived/franz-huber/evaluation"
    said = json.dumps(evidence, ensure_ascii=False) + json.dumps(embedded)
    assert "MS Wachau" not in said and "1998-04-12" not in said and "Anlage8" not in said  # no entry of the record


def test_the_issuer_is_the_authority_of_the_file(tmp_path, offline):
    f = tmp_path / "issuer.yaml"
    f.write_text("name: Bezirkshauptmannschaft Musterstadt\neidas: AT/ZVR/123456789\ncountry: AUT\n"
                 "homepage: https://www.example.gv.at\n", encoding="utf-8")
    doc = api.credential(PERSONS / "20-franz-schifferdienstbuch.yaml", "UBZ-Matrose", AS_OF, issuer=f)
    issuer = doc["issuer"]
    assert issuer["legalName"] == {"de": "Bezirkshauptmannschaft Musterstadt"}
    assert issuer["eIDASIdentifier"]["notation"] == "AT/ZVR/123456789"
    assert issuer["location"]["address"]["countryCode"]["id"].endswith("/country/AUT")
    bare = api.credential(PERSONS / "20-franz-schifferdienstbuch.yaml", "UBZ-Matrose", AS_OF)
    assert "nicht konfiguriert" in bare["issuer"]["legalName"]["de"]
    f.write_text("name: X\ncountry: Austria\n", encoding="utf-8")
    result = runner.invoke(app, ["credential", str(PERSONS / "20-franz-schifferdienstbuch.yaml"), "--certificate",
                                 "UBZ-Matrose", "--issuer", str(f), "--lang", "en"])
    assert result.exit_code == 2 and "country" in result.output and "AUT" in result.output


def test_a_certificate_the_record_does_not_hold_or_holds_without_its_issue_date_is_refused(tmp_path):
    franz = PERSONS / "20-franz-schifferdienstbuch.yaml"
    out = tmp_path / "c.jsonld"
    result = runner.invoke(app, ["credential", str(franz), "--certificate", "UBZ-Bootsmann", "--format", "edc",
                                 "--out", str(out), "--lang", "en"])
    assert result.exit_code == 2 and "Traceback" not in result.output and not out.exists()
    assert "certificates" in result.output and "UBZ-Bootsmann" in result.output and "it holds: UBZ-Matrose" in result.output
    anna = PERSONS / "anna-matrose.yaml"  # holds UBZ-Matrose without an issue date
    result = runner.invoke(app, ["credential", str(anna), "--certificate", "UBZ-Matrose"])
    assert result.exit_code == 2 and "Ausstellungsdatum" in result.output and "issued" in result.output


def _franz() -> dict:
    return api.credential(PERSONS / "20-franz-schifferdienstbuch.yaml", "UBZ-Matrose", AS_OF, validate=False)


def test_a_misspelt_key_fails_and_is_not_dropped_silently(offline):
    doc = _franz()
    claim = doc["credentialSubject"]["hasClaim"]
    claim["titel"] = claim.pop("title")
    found = [str(p) for p in conformance.problems(doc)]
    assert any("titel" in p for p in found), found
    with pytest.raises(conformance.NotConforming) as info:
        conformance.conforms(doc)
    assert "titel" in info.value.message("en") and "titel" in info.value.message("de")


def test_a_misspelt_type_and_a_missing_mandatory_property_fail():
    doc = _franz()
    doc["credentialSubject"]["type"] = "Persn"
    assert any("Persn" in str(p) for p in conformance.problems(doc))
    doc = _franz()
    del doc["issued"]
    assert any("issued" in str(p) for p in conformance.problems(doc))
    doc = _franz()
    del doc["issuer"]["eIDASIdentifier"]  # the EDC profile asks every issuer for an eIDAS identifier
    assert conformance.problems(doc)


def test_a_context_that_is_not_bundled_is_refused_without_asking_the_network(offline):
    doc = copy.deepcopy(_franz())
    doc["@context"] = [*doc["@context"], "https://example.org/another-context"]
    with pytest.raises(conformance.NotConforming) as info:
        conformance.problems(doc)
    assert "https://example.org/another-context" in info.value.message("en")


def test_the_bundled_files_are_the_pinned_ones_with_their_licences():
    edc = conformance.EDC
    readme = (edc / "README.md").read_text(encoding="utf-8")
    for name in (*conformance.SHAPES, *conformance.CONTEXTS.values()):
        digest = hashlib.sha256((edc / name).read_bytes()).hexdigest()
        assert re.search(rf"`{re.escape(name)}`.*`{digest}`", readme), name
    for licence in ("LICENSE-CC-BY-4.0.txt", "LICENSE-EUPL-1.2.txt", "LICENSE-W3C.txt"):
        assert (edc / licence).stat().st_size > 1000 and licence in readme
    assert "Attribution 4.0 International" in (edc / "LICENSE-CC-BY-4.0.txt").read_text(encoding="utf-8")
    assert "European Union Public Licence" in (edc / "LICENSE-EUPL-1.2.txt").read_text(encoding="utf-8")
