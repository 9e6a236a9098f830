"""One message catalogue per language (`messages/de.py`, `messages/en.py`): the one place a sentence for people
is written. Code asks `say(lang, key, **fields)`; it never builds a sentence with an f-string of its own."""

from __future__ import annotations

from crewkg.messages import de, en

CATALOGUES: dict[str, dict[str, str]] = {"de": de.MESSAGES, "en": en.MESSAGES}
LANGUAGES = tuple(CATALOGUES)


def catalogue(lang: str) -> dict[str, str]:
    """The messages of one language (German where the language is unknown: German is the law's language)."""
    return CATALOGUES.get(lang, CATALOGUES["de"])


def say(lang: str, key: str, **fields: object) -> str:
    """The sentence `key` in `lang`, its placeholders filled from `fields`."""
    return catalogue(lang)[key].format(**fields)
