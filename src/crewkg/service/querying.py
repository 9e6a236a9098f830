"""SPARQL with a timeout and a cap on concurrent queries. pyoxigraph evaluates SPARQL natively and cannot be
interrupted: a query past its timeout gets 503 while the evaluation finishes in the background, and the cap on
concurrent queries keeps runaways from piling up; the memory store stops a query itself at the deadline
(sparql.QueryTimeout)."""

from __future__ import annotations

import threading
import time
from typing import Any


class Busy(Exception):
    """Every query slot is taken (by queries still running past their timeout, for one)."""


class QueryRunner:
    def __init__(self, store, timeout: float, slots: int) -> None:
        self.store = store
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(slots)

    def run(self, query: str, accept: str | None, dataset=None) -> tuple[bytes, str]:
        from crewkg.service.sparql import QueryTimeout

        if not self._slots.acquire(timeout=self.timeout):
            raise Busy("all query slots are busy; try again later")
        deadline = time.monotonic() + self.timeout
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["result"] = self.store.serialize(query, accept, deadline, dataset)
            except BaseException as exc:  # handed to the waiting request
                box["error"] = exc
            finally:
                self._slots.release()
                done.set()

        threading.Thread(target=work, name="crewkg-sparql", daemon=True).start()
        # the memory store stops itself at the deadline; give it a moment to say so
        if not done.wait(self.timeout + 0.5):
            raise QueryTimeout(f"query exceeded the timeout of {self.timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["result"]
