"""Every sentence from the catalogue: `--lang de` prints German to the last word and `--lang en` English, for every
bundled example (check, explain of every certificate, paths, plan, programme, cohort). Wording quoted from the kb
(the law's German text, the kb's editorial notes) is allowed only where the output marks it as quoted („…“ after a
lead-in from the catalogue)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import crewkg
from crewkg.answers.explanation import explanation, text_of
from crewkg.cli import app
from crewkg.law.statute import load_law
from crewkg.messages.catalogue import catalogue

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
PERSONS = sorted(p for p in (EXAMPLES / "persons").iterdir() if p.suffix in (".yaml", ".json", ".ttl"))
PROGRAMMES = sorted((EXAMPLES / "programmes").iterdir())
COHORTS = sorted((EXAMPLES / "cohorts").iterdir())
AS_OF = "2026-11-30"

#: words that only an English sentence has (ids such as sailing_days or UBZ-Matrose contain none of them)
ENGLISH = (" the ", " not ", "needed", " have ", "covered", "INTERPRETATION", " and ", " of ", " is ", " more ", "Note",
           " none", " months", " days", " after ", " valid ", " with ", " for ", " can ", " route", " earliest")
#: words that only a German sentence has
GERMAN = (" noch ", " nicht ", " und ", " der ", "fehlt", " die ", " ist ", " nach ", " Tage", " Monate", " frühestens",
          " Weg ", " vorhanden")


def _runs(lang: str, person: Path | None) -> list[list[str]]:
    """The CLI runs of one person (check, plan, explain of its first certificate), or with no person the runs that
    concern no person (paths, programmes, cohorts, a date no encoded regulation governs)."""
    if person is not None:
        runs = [["check", str(person)], ["explain", str(person), sorted(load_law().certificates)[0]],
                ["plan", str(person), "--target", "UBZ-Schiffsfuehrer"]]
    else:
        runs = [["paths"], ["paths", "--format", "graphml"]]
        runs += [["programme", str(p)] for p in PROGRAMMES]
        runs += [["cohort", str(c), "--target", "UBZ-Matrose"] for c in COHORTS]
        runs.append(["check", str(PERSONS[0]), "--as-of", "2020-01-01"])  # a date no encoded regulation governs
    return [[*r, "--lang", lang] + (["--as-of", AS_OF] if "--as-of" not in r and r[0] != "paths" else []) for r in runs]


def _outputs(lang: str, person: Path | None) -> list[tuple[list[str], str]]:
    """What each run prints; for a person also `explain` of every certificate, rendered in process from one answer as
    the command renders it (the run of its first certificate shows that both are the same text)."""
    runner = CliRunner()
    outputs = []
    for args in _runs(lang, person):
        result = runner.invoke(app, args)
        # 1: a programme design that serves no pathway (the 89-day example) says so in its status too
        assert result.exit_code in ((0, 1) if args[0] == "programme" else (0,)), (args, result.output)
        outputs.append((args, result.stdout))
    if person is not None:
        law = load_law()
        record = crewkg.person(person, AS_OF)
        answer = crewkg.check(record, AS_OF, lang)
        for c in sorted(law.certificates):
            text = text_of(explanation(law, record, answer, c, lang))
            if c == outputs[1][0][2]:
                assert text == outputs[1][1], "explain renders in process as the command prints it"
            outputs.append((["explain", str(person), c], text))
    return outputs


def _unquoted(text: str, lang: str) -> str:
    """The output without what it marks as quoted: a „…“ span after a lead-in from the catalogue (the law's German
    text, a paraphrase, a note the kb gives in the other language only), and in English a '…' quotation of the law's
    words inside a note (the kb's notes in the output's language are said as they are, after the catalogue's word
    for their kind: 'Reading: …')."""
    t = catalogue(lang)
    flat = re.sub(r"\s*\n\s*", " ", text)  # a quotation wraps over lines in the terminal
    for key in ("cli.explain.wording", "cli.explain.wording_en", "cli.explain.paraphrase", "cli.explain.note_other"):
        lead = re.sub(r"\{\w+\}", "", t[key].split("„")[0]) + "„" if "„" in t[key] else ""
        if lead:
            flat = re.sub(re.escape(lead) + r"[^“]*“", lead, flat)
    return re.sub(r"'[^'\n]{1,100}'", "''", flat) if lang == "en" else flat


def _leaks(lang: str, words: tuple[str, ...], person: Path | None) -> list[tuple[str, str]]:
    found = []
    for args, text in _outputs(lang, person):
        out = _unquoted(text, lang)
        if args[0] == "paths":  # field and attribute names of JSON and GraphML are ids, not sentences
            out = re.sub(r'"\w+":|\b[\w.]+="[^"]*"|</?[\w:]+', " ", out)
        for w in words:
            i = out.find(w)
            if i >= 0:
                found.append((" ".join(args[:3]), out[max(0, i - 60):i + 60]))
    return found


@pytest.mark.parametrize("person", [*PERSONS, None], ids=[*(p.stem for p in PERSONS), "no-person"])
def test_german_output_has_no_english_sentence(person):
    assert _leaks("de", ENGLISH, person) == []


@pytest.mark.parametrize("person", [*PERSONS, None], ids=[*(p.stem for p in PERSONS), "no-person"])
def test_english_output_has_no_german_sentence(person):
    assert _leaks("en", GERMAN, person) == []


def test_a_quotation_counts_only_where_it_is_marked():
    """The test can fail: English words outside a marked quotation are found."""
    t = catalogue("de")
    marked = t["cli.explain.note_other"].format(kind=t["cli.explain.kind.literal"], note="the text is read as written")
    assert not any(w in _unquoted(marked, "de") for w in ENGLISH)
    assert "needed" in _unquoted("verlangt: 5 needed, „the text“", "de")
    assert " die " in _unquoted("Note: the text says die Person", "en")


WEB = Path(__file__).resolve().parents[1] / "src" / "crewkg" / "service" / "web" / "static"


def test_every_web_page_has_its_texts_in_german_and_english():
    """The form, /queries and /docs: every text marked data-t="key" has a German and an English entry in the
    page's script, and every page offers the language switch."""
    for page, script in (("index.html", "app.js"), ("queries.html", "queries.js"), ("docs.html", "docs.js")):
        html = (WEB / page).read_text(encoding="utf-8")
        js = (WEB / script).read_text(encoding="utf-8")
        assert 'id="lang"' in html and "/static/lang.js" in html, page
        de, en = js.split("\n  en: {", 1)
        for key in set(re.findall(r'data-t="(\w+)"', html)):
            assert re.search(rf"\b{key}:", de) and re.search(rf"\b{key}:", en), (page, key)


def test_explain_says_which_wording_is_the_official_text_and_which_a_paraphrase():
    """The kb paraphrases in English the provisions the bundled texts lack (`crew:wording "…"@en`); `explain` quoted
    them as 'German text' in English and without a word in German, and labelled German notes as English."""
    person = str(PERSONS[0])
    de = CliRunner().invoke(app, ["explain", person, "Decksmann-AT", "--as-of", AS_OF, "--lang", "de"]).stdout
    # German to the last note: the kb's German paraphrase (crew:paraphrase), said to be no official text
    assert "Sinngemäß, nicht der amtliche Wortlaut (in den mitgelieferten Texten nicht enthalten): „Decksfrau – AT" in de
    assert "the applicant" not in de
    assert "englischer Wortlaut" not in de and "Quelle: der Wortlaut ist nicht in den von crewkg" in " ".join(de.split())
    en = CliRunner().invoke(app, ["explain", person, "Decksmann-AT", "--as-of", AS_OF, "--lang", "en"]).stdout
    assert "English paraphrase in the kb, not the official text: „Decksfrau – AT" in en and "German text (quoted): „Decksfrau" not in en
    en = CliRunner().invoke(app, ["explain", person, "UBZ-Bootsmann", "--as-of", AS_OF, "--lang", "en"]).stdout
    assert "German text (quoted): „entweder eine als Matrosin bzw. Matrose" in en
