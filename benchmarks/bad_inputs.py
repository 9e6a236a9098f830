"""Bad input to the CLI, tried as a new user and as an attacker would: a corpus of bad person records of every kind
(YAML, JSON, Turtle, dated service logs), vessels, rosters, programmes, cohorts, registers (JSON Lines, CSV), bad
options, hostile files (alias bombs small enough to be safe, deep nesting, huge numbers, a BOM, UTF-16, a named pipe,
a broken symlink, a folder where a file belongs, a broken cache). Each runs as `python -m crewkg …` in a subprocess
with a 5 s timeout and is classified:

- clean exit 2: exit status 2, no traceback, standard error names the file, the field or the option;
- batch exit 1: a folder, register or cohort whose bad records are named while the good ones are answered;
- silent exit 0: the bad input was accepted without a word;
- traceback: a Python traceback, or an exit status other than 0, 1 or 2 (a crash);
- hang: no answer within 5 s (tried twice, the second time alone);
- unclear: anything else (exit 2 whose message names neither file, field nor option; exit 1 for a single record);
- answered: odd input that deserves an answer, and got one (exit 0): a broken cache rebuilt, a record without
  the usual suffix, a valid far-future date, a folder named for output that does not exist yet (created).

    PYTHONPATH=src python benchmarks/bad_inputs.py [--jobs 2] [-k FILTER] [-v]

Then the HTTP service gets its own corpus and a schemathesis run (bad_requests.py; `--no-http` leaves it out).
Prints the counts and every case that is not clean; exits 1 if any case is a traceback or a hang, a SERVICE query
reached the loopback listener, or the service answered a 5xx or printed a traceback."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "examples"
AS_OF = "2026-11-30"
TIMEOUT = 5.0

TTL = ("@prefix crew: <https://w3id.org/crewkg/onto#> .\n@prefix kb: <https://w3id.org/crewkg/kb/> .\n"
       "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n")
PERSON_TTL = TTL + ('<https://w3id.org/crewkg/person/t> a crew:Person ; crew:personId "t" ;'
                    ' crew:birthDate "1990-01-01"^^xsd:date ')
GOOD = "id: good\nbirth_date: 1990-01-01\nmedical_fitness: true\nexams: [Anlage8]\n"
LEVELS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10))
BOMB = 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + LEVELS
BIG = "9" * 5000
VESSEL = (EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml").read_text(encoding="utf-8")
ROSTER = (EXAMPLES / "rosters" / "01-ms-wachau-short.yaml").read_text(encoding="utf-8")
PROGRAMME = (EXAMPLES / "programmes" / "matrosen-24-monate.yaml").read_text(encoding="utf-8")
COHORT = (EXAMPLES / "cohorts" / "schifffahrtsschule-2026.csv").read_text(encoding="utf-8")
COHORT_HEAD, COHORT_ROW = COHORT.splitlines()[0], COHORT.splitlines()[1]


@dataclass
class Case:
    id: str
    group: str
    args: list[str]  # "{d}" stands for the case's folder
    files: dict[str, str | bytes] = field(default_factory=dict)
    batch: bool = False  # a folder, register or cohort: exit 1 with the bad ones named is right
    setup: str | None = None  # fifo:NAME | broken:NAME | dir:NAME | passwd:NAME | cachefile | cachero | cachejunk
    ok0: bool = False  # odd but not wrong: an answer (exit 0) is right (a broken cache is rebuilt, a far date planned)


def person(id_: str, text: str, name: str = "p.yaml", *extra: str, **kw) -> Case:
    return Case(id_, "person", ["check", "{d}/" + name, "--as-of", AS_OF, "--lang", "en", *extra], {name: text}, **kw)


def replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def cases() -> list[Case]:
    c: list[Case] = []
    # --- person records (YAML, JSON, Turtle) -------------------------------------------------------------------
    c += [
        person("unknown_key", "id: x\nbirth_date: 1990-01-01\nshoe_size: 44\n"),
        person("days_word", "id: x\nsailing_days:\n  Matrose: many\n"),
        person("days_negative", "id: x\nsailing_days:\n  Matrose: -5\n"),
        person("days_float", "id: x\nsailing_days:\n  Matrose: 1.5\n"),
        person("days_bool", "id: x\nsailing_days:\n  Matrose: true\n"),
        person("days_string_number", '{"id": "x", "sailing_days": {"Matrose": "100"}}', "p.json"),
        person("days_10e400", "id: x\nsailing_days:\n  Matrose: 1" + "0" * 400 + "\n"),
        person("days_5000_digits_json", '{"id": "x", "sailing_days": {"Matrose": ' + BIG + "}}", "p.json"),
        person("years_10e400", "id: x\nprofessional_experience_years: 1" + "0" * 400 + "\n"),
        person("years_5000_digits_yaml", "id: x\nprofessional_experience_years: " + BIG + "\n"),
        person("years_negative", "id: x\nprofessional_experience_years: -1\n"),
        person("years_nan", "id: x\nprofessional_experience_years: .nan\n"),
        person("years_inf", "id: x\nprofessional_experience_years: .inf\n"),
        person("json_nan_literal", '{"id": "x", "professional_experience_years": NaN}', "p.json"),
        person("json_1e400", '{"id": "x", "professional_experience_years": 1e400}', "p.json"),
        person("birth_future", "id: x\nbirth_date: 2030-01-01\n"),
        person("birth_impossible", "id: x\nbirth_date: 2001-02-30\n"),
        person("birth_word", "id: x\nbirth_date: yesterday\n"),
        person("birth_year_0", "id: x\nbirth_date: '0000-01-01'\n"),
        person("unknown_role", "id: x\nsailing_days:\n  Schiffskoch: 30\n"),
        person("unknown_certificate", "id: x\ncertificates: [UBZ-Kapitaen]\n"),
        person("unknown_exam", '{"id": "x", "exams": ["Anlage8", "Anlage12"]}', "p.json"),
        person("unknown_function", "id: x\nfunctions: [Bordkoch]\n"),
        person("certificates_mapping", "id: x\ncertificates: {UBZ-Matrose: true}\n"),
        person("certificate_issued_future", "id: x\nbirth_date: 1990-01-01\ncertificates: [{id: UBZ-Matrose, issued: 2030-01-01}]\n",
               ok0=True),  # answered, and the answer says the certificate is not held yet (not_yet_issued)
        person("certificate_entry_unknown_key", "id: x\ncertificates: [{id: UBZ-Matrose, colour: red}]\n"),
        person("exam_passed_word", "id: x\nexams: [{id: Anlage8, passed: soon}]\n"),
        person("medical_word", "id: x\nmedical_fitness: perhaps\n"),
        person("medical_bad_date", "id: x\nmedical_fitness: {examined: 2025-13-01}\n"),
        person("apprenticeship_year_99", "id: x\napprenticeship: {contract: true, year: 99}\n"),
        person("apprenticeship_year_word", "id: x\napprenticeship: {contract: true, year: first}\n"),
        person("sea_days_unknown_key", "id: x\nsea_days: {galley: 100}\n"),
        person("empty_file", "  \n\n"),
        person("zero_bytes", ""),
        person("invalid_utf8", b"id: x\nbirth_date: \xff\xfe\x00\x81\n"),
        person("utf16", "id: x\nbirth_date: 1990-01-01\n".encode("utf-16")),
        person("top_level_list", "- id: x\n"),
        person("top_level_scalar", "just a sentence\n"),
        person("json_null", "null", "p.json"),
        person("json_trailing_garbage", '{"id": "x"} {"id": "y"}', "p.json"),
        person("json_duplicate_key", '{"id": "x", "id": "y"}', "p.json"),
        person("yaml_duplicate_key", "id: x\nid: y\n"),
        person("malformed_yaml", "id: x\nsailing_days: [Matrose, 3\nexams: []\n"),
        person("malformed_json", '{"id": "x", "sailing_days": {"Matrose": 3,}}', "p.json"),
        person("yaml_tabs", "id: x\nsailing_days:\n\tMatrose: 3\n"),
        person("yaml_two_documents", "id: x\n---\nid: y\n"),
        person("yaml_python_tag", "id: !!python/object/apply:os.system ['echo pwned']\n"),
        person("yaml_alias_bomb", BOMB),
        person("yaml_list_as_key", "? [1, 2]\n: 3\n"),
        person("yaml_deep", "a: " + "[" * 200 + "]" * 200 + "\n"),
        person("json_deep", "[" * 5000 + "]" * 5000, "p.json"),
        person("json_deep_object", '{"a":' * 3000 + "1" + "}" * 3000, "p.json"),
        person("id_newline", '{"id": "anna\\n"}', "p.json"),
        person("id_control_char", '{"id": "an\\u0007na"}', "p.json"),
        person("id_empty", "id: ''\n"),
        person("id_path", "id: ../../etc/passwd\n"),
        person("id_number", "id: 42\n"),
        person("id_very_long", "id: " + "x" * 100_000 + "\n"),
        person("bom_json_unknown_key", '\ufeff{"id": "x", "shoe_size": 44}', "p.json"),
        person("bom_yaml_unknown_key", "\ufeffid: x\nshoe_size: 44\n"),
        person("huge_file", "id: x\n" + ("# padding\n" * 2_000_000)),
        person("txt_suffix", GOOD, "p.txt", ok0=True),
        person("no_suffix", GOOD, "p", ok0=True),
        person("ttl_malformed", TTL + '<https://w3id.org/crewkg/person/x> a crew:Person ;; crew:personId "x"\n', "p.ttl"),
        person("ttl_negative_days", PERSON_TTL + "; crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Matrose ; crew:days -5 ] .\n", "p.ttl"),
        person("ttl_unknown_role", PERSON_TTL + "; crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Schiffskoch ; crew:days 30 ] .\n", "p.ttl"),
        person("ttl_ill_typed_date", TTL + '<https://w3id.org/crewkg/person/x> a crew:Person ; crew:personId "x" ; crew:birthDate "2001-02-30"^^xsd:date .\n', "p.ttl"),
        person("ttl_misspelt_predicate", PERSON_TTL + "; crew:holdsCertifcate kb:UBZ-Matrose .\n", "p.ttl"),
        person("ttl_two_sailing_records", PERSON_TTL + "; crew:hasSailingRecord [ crew:inRole kb:Matrose ; crew:days 100 ] , [ crew:inRole kb:Matrose ; crew:days 200 ] .\n", "p.ttl"),
        person("ttl_undefined_prefix", PERSON_TTL + "; foo:bar 1 .\n", "p.ttl"),
        person("ttl_no_person", TTL + "<https://example.org/x> a crew:Vessel .\n", "p.ttl"),
        person("ttl_two_persons", PERSON_TTL + ".\n<https://w3id.org/crewkg/person/u> a crew:Person ; crew:personId \"u\" .\n", "p.ttl"),
        person("ttl_big_days", PERSON_TTL + "; crew:hasSailingRecord [ crew:inRole kb:Matrose ; crew:days " + BIG + " ] .\n", "p.ttl"),
        person("ttl_days_string", PERSON_TTL + '; crew:hasSailingRecord [ crew:inRole kb:Matrose ; crew:days "many" ] .\n', "p.ttl"),
    ]
    # --- dated service log entries ----------------------------------------------------------------------------
    log = "id: x\nbirth_date: 1990-01-01\nservice:\n  - {from: 2024-03-01, to: 2024-10-31, role: Matrose}\n"
    c += [
        person("log_to_before_from", replace(log, "to: 2024-10-31", "to: 2024-01-31")),
        person("log_unknown_role", replace(log, "role: Matrose", "role: Schiffskoch")),
        person("log_missing_from", replace(log, "from: 2024-03-01, ", "")),
        person("log_impossible_date", replace(log, "2024-10-31", "2024-02-30")),
        person("log_unknown_key", replace(log, "role: Matrose", "role: Matrose, weather: fine")),
        person("log_days_negative", replace(log, "role: Matrose", "role: Matrose, days: -3")),
        person("log_days_huge", replace(log, "role: Matrose", "role: Matrose, days: " + BIG)),
        person("log_not_a_list", "id: x\nservice: {from: 2024-03-01, to: 2024-10-31, role: Matrose}\n"),
        person("log_entry_scalar", "id: x\nservice: [yesterday]\n"),
        person("log_year_0001_to_9999", replace(replace(log, "2024-03-01", "0001-01-01"), "2024-10-31", "9999-12-31")),
        person("log_before_birth", replace(log, "2024-03-01", "1989-12-31")),
        person("log_to_after_as_of", replace(log, "to: 2024-10-31", "to: 2031-10-31"), ok0=True),
        person("log_overlap_same_role", log + "  - {from: 2024-04-01, to: 2024-05-31, role: Matrose}\n", ok0=True),
        person("log_10000_entries", "id: x\nservice:\n" + "  - {from: 2024-03-01, to: 2024-03-02, role: Matrose}\n" * 10_000,
               ok0=True),
    ]
    # --- vessels and rosters (crew) ----------------------------------------------------------------------------
    def crew(id_: str, vessel: str, roster: str | None = None, *extra: str, **kw) -> Case:
        files: dict[str, str | bytes] = {"v.yaml": vessel}
        args = ["crew", "{d}/v.yaml", "--as-of", AS_OF, "--lang", "en", *extra]
        if roster is not None:
            files["r.yaml"] = roster
            args += ["--roster", "{d}/r.yaml"]
        return Case(id_, "vessel/roster", args, files, **kw)

    c += [
        crew("vessel_unknown_kind", replace(VESSEL, "kind: day_trip_passenger", "kind: pirate_ship")),
        crew("vessel_missing_kind", replace(VESSEL, "kind: day_trip_passenger\n", "")),
        crew("vessel_negative_length", replace(VESSEL, "length_m: 62.5", "length_m: -62.5")),
        crew("vessel_length_nan", replace(VESSEL, "length_m: 62.5", "length_m: .nan")),
        crew("vessel_passengers_10e400", replace(VESSEL, "passengers: 300", "passengers: 1" + "0" * 400)),
        crew("vessel_length_10e400", replace(VESSEL, "length_m: 62.5", "length_m: 1" + "0" * 400)),
        crew("vessel_passengers_word", replace(VESSEL, "passengers: 300", "passengers: many")),
        crew("vessel_on_board_over_certified", replace(VESSEL, "passengers_on_board: 250", "passengers_on_board: 900")),
        crew("vessel_unknown_key", VESSEL + "colour: blue\n"),
        crew("vessel_bad_standard", replace(VESSEL, "standard: S1", "standard: S9")),
        crew("vessel_bad_waters", replace(VESSEL, "waters: waterway", "waters: ocean")),
        crew("vessel_engine_inf", replace(VESSEL, "engine_kw: 800", "engine_kw: .inf")),
        crew("vessel_empty", ""),
        crew("vessel_alias_bomb", BOMB),
        crew("vessel_is_a_list", "- " + VESSEL.replace("\n", "\n  ")),
        Case("vessel_is_a_folder", "vessel/roster", ["crew", "{d}/v.yaml", "--as-of", AS_OF], setup="dir:v.yaml"),
        crew("roster_crew_not_a_list", VESSEL, "crew: {id: a}\n"),
        crew("roster_unknown_certificate", VESSEL, replace(ROSTER, "[UBZ-Schiffsfuehrer]", "[UBZ-Kapitaen]")),
        crew("roster_duplicate_member", VESSEL, ROSTER + "  - id: eva\n    birth_date: 1985-07-12\n"),
        crew("roster_unknown_key", VESSEL, ROSTER + "captain_cat: true\n"),
        crew("roster_empty", VESSEL, ""),
        crew("roster_member_bad_birth", VESSEL, replace(ROSTER, "1975-04-02", "1975-02-30")),
        crew("roster_member_not_mapping", VESSEL, "crew:\n  - kapitaen-huber\n"),
        Case("roster_missing", "vessel/roster", ["crew", "{d}/v.yaml", "--roster", "{d}/nobody.yaml", "--as-of", AS_OF],
             {"v.yaml": VESSEL}),
    ]
    # --- programmes ----------------------------------------------------------------------------------------------
    def programme(id_: str, text: str) -> Case:
        return Case(id_, "programme", ["programme", "{d}/prog.yaml", "--as-of", AS_OF, "--lang", "en"], {"prog.yaml": text})

    c += [
        programme("programme_months_negative", replace(PROGRAMME, "months: 24", "months: -24")),
        programme("programme_months_10e100", replace(PROGRAMME, "months: 24", "months: 1" + "0" * 100)),
        programme("programme_months_99999", replace(PROGRAMME, "months: 24", "months: 99999")),
        programme("programme_min_age_10e100", replace(PROGRAMME, "min_age: 16", "min_age: 1" + "0" * 100)),
        programme("programme_months_word", replace(PROGRAMME, "months: 24", "months: two years")),
        programme("programme_for_unknown", replace(PROGRAMME, "for: Matrose", "for: Admiral")),
        programme("programme_unknown_key", PROGRAMME + "fees: 1000\n"),
        programme("programme_min_age_word", replace(PROGRAMME, "min_age: 16", "min_age: young")),
        programme("programme_missing_months", replace(PROGRAMME, "months: 24\n", "")),
        programme("programme_days_5000_digits", replace(PROGRAMME, "sailing_days: 90", "sailing_days: " + BIG)),
        programme("programme_entry_not_mapping", replace(PROGRAMME, "entry:\n  min_age: 16", "entry: [16]")),
    ]
    # --- cohorts -------------------------------------------------------------------------------------------------
    def cohort(id_: str, text: str | bytes, name: str = "c.csv", *extra: str, batch: bool = False) -> Case:
        return Case(id_, "cohort", ["cohort", "{d}/" + name, "--target", "UBZ-Matrose", "--as-of", AS_OF, "--lang", "en",
                                    "--workers", "1", *extra], {name: text}, batch=batch)

    bad_row = COHORT_ROW.replace("2010-03-14", "2010-02-30")
    c += [
        cohort("cohort_unknown_column", COHORT_HEAD + ",shoe_size\n" + COHORT_ROW + ",44\n"),
        cohort("cohort_one_bad_row", COHORT_HEAD + "\n" + COHORT_ROW + "\n" + bad_row.replace("lehrling-01", "lehrling-99") + "\n", batch=True),
        cohort("cohort_every_row_bad", COHORT_HEAD + "\n" + bad_row + "\n", batch=True),
        cohort("cohort_empty", ""),
        cohort("cohort_header_only", COHORT_HEAD + "\n"),
        cohort("cohort_duplicate_ids", COHORT_HEAD + "\n" + COHORT_ROW + "\n" + COHORT_ROW + "\n", batch=True),
        cohort("cohort_nul_byte", COHORT_HEAD + "\n" + COHORT_ROW.replace("lehrling", "lehr\x00ling") + "\n", batch=True),
        cohort("cohort_ragged_row", COHORT_HEAD + "\n" + COHORT_ROW + ",extra,fields\n", batch=True),
        cohort("cohort_non_utf8", (COHORT_HEAD + "\n").encode() + b"lehrling-\xff,2010-03-14\n"),
        cohort("cohort_days_10e400", COHORT_HEAD + "\n" + COHORT_ROW.replace(",40,", ",1" + "0" * 400 + ",") + "\n", batch=True),
        cohort("cohort_yaml_not_a_list", "id: x\n", "c.yaml"),
        cohort("cohort_yaml_alias_bomb", BOMB, "c.yaml"),
        cohort("cohort_unknown_target", COHORT, "c.csv"),
        cohort("cohort_out_unknown_suffix", COHORT, "c.csv", "--out", "{d}/report.xyz"),
        cohort("cohort_out_missing_folder", COHORT, "c.csv", "--out", "{d}/no/such/report.csv"),
        cohort("cohort_bom_unknown_column", "\ufeff" + COHORT_HEAD + ",shoe_size\n" + COHORT_ROW + ",44\n"),
    ]
    unknown = next(x for x in c if x.id == "cohort_unknown_target")
    unknown.args[unknown.args.index("UBZ-Matrose")] = "UBZ-Admiral"
    # --- registers (JSON Lines, CSV) ----------------------------------------------------------------------------
    good_line = '{"id": "a", "birth_date": "1990-01-01"}\n'

    def register(id_: str, text: str | bytes, name: str = "r.jsonl", batch: bool = True) -> Case:
        return Case(id_, "register", ["check", "{d}/" + name, "--as-of", AS_OF, "--format", "jsonl", "--workers", "1",
                                      "--lang", "en"],
                    {name: text}, batch=batch)

    c += [
        register("jsonl_one_bad_line", good_line + '{"id": "b", "birth_date": "1990-02-30"}\n'),
        register("jsonl_not_json_line", good_line + "this is not json\n"),
        register("jsonl_every_line_bad", '{"id": "b", "shoe_size": 1}\n'),
        register("jsonl_empty", "", batch=False),
        register("jsonl_deep_line", good_line + "[" * 5000 + "]" * 5000 + "\n"),
        register("jsonl_duplicate_ids", good_line + good_line),
        register("jsonl_line_is_a_list", good_line + "[1, 2]\n"),
        register("jsonl_bigint_line", good_line + '{"id": "b", "professional_experience_years": ' + BIG + "}\n"),
        register("csv_unknown_column", "id,birth_date,shoe_size\na,1990-01-01,44\n", "r.csv", batch=False),
        register("csv_bad_row", "id,birth_date\na,1990-01-01\nb,1990-02-30\n", "r.csv"),
        register("csv_ragged_row", "id,birth_date\na,1990-01-01,extra\n", "r.csv"),
        register("csv_non_utf8", b"id,birth_date\na\xff,1990-01-01\n", "r.csv", batch=False),
    ]
    # --- folders and files that are not what they seem ---------------------------------------------------------
    c += [
        Case("named_pipe", "files", ["check", "{d}/p.yaml", "--as-of", AS_OF], setup="fifo:p.yaml"),
        Case("named_pipe_in_folder", "files", ["check", "{d}", "--as-of", AS_OF], {"a.yaml": GOOD}, batch=True,
             setup="fifo:b.yaml"),
        Case("broken_symlink", "files", ["check", "{d}/p.yaml", "--as-of", AS_OF], setup="broken:p.yaml"),
        Case("broken_symlink_in_folder", "files", ["check", "{d}", "--as-of", AS_OF], {"a.yaml": GOOD}, batch=True,
             setup="broken:b.yaml"),
        Case("symlink_to_system_file", "files", ["check", "{d}/p.yaml", "--as-of", AS_OF], setup="passwd:p.yaml"),
        Case("folder_as_plan_record", "files", ["plan", "{d}", "--target", "UBZ-Matrose", "--as-of", AS_OF],
             {"a.yaml": GOOD, "b.yaml": GOOD.replace("good", "other")}),
        Case("folder_as_explain_record", "files", ["explain", "{d}", "UBZ-Matrose", "--as-of", AS_OF],
             {"a.yaml": GOOD, "b.yaml": GOOD.replace("good", "other")}),
        Case("folder_as_timeline_record", "files", ["timeline", "{d}", "--as-of", AS_OF],
             {"a.yaml": GOOD, "b.yaml": GOOD.replace("good", "other")}),
        Case("missing_file", "files", ["check", "{d}/nobody.yaml", "--as-of", AS_OF]),
        Case("empty_folder", "files", ["check", "{d}", "--as-of", AS_OF]),
        Case("folder_one_bad", "files", ["check", "{d}", "--as-of", AS_OF], {"a.yaml": GOOD, "b.yaml": "id: [x\n"}, batch=True),
        Case("export_folder_one_bad", "files", ["export", "{d}", "--as-of", AS_OF], {"a.yaml": GOOD, "b.yaml": "id: [x\n"}, batch=True),
        Case("sparql_data_folder_one_bad", "files", ["sparql", "ASK {?s ?p ?o}", "--data", "{d}", "--as-of", AS_OF],
             {"a.yaml": GOOD, "b.yaml": "id: [x\n"}, batch=True),
    ]
    # --- options -------------------------------------------------------------------------------------------------
    p = {"p.yaml": GOOD}
    c += [
        Case("as_of_9999_99_99", "options", ["check", "{d}/p.yaml", "--as-of", "9999-99-99"], p),
        Case("as_of_month_13", "options", ["check", "{d}/p.yaml", "--as-of", "2026-13-01"], p),
        Case("as_of_word", "options", ["check", "{d}/p.yaml", "--as-of", "tomorrow"], p),
        Case("as_of_year_0001", "options", ["check", "{d}/p.yaml", "--as-of", "0001-01-01"], p),
        Case("plan_as_of_9999_12_31", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Steuermann", "--as-of", "9999-12-31"], p,
             ok0=True),
        Case("timeline_as_of_9999_12_31", "options", ["timeline", "{d}/p.yaml", "--as-of", "9999-12-31", "--format", "json"], p,
             ok0=True),
        Case("plan_unknown_target", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Admiral", "--as-of", AS_OF], p),
        Case("plan_days_per_year_0", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Matrose", "--days-per-year", "0", "--as-of", AS_OF], p),
        Case("plan_days_per_year_negative", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Matrose", "--days-per-year", "-5", "--as-of", AS_OF], p),
        Case("plan_days_per_year_huge", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Matrose", "--days-per-year", "9" * 30, "--as-of", AS_OF], p),
        Case("plan_out_unknown_suffix", "options", ["plan", "{d}/p.yaml", "--target", "UBZ-Matrose", "--out", "{d}/route.xyz", "--as-of", AS_OF], p),
        Case("explain_unknown_certificate", "options", ["explain", "{d}/p.yaml", "UBZ-Admiral", "--as-of", AS_OF], p),
        Case("check_format_bogus", "options", ["check", "{d}/p.yaml", "--format", "yaml"], p),
        Case("check_lang_bogus", "options", ["check", "{d}/p.yaml", "--lang", "xx"], p),
        Case("check_workers_zero", "options", ["check", "{d}/p.yaml", "--workers", "0", "--as-of", AS_OF], p),
        Case("check_out_missing_folder", "options", ["check", "{d}/p.yaml", "--out", "{d}/no/such/x.json", "--as-of", AS_OF], p,
             ok0=True),
        Case("export_out_missing_folder", "options", ["export", "{d}/p.yaml", "--out", "{d}/no/such/x.ttl", "--as-of", AS_OF], p),
        Case("export_out_is_a_folder", "options", ["export", "{d}/p.yaml", "--out", "{d}", "--as-of", AS_OF], p),
        Case("export_out_unknown_suffix", "options", ["export", "{d}/p.yaml", "--out", "{d}/x.docx", "--as-of", AS_OF], p),
        Case("sparql_malformed", "options", ["sparql", "SELECT ?x WHERE { ?x ?y }", "--as-of", AS_OF]),
        Case("sparql_update", "options", ["sparql", "CLEAR ALL", "--as-of", AS_OF]),
        Case("sparql_service", "options", ["sparql", "SELECT * { SERVICE <http://127.0.0.1:9/x> { ?s ?p ?o } }", "--as-of", AS_OF]),
        Case("sparql_missing_rq_file", "options", ["sparql", "{d}/nobody.rq", "--as-of", AS_OF]),
        Case("sparql_unknown_canned_name", "options", ["sparql", "no-such-query", "--as-of", AS_OF]),
        Case("sparql_graph_malformed", "options", ["sparql", "ASK {?s ?p ?o}", "--graph", "{d}/g.ttl", "--as-of", AS_OF],
             {"g.ttl": "<a> <b> .\n"}),
        Case("sparql_graph_unknown_suffix", "options", ["sparql", "ASK {?s ?p ?o}", "--graph", "{d}/g.docx", "--as-of", AS_OF],
             {"g.docx": "x"}),
        Case("sparql_crew_missing", "options", ["sparql", "ASK {?s ?p ?o}", "--crew", "{d}/v.yaml:{d}/r.yaml", "--as-of", AS_OF]),
        Case("sparql_store_bogus", "options", ["sparql", "ASK {?s ?p ?o}", "--store", "postgres", "--as-of", AS_OF]),
        Case("casebook_malformed", "options", ["test", "{d}/cases.yaml"], {"cases.yaml": "- name: [x\n"}),
        Case("casebook_unknown_key", "options", ["test", "{d}/cases.yaml"], {"cases.yaml": "- name: x\n  colour: red\n"}),
        Case("paths_out_unknown_suffix", "options", ["paths", "--out", "{d}/g.xyz"]),
    ]
    # --- issue 44: inputs that once ended in a traceback, and SERVICE in every form -----------------------------------
    dated = "id: x\nbirth_date: 1990-01-01\n"
    turtle_record = next((EXAMPLES / "persons").glob("*.ttl")).read_text(encoding="utf-8")
    c += [
        person("medical_valid_until_9999", dated + "medical_fitness: {valid_until: 9999-12-31}\n"),
        person("medical_examined_9999", dated + "medical_fitness: {examined: 9999-12-31}\n"),
        person("certificate_issued_9999", dated + "certificates: [{id: UBZ-Matrose, issued: 9999-12-31}]\n"),
        person("medical_valid_until_9899_as_of_9999", dated + "medical_fitness: {valid_until: 9899-12-31}\n"
               "certificates: [{id: UBZ-Matrose, issued: 9899-12-31}]\n", "p.yaml", "--as-of", "9999-12-31", ok0=True),
        Case("plan_valid_until_9999", "person", ["plan", "{d}/p.yaml", "--target", "UBZ-Steuermann", "--as-of", AS_OF],
             {"p.yaml": dated + "medical_fitness: {valid_until: 9999-12-31}\n"}),
        Case("timeline_valid_until_9999", "person", ["timeline", "{d}/p.yaml", "--as-of", AS_OF],
             {"p.yaml": dated + "medical_fitness: {valid_until: 9999-12-31}\n"}),
        person("json_surrogate_id", '{"id": "\\ud800"}', "p.json"),
        person("json_nested_1000", '{"id": "x", "sailing_days": ' + "[" * 1000 + "]" * 1000 + "}", "p.json"),
        person("ttl_ill_typed_integer", PERSON_TTL + '; crew:hasSailingRecord [ crew:inRole kb:Matrose ; '
               'crew:days "abc"^^xsd:integer ] .\n', "p.ttl"),
        register("jsonl_utf16", good_line.encode("utf-16"), batch=False),
        register("jsonl_line_not_utf8", good_line.encode() + b'{"id": "b\xff"}\n'),
        register("csv_cell_131073", "id,birth_date,exams\na,1990-01-01," + "Anlage8;" * 20_000 + "\n", "r.csv"),
        cohort("cohort_cell_131073", "id,birth_date,exams\nx,2008-01-01," + "Anlage8;" * 20_000 + "\n", batch=True),
        Case("cache_shacl_ok_is_a_file", "cache", ["check", "{d}/p.ttl", "--as-of", AS_OF], {"p.ttl": turtle_record},
             setup="cacheshaclok", ok0=True),
    ]
    if hasattr(os, "geteuid") and os.geteuid() != 0:  # root reads a file of mode 000
        c.append(Case("unreadable_record", "files", ["check", "{d}/p.yaml", "--as-of", AS_OF], {"p.yaml": GOOD},
                      setup="unreadable:p.yaml"))
    service = {"cr": "SELECT ?x { #\rSERVICE <http://127.0.0.1:{port}/> {?x ?p ?o} }",
               "lt": "SELECT ?l { BIND('0' AS ?a) FILTER(?a<'>') SERVICE <http://127.0.0.1:{port}/> {?l ?p ?o} FILTER(?a!='') }",
               "escape": "SELECT * { \\u0053ERVICE <http://127.0.0.1:{port}/> {?s ?p ?o} }",
               "file": "SELECT * { SERVICE <file:///etc/hostname> {?s ?p ?o} }",
               "plain": "SELECT * { SERVICE <http://127.0.0.1:{port}/> { ?s ?p ?o } }"}
    c += [Case(f"sparql_service_{name}_{store}", "options", ["sparql", query, "--store", store, "--as-of", AS_OF])
          for name, query in service.items() for store in ("memory", "oxigraph")]
    # --- the compiled-law cache ------------------------------------------------------------------------------------
    c += [
        Case("cache_is_a_file", "cache", ["check", "{d}/p.yaml", "--as-of", AS_OF], p, setup="cachefile", ok0=True),
        Case("cache_read_only", "cache", ["check", "{d}/p.yaml", "--as-of", AS_OF], p, setup="cachero", ok0=True),
        Case("cache_junk_files", "cache", ["check", "{d}/p.yaml", "--as-of", AS_OF], p, setup="cachejunk", ok0=True),
    ]
    return c


@dataclass
class Outcome:
    case: Case
    rc: int | None
    out: str
    err: str
    seconds: float
    kind: str = ""


def _prepare(case: Case, base: Path, warm_cache: Path) -> tuple[Path, dict[str, str]]:
    d = base / case.id
    d.mkdir()
    for name, content in case.files.items():
        (d / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    env = dict(os.environ, CREWKG_CACHE=str(warm_cache), PYTHONPATH=str(ROOT / "src"), COLUMNS="120")
    what, _, name = (case.setup or "").partition(":")
    if what == "fifo":
        os.mkfifo(d / name)
    elif what == "broken":
        (d / name).symlink_to(d / "missing-target.yaml")
    elif what == "dir":
        (d / name).mkdir()
    elif what == "passwd":
        (d / name).symlink_to("/etc/passwd")
    elif what == "cachefile":
        (d / "cache").write_text("not a folder")
        env["CREWKG_CACHE"] = str(d / "cache")
    elif what == "cachero":
        (d / "cache").mkdir(mode=0o500)
        env["CREWKG_CACHE"] = str(d / "cache")
    elif what == "cacheshaclok":  # a file where the cache keeps its folder of validated records
        cache = d / "cache"
        cache.mkdir(mode=0o700)
        (cache / "shacl-ok").write_text("not a folder")
        env["CREWKG_CACHE"] = str(cache)
    elif what == "unreadable":
        (d / name).chmod(0)
    elif what == "cachejunk":
        cache = d / "cache"
        cache.mkdir()
        for sub in ("law.pickle", "law.json", "compiled.json", "validated"):
            (cache / sub).write_bytes(b"\x80\x04junk" * 10)
        env["CREWKG_CACHE"] = str(cache)
    return d, env


#: the port of the loopback listener that counts connections (main): a SERVICE query that reaches out calls it
PORT = {"value": 9}


def _run(case: Case, d: Path, env: dict[str, str]) -> Outcome:
    args = [a.replace("{d}", str(d)).replace("{port}", str(PORT["value"])) for a in case.args]
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "crewkg", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, cwd=d, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
        rc: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc = None
    return Outcome(case, rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - t0)


def classify(o: Outcome, d: Path) -> str:
    if o.rc is None:
        return "hang"
    if "Traceback (most recent call last)" in o.err + o.out or o.rc not in (0, 1, 2):
        return "traceback"
    if o.rc == 0:
        return "answered" if o.case.ok0 else "silent exit 0"
    names = [n for n in o.case.files] + [(o.case.setup or ":").partition(":")[2]]
    names += [a for a in o.case.args if a.startswith("--")] + ["field '", "Feld „"]
    text = o.err + (o.out if o.case.batch else "")  # a batch names its bad records in its answer (error lines)
    named = any(n and n in text for n in names) or str(d) in text
    if o.rc == 2 and named:
        return "clean exit 2"
    if o.rc == 1 and o.case.batch and named:
        return "batch exit 1"
    return "unclear"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-k", default="", help="only the cases whose id contains this")
    ap.add_argument("-v", action="store_true", help="list every case")
    ap.add_argument("--no-http", action="store_true", help="leave out the HTTP corpus and the schemathesis run "
                                                            "(bad_requests.py)")
    ap.add_argument("--examples", type=int, default=20, help="schemathesis examples per operation")
    opts = ap.parse_args()
    corpus = [c for c in cases() if opts.k in c.id]
    assert len({c.id for c in corpus}) == len(corpus), "case ids must be unique"
    t0 = time.monotonic()
    from bad_requests import Listener
    from bad_requests import run as http_run

    listener = Listener()
    PORT["value"] = listener.port
    with tempfile.TemporaryDirectory(prefix="crewkg-bad-") as tmp:
        base = Path(tmp)
        warm = base / "_cache"
        subprocess.run([sys.executable, "-m", "crewkg", "check", str(EXAMPLES / "persons" / "anna-matrose.yaml"),
                        "--as-of", AS_OF], env=dict(os.environ, CREWKG_CACHE=str(warm), PYTHONPATH=str(ROOT / "src")),
                       stdout=subprocess.DEVNULL, check=True)
        prepared = [(c, *_prepare(c, base, warm)) for c in corpus]
        with ThreadPoolExecutor(opts.jobs) as pool:
            outcomes = list(pool.map(lambda t: _run(*t), prepared))
        for i, (case, d, env) in enumerate(prepared):
            if outcomes[i].rc is None:  # a hang only if it hangs again alone
                outcomes[i] = _run(case, d, env)
            outcomes[i].kind = classify(outcomes[i], d)
        for cd in base.glob("*/cache"):
            cd.chmod(0o700)
    counts = Counter(o.kind for o in outcomes)
    order = ["clean exit 2", "batch exit 1", "answered", "silent exit 0", "traceback", "hang", "unclear"]
    print(f"{len(outcomes)} bad inputs tried in {time.monotonic() - t0:.0f} s: "
          + ", ".join(f"{counts[k]} {k}" for k in order))
    for o in outcomes:
        if opts.v or o.kind not in ("clean exit 2", "batch exit 1", "answered"):
            last = (o.err.strip().splitlines() or o.out.strip().splitlines() or [""])[-1][:160]
            print(f"  {o.kind:14} {o.case.group:13} {o.case.id:32} rc={o.rc} {o.seconds:4.1f}s  {last}")
    print(f"connections to the loopback listener (SERVICE reaching out from the CLI): {listener.connections}")
    failed = counts["traceback"] or counts["hang"] or listener.connections
    listener.close()
    if not opts.no_http:
        print("HTTP: bad requests and a schemathesis run against `crewkg serve` on each store (bad_requests.py)")
        failed = http_run(["memory", "oxigraph"], opts.examples) or failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
