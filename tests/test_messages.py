"""The message catalogues: one gettext .po file per language, the same keys and the same placeholders in each, no
entry fuzzy or empty; what a process reads (the compiled .mo) is what the .po says; numbers and plurals read as
they always have."""

import io
import math
import string

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from crewkg.messages import compiled
from crewkg.messages.catalogue import CATALOGUES, LANGUAGES, catalogue, say, say_plural
from crewkg.messages.wording import amount, count, number


def _po(lang: str):
    with compiled.po_file(lang).open("rb") as f:
        return read_po(f, abort_invalid=True)


CATALOGS = {lang: _po(lang) for lang in ("de", "en")}


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _entries(catalog) -> dict[str, tuple[str, ...]]:
    """Every entry of a .po by key: its msgstr, or its plural forms."""
    return {(m.id[0] if m.pluralizable else m.id): (tuple(m.string) if m.pluralizable else (m.string,))
            for m in catalog if m.id}


def test_the_languages_are_the_catalogues_in_the_locale_folder():
    assert LANGUAGES == ("de", "en")
    assert set(CATALOGUES) == set(LANGUAGES)


def test_every_language_has_the_same_keys_and_placeholders():
    de, en = _entries(CATALOGS["de"]), _entries(CATALOGS["en"])
    assert set(de) == set(en), set(de) ^ set(en)
    for key in de:
        assert len(de[key]) == len(en[key]), key  # a plural entry in one is a plural entry in the other
        assert {frozenset(_fields(t)) for t in de[key]} == {frozenset(_fields(t)) for t in en[key]}, key
    assert len(de) > 800


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_entry_is_fuzzy_or_empty(lang):
    catalog = CATALOGS[lang]
    assert not catalog.fuzzy, "the header is marked fuzzy"
    assert [m.id for m in catalog if m.id and m.fuzzy] == []
    assert [m.id for m in catalog if m.id and not all(m.string if m.pluralizable else [m.string])] == []
    for m in catalog:
        if m.pluralizable:
            assert m.id[1] == m.id[0], f"{m.id}: a plural entry repeats its key as msgid_plural"
            assert len(m.string) == catalog.num_plurals, m.id


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_po_has_a_proper_header(lang):
    catalog = CATALOGS[lang]
    headers = dict(catalog.mime_headers)
    assert headers["Language"] == lang
    assert headers["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert headers["Content-Type"] == "text/plain; charset=utf-8"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_process_reads_what_the_po_says(lang):
    entries = _entries(CATALOGS[lang])
    assert CATALOGUES[lang] == {k: v[0] for k, v in entries.items() if len(v) == 1}
    for key, forms in entries.items():
        if len(forms) > 1:
            assert [say_plural(lang, key, n, n=n) for n in (1, 2)] == [f.format(n=n) for f, n in zip(forms, (1, 2), strict=True)], key


def test_say_fills_the_placeholders_in_each_language():
    assert say("de", "days_role", n="40 Tage", role="Bootsmann") == "noch 40 Tage Fahrzeit als Bootsmann"
    assert say("en", "days_role", n="40 more days", role="boatman") == "40 more days of sailing time as boatman"


def test_an_unknown_language_is_german_and_a_missing_key_is_an_error():
    assert catalogue("fr") is CATALOGUES["de"]
    assert say_plural("fr", "unit.days", 2, n=2) == "2 Tage"
    with pytest.raises(KeyError):
        say("en", "no.such.key")
    with pytest.raises(KeyError):
        say_plural("en", "days_role", 2)  # a message without plural forms


@pytest.mark.parametrize(("x", "de", "en"), [
    (0, "0 Tage", "0 more days"), (1, "1 Tag", "1 more day"), (1.0, "1 Tag", "1 more day"), (2, "2 Tage", "2 more days"),
    (0.5, "0,5 Tage", "0.5 more days"), (1.5, "1,5 Tage", "1.5 more days"), (1.01, "1,01 Tage", "1.01 more days"),
    (12345.25, "12345,25 Tage", "12345.25 more days"), (-0.5, "-0,5 Tage", "-0.5 more days"),
])
def test_plurals_follow_the_number(x, de, en):
    assert amount(x, "days", "de") == count(x, "days", "de") == de
    assert count(x, "days", "en") == en
    assert amount(x, "years", "en") == en.replace("more days", "years").replace("more day", "year")


def _number_as_it_was(x, lang: str) -> str:
    """wording.number before the catalogues moved to Babel: the digits every answer has printed since."""
    if not isinstance(x, float):
        return str(x)
    if x.is_integer():
        return str(int(x))
    text = f"{x:.12g}"
    return text.replace(".", ",") if lang == "de" else text


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(),
                 st.decimals(places=3, min_value=-10_000, max_value=10_000).map(float)),
       st.sampled_from(["de", "en", "fr"]))
def test_numbers_read_digit_for_digit_as_they_did(x, lang):
    assert number(x, lang) == _number_as_it_was(x, lang)


@pytest.mark.parametrize("x", [0.009999999999999787, 1e-05, 1.5e-07, 123456789012.5, math.inf, -math.inf, math.nan])
def test_numbers_at_the_edges_read_as_they_did(x):
    for lang in ("de", "en"):
        assert number(x, lang) == _number_as_it_was(x, lang)


def _locale(tmp_path, text: str):
    po = compiled.po_file("xx", tmp_path)
    po.parent.mkdir(parents=True)
    po.write_text(text, encoding="utf-8")
    return po


PO = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\nmsgid "k"\nmsgstr "{v}"\n'


def test_an_edited_po_is_compiled_anew_and_never_read_through_a_stale_mo(tmp_path):
    po = _locale(tmp_path, PO.format(v="eins"))
    assert compiled.load("xx", tmp_path).messages() == {"k": "eins"}
    (first,) = po.parent.glob("*.mo")
    assert compiled.load("xx", tmp_path).messages() == {"k": "eins"}  # read from the .mo left beside it
    po.write_text(PO.format(v="zwei"), encoding="utf-8")
    assert compiled.load("xx", tmp_path).messages() == {"k": "zwei"}
    assert [p.name for p in po.parent.glob("*.mo")] == [compiled.mo_name(po.read_bytes())] != [first.name]


def test_a_broken_mo_is_compiled_anew(tmp_path):
    po = _locale(tmp_path, PO.format(v="eins"))
    po.with_name(compiled.mo_name(po.read_bytes())).write_bytes(b"not a catalogue")
    assert compiled.load("xx", tmp_path).messages() == {"k": "eins"}


def test_a_folder_that_cannot_be_written_still_reads_the_po(tmp_path, monkeypatch):
    po = _locale(tmp_path, PO.format(v="eins"))

    def refused(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(compiled.tempfile, "mkstemp", refused)
    assert compiled.load("xx", tmp_path).messages() == {"k": "eins"}
    assert list(po.parent.glob("*.mo*")) == []


def test_the_compiled_catalogue_matches_babels_reading(tmp_path):
    data = compiled.compile_po(compiled.po_file("en").read_bytes())
    translations = compiled.Translations(io.BytesIO(data))
    assert translations.messages() == CATALOGUES["en"]
