"""The documentation says what is true on a fresh clone: the README's and docs/python-api.md's examples run as
doctests (from the repository's top folder, one law load), every input the README writes out is the bundled example
it names, the key tables of the input pages list the keys the code reads, and every relative link of the README and
of docs/ leads to a file, or a heading, that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from markdown_doctest import run

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", ["docs/python-api.md", "README.md"])
def test_the_examples_run(page, law, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name kb/examples/... as a reader in a clone would
    results = run(str(ROOT / page))
    assert results.attempted > 0, page
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {page} failed (see above)"


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, len(lines)
    assert lines[0].startswith("# crewkg")


def _blocks_after(marker: str, text: str) -> list[tuple[str, str, str]]:
    """(path named in the marker, the fenced block's info string, the block) for every `<!-- MARKER PATH -->` line
    right above a fenced block."""
    pattern = re.compile(rf"^<!-- {marker} (\S+) -->\n```(\w*)\n(.*?)^```$", re.M | re.S)
    return pattern.findall(text)


def test_the_readme_inputs_are_the_bundled_examples():
    found = _blocks_after("same as:", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(found) >= 4, found
    for path, info, block in found:
        source = (ROOT / path).read_text(encoding="utf-8")
        if info == "yaml":
            assert yaml.safe_load(block) == yaml.safe_load(source), path
        else:  # the file's first lines, as they are
            assert source.splitlines()[: len(block.splitlines())] == block.splitlines(), path


def _table_keys(text: str, heading: str) -> set[str]:
    """The `keys` in the first column of the first table under `heading`."""
    lines = text.split(heading, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    rows = lines[start + 2:end]  # below the header and its separator
    return {key for row in rows for key in re.findall(r"`([^`]+)`", row.split("|")[1])}


def test_the_person_record_page_lists_every_key(law):
    from crewkg.records import flat, persons

    text = (ROOT / "docs" / "person-records.md").read_text(encoding="utf-8")
    assert _table_keys(text, "## The keys") == set(persons.FIELDS)
    inner = [persons.PROGRAMME_FIELDS, persons.SERVICE_FIELDS, persons.EXAM_FIELDS, persons.CERTIFICATE_FIELDS,
             persons.MEDICAL_FIELDS, persons.APPRENTICESHIP_FIELDS, persons.SEA_KEYS, flat.columns(law)]
    prose = re.sub(r"(?ms)^```.*?^```$", "", text)
    said = {k for code in re.findall(r"`([^`]+)`", prose) for k in re.findall(r"[\w.<>]+", code)}
    roles = {f"sailing_days.{r}" for r in law.ids_of("DeckCrewRole")}  # the CSV's sailing_days.<Role>
    missing = {k for keys in inner for k in keys if k not in said and not (k in roles and "sailing_days.<Role>" in said)}
    assert not missing, missing


def test_the_programme_page_lists_every_key():
    from crewkg.careers.programmes import ENTRY_KEYS, PROGRAMME_KEYS

    text = (ROOT / "docs" / "programmes-and-cohorts.md").read_text(encoding="utf-8")
    assert _table_keys(text, "## A programme design") == PROGRAMME_KEYS
    assert all(f"`{k}`" in text for k in ENTRY_KEYS)


def test_the_vessel_page_lists_every_key(manning):
    text = (ROOT / "docs" / "vessels-and-rosters.md").read_text(encoding="utf-8")
    keys = {a.key for a in manning.attributes.values()}
    assert _table_keys(text, "## The vessel record") == {k.split(".", 1)[0] for k in keys}
    assert all(k.split(".", 1)[1] in text for k in keys if "." in k)


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```$", "", page.read_text(encoding="utf-8"))
    return {_anchor(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_leads_somewhere(page):
    text = re.sub(r"(?ms)^```.*?^```$", "", page.read_text(encoding="utf-8"))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(target)
    assert not broken, broken
