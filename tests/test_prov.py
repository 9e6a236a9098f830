"""PROV a PROV tool can read: `crewkg export` read back with the `prov` package (PROV-O in RDF → PROV data model).

Without crewkg's ontology a PROV reader knows no sub-property of prov:wasDerivedFrom, so the derivations are asserted
directly; the evaluation is a prov:Activity with its start and end, every result a prov:Entity with the time it was
generated; and the Turtle declares every prefix the reader needs to turn an IRI into a qualified name."""

from __future__ import annotations

import warnings
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli.common import app

pytestmark = pytest.mark.xdist_group("test_prov")  # its module fixtures are made once, on one worker

prov = pytest.importorskip("prov")  # the `test` extra
from prov.model import ProvActivity, ProvDerivation, ProvEntity, ProvGeneration  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
DERIVED = "https://w3id.org/crewkg/derived/"
PERSON = "https://w3id.org/crewkg/person/"


def _export(tmp_path_factory, derivations: str) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("prov") / "derived.ttl"
    result = CliRunner().invoke(app, ["export", str(EXAMPLES / "03-maria-matrose-to-bootsmann.yaml"),
                                      str(EXAMPLES / "08-henrik-former-sea-captain.yaml"), "--out", str(out),
                                      "--as-of", "2026-11-30", "--derivations", derivations])
    assert result.exit_code == 0, result.output
    return out, out.read_text(encoding="utf-8")


def _read(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # prov lists the crewkg classes it keeps only as prov:type
        return prov.read(str(path), format="rdf", rdf_format="turtle")


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, str]:
    """The full derivation graph: every result a prov:Entity with the time it was generated."""
    return _export(tmp_path_factory, "full")


@pytest.fixture(scope="module")
def document(exported):
    return _read(exported[0])


@pytest.fixture(scope="module")
def compact(tmp_path_factory):
    """The compact derivation graph (the default): what was derived, as PROV, without repeating the kb."""
    out, text = _export(tmp_path_factory, "compact")
    return _read(out), text


def _kind(iri: str) -> str:
    """derived/<person>/<kind>/<id> → kind (eligibility, pathway, requirement, role)"""
    return iri[len(DERIVED):].split("/")[1]


def test_the_turtle_declares_every_prefix_a_reader_needs(exported):
    text = exported[1]
    for prefix, iri in (("prov", "http://www.w3.org/ns/prov#"), ("derived", DERIVED), ("person", PERSON),
                        ("crew", "https://w3id.org/crewkg/onto#"), ("kb", "https://w3id.org/crewkg/kb/")):
        assert f"@prefix {prefix}: <{iri}> ." in text


def test_a_prov_reader_finds_derivations_of_every_kind_of_result(document):
    derivations = list(document.get_records(ProvDerivation))
    by_kind: dict[str, set[str]] = {}
    for d in derivations:
        generated = str(d.args[0].uri)
        used = str(d.args[1].uri)
        by_kind.setdefault(_kind(generated), set()).add(used)
    # eligibility ← pathway results ← requirement results ← sub-results and record entries; roles ← the record
    assert set(by_kind) == {"eligibility", "pathway", "requirement", "role"}
    assert any("/pathway/" in u for u in by_kind["eligibility"])
    assert any("/requirement/" in u for u in by_kind["pathway"])
    assert f"{PERSON}henrik-jansen/sea/AsMaster" in by_kind["requirement"]  # § 14 Z 3 SchBV rests on sea time as master
    assert by_kind["role"] == {f"{PERSON}maria-hofer"}  # henrik holds no certificate: no role to derive


def test_marias_missing_Bootsmann_days_derive_from_her_Matrose_record(document):
    """§ 13 Z 1 SchBV (180 days as Matrose; maria-hofer has 140): the missing requirement rests on her Matrose
    sailing record, the pathway on the requirement, the eligibility on the pathway."""
    pairs = {(str(d.args[0].uri), str(d.args[1].uri)) for d in document.get_records(ProvDerivation)}
    req = f"{DERIVED}maria-hofer/requirement/Req-SchBV2022-P13-Z1"
    pathway = f"{DERIVED}maria-hofer/pathway/Pathway-SchBV2022-P13-Z1"
    assert (req, f"{PERSON}maria-hofer/sailing/Matrose") in pairs
    assert (req, f"{PERSON}maria-hofer/sailing/Decksmann") not in pairs
    assert (pathway, req) in pairs
    assert (f"{DERIVED}maria-hofer/eligibility/UBZ-Bootsmann", pathway) in pairs


def test_the_evaluation_is_an_activity_with_its_times_and_results_are_entities_generated_at_a_time(document):
    activities = {str(a.identifier.uri): a for a in document.get_records(ProvActivity)}
    assert set(activities) == {f"{DERIVED}maria-hofer/evaluation", f"{DERIVED}henrik-jansen/evaluation"}
    for a in activities.values():
        start, end = a.get_startTime(), a.get_endTime()
        assert isinstance(start, datetime) and isinstance(end, datetime) and start <= end
    entities = {str(e.identifier.uri): e for e in document.get_records(ProvEntity)}
    steuermann = f"{DERIVED}maria-hofer/eligibility/UBZ-Steuermann"
    assert steuermann in entities and {_kind(iri) for iri in entities} == {"eligibility", "pathway", "requirement", "role"}
    for e in entities.values():
        (when,) = e.get_attribute("prov:generatedAtTime")
        assert datetime.fromisoformat(str(when)) >= activities[f"{DERIVED}maria-hofer/evaluation"].get_startTime() \
            or "henrik-jansen" in str(e.identifier.uri)
    generated_by = {str(g.args[0].uri): str(g.args[1].uri) for g in document.get_records(ProvGeneration)}
    assert generated_by[steuermann] == f"{DERIVED}maria-hofer/evaluation"
    assert set(generated_by) == set(entities)


def test_the_compact_graph_declares_every_prefix_too(compact):
    text = compact[1]
    for prefix in ("prov", "derived", "person", "crew", "kb"):
        assert f"@prefix {prefix}: <" in text


def test_in_the_compact_graph_a_prov_reader_follows_what_made_each_certificate_issuable(compact):
    """maria-hofer can be issued the UBZ Matrose: its eligibility derives from the pathway that made it, the pathway
    from each of its requirements, each requirement from the record entries or the parts it was met by; a role and a
    held certificate from the record. What is missing (§ 13 Z 1 SchBV, 140 of 180 days as Matrose) is a result of
    the graph, but nothing was derived from it: it is no PROV derivation."""
    document = compact[0]
    pairs = {(str(d.args[0].uri), str(d.args[1].uri)) for d in document.get_records(ProvDerivation)}
    kinds = {_kind(generated) for generated, _ in pairs if generated.startswith(DERIVED)}
    assert kinds == {"eligibility", "pathway", "requirement", "role", "held"}
    made = [(e, w) for e, w in pairs if e == f"{DERIVED}maria-hofer/eligibility/UBZ-Matrose"]
    assert made and all("/pathway/" in w for _, w in made)
    for _, w in made:
        assert any(g == w and "/requirement/" in r for g, r in pairs)
    assert (f"{DERIVED}maria-hofer/requirement/Req-SchBV2022-P13-Z1", f"{PERSON}maria-hofer/sailing/Matrose") not in pairs
    assert f"{DERIVED}maria-hofer/requirement/Req-SchBV2022-P13-Z1" in compact[1] or \
        "maria-hofer/requirement/Req-SchBV2022-P13-Z1" in compact[1]


def test_in_the_compact_graph_each_evaluation_is_an_activity_that_generated_its_results(compact):
    document = compact[0]
    activities = {str(a.identifier.uri): a for a in document.get_records(ProvActivity)}
    assert set(activities) == {f"{DERIVED}maria-hofer/evaluation", f"{DERIVED}henrik-jansen/evaluation"}
    for a in activities.values():
        assert a.get_startTime() <= a.get_endTime()
    generated_by = {str(g.args[0].uri): str(g.args[1].uri) for g in document.get_records(ProvGeneration)}
    assert generated_by[f"{DERIVED}maria-hofer/eligibility/UBZ-Matrose"] == f"{DERIVED}maria-hofer/evaluation"
    assert {v for v in generated_by.values()} == set(activities)
