"""Eligibility for API requests: batched, evaluated in worker processes, answers kept.

- **Processes.** The rules run in a pool of worker processes, one per core by default (`Settings.evaluator_workers`),
  forked from the service so each inherits the compiled law and parses the Datalog program once (its initializer).
  pyDatalog keeps one database per process and holds the GIL, so threads would evaluate one at a time, and the
  service's event loop and its threads would wait behind them; in the workers both cores evaluate while the service
  only reads requests and writes answers. A worker also writes the answer's `summary` (a planner run per person,
  `careers.summary`) and its JSON text: the service receives bytes and sends them as they are. `workers=0` evaluates
  in a thread of the service, as before (a program that builds an Evaluator itself; a platform without fork).
- **Batches.** Requests that arrive while the workers are busy wait in a queue and are evaluated together, a batch
  to each worker as it comes free (one Datalog run for many persons is far cheaper than many runs;
  docs/architecture.md, engine notes). A batch takes at most `max_batch` persons and the waiting requests are spread
  over the free workers: every person of a batch waits for the whole batch, so a batch much larger than the others
  would hold its persons back. Each request's person gets a batch-unique id for the run (two requests may both call
  their person "anna") and its own id back in the answer.
- **Answers kept.** An answer depends only on the record, the date and the language (the law is fixed while the
  service runs), so answers are kept as their JSON text in a cache bounded by bytes: a record asked again costs a
  lookup. A record asked again while its first evaluation runs waits for that one.

A worker that dies (killed, out of memory) breaks the pool: its batch is evaluated once more in a new pool, and a
batch that breaks that one too is answered with the error."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import gc
import json
import math
import os
import queue
import signal
import threading
from datetime import date
from typing import Any

from cachetools import LRUCache

from crewkg.law.statute import Law
from crewkg.records.persons import Person

#: fork is what lets a worker inherit the compiled law instead of loading it again (Linux, macOS)
CAN_FORK = hasattr(os, "fork")
#: how far the workers step back (os.nice) when the service's event loop wants a core they hold: the loop answers
#: every request, /health too, and in the first load mix it waited behind the workers (docs/service.md, issue 44)
WORKER_NICENESS = 5


@dataclasses.dataclass
class _Request:
    person: Person
    as_of: date
    lang: str
    key: str
    future: concurrent.futures.Future
    tries: int = 0


class Evaluator:
    """Runs `answers.check` and the summary for API requests (see the module's docstring)."""

    def __init__(self, law: Law, max_batch: int = 64, cache_bytes: int = 64_000_000, workers: int = 0) -> None:
        self.law = law
        self.max_batch = max(1, max_batch)
        self.cache_bytes = cache_bytes
        self.workers = workers if workers > 0 and CAN_FORK else 0
        # (JSON text, its cost: the text's and the key's length) by key, the least recently used dropped first
        self._cache: LRUCache[str, tuple[bytes, int]] = LRUCache(maxsize=max(cache_bytes, 0), getsizeof=_cost)
        self._running: dict[str, concurrent.futures.Future] = {}  # the evaluations under way, by key
        self._lock = threading.Lock()  # the cache and the evaluations under way (a cachetools cache is not thread-safe)
        self._free = threading.Semaphore(max(self.workers, 1))  # a worker free for the next batch
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._queue: queue.Queue[_Request] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="crewkg-evaluator", daemon=True)
        self._thread.start()

    # -- answers -------------------------------------------------------------------------------------------------
    def check(self, person: Person, as_of: date, lang: str) -> dict[str, Any]:
        """The answer for one person, a fresh object the caller may change."""
        return json.loads(self.check_json(person, as_of, lang))

    def check_json(self, person: Person, as_of: date, lang: str) -> bytes:
        """The answer as JSON text (as JSONResponse writes it), from the cache when the same record was asked before.
        Blocks the calling thread until it is evaluated."""
        return self._answer(person, as_of, lang).result()

    async def answer_json(self, person: Person, as_of: date, lang: str) -> bytes:
        """`check_json` for a coroutine: the event loop waits for the answer without holding a thread."""
        return await asyncio.wrap_future(self._answer(person, as_of, lang))

    def _answer(self, person: Person, as_of: date, lang: str) -> concurrent.futures.Future:
        """The future of the answer's JSON text: done at once on a cache hit, else that of the evaluation under way
        for the same key, else of a new one queued for the next batch."""
        # the dataclass repr names every field of the record, so two records share a key only if they are equal
        key = f"{as_of.isoformat()}|{lang}|{person!r}"
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                done: concurrent.futures.Future = concurrent.futures.Future()
                done.set_result(hit[0])
                return done
            running = self._running.get(key)
            if running is not None:
                return running
            fut: concurrent.futures.Future = concurrent.futures.Future()
            self._running[key] = fut
        self._queue.put(_Request(person, as_of, lang, key, fut))
        return fut

    def _settle(self, items: list[_Request], texts: list[bytes] | None, error: BaseException | None = None) -> None:
        """Keep each answer (an answer larger than the whole cache is not kept) and hand it to its requests."""
        with self._lock:
            for i, item in enumerate(items):
                self._running.pop(item.key, None)
                if texts is not None:
                    cost = len(texts[i]) + len(item.key)
                    if item.key not in self._cache and cost <= self.cache_bytes:
                        self._cache[item.key] = (texts[i], cost)
        for i, item in enumerate(items):
            if texts is not None:
                item.future.set_result(texts[i])
            else:
                item.future.set_exception(error or RuntimeError("evaluation failed"))

    # -- batches -------------------------------------------------------------------------------------------------
    def _loop(self) -> None:
        """Wait for a request, then for a free worker; then hand it a batch of the waiting requests of one date and
        language, their share of what waits (spread over the workers), at most `max_batch`."""
        waiting: list[_Request] = []
        while True:
            if not waiting:
                waiting.append(self._queue.get())
            self._free.acquire()
            while True:
                try:
                    waiting.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            first = waiting[0]
            alike = [r for r in waiting if (r.as_of, r.lang) == (first.as_of, first.lang)]
            share = min(self.max_batch, math.ceil(len(alike) / max(self.workers, 1)))
            batch = alike[:share]
            chosen = {id(r) for r in batch}
            waiting = [r for r in waiting if id(r) not in chosen]
            self._dispatch(batch)

    def _dispatch(self, batch: list[_Request]) -> None:
        """Evaluate the batch here (no workers) or in the pool; the worker's permit is given back when it is done."""
        persons = [dataclasses.replace(r.person, id=f"{r.person.id}\u241f{i}") for i, r in enumerate(batch)]
        ids = [r.person.id for r in batch]
        if not self.workers:
            try:
                self._settle(batch, _texts(self.law, persons, ids, batch[0].as_of, batch[0].lang))
            except BaseException as exc:  # every waiting request learns of the failure
                self._settle(batch, None, exc)
            finally:
                self._free.release()
            return
        try:
            pool = self._ensure_pool()
            fut = pool.submit(_evaluate_in_worker, persons, ids, batch[0].as_of, batch[0].lang)
        except BaseException as exc:
            self._free.release()
            self._settle(batch, None, exc)
            return
        fut.add_done_callback(lambda done: self._done(batch, pool, done))

    def _done(self, batch: list[_Request], pool, done: concurrent.futures.Future) -> None:
        """A batch's end (in the pool's own thread): its answers, its error, or once more in a new pool."""
        self._free.release()
        error = concurrent.futures.CancelledError() if done.cancelled() else done.exception()
        if error is None:
            self._settle(batch, done.result())
            return
        from concurrent.futures.process import BrokenProcessPool

        if isinstance(error, (BrokenProcessPool, concurrent.futures.CancelledError)):
            self._forget(pool)
            if all(r.tries == 0 for r in batch):
                for r in batch:
                    r.tries += 1
                    self._queue.put(r)
                return
        self._settle(batch, None, error)

    # -- the pool ------------------------------------------------------------------------------------------------
    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                import multiprocessing

                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker,
                    initargs=(self.law,))
            return self._pool

    def _forget(self, pool) -> None:
        """A broken pool is shut down; the next batch makes a new one."""
        with self._pool_lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Fork the workers now and let them load the program (`crewkg serve`, before the server takes requests);
        otherwise the first batch does."""
        if self.workers:
            self._ensure_pool().submit(int).result()

    def close(self) -> None:
        """End the workers (the app's shutdown), waiting for the batch under way, if any; a later request forks new
        ones. Not waiting, `crewkg serve` ended on SIGTERM before the pool had told its workers to stop: they waited
        for work for good, and kept the query workers' zygote alive too (they hold, forked after it, the service's end
        of its socket)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _cost(item: tuple[bytes, int]) -> int:
    """The bytes a cached answer counts for (its text and its key)."""
    return item[1]


def _texts(law: Law, persons: list[Person], ids: list[str], as_of: date, lang: str) -> list[bytes]:
    """One Datalog run for the batch, the summary of each answer, each person's own id back, and the JSON text."""
    from crewkg.answers import eligibility
    from crewkg.careers.summary import summarise

    answers = eligibility.check(law, persons, as_of, lang)
    summarise(law, persons, answers, as_of, lang)
    for answer, pid in zip(answers, ids, strict=True):
        answer["person"] = pid
    return [json.dumps(a, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8") for a in answers]


# ------------------------------------------------------------------------------------------------------
# In a worker process
# ------------------------------------------------------------------------------------------------------
#: the law the worker inherited (set by its initializer)
_WORKER: dict[str, Any] = {}


def _start_worker(law: Law) -> None:
    """Leave Ctrl+C to the service, load the program once (a first run parses it and asserts the kb), then keep
    what is loaded out of the garbage collector and collect only now and then (`workers.collect_now`): pyDatalog's
    many small objects made the collector a third of a register's time (docs/architecture.md, engine notes)."""
    from crewkg.answers.eligibility import planning_in_check
    from crewkg.records.persons import person_from_mapping
    from crewkg.rules.eligibility import pathways_apart

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.nice(WORKER_NICENESS)
    _WORKER["law"] = law
    pathways_apart()  # batch after batch: the kb stays loaded for the checks, the pathway runs have a thread
    planning_in_check()  # every answer gets its summary: what it plans from rides in the check's run
    today = date.today()
    try:
        _texts(law, [person_from_mapping({"id": "warm", "birth_date": "2000-01-01"}, law, today, "warm")], ["warm"],
               today, "de")
    except Exception:  # a warm-up only: a failing run fails again, and is reported, on the first request
        pass
    gc.freeze()
    gc.disable()


def _evaluate_in_worker(persons: list[Person], ids: list[str], as_of: date, lang: str) -> list[bytes]:
    """The batch's answers as JSON text. An error goes back to the service as it is where it can be rebuilt there
    (crewkg's InputError can), else as a RuntimeError naming it: one the service cannot unpickle would break the
    pool and every batch in it."""
    import pickle

    from crewkg.workers import collect_now

    try:
        return _texts(_WORKER["law"], persons, ids, as_of, lang)
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            raise RuntimeError(f"{type(exc).__name__}: {exc}") from None
        raise
    finally:
        collect_now()
