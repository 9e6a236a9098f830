"""Reading record files (YAML or JSON) safely: bounded in size, nesting and YAML aliases, regular files only, one
reading of duplicate keys and byte-order marks for both formats. Every failure is an InputError naming the file;
no message quotes more than a short prefix of what was read.

A record is small: a person with a 40-year daily Schifferdienstbuch is about 1 MB. The limits below leave ample room
for that and stop hostile input (a 300-byte YAML alias bomb expands to gigabytes; a named pipe never ends)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Phrase, Reason, os_reason
from crewkg.messages.catalogue import say

MAX_BYTES = 16 * 1024 * 1024  # one record file
MAX_DEPTH = 32  # nesting of mappings and lists
MAX_ALIASES = 64  # YAML aliases (*name) in one record
MAX_NODES = 2_000_000  # values in one record, aliases expanded
#: the largest number a record may give (days, months, years, persons, metres, kilowatts): none of the law's counts
#: comes near it, and far above it arithmetic fails (a float of 10**400, a date 10**100 months ahead)
MAX_NUMBER = 100_000


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
            value = json.loads(text, object_pairs_hook=_unique_pairs)
        except json.JSONDecodeError as exc:
            if in_line:
                raise InputError(source, "", "json_syntax_column", column=exc.colno, reason=Reason(exc.msg)) from None
            raise InputError(source, "", "json_syntax", line=exc.lineno, column=exc.colno, reason=Reason(exc.msg)) from None
        except _Duplicate as exc:
            raise InputError(source, str(exc.key)[:60], "unique_key") from None
        except RecursionError:
            raise InputError(source, "", "json_depth", depth=MAX_DEPTH) from None
        except ValueError as exc:  # e.g. an integer of more digits than Python converts
            raise InputError(source, "", "json_values", reason=Reason(str(exc)[:80])) from None
    else:
        value = _yaml(text, source)
    if not isinstance(value, dict) and not (list_ok and isinstance(value, list)):  # its content is not quoted: the
        # file may be anything (a link to a system file)
        raise InputError(source, "", "record_mapping", type(value).__name__)
    check_shape(value, source)
    return value


def check_shape(value: Any, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, more than MAX_ALIASES reused mappings or lists (a YAML alias makes the
    loader reuse one object, with either PyYAML loader) and more than MAX_NODES values (aliases counted as expanded)."""
    count = 0
    seen: set[int] = set()
    reused = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise InputError(source, "", "record_values", n=MAX_NODES)
        if isinstance(v, (dict, list)):
            if id(v) in seen:
                reused += 1
                if reused > MAX_ALIASES:
                    raise InputError(source, "", "record_aliases", n=MAX_ALIASES)
            seen.add(id(v))
            if depth >= MAX_DEPTH:
                raise InputError(source, "", "record_depth", depth=MAX_DEPTH)
            items = list(v.keys()) + list(v.values()) if isinstance(v, dict) else v
            stack.extend((x, depth + 1) for x in items)


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
