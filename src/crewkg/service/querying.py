"""SPARQL with a timeout, a cap on concurrent queries and a cache of answers.

- **Queueing.** At most `slots` queries run at once; a query waits for a slot up to the timeout (then 503), so a
  burst of clients queues instead of being refused.
- **Cancelling.** Every query runs in a worker process (one per slot, forked from a copy of the loaded store) that
  the kernel ends at the query's deadline (`SIGALRM` with its default action); the runner answers 503 and the next
  query gets a fresh worker. The slot is free again at the deadline: a runaway query never runs on, and the queries
  in the other slots run beside it, each in its own process, so none waits for another. Neither store can be
  stopped in the service's own threads: pyoxigraph evaluates natively and cannot be interrupted, and rdflib (the
  memory store) checks its deadline only while it iterates triples (deadline.py) — a query that reads none, seven
  `VALUES` blocks of ten values multiplied, ran on for minutes under the store's lock, and a `REGEX` that
  backtracks holds the GIL. Only where fork is missing (not Linux) does the memory store run in a thread, stopped
  by its deadline where it iterates triples.
- **Caching.** The store is read-only while the service runs; an answer depends only on the query text, the Accept
  header, the dataset parameters and the store's content (its `version`, bumped by every change), so answers are
  kept in a small LRU cache (bounded by bytes) under that key — canned queries asked again and again cost nothing.

Workers are forked from a *zygote*: a process forked once from the service (on the first query, or by `start()`
before the server starts), which closes every descriptor it inherited and then only forks workers on request.
The service forks it holding the locks a worker takes (the memory store's, the SPARQL parser's), so the copy never
inherits one that another thread held. A worker is handed to the service over a Unix socket with a pidfd, so the
service can kill it without racing a reused process id. The zygote and its workers end when the service's end of
their sockets closes."""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import struct
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from cachetools import LRUCache

#: process isolation needs fork, socket fd passing and pidfds (Linux)
CAN_ISOLATE = hasattr(os, "fork") and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds") and hasattr(signal, "pidfd_send_signal")


class Busy(Exception):
    """No query slot came free within the timeout."""


class WorkerLost(Exception):
    """The worker process evaluating the query ended before answering (and before the deadline)."""


class QueryRunner:
    def __init__(self, store, timeout: float, slots: int, cache_bytes: int = 32_000_000, isolate: bool | None = None) -> None:
        self.store = store
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(slots)
        self._cache = AnswerCache(cache_bytes)
        self._running = 0  # queries holding a slot now
        self._count = threading.Lock()
        if isolate is None:  # every store, wherever processes can be forked and killed
            isolate = True
        self._pool = WorkerPool(store, slots) if isolate and CAN_ISOLATE else None

    @property
    def running(self) -> int:
        """How many queries hold a slot now (evaluating, or handing their answer back)."""
        return self._running

    @property
    def isolated(self) -> bool:
        """Whether queries run in worker processes (and so can be stopped whatever the store)."""
        return self._pool is not None

    def start(self) -> None:
        """Fork the zygote now (before the server starts its threads), not on the first query."""
        if self._pool is not None:
            self._pool.start()

    def close(self) -> None:
        """End the zygote and the idle workers (the app's shutdown); a later query forks a new zygote."""
        if self._pool is not None:
            self._pool.close()

    @property
    def zygote(self) -> int | None:
        """The process id of the zygote the query workers are forked from, while it runs (None before the first query,
        after `close`, or without worker processes). Its children are this runner's workers and no one else's: the
        service's process has other children (the evaluator's workers), which end on their own schedule."""
        return self._pool.zygote if self._pool is not None else None

    def _key(self, query: str, accept: str | None, dataset) -> tuple:
        return (getattr(self.store, "version", 0), query, accept or "", tuple(dataset.default) if dataset else (),
                tuple(dataset.named) if dataset else ())

    def cached(self, query: str, accept: str | None, dataset=None) -> tuple[bytes, str] | None:
        """The kept answer, if this query was answered before (a lookup, so the event loop may ask it: only a miss
        needs a thread, which waits for a slot and a worker)."""
        return self._cache.get(self._key(query, accept, dataset))

    def run(self, query: str, accept: str | None, dataset=None) -> tuple[bytes, str]:
        key = self._key(query, accept, dataset)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if not self._slots.acquire(timeout=self.timeout):
            raise Busy(f"no query slot came free within {self.timeout:g} s; try again later")
        with self._count:
            self._running += 1
        try:
            if self._pool is not None:
                answer = self._pool.run(query, accept, dataset, self.timeout)
            else:
                answer = self._in_thread(query, accept, dataset)
        finally:
            with self._count:
                self._running -= 1
            self._slots.release()
        self._cache.put(key, answer)
        return answer

    def _in_thread(self, query: str, accept: str | None, dataset) -> tuple[bytes, str]:
        """Without worker processes: the memory store stops itself at the deadline where it iterates triples
        (deadline.QueryTimeout); the caller waits a moment longer, then answers 503 whatever the thread does."""
        from crewkg.service.deadline import QueryTimeout

        deadline = time.monotonic() + self.timeout
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["result"] = self.store.serialize(query, accept, deadline, dataset)
            except BaseException as exc:  # handed to the waiting request
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="crewkg-sparql", daemon=True).start()
        if not done.wait(self.timeout + 0.5):
            raise QueryTimeout(f"query exceeded the timeout of {self.timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["result"]


class AnswerCache:
    """Serialized answers by (store version, query, Accept, dataset), least recently used dropped first. An answer
    counts for its body and its query text; one over an eighth of the bound is not kept (it would push out many
    small ones), and a bound of 0 keeps none."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._items: LRUCache[tuple, tuple[tuple[bytes, str], int]] = LRUCache(maxsize=max(max_bytes, 0),
                                                                               getsizeof=_cost)
        self._lock = threading.Lock()  # a cachetools cache is not thread-safe (a lookup reorders it)

    def get(self, key: tuple) -> tuple[bytes, str] | None:
        if self.max_bytes <= 0:
            return None
        with self._lock:
            hit = self._items.get(key)
            return hit[0] if hit is not None else None

    def put(self, key: tuple, answer: tuple[bytes, str]) -> None:
        cost = len(answer[0]) + len(key[1])
        if self.max_bytes <= 0 or cost > self.max_bytes // 8:
            return
        with self._lock:
            if key not in self._items:
                self._items[key] = (answer, cost)


def _cost(item: tuple[tuple[bytes, str], int]) -> int:
    """The bytes a cached answer counts for (AnswerCache.put)."""
    return item[1]


# ------------------------------------------------------------------------------------------------------
# Worker processes
# ------------------------------------------------------------------------------------------------------
_LEN = struct.Struct("!I")


def _send(sock: socket.socket, *parts: bytes) -> None:
    sock.sendall(b"".join(_LEN.pack(len(p)) + p for p in parts))


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


def _recv(sock: socket.socket, count: int) -> list[bytes]:
    return [_recv_exact(sock, _LEN.unpack(_recv_exact(sock, _LEN.size))[0]) for _ in range(count)]


class _Worker:
    def __init__(self, sock: socket.socket, pid: int, pidfd: int) -> None:
        self.sock, self.pid, self.pidfd = sock, pid, pidfd

    def kill(self) -> None:
        try:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        except OSError:  # already ended
            pass
        self.close()

    def close(self) -> None:
        self.sock.close()
        if self.pidfd >= 0:
            os.close(self.pidfd)
            self.pidfd = -1


class WorkerPool:
    """Worker processes forked from a zygote that holds a copy of the store; idle workers are reused."""

    def __init__(self, store, size: int) -> None:
        self.store = store
        self.size = size
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._ctl: socket.socket | None = None
        self.zygote: int | None = None
        self._version = None
        self._finalizer = None

    def start(self) -> None:
        """The zygote, and one worker forked ahead: the first query of a service on a store folder waited 30–40 ms
        for its worker's fork and read-only handle (docs/scale.md, cold)."""
        with self._lock:
            self._ensure_zygote()
        try:
            self._checkin(self._checkout())
        except WorkerLost:  # a query will fork its own, and say so if it cannot
            pass

    def close(self) -> None:
        with self._lock:
            self._stop_zygote()

    def _ensure_zygote(self) -> None:
        version = getattr(self.store, "version", 0)
        if self._ctl is not None and version == self._version:
            return
        self._stop_zygote()  # the store changed since the zygote was forked: its copy is stale
        if hasattr(self.store, "only_read_from_now"):  # an on-disk store: no compaction under the workers' feet
            self.store.only_read_from_now()
        ours, theirs = socket.socketpair()
        with _forkable(self.store):
            pid = os.fork()
        if pid == 0:  # the zygote
            try:
                ours.close()
                _zygote(theirs, self.store)
            finally:
                os._exit(0)
        theirs.close()
        self._ctl, self._version, self.zygote = ours, version, pid
        self._finalizer = weakref.finalize(self, _close_all, ours, self._idle, pid)

    def _stop_zygote(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._ctl = self.zygote = None
        self._idle = []

    def _checkout(self) -> _Worker:
        with self._lock:
            self._ensure_zygote()
            if self._idle:
                return self._idle.pop()
            assert self._ctl is not None
            self._ctl.sendall(b"w")
            msg, fds, _flags, _addr = socket.recv_fds(self._ctl, 16, 2)
            if len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                raise WorkerLost("the zygote could not start a worker")
            return _Worker(socket.socket(fileno=fds[0]), struct.unpack("!i", msg[:4])[0], fds[1])

    def _checkin(self, worker: _Worker) -> None:
        with self._lock:
            if len(self._idle) < self.size and getattr(self.store, "version", 0) == self._version:
                self._idle.append(worker)
                return
        worker.close()

    def run(self, query: str, accept: str | None, dataset, timeout: float) -> tuple[bytes, str]:
        from crewkg.service.deadline import QueryTimeout
        from crewkg.service.query_refusals import MalformedQuery, ServiceRefused, UpdateRefused
        from crewkg.service.results import NotAcceptable

        worker = self._checkout()
        started = time.monotonic()
        request = {"query": query, "accept": accept, "timeout": timeout,
                   "default": list(dataset.default) if dataset else [], "named": list(dataset.named) if dataset else []}
        try:
            worker.sock.settimeout(timeout + 2.0)  # the worker's own alarm comes first; this is the safety net
            _send(worker.sock, json.dumps(request).encode("utf-8"))
            head, body = _recv(worker.sock, 2)
        except (TimeoutError, EOFError, OSError) as exc:
            worker.kill()
            if time.monotonic() - started >= timeout * 0.9 or isinstance(exc, TimeoutError):
                raise QueryTimeout(f"query exceeded the timeout of {timeout:g} s (stopped)") from None
            raise WorkerLost("the query's worker process ended before answering") from None
        self._checkin(worker)
        answer = json.loads(head)
        if "media" in answer:
            return body, answer["media"]
        kinds = {"MalformedQuery": MalformedQuery, "ServiceRefused": ServiceRefused, "UpdateRefused": UpdateRefused,
                 "NotAcceptable": NotAcceptable}
        raise kinds.get(answer["error"], RuntimeError)(answer["message"])


def _close_all(ctl: socket.socket, idle: list[_Worker], zygote: int) -> None:
    for w in idle:
        w.close()
    idle.clear()
    ctl.close()  # the zygote reads end-of-file and exits
    for _ in range(200):
        try:
            if os.waitpid(zygote, os.WNOHANG)[0]:
                return
        except ChildProcessError:
            return
        time.sleep(0.01)
    os.kill(zygote, signal.SIGKILL)  # still our unreaped child: its pid cannot have been reused
    os.waitpid(zygote, 0)


@contextmanager
def _forkable(store) -> Iterator[None]:
    """Hold the locks a worker takes while the zygote is forked: a lock another thread of the service held at that
    moment would stay held in the copy for good, and every worker would wait on it until its deadline. The memory
    store's lock (`quiescent`: no writer half-way) and rdflib's parser lock (query_refusals.PARSER_LOCK)."""
    from crewkg.service.query_refusals import PARSER_LOCK

    quiescent = getattr(store, "quiescent", None)
    with quiescent() if quiescent is not None else nullcontext(), PARSER_LOCK:
        yield


def _warm(store) -> None:
    """In the zygote: what a worker loads on its first query (the store's query parser and result writers) is loaded
    once here, so a fresh worker (one per slot, and one after each query stopped at its deadline) answers at once.
    The memory store only: an on-disk Oxigraph handle is reopened in each worker and never used in the zygote."""
    if getattr(store, "kind", None) != "memory":
        return
    for accept in ("application/sparql-results+json", "application/sparql-results+xml", "text/csv"):
        try:
            store.serialize("SELECT ?x WHERE { VALUES ?x { 1 } }", accept)
        except Exception:  # a warm-up only: the worker's own query reports any failure
            continue


def _detach(keep: socket.socket) -> None:
    """In a forked process: keep the objects inherited from the service out of the garbage collector (their
    finalizers would close descriptors this process does not own), close every inherited descriptor but stdio
    and `keep`, and leave Ctrl+C to the service."""
    gc.freeze()
    fd = keep.fileno()
    os.closerange(3, fd)
    os.closerange(fd + 1, 1 << 16)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _zygote(ctl: socket.socket, store) -> None:
    from crewkg.service.sealing import seal

    _detach(ctl)
    seal()  # no socket of its own, nor of any worker it forks: a query can reach no other host (sealing.py)
    _warm(store)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ended workers are reaped by the kernel
    while True:
        try:
            if not ctl.recv(1):
                return
        except OSError:
            return
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # a worker
            try:
                ctl.close()
                ours.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                if hasattr(store, "reopen_after_fork"):
                    store.reopen_after_fork()
                _worker(theirs, store)
            finally:
                os._exit(0)
        theirs.close()
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            ours.close()
            socket.send_fds(ctl, [b"\0\0\0\0"], [])
            continue
        socket.send_fds(ctl, [struct.pack("!i", pid)], [ours.fileno(), pidfd])
        ours.close()
        os.close(pidfd)


def _worker(sock: socket.socket, store) -> None:
    from crewkg.service.dataset import DatasetSpec

    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the alarm ends the process, whatever it is evaluating
    while True:
        try:
            (raw,) = _recv(sock, 1)
        except (EOFError, OSError):
            return
        request = json.loads(raw)
        dataset = DatasetSpec(tuple(request["default"]), tuple(request["named"]))
        signal.setitimer(signal.ITIMER_REAL, request["timeout"])
        try:
            body, media = store.serialize(request["query"], request["accept"], None, dataset)
            head: dict[str, str] = {"media": media}
        except Exception as exc:  # reported to the service, which raises it again
            body, head = b"", {"error": type(exc).__name__, "message": str(exc)}
        signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            _send(sock, json.dumps(head).encode("utf-8"), body)
        except OSError:
            return
