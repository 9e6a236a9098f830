"""One error type for bad input, so every face (CLI, API) can report file, field and expectation alike, in German
or English. The words live in the message catalogue (`error.*`): an error holds the key of its expectation
(`error.expected.<key>`) and the values that fill it, and says itself in the language asked."""

from __future__ import annotations

import re
import string
from functools import cache

from crewkg.messages.catalogue import catalogue, say


class Phrase:
    """A catalogue sentence by its full key and the values that fill it, said in the language asked (a phrase of a
    message, e.g. the did-you-mean of `error.near`)."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields

    def say(self, lang: str) -> str:
        return say(lang, self.key, **fill(self.fields, lang))

    def __str__(self) -> str:
        return self.say("en")


class Place(Phrase):
    """Where a record stands ('line 7', 'PATH: row 3', a file), said in the language asked (`place`): a message that
    names another record's place, e.g. the first record with the same id."""

    def __init__(self, where: str) -> None:
        super().__init__("", where=where)

    def say(self, lang: str) -> str:
        return place(str(self.fields["where"]), lang)


def os_reason(exc: OSError) -> Phrase:
    """Why a file could not be opened, in the language asked (`error.os.*`), instead of the exception's class name."""
    import errno

    kinds = {errno.ENOENT: "missing", errno.EACCES: "permission", errno.EPERM: "permission", errno.EISDIR: "folder",
             errno.ENOTDIR: "not_folder", errno.ELOOP: "loop", errno.ENAMETOOLONG: "name_too_long"}
    kind = kinds.get(exc.errno) if exc.errno is not None else None
    return Phrase(f"error.os.{kind}") if kind else Phrase("error.os.other", name=type(exc).__name__)


class Reason(Phrase):
    """A parser's or validator's own words (Python's json, PyYAML, rdflib, pySHACL and the shapes' sh:message), said in the language asked where the catalogue has them
    (`error.reason.*`, whose English text begins the parser's: what follows it, e.g. 'value has 5000 digits; use
    sys.set_int_max_str_digits()', is the parser's detail and is left out; the narrowest text that begins it counts,
    `_patterns`); any other text stays the parser's."""

    def __init__(self, text: str) -> None:
        super().__init__("", text=text)

    def say(self, lang: str) -> str:
        return _said_back(_reasons(), str(self.fields["text"]), lang, whole=False)


def fill(fields: dict[str, object], lang: str, got: object = None) -> dict[str, object]:
    """The values of a message in `lang`: a Phrase is said in it, a {"de": ..., "en": ...} value taken in it, a list
    of allowed values joined (`listed`, the ones nearest `got` where it is long)."""
    out = {}
    for k, v in fields.items():
        if isinstance(v, Phrase):
            v = v.say(lang)
        elif isinstance(v, dict) and set(v) == {"de", "en"}:
            v = v[lang if lang in v else "de"]
        elif isinstance(v, (list, tuple)):
            v = listed(v, got)
        out[k] = v
    return out


#: a list of allowed values longer than this many characters is shortened to the ones nearest what was written
LIST_LIMIT = 320
#: how many of a long list's values a message shows
LIST_SHOWN = 8


def listed(values: list | tuple, got: object = None) -> str:
    """Allowed values as a message writes them: 'a, b, c'. A long list (the kb's ~30 certificate ids) gives the
    `LIST_SHOWN` values nearest `got`, in the list's order, and '…' for the rest."""
    import difflib

    items = [str(v) for v in values]
    text = ", ".join(items)
    if len(text) <= LIST_LIMIT:
        return text
    if isinstance(got, str):
        lower = {i.lower(): i for i in items}
        chosen = {lower[m] for m in difflib.get_close_matches(got.lower(), list(lower), n=LIST_SHOWN, cutoff=0)}
    else:
        chosen = set(items[:LIST_SHOWN])
    return ", ".join([i for i in items if i in chosen] + ["…"])


class InputError(Exception):
    """Bad input: names the file, the field and what was expected.

    `expected` is the name of the expectation in the catalogue (`error.expected.<name>`), its placeholders filled
    from `fields`; a text that is no such name is taken as the expectation itself (in every language: for programs
    that raise InputError of their own). `exc.expected` is the English expectation (the API's field), and
    `exc.message(lang)` the whole sentence."""

    def __init__(self, file: str, field: str, expected: str, got: object | None = None, **fields: object) -> None:
        self.file = file
        self.field = field
        self.key = expected
        self.fields = fields
        self.got = got
        self.expected = self.expected_in("en")
        super().__init__(self.message())

    def __reduce__(self):
        """Picklable with its fields (worker processes send errors back and forth; Exception's default would call
        __init__ with the message alone)."""
        return (_rebuild, (type(self), self.file, self.field, self.key, self.got, self.fields))

    def at(self, file: str | None = None, field: str | None = None) -> InputError:
        """The same error, said of another file or field (a record inside a roster, an uploaded file's name)."""
        return InputError(self.file if file is None else file, self.field if field is None else field, self.key,
                          self.got, **self.fields)

    def expected_in(self, lang: str) -> str:
        text = catalogue(lang).get("error.expected." + self.key)
        if text is None:
            return self.key
        return text.format(**fill(self.fields, lang, self.got))

    def message(self, lang: str = "en") -> str:
        """'FILE: field 'x': expected … (got …)' in English, 'FILE: Feld „x“: erwartet wird … (erhalten: …)' in German."""
        return say(lang, "error.message", where=say(lang, "error.where", file=place(self.file, lang)) if self.file else "",
                   field=say(lang, "error.field", field=self.field) if self.field else "",
                   expected=self.expected_in(lang),
                   got="" if self.got is None else say(lang, "error.got", got=self.got.say(lang) if isinstance(
                       self.got, Phrase) else quote(self.got)))


def place(file: str, lang: str) -> str:
    """Where a record stands, in `lang`: the faces write a register's 'PATH: line 7', a CSV's 'PATH: row 3' or the
    service's 'request body' in English (the JSON `file`/`line` fields keep that); a message says it in the language
    asked, after the catalogue's `error.source.*` forms."""
    return _said_back(_sources(), file, lang, whole=True)


def _said_back(patterns: list[tuple[str, re.Pattern]], text: str, lang: str, whole: bool) -> str:
    """An English text of the catalogue (`_patterns`) said in `lang`, its placeholders read back from it: the first
    pattern that matches the whole text (`whole`) or its beginning; any other text as it is."""
    if lang == "en" or not text:
        return text
    for key, pattern in patterns:
        m = pattern.fullmatch(text) if whole else pattern.match(text)
        if m:
            return say(lang, key, **m.groupdict())
    return text


@cache
def _sources() -> list[tuple[str, re.Pattern]]:
    return _patterns("error.source.")


@cache
def _reasons() -> list[tuple[str, re.Pattern]]:
    return _patterns("error.reason.")


def _patterns(prefix: str) -> list[tuple[str, re.Pattern]]:
    """The English catalogue texts under `prefix` as patterns that read their placeholders back ({n}: a number),
    the narrower first: a text that begins another ('EOF found', 'EOF found when expected verb …') has fewer written
    characters, so the most written characters come first (the catalogue's own order is not kept: gettext's .mo
    sorts its keys)."""
    out = []
    for key, text in catalogue("en").items():
        if key.startswith(prefix):
            parsed = list(string.Formatter().parse(text))
            parts = [re.escape(lit) + ("" if name is None else rf"(?P<{name}>\d+)" if name == "n" else rf"(?P<{name}>.+)")
                     for lit, name, _, _ in parsed]
            out.append((sum(len(lit) for lit, _, _, _ in parsed), key, re.compile("".join(parts), re.S)))
    return [(key, pattern) for _, key, pattern in sorted(out, key=lambda x: (-x[0], x[1]))]


def _spelled(value: object, depth: int = 0) -> str:
    """A value as YAML and JSON write true, false and null (Python's repr says True, False, None); a text and any
    other value as repr, a text inside a list or mapping cut to `QUOTE_LIMIT` (the whole is cut by `quote`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value) if len(value) <= QUOTE_LIMIT else repr(value[:QUOTE_LIMIT])
    if depth < 3 and isinstance(value, (list, tuple)):
        return "[" + ", ".join(_spelled(v, depth + 1) for v in value[:QUOTE_LIMIT]) + "]"
    if depth < 3 and isinstance(value, dict):
        pairs = list(value.items())[:QUOTE_LIMIT]
        return "{" + ", ".join(": ".join((_spelled(k, depth + 1), _spelled(v, depth + 1))) for k, v in pairs) + "}"
    return repr(value)


def _rebuild(cls, file, field, key, got, fields):
    return cls(file, field, key, got, **fields)


def near(value: object, known) -> Phrase | str:
    """'; did you mean 'sailing_days'?' when a known name is close to what was written (a typo, another case)."""
    import difflib

    if not isinstance(value, str):
        return ""
    names = {str(k).lower(): str(k) for k in known}
    found = difflib.get_close_matches(value.lower(), list(names), n=1, cutoff=0.6)
    return Phrase("error.near", name=repr(names[found[0]])) if found else ""


#: at most this many characters of a value are quoted in a message: enough to recognise it, never a whole file
QUOTE_LIMIT = 60


def quote(value: object) -> str:
    """A short, printable prefix of a value for messages (a huge or hostile value is not echoed whole), spelt as in
    the YAML or JSON it came from: true, false, null; a text in quotes."""
    text = _spelled(value)
    if len(text) > QUOTE_LIMIT + 2:
        text = text[:QUOTE_LIMIT] + "…"
    elif isinstance(value, str) and len(value) > QUOTE_LIMIT:
        text += "…"
    return text
