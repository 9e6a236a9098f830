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


def test_sea_credited_counts_are_nodes_with_their_entries(tmp_path):
    """Ines's three seasons at sea (852 days) are credited at most 250 in 365 days (§ 6 Abs. 4 SchBV): 745 as deck
    crew; the sea record of that count says so and names the three sea entries, never the inland ones, and the
    sea-time requirement of § 12 Z 2 lit. c SchBV rests on it."""
    g = _export(tmp_path, "21-ines-sea-to-inland.yaml")
    deck = URIRef(P + "ines-kovac/sea/AsDeckCrew")
    sea_entries = {URIRef(P + f"ines-kovac/service/{n}") for n in (1, 2, 3)}
    assert (URIRef(P + "ines-kovac"), URIRef(CREW + "hasSeaRecord"), deck) in g
    assert g.value(deck, URIRef(CREW + "seaCapacity")) == URIRef(CREW + "AsDeckCrew")
    assert (g.value(deck, URIRef(CREW + "days")), g.value(deck, URIRef(CREW + "recordedDays")),
            g.value(deck, URIRef(CREW + "cappedDays")), g.value(deck, URIRef(CREW + "notValidatedDays"))) == (
        Literal(745), Literal(852), Literal(107), Literal(0))
    assert set(g.objects(deck, URIRef(CREW + "creditedFrom"))) == sea_entries
    assert set(g.objects(deck, PROV.wasDerivedFrom)) == sea_entries
    # no node for a capacity with no days in the log (nothing as master)
    assert (URIRef(P + "ines-kovac/sea/AsMaster"), None, None) not in g
    req = URIRef("https://w3id.org/crewkg/derived/ines-kovac/requirement/Req-SchBV2022-P12-Z2-c-2b")
    assert set(g.objects(req, URIRef(CREW + "basedOnRecord"))) == {deck}
    assert (req, PROV.wasDerivedFrom, deck) in g


def test_a_sea_entry_awaiting_validation_is_counted_but_feeds_nothing(tmp_path):
    import yaml

    record = yaml.safe_load((PERSONS / "21-ines-sea-to-inland.yaml").read_text(encoding="utf-8"))
    record["service"][2]["validated"] = False  # the 2022 season (245 days) not yet validated
    f = tmp_path / "ines.yaml"
    f.write_text(yaml.safe_dump(record), encoding="utf-8")
    out = tmp_path / "x.ttl"
    res = CliRunner().invoke(app, ["export", str(f), "--as-of", "2026-11-30", "--out", str(out)])
    assert res.exit_code == 0, res.output
    g = Graph().parse(out)
    deck = URIRef(P + "ines-kovac/sea/AsDeckCrew")
    assert g.value(deck, URIRef(CREW + "notValidatedDays")) == Literal(245)
    assert set(g.objects(deck, URIRef(CREW + "creditedFrom"))) == {URIRef(P + f"ines-kovac/service/{n}") for n in (1, 2)}
