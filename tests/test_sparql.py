"""SPARQL over ontology + kb + persons + derived facts: every canned query of kb/queries answers its question
on the example persons (evaluated on 2026-11-30), identically on the rdflib memory store and on pyoxigraph;
`crewkg sparql` runs queries, files and canned names, lists the canned queries, and refuses bad ones."""

from __future__ import annotations

import importlib.util
import json
from datetime import date
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.cli.common import app
from crewkg.records.load import load_persons
from crewkg.records.persons import person_from_mapping
from crewkg.service.canned import canned_queries
from crewkg.service.loading import build_store, put_persons
from crewkg.service.results import short
from crewkg.service.stores import STORES, new_store

pytestmark = pytest.mark.xdist_group("test_sparql")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
runner = CliRunner()


@pytest.fixture(scope="module")
def persons(law):
    return load_persons(EXAMPLES, law, AS_OF)


VESSELS = EXAMPLES.parent / "vessels"
ROSTERS = EXAMPLES.parent / "rosters"
HAS_MANNING = importlib.util.find_spec("crewkg.manning.crew") is not None
#: vessels and their rosters on 2026-11-30 (the roster files name their vessel in the header)
CREWS = [("01-ms-wachau-danube-day-trip.yaml", r) for r in ("01-ms-wachau-full.yaml", "01-ms-wachau-short.yaml",
                                                            "01-ms-wachau-substitution.yaml")] + [
    ("02-ms-wolfgang-lake-boat.yaml", "02-ms-wolfgang-crew.yaml"), ("03-mb-plaetten-small-lake-boat.yaml", "03-mb-plaetten-alone.yaml"),
    ("04-mv-amadeus-cabin-ship.yaml", "04-mv-amadeus-crew.yaml"), ("07-gms-enns-motor-cargo.yaml", None)]


@pytest.fixture(scope="module")
def stores(law, persons):
    """The examples' full derivation graphs (`--derivations full`), on which every canned query has rows;
    tests/test_compact.py holds the compact graph's answers to these, query by query."""
    crews = [(VESSELS / v, ROSTERS / r if r else None) for v, r in CREWS] if HAS_MANNING else []
    return {kind: build_store(kind, law, persons, AS_OF, crews=crews, shape="full") for kind in STORES}


@pytest.fixture(scope="module")
def answers(law, persons):
    from crewkg.answers.eligibility import check

    return {a["person"]: a for a in check(law, persons, AS_OF)}


CANNED = {q.name: q for q in canned_queries()}


def rows(store, name: str) -> list[tuple[str, ...]]:
    return [tuple(short(x) for x in r) for r in store.select(CANNED[name].text).rows]


# ------------------------------------------------------------------------------------------------------
# The canned queries
# ------------------------------------------------------------------------------------------------------
def test_there_are_at_least_ten_documented_canned_queries():
    assert len(CANNED) >= 10
    assert ("rosters-failing" in CANNED) is HAS_MANNING  # every module ships: the rosters' query is always listed
    for q in CANNED.values():
        assert q.title and len(q.description) > 40, q.name
        assert q.text.lstrip().startswith("# title:"), q.name


@pytest.mark.parametrize("name", sorted(CANNED))
def test_each_canned_query_gives_identical_answers_on_both_stores(stores, name):
    text = CANNED[name].text
    memory, oxigraph = (stores[k].select(text) for k in STORES)
    assert memory.vars == oxigraph.vars
    assert [tuple(None if x is None else x.n3() for x in r) for r in memory.rows] == \
        [tuple(None if x is None else x.n3() for x in r) for r in oxigraph.rows]
    assert memory.rows, f"{name} answers nothing on the examples: its test could not fail"


@pytest.mark.parametrize("kind", STORES)
def test_who_can_be_issued_the_Steuermann_UBZ_under_paragraph_14(stores, kind):
    assert rows(stores[kind], "eligible-steuermann") == [
        ("eva-schneider", "§ 14 Z 1 SchBV", "2026-11-30"),
        ("henrik-jansen", "§ 14 Z 3 SchBV", "2026-11-30"),
        ("jonas-leitner", "§ 14 Z 1 SchBV", "2026-11-30"),
        ("katharina-pichler", "§ 14 Z 1 SchBV", "2026-11-30"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_within_30_days_of_Fahrzeit_georg_30_days_short_under_paragraph_13_Z1_maria_40_days_short_is_not(stores, kind):
    assert rows(stores[kind], "within-30-days-of-fahrzeit") == [
        ("georg-huber", "UBZ-Bootsmann", "§ 13 Z 1 SchBV", "§ 13 Z 1 SchBV", "180", "150", "30"),
    ]


@pytest.mark.parametrize(("days", "listed"), [(149, False), (150, True), (179, True), (180, False)])
def test_within_30_days_threshold_of_paragraph_13_Z1_at_exactly_30_days(law, days, listed):
    """150 of 180 days as Matrose is 30 short (listed), 149 is 31 short (not), 180 is eligible (not)."""
    person = person_from_mapping({"id": "m", "birth_date": "1990-01-01", "medical_fitness": True, "exams": ["Anlage8"],
                                  "sailing_days": {"Decksmann": 400, "Matrose": days}, "certificates": ["UBZ-Matrose"]},
                                 law, AS_OF, "test")
    store = build_store("oxigraph", law, [person], AS_OF)
    found = [r for r in rows(store, "within-30-days-of-fahrzeit") if r[1] == "UBZ-Bootsmann"]
    assert bool(found) is listed
    if listed:
        assert found[0][4:] == ("180", str(days), str(180 - days))


@pytest.mark.parametrize("kind", STORES)
def test_the_Anlage_9_exam_is_needed_by_paragraph_15_Z2_and_Z3(stores, kind):
    assert rows(stores[kind], "anlage9-pathways") == [
        ("UBZ-Schiffsfuehrer", "§ 15 Z 2 SchBV", "§ 15 Z 2 lit. d SchBV"),
        ("UBZ-Schiffsfuehrer", "§ 15 Z 3 SchBV", "§ 15 Z 3 lit. c SchBV"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_provisions_mentioning_sea_time(stores, kind):
    found = [r[0] for r in rows(stores[kind], "sea-time-provisions")]
    for must in ("§ 2 Z 3 SchBV", "§ 12 Z 2 lit. c SchBV", "§ 12 Z 3 lit. a SchBV", "§ 14 Z 3 lit. a SchBV",
                 "§ 15 Z 3 lit. b SchBV", "§ 15 Z 4 lit. a SchBV"):
        assert must in found
    for never in ("§ 10 Z 1 SchBV", "§ 12 Z 1 lit. c SchBV", "§ 14 Z 1 lit. a SchBV", "§ 15 Z 2 lit. d SchBV"):
        assert never not in found
    assert found.index("§ 2 Z 3 SchBV") < found.index("§ 12 Z 2 lit. c SchBV")  # statute order, not string order


@pytest.mark.parametrize("kind", STORES)
def test_roles_each_person_can_fill_match_the_eligibility_answers(stores, kind, answers):
    found = rows(stores[kind], "roles-per-person")
    assert {(p, r) for p, r, *_ in found} == {(pid, role) for pid, a in answers.items() for role in a["roles"]}
    assert [r[3] for r in found if r[0] == "jonas-leitner" and r[1] == "Steuermann"] == ["UBZ-Steuermann"]
    assert ("anna", "Leichtmatrose", "apprentice deckhand", "UBZ-Matrose") in found


@pytest.mark.parametrize("kind", STORES)
def test_georg_would_be_eligible_but_for_his_expired_medical_fitness(stores, kind):
    assert rows(stores[kind], "blocked-by-medical-fitness") == [
        ("georg-huber", "UBZ-Decksmann", "§ 10 SchBV", "§ 10 Z 3 SchBV", "2026-09-30"),
        ("georg-huber", "UBZ-Matrose", "§ 12 Z 2 SchBV", "§ 12 Z 2 lit. d SchBV", "2026-09-30"),
        # Karl (example 30): 18+, 180 days as Decksmann in 2009; his medical report ended on 2014-03-01
        ("karl-wimmer", "UBZ-Decksmann", "§ 10 SchBV", "§ 10 Z 3 SchBV", "2014-03-01"),
        # ... and so is the replacement of his SchBesV 2004 qualification by the identical UBZ
        ("karl-wimmer", "UBZ-Decksmann", "§ 47 Abs. 4 SchBV", "§ 47 Abs. 4 SchBV", "2014-03-01"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_one_exam_away_jonas_Anlage10_under_paragraph_15_Z2_markus_Anlage8_under_paragraph_12_Z2(stores, kind):
    assert rows(stores[kind], "one-exam-short") == [
        ("jonas-leitner", "UBZ-Schiffsfuehrer", "§ 15 Z 2 SchBV", "Anlage10"),
        ("markus-steiner", "UBZ-Matrose", "§ 12 Z 2 SchBV", "Anlage8"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_how_many_persons_can_be_issued_each_certificate(stores, kind):
    found = dict(rows(stores[kind], "eligible-count"))
    # Rosa (example 31) adds one to Decksmann, Matrose (§ 47 Abs. 4 SchBV) and Bootsmann, not to the lower Leichtmatrose:
    # § 47 Abs. 4 letzter Satz SchBV applies only where the Fahrzeiten of Z 1 to Z 3 are not shown (issue 43, reading 4)
    assert found == {"UBZ-Decksmann": "14", "UBZ-Leichtmatrose": "1", "UBZ-Matrose": "12", "UBZ-Bootsmann": "6",
                     "UBZ-Steuermann": "4", "UBZ-Schiffsfuehrer": "2", "UBZ-SachkundigerFahrgastschifffahrt": "0",
                     "UBZ-SachkundigerLNG": "0"} | {k: v for k, v in found.items() if not k.startswith("UBZ-")}
    assert list(found)[:6] == ["UBZ-Decksmann", "UBZ-Leichtmatrose", "UBZ-Matrose", "UBZ-Bootsmann", "UBZ-Steuermann",
                               "UBZ-Schiffsfuehrer"]


@pytest.mark.parametrize("kind", STORES)
def test_interpretations_are_listed_with_their_provision(stores, kind):
    found = {(r[0], r[1]) for r in rows(stores[kind], "interpretations")}
    for must in (("§ 10 Z 2 SchBV", "Req-SchBV2022-P10-Z2-2"), ("§ 12 Z 3 lit. a SchBV", "SchBV2022-P12-Z3-a"),
                 ("§ 15 Z 1 lit. c SchBV", "Req-SchBV2022-P15-Z1-c"), ("RL (EU) 2017/2397 Anhang I", "RoleHierarchy")):
        assert must in found
    assert ("§ 13 Z 1 SchBV", "SchBV2022-P13-Z1") not in found  # a LITERAL reading, not an interpretation


@pytest.mark.parametrize("kind", STORES)
def test_eligibility_provenance_names_pathway_date_and_kb_version(stores, kind, law, answers):
    found = rows(stores[kind], "eligibility-provenance")
    expected = {(pid, c["id"], w["provision"]) for pid, a in answers.items() for c in a["certificates"] if c["eligible"]
                for w in c["pathways"] if w["satisfied"]}
    assert {r[:3] for r in found} == expected and len(found) == len(expected)
    assert {r[3] for r in found} == {"2026-11-30"} and {r[4] for r in found} == {law.version}
    assert ("anna", "UBZ-Matrose", "§ 12 Z 2 SchBV", "2026-11-30", law.version) in found


@pytest.mark.parametrize("kind", STORES)
def test_whose_certificate_rests_on_sea_time(stores, kind):
    assert rows(stores[kind], "sea-time-eligibility") == [
        ("henrik-jansen", "UBZ-Steuermann", "§ 14 Z 3 SchBV", "§ 14 Z 3 lit. a SchBV", "500", "person:henrik-jansen/sea/AsMaster"),
        # a sea log: the requirement rests on the credited count of its capacity (745 of 852 days, 250 in 365)
        ("ines-kovac", "UBZ-Matrose", "§ 12 Z 2 SchBV", "§ 12 Z 2 lit. c SchBV", "745", "person:ines-kovac/sea/AsDeckCrew"),
        ("markus-steiner", "UBZ-Schiffsfuehrer", "§ 15 Z 4 SchBV", "§ 15 Z 4 lit. a SchBV", "520", "person:markus-steiner/sea/AsDeckCrew"),
        ("piotr-nowak", "UBZ-Matrose", "§ 12 Z 2 SchBV", "§ 12 Z 2 lit. c SchBV", "280", "person:piotr-nowak/sea/AsDeckCrew"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_credited_days_of_each_service_log_with_recorded_not_validated_and_capped(stores, kind):
    # the dated examples on 2026-11-30; the records of totals have no log and are not listed
    assert rows(stores[kind], "credited-days") == [
        ("david-novak", "Decksmann", "271", "274", "0", "3"),
        ("franz-huber", "Decksmann", "360", "491", "0", "131"),
        ("franz-huber", "Matrose", "360", "459", "0", "99"),
        ("ines-kovac", "AnyCapacity", "745", "852", "0", "107"),
        ("ines-kovac", "AsDeckCrew", "745", "852", "0", "107"),
        ("ines-kovac", "Decksmann", "360", "397", "0", "37"),
        ("karl-wimmer", "Decksmann", "180", "214", "0", "34"),
        ("rosa-lechner", "Matrose", "720", "856", "0", "136"),
        ("sofia-berger", "Decksmann", "249", "436", "183", "4"),
    ]


@pytest.mark.parametrize("kind", STORES)
def test_credited_days_at_the_cap_threshold(law, kind):
    """Continuous validated service from 1 Jan 2023: 359 credited on 27 Jun 2024, 360 on 28 Jun 2024 (180 in 365)."""
    record = {"id": "lea", "birth_date": "2000-01-01", "service": [{"from": "2023-01-01", "to": "2024-12-31", "role": "Decksmann"}]}
    store = new_store(kind)
    for on, credited, capped in ((date(2024, 6, 27), "359", "185"), (date(2024, 6, 28), "360", "185")):
        put_persons(store, law, [person_from_mapping(record, law, on, "test")], on)  # replaces the earlier counts
        assert rows(store, "credited-days") == [("lea", "Decksmann", credited, str(int(credited) + int(capped)), "0", capped)]


@pytest.mark.parametrize("kind", STORES)
def test_certificates_of_paragraphs_16_and_17_are_not_covered(stores, kind):
    found = {(r[0], r[1]) for r in rows(stores[kind], "not-covered") if r[1].endswith(" SchBV")}
    assert found == {("UBZ-SachkundigerFahrgastschifffahrt", "§ 16 SchBV"), ("UBZ-SachkundigerLNG", "§ 17 SchBV")}


@pytest.mark.skipif(not HAS_MANNING, reason="crewkg.manning is not installed: the roster query is hidden")
@pytest.mark.parametrize("kind", STORES)
def test_which_rosters_fail_and_why_only_the_short_MS_Wachau_crew_under_paragraph_43(stores, kind):
    found = {(r[0], r[1], r[3], r[4], r[5]) for r in rows(stores[kind], "rosters-failing")}
    assert found == {
        ("ms-wachau", "01-ms-wachau-short", "position", "Matrose", "§ 43 Abs. 2 Z 1 SchBV"),
        ("ms-wachau", "01-ms-wachau-short", "function", "FahrgastErsthelfer", "§ 43 Abs. 2 Z 2 SchBV"),
        ("ms-wachau", "01-ms-wachau-short", "qualification", "FirstAid", "§ 43 Abs. 11 SchBV"),
    }
    checks = stores[kind].select("SELECT ?r ?ok WHERE { ?c a crew:CrewCheck ; crew:checkedRoster/rdfs:label ?r ; crew:rosterSatisfied ?ok }")
    verdicts = {str(r): str(ok) for r, ok in checks.rows}
    assert verdicts == {"01-ms-wachau-full": "true", "01-ms-wachau-short": "false", "01-ms-wachau-substitution": "true",
                        "02-ms-wolfgang-crew": "true", "03-mb-plaetten-alone": "true", "04-mv-amadeus-crew": "true"}


# ------------------------------------------------------------------------------------------------------
# Stores
# ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", STORES)
def test_putting_a_person_again_replaces_their_record_and_results(law, kind):
    store = new_store(kind)
    base = {"id": "m", "birth_date": "1990-01-01", "radio_certificate": True, "certificates": ["UBZ-Bootsmann"]}
    for days in (179, 180):
        person = person_from_mapping({**base, "sailing_days": {"Bootsmann": days}}, law, AS_OF, "test")
        put_persons(store, law, [person], AS_OF)
    q = """SELECT ?days ?eligible WHERE { person:m crew:hasSailingRecord/crew:days ?days .
             ?e crew:evaluatedPerson person:m ; crew:forCertificate kb:UBZ-Steuermann ; crew:eligible ?eligible }"""
    assert [tuple(short(x) for x in r) for r in store.select(q).rows] == [("180", "true")]


@pytest.mark.parametrize("kind", STORES)
def test_ask_and_construct_queries(stores, kind):
    assert stores[kind].select("ASK { kb:UBZ-Matrose a crew:Certificate }").boolean is True
    graph = stores[kind].select("CONSTRUCT { ?c crew:provision ?p } WHERE { ?c a crew:Certificate ; crew:provision ?p }")
    assert graph.form == "graph" and len(graph.rows) >= 8


# ------------------------------------------------------------------------------------------------------
# crewkg sparql
# ------------------------------------------------------------------------------------------------------
def test_sparql_list_shows_every_canned_query_with_its_description():
    result = runner.invoke(app, ["sparql", "--list"])
    assert result.exit_code == 0
    for q in CANNED.values():
        assert q.name in result.stdout and q.title in result.stdout
    assert CANNED["within-30-days-of-fahrzeit"].description[:60] in result.stdout


@pytest.mark.parametrize("store", STORES)
def test_sparql_runs_a_canned_query_by_name_as_csv(store):
    result = runner.invoke(app, ["sparql", "eligible-steuermann", "--data", str(EXAMPLES), "--as-of", "2026-11-30",
                                 "--format", "csv", "--store", store])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "person,pathway,evaluationDate"
    assert lines[1:] == ["eva-schneider,§ 14 Z 1 SchBV,2026-11-30", "henrik-jansen,§ 14 Z 3 SchBV,2026-11-30",
                         "jonas-leitner,§ 14 Z 1 SchBV,2026-11-30", "katharina-pichler,§ 14 Z 1 SchBV,2026-11-30"]


def test_sparql_runs_a_query_file_as_sparql_json(tmp_path):
    rq = tmp_path / "q.rq"
    rq.write_text("SELECT ?c WHERE { ?e crew:evaluatedPerson person:anna ; crew:forCertificate ?c ; crew:eligible true }",
                  encoding="utf-8")
    record = EXAMPLES / "anna-matrose.yaml"
    result = runner.invoke(app, ["sparql", str(rq), "--data", str(record), "--as-of", "2026-11-30", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["head"]["vars"] == ["c"]
    assert sorted(b["c"]["value"].rsplit("/", 1)[-1] for b in data["results"]["bindings"]) == \
        ["UBZ-Bootsmann", "UBZ-Decksmann", "UBZ-Matrose"]


def test_sparql_table_output_for_people():
    result = runner.invoke(app, ["sparql", "SELECT ?c WHERE { ?c a crew:Certificate ; crew:provision kb:SchBV2022-P14 }"])
    assert result.exit_code == 0
    assert "kb:UBZ-Steuermann" in result.stdout and "1 row" in result.stdout


def test_sparql_reads_an_earlier_export_with_graph(tmp_path):
    out = tmp_path / "derived.ttl"
    assert runner.invoke(app, ["export", str(EXAMPLES / "anna-matrose.yaml"), "--out", str(out), "--as-of", "2026-11-30"]).exit_code == 0
    result = runner.invoke(app, ["sparql", "eligible-count", "--graph", str(out), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "UBZ-Bootsmann,1" in result.stdout and "UBZ-Steuermann,0" in result.stdout


def test_a_malformed_query_exits_2_with_the_parsers_message():
    result = runner.invoke(app, ["sparql", "SELECT ?x WHERE { ?x ?y }"])
    assert result.exit_code == 2
    assert "a SPARQL 1.1 query (parser:" in result.output and "Traceback" not in result.output


def test_an_update_is_refused():
    result = runner.invoke(app, ["sparql", "INSERT DATA { kb:x kb:y kb:z }"])
    assert result.exit_code == 2
    assert "SPARQL Update is refused" in result.output


def test_an_unknown_canned_name_lists_the_known_ones():
    result = runner.invoke(app, ["sparql", "who-is-captain"])
    assert result.exit_code == 2
    assert "eligible-steuermann" in result.output


def test_bad_person_data_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"id": "x", "exams": ["Anlage99"]}), encoding="utf-8")
    result = runner.invoke(app, ["sparql", "eligible-count", "--data", str(bad)])
    assert result.exit_code == 2 and "exams[0]" in result.output


@pytest.mark.skipif(not HAS_MANNING, reason="crewkg.manning is not installed: no --crew")
@pytest.mark.parametrize("lang, said", [("en", "1 more crew member qualified as"), ("de", "noch 1 Besatzungsmitglied")])
def test_the_crew_checks_of_sparql_speak_the_language_asked(lang, said):
    kb = EXAMPLES.parents[0]
    pair = f"{kb / 'vessels' / '01-ms-wachau-danube-day-trip.yaml'}:{kb / 'rosters' / '01-ms-wachau-short.yaml'}"
    r = runner.invoke(app, ["sparql", "rosters-failing", "--crew", pair, "--as-of", "2026-11-30", "--format", "csv",
                            "--lang", lang])
    assert r.exit_code == 0, r.output
    assert said in r.stdout
