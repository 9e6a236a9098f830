"""Reading record files (YAML or JSON) safely: bounded in size, nesting and YAML aliases, regular files only, one
reading of duplicate keys and byte-order marks for both formats. Every failure is an InputError naming the file;
no message quotes more than a short prefix of what was read.

A record is small: a person with a 40-year daily Schifferdienstbuch is about 1 MB. The limits below leave ample room
for that and stop hostile input (a 300-byte YAML alias bomb expands to gigabytes; a named pipe never ends)."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import QUOTE_LIMIT, InputError, Phrase, Reason, os_reason
from crewkg.messages.catalogue import say

MAX_BYTES = 16 * 1024 * 1024  # one record file
MAX_DEPTH = 32  # nesting of mappings and lists
MAX_ALIASES = 64  # YAML aliases (*name) in one record
MAX_NODES = 2_000_000  # values in one record, aliases expanded
#: the largest number a record may give (days, months, years, persons, metres, kilowatts): none of the law's counts
#: comes near it, and far above it arithmetic fails (a float of 10**400, a date 10**100 months ahead)
MAX_NUMBER = 100_000
#: the latest day a record may name: the law's periods (years of validity, months of a medical proof, renewal
#: birthdays) are reckoned forward from a record's days, and past 31 December 9999 no day can be named (a proof
#: `valid_until: 9999-12-31` made every answer fail). A century leaves room for every period of the law.
LATEST_DAY = date(9899, 12, 31)
#: the most digits a JSON integer is converted with (Python refuses more than 4 300, and converting a long digit string
#: costs time that grows with its square); a longer one is read as TooManyDigits, so its field can be named
MAX_DIGITS = 4000


def read_text(path: Path, what: str = "record") -> str:
    """The text of a regular file of bounded size (a pipe, a device or a folder is refused, not read). `what` names
    the kind of file in messages (`error.what.<what>`: record, register, cohort, csv)."""
    kind = Phrase("error.what." + what)
    try:
        st = path.stat()
    except OSError as exc:
        raise InputError(str(path), "", "readable_existing", os_reason(exc), what=kind) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(str(path), "", "regular_file", what=kind)
    if st.st_size > MAX_BYTES:
        raise InputError(str(path), "", "file_size", f"{st.st_size} bytes", what=kind, mib=MAX_BYTES // (1024 * 1024))
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(str(path), "", "readable", os_reason(exc), what=kind) from None
    if len(data) > MAX_BYTES:
        raise InputError(str(path), "", "file_size", what=kind, mib=MAX_BYTES // (1024 * 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(str(path), "", "utf8") from None
    return text[1:] if text.startswith("\ufeff") else text  # a byte-order mark is no content, in YAML or JSON


def read_mapping(path: Path, what: str = "record", list_ok: bool = False) -> Any:
    """Parse a YAML or JSON record file within the limits above (`list_ok`: a list is read too, as a cohort's)."""
    return parse_mapping(read_text(path, what), str(path), json_syntax=path.suffix.lower() == ".json", list_ok=list_ok)


def parse_mapping(text: str, source: str, json_syntax: bool = False, in_line: bool = False,
                  list_ok: bool = False) -> Any:
    """Parse record text (also an upload or a request body): duplicate keys refused in both syntaxes, depth and
    size bounded. `in_line`: the text is one line of a JSON Lines file, whose source names the line, so a syntax
    error gives only its column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise InputError(source, "", "non_empty")
    if json_syntax:
        try:
            value = load_json(text, source)
        except json.JSONDecodeError as exc:
            if in_line:
                raise InputError(source, "", "json_syntax_column", column=exc.colno, reason=Reason(exc.msg)) from None
            raise InputError(source, "", "json_syntax", line=exc.lineno, column=exc.colno, reason=Reason(exc.msg)) from None
    else:
        value = _yaml(text, source)
    if not isinstance(value, dict) and not (list_ok and isinstance(value, list)):  # its content is not quoted: the
        # file may be anything (a link to a system file)
        raise InputError(source, "", "record_mapping", type(value).__name__)
    check_shape(value, source)
    return value


def load_json(text: str, source: str) -> Any:
    """JSON as a record (or a request body) is read: a duplicate key refused, an integer of more than MAX_DIGITS
    digits kept as TooManyDigits (its field is named by the schema check), nesting the parser cannot follow refused
    naming the field where it goes too deep. A syntax error is raised as `json.JSONDecodeError`, for the caller to
    place (a line of a file, a column of a JSON Lines line, a request body)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs, parse_int=_integer)
    except json.JSONDecodeError:
        raise
    except _Duplicate as exc:
        raise InputError(source, printable(str(exc.key)[:60]), "unique_key") from None
    except RecursionError:
        raise InputError(source, _deep_field(text, MAX_DEPTH), "json_depth", depth=MAX_DEPTH) from None
    except ValueError as exc:  # a number Python cannot convert
        raise InputError(source, "", "json_values", reason=Reason(str(exc)[:80])) from None


class TooManyDigits(int):
    """A JSON integer of more than MAX_DIGITS digits: a number beyond any a record allows (so the schema check says
    'at most 100 000' and names the field), quoted by its own first digits."""

    text: str

    def __new__(cls, text: str) -> TooManyDigits:
        self = super().__new__(cls, -(10 ** MAX_DIGITS) if text.startswith("-") else 10 ** MAX_DIGITS)
        self.text = text
        return self

    def __repr__(self) -> str:
        return self.text[:QUOTE_LIMIT + 3]

    __str__ = __repr__


def _integer(text: str) -> int:
    return int(text) if len(text) <= MAX_DIGITS else TooManyDigits(text)


def check_shape(value: Any, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, more than MAX_ALIASES reused mappings or lists (a YAML alias makes the
    loader reuse one object, with either PyYAML loader), more than MAX_NODES values (aliases counted as expanded) and
    a text with a lone surrogate (JSON's "\\ud800" is no character: nothing can be written from it, not even the
    refusal). A refusal of depth or text names the field."""
    count = 0
    seen: set[int] = set()
    reused = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise InputError(source, "", "record_values", n=MAX_NODES)
        if isinstance(v, str):
            if not v.isascii() and _SURROGATE.search(v):
                raise InputError(source, field_of(value, v), "unicode_text", v)
        elif isinstance(v, (dict, list)):
            if id(v) in seen:
                reused += 1
                if reused > MAX_ALIASES:
                    raise InputError(source, "", "record_aliases", n=MAX_ALIASES)
            seen.add(id(v))
            if depth >= MAX_DEPTH:
                raise InputError(source, field_of(value, v), "record_depth", depth=MAX_DEPTH)
            items = list(v.keys()) + list(v.values()) if isinstance(v, dict) else v
            stack.extend((x, depth + 1) for x in items)


_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """A text as it can be written: a lone surrogate spelt as its escape (\\ud800)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if _SURROGATE.search(text) else text


def field_of(root: Any, target: Any) -> str:
    """The field path of `target` (a value or a key) in a parsed record, as the schema check spells fields:
    `service[0].vessel`, `sailing_days.Matrose`. Only asked after a refusal; '' for the record itself."""
    stack: list[tuple[Any, str]] = [(root, "")]
    seen: set[int] = set()
    while stack:
        v, path = stack.pop()
        if v is target:
            return path
        if not isinstance(v, (dict, list)) or id(v) in seen:
            continue
        seen.add(id(v))
        for k, x in (v.items() if isinstance(v, dict) else enumerate(v)):
            sub = f"{path}[{k}]" if isinstance(v, list) else f"{path}.{printable(str(k))}" if path else printable(str(k))
            if k is target:
                return sub
            stack.append((x, sub))
    return ""


#: the tokens of JSON text that decide where a value sits: strings (skipped whole), brackets, colons, commas
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')


def _deep_field(text: str, limit: int) -> str:
    """The field at which JSON text nests deeper than `limit`, found on the text (the parser gave up before it made
    any value). Each open bracket is a frame: a list's index, or an object's key (the string read where a key is
    due)."""
    frames: list[list[Any]] = []  # [kind, index or key, a key is due]
    for m in _JSON_TOKENS.finditer(text):
        t = m.group()
        if t in "[{":
            if len(frames) >= limit:
                return "".join(f"[{k}]" if kind == "[" else f".{k}" for kind, k, _ in frames).lstrip(".")
            frames.append(["[", 0, False] if t == "[" else ["{", "", True])
        elif t in "]}":
            if frames:
                frames.pop()
        elif not frames:
            continue
        elif t == ",":
            top = frames[-1]
            if top[0] == "[":
                top[1] += 1
            else:
                top[2] = True
        elif t == ":":
            frames[-1][2] = False
        elif frames[-1][0] == "{" and frames[-1][2]:  # a string where a key is due
            frames[-1][1] = printable(t[1:-1])[:60]
    return ""


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


def _yaml(text: str, source: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=_loader())
    except RecursionError:
        raise InputError(source, "", "yaml_depth", depth=MAX_DEPTH) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        pos = Phrase("error.yaml_position", line=mark.line + 1, column=mark.column + 1) if mark else ""
        problem = getattr(exc, "problem", None)
        reason = Phrase("error.yaml_reason", reason=Reason(str(problem)[:120])) if problem else ""
        raise InputError(source, "", "yaml_syntax", position=pos, reason=reason) from None
    except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:  # a list as a key, 5 000 digits, !!binary x
        raise InputError(source, "", "yaml_values", reason=Reason(str(exc)[:80])) from None


_LOADER: list[type] = []


def _loader() -> type:
    """SafeLoader (the C one where PyYAML has it) that refuses duplicate keys, counts aliases, keeps dates as text
    for the schema check (so it can name the field of an impossible date like 2001-02-30)."""
    if _LOADER:
        return _LOADER[0]
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        pass

    def construct_mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            try:
                dup = key in seen
            except TypeError:
                raise yaml.constructor.ConstructorError(None, None, say("en", "error.reason.yaml_plain_key"),
                                                        key_node.start_mark) from None
            if dup:
                raise yaml.constructor.ConstructorError(None, None, say("en", "error.reason.yaml_duplicate_key",
                                                                        name=repr(str(key)[:60])), key_node.start_mark)
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    Loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    # a date stays text even when tagged (`!!timestamp 2001-02-30`): the schema check names its field
    Loader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)
    _LOADER.append(Loader)
    return Loader


#: whether rdflib's complaints about ill-typed literals are dropped in this thread or task (ill_typed_literals_unlogged)
_UNLOGGED: contextvars.ContextVar[bool] = contextvars.ContextVar("crewkg_ill_typed_literals_unlogged", default=False)


class _DropWhileUnlogged(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not _UNLOGGED.get()


@contextmanager
def ill_typed_literals_unlogged() -> Iterator[None]:
    """Within: rdflib does not log 'Failed to convert Literal lexical form to value' with a traceback for an
    ill-typed literal (`"abc"^^xsd:integer`) on standard error — the schema check or the shapes name it as bad input,
    in one clean message (issue 44). Scoped to this thread or task (a context variable read by a filter on rdflib's
    logger), so other threads' logging is untouched."""
    logger = logging.getLogger("rdflib.term")
    if not any(isinstance(f, _DropWhileUnlogged) for f in logger.filters):
        logger.addFilter(_DropWhileUnlogged())
    token = _UNLOGGED.set(True)
    try:
        yield
    finally:
        _UNLOGGED.reset(token)
