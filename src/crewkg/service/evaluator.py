"""Eligibility for API requests, batched. pyDatalog keeps one global database, so `answers.check` runs one
evaluation at a time; requests that arrive while an evaluation runs are evaluated together in the next one (one
Datalog run for many persons is far cheaper than many runs; docs/architecture.md, engine notes)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import queue
import threading
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.records.persons import Person


class Evaluator:
    """Runs `answers.check` for API requests. Requests that arrive while an evaluation runs wait in a queue and
    are evaluated together in the next Datalog run; each request's person gets a batch-unique id for the run
    (two requests may both call their person "anna") and its own id back in the answer."""

    def __init__(self, law: Law, max_batch: int = 64) -> None:
        self.law = law
        self.max_batch = max_batch
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="crewkg-evaluator", daemon=True)
        self._thread.start()

    def check(self, person: Person, as_of: date, lang: str) -> dict[str, Any]:
        fut: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put((person, as_of, lang, fut))
        return fut.result()

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

        try:
            persons = [dataclasses.replace(p, id=f"{p.id}\u241f{i}") for i, (p, *_rest) in enumerate(items)]
            answers = check(self.law, persons, as_of, lang)
        except BaseException as exc:  # every waiting request learns of the failure
            for *_rest, fut in items:
                fut.set_exception(exc)
            return
        for (p, _as_of, _lang, fut), answer in zip(items, answers, strict=True):
            answer["person"] = p.id
            fut.set_result(answer)
