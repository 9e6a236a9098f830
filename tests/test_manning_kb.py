"""The manning tables as data: the kb conforms to ontology/manning-shapes.ttl, the tables have the rows and
alternatives the sources print, every review flag (H.n) that touches them is recorded as a
skos:editorialNote, and an edited copy of the kb changes the answer with no Python edit."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from crewkg.law.cache import load_graph
from crewkg.law.statute import load_law
from crewkg.locations import kb_dir, ontology_dir
from crewkg.manning.compile import load_manning
from crewkg.manning.crew import requirement
from crewkg.manning.rosters import check_roster
from crewkg.manning.vessels import roster_from_mapping, vessel_from_mapping

pytestmark = pytest.mark.xdist_group("test_manning_kb")  # its module fixtures are made once, on one worker

MANNING_FILES = [kb_dir() / "schbv2022" / "04_mindestbesatzung.ttl", *sorted((kb_dir() / "schbesv2004").glob("*.ttl"))]


@pytest.fixture(scope="module")
def graph():
    return load_graph()


@pytest.fixture(scope="module")
def shapes():
    from rdflib import Graph

    return Graph().parse(ontology_dir() / "manning-shapes.ttl", format="turtle")


def _violations(g, shapes) -> list[str]:
    from pyshacl import validate
    from rdflib.namespace import SH

    conforms, results, _ = validate(g, shacl_graph=shapes, inference="none")
    return [] if conforms else sorted(str(m) for m in results.objects(None, SH.resultMessage))


def test_the_kb_conforms_to_the_manning_shapes(graph, shapes):
    assert _violations(graph, shapes) == []


def test_the_manning_shapes_can_fail(graph, shapes):
    from rdflib import Graph, URIRef

    g = Graph()
    for t in graph:
        g.add(t)
    row = URIRef("https://w3id.org/crewkg/kb/SchBV2022-P43-Abs2-Z1-Stufe3")
    g.remove((row, URIRef("https://w3id.org/crewkg/onto#provision"), None))
    assert "every row has exactly one provision" in _violations(g, shapes)


def _rows(ml, table):
    return sorted(r.stufe or 0 for r in ml.rows.values() if r.table == table)


def _alternatives(ml, table, stufe, standard):
    return [a for a in ml.alternatives.values() if ml.rows[a.row].table == table and ml.rows[a.row].stufe == stufe and a.standard == standard]


@pytest.mark.parametrize("table, stufen", [
    ("SchBV2022-P43-Abs2-Z1-Table", [1, 2, 3, 4, 5, 6, 7]), ("SchBV2022-P43-Abs3-Z1-Table", [1, 2]), ("SchBV2022-P43-Abs4-Z1-Table", [1, 2, 3]),
    ("SchBesV2004-P13-Table", [1, 2, 3, 4, 5]), ("SchBesV2004-P14-Abs1-Z1-Table", [1, 2, 3, 4, 5, 6, 7]),
    ("SchBesV2004-P14-Abs2-Z1-Table", [1, 2]), ("SchBesV2004-P14-Abs3-Z1-Table", [1, 2, 3]),
    ("SchBV2022-P41-Table", []), ("SchBV2022-P42-Table", []), ("SchBesV2004-P12-Table", []),
], ids=lambda x: x if isinstance(x, str) else "")
def test_each_table_has_the_stufen_the_source_prints(table, stufen):
    ml = load_manning(load_law())
    assert _rows(ml, table) == stufen
    assert ml.tables[table].missing is (not stufen)


@pytest.mark.parametrize("table, stufe", [("SchBV2022-P43-Abs4-Z1-Table", 3), ("SchBesV2004-P14-Abs3-Z1-Table", 3),
                                          ("SchBesV2004-P13-Table", 2), ("SchBesV2004-P13-Table", 3), ("SchBesV2004-P13-Table", 5)])
def test_every_1_oder_cell_is_two_alternatives(table, stufe):
    ml = load_manning(load_law())
    assert len(_alternatives(ml, table, stufe, "S1")) == 2
    assert len(_alternatives(ml, table, stufe, "S2")) == 1


def test_the_stufe_6_named_by_paragraph_42_Abs_3_has_no_row():
    ml = load_manning(load_law())
    for rid in ("SchBV2022-P42-Abs3-Reduction", "SchBesV2004-P13-Abs3-Reduction"):
        assert (6, "S1") in ml.rules[rid].cells
        assert any("Stufe 6" in n for n in ml.rules[rid].notes["en"])
    assert 6 not in _rows(ml, "SchBesV2004-P13-Table")


FLAGS = {  # the review flags that touch the manning tables
    "H.1": "SchBV2022-P47", "H.5": "SchBV2022-P42-Abs3", "H.6": "SchBV2022-P43-Abs7-Reduction", "H.7": "SchBV2022-P43-Abs2-Z1-Stufe1-Case",
    "H.8": "SchBV2022-P43-Abs2-Z1-Stufe2-Case", "H.9": "SchBesV2004-P13-Abs1-Stufe5-Case-a-2004", "H.10": "SchBesV2004-P14-Abs1-Z2-Row1-Case-2010",
    "H.11": "SchBV2022-P43-Abs9-Motorwart", "H.12": "SchBV2022-P47-Abs11", "H.15": "SchBV2022-P42-Abs6-FirstAid",
}


@pytest.mark.parametrize("flag", list(FLAGS))
def test_each_flag_of_section_H_is_an_editorial_note_on_the_resource_it_concerns(graph, flag):
    from rdflib import URIRef
    from rdflib.namespace import SKOS

    notes = [str(n) for n in graph.objects(URIRef("https://w3id.org/crewkg/kb/" + FLAGS[flag]), SKOS.editorialNote)]
    assert any(f"H.{flag[2:]}" in n for n in notes), notes


def test_the_interpretations_are_recorded_as_data():
    ml = load_manning(load_law())
    subs = [r for r in ml.rules_of("Substitution") if r.min_fahrzeit_days is not None]
    assert subs and all(r.min_fahrzeit_days == 180 for r in subs)
    assert all(any("180" in n for n in r.notes["en"]) for r in subs)  # the day count and where it comes from
    for rid in ("SchBesV2004-P13-Abs1-Fn2-Equivalence", "SchBesV2004-P15-Abs1-Addition", "SchBV2022-P43-Abs6-Substitution-Decksmann",
                "SchBV2022-P43-Abs5-Case-DayTrip"):
        assert rid in ml.rules or rid in ml.cases
    assert any("INTERPRETATION" in n for n in ml.tables["SchBV2022-P43-Abs4-Z2-Table"].notes["en"])  # Atemschutz not delegated
    assert any("INTERPRETATION" in n for n in ml.tables["SchBV2022-P43-Abs2-Z2-Table"].notes["en"])  # Ersthelfer not delegated


def test_every_manning_file_starts_with_a_comment_and_names_its_sources():
    for f in MANNING_FILES:
        head = f.read_text(encoding="utf-8").splitlines()[0]
        assert head.startswith("# "), f


# --- the law is data ----------------------------------------------------------------------------------------------------
def _edited(tmp_path: Path, old: str, new: str, file: str = "schbv2022/04_mindestbesatzung.ttl") -> Path:
    copy = tmp_path / "kb"
    shutil.copytree(kb_dir(), copy)
    path = copy / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return copy


def test_changing_a_table_bound_in_the_kb_changes_the_stufe(tmp_path):
    old = 'kb:SchBV2022-P43-Abs2-Z1-Stufe3-Case a crew:Case ; crew:provision kb:SchBV2022-P43-Abs2-Z1 ;\n    crew:hasCondition [ a crew:RangeCondition ; crew:onAttribute crew:permittedPassengers ; crew:atLeast 76 ; crew:atMost 300 ]'
    edited = _edited(tmp_path, old, old.replace("crew:atMost 300", "crew:atMost 299"))
    rec = {"id": "v", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 40, "passengers": 300, "standard": "S1", "engine_kw": 300}
    law = load_law()
    ml = load_manning(law)
    assert requirement(law, ml, vessel_from_mapping(rec, ml, "v"), date(2026, 11, 30)).answer["stufe"] == 3
    law2 = load_law(kb=edited)
    ml2 = load_manning(law2, kb=edited)
    a = requirement(law2, ml2, vessel_from_mapping(rec, ml2, "v"), date(2026, 11, 30), lang="en").answer
    assert a["covered"] is False and "no Stufe" in a["reason"]  # 300 now falls between the rows


def test_changing_the_substitute_age_in_the_kb_changes_the_roster_verdict(tmp_path):
    old = 'crew:appliesToTable kb:SchBV2022-P43-Abs2-Z1-Table , kb:SchBV2022-P43-Abs3-Z1-Table ;\n    crew:replacesRole kb:Matrose ;\n    crew:byRole kb:Leichtmatrose ;\n    crew:substituteMinimumAge 17'
    edited = _edited(tmp_path, old, old.replace("MinimumAge 17", "MinimumAge 18"))
    rec = {"id": "v", "kind": "day_trip_passenger", "waters": "waterway", "length_m": 40, "passengers": 70, "standard": "S1", "engine_kw": 300}
    crew = {"crew": [{"id": "sf", "birth_date": "1975-01-01", "certificates": ["UBZ-Schiffsfuehrer"], "functions": ["FirstAid"]},
                     {"id": "lena", "birth_date": "2009-01-01", "certificates": ["UBZ-Leichtmatrose"], "apprenticeship": {"contract": True, "year": 3},
                      "sailing_days": {"Leichtmatrose": 200}, "functions": ["FirstAid"]},
                     {"id": "sk", "birth_date": "1985-01-01", "certificates": ["UBZ-SachkundigerFahrgastschifffahrt"]},
                     {"id": "eh", "birth_date": "1985-01-01", "functions": ["FahrgastErsthelfer"]}]}
    day = date(2026, 11, 30)
    verdicts = []
    for kb in (None, edited):
        law = load_law(kb=kb)
        ml = load_manning(law, kb=kb)
        req = requirement(law, ml, vessel_from_mapping(rec, ml, "v"), day)
        verdicts.append(check_roster(law, ml, req, roster_from_mapping(crew, law, day, "r"))["satisfied"])
    assert verdicts == [True, False]


# --- every function rule names its kind -----------------------------------------------------------------------------
def test_every_function_rule_names_a_known_kind():
    from crewkg.manning.tables import FUNCTION_KINDS

    ml = load_manning(load_law())
    fns = ml.rules_of("FunctionRule")
    assert fns and all(r.function_kind in FUNCTION_KINDS for r in fns)
    assert {r.function_kind for r in fns} == set(FUNCTION_KINDS)


@pytest.mark.parametrize("new", ["crew:functionKind crew:SafetyFunction ;\n", ""])
def test_a_function_rule_of_unknown_or_no_kind_fails_at_kb_load(tmp_path, new):
    from crewkg.manning.compile import ManningDataError

    old = "crew:requiresFunction kb:Schiffsmaschinenwaerter ;\n    crew:functionKind crew:EngineQualification ;\n"
    edited = _edited(tmp_path, old, "crew:requiresFunction kb:Schiffsmaschinenwaerter ;\n    " + new,
                     file="schbesv2004/03_mindestbesatzung.ttl")
    law = load_law(kb=edited)
    with pytest.raises(ManningDataError, match="SchBesV2004-P14-Abs9-DKBG.*crew:functionKind"):
        load_manning(law, kb=edited)


def test_the_provision_for_vessels_no_table_governs_is_the_regulations_own():
    """§ 16 Abs. 1 SchBesV ('Fahrzeuge, die nicht unter die §§ 12 bis 14 fallen') and § 45 SchBV are named only for a
    vessel no table governs; a table's own gap names the deviation provision (§ 17 SchBesV, § 46 SchBV), and the
    missing table of § 12 Abs. 1 SchBesV also the minimum crew the authority fixes with the admission (§ 3 Abs. 1)."""
    ml = load_manning(load_law())
    assert ml.other_vessels == {"SchBesV2004": ("SchBesV2004-P16-Abs1",), "SchBV2022": ("SchBV2022-P45",)}
    assert {p for t in ml.tables.values() for p in t.authority} == {"SchBesV2004-P17", "SchBesV2004-P3-Abs1", "SchBV2022-P46"}
    assert ml.tables["SchBesV2004-P12-Table"].authority == ("SchBesV2004-P17", "SchBesV2004-P3-Abs1")
