"""What the stores refuse to evaluate, and how they say so. Both stores are read-only to SPARQL: only queries are
evaluated; an update is refused before it reaches a store (`UpdateRefused`), a query that does not parse raises
`MalformedQuery` with the store's own parser message, and a federated query is refused before either store sees it
(`ServiceRefused`). The keywords are found in the query's text outside its IRIs, strings and comments."""

from __future__ import annotations

import re
import threading


class MalformedQuery(Exception):
    """The query does not parse; the message is the parser's."""


class UpdateRefused(Exception):
    """A SPARQL Update was sent: the stores answer queries only."""


class ServiceRefused(MalformedQuery):
    """A federated query (SERVICE) was sent: crewkg never makes a network request on a query's behalf, since anyone
    who can query the endpoint could otherwise use it to probe the network behind it."""


#: rdflib's SPARQL parser (pyparsing) is not thread-safe: parsed in two threads at once, queries fail with
#: spurious errors ("Param.postParse2() missing 1 required positional argument"), so one parse at a time
PARSER_LOCK = threading.Lock()


def refuse_if_update(query: str, parse_error: Exception) -> None:
    """A text that is no query but parses as an update is refused as such (not reported as malformed)."""
    from rdflib.plugins.sparql.parser import parseUpdate

    try:
        with PARSER_LOCK:
            parseUpdate(query)
    except Exception:  # not an update either: the query parser's message stands
        return
    raise UpdateRefused("SPARQL Update is not allowed: this endpoint is read-only") from parse_error


#: what a query's text holds besides keywords: IRIs, strings (long and short), comments
_NOT_KEYWORDS = re.compile("|".join((
    r"<[^<>\"{}|^`\\\s]*>",              # IRI
    r"'{3}(?:[^\\]|\\.)*?'{3}",          # long strings
    r'"{3}(?:[^\\]|\\.)*?"{3}',
    r"'(?:[^'\\\n]|\\.)*'",             # short strings
    r'"(?:[^"\\\n]|\\.)*"',
    r"#[^\n]*",                          # comment
)))
#: the SERVICE keyword, not a variable, a prefixed name or a part of one
_SERVICE = re.compile(r"(?<![\w:?$.-])SERVICE(?![\w:-])", re.IGNORECASE)
#: the FROM keyword (FROM and FROM NAMED), likewise
_FROM = re.compile(r"(?<![\w:?$.-])FROM(?![\w:-])", re.IGNORECASE)


def names_a_dataset(query: str) -> bool:
    """Whether the query chooses its own dataset (FROM / FROM NAMED)."""
    return bool(_FROM.search(_NOT_KEYWORDS.sub(" ", query)))


def refuse_service(query: str) -> None:
    """Refuse a query with a SERVICE clause before either store sees it (both would send the request)."""
    if _SERVICE.search(_NOT_KEYWORDS.sub(" ", query)):
        raise ServiceRefused("SERVICE (federated query) is not allowed: this endpoint makes no network requests")


def parser_message(exc: Exception) -> str:
    """A parser's exception as the message of a MalformedQuery."""
    return str(exc).strip() or type(exc).__name__
