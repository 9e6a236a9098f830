"""A query's deadline on the memory store. rdflib evaluates SPARQL in Python by iterating triples, so a store whose
triple iteration checks the evaluating thread's deadline stops a runaway query itself: cooperatively, with no thread
killed. (pyoxigraph cannot be stopped so; the service runs its queries in worker processes: querying.py.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class QueryTimeout(Exception):
    """The query ran past its deadline."""


#: the deadline (time.monotonic) of the query the current thread evaluates, if any
_deadline = threading.local()


@contextmanager
def evaluating_until(deadline: float | None) -> Iterator[None]:
    """The current thread evaluates a query that must end by `deadline` (time.monotonic; None: no deadline)."""
    _deadline.value = deadline
    try:
        yield
    finally:
        _deadline.value = None


def deadline_memory():
    """rdflib's Memory store whose triple iteration checks the evaluating thread's deadline (QueryTimeout)."""
    from rdflib.plugins.stores.memory import Memory

    class DeadlineMemory(Memory):
        def triples(self, triple_pattern, context=None):
            until = getattr(_deadline, "value", None)
            if until is None:
                yield from super().triples(triple_pattern, context)
                return
            if time.monotonic() > until:
                raise QueryTimeout("query timeout")
            n = 0
            for item in super().triples(triple_pattern, context):
                n += 1
                if not n & 1023 and time.monotonic() > until:
                    raise QueryTimeout("query timeout")
                yield item

    return DeadlineMemory()
