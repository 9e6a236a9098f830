"""Bad input says itself in the language asked (issue 13 point 7): with `--lang de` every word of the message is
German, with `--lang en` the message is the English text it always was, byte for byte (programs and tests match on
it). Either way the command exits 2 (a bad file or option) or 1 (a bad row among good ones), with no traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from crewkg.cli.common import app
from crewkg.errors import InputError

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
WACHAU = EXAMPLES / "vessels" / "01-ms-wachau-danube-day-trip.yaml"
AS_OF = "2026-11-30"

#: English words of the messages: none may stand in a German message (values quoted from the input are removed first)
ENGLISH = re.compile(r"\b(expected|field|got|error|did|you|mean|one|of|the|known|keys?|number|not|negative|whole|days|"
                     r"date|records?|could|be|evaluated|see|their|lines?|rows?|certificate|an?|or|more|with|and|is|"
                     r"file|folder|values?|list|person|also|trainees?|column)\b")


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def _bad_vessel(tmp: Path) -> Path:
    data = yaml.safe_load(WACHAU.read_text(encoding="utf-8"))
    data["length_m"] = "long"
    return _write(tmp, "vessel.yaml", yaml.safe_dump(data))


def _case(name: str, tmp: Path):
    """(arguments, the exit status, the English message lines exactly as before) of one kind of bad input."""
    if name == "bad_date":
        p = _write(tmp, "p.yaml", "id: x\nbirth_date: 2001-13-01\n")
        return ["check", str(p), "--as-of", AS_OF], 2, [
            f"crewkg: error: {p}: field 'birth_date': expected an ISO date YYYY-MM-DD (got '2001-13-01')"]
    if name == "unknown_key":
        p = _write(tmp, "p.yaml", "id: x\nsailing_dayz: {}\n")
        keys = "apprenticeship, basic_safety_training, birth_date, certificates, exams, functions, id, " \
               "inland_training_days, medical_fitness, professional_experience_years, programmes, radio_certificate, sailing_days, " \
               "sea_days, service, vocational_training_years"
        return ["check", str(p), "--as-of", AS_OF], 2, [
            f"crewkg: error: {p}: field 'sailing_dayz': expected one of the known keys {keys}; did you mean "
            f"'sailing_days'? (got 'sailing_dayz')"]
    if name == "negative_days":
        p = _write(tmp, "p.yaml", "id: x\nsailing_days:\n  Matrose: -5\n")
        return ["check", str(p), "--as-of", AS_OF], 2, [
            f"crewkg: error: {p}: field 'sailing_days.Matrose': expected a number that is not negative (got -5)"]
    if name == "unknown_certificate":
        p = _write(tmp, "p.yaml", "id: x\ncertificates: [UBZ-Steuermannn]\n")
        return ["check", str(p), "--as-of", AS_OF], 2, None  # the list of ids is the kb's: checked by fragments
    if name == "bad_vessel":
        v = _bad_vessel(tmp)
        return ["crew", str(v), "--as-of", AS_OF], 2, [
            f"crewkg: error: {v}: field 'length_m': expected a number (got 'long')"]
    if name == "bad_roster":
        r = _write(tmp, "roster.yaml", "crew:\n  - id: a\n    sailing_days: {Matrose: many}\n")
        return ["crew", str(WACHAU), "--roster", str(r), "--as-of", AS_OF], 2, [
            f"crewkg: error: {r}: field 'crew[0].sailing_days.Matrose': expected a whole number of days (0 or more) "
            f"(got 'many')"]
    if name == "bad_cohort_row":
        c = _write(tmp, "cohort.csv", "id,birth_date,sailing_days.Matrose\ngood,2000-01-01,100\nbad,2000-01-01,many\n")
        return ["cohort", str(c), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--format", "json"], 1, [
            f"crewkg: error: {c}: row 3: field 'sailing_days.Matrose': expected a whole number of days (0 or more) "
            f"(got 'many')",
            "crewkg: 1 of 2 trainees could not be evaluated; see the error column"]
    if name == "bad_as_of":
        p = _write(tmp, "p.yaml", "id: x\n")
        return ["check", str(p), "--as-of", "2026-13-01"], 2, [
            "crewkg: error: --as-of: field 'as_of': expected an ISO date YYYY-MM-DD (got '2026-13-01')"]
    raise AssertionError(name)


CASES = ["bad_date", "unknown_key", "negative_days", "unknown_certificate", "bad_vessel", "bad_roster", "bad_cohort_row",
         "bad_as_of"]


def _run(args: list[str], lang: str):
    result = _runner().invoke(app, [*args, "--lang", lang])
    return result, result.stderr


def _words_of(message: str, tmp: Path) -> str:
    """The message without what it quotes from the input: paths, field names, values, lists of ids."""
    text = message.replace(str(tmp), "")
    text = re.sub(r"--[a-z-]+", " ", text)
    text = re.sub(r"„[^“]*“|'[^']*'|\[[^\]]*\]|/[^\s:]*", " ", text)
    return text


@pytest.mark.parametrize("name", CASES)
def test_english_is_the_text_it_always_was(tmp_path, name):
    args, status, lines = _case(name, tmp_path)
    result, err = _run(args, "en")
    assert result.exit_code == status, (result.output, result.exception)
    assert "Traceback" not in err and isinstance(result.exception, (SystemExit, type(None)))
    if lines is None:
        assert "expected a known certificate id, one of " in err and "did you mean 'UBZ-Steuermann'?" in err, err
    else:
        assert err.splitlines() == lines


@pytest.mark.parametrize("name", CASES)
def test_german_has_no_english_word(tmp_path, name):
    args, status, _ = _case(name, tmp_path)
    result, err = _run(args, "de")
    assert result.exit_code == status, (result.output, result.exception)
    assert "Traceback" not in err and err.strip()
    assert err.startswith("crewkg: Fehler: "), err
    assert "erwartet wird" in err, err
    found = ENGLISH.findall(_words_of(err, tmp_path))
    assert not found, (found, err)


def test_the_german_sentence_of_a_bad_date(tmp_path):
    args, _, _ = _case("bad_date", tmp_path)
    _, err = _run(args, "de")
    assert err == (f"crewkg: Fehler: {tmp_path / 'p.yaml'}: Feld „birth_date“: erwartet wird ein ISO-Datum JJJJ-MM-TT "
                   "(erhalten: '2001-13-01')\n")


def test_did_you_mean_in_both_languages(tmp_path):
    args, _, _ = _case("unknown_key", tmp_path)
    assert "; meinten Sie 'sailing_days'?" in _run(args, "de")[1]
    assert "; did you mean 'sailing_days'?" in _run(args, "en")[1]


def test_values_are_spelt_as_yaml_and_json_write_them_and_long_lists_are_cut(tmp_path):
    """'(erhalten: True)' was Python's spelling, allowed values a Python list ['a', 'b'], and the ~30 certificate ids
    (1 200 characters) filled the message: true/false/null, the values joined, the nearest ones of a long list."""
    p = _write(tmp_path, "p.yaml", "id: x\nsailing_days: {Matrose: true}\n")
    for lang, said in (("en", "(got true)"), ("de", "(erhalten: true)")):
        err = _run(["check", str(p), "--as-of", AS_OF], lang)[1]
        assert err.rstrip().endswith(said), err
    p = _write(tmp_path, "c.yaml", "id: x\ncertificates: [UBZ-Kapitaen]\n")
    err = _run(["check", str(p), "--as-of", AS_OF], "en")[1]
    assert "one of " in err and "UBZ-Matrose" in err and ", …; did you mean 'UBZ-Matrose'?" in err, err
    assert "one of [" not in err and "Streckenzeugnis-Donau" not in err and len(err) < 400, err
    assert InputError("f", "x", "boolean", {"a": [None, False]}).message() == \
        "f: field 'x': expected true or false (got {'a': [null, false]})"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "expected true or false, or the proof's dates as {valid_until: YYYY-MM-DD} or {examined: YYYY-MM-DD}"),
    ("de", "erwartet wird true oder false, oder die Daten des Nachweises als {valid_until: JJJJ-MM-TT} oder "
           "{examined: JJJJ-MM-TT}")])
def test_a_medical_fitness_that_is_neither_says_every_form_it_takes(tmp_path, lang, said):
    """`medical_fitness: maybe` said 'true or false', though the dated forms are as valid (the CSV cell says so)."""
    p = _write(tmp_path, "p.yaml", "id: x\nmedical_fitness: maybe\n")
    result, err = _run(["check", str(p), "--as-of", AS_OF], lang)
    assert result.exit_code == 2 and said in err, err


def test_no_internal_file_or_argument_name_in_a_message(tmp_path):
    """A vessel without `kind` named 'ontology/manning-shapes.ttl'; a bad SPARQL query the argument 'QUERY_OR_FILE'
    (its help calls it `query`)."""
    v = _write(tmp_path, "v.yaml", "id: v\nwaters: waterway\n")
    for lang in ("en", "de"):
        err = _run(["crew", str(v), "--as-of", AS_OF], lang)[1]
        assert err.startswith(f"crewkg: {'error' if lang == 'en' else 'Fehler'}: {v}") and ".ttl" not in err, err
    result = _runner().invoke(app, ["sparql", "SELECT * WHERE { ?s ?p }"])
    assert result.exit_code == 2 and result.stderr.startswith("crewkg: error: field 'query': expected a SPARQL"), \
        result.stderr


def test_every_expectation_raised_in_src_is_a_catalogue_message():
    """No English sentence hides in a raise: every InputError / fail(...) names its expectation by a catalogue key."""
    import ast

    from crewkg.messages.catalogue import CATALOGUES

    src = Path(__file__).resolve().parents[1] / "src" / "crewkg"
    keys = {k.removeprefix("error.expected.") for k in CATALOGUES["en"] if k.startswith("error.expected.")}
    wrong = []
    for path in src.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            pos = {"InputError": 2, "RequestError": 2, "fail": 1}.get(name)
            if pos is None or len(node.args) <= pos:
                continue
            arg = node.args[pos]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                if arg.value not in keys:
                    wrong.append(f"{path.name}:{node.lineno} {arg.value!r}")
            elif isinstance(arg, ast.JoinedStr):
                prefix = arg.values[0].value if isinstance(arg.values[0], ast.Constant) else ""
                if not any(k.startswith(prefix) for k in keys) or not prefix:
                    wrong.append(f"{path.name}:{node.lineno} f-string")
    assert not wrong, wrong


def test_a_message_of_a_program_of_its_own_is_kept_as_written():
    """InputError raised by an embedding program with its own text keeps working (in every language)."""
    e = InputError("f", "x", "a value of my own", 3)
    assert e.message() == "f: field 'x': expected a value of my own (got 3)"
    assert e.message("de") == "f: Feld „x“: erwartet wird a value of my own (erhalten: 3)"


def test_the_cohort_table_names_a_bad_row_in_the_language_asked(tmp_path):
    """The cohort's error column and report speak the language asked; the JSON `error` stays the English text."""
    from typer.testing import CliRunner

    from crewkg.cli.common import app

    cohort = Path(__file__).resolve().parents[1] / "kb" / "examples" / "cohorts" / "schifffahrtsschule-2026.csv"
    lines = cohort.read_text(encoding="utf-8").splitlines()
    f = tmp_path / "c.csv"
    f.write_text("\n".join([lines[0], lines[1], "bad-1,2010-13-01,true,,,true,1,,40,,,,,,,,,,,"]) + "\n", encoding="utf-8")
    runner = CliRunner()
    args = ["cohort", str(f), "--target", "UBZ-Matrose", "--as-of", "2026-11-30"]
    german = runner.invoke(app, [*args, "--out", str(tmp_path / "r.html")])
    assert german.exit_code == 1
    report = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Feld „birth_date“: erwartet wird ein ISO-Datum" in report and "expected an ISO date" not in report
    rows = json.loads(runner.invoke(app, [*args, "--format", "json", "--lang", "en"]).stdout)
    rows = rows["trainees"]
    bad = next(r for r in rows if r["id"] == "bad-1")
    assert "expected an ISO date YYYY-MM-DD" in bad["error"] and bad["detail"] == bad["error"]


def test_a_cohort_row_without_a_readable_id_is_named_by_its_row_in_the_language_asked(tmp_path):
    """The German table named a row whose id is bad 'row 3' (the JSON's English place): 'Zeile 3' in German."""
    from crewkg.careers.cohorts import row_cells
    from crewkg.law.statute import load_law

    f = _write(tmp_path, "c.csv", "id,birth_date\ngood,2000-01-01\n,2000-01-01\n")
    runner = _runner()
    args = ["cohort", str(f), "--target", "UBZ-Matrose", "--as-of", AS_OF, "--format", "json"]
    rows = json.loads(runner.invoke(app, [*args, "--lang", "de"]).stdout)["trainees"]
    bad = next(r for r in rows if r["error"])
    assert bad["id"] == "row 3"  # the JSON keeps the English place, as every JSON answer names a bad record
    assert row_cells(load_law(), bad, "de")[0] == "Zeile 3" and row_cells(load_law(), bad, "en")[0] == "row 3"
    html = tmp_path / "r.html"
    assert runner.invoke(app, [*args[:-2], "--out", str(html), "--lang", "de"]).exit_code == 1
    assert "Zeile 3" in html.read_text(encoding="utf-8") and "row 3" not in html.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["export", "sparql"])
def test_export_and_sparql_speak_german_with_lang_de_and_english_without(tmp_path, command):
    """A folder with a bad record: the record is named and left out, in the language asked (English by default, as
    these commands always answered)."""
    folder = tmp_path / "people"
    folder.mkdir()
    _write(folder, "good.yaml", "id: good\nbirth_date: 2000-01-01\n")
    _write(folder, "bad.yaml", "id: bad\nsailing_days: {Matrose: viele}\n")
    args = (["export", str(folder)] if command == "export" else ["sparql", "eligible-count", "--data", str(folder)])
    args += ["--as-of", AS_OF]
    german = _runner().invoke(app, [*args, "--lang", "de"])
    english = _runner().invoke(app, args)
    assert german.exit_code == english.exit_code == 1
    de_lines = [line for line in german.stderr.splitlines() if line.strip()]
    en_lines = [line for line in english.stderr.splitlines() if line.strip()]
    assert de_lines and en_lines and len(de_lines) == len(en_lines)
    assert "Feld „sailing_days.Matrose“" in german.stderr and "field 'sailing_days.Matrose'" in english.stderr
    for line in de_lines:
        assert not ENGLISH.search(re.sub(r"'[^']*'|/\S+", "", line)), line


def test_the_canned_queries_are_listed_in_german_with_lang_de():
    from crewkg.messages.catalogue import catalogue

    german = _runner().invoke(app, ["sparql", "--list", "--lang", "de"]).stdout
    assert catalogue("de")["service.query.anlage9-pathways.title"] in german
    english = _runner().invoke(app, ["sparql", "--list"]).stdout
    assert catalogue("de")["service.query.anlage9-pathways.title"] not in english
