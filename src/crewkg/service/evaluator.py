"""Eligibility for API requests, batched. pyDatalog keeps one global database, so `answers.check` runs one
evaluation at a time; requests that arrive while an evaluation runs are evaluated together in the next one (one
Datalog run for many persons is far cheaper than many runs; docs/architecture.md, engine notes). An answer depends
only on the record, the date and the language (the law is fixed while the service runs), so answers are kept, as
their JSON text, in a cache bounded by bytes: a record asked for again costs a lookup, not a Datalog run."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import queue
import threading
from datetime import date
from typing import Any

from cachetools import LRUCache

from crewkg.law.statute import Law
from crewkg.records.persons import Person


class Evaluator:
    """Runs `answers.check` for API requests. Requests that arrive while an evaluation runs wait in a queue and
    are evaluated together in the next Datalog run; each request's person gets a batch-unique id for the run
    (two requests may both call their person "anna") and its own id back in the answer."""

    def __init__(self, law: Law, max_batch: int = 64, cache_bytes: int = 64_000_000) -> None:
        self.law = law
        self.max_batch = max_batch
        self.cache_bytes = cache_bytes
        # (JSON text, its cost: the text's and the key's length) by key, the least recently used dropped first
        self._cache: LRUCache[str, tuple[bytes, int]] = LRUCache(maxsize=max(cache_bytes, 0), getsizeof=_cost)
        self._lock = threading.Lock()  # a cachetools cache is not thread-safe (a lookup reorders it)
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="crewkg-evaluator", daemon=True)
        self._thread.start()

    def check(self, person: Person, as_of: date, lang: str) -> dict[str, Any]:
        """The answer for one person, a fresh object the caller may change."""
        fresh, text = self._answer(person, as_of, lang)
        return fresh if fresh is not None else json.loads(text)

    def check_json(self, person: Person, as_of: date, lang: str) -> bytes:
        """The answer as JSON text (as JSONResponse writes it), from the cache when the same record was asked before."""
        return self._answer(person, as_of, lang)[1]

    def _answer(self, person: Person, as_of: date, lang: str) -> tuple[dict[str, Any] | None, bytes]:
        """(the answer just evaluated, or None on a cache hit; its JSON text)."""
        # the dataclass repr names every field of the record, so two records share a key only if they are equal
        key = f"{as_of.isoformat()}|{lang}|{person!r}"
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                return None, hit[0]
        fut: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((person, as_of, lang, fut))
        answer = fut.result()
        text = json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        cost = len(text) + len(key)
        with self._lock:
            if key not in self._cache and cost <= self.cache_bytes:  # an answer larger than the whole cache is not kept
                self._cache[key] = (text, cost)
        return answer, text

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            groups: dict[tuple[date, str], list] = {}
            for item in batch:
                groups.setdefault((item[1], item[2]), []).append(item)
            for (as_of, lang), items in groups.items():
                self._run(as_of, lang, items)

    def _run(self, as_of: date, lang: str, items: list) -> None:
        from crewkg.answers.eligibility import check
        from crewkg.careers.summary import summarise

        try:
            persons = [dataclasses.replace(p, id=f"{p.id}\u241f{i}") for i, (p, *_rest) in enumerate(items)]
            answers = check(self.law, persons, as_of, lang, readings=True)
            summarise(self.law, persons, answers, as_of, lang)
        except BaseException as exc:  # every waiting request learns of the failure
            for *_rest, fut in items:
                fut.set_exception(exc)
            return
        for (p, _as_of, _lang, fut), answer in zip(items, answers, strict=True):
            answer["person"] = p.id
            fut.set_result(answer)


def _cost(item: tuple[bytes, int]) -> int:
    """The bytes a cached answer counts for (its text and its key)."""
    return item[1]
