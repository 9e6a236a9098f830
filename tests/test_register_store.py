"""The register in an on-disk Oxigraph store: `crewkg export REGISTER --store DIR` puts each person's records and
derived facts in, re-exporting a person replaces theirs (no rebuild), and `crewkg serve --store DIR` answers the
canned queries from it."""

import json
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from crewkg.cli import app
from crewkg.law.statute import load_law
from crewkg.service.canned import resolve_query
from crewkg.service.loading import build_store
from crewkg.service.stores import open_store_dir

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "examples" / "persons"
AS_OF = date(2026, 11, 30)
ISSUABLE = """SELECT ?person ?c WHERE { ?e crew:canBeIssued ?c ; crew:evaluatedPerson/crew:personId ?person }"""
EVALUATIONS = """SELECT ?person (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e crew:canBeIssued ?c ;
    crew:evaluatedPerson/crew:personId ?person } GROUP BY ?person"""


def _export(*args):
    return CliRunner().invoke(app, ["export", *map(str, args), "--as-of", AS_OF.isoformat()])


def _issuable(folder: Path) -> dict[str, set[str]]:
    store = open_store_dir(folder, must_exist=True)
    out: dict[str, set[str]] = {}
    for person, c in store.select(ISSUABLE).rows:
        out.setdefault(str(person), set()).add(str(c).rsplit("/", 1)[-1])
    del store
    return out


def _anna(tmp_path: Path, matrose_days: int) -> Path:
    reg = tmp_path / f"anna-{matrose_days}.jsonl"
    reg.write_text(json.dumps({"id": "anna", "birth_date": "2001-05-03", "medical_fitness": True,
                               "radio_certificate": True, "sailing_days": {"Decksmann": 200, "Matrose": matrose_days},
                               "exams": ["Anlage8"], "certificates": ["UBZ-Matrose"]}) + "\n")
    return reg


@pytest.fixture()
def store_dir(tmp_path):
    folder = tmp_path / "store"
    r = _export(_anna(tmp_path, 180), EXAMPLES / "20-franz-schifferdienstbuch.yaml", EXAMPLES / "01-lena-apprentice.yaml",
                "--store", folder)
    assert r.exit_code == 0, r.output
    return folder


def test_a_re_exported_person_replaces_their_facts_and_the_others_stay(store_dir, tmp_path):
    before = _issuable(store_dir)
    # 180 days as Matrose: § 13 Z 1 SchBV lets the UBZ Bootsmann be issued; 179: it does not
    assert "UBZ-Bootsmann" in before["anna"] and "UBZ-Bootsmann" in before["franz-huber"]
    r = _export(_anna(tmp_path, 179), "--store", store_dir)
    assert r.exit_code == 0, r.output
    after = _issuable(store_dir)
    assert "UBZ-Bootsmann" not in after["anna"] and after["anna"] == before["anna"] - {"UBZ-Bootsmann"}
    assert after["franz-huber"] == before["franz-huber"]
    store = open_store_dir(store_dir, must_exist=True)
    counts = {str(p): int(n) for p, n in store.select(EVALUATIONS).rows}
    # one result node per issuable certificate: the earlier evaluation's were removed, not kept beside the new ones
    assert counts["anna"] == len(after["anna"]) == 2 and counts["franz-huber"] == len(after["franz-huber"])


def test_a_served_store_is_only_read_and_keeps_its_lock(store_dir, tmp_path):
    """Right after an export RocksDB compacts in the background. A service that kept its writing handle let such a
    compaction delete table files its query workers' read-only handles still listed: about every second query
    worker failed at once (503, "the query's worker process ended before answering"). The service now closes its
    writing handle before it forks the workers, and keeps the folder's lock: an export into it is refused (exit 2)."""
    import subprocess
    import sys

    from crewkg.service.querying import QueryRunner

    law = load_law()
    store = build_store(str(store_dir), law, [], AS_OF)  # opened for writing, as `crewkg serve --store DIR` opens it
    try:
        for _ in range(6):  # a new zygote and worker each time: each opens the folder read-only
            runner = QueryRunner(store, 30.0, slots=1, cache_bytes=0)
            try:
                assert b"true" in runner.run("ASK { kb:UBZ-Matrose a crew:Certificate }", "text/csv")[0]
            finally:
                runner.close()
        r = subprocess.run([sys.executable, "-m", "crewkg", "export", str(_anna(tmp_path, 181)), "--store", str(store_dir),
                            "--as-of", AS_OF.isoformat()], capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and "no other program has open" in r.stderr and "Traceback" not in r.stderr, r.stderr
        # a question alone opens the folder read-only, so it is answered while the service holds the folder; with
        # --data (persons to put into the folder) it is refused as the export is
        ask = [sys.executable, "-m", "crewkg", "sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"]
        r = subprocess.run(ask, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and "UBZ-Bootsmann,2" in r.stdout.replace("\r", ""), r.stderr
        r = subprocess.run([*ask, "--data", str(_anna(tmp_path, 181))], capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and "no other program has open" in r.stderr, r.stderr
    finally:
        del store
    assert "UBZ-Bootsmann" in _issuable(store_dir)["anna"]  # the refused export wrote nothing


def test_serve_store_dir_answers_a_canned_query(store_dir):
    from crewkg.service.app import Service, create_app

    law = load_law()
    store = build_store(str(store_dir), law, [], AS_OF)  # what `crewkg serve --store DIR` builds
    client = TestClient(create_app(Service(law, store)))
    r = client.get("/sparql", params={"query": resolve_query("eligible-count")},
                   headers={"Accept": "application/sparql-results+json"})
    assert r.status_code == 200, r.text
    counts = {b["certificate"]["value"]: int(b["persons"]["value"]) for b in r.json()["results"]["bindings"]}
    assert counts["UBZ-Bootsmann"] == 2 and counts["UBZ-Steuermann"] == 0
    assert client.get("/health").json()["persons"] == 3  # the exported persons, though none was given with --data


def test_a_missing_store_dir_is_a_clear_error(tmp_path):
    r = CliRunner().invoke(app, ["sparql", "eligible-count", "--store", str(tmp_path / "none")])
    assert r.exit_code == 2 and "crewkg export REGISTER --store DIR" in r.output and "Traceback" not in r.output


def test_export_makes_the_store_folder_with_the_folders_above_it(tmp_path):
    # `--store DIR` is "made if missing": Oxigraph itself makes only the last folder
    folder = tmp_path / "registers" / "2026" / "store"
    r = _export(_anna(tmp_path, 180), "--store", folder)
    assert r.exit_code == 0, r.output
    assert "UBZ-Bootsmann" in _issuable(folder)["anna"]


def test_a_store_path_that_is_a_file_is_a_clear_error(tmp_path):
    taken = tmp_path / "store"
    taken.write_text("not a store\n")
    r = _export(_anna(tmp_path, 180), "--store", taken)
    assert r.exit_code == 2 and str(taken) in r.output and "Traceback" not in r.output


STARTED = """SELECT ?person ?started WHERE { ?ev a crew:Evaluation ; crew:evaluatedPerson/crew:personId ?person ;
    prov:startedAtTime ?started }"""


def _started(folder: Path) -> dict[str, str]:
    store = open_store_dir(folder, must_exist=True)
    out = {str(p): str(t) for p, t in store.select(STARTED).rows}
    del store
    return out


def test_a_re_export_keeps_the_persons_whose_inputs_did_not_change(store_dir, tmp_path, monkeypatch):
    import crewkg.service.provenance as provenance

    before, quads = _started(store_dir), len(open_store_dir(store_dir, must_exist=True))
    # an evaluation now would carry another start time: a kept person keeps the old one
    monkeypatch.setattr(provenance, "now", lambda: provenance.datetime(2030, 1, 1, tzinfo=provenance.UTC))
    same = _export(_anna(tmp_path, 180), EXAMPLES / "20-franz-schifferdienstbuch.yaml", EXAMPLES / "01-lena-apprentice.yaml",
                   "--store", store_dir)
    assert same.exit_code == 0, same.output
    assert "3 persons" in same.output and "3 of them kept" in same.output
    assert _started(store_dir) == before and len(open_store_dir(store_dir, must_exist=True)) == quads
    # the same record read from another file, at another line: where it was read is not part of what was evaluated
    moved = tmp_path / "moved.jsonl"
    moved.write_text("\n" + _anna(tmp_path, 180).read_text(), encoding="utf-8")
    again = _export(moved, "--store", store_dir)
    assert again.exit_code == 0 and "1 of 1 kept" in again.output, again.output

    # one day less as Matrose: only anna is evaluated again, and § 13 Z 1 SchBV no longer gives her the Bootsmann UBZ
    changed = _export(_anna(tmp_path, 179), EXAMPLES / "20-franz-schifferdienstbuch.yaml", "--store", store_dir)
    assert changed.exit_code == 0 and "1 of them kept" in changed.output, changed.output
    after = _started(store_dir)
    assert after["anna"].startswith("2030-01-01") and after["franz-huber"] == before["franz-huber"]
    assert "UBZ-Bootsmann" not in _issuable(store_dir)["anna"]


def test_another_evaluation_date_or_force_evaluates_again(store_dir, tmp_path):
    lena = EXAMPLES / "01-lena-apprentice.yaml"
    later = CliRunner().invoke(app, ["export", str(lena), "--store", str(store_dir), "--as-of", "2026-12-01"])
    assert later.exit_code == 0 and "0 of 1 kept" in later.output, later.output
    again = CliRunner().invoke(app, ["export", str(lena), "--store", str(store_dir), "--as-of", "2026-12-01"])
    assert "1 of 1 kept" in again.output, again.output
    forced = CliRunner().invoke(app, ["export", str(lena), "--store", str(store_dir), "--as-of", "2026-12-01", "--force"])
    assert forced.exit_code == 0 and "0 of 1 kept" in forced.output, forced.output


def test_literals_with_line_breaks_quotes_and_backslashes_reach_both_stores_intact():
    from rdflib import Literal, URIRef

    from crewkg.service.memory_store import MemoryStore
    from crewkg.service.oxigraph_store import OxigraphStore
    from crewkg.service.terms import nquads

    s, p = URIRef("urn:x:s"), URIRef("urn:x:p")
    values = {Literal('MS "Wachau"\nLinz\\Krems\r'), Literal(5), Literal("Steuermann", lang="de"), Literal("plain")}
    text = nquads([(s, p, o) for o in values], URIRef("urn:x:g"))
    for store in (OxigraphStore(), MemoryStore()):
        store.add_nquads(text)
        assert set(store.objects(s, p)) == values


@pytest.mark.parametrize("shape, least", [("compact", 600), ("full", 1000)])
def test_workers_put_the_same_facts_into_the_store_as_one_process(tmp_path, shape, least):
    from crewkg.service.dataset import DERIVED_GRAPH
    from crewkg.service.loading import put_persons

    law = load_law()
    people = [e.person for e in _examples(law)]
    assert len(people) > 6
    found = []
    for workers in (1, 2):
        store = open_store_dir(tmp_path / f"w{workers}", must_exist=False)
        put_persons(store, law, people, AS_OF, batch=3, workers=workers, shape=shape)
        quads = {(q.subject.value, q.predicate.value, str(q.object)) for q in store.store.quads_for_pattern(
            None, None, None, store._ox.NamedNode(str(DERIVED_GRAPH))) if "prov#" not in q.predicate.value
            or q.predicate.value.endswith(("wasDerivedFrom", "used", "wasGeneratedBy"))}
        found.append(quads)
        del store
    # the same facts, but for the wall-clock times of the runs (prov:startedAtTime, …)
    assert found[0] == found[1] and len(found[0]) > least


def _examples(law):
    from crewkg.records.register import read_register

    return [e for e in read_register(EXAMPLES, law, AS_OF) if e.person is not None]


def test_a_person_in_two_registers_of_one_export_is_named_and_evaluated_once(tmp_path):
    folder = tmp_path / "store"
    first, second = _anna(tmp_path, 180), tmp_path / "again.jsonl"
    second.write_text(_anna(tmp_path, 179).read_text(), encoding="utf-8")
    r = _export(first, second, "--store", folder)
    assert r.exit_code == 1 and str(second) in r.output and str(first) in r.output, r.output
    from crewkg.service.derived_terms import D, evaluation_iri

    store = open_store_dir(folder, must_exist=True)
    digests = store.objects(evaluation_iri("anna"), D.inputDigest)
    del store
    # one evaluation: the first record's, 180 days as Matrose, so § 13 Z 1 SchBV gives the Bootsmann UBZ
    assert len(digests) == 1 and "UBZ-Bootsmann" in _issuable(folder)["anna"]


RECORD_PARTS = """SELECT (COUNT(*) AS ?n) WHERE { GRAPH <https://w3id.org/crewkg/graph/records> { ?s ?p ?o } }"""


def _records_quads(folder: Path) -> int:
    store = open_store_dir(folder, must_exist=True)
    n = int(store.select(RECORD_PARTS).rows[0][0])
    del store
    return n


def test_a_re_evaluated_record_leaves_nothing_of_its_earlier_self_in_the_store(tmp_path):
    # franz: dated exams and issued certificates (blank nodes in the record graph) and a service log
    franz = EXAMPLES / "20-franz-schifferdienstbuch.yaml"
    clean = tmp_path / "clean"
    assert _export(franz, "--store", clean).exit_code == 0
    again = tmp_path / "again"
    for _ in range(3):
        assert _export(franz, "--store", again, "--force").exit_code == 0
    assert _records_quads(again) == _records_quads(clean)

    # anna drops her Matrose days: her record's Matrose entry goes with them
    fewer = tmp_path / "fewer.jsonl"
    fewer.write_text(json.dumps({"id": "anna", "birth_date": "2001-05-03", "sailing_days": {"Decksmann": 200}}) + "\n")
    assert _export(_anna(tmp_path, 180), "--store", again).exit_code == 0
    assert _export(fewer, "--store", again).exit_code == 0
    only_fewer = tmp_path / "only-fewer"
    assert _export(franz, fewer, "--store", only_fewer).exit_code == 0
    assert _records_quads(again) == _records_quads(only_fewer)


def test_a_folder_holding_other_files_is_not_made_a_store(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    (records / "anna.yaml").write_text("id: anna\n")
    r = _export(_anna(tmp_path, 180), "--store", records)
    assert r.exit_code == 2 and str(records) in r.output and "Traceback" not in r.output, r.output
    assert sorted(f.name for f in records.iterdir()) == ["anna.yaml"]


@pytest.mark.parametrize("where", ["memory", "oxigraph", "disk"])
def test_replacing_a_persons_quads_leaves_exactly_the_new_ones(where, tmp_path):
    """`replace_subjects` writes only what changed on Oxigraph (a re-evaluation differs mostly in its times): what is
    left of the subjects is exactly the new N-Quads — kept, changed and dropped values, blank nodes and what they own,
    a literal with quotes and a line break — and nothing of another subject is touched."""
    from rdflib import BNode, Literal, URIRef

    from crewkg.service.memory_store import MemoryStore
    from crewkg.service.oxigraph_store import OxigraphStore
    from crewkg.service.terms import nquads

    store = {"memory": MemoryStore, "oxigraph": OxigraphStore}.get(where, lambda: OxigraphStore(tmp_path / "s"))()
    g = URIRef("https://w3id.org/crewkg/graph/derived")
    s, other, p = URIRef("https://w3id.org/crewkg/person/x"), URIRef("https://w3id.org/crewkg/person/y"), URIRef("urn:p")
    owned, blank = URIRef("https://w3id.org/crewkg/person/x/sailing/Matrose"), BNode()
    before = [(s, p, Literal(1)), (s, p, Literal('a "b"\nc')), (s, p, owned), (owned, p, Literal(180)), (s, p, blank),
              (blank, p, Literal("exam")), (other, p, Literal(1))]
    store.add_nquads(nquads(before, g))
    new_blank = BNode()
    after = [(s, p, Literal(1)), (s, p, Literal('a "b"\nd')), (s, p, new_blank), (new_blank, p, Literal("exam"))]
    store.replace_subjects([s], nquads(after, g))

    def rows(subject):
        return store.select(f"SELECT ?o ?x WHERE {{ GRAPH ?g {{ <{subject}> <urn:p> ?o OPTIONAL {{ ?o <urn:p> ?x }} }} }}").rows

    got = sorted((str(o) if not _blank(o) else "_", str(x)) for o, x in rows(s))
    assert got == sorted([("1", "None"), ('a "b"\nd', "None"), ("_", "exam")])
    assert [str(o) for o, _ in rows(other)] == ["1"]
    assert not store.select(f"SELECT * WHERE {{ GRAPH ?g {{ <{owned}> ?p ?o }} }}").rows  # the dropped entry's own
    assert store.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?b <urn:p> "exam" } }').rows[0][0].toPython() == 1


def _blank(term) -> bool:
    from rdflib import BNode

    return isinstance(term, BNode)


def test_export_refuses_workers_below_one_as_check_does(tmp_path):
    """`export --workers 0` was refused by typer's own English message; it now says the catalogue's, as `check`."""
    r = _export(_anna(tmp_path, 180), "--store", tmp_path / "s", "--workers", "0")
    assert r.exit_code == 2 and "a number of processes of 1 or more (got 0)" in r.output, r.output
    assert not (tmp_path / "s").exists()


def test_a_store_with_evaluations_of_another_kb_version_says_so_before_the_answer(store_dir):
    """A store left from an earlier crewkg holds that version's facts (and lacks the summary triples the canned
    queries now start from): `crewkg sparql --store DIR` names how many evaluations are of another kb version."""
    runner = CliRunner()
    r = runner.invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"])
    assert r.exit_code == 0, r.output
    assert "another version of the kb" not in r.stderr
    import pyoxigraph as ox

    store = ox.Store(str(store_dir))
    store.update("""PREFIX crew: <https://w3id.org/crewkg/onto#>
        DELETE { GRAPH ?g { ?ev crew:kbVersion ?v } } INSERT { GRAPH ?g { ?ev crew:kbVersion "older" } }
        WHERE { GRAPH ?g { ?ev crew:kbVersion ?v ; crew:evaluatedPerson ?p } GRAPH ?h { ?p crew:personId "anna" } }""")
    store.flush()
    del store
    r = runner.invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"])
    # written behind crewkg's back, the store's version is the same: what the export counted for it is said
    assert r.exit_code == 0 and "another version of the kb" not in r.stderr, r.output
    from crewkg.service.kept import FILE

    (store_dir / FILE).unlink()  # a store an earlier crewkg left keeps nothing beside it: the store is asked
    r = runner.invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"])
    assert r.exit_code == 0, r.output
    assert "holds evaluations made with another version of the kb (1)" in r.stderr
    assert r.stdout.startswith("certificate,persons")


def test_an_export_leaves_a_small_bulk_loaded_store_as_the_loader_wrote_it(tmp_path, monkeypatch):
    """RocksDB's first merge of the bulk loader's table files writes them uncompressed (docs/scale.md). A load of at
    most `SETTLE_ABOVE` quads fits the levels without a merge, so an export leaves it as the loader wrote it and closes
    the store at once; a served store is only read (no writing handle starts a merge)."""
    from crewkg.service.oxigraph_store import OxigraphStore

    settled: list[Path] = []
    monkeypatch.setattr(OxigraphStore, "_rewrite", lambda self: settled.append(self.path))
    folder = tmp_path / "register"
    assert _export(_anna(tmp_path, 181), "--store", folder).exit_code == 0
    assert _export(_anna(tmp_path, 182), "--store", folder).exit_code == 0
    assert settled == []
    assert "UBZ-Bootsmann" in _issuable(folder)["anna"]


def test_a_large_bulk_load_is_merged_and_rewritten_and_answers_as_before(tmp_path, monkeypatch):
    """Above `SETTLE_ABOVE` quads an export merges the loader's table files and writes a sample of its quads again,
    so that RocksDB rewrites its last level compressed (`OxigraphStore.settle`; 100 000 persons: 5.2 → 2.9 GiB).
    The threshold lowered to nothing: the sample is quads the store holds (none with a blank node, which the loader
    names anew: written again it would be another quad), the store holds as many quads as the one the loader left,
    and every canned query answers the same rows on both."""
    import pyoxigraph as ox

    from crewkg.service import oxigraph_store
    from crewkg.service.canned import canned_queries

    plain, settled = tmp_path / "plain", tmp_path / "settled"
    assert _export(EXAMPLES, "--store", plain).exit_code == 0
    samples: list[str] = []
    rewrites: list[Path] = []
    loaded, rewrite = oxigraph_store.OxigraphStore.bulk_loaded, oxigraph_store.OxigraphStore._rewrite
    monkeypatch.setattr(oxigraph_store, "SETTLE_ABOVE", 0)
    monkeypatch.setattr(oxigraph_store, "SAMPLE_EVERY", 256)
    monkeypatch.setattr(oxigraph_store.OxigraphStore, "bulk_loaded",
                        lambda self, quads, sample: (samples.append(sample), loaded(self, quads, sample)))
    monkeypatch.setattr(oxigraph_store.OxigraphStore, "_rewrite", lambda self: (rewrites.append(self.path),
                                                                                 rewrite(self)))
    assert _export(EXAMPLES, "--store", settled).exit_code == 0
    assert len(samples) == 1 and rewrites == [settled]
    sampled = list(ox.parse(samples[0].encode("utf-8"), format=ox.RdfFormat.N_QUADS))
    assert len(sampled) > 20
    store, loader_left = ox.Store.read_only(str(settled)), ox.Store.read_only(str(plain))
    assert all(q in store for q in sampled)
    assert len(store) == len(loader_left)
    del store, loader_left
    for name in (q.name for q in canned_queries()):
        answers = [CliRunner().invoke(app, ["sparql", name, "--store", str(folder), "--format", "csv"])
                   for folder in (plain, settled)]
        assert all(a.exit_code == 0 for a in answers), name
        assert sorted(answers[0].stdout.splitlines()) == sorted(answers[1].stdout.splitlines()), name


def test_the_sample_is_whole_lines_spread_over_the_text():
    from crewkg.service import oxigraph_store
    from crewkg.service.oxigraph_store import sample_of as _sample

    text = "".join(f"<s{i}> <p> <o{i}> <g> .\n" for i in range(20_000))
    lines = _sample(text)
    assert all(line in text.splitlines(keepends=True) for line in lines)
    assert abs(len(lines) - len(text) / oxigraph_store.SAMPLE_EVERY) <= 2
    assert _sample("<s> <p> <o> <g> .") == [] and _sample("half a line\n<s> <p> <o> <g> .") == []
    blank = "<s> <p> <o> <g> .\n_:b <p> <o> <g> .\n<s> <p> _:b <g> .\n<s2> <p> <o> <g> .\n"
    assert _sample(blank) == ["<s2> <p> <o> <g> .\n"]


def test_an_export_keeps_what_a_service_needs_at_start_for_that_state_of_the_store(store_dir, tmp_path, monkeypatch):
    """What `crewkg serve --store DIR` needs before its first answer — the whole answers of the queries answered
    whole or not paged, the person ids, the counts — is computed by the export and kept beside the store under its
    version (service/kept.py): a restarted service and `crewkg sparql NAME --store DIR` give them at once, as the
    answer the store gives; a later write into the store makes them stale, and they are not read."""
    from crewkg.service.app import Service, create_app
    from crewkg.service.canned import canned_queries
    from crewkg.service.kept import kept, version
    from crewkg.service.paging import Answers

    law = load_law()
    store = build_store(str(store_dir), law, [], AS_OF)  # what `crewkg serve --store DIR` opens: read-only, its lock held
    ready = kept(store)
    assert ready is not None and ready.version == version(store) and ready.persons == 3
    for q in canned_queries():
        if q.whole or q.page is None:
            assert ready.answers[q.name].rows == store.select(q.text).rows, q.name
    monkeypatch.setattr(Answers, "_compute", lambda *a: pytest.fail("a kept answer was computed again"))
    client = TestClient(create_app(Service(law, store)))
    for name in ("one-exam-short", "eligible-count", "interpretations"):
        r = client.get(f"/api/queries/{name}", headers={"Accept": "text/csv"})
        assert r.status_code == 200, r.text
        cli = CliRunner().invoke(app, ["sparql", name, "--store", str(store_dir), "--format", "csv"])
        assert cli.exit_code == 0 and cli.stdout.splitlines() == r.text.splitlines(), (name, cli.output)
    del client, store
    # a later write makes the kept file stale: the service asks the store again
    r = CliRunner().invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--data", str(_anna(tmp_path, 179)),
                                 "--as-of", AS_OF.isoformat()])
    assert r.exit_code == 0, r.output
    store = open_store_dir(store_dir, must_exist=True, read_only=True)
    assert kept(store) is None
    del store


@pytest.fixture(scope="module")
def examples_store(tmp_path_factory):
    """The bundled examples in a store of their own: their answers to the selective queries are not empty."""
    folder = tmp_path_factory.mktemp("examples") / "store"
    r = _export(EXAMPLES, "--store", folder)
    assert r.exit_code == 0, r.output
    return folder


@pytest.mark.parametrize("name", ["roles-per-person", "sea-time-eligibility"])
def test_the_cli_gives_a_paged_canned_query_the_pages_the_service_gives(examples_store, name):
    """`crewkg sparql NAME --store DIR --persons N [--after ID]` answers a page of persons as /api/queries/NAME does
    for the same store (one paged from the store's ids, one answered whole from the answer the export kept), and
    names the next page on standard error; the pages, one after the other, are the CLI's whole answer."""
    from crewkg.service.app import Service, create_app

    law, store_dir = load_law(), examples_store
    store = build_store(str(store_dir), law, [], AS_OF)
    client = TestClient(create_app(Service(law, store)))
    pages, after = [], None
    while True:
        params = {"persons": 1} | ({"after": after} if after else {})
        served = client.get(f"/api/queries/{name}", params=params, headers={"Accept": "text/csv"})
        cli = CliRunner().invoke(app, ["sparql", name, "--store", str(store_dir), "--format", "csv", "--persons", "1",
                                       *(["--after", after] if after else [])])
        assert served.status_code == 200 and cli.exit_code == 0, (served.text, cli.output)
        assert cli.stdout.splitlines() == served.text.splitlines()
        pages.append(cli.stdout.splitlines())
        following = served.links.get("next", {}).get("url")
        after = following.split("after=", 1)[1].split("&", 1)[0] if following else None
        assert (f"--after {after}" in cli.stderr) if after else "--after" not in cli.stderr, cli.stderr
        if after is None:
            break
    whole = CliRunner().invoke(app, ["sparql", name, "--store", str(store_dir), "--format", "csv"]).stdout.splitlines()
    assert [pages[0][0], *(row for p in pages for row in p[1:])] == whole and len(whole) > 1
    del client, store


def test_a_page_of_a_query_not_paged_by_persons_is_a_clear_error(store_dir):
    r = CliRunner().invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--after", "anna"])
    assert r.exit_code == 2 and "# page: ?person" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["sparql", "roles-per-person", "--store", str(store_dir), "--persons", "0"])
    assert r.exit_code == 2 and "1 to 1000" in r.output


def test_what_was_kept_in_another_form_is_not_read_and_the_answer_is_computed(store_dir):
    """A store kept before its answers were written a binding a line (`kept.FORM`) is answered as if nothing were kept,
    the same rows, until its next export writes the files again."""
    from crewkg.service.kept import FILE, kept

    store = open_store_dir(store_dir, must_exist=True, read_only=True)
    assert kept(store) is not None
    del store
    before = CliRunner().invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"])
    index = json.loads((store_dir / FILE).read_text(encoding="utf-8"))
    (store_dir / FILE).write_text(json.dumps({**index, "form": 1}), encoding="utf-8")
    store = open_store_dir(store_dir, must_exist=True, read_only=True)
    assert kept(store) is None
    del store
    after = CliRunner().invoke(app, ["sparql", "eligible-count", "--store", str(store_dir), "--format", "csv"])
    assert before.exit_code == after.exit_code == 0 and before.stdout == after.stdout and len(before.stdout.splitlines()) > 1
