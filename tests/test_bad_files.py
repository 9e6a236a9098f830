"""Bad files that once ended in a traceback (issue 44, defect 4): a proof valid until 31 December 9999, a JSON Lines
register in UTF-16, a CSV cell of more than 131 072 characters, a file named `shacl-ok` where the cache keeps its
folder, an unreadable record (said as 'expected a value of the kind path', without the file or the reason), and rdflib's
own traceback on standard error for an ill-typed Turtle literal before crewkg's message. Each is one clean message
naming the file, the field and what was expected: exit 2 for a record, exit 1 for a register or cohort whose bad
rows are named while the good ones are answered."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli import app

AS_OF = "2026-11-30"
ROOT = Path(__file__).resolve().parents[1]
TTL = ("@prefix crew: <https://w3id.org/crewkg/onto#> .\n@prefix kb: <https://w3id.org/crewkg/kb/> .\n"
       "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
       '<https://w3id.org/crewkg/person/t> a crew:Person ; crew:personId "t" ; crew:birthDate "1990-01-01"^^xsd:date ;\n'
       '  crew:hasSailingRecord [ a crew:SailingRecord ; crew:inRole kb:Matrose ; crew:days "abc"^^xsd:integer ] .\n')


def _run(*args: str):
    result = CliRunner().invoke(app, [*args, "--lang", "en"])
    assert "Traceback" not in result.output + result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", [["check"], ["timeline"], ["plan", "--target", "UBZ-Steuermann"],
                                     ["explain", "{record}", "UBZ-Matrose"]])
def test_a_proof_valid_until_9999_12_31_is_refused_by_its_field(tmp_path, command):
    record = tmp_path / "p.yaml"
    record.write_text("id: x\nbirth_date: 1990-01-01\nmedical_fitness: {valid_until: 9999-12-31}\n")
    args = [a.replace("{record}", str(record)) for a in command]
    result = _run(*(args if "{record}" in command else [*args, str(record)]), "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "p.yaml" in result.stderr and "medical_fitness.valid_until" in result.stderr
    assert "not after 9899-12-31" in result.stderr


def test_a_utf16_register_is_refused_whole_and_a_bad_line_alone(tmp_path):
    utf16 = tmp_path / "r.jsonl"
    utf16.write_bytes('{"id": "a", "birth_date": "1990-01-01"}\n'.encode("utf-16"))
    assert utf16.read_bytes().startswith(b"\xff\xfe")
    result = _run("check", str(utf16), "--format", "jsonl", "--as-of", AS_OF)
    assert result.exit_code == 2 and "r.jsonl" in result.stderr and "UTF-8" in result.stderr
    mixed = tmp_path / "m.jsonl"
    mixed.write_bytes(b'{"id": "a", "birth_date": "1990-01-01"}\n{"id": "b\xff"}\n{"id": "c"}\n')
    result = _run("check", str(mixed), "--format", "jsonl", "--as-of", AS_OF)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert '"person":"a"' in lines[0] and "line 2" in lines[1] and "UTF-8" in lines[1] and '"person":"c"' in lines[2]


@pytest.mark.parametrize("command", [["check", "--format", "jsonl"], ["cohort", "--target", "UBZ-Matrose"]])
def test_a_csv_cell_over_131072_characters_names_its_row_and_column(tmp_path, command):
    cohort = tmp_path / "c.csv"
    cohort.write_text("id,birth_date,exams\nok,1990-01-01,Anlage8\nlong,1990-01-01," + "Anlage8;" * 20_000 + "\n")
    result = _run(command[0], str(cohort), *command[1:], "--as-of", AS_OF)
    assert result.exit_code == 1  # the good row answered, the long one named
    said = result.stdout + result.stderr
    assert "row 3" in said and "'exams'" in said and "at most 131072 characters" in said
    assert "ok" in result.stdout


def test_a_file_named_shacl_ok_in_the_cache_is_no_failure(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    (cache / "shacl-ok").write_text("not a folder")
    monkeypatch.setenv("CREWKG_CACHE", str(cache))
    record = next((ROOT / "kb" / "examples" / "persons").glob("*.ttl"))
    for _ in range(2):  # the mark cannot be kept: the record is validated again, and answered again
        assert _run("check", str(record), "--as-of", AS_OF).exit_code == 0


def test_a_path_is_not_refused_by_click_before_crewkg_reads_it(tmp_path, monkeypatch):
    """click tested readability first and said 'expected a value of the kind path'; now crewkg reads the file and
    says which and why."""
    record = tmp_path / "p.yaml"
    record.write_text("id: x\nbirth_date: 1990-01-01\n")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, *a, **kw: False if str(p) == str(record) else real_access(p, mode, *a, **kw))
    assert _run("check", str(record), "--as-of", AS_OF).exit_code == 0


def test_an_unreadable_record_names_the_file_and_the_reason(tmp_path, monkeypatch):
    record = tmp_path / "p.yaml"
    record.write_text("id: x\nbirth_date: 1990-01-01\n")
    real_open = Path.open

    def refusing_open(self, *args, **kwargs):
        if self == record:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refusing_open)
    result = _run("check", str(record), "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "p.yaml" in result.stderr and "permission" in result.stderr.lower()
    assert "kind path" not in result.stderr


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads a file of mode 000")
def test_a_record_of_mode_000_names_the_file_and_the_reason(tmp_path):
    record = tmp_path / "p.yaml"
    record.write_text("id: x\n")
    record.chmod(0)
    result = _run("check", str(record), "--as-of", AS_OF)
    assert result.exit_code == 2 and "p.yaml" in result.stderr and "permission" in result.stderr.lower()


def test_an_ill_typed_turtle_literal_is_one_clean_message(tmp_path, caplog):
    record = tmp_path / "t.ttl"
    record.write_text(TTL)
    with caplog.at_level(logging.WARNING):
        result = _run("check", str(record), "--as-of", AS_OF)
    assert result.exit_code == 2 and "t.ttl" in result.stderr
    assert [r for r in caplog.records if r.name.startswith("rdflib")] == []


def test_an_ill_typed_turtle_literal_prints_nothing_of_rdflibs_own(tmp_path):
    """In a process of its own, as a user runs it: standard error is crewkg's one line."""
    record = tmp_path / "t.ttl"
    record.write_text(TTL)
    env = dict(os.environ, CREWKG_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.run([sys.executable, "-m", "crewkg", "check", str(record), "--as-of", AS_OF, "--lang", "en"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and proc.stderr.startswith("crewkg: error: ")
    assert "Failed to convert" not in proc.stderr and "Traceback" not in proc.stderr
