"""A canned query's answer a page of persons at a time.

Several canned queries answer about one row per evaluated person or more (the roles each person can fill, the
provenance of each yes, the credited days). A register of 100 000 persons makes that 10⁵ rows: no store finds them
in the fraction of a second a reader waits, and no reader reads them at once (docs/scale.md). A query whose `.rq`
header says `# page: ?person` (the variable holding crew:personId, the first key of its ORDER BY) is answered for
the next persons in that order: the service binds the variable to their ids (`VALUES`, the first clause of the
query's WHERE, so the store starts from them) and the query finds only their rows. The pages, one after the other,
are the whole answer in its own order (tests/test_paging.py), and a page costs about the same in a store of 1 000
persons as in one of 100 000: the store looks up the page's persons, not the register.

A query whose answer is a few persons out of many (blocked by medical fitness, one exam short, within 30 days) is not
paged: it starts from the summary triple that selects them, and a page of persons would be mostly empty and cost
more than the whole answer (docs/scale.md).

The ids in their order are read once per store: `crewkg serve` never writes to its store."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from rdflib import Literal

from crewkg.service.sparql import CannedQuery

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


def page(q: CannedQuery, ids: Sequence[str], after: str | None, persons: int) -> Page:
    """The page of `q` for the `persons` ids that follow `after` (from the first without it)."""
    start = 0 if after is None else bisect.bisect_right(ids, after)
    chosen = ids[start:start + persons]
    more = start + persons < len(ids)
    return Page(restricted(q, chosen), len(chosen), chosen[-1] if more and chosen else None)


def restricted(q: CannedQuery, ids: Sequence[str]) -> str:
    """`q` with its page variable bound to `ids`, as the first clause of its outer WHERE."""
    if q.page is None:
        raise ValueError(f"{q.name} has no page variable")
    body = _body_start(q.text)
    values = " ".join(Literal(i).n3() for i in ids)
    return f"{q.text[:body]}\n  VALUES {q.page} {{ {values} }}{q.text[body:]}"


def _body_start(text: str) -> int:
    """Where the outer WHERE's group opens: the first `WHERE {` after the header comments."""
    header = 0
    for line in text.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        header += len(line)
    match = _WHERE.search(text, header)
    if match is None:
        raise ValueError("a paged query needs WHERE { … }")
    return match.end()
