"""`crewkg explain` for people (issue 42): every provision's wording quoted once, the kb's notes said in the reader's
words (no marker of the kb's convention: LITERAL, INTERPRETATION, 'wording outside the bundled texts' …), a count in
any role said as parts that add up to it, and the derivation as data (`--format json`, `crewkg.api.explain`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.markup import escape
from typer.testing import CliRunner

import crewkg
from crewkg.answers.explanation import derivation, lines
from crewkg.cli import app
from crewkg.law.notes import KINDS, segments

EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples"
PERSONS = sorted(p for p in (EXAMPLES / "persons").iterdir() if p.suffix in (".yaml", ".json", ".ttl"))
AS_OF = "2026-11-30"

#: the markers of the kb's convention (law.notes) and the phrases that said a wording's source the maintainers' way
MARKERS = re.compile(r"\b(?:LITERAL|INTERPRETATION|WÖRTLICH|AUSLEGUNG|NOT IN THE SOURCES|NICHT IN DEN QUELLEN|"
                     r"NOT IN THE BUNDLED TEXTS|NICHT IN DEN MITGELIEFERTEN TEXTEN|NOT CHECKED|NICHT GEPRÜFT|"
                     r"NOT COVERED|NICHT ABGEDECKT|FLAG|PRÜFHINWEIS|PLANNING ASSUMPTIONS|PLANUNGSANNAHMEN)\b|"
                     r"wording outside the bundled texts|Wortlaut nicht in den mitgelieferten Texten|"
                     r"Wording from the RIS|Wortlaut aus dem RIS")
#: a count in any role said as its parts: 'sailing_days: 720 credited = 360 as Decksmann + 360 as Matrose'
SUM = re.compile(r"^sailing_days(?: \+ sea_days)?: (\d+) (?:credited|angerechnet) = (.+)$")


def _nodes(tree: dict) -> list[dict]:
    """Every pathway and requirement of a tree, parts and alternatives included."""
    out, todo = [], list(tree["pathways"])
    while todo:
        node = todo.pop(0)
        out.append(node)
        todo += node.get("requirements", []) + node.get(node.get("combine") or "", [])
    return out


def _explanations(person: Path, lang: str) -> list[tuple[str, dict, str]]:
    """(certificate, tree, text without wrapping) for every certificate of the kb, from one check of the person."""
    law = crewkg.law()
    record = crewkg.person(person, AS_OF)
    answer = crewkg.check(record, AS_OF, lang)
    out = []
    for c in sorted(law.certificates):
        tree = derivation(law, record, answer, c, lang)
        out.append((c, tree, "\n".join(line.text for line in lines(tree))))
    return out


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("person", PERSONS, ids=[p.stem for p in PERSONS])
def test_every_explanation_quotes_each_wording_once_and_prints_no_marker(person, lang):
    for cert, tree, text in _explanations(person, lang):
        where = f"{person.stem} {cert} {lang}"
        hit = MARKERS.search(text)
        assert hit is None, f"{where}: …{text[max(0, hit.start() - 80):hit.end() + 40]}…"
        nodes = _nodes(tree)
        quoted = [n["wording"] for n in nodes if n["wording"] is not None]
        assert [w for w, k in Counter(quoted).items() if k > 1] == [], where
        assert not [(a, b) for a in quoted for b in quoted if a is not b and a.strip("…,.;: ") in b], where
        for w in quoted:  # the wording stands once in the text too (a later mention only cites it)
            assert text.count(f"„{escape(w)}“") == 1, (where, w[:60])
        at = {n["id"] for n in nodes if n["wording"] is not None}
        assert {n["quoted_at"] for n in nodes if n["quoted_at"] is not None} <= at, where
        assert len([n for n in nodes if n["wording"] is not None]) == len(quoted) == len(at), where
        assert json.loads(json.dumps(tree)) == tree, where
        for n in nodes:
            for part in n["notes"]:
                assert part["kind"] in KINDS and part["text"] and not MARKERS.search(part["text"]), (where, part)
            for line in n.get("facts") or []:
                found = SUM.match(line)
                if found:  # the parts add up to the total
                    parts = [int(x.split(" ", 1)[0]) for x in found[2].split(" + ") if x[:1].isdigit()]
                    assert sum(parts) == int(found[1]), (where, line)


def test_days_in_two_roles_add_up_and_the_limit_over_all_roles_is_said():
    """180 days as Decksmann, then 184 and 122 as Matrose within a year of them: the days of every role together are
    credited under one limit (at most 180 in any 365 consecutive days), so the count in any role is 303 — 180 as
    Decksmann and 123 as Matrose, though the days as Matrose counted on their own give 180 (the count of § 13 Z 1). It
    once said '303 (Decksmann 180, Matrose 180)', which does not add up."""
    record = {"id": "two-roles", "birth_date": "1990-01-01", "medical_fitness": True,
              "service": [{"from": "2024-01-01", "to": "2024-06-30", "role": "Decksmann"},
                          {"from": "2024-07-01", "to": "2024-12-31", "role": "Matrose"},
                          {"from": "2025-03-01", "to": "2025-06-30", "role": "Matrose"}]}
    tree = crewkg.explain(record, "UBZ-Matrose", as_of="2025-12-01", lang="en")["tree"]
    days = next(n for n in _nodes(tree) if n["id"] == "Req-SchBV2022-P12-Z2-c-1")
    assert days["have"] == 303
    assert days["facts"][0] == ("sailing_days: 303 credited = 180 as Decksmann + 123 as Matrose (180 when the days as "
                                "Matrose are counted on their own)")
    assert days["facts"][1].startswith("488 days recorded in all deck roles: at most 180 days in any 365 consecutive days "
                                       "count, all roles together (§ 6 Abs. 4 SchBV")
    assert days["facts"][1].endswith("185 of them are left out")
    de = crewkg.explain(record, "UBZ-Bootsmann", as_of="2025-12-01", lang="de")["tree"]
    matrose = next(n for n in _nodes(de) if n["id"] == "Req-SchBV2022-P13-Z1")
    assert matrose["facts"][0] == "sailing_days.Matrose = 180"
    assert "für jede Funktion für sich" in matrose["facts"][1] and "126 davon werden nicht angerechnet" in matrose["facts"][1]


def test_a_record_of_totals_adds_its_roles():
    tree = crewkg.explain(EXAMPLES / "persons" / "anna-matrose.yaml", "UBZ-Steuermann", as_of=AS_OF, lang="en")["tree"]
    facts = [n["facts"] for n in _nodes(tree) if n.get("facts") and SUM.match(n["facts"][0])]
    assert facts and all(f == ["sailing_days + sea_days: 380 credited = 200 as Decksmann + 180 as Matrose + 0 at sea "
                               "(AsDeckCrew)"] or f == ["sailing_days: 380 credited = 200 as Decksmann + 180 as Matrose"]
                         for f in facts), facts


def test_notes_are_said_in_the_readers_words():
    """An interpretation after 'Reading:' / 'Auslegung:', a wording from outside the bundled texts said in words."""
    person = EXAMPLES / "persons" / "20-franz-schifferdienstbuch.yaml"
    en = crewkg.explain(person, "UBZ-Bootsmann", as_of=AS_OF, lang="en")["text"]
    de = crewkg.explain(person, "UBZ-Bootsmann", as_of=AS_OF, lang="de")["text"]
    flat_en, flat_de = " ".join(en.split()), " ".join(de.split())
    assert "Reading: the identical certificate of a SchBesV 2004 qualification" in flat_en
    assert ("Source: the wording is not in the texts crewkg bundles; it is paraphrased from the regulation as published "
            "(BGBl. II Nr. 42/2022).") in flat_en
    assert "Auslegung: das identische Zeugnis einer Befähigung nach SchBesV 2004" in flat_de
    assert "Quelle: der Wortlaut ist nicht in den von crewkg mitgelieferten Texten enthalten" in flat_de
    # § 47 Abs. 4 SchBV is quoted at its pathway, once; its last sentence, part of that quotation, is not quoted again
    assert flat_en.count("Können die in Z 1 bis Z 3 geforderten Fahrzeiten") == 1
    last = flat_en[flat_en.index("§ 47 Abs. 4 last sentence SchBV: replacement"):]
    assert last.split("✓")[0].split("✗")[0].count("Wording: quoted above (§ 47 Abs. 4 SchBV)") == 1


def test_the_markers_of_every_note_of_the_kb_are_read():
    """Every editorial note of the kb cuts into parts without a marker left in their text (the convention's one home
    is law.notes); the parts keep the order and the topic the note gives them."""
    from rdflib.namespace import SKOS

    from crewkg.law.cache import load_graph
    from crewkg.locations import kb_dir, ontology_dir

    g = load_graph(kb_dir(), ontology_dir())
    left = [(str(s), p.text[:80]) for s, o in g.subject_objects(SKOS.editorialNote) for p in segments(str(o))
            if MARKERS.search(p.text) or MARKERS.search(p.topic or "")]
    assert left == []
    parts = segments("Wording from the RIS, not in the bundled texts (English paraphrase, not quoted). INTERPRETATION "
                     "(two readings): one. LITERAL: 'vor dem' excludes it. FLAG (review flag H.5): odd. NOT CHECKED: x.")
    assert [(p.kind, p.topic, p.text) for p in parts] == [
        ("source", None, ""), ("reading", "two readings", "one."), ("literal", None, "'vor dem' excludes it."),
        ("flag", None, "odd."), ("unchecked", None, "x.")]
    assert [p.kind for p in segments("Plain words. Auslegung wie Z 1: eins.")] == ["note", "reading"]


def test_format_json_prints_the_tree_the_api_returns(tmp_path):
    person = EXAMPLES / "persons" / "03-maria-matrose-to-bootsmann.yaml"
    result = CliRunner().invoke(app, ["explain", str(person), "UBZ-Bootsmann", "--as-of", AS_OF, "--lang", "en",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    tree = json.loads(result.stdout)
    out = crewkg.explain(person, "UBZ-Bootsmann", as_of=AS_OF, lang="en")
    assert tree == out["tree"]
    assert (tree["person"], tree["certificate"]["id"], tree["as_of"], tree["verdict"]) == (
        "maria-hofer", "UBZ-Bootsmann", AS_OF, "not_eligible")
    z1 = tree["pathways"][0]
    assert z1["provision"] == "§ 13 Z 1 SchBV" and z1["wording"].startswith("entweder eine als Matrosin")
    days = z1["requirements"][0]
    assert (days["needed"], days["have"], days["unit"], days["met"], days["quoted_at"]) == (180, 140, "days", False, z1["id"])
    assert days["missing"] == "40 more days of sailing time as boatman (§ 13 Z 1 SchBV)"
    assert {n["kind"] for n in z1["notes"]} == {"literal"}
    text = CliRunner().invoke(app, ["explain", str(person), "UBZ-Bootsmann", "--as-of", AS_OF, "--lang", "en"]).stdout
    assert text == out["text"]
