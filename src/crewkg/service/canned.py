"""The canned queries: `kb/queries/*.rq`, each beginning with `# title:` and `# description:` lines (the service also
has them in German, in the message catalogue under `service.query.<name>.`), and a query named on the command line.
Every module a query's facts come from ships with crewkg (the rosters' checks are loaded with `--crew`), so every
canned query is always listed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from crewkg.errors import InputError, os_reason


@dataclass(frozen=True)
class CannedQuery:
    name: str
    title: str
    description: str
    text: str
    path: Path
    #: `# page: ?var` in the header: the variable holding crew:personId, the first key of the query's ORDER BY; the
    #: service answers such a query a page of persons at a time (paging.py)
    page: str | None = None
    #: `# answer: whole` in the header (with a page variable): the store can find the query's rows only for the whole
    #: register at once, so the service computes the whole answer once and gives it a page of persons at a time
    #: (paging.Answers)
    whole: bool = False


def queries_dir() -> Path:
    from crewkg.locations import kb_dir

    return kb_dir() / "queries"


def _header(text: str) -> dict[str, str]:
    """`# key: value` lines at the top; indented `#` lines continue the previous value."""
    fields: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:]
        head, sep, rest = body.strip().partition(":")
        if sep and head.isidentifier() and not body.startswith("  "):
            key = head.lower()
            fields[key] = rest.strip()
        elif key and body.strip():
            fields[key] = (fields[key] + " " + body.strip()).strip()
    return fields


def canned_queries() -> list[CannedQuery]:
    out = []
    folder = queries_dir()
    for path in sorted(folder.glob("*.rq")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        h = _header(text)
        out.append(CannedQuery(path.stem, h.get("title", path.stem), h.get("description", ""), text, path,
                               h.get("page") or None, h.get("answer") == "whole"))
    return out


def canned_words(q: CannedQuery, lang: str | None) -> tuple[str, str]:
    """(title, description) of a canned query: the .rq file's own without a language, else the catalogue's."""
    from crewkg.messages.catalogue import catalogue

    words = catalogue(lang) if lang is not None else {}
    return (words.get(f"service.query.{q.name}.title", q.title),
            words.get(f"service.query.{q.name}.description", q.description))


def resolve_query(arg: str) -> str:
    """The `query` argument: a .rq file, the name of a canned query, or the query text itself."""
    one_word = arg.strip() and not any(c.isspace() for c in arg.strip())
    if one_word and (arg.endswith(".rq") or Path(arg).is_file()):
        try:
            return Path(arg).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(arg, "", "query_file", os_reason(exc)) from None
    canned = {q.name: q for q in canned_queries()}
    if arg in canned:
        return canned[arg].text
    if one_word:
        raise InputError("", "query", "query_name", arg, ids=sorted(canned))
    return arg
