"""One message catalogue per language, the gettext file `messages/locale/<lang>/LC_MESSAGES/crewkg.po` (msgid the key,
msgstr the sentence): the one place a sentence for people is written. Code asks `say(lang, key, **fields)`, or
`say_plural(lang, key, count, **fields)` for a sentence whose words follow a number ('1 day', '40 days'); it never
builds a sentence with an f-string of its own. The files are read compiled (`messages.compiled`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from crewkg.messages import compiled

#: the languages crewkg speaks: one folder each under messages/locale/
LANGUAGES = compiled.languages()
#: the law's language, spoken where a language is unknown
_DEFAULT = "de"
_T = TypeVar("_T")


class _PerLanguage(Mapping[str, _T]):
    """lang → what `read(lang)` gives for each of LANGUAGES, read on first use and the same object ever after: a
    process that speaks one language reads one catalogue."""

    def __init__(self, read: Callable[[str], _T]) -> None:
        self._read = read
        self._done: dict[str, _T] = {}

    def __getitem__(self, lang: str) -> _T:
        if lang not in self._done:
            if lang not in LANGUAGES:
                raise KeyError(lang)
            self._done.setdefault(lang, self._read(lang))  # two threads at once: both keep the first one read
        return self._done[lang]

    def __contains__(self, lang: object) -> bool:
        return lang in LANGUAGES

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


_TRANSLATIONS: Mapping[str, compiled.Translations] = _PerLanguage(compiled.load)
#: every message without plural forms, by language and key
CATALOGUES: Mapping[str, dict[str, str]] = _PerLanguage(lambda lang: _TRANSLATIONS[lang].messages())


def catalogue(lang: str) -> dict[str, str]:
    """The messages of one language (German where the language is unknown: German is the law's language)."""
    return CATALOGUES[lang if lang in CATALOGUES else _DEFAULT]


def say(lang: str, key: str, **fields: object) -> str:
    """The sentence `key` in `lang`, its placeholders filled from `fields`."""
    return catalogue(lang)[key].format(**fields)


def say_plural(lang: str, key: str, count: float, **fields: object) -> str:
    """The form of the plural message `key` that `count` takes in `lang` (gettext's ngettext, by the Plural-Forms of
    the language's .po), its placeholders filled from `fields`. German where the language is unknown, as `say`."""
    if lang not in _TRANSLATIONS:
        lang = _DEFAULT
    return _TRANSLATIONS[lang].form(key, _whole(count, lang)).format(**fields)


def _whole(count: float, lang: str) -> int:
    """The whole number whose plural form `count` takes. gettext's Plural-Forms are written for whole numbers; a
    fraction (1,5 Tage, 0.5 days) is placed by the language's CLDR plural rule (Babel, loaded only then), which puts
    it in the category of some whole numbers: the smallest of them stands for it."""
    if isinstance(count, int):
        return count
    if float(count).is_integer():
        return int(count)
    from babel.core import Locale

    rule = Locale.parse(lang).plural_form
    category = rule(count)
    return next((n for n in range(1000) if rule(n) == category), round(count))
