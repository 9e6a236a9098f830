"""A canned query's answer a page of persons at a time.

Several canned queries answer about one row per evaluated person or more (the roles each person can fill, the
provenance of each yes, the credited days). A register of 100 000 persons makes that 10⁵ rows: no store finds them
in the fraction of a second a reader waits, and no reader reads them at once (docs/scale.md). A query whose `.rq`
header says `# page: ?person` (the variable holding crew:personId, the first key of its ORDER BY) is answered for
the next persons in that order: the service binds the variable to their ids (`VALUES`, the first clause of the
query's WHERE, so the store starts from them) and the query finds only their rows. The pages, one after the other,
are the whole answer in its own order (tests/test_paging.py), and a page costs about the same in a store of 1 000
persons as in one of 100 000: the store looks up the page's persons, not the register.

A query whose answer is some persons out of many (blocked by medical fitness, one exam short, within 30 days, sea
time) cannot be answered that way: the store finds its rows only from the summary triple that selects them, for the
whole register at once, and from a page of persons it would read every result of each (about 60 pathway results a
person; 100 ms for 50 persons, docs/scale.md). Its header also says `# answer: whole`: the service computes the whole
answer once (`Answers`; `crewkg serve` starts on it in the background at start-up) and gives it a page of the
persons it names at a time, from memory.

The ids in their order, and the whole answers, are read once per app: the service never writes to its store."""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rdflib import Literal

from crewkg.service.canned import CannedQuery
from crewkg.service.results import Table

#: persons per page unless the reader asks for another number
PAGE_PERSONS = 50
#: the most persons one page may hold (a larger request is refused: the whole answer has its own route, /sparql)
MAX_PAGE_PERSONS = 1000

_WHERE = re.compile(r"\bWHERE\s*\{", re.IGNORECASE)


@dataclass(frozen=True)
class Page:
    """The query text for one page, and where the next page starts (None after the last)."""

    text: str
    persons: int
    after: str | None


def person_ids(store) -> list[str]:
    """Every crew:personId in the store (of a record or of what an evaluation is about), in the order SPARQL sorts
    them (code points), so that no row of a paged query falls between two pages."""
    from crewkg.law.namespaces import CREW

    query = f"SELECT DISTINCT ?id WHERE {{ ?x <{CREW.personId}> ?id }}"
    return sorted(str(row[0]) for row in store.select(query).rows)


def window(ids: Sequence[str], after: str | None, persons: int) -> tuple[int, int, str | None]:
    """Where the page of the `persons` ids that follow `after` (from the first without it) starts and ends in the
    sorted `ids`, and the id the next page follows (None after the last)."""
    start = 0 if after is None else bisect.bisect_right(ids, after)
    end = min(start + persons, len(ids))
    return start, end, ids[end - 1] if start < end < len(ids) else None


def page(q: CannedQuery, ids: Sequence[str], after: str | None, persons: int) -> Page:
    """The page of `q` for the `persons` ids that follow `after` (from the first without it)."""
    start, end, following = window(ids, after, persons)
    return Page(restricted(q, ids[start:end]), end - start, following)


def restricted(q: CannedQuery, ids: Sequence[str]) -> str:
    """`q` with its page variable bound to `ids`, as the first clause of its outer WHERE, without the header comments
    (its title and description: words such as "service log" made every page of credited-days a text the SERVICE check
    must parse, 20–30 ms a page and 80–130 ms for the first, query_refusals.read_query)."""
    if q.page is None:
        raise ValueError(f"{q.name} has no page variable")
    header, body = _body_start(q.text)
    values = " ".join(Literal(i).n3() for i in ids)
    return f"{q.text[header:body]}\n  VALUES {q.page} {{ {values} }}{q.text[body:]}"


def _body_start(text: str) -> tuple[int, int]:
    """Where the header comments end, and where the outer WHERE's group opens: the first `WHERE {` after them."""
    header = 0
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        header += len(line)
    match = _WHERE.search(text, header)
    if match is None:
        raise ValueError("a paged query needs WHERE { … }")
    return header, match.end()


@dataclass(frozen=True)
class Rows:
    """One page of a whole answer: its rows, the persons they name, and where the next page starts (None after the
    last)."""

    table: Table
    persons: int
    after: str | None


@dataclass
class _Whole:
    """A whole answer and, for each person it names (in its order), where that person's rows start."""

    table: Table
    ids: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)


class Answers:
    """The whole answers of the canned queries whose header says `# answer: whole`, each computed once (in its own
    thread, so a reader who stops waiting does not stop it) and then given out a page of persons at a time."""

    def __init__(self, store, kept: dict[str, Table] | None = None) -> None:
        """`kept`: whole answers computed when the store was written (kept.py), by query name: given as they are —
        those answered whole a page of persons at a time, those not paged (`kept_table`) whole."""
        from crewkg.service.canned import canned_queries

        self.store = store
        self._lock = threading.Lock()
        self._done: dict[str, _Whole | BaseException] = {}
        self._running: dict[str, threading.Event] = {}
        self._kept: dict[str, Table] = {}
        canned = {q.name: q for q in canned_queries()}
        for name, table in (kept or {}).items():
            q = canned.get(name)
            if q is not None and q.whole:
                self._done[name] = _split(table, q)
                self._running[name] = done = threading.Event()
                done.set()
            elif q is not None and q.page is None:
                self._kept[name] = table

    def kept_table(self, name: str) -> Table | None:
        """The whole answer of a canned query that is not paged, as kept with the store (None where none was)."""
        return self._kept.get(name)

    def table(self, q: CannedQuery) -> Table:
        """The whole answer (computed first if need be)."""
        whole = self._whole(q, None)
        assert whole is not None, "computed without a time limit"
        return whole.table

    def warm(self, queries: Iterable[CannedQuery]) -> threading.Thread:
        """Compute them one after the other in the background, so that the first reader finds them ready."""
        chosen = [q for q in queries if q.whole]
        thread = threading.Thread(target=lambda: [self._whole(q, None) for q in chosen], name="crewkg-answers",
                                  daemon=True)
        thread.start()
        return thread

    def page(self, q: CannedQuery, after: str | None, persons: int, wait: float | None) -> Rows | None:
        """The rows of the `persons` persons of the answer that follow `after`; None while the answer is still being
        computed after `wait` seconds."""
        whole = self._whole(q, wait)
        if whole is None:
            return None
        start, end, following = window(whole.ids, after, persons)
        rows = whole.table.rows[whole.starts[start]:whole.starts[end]] if start < end else []
        return Rows(Table("select", whole.table.vars, rows), end - start, following)

    def persons(self, q: CannedQuery) -> list[str]:
        """The persons the whole answer names, in its order (computed first if need be)."""
        whole = self._whole(q, None)
        return whole.ids if whole is not None else []

    def _whole(self, q: CannedQuery, wait: float | None) -> _Whole | None:
        with self._lock:
            event = self._running.get(q.name)
            first = event is None
            if first:
                event = self._running[q.name] = threading.Event()
        if first:
            threading.Thread(target=self._compute, args=(q, event), name=f"crewkg-answer-{q.name}", daemon=True).start()
        event.wait(wait)
        with self._lock:
            done = self._done.get(q.name)
        if isinstance(done, BaseException):
            raise done
        return done

    def _compute(self, q: CannedQuery, event: threading.Event) -> None:
        try:
            done: _Whole | BaseException = _split(self.store.select(q.text), q)
        except Exception as exc:  # handed to every reader of this query
            done = exc
        with self._lock:
            self._done[q.name] = done
        event.set()


def page_of(store, q: CannedQuery, answers: Answers, ids: Sequence[str], after: str | None, persons: int) -> Rows:
    """A page of a canned query paged by persons as /api/queries/<name> gives it, in one process (`crewkg sparql NAME
    --store DIR --after ID`): one answered whole from its whole answer (kept with the store, or computed now), any
    other from the next persons of `ids` (the store's, in SPARQL's order). The text is the kb's canned query with the
    store's own ids bound, so it is asked of the store directly, not sealed as a client's query is."""
    if q.page is None:
        raise ValueError(f"{q.name} has no page variable")
    if q.whole:
        rows = answers.page(q, after, persons, None)
        assert rows is not None, "computed without a time limit"
        return rows
    chosen = page(q, ids, after, persons)
    return Rows(store.select(chosen.text), chosen.persons, chosen.after)


def _split(table: Table, q: CannedQuery) -> _Whole:
    """Where each person's rows start; the answer is ordered by the page variable first, as a paged query must be."""
    if q.page is None:
        raise ValueError(f"{q.name} has no page variable")
    column = table.vars.index(q.page.lstrip("?"))
    whole = _Whole(table)
    for n, row in enumerate(table.rows):
        key = str(row[column])
        if not whole.ids or whole.ids[-1] != key:
            if whole.ids and key < whole.ids[-1]:
                raise ValueError(f"{q.name} is not ordered by {q.page} first")
            whole.ids.append(key)
            whole.starts.append(n)
    whole.starts.append(len(table.rows))
    return whole
