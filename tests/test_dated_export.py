"""`crewkg export` of a record with a service log (issue 10, point 7): the entries and the credited counts travel
with the results, and PROV says which entries each credited count came from (validated entries with a credited day
only)."""

from __future__ import annotations

from pathlib import Path

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import PROV
from typer.testing import CliRunner

from crewkg.cli import app

PERSONS = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
CREW = "https://w3id.org/crewkg/onto#"
P = "https://w3id.org/crewkg/person/"


def _export(tmp_path, name: str) -> Graph:
    out = tmp_path / "x.ttl"
    for _ in range(2):  # re-exporting into the same file replaces, never duplicates
        res = CliRunner().invoke(app, ["export", str(PERSONS / name), "--as-of", "2026-11-30", "--out", str(out)])
        assert res.exit_code == 0, res.output
    return Graph().parse(out)


def test_credited_counts_come_from_their_entries(tmp_path):
    g = _export(tmp_path, "20-franz-schifferdienstbuch.yaml")
    matrose = URIRef(P + "franz-huber/sailing/Matrose")
    entries = {URIRef(P + f"franz-huber/service/{n}") for n in (3, 4)}  # the 2025 and 2026 seasons as Matrose
    assert set(g.objects(matrose, URIRef(CREW + "creditedFrom"))) == entries
    assert set(g.objects(matrose, PROV.wasDerivedFrom)) == entries
    assert g.value(matrose, URIRef(CREW + "days")) == Literal(360)
    assert g.value(matrose, URIRef(CREW + "cappedDays")) == Literal(99)
    assert len(set(g.subjects(None, URIRef(CREW + "ServiceEntry")))) == 4
    # the chain: § 13 Z 1 (180 days as Matrose) was decided on the credited count
    req = URIRef("https://w3id.org/crewkg/derived/franz-huber/requirement/Req-SchBV2022-P13-Z1")
    assert (req, PROV.wasDerivedFrom, matrose) in g


def test_an_entry_awaiting_validation_feeds_no_credited_count(tmp_path):
    g = _export(tmp_path, "23-sofia-awaiting-validation.yaml")
    node = URIRef(P + "sofia-berger/sailing/Decksmann")
    assert set(g.objects(node, URIRef(CREW + "creditedFrom"))) == {URIRef(P + f"sofia-berger/service/{n}") for n in (1, 2)}
    assert g.value(node, URIRef(CREW + "notValidatedDays")) == Literal(183)
