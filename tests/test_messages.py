"""The message catalogues: one per language, the same keys and the same placeholders in each."""

import string

from crewkg.messages.catalogue import CATALOGUES, say


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_the_same_keys_and_placeholders():
    de, en = CATALOGUES["de"], CATALOGUES["en"]
    assert set(de) == set(en), set(de) ^ set(en)
    for key in de:
        assert _fields(de[key]) == _fields(en[key]), key


def test_say_fills_the_placeholders_in_each_language():
    assert say("de", "days_role", n="40 Tage", role="Bootsmann") == "noch 40 Tage Fahrzeit als Bootsmann"
    assert say("en", "days_role", n="40 more days", role="boatman") == "40 more days of sailing time as boatman"
