"""Registers (`crewkg check REGISTER`): JSON Lines, CSV of flat records and folders, answered in input order with one
compact line per person; bad records get an error line and the others are answered; the compact lines agree with
the full answers."""

import importlib.util
import json
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.answers.eligibility import check
from crewkg.answers.register import answer_register
from crewkg.cli import app
from crewkg.law.statute import load_law
from crewkg.records.persons import person_from_mapping
from crewkg.records.register import read_register

ROOT = Path(__file__).resolve().parents[1]
AS_OF = date(2026, 11, 30)
_spec = importlib.util.spec_from_file_location("synthetic", ROOT / "benchmarks" / "synthetic.py")
synthetic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synthetic)


def _run(*args):
    return CliRunner().invoke(app, ["check", *map(str, args), "--as-of", "2026-11-30"])


def _lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_compact_lines_agree_with_the_full_answers(law, sized):
    records = synthetic.persons(sized(400), seed=7)
    persons = [person_from_mapping(r, law, AS_OF, "t") for r in records]
    full = check(law, persons, AS_OF)
    from crewkg.records.register import Entry

    compact = list(answer_register(law, [Entry(p.id, "t", person=p) for p in persons], AS_OF))
    assert len(compact) == len(full) == len(records)
    for f, c in zip(full, compact, strict=True):
        assert c["person"] == f["person"] and c["regulation"] == f["regulation"] and c["roles"] == f["roles"]
        assert c["eligible"] == {x["id"]: [w["provision"] for w in x["pathways"] if w["satisfied"]]
                                 for x in f["certificates"] if x.get("eligible")}
    assert any(c["eligible"] for c in compact) and any(not c["eligible"] for c in compact)


def test_a_jsonl_register_with_bad_lines(tmp_path):
    reg = tmp_path / "r.jsonl"
    good = synthetic.persons(5, seed=3)
    lines = [json.dumps(good[0]), "{not json", json.dumps({"id": "neg", "sailing_days": {"Matrose": -1}}), "",
             json.dumps(good[1]), json.dumps(good[0]), json.dumps([1, 2])]
    reg.write_text("\n".join(lines) + "\n")
    r = _run(reg, "--format", "jsonl")
    assert r.exit_code == 1
    out = _lines(r.stdout)
    assert [o.get("person") or o.get("line") for o in out] == [good[0]["id"], 2, "neg", good[1]["id"], good[0]["id"], 7]
    assert "valid JSON" in out[1]["error"] and "sailing_days.Matrose" in out[2]["error"]
    assert "an id not used by another record" in out[4]["error"]
    assert "error" not in out[0] and "eligible" in out[0]


def test_workers_give_the_same_lines_in_the_same_order(tmp_path, law):
    reg = tmp_path / "r.jsonl"
    reg.write_text("".join(json.dumps(r) + "\n" for r in synthetic.persons(600, seed=11)))
    one = list(answer_register(law, read_register(reg, law, AS_OF), AS_OF, workers=1))
    two = list(answer_register(law, read_register(reg, law, AS_OF), AS_OF, workers=2))
    assert one == two and len(one) == 600


def test_a_csv_register_and_atomic_out(tmp_path):
    reg = tmp_path / "r.csv"
    reg.write_text("id,birth_date,sailing_days.Decksmann,sailing_days.Matrose,certificates\n"
                   "a,1990-01-01,180,360,UBZ-Decksmann\n"
                   "b,1990-01-01,abc,,\n"
                   "c,2014-01-01,,,\n")
    out = tmp_path / "out.jsonl"
    r = _run(reg, "--format", "jsonl", "--out", out)
    assert r.exit_code == 1 and r.stdout == ""
    got = _lines(out.read_text())
    assert [g.get("person") or g.get("line") for g in got] == ["a", "b", "c"]  # a bad row is named by its id cell
    assert got[0]["eligible"] and "row 3" in got[1]["error"] and got[2]["eligible"] == {}
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_nameless_record_is_named_by_the_number_of_its_line(tmp_path):
    """The contract's {"line": …}: the line of the file the record begins on, as a number, in JSON Lines and CSV (a
    CSV's blank lines and cells that span lines counted, as the message's 'row' says it)."""
    reg = tmp_path / "r.jsonl"
    reg.write_text(json.dumps({"id": "a"}) + "\n\n" + json.dumps({"sailing_days": {}}) + "\n{not json\n")
    got = _lines(_run(reg, "--format", "jsonl").stdout)
    assert [g.get("person", g.get("line")) for g in got] == ["a", 3, 4]
    assert "line 3" in got[1]["error"] and "line 4" in got[2]["error"]
    reg = tmp_path / "r.csv"
    reg.write_text('id,birth_date\na,1990-01-01\n\n,1990-01-01\n"b\nc",1990-01-01\n,2001-13-01\n')
    got = _lines(_run(reg, "--format", "jsonl").stdout)
    assert [g.get("person", g.get("line")) for g in got] == ["a", 4, 5, 7]
    assert ["row 4" in got[1]["error"], "row 5" in got[2]["error"], "row 7" in got[3]["error"]] == [True] * 3
    full = json.loads(_run(reg, "--format", "json").stdout)
    assert [x.get("person", x.get("line")) for x in full] == ["a", 4, 5, 7]


def test_a_csv_row_with_fewer_or_more_cells_than_the_header_is_named(tmp_path):
    """A short row is not read as blanks: its cells may have slid under the wrong columns."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,birth_date,sailing_days.Matrose,certificates\n"
                   "a,1990-01-01,360,\n"
                   "b,1990-01-01,360\n"
                   "c,1990-01-01,360,,UBZ-Matrose\n")
    r = _run(reg, "--format", "jsonl")
    assert r.exit_code == 1
    got = _lines(r.stdout)
    assert [g.get("person") or g.get("line") for g in got] == ["a", "b", "c"]  # named by the id cell
    assert "error" not in got[0] and all("exactly 4 cells" in g["error"] for g in got[1:])
    assert "row 3" in got[1]["error"] and "row 4" in got[2]["error"]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_sparql_and_export_read_a_register_as_they_read_a_folder(tmp_path, suffix):
    """`sparql --data` and `export` take a JSON Lines or CSV register as `check` does: the bad record named on standard
    error, the others answered, exit 1 (they used to read the register as one YAML record and refuse it)."""
    reg = tmp_path / f"r{suffix}"
    if suffix == ".csv":
        reg.write_text("id,birth_date,medical_fitness,sailing_days.Decksmann\na,1990-01-01,true,360\nb,1990-01-01,true\n"
                       "c,2001-01-01,true,0\n")
    else:
        reg.write_text('{"id": "a", "birth_date": "1990-01-01", "medical_fitness": true, "sailing_days": {"Decksmann": 360}}\n'
                       '{"id":\n{"id": "c", "birth_date": "2001-01-01", "medical_fitness": true}\n')
    lines = _lines(_run(reg, "--format", "jsonl").stdout)
    r = CliRunner().invoke(app, ["sparql", "eligible-count", "--data", str(reg), "--format", "csv", "--as-of", "2026-11-30"])
    assert r.exit_code == 1 and ("row 3" if suffix == ".csv" else "line 2") in r.stderr
    counts = {c: int(n) for c, n in (line.split(",") for line in r.stdout.splitlines()[1:])}
    assert counts["UBZ-Decksmann"] == 1  # as `check` answers them: a, not c
    assert {c: n for c, n in counts.items() if n} == {
        c: sum(c in line.get("eligible", {}) for line in lines) for c in {c for line in lines for c in line.get("eligible", {})}}
    out = tmp_path / "r.ttl"
    r = CliRunner().invoke(app, ["export", str(reg), "--out", str(out), "--as-of", "2026-11-30"])
    assert r.exit_code == 1 and "derived facts of 2 persons" in r.stderr and out.is_file()


def test_a_folder_as_a_register_and_full_json_from_a_register(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.yaml").write_text("id: a\nbirth_date: 1990-01-01\n")
    (folder / "b.yaml").write_text("id: [\n")
    r = _run(folder, "--format", "jsonl")
    assert r.exit_code == 1
    out = _lines(r.stdout)
    assert out[0]["person"] == "a" and out[1]["file"].endswith("b.yaml")
    reg = tmp_path / "r.jsonl"
    reg.write_text('{"id": "a", "birth_date": "1990-01-01"}\n{"id": 3}\n')
    r = _run(reg, "--format", "json")
    full = json.loads(r.stdout)
    assert r.exit_code == 1 and full[0]["person"] == "a" and "certificates" in full[0] and "error" in full[1]


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_bad_file_of_the_current_folder_is_named_by_file_not_line(tmp_path, monkeypatch, fmt):
    (tmp_path / "a.yaml").write_text("id: a\nbirth_date: 1990-01-01\n")
    (tmp_path / "b.yaml").write_text("id: b\nfoo: 1\n")
    monkeypatch.chdir(tmp_path)
    r = _run(Path("."), "--format", fmt)
    out = json.loads(r.stdout) if fmt == "json" else _lines(r.stdout)
    assert r.exit_code == 1 and "line" not in out[1]
    # the full answers keep the design's {"file": …}; a register line names the person whose id could be read
    assert out[1]["file"] == "b.yaml" if fmt == "json" else out[1]["person"] == "b"


def _boundary_records() -> list[dict]:
    """Persons one day (month, year) either side of every threshold, with the days split over roles and capacities in
    two ways, so that equal sums meet and unequal ones part."""
    base = {"birth_date": "1990-01-01", "medical_fitness": True, "radio_certificate": True,
            "basic_safety_training": True, "exams": ["Anlage8", "Anlage9", "Anlage10", "Anlage11"]}
    out: list[dict] = []

    def add(**fields):
        out.append(base | {"id": f"b{len(out):03d}"} | fields)

    for t in (180, 360, 540, 720, 1080):
        for d in (0, 1):
            for cut in (3, 2):
                add(sailing_days={"Decksmann": t // cut, "Matrose": t - t // cut - d})
                add(sailing_days={"Matrose": t // cut, "Bootsmann": t - t // cut - d}, certificates=["UBZ-Matrose"])
    for t in (540, 900, 1080):  # § 47 Abs. 4 Z 1–3: inland and sea together, of which a share inland
        for inland in (180, 179, 540, 539, 720, 719):
            for d in (0, 1):
                add(certificates=["SchBesV2004-Matrose"], sailing_days={"Matrose": inland},
                    sea_days={"deck_crew": max(0, t - inland - d)})
    for d in (0, 1):
        for split in (100, 250):
            add(sea_days={"deck_crew": 500 - split - d, "master": split}, sailing_days={"Matrose": 180})
            add(sea_days={"deck_crew": 250 - d}, certificates=["UBZ-Matrose"])
    for born in ("2008-11-30", "2008-12-01", "2009-11-30", "2009-12-01", "2007-11-30", "2007-12-01", "2011-11-30",
                 "2011-12-01"):
        add(birth_date=born, sailing_days={"Decksmann": 400, "Matrose": 400})
    for months in (8, 9, 17, 18, 23, 24, 35, 36):
        for within, after in ((89, 0), (90, 0), (179, 180), (180, 179), (269, 91), (270, 90), (359, 0), (360, 0)):
            role = "Matrose" if months < 24 else "Schiffsfuehrer"
            add(programmes=[{"for": role, "months": months, "sailing_days": within, "sailing_days_after": after}])
    for years in (4, 5):
        add(professional_experience_years=years, sailing_days={"Matrose": 360})
    for years in (2, 3):
        add(vocational_training_years=years, sailing_days={"Matrose": 180})
    return out


def _same_lines(full: list[dict], compact: list[dict]) -> None:
    for f, c in zip(full, compact, strict=True):
        assert (c["person"], c["roles"]) == (f["person"], f["roles"])
        assert c["eligible"] == {x["id"]: [w["provision"] for w in x["pathways"] if w["satisfied"]]
                                 for x in f["certificates"] if x.get("eligible")}, c["person"]


@pytest.mark.parametrize("population", ["thresholds", "synthetic"])
def test_persons_grouped_by_what_the_rules_tell_apart_get_their_own_answers(law, population, sized):
    """The register evaluates one person per signature (rules.signature); every person still gets the answer the
    full evaluation gives them alone, on both sides of every minimum and of every sum of days."""
    records = _boundary_records() if population == "thresholds" else synthetic.persons(sized(600), seed=23)
    from crewkg.answers import register as register_answers
    from crewkg.records.register import Entry
    from crewkg.rules.eligibility import person_facts
    from crewkg.rules.signature import signature

    persons = [person_from_mapping(r, law, AS_OF, "t") for r in records]
    register_answers.forget()
    compact = list(answer_register(law, [Entry(p.id, "t", person=p) for p in persons], AS_OF))
    _same_lines(check(law, persons, AS_OF), compact)
    signatures = {signature(p.id, person_facts(p, law, AS_OF), law) for p in persons}
    assert None not in signatures and len(signatures) < len(persons)
    if len(persons) > 2 * register_answers.BATCH:  # and those whose every kind share an earlier run met: the second stage
        assert any(key[1] == "met" for key in register_answers._VIA.values())


def test_a_person_known_only_by_the_shares_of_others_gets_the_whole_programs_answer(law):
    """The second stage (rules.signature.kind_keys, stage_two_key): each of the last person's kind shares was met by
    one of the first two (a register before), who differ from it in everything else; so the register answers it from
    the requirements met,
    and the answer is still the one the whole program gives it alone, on both sides of a Fahrzeit minimum."""
    from crewkg.answers import register as register_answers
    from crewkg.records.register import Entry

    base = {"birth_date": "1990-01-01", "medical_fitness": True, "radio_certificate": True}
    for days, eligible in ((359, False), (360, True)):
        records = [base | {"id": "a", "sailing_days": {"Matrose": days}},
                   base | {"id": "b", "exams": ["Anlage8"], "birth_date": "2000-01-01"},
                   base | {"id": "c", "sailing_days": {"Matrose": days}, "exams": ["Anlage8"]}]
        persons = [person_from_mapping(r, law, AS_OF, "t") for r in records]
        register_answers.forget()
        lines = list(answer_register(law, [Entry(p.id, "t", person=p) for p in persons[:2]], AS_OF))
        lines += answer_register(law, [Entry(persons[2].id, "t", person=persons[2])], AS_OF)
        assert [key[1] for key in register_answers._VIA.values()] == ["met"]  # c alone, from what a and b met
        _same_lines(check(law, persons, AS_OF), lines)
        assert ("UBZ-Matrose" in lines[2]["eligible"]) is eligible, days


def test_a_kind_reads_the_kinds_whose_predicates_its_clauses_read():
    from crewkg.rules.signature import leaf_reads

    reads = leaf_reads()
    assert reads["Fahrzeit"][0][0] == "Fahrzeit" and {"SeaTime", "Programme"} <= set(reads["Fahrzeit"][0])
    assert reads["Exam"][0] == ("Exam",) and "exam" in reads["Exam"][1]
    assert "AnyOf" not in reads and "AllOf" not in reads


def test_a_day_either_side_of_a_sum_parts_the_signatures(law):
    from crewkg.rules.eligibility import person_facts
    from crewkg.rules.signature import signature

    def sig(**fields):
        p = person_from_mapping({"id": "x", "birth_date": "1990-01-01"} | fields, law, AS_OF, "t")
        return signature(p.id, person_facts(p, law, AS_OF), law)

    assert sig(sailing_days={"Decksmann": 100, "Matrose": 80}) == sig(sailing_days={"Decksmann": 120, "Matrose": 60})
    assert sig(sailing_days={"Decksmann": 100, "Matrose": 80}) != sig(sailing_days={"Decksmann": 100, "Matrose": 79})
    assert sig(sea_days={"deck_crew": 300, "master": 200}) != sig(sea_days={"deck_crew": 300, "master": 199})
    assert sig(birth_date="2008-11-30") != sig(birth_date="2008-12-01")


def test_a_minimum_the_registers_program_does_not_ask_does_not_part_signatures(law):
    """rules.eligibility.signature_law: on 2026-11-30 the register's program holds the pathways of the SchBV 2022 (and
    of the certificates held by proof), so a minimum only another regulation asks (here a number of days served in one
    role) cannot tell two persons apart; each still gets their own answer. Every minimum age stays: the role-age rule
    reads them from the whole law."""
    from datetime import timedelta

    from crewkg.answers import register as register_answers
    from crewkg.records.register import Entry
    from crewkg.rules.eligibility import person_facts, signature_law
    from crewkg.rules.signature import signature

    compared = signature_law(law, AS_OF)
    asked = {(r.served_as, r.minimum) for r in compared.requirements.values() if r.kind == "Fahrzeit"}
    unasked = sorted({(r.served_as, r.minimum) for r in law.requirements.values()
                      if r.kind == "Fahrzeit" and r.served_as and (r.served_as, r.minimum) not in asked})
    assert unasked, "the law in force leaves out some Fahrzeit minimum of another regulation"
    role, days = unasked[0]
    other = next(r for r in law.ids_of("DeckCrewRole") if r != role)  # 100 days more: the total meets no minimum
    persons = [person_from_mapping({"id": f"d{n}", "birth_date": "1990-01-01", "medical_fitness": True,
                                    "sailing_days": {role: n, other: 100}}, law, AS_OF, "t") for n in (days - 1, days)]
    assert len({signature(p.id, person_facts(p, law, AS_OF), compared) for p in persons}) == 1
    assert len({signature(p.id, person_facts(p, law, AS_OF), law) for p in persons}) == 2  # the whole law parts them
    register_answers.forget()
    _same_lines(check(law, persons, AS_OF), list(answer_register(law, [Entry(p.id, "t", person=p) for p in persons], AS_OF)))

    for years in sorted({r.minimum for r in law.requirements.values() if r.kind == "MinimumAge" and r.minimum}):
        born = AS_OF.replace(year=AS_OF.year - years)
        aged = [person_from_mapping({"id": "a", "birth_date": b.isoformat()}, law, AS_OF, "t")
                for b in (born + timedelta(days=1), born)]  # the day before the birthday, and on it
        assert len({signature("a", person_facts(p, law, AS_OF), compared) for p in aged}) == 2, years


def test_out_never_replaces_what_it_reads_and_keeps_the_mode(tmp_path):
    import os
    import stat

    reg = tmp_path / "r.jsonl"
    reg.write_text("".join(json.dumps(r) + "\n" for r in synthetic.persons(3, seed=5)))
    before = reg.read_bytes()
    r = _run(reg, "--format", "jsonl", "--out", reg)
    assert r.exit_code == 2 and reg.read_bytes() == before and "--out" in r.output
    record = tmp_path / "a.yaml"
    record.write_text("id: a\nbirth_date: 1990-01-01\n")
    r = CliRunner().invoke(app, ["check", str(record), "--format", "json", "--out", str(record), "--as-of", "2026-11-30"])
    assert r.exit_code == 2 and record.read_text() == "id: a\nbirth_date: 1990-01-01\n"
    out = tmp_path / "out.jsonl"
    umask = os.umask(0o022)
    try:
        assert _run(reg, "--format", "jsonl", "--out", out).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644  # a new file: the umask's mode, not the temporary 0600
        out.chmod(0o640)
        assert _run(reg, "--format", "jsonl", "--out", out).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o640  # a replaced file keeps its mode
    finally:
        os.umask(umask)


def test_a_repeated_id_is_named_with_its_file(tmp_path):
    reg = tmp_path / "dup.jsonl"
    reg.write_text('{"id": "a"}\n{"id": "a"}\n')
    r = _run(reg, "--format", "jsonl")
    assert r.exit_code == 1
    assert _lines(r.stdout)[1]["error"].startswith(f"{reg}: line 2: field 'id'")


def test_a_csv_row_refused_for_a_cell_is_named_by_its_id_and_keeps_it(tmp_path):
    """A row with a bad cell is named by its `id` cell, and a later row with that id is a repeated id (two lines for
    one person, one an error and one an answer, would let a program take the answer for the record it meant)."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,birth_date,sailing_days.Matrose\nx1,2000-01-01,abc\nx2,1990-01-01,400\nx1,2000-01-01,3\n")
    r = CliRunner().invoke(app, ["check", str(reg), "--format", "jsonl", "--as-of", "2026-11-30", "--lang", "de"])
    assert r.exit_code == 1
    got = _lines(r.stdout)
    assert [g["person"] for g in got] == ["x1", "x2", "x1"]
    assert "sailing_days.Matrose" in got[0]["error"] and "error" not in got[1]
    assert "also at row 2" in got[2]["error"] and "auch bei Zeile 2" in got[2]["detail"]
    assert got[0]["detail"].startswith(f"{reg}: Zeile 2: Feld „sailing_days.Matrose“: erwartet wird eine ganze Zahl")


def test_a_jsonl_syntax_error_gives_its_column_and_is_said_in_the_language_asked(tmp_path):
    reg = tmp_path / "r.jsonl"
    reg.write_text('{"id": "a1", "birth_date": "2000-01-01"}\n{"id": "a1"}\n{bad\n')
    r = CliRunner().invoke(app, ["check", str(reg), "--format", "jsonl", "--as-of", "2026-11-30", "--lang", "de"])
    got = _lines(r.stdout)
    assert got[1]["detail"].endswith("(auch bei Zeile 1) (erhalten: 'a1')") and "also at line 1" in got[1]["error"]
    assert got[2]["error"] == f"{reg}: line 3: expected valid JSON (column 2: Expecting property name enclosed in double quotes)"
    assert got[2]["detail"] == f"{reg}: Zeile 3: erwartet wird gültiges JSON (Spalte 2: ein Schlüssel in doppelten Anführungszeichen fehlt)"
    r = CliRunner().invoke(app, ["check", str(reg), "--as-of", "2026-11-30", "--lang", "de"])
    assert "auch bei Zeile 1" in r.stderr and "line" not in r.stderr


def test_a_csv_separated_by_semicolons_is_named_as_such(tmp_path):
    """A spreadsheet in a German locale saves CSV with semicolons; the whole header then reads as one unknown column."""
    reg = tmp_path / "r.csv"
    reg.write_text("id;birth_date;sailing_days.Matrose\nx1;2000-01-01;30\n")
    for lang, said in (("en", "separates them by semicolons"), ("de", "trennt sie durch Strichpunkte")):
        r = CliRunner().invoke(app, ["check", str(reg), "--format", "jsonl", "--as-of", "2026-11-30", "--lang", lang])
        assert r.exit_code == 2 and said in r.output, r.output


@pytest.mark.parametrize("command", ["check", "cohort"])
def test_a_csv_column_given_twice_is_refused_not_the_last_cell_taken(tmp_path, command):
    """`id,birth_date,birth_date` was read with the last cell winning (a 16-year-old instead of 26), exit 0; a JSON or
    YAML record with a duplicate key is refused, and so is the CSV."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,birth_date,birth_date\nx,2000-01-01,2010-01-01\n")
    extra = ["--target", "UBZ-Matrose"] if command == "cohort" else ["--format", "jsonl"]
    for lang, said in (("en", "field 'birth_date': expected a column that occurs once in the header (duplicate column)"),
                       ("de", "Feld „birth_date“: erwartet wird eine Spalte, die in der Kopfzeile nur einmal vorkommt")):
        r = CliRunner().invoke(app, [command, str(reg), *extra, "--as-of", "2026-11-30", "--lang", lang])
        assert r.exit_code == 2 and f"{reg}: {said}" in r.stderr and "Traceback" not in r.output, r.output


def test_a_csv_medical_fitness_cell_is_yes_or_no_or_a_date(tmp_path):
    """'maybe' was reported as a malformed date under medical_fitness.valid_until; it is neither a yes-or-no word nor
    a date, and the message says both."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,medical_fitness\nm3,maybe\nm4,ja\nm5,2027-01-01\nm6,2027-02-30\n")
    r = _run(reg, "--format", "jsonl")
    got = _lines(r.stdout)
    assert "field 'medical_fitness': expected true or false (also yes/no, ja/nein, 1/0) or the date" in got[0]["error"]
    assert "error" not in got[1] and "error" not in got[2]
    assert "medical_fitness.valid_until" in got[3]["error"]


@pytest.mark.parametrize("what", ["register", "record"])
def test_out_with_the_text_tables_is_refused_not_written_empty(tmp_path, what):
    """`check … --out FILE` with the text tables wrote an empty file and the tables to the terminal, exit 0."""
    src = tmp_path / ("r.jsonl" if what == "register" else "p.yaml")
    src.write_text('{"id": "a"}\n' if what == "register" else "id: a\n")
    out = tmp_path / "out.txt"
    r = CliRunner().invoke(app, ["check", str(src), "--out", str(out), "--as-of", "2026-11-30", "--lang", "en"])
    assert r.exit_code == 2 and "--out with --format json or jsonl" in r.output and not out.exists()


def test_a_bad_row_is_named_by_its_id_in_json_as_in_jsonl_and_out_may_not_be_a_folder(tmp_path):
    """`--format json` named a failed register record by its line only; a row with a wrong number of cells lost its id;
    `--out` naming a folder ended in a traceback."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,birth_date\nc1,2000-01-01,extra\nc2,1990-02-30\nc3,1990-01-01\n")
    for fmt in ("json", "jsonl"):
        r = _run(reg, "--format", fmt)
        got = json.loads(r.stdout) if fmt == "json" else _lines(r.stdout)
        assert [g.get("person") for g in got] == ["c1", "c2", "c3"], (fmt, got)
        assert "row 2" in got[0]["error"] and "row 3" in got[1]["error"] and "error" not in got[2]
    folder = tmp_path / "d"
    folder.mkdir()
    r = _run(reg, "--format", "jsonl", "--out", folder, "--lang", "en")
    assert r.exit_code == 2 and "a file to write, not a folder" in r.output and "Traceback" not in r.output
    assert list(folder.iterdir()) == [] and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_every_bad_cell_of_a_csv_row_is_named(tmp_path):
    """A row with two bad cells named only the first, though `errors` is a list."""
    reg = tmp_path / "r.csv"
    reg.write_text("id,radio_certificate,sailing_days.Matrose\nc6,vielleicht,abc\nc7,ja,10\n")
    got = _lines(_run(reg, "--format", "jsonl").stdout)
    assert got[0]["person"] == "c6" and len(got[0]["errors"]) == 2
    assert "radio_certificate" in got[0]["errors"][0] and "sailing_days.Matrose" in got[0]["errors"][1]
    assert "error" not in got[1]
    law = load_law()
    from crewkg.careers.cohorts import load_cohort

    (bad, good) = load_cohort(reg, law, AS_OF)
    assert len(bad.problem.errors) == 2 and good.person is not None


@pytest.mark.parametrize(("column", "cell", "en", "de"), [
    ("sailing_days.Matrose", "abc", "a whole number of days (0 or more)", "eine ganze Zahl von Tagen (0 oder mehr)"),
    ("programme.months", "2.5", "a whole number of months (0 or more)", "eine ganze Zahl von Monaten (0 oder mehr)"),
    ("apprenticeship.year", "1.5", "an apprenticeship year from 1 to 4", "ein Lehrjahr von 1 bis 4"),
    ("professional_experience_years", "zwei", "a finite number of years (0 or more)",
     "eine endliche Zahl von Jahren (0 oder mehr)"),
])
def test_a_csv_cell_that_is_no_number_of_its_kind_says_the_unit_the_record_field_says(tmp_path, column, cell, en, de):
    """A cohort or register cell was refused as „a whole number“ where the record's field says „of days“, „of months“:
    the user of a CSV file learns the unit too, in both languages."""
    reg = tmp_path / "r.csv"
    reg.write_text(f"id,{column}\nc1,{cell}\n")
    got = _lines(_run(reg, "--format", "jsonl", "--lang", "de").stdout)[0]
    assert got["error"] == f"{reg}: row 2: field '{column}': expected {en} (got '{cell}')"
    assert got["detail"] == f"{reg}: Zeile 2: Feld „{column}“: erwartet wird {de} (erhalten: '{cell}')"


def test_the_collector_is_held_while_a_register_is_answered_and_given_back(tmp_path, law):
    """Held (workers.collection_held: a third of the wall time went to Python's collector), given back as it was."""
    import gc

    reg = tmp_path / "r.jsonl"
    reg.write_text("".join(json.dumps(r) + "\n" for r in synthetic.persons(3, seed=5)))
    gc.unfreeze()  # the test run froze what it loaded (tests/conftest.py): start as a process that froze nothing
    try:
        assert gc.isenabled() and gc.get_freeze_count() == 0
        during = [gc.isenabled() for _ in answer_register(law, read_register(reg, law, AS_OF), AS_OF)]
        assert during == [False, False, False]
        assert gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.freeze()
