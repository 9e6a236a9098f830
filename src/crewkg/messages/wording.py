"""How numbers and values read in a sentence, in German (default) or English: '1 Tag' / '40 Tage', yes/no, lists.
The sentences themselves belong to the requirement kinds (`crewkg.rules.kinds`, their `missing`)."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from crewkg.messages.catalogue import CATALOGUES, LANGUAGES, catalogue, say_plural

T = CATALOGUES


def number(x: Any, lang: str = "en") -> str:
    """A number as people write it: 3 rather than 3.0, 0.01 rather than the 0.009999999999999787 a subtraction of
    binary floats leaves (twelve significant digits), and by the language's rules (Babel): in German with a decimal
    comma (0,01), never with a thousands separator. A language crewkg does not speak writes English numbers."""
    if not isinstance(x, float):
        return str(x)
    if x.is_integer():
        return str(int(x))
    text = f"{x:.12g}"
    if "e" in text or not math.isfinite(x):  # Babel writes no exponent: such a number reads as it always has
        return text.replace(".", ",") if lang == "de" else text
    from babel.numbers import format_decimal  # loaded only for a fraction: most answers count whole days

    return format_decimal(Decimal(text), locale=lang if lang in LANGUAGES else "en", group_separator=False,
                          decimal_quantization=False)


def amount(x: Any, unit: str, lang: str) -> str:
    """'1 Tag' / '40 Tage', '1 day' / '40 days': an amount, not what is still missing (`count`)."""
    return say_plural(lang, f"unit.{unit}", x, n=number(x, lang))


def count(x: Any, unit: str, lang: str) -> str:
    """'1 Tag' / '40 Tage' (after 'noch'), '1 more day' / '40 more days'."""
    return say_plural(lang, f"unit.{unit}.more", x, n=number(x, lang))


def period(months: int, lang: str) -> str:
    """A proof's period in words: in years where the months make whole years ('5 years'), else in months, as
    the provisions state them (§ 5 Abs. 3 SchBesV: 15 months; § 30 SchBV: 5 years)."""
    t = catalogue(lang)
    if months % 12 == 0:
        return t["lapsed.period.years"].format(n=months // 12)
    return t["lapsed.period.months"].format(n=months)


def value(x: Any, lang: str) -> str:
    """A needed/have value for people: yes/no for a document, ids joined for a list, "—" for nothing."""
    t = catalogue(lang)
    if isinstance(x, bool):
        return t["cli.yes"] if x else t["cli.no"]
    if isinstance(x, (list, tuple)):
        return ", ".join(str(v) for v in x) or t["none"]
    return "—" if x is None else str(x)
