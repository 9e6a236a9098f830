"""Derived facts as RDF (`crewkg export`): eligibility per certificate, pathway results, missing requirements
with needed/have, roles — each result with PROV-O provenance (evaluation date, kb version, provision, the
record entries it rests on); re-exporting a person replaces their facts, never duplicates them."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import PROV, RDF, RDFS
from typer.testing import CliRunner

from crewkg.cli.common import app
from crewkg.law.cache import load_graph
from crewkg.law.namespaces import CREW, KB, PERSON
from crewkg.records.persons import person_from_mapping
from crewkg.service.derived import derived_triples
from crewkg.service.derived_terms import DERIVED, D, eligibility_iri, evaluation_iri, pathway_iri, requirement_iri, role_iri
from crewkg.service.export import export_graph
from crewkg.service.records_rdf import record_triples

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
#: a Bootsmann certificate holder toward the Steuermann UBZ (§ 14 Z 1 SchBV: 180 days as Bootsmann + radio)
BOOTSMANN = {"id": "maria", "birth_date": "1998-02-10", "medical_fitness": True, "radio_certificate": True,
             "certificates": ["UBZ-Bootsmann"], "sailing_days": {"Matrose": 400, "Bootsmann": 179},
             "exams": ["Anlage8", "Anlage9"], "programmes": [{"for": "Matrose", "months": 24, "sailing_days": 90}],
             "sea_days": {"deck_crew": 100}}


def _graph(law, record: dict, as_of: date = AS_OF) -> Graph:
    """The full derivation graph (`--derivations full`: every requirement of every pathway); tests/test_compact.py
    holds the compact one, the default, to it."""
    person = person_from_mapping(record, law, as_of, "test")
    return export_graph(law, [person], as_of, shape="full")


def _with(days: int) -> dict:
    return {**BOOTSMANN, "sailing_days": {"Matrose": 400, "Bootsmann": days}}


def test_each_certificate_gets_one_eligibility_result_with_its_provision(law):
    g = _graph(law, BOOTSMANN)
    results = sorted(str(o) for o in g.objects(None, D.forCertificate))
    assert results == sorted(str(KB[c.id]) for c in law.certificates_in_order() if c.regulation == "SchBV2022")
    e = eligibility_iri("maria", "UBZ-Bootsmann")
    assert (e, RDF.type, D.EligibilityResult) in g
    assert (e, D.eligible, Literal(True)) in g
    assert (e, CREW.provision, KB["SchBV2022-P13"]) in g
    assert (e, D.evaluatedPerson, PERSON["maria"]) in g


def test_179_days_as_Bootsmann_is_a_missing_requirement_of_paragraph_14_Z1_with_needed_180_have_179(law):
    g = _graph(law, _with(179))
    e, w, r = eligibility_iri("maria", "UBZ-Steuermann"), pathway_iri("maria", "Pathway-SchBV2022-P14-Z1"), \
        requirement_iri("maria", "Req-SchBV2022-P14-Z1-a")
    assert (e, D.eligible, Literal(False)) in g
    assert (e, D.hasPathwayResult, w) in g and (w, D.satisfied, Literal(False)) in g
    assert (w, D.hasRequirementResult, r) in g and g.value(w, D.missingCount).toPython() == 1
    assert (e, D.canBeIssued, KB["UBZ-Steuermann"]) not in g
    assert (r, RDF.type, D.MissingRequirement) in g
    assert (r, D.met, Literal(False)) in g
    assert g.value(r, D.neededAmount).toPython() == 180 and g.value(r, D.haveAmount).toPython() == 179
    assert (r, D.unit, Literal("days")) in g
    assert g.value(r, D.daysShort).toPython() == 1
    assert (r, CREW.provision, KB["SchBV2022-P14-Z1-a"]) in g
    # only what is missing: the radio certificate (lit. b) is held, so no result for it on an unmet pathway
    assert not list(g.triples((requirement_iri("maria", "Req-SchBV2022-P14-Z1-b"), None, None)))


def test_180_days_as_Bootsmann_satisfy_paragraph_14_Z1_and_every_requirement_is_recorded_as_met(law):
    g = _graph(law, _with(180))
    e, w = eligibility_iri("maria", "UBZ-Steuermann"), pathway_iri("maria", "Pathway-SchBV2022-P14-Z1")
    assert (e, D.eligible, Literal(True)) in g and (w, D.satisfied, Literal(True)) in g
    assert g.value(w, D.missingCount).toPython() == 0
    assert (e, D.canBeIssued, KB["UBZ-Steuermann"]) in g
    reqs = set(g.objects(w, D.hasRequirementResult))
    assert reqs == {requirement_iri("maria", "Req-SchBV2022-P14-Z1-a"), requirement_iri("maria", "Req-SchBV2022-P14-Z1-b")}
    for r in reqs:
        assert (r, D.met, Literal(True)) in g and (r, RDF.type, D.RequirementResult) in g
        assert (r, RDF.type, D.MissingRequirement) not in g
    assert g.value(requirement_iri("maria", "Req-SchBV2022-P14-Z1-a"), D.haveAmount).toPython() == 180
    assert g.value(requirement_iri("maria", "Req-SchBV2022-P14-Z1-a"), D.daysShort) is None


def test_exam_requirements_list_the_needed_and_the_passed_exams_of_paragraph_15_Z2_lit_d(law):
    g = _graph(law, BOOTSMANN)
    r = requirement_iri("maria", "Req-SchBV2022-P15-Z2-d")
    assert set(g.objects(r, D.neededItem)) == {CREW.Anlage9, CREW.Anlage10}
    assert set(g.objects(r, D.haveItem)) == {CREW.Anlage9}
    assert (r, D.unit, Literal("exams")) in g


@pytest.mark.parametrize("restricted, examined", [(False, False), (True, False), (True, True)])
def test_a_kapitaenspatent_of_paragraph_47_abs_9_exports_with_its_restriction_and_the_supplementary_exam(
        law, restricted, examined):
    """An any-of decided by an exclusion (no restriction) keeps its count of alternatives; the supplementary exam is a
    term of the kb, exported as such (both made the export fail)."""
    record = {"id": "kapitaen", "birth_date": "1965-03-01", "medical_fitness": True,
              "certificates": [{"id": "Kapitaenspatent-A", "issued": "1995-01-01"}],
              "functions": ["Einschraenkung-Oertlicher-Geltungsbereich"] if restricted else [],
              "exams": [{"id": "Ergaenzungspruefung-SchBV-P47", "passed": "2026-03-01"}] if examined else []}
    g = _graph(law, record)
    r = requirement_iri("kapitaen", "Req-SchBV2022-P47-Abs9-restriction")
    assert (r, D.met, Literal(not restricted or examined)) in g
    assert (r, D.neededAmount, Literal(1)) in g
    exam = requirement_iri("kapitaen", "Req-SchBV2022-P47-Abs9-restriction-2")
    assert set(g.objects(exam, D.neededItem)) == {KB["Ergaenzungspruefung-SchBV-P47"]}
    none = requirement_iri("kapitaen", "Req-SchBV2022-P47-Abs9-restriction-1")
    assert set(g.objects(none, D.haveItem)) == ({KB["Einschraenkung-Oertlicher-Geltungsbereich"]} if restricted else set())


def test_every_result_says_which_evaluation_generated_it_on_which_date_with_which_kb_version(law):
    g = _graph(law, BOOTSMANN)
    ev = evaluation_iri("maria")
    assert (ev, RDF.type, D.Evaluation) in g
    assert (ev, D.evaluationDate, Literal(AS_OF)) in g
    assert (ev, D.kbVersion, Literal(law.version)) in g
    assert (ev, PROV.used, PERSON["maria"]) in g and (ev, PROV.used, KB["SchBV2022"]) in g
    assert (ev, PROV.wasAssociatedWith, D.CrewkgEngine) in g
    results = set(g.subjects(RDF.type, D.EligibilityResult)) | set(g.subjects(RDF.type, D.PathwayResult)) | \
        set(g.subjects(RDF.type, D.RequirementResult)) | set(g.subjects(RDF.type, D.MissingRequirement)) | \
        set(g.subjects(RDF.type, D.RoleCapability))
    assert len(results) > 30
    for s in results:
        assert (s, PROV.wasGeneratedBy, ev) in g, s
        if (s, RDF.type, D.RoleCapability) not in g:
            assert g.value(s, CREW.provision) is not None, s


def test_requirement_results_rest_on_the_record_entries_they_were_decided_on(law):
    person = person_from_mapping(_with(179), law, AS_OF, "test")
    g = Graph()
    for t in record_triples(person):
        g.add(t)
    for t in export_graph(law, [person], AS_OF, shape="full"):
        g.add(t)
    entry = URIRef(str(PERSON["maria"]) + "/sailing/Bootsmann")
    assert (requirement_iri("maria", "Req-SchBV2022-P14-Z1-a"), D.basedOnRecord, entry) in g
    assert (entry, CREW.inRole, KB["Bootsmann"]) in g and g.value(entry, CREW.days).toPython() == 179
    assert (PERSON["maria"], CREW.hasSailingRecord, entry) in g
    # sea time in any capacity (§ 12 Z 3 lit. a, 2nd alternative) rests on every sea record of the person
    sea = requirement_iri("maria", "Req-SchBV2022-P12-Z3-a-2")
    assert set(g.objects(sea, D.basedOnRecord)) == {URIRef(str(PERSON["maria"]) + "/sea/AsDeckCrew")}
    prog = URIRef(str(PERSON["maria"]) + "/programme/1")
    assert (PERSON["maria"], CREW.completedProgramme, prog) in g and (prog, CREW.programmeFor, KB["Matrose"]) in g
    assert not [t for t in g if any(isinstance(x, type(None)) for x in t)]


def test_roles_are_derived_with_the_certificate_that_grants_them(law):
    g = _graph(law, BOOTSMANN)
    roles = {str(o).rsplit("/", 1)[-1] for s in g.subjects(RDF.type, D.RoleCapability) for o in g.objects(s, D.forRole)}
    assert roles == {"Decksmann", "Leichtmatrose", "Matrose", "Bootsmann"}
    rc = role_iri("maria", "Leichtmatrose")
    assert (rc, D.grantedBy, KB["UBZ-Bootsmann"]) in g
    assert (rc, D.evaluatedPerson, PERSON["maria"]) in g


def test_certificates_the_sources_do_not_cover_are_exported_as_not_covered_never_as_not_eligible(law):
    g = _graph(law, BOOTSMANN)
    e = eligibility_iri("maria", "UBZ-SachkundigerLNG")
    assert (e, D.covered, Literal(False)) in g
    assert g.value(e, D.eligible) is None
    assert "§ 17 SchBV" in str(g.value(e, RDFS.comment))


def test_a_date_before_any_encoded_regulation_exports_an_evaluation_that_is_not_covered(law):
    g = _graph(law, {"id": "maria"}, date(1990, 1, 1))
    ev = evaluation_iri("maria")
    assert (ev, D.covered, Literal(False)) in g
    assert "1990-01-01" in str(g.value(ev, RDFS.comment))
    assert not list(g.subjects(RDF.type, D.EligibilityResult))


def test_every_term_an_export_uses_is_defined_in_the_ontology(law):
    onto = load_graph()
    g = _graph(law, BOOTSMANN)
    used = {p for p in g.predicates()} | {o for o in g.objects(None, RDF.type)}
    crew_terms = {t for t in used if str(t).startswith(str(CREW._NS))}
    assert D.MissingRequirement in crew_terms and D.basedOnRecord in crew_terms
    for term in crew_terms:
        assert onto.value(term, RDF.type) is not None, f"{term} is not defined in ontology/"
    # the structural links are PROV derivations
    for link in (D.hasPathwayResult, D.hasRequirementResult, D.hasSubResult, D.basedOnRecord):
        assert (link, RDFS.subPropertyOf, PROV.wasDerivedFrom) in onto


def test_derived_triples_are_a_transcription_of_the_eligibility_answer(law):
    """The graph and the JSON answer never disagree: every certificate's eligible flag is the same."""
    from crewkg.answers.eligibility import check

    person = person_from_mapping(BOOTSMANN, law, AS_OF, "test")
    answer = check(law, [person], AS_OF)[0]
    g = Graph()
    for t in derived_triples(law, person, answer):
        g.add(t)
    for c in answer["certificates"]:
        value = g.value(eligibility_iri("maria", c["id"]), D.eligible)
        assert (None if value is None else value.toPython()) == c["eligible"], c["id"]
        assert ((eligibility_iri("maria", c["id"]), D.canBeIssued, KB[c["id"]]) in g) is bool(c["eligible"])
        for w in c["pathways"]:
            assert g.value(pathway_iri("maria", w["id"]), D.missingCount).toPython() == len(w["missing"])


def test_a_pathway_that_lacks_one_exam_and_nothing_else_names_it_as_its_sole_missing_item(law):
    """Jonas (kb/examples/persons/04): § 15 Z 2 SchBV fails only on lit. d, Anlage 9 + 10 needed and Anlage 9
    passed, so its result names crew:Anlage10; § 15 Z 3 lacks two exams and names none. For every pathway the
    triple is there exactly where one requirement is missing and it lacks exactly one of the items it names."""
    from crewkg.answers.eligibility import check

    record = yaml.safe_load((EXAMPLES / "04-jonas-steuermann-one-exam-short.yaml").read_text(encoding="utf-8"))
    person = person_from_mapping(record, law, AS_OF, "test")
    answer = check(law, [person], AS_OF)[0]
    g = Graph()
    for t in derived_triples(law, person, answer):
        g.add(t)
    by_citation = {law.provisions[law.pathways[w["id"]].provision].citation: w
                   for c in answer["certificates"] for w in c.get("pathways", [])}
    pid = person.id
    assert g.value(pathway_iri(pid, by_citation["§ 15 Z 2 SchBV"]["id"]), D.soleMissingItem) == CREW.Anlage10
    assert g.value(pathway_iri(pid, by_citation["§ 15 Z 3 SchBV"]["id"]), D.soleMissingItem) is None
    for w in by_citation.values():
        lacking = [set(m["needed"]) - set(m["have"]) for m in w["missing"] if m["unit"] == "exams"]
        sole = g.value(pathway_iri(pid, w["id"]), D.soleMissingItem)
        if len(w["missing"]) != 1:
            assert sole is None, w["id"]
        elif lacking and len(lacking[0]) == 1:
            assert sole == CREW[next(iter(lacking[0]))], w["id"]
        elif lacking:
            assert sole is None, w["id"]


# ------------------------------------------------------------------------------------------------------
# crewkg export: files, formats, replacement, bad input
# ------------------------------------------------------------------------------------------------------
runner = CliRunner()


def _write(tmp_path: Path, record: dict, name: str = "maria.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(record), encoding="utf-8")
    return path


def _evaluations(g: Graph) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for ev in g.subjects(RDF.type, D.Evaluation):
        out.setdefault(str(g.value(ev, D.evaluatedPerson)).rsplit("/", 1)[-1], []).append(str(g.value(ev, D.evaluationDate)))
    return out


def test_re_exporting_a_person_replaces_their_facts_and_keeps_everyone_elses(tmp_path):
    out = tmp_path / "derived.ttl"
    first = runner.invoke(app, ["export", str(EXAMPLES), "--out", str(out), "--as-of", "2026-11-30"])
    assert first.exit_code == 0, first.output
    before = Graph().parse(out)
    assert len(_evaluations(before)) == len(list(EXAMPLES.glob("*.*")))
    again = runner.invoke(app, ["export", str(EXAMPLES / "anna-matrose.yaml"), "--out", str(out), "--as-of", "2026-12-30"])
    assert again.exit_code == 0, again.output
    after = Graph().parse(out)
    evaluations = _evaluations(after)
    assert evaluations["anna"] == ["2026-12-30"]
    assert all(dates == ["2026-11-30"] for pid, dates in evaluations.items() if pid != "anna")
    assert len(after) == len(before)  # anna's answer is the same a month later: replaced, not duplicated


def test_a_changed_record_leaves_no_stale_result_behind(tmp_path):
    out = tmp_path / "derived.ttl"
    assert runner.invoke(app, ["export", str(_write(tmp_path, _with(179))), "--out", str(out), "--as-of", "2026-11-30"]).exit_code == 0
    assert runner.invoke(app, ["export", str(_write(tmp_path, _with(180))), "--out", str(out), "--as-of", "2026-11-30"]).exit_code == 0
    g = Graph().parse(out)
    e, w = eligibility_iri("maria", "UBZ-Steuermann"), pathway_iri("maria", "Pathway-SchBV2022-P14-Z1")
    assert list(g.objects(e, D.eligible)) == [Literal(True)]
    assert list(g.objects(w, D.satisfied)) == [Literal(True)]
    assert (requirement_iri("maria", "Req-SchBV2022-P14-Z1-a"), RDF.type, D.MissingRequirement) not in g


@pytest.mark.parametrize("derivations, least", [("compact", 150), ("full", 500)])
@pytest.mark.parametrize("fmt", ["turtle", "nt", "nq", "jsonld"])
def test_every_format_carries_the_same_triples(tmp_path, fmt, derivations, least):
    from rdflib import Dataset

    from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH

    record = _write(tmp_path, BOOTSMANN)
    result = runner.invoke(app, ["export", str(record), "--format", fmt, "--as-of", "2026-11-30", "--derivations", derivations])
    assert result.exit_code == 0, result.output
    if fmt == "nq":  # the records and the derived facts, each in its named graph
        d = Dataset().parse(data=result.stdout, format="nquads")
        assert {str(c.identifier) for c in d.graphs() if len(c)} == {str(RECORDS_GRAPH), str(DERIVED_GRAPH)}
        g = Graph()
        for s_, p_, o_, _ in d.quads():
            g.add((s_, p_, o_))
    else:
        g = Graph().parse(data=result.stdout, format={"turtle": "turtle", "nt": "nt", "jsonld": "json-ld"}[fmt])
    reference = Graph().parse(data=runner.invoke(app, ["export", str(record), "--as-of", "2026-11-30", "--derivations",
                                                       derivations]).stdout, format="turtle")
    assert len(g) == len(reference) > least
    assert (eligibility_iri("maria", "UBZ-Bootsmann"), D.eligible, Literal(True)) in g


def test_json_ld_names_its_prefixes_in_a_context(tmp_path):
    import json

    result = runner.invoke(app, ["export", str(_write(tmp_path, BOOTSMANN)), "--format", "jsonld", "--as-of", "2026-11-30"])
    doc = json.loads(result.stdout)
    assert doc["@context"]["crew"] == "https://w3id.org/crewkg/onto#"
    assert doc["@context"]["prov"] == "http://www.w3.org/ns/prov#"
    # a node of one type has "@type": "crew:…", one of several a list of them
    types = {t for node in doc["@graph"] for t in ([node["@type"]] if isinstance(node.get("@type"), str) else node.get("@type", []))}
    assert "crew:RequirementResult" in types  # compact names, not full IRIs


def test_the_output_format_follows_the_suffix_of_out(tmp_path):
    out = tmp_path / "derived.nt"
    assert runner.invoke(app, ["export", str(_write(tmp_path, BOOTSMANN)), "--out", str(out)]).exit_code == 0
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert lines[0].startswith("<")
    Graph().parse(out, format="nt")


def test_bad_records_exit_2_and_write_nothing(tmp_path):
    out = tmp_path / "derived.ttl"
    bad = _write(tmp_path, {**BOOTSMANN, "sailing_days": {"Bootsmann": -1}}, "bad.yaml")
    result = runner.invoke(app, ["export", str(bad), "--out", str(out)])
    assert result.exit_code == 2
    assert "sailing_days.Bootsmann" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_an_unreadable_earlier_export_is_refused_and_left_untouched(tmp_path):
    out = tmp_path / "derived.ttl"
    out.write_text("this is not turtle <", encoding="utf-8")
    result = runner.invoke(app, ["export", str(_write(tmp_path, BOOTSMANN)), "--out", str(out)])
    assert result.exit_code == 2
    assert str(out) in result.output and "earlier crewkg export" in result.output
    assert out.read_text(encoding="utf-8") == "this is not turtle <"


def test_derived_iris_live_under_the_person(law):
    g = _graph(law, BOOTSMANN)
    subjects = {str(s) for s in g.subjects() if str(s).startswith(str(DERIVED))}
    assert subjects and all(s.startswith(str(DERIVED) + "maria/") for s in subjects)
    assert str(g.value(evaluation_iri("maria"), D.evaluationDate).datatype) == "http://www.w3.org/2001/XMLSchema#date"


def test_concurrent_exports_into_one_file_keep_every_person(tmp_path):
    """Two exports of different persons into one file at once: both sets of persons are in it afterwards."""
    import subprocess
    import sys

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for i in range(4):
        (a / f"pa{i}.yaml").write_text(f"id: pa{i}\nbirth_date: 1990-01-01\n")
        (b / f"pb{i}.yaml").write_text(f"id: pb{i}\nbirth_date: 1990-01-01\n")
    out = tmp_path / "same.ttl"
    cmd = [sys.executable, "-m", "crewkg", "export", "--out", str(out), "--as-of", "2026-11-30"]
    procs = [subprocess.Popen([*cmd, str(d)], stderr=subprocess.PIPE) for d in (a, b)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    g = Graph().parse(out, format="turtle")
    subjects = {str(s) for s in g.subjects()}
    for pid in [f"pa{i}" for i in range(4)] + [f"pb{i}" for i in range(4)]:
        assert any(f"/{pid}" in s for s in subjects), pid
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_an_export_into_a_missing_folder_is_refused_clearly(tmp_path):
    from typer.testing import CliRunner

    from crewkg.cli import app

    r = CliRunner().invoke(app, ["export", str(EXAMPLES), "--out", str(tmp_path / "nope" / "x.ttl"), "--as-of", "2026-11-30"])
    assert r.exit_code == 2
    assert "existing folder" in r.output and "Traceback" not in r.output


def test_an_export_file_gets_the_mode_an_ordinary_file_gets(tmp_path):
    """export --out wrote its file with mkstemp's 0600; it now goes through outputs.write_atomically as every --out."""
    import os

    out = tmp_path / "x.ttl"
    old = os.umask(0o022)
    try:
        r = CliRunner().invoke(app, ["export", str(EXAMPLES / "anna-matrose.yaml"), "--out", str(out), "--as-of", "2026-11-30"])
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.output
    assert out.stat().st_mode & 0o777 == 0o644


def test_an_export_file_alone_answers_the_canned_queries_as_the_records_do(tmp_path):
    """The records travel with the results: `sparql --graph FILE` gives the answers of `sparql --data FOLDER` (who
    a result is about, the credited days, the sea records), and exporting again into the file changes nothing."""
    out = tmp_path / "derived.nt"
    for _ in range(2):
        r = CliRunner().invoke(app, ["export", str(EXAMPLES), "--out", str(out), "--as-of", AS_OF.isoformat()])
        assert r.exit_code == 0, r.output
        if _ == 0:
            first = len(out.read_text(encoding="utf-8").splitlines())
    assert len(out.read_text(encoding="utf-8").splitlines()) == first
    for query in ("eligible-steuermann", "credited-days", "sea-time-eligibility", "roles-per-person"):
        from_file = CliRunner().invoke(app, ["sparql", query, "--graph", str(out), "--format", "csv"])
        from_records = CliRunner().invoke(app, ["sparql", query, "--data", str(EXAMPLES), "--as-of", AS_OF.isoformat(),
                                                "--format", "csv"])
        assert from_file.exit_code == 0 and from_records.exit_code == 0, (from_file.output, from_records.output)
        assert len(from_file.stdout.splitlines()) > 1, query
        assert from_file.stdout == from_records.stdout, query


def test_re_exporting_a_person_leaves_nothing_of_the_earlier_record(tmp_path):
    """A record read again without its Matrose days: the file holds no sailing record of them any more."""
    out = tmp_path / "out.nt"
    for days in ({"Decksmann": 100, "Matrose": 50}, {"Decksmann": 100}):
        rec = tmp_path / "p.yaml"
        rec.write_text(yaml.safe_dump({"id": "pa", "birth_date": "1990-01-01", "sailing_days": days}), encoding="utf-8")
        r = CliRunner().invoke(app, ["export", str(rec), "--out", str(out), "--as-of", AS_OF.isoformat()])
        assert r.exit_code == 0, r.output
    g = Graph().parse(out, format="nt")
    assert not list(g.triples((URIRef(str(PERSON["pa"]) + "/sailing/Matrose"), None, None)))
    assert list(g.triples((URIRef(str(PERSON["pa"]) + "/sailing/Decksmann"), None, None)))


def test_an_export_is_written_a_block_per_person_and_a_later_export_replaces_only_its_persons_blocks(tmp_path):
    """A streamed export (issue 46) opens each person's block with a comment naming the person; a later export into
    the file writes its persons' blocks and keeps every other person's block as it was, byte for byte."""
    out = tmp_path / "register.nt"
    register = tmp_path / "register.jsonl"
    lines = [yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8")) for name in
             ("01-lena-apprentice.yaml", "03-maria-matrose-to-bootsmann.yaml", "anna-matrose.yaml")]
    import json

    register.write_text("".join(json.dumps(r, default=str) + "\n" for r in lines) + '{"id": "bad", "exams": 3}\n',
                        encoding="utf-8")
    r = runner.invoke(app, ["export", str(register), "--out", str(out), "--as-of", "2026-11-30", "--workers", "2"])
    assert r.exit_code == 1 and "exams" in r.output, r.output  # the bad record is named; the others are written
    text = out.read_text(encoding="utf-8")
    blocks = {line[len("# person "):] for line in text.splitlines() if line.startswith("# person ")}
    assert blocks == {"lena-gruber", "maria-hofer", "anna"}
    maria = text[text.index("# person maria-hofer"):].split("# person ")[1]
    again = runner.invoke(app, ["export", str(EXAMPLES / "anna-matrose.yaml"), "--out", str(out), "--as-of", "2026-12-01"])
    assert again.exit_code == 0, again.output
    after = out.read_text(encoding="utf-8")
    assert after.count("# person anna\n") == 1 and "# person maria-hofer\n" + maria.split("\n", 1)[1] in after
    g = Graph().parse(out, format="nt")
    assert {str(d) for d in g.objects(evaluation_iri("anna"), D.evaluationDate)} == {"2026-12-01"}


def test_an_earlier_export_written_otherwise_is_merged_whole(law, tmp_path):
    """A file an older crewkg wrote (one graph, no blocks) is read whole and merged, as before."""
    out = tmp_path / "derived.ttl"
    old = export_graph(law, [person_from_mapping(BOOTSMANN, law, AS_OF, "test")], AS_OF, shape="full")
    out.write_text(old.serialize(format="turtle"), encoding="utf-8")
    r = runner.invoke(app, ["export", str(EXAMPLES / "anna-matrose.yaml"), "--out", str(out), "--as-of", "2026-11-30"])
    assert r.exit_code == 0, r.output
    g = Graph().parse(out, format="turtle")
    assert set(_evaluations(g)) == {"maria", "anna"}
