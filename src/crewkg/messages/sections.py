"""A section of the message catalogue as a small dict: the keys under one prefix, with the prefix removed.

Modules that print many related sentences (a plan, a cohort table, a picture's captions) read their section once
(`section("careers.plan.")["route"]`) instead of repeating the prefix on every key."""

from __future__ import annotations

from crewkg.messages.catalogue import CATALOGUES, catalogue


def section(prefix: str, lang: str) -> dict[str, str]:
    """The messages of `lang` whose keys start with `prefix`, keyed without it."""
    return {k.removeprefix(prefix): v for k, v in catalogue(lang).items() if k.startswith(prefix)}


def sections(prefix: str) -> dict[str, dict[str, str]]:
    """`section(prefix, lang)` for every language: {"de": {...}, "en": {...}}."""
    return {lang: section(prefix, lang) for lang in CATALOGUES}
