"""A wrong command line (unknown option, missing argument, a value outside its choices) is said in the command's
language from the catalogue, as one error line and a pointer to the help, exit 2 — not click's English panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli.common import app
from crewkg.messages.catalogue import CATALOGUES

runner = CliRunner()
ANNA = "kb/examples/persons/anna-matrose.yaml"

CASES = [
    # (command line, the error line, the help line)
    (["check", ANNA, "--lang", "de", "--bogus"],
     "crewkg: Fehler: crewkg check: unbekannte Option --bogus", "Hilfe: crewkg check --help"),
    (["check", ANNA, "--lang", "en", "--ou", "x"],
     "crewkg: error: crewkg check: no such option --ou (did you mean --out?)", "Help: crewkg check --help"),
    (["check", "--lang", "xx", ANNA],  # no language given that the catalogue has: the command's default (German)
     "crewkg: Fehler: crewkg check: --lang: erwartet einen von de, en (angegeben: 'xx')", "Hilfe: crewkg check --help"),
    (["check", "--lang", "de"], "crewkg: Fehler: crewkg check: das Argument PERSON fehlt", "Hilfe: crewkg check --help"),
    (["check", ANNA, "--lang=en", "--format", "xml"],
     "crewkg: error: crewkg check: --format: expected one of text, json, jsonl (got 'xml')", "Help: crewkg check --help"),
    (["check", ANNA, "--workers", "zwei"],
     "crewkg: Fehler: crewkg check: --workers: erwartet eine ganze Zahl (angegeben: 'zwei')", "Hilfe: crewkg check --help"),
    (["check", ANNA, "--lang", "de", "--as-of"],
     "crewkg: Fehler: crewkg check: die Option --as-of braucht einen Wert", "Hilfe: crewkg check --help"),
    (["check", ANNA, "--as-of", "--lang", "en"],  # click would take --lang as the date and then complain about 'en'
     "crewkg: error: crewkg check: the option --as-of needs a value (it is followed by the option --lang)",
     "Help: crewkg check --help"),
    (["crew", "kb/examples/vessels/02-ms-wolfgang-lake-boat.yaml", "--roster", "--lang=de"],
     "crewkg: Fehler: crewkg crew: die Option --roster braucht einen Wert (auf sie folgt die Option --lang)",
     "Hilfe: crewkg crew --help"),
    (["crew", "kb/examples/vessels/02-ms-wolfgang-lake-boat.yaml", "--roster=", "--lang", "en"],
     "crewkg: error: crewkg crew: the option --roster needs a value", "Help: crewkg crew --help"),
    (["check", ANNA, "weiter", "--lang", "en"],
     "crewkg: error: crewkg check: unexpected arguments: weiter", "Help: crewkg check --help"),
    (["chek", ANNA], "crewkg: Fehler: unbekannter Befehl 'chek' (gemeint: check?)", "Hilfe: crewkg --help"),  # German, the default
    (["chek", ANNA, "--lang", "en"], "crewkg: error: no such command 'chek' (did you mean check?)", "Help: crewkg --help"),
    (["docs"], "crewkg: error: crewkg docs: the option --out is missing", "Help: crewkg docs --help"),  # no --lang: English
]


@pytest.mark.parametrize(("args", "error", "hint"), CASES, ids=[" ".join(c[0][:1] + c[0][2:]) for c in CASES])
def test_usage_error_is_said_from_the_catalogue(args, error, hint):
    result = runner.invoke(app, args, prog_name="crewkg")
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0].startswith(error), lines
    assert lines[1:] == [hint]
    assert "Usage:" not in result.output and "Traceback" not in result.output


def test_help_and_a_bare_command_still_show_the_help():
    assert runner.invoke(app, ["check", "--help"]).exit_code == 0
    bare = runner.invoke(app, [])
    assert "check" in bare.output and "Traceback" not in bare.output


def test_every_usage_message_in_both_languages():
    keys = {k for k in CATALOGUES["en"] if k.startswith("usage.")}
    assert len(keys) >= 15 and keys == {k for k in CATALOGUES["de"] if k.startswith("usage.")}


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs a folder that takes no new file")
def test_an_out_file_in_a_folder_that_takes_none_is_bad_input_not_a_traceback():
    person = sorted(Path("kb/examples/persons").glob("*.yaml"))[0]
    result = runner.invoke(app, ["check", str(person), "--format", "json", "--out", "/proc/x.json", "--lang", "en"])
    assert result.exit_code == 2
    assert result.output.startswith("crewkg: error: /proc/x.json: field '--out': expected a file crewkg may write there")
