"""What the stores refuse to evaluate, and how they say so. Both stores are read-only to SPARQL: only queries are
evaluated; an update is refused before it reaches a store (`UpdateRefused`), a query that does not parse raises
`MalformedQuery` with the store's own parser message, and a query that would reach another place is refused before
either engine evaluates it (`ServiceRefused`).

Reaching out is decided on the parsed query, never on its text (issue 44: a regular expression that skipped
comments, strings and IRIs read `#\\rSERVICE`, `<'>'` and `\\u0053ERVICE` otherwise than the parsers did, and both
engines called a listener). The memory store decides on the very algebra rdflib then evaluates (`refuse_service_in`);
the Oxigraph store, whose parser Python cannot reach, on rdflib's parse of the text with every line end made a line
feed (Oxigraph ends a comment at either, rdflib only at a line feed), and where rdflib cannot parse it, on the word
SERVICE anywhere in the text with its escapes expanded (`refuse_service`; a text without that word anywhere, in any
case, is not parsed at all). Behind that decision the engines cannot reach out either: rdflib's SERVICE evaluation
is replaced by a refusal and graphs are never loaded for FROM (`close_rdflib`), and Oxigraph evaluates a client's
query only in a process that can open no socket (sealing.py)."""

from __future__ import annotations

import re
import threading
from functools import lru_cache


class MalformedQuery(Exception):
    """The query does not parse; the message is the parser's."""


class UpdateRefused(Exception):
    """A SPARQL Update was sent: the stores answer queries only."""


class ServiceRefused(MalformedQuery):
    """A federated query (SERVICE) was sent: crewkg never makes a network request on a query's behalf, since anyone
    who can query the endpoint could otherwise use it to probe the network behind it (or read local files: rdflib
    opens a `file:` service IRI)."""

    def __init__(self, message: str = "SERVICE (federated query) is not allowed: this endpoint makes no network "
                                      "requests") -> None:
        super().__init__(message)


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


def reaches_out(tree) -> bool:
    """Whether a parsed query or its algebra holds a SERVICE pattern anywhere: in the pattern, a subquery, an
    EXISTS inside a filter, a BIND or an ORDER BY (rdflib's traversal walks expressions too)."""
    from rdflib.plugins.sparql.algebra import traverse
    from rdflib.plugins.sparql.parserutils import CompValue

    found: list[bool] = []

    def visit(node):
        if isinstance(node, CompValue) and node.name == "ServiceGraphPattern":
            found.append(True)

    traverse(tree, visitPre=visit)
    return bool(found)


def refuse_service_in(algebra) -> None:
    """Refuse a query whose algebra (the memory store's, as rdflib will evaluate it) holds a SERVICE pattern."""
    if reaches_out(algebra):
        raise ServiceRefused


class Reading:
    """What the text of a query says about where it reads: whether it has a SERVICE pattern and whether it names its
    own dataset (FROM / FROM NAMED); `parsed`: whether rdflib parsed it (else it was read by its words)."""

    __slots__ = ("dataset", "parsed", "service")

    def __init__(self, service: bool, dataset: bool, parsed: bool = True) -> None:
        self.service, self.dataset, self.parsed = service, dataset, parsed


@lru_cache(maxsize=1024)
def read_query(query: str) -> Reading:
    """Read a query as Oxigraph's parser will: rdflib's parse of the text with CR line ends made LF. Remembered by
    text (the parse costs 5–25 ms; an endpoint is asked the same queries again and again). A text rdflib cannot parse
    is read by its words, on the safe side: the word SERVICE anywhere, its escapes expanded, counts as SERVICE."""
    text = _expanded(query)
    if not _says_service(text):  # no parser can read the keyword where its letters are not (the parse costs 30–190
        return Reading(False, _FROM.search(_NOT_KEYWORDS.sub(" ", text)) is not None)  # ms on a loaded machine)
    try:
        with PARSER_LOCK:
            tree = _parsed_apart(query.replace("\r", "\n"))
        return Reading(reaches_out(tree), bool(dict.get(tree[1], "datasetClause")))  # CompValue.get answers its key
    except Exception:  # rdflib cannot parse it (Oxigraph may): the word stands in it, so it is read as SERVICE
        return Reading(True, _FROM.search(_NOT_KEYWORDS.sub(" ", text)) is not None, parsed=False)


def _says_service(text: str) -> bool:
    """Whether the letters of SERVICE stand anywhere in the text, as any parser here may read them: rdflib compares
    a keyword's upper case, so `ſERVICE` (long s) and `SERVıCE` (dotless i) are SERVICE to it; Oxigraph folds ASCII
    only. Strings, IRIs and comments included: this only decides whether the query must be parsed."""
    return "SERVICE" in text.upper()


def _parsed_apart(text: str):
    """rdflib's parse tree of a query, parsed in a thread of its own. pyparsing leaves exceptions in cycles with its
    frames, and a frame keeps its callers' frames: parsed in the caller's thread, the Oxigraph store's frames and the
    query results they came to hold lived until a garbage collection on another thread, which pyoxigraph refuses
    ('QuerySolutions is unsendable, but is being dropped on another thread')."""
    from rdflib.plugins.sparql.parser import parseQuery

    from crewkg.records.reading import ill_typed_literals_unlogged

    box: dict = {}

    def parse() -> None:
        try:
            with ill_typed_literals_unlogged():  # an integer of 5 000 digits: no traceback of rdflib's on stderr
                box["tree"] = parseQuery(text)
        except Exception as exc:  # raised again in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=parse, name="crewkg-sparql-parse", daemon=True)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["tree"]


def refuse_service(query: str, parsed_only: bool = False) -> None:
    """Refuse a query text whose parse holds a SERVICE pattern (read_query), before an engine sees it. `parsed_only`:
    a text rdflib cannot parse is left alone (the memory store, whose engine is rdflib, calls it malformed)."""
    reading = read_query(query)
    if reading.service and (reading.parsed or not parsed_only):
        raise ServiceRefused


def names_a_dataset(query: str) -> bool:
    """Whether the query chooses its own dataset (FROM / FROM NAMED)."""
    return read_query(query).dataset


#: a SPARQL codepoint escape (\\uXXXX, \\UXXXXXXXX), expanded before any other reading (SPARQL 1.1 § 19.2)
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
#: what a query's text holds besides keywords: IRIs, strings (long and short), comments (for FROM, a reading that
#: decides only which graphs are the default one, never whether the query reaches out)
_NOT_KEYWORDS = re.compile("|".join((
    r"<[^<>\"{}|^`\\\s]*>",              # IRI
    r"'{3}(?:[^\\]|\\.)*?'{3}",          # long strings
    r'"{3}(?:[^\\]|\\.)*?"{3}',
    r"'(?:[^'\\\n\r]|\\.)*'",           # short strings
    r'"(?:[^"\\\n\r]|\\.)*"',
    r"#[^\n\r]*",                        # comment
)))
_FROM = re.compile(r"(?<![\w:?$.-])FROM(?![\w:-])", re.IGNORECASE)


def refuse_surrogates(query: str) -> None:
    """Refuse a query whose escapes name a surrogate (`"\\uD800"`): no character, so no result could be written
    (rdflib made a lone surrogate of it and failed writing the answer; Oxigraph refuses it as malformed)."""
    for m in _ESCAPE.finditer(query):
        if 0xD800 <= int(m.group(1) or m.group(2), 16) <= 0xDFFF:
            raise MalformedQuery(f"the escape {m.group(0)} names a surrogate, which is no character")
    if _SURROGATE.search(query):
        raise MalformedQuery("the query holds a lone surrogate, which is no character")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _expanded(query: str) -> str:
    def one(m: re.Match) -> str:
        try:
            return chr(int(m.group(1) or m.group(2), 16))
        except (ValueError, OverflowError):
            return m.group(0)

    return _ESCAPE.sub(one, query)


def close_rdflib() -> None:
    """Make rdflib's SPARQL engine itself unable to reach out, whatever a parser lets through: its SERVICE
    evaluation (which opens the service IRI with urllib, `file:` included) raises ServiceRefused, and FROM never
    loads a graph from its IRI. Idempotent; done when the memory store is imported."""
    import rdflib.plugins.sparql as rdflib_sparql
    from rdflib.plugins.sparql import evaluate

    rdflib_sparql.SPARQL_LOAD_GRAPHS = False
    evaluate.evalServiceQuery = _service_refused


def _service_refused(ctx, part):
    """rdflib's SERVICE evaluation, closed."""
    raise ServiceRefused


def parser_message(exc: Exception) -> str:
    """A parser's exception as the message of a MalformedQuery."""
    return str(exc).strip() or type(exc).__name__
