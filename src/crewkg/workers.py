"""Worker processes for the commands that evaluate many persons (a register's lines, a store's export).

pyDatalog keeps its database in module state, so parallel evaluation needs processes, not threads. They are forked:
each inherits the compiled law (`inherited`) instead of loading it again, and leaves an interrupt to the command that
started it (else every worker prints its own traceback on Ctrl-C, and the command decides nothing about stopping)."""

from __future__ import annotations

import gc
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: what the forked workers inherit (the law), set before the pool forks
_INHERITED: dict[str, Any] = {}


def fork_pool(processes: int, **inherit: Any):
    """A pool of forked worker processes that ignore SIGINT; `inherit` is what they can ask for (`inherited`)."""
    import multiprocessing

    _INHERITED.update(inherit)
    return multiprocessing.get_context("fork").Pool(processes, initializer=_start)


def _start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    gc.disable()


#: runs between two garbage collections while collection is held (`collect_now`)
RUNS_PER_COLLECTION = 50
_RUNS = [0]


def collect_now(every: int = RUNS_PER_COLLECTION) -> None:
    """Called after each run of the program while collection is held: collects every `every` runs, so that what a
    run leaves in cycles cannot grow without bound (a store export's run of 200 whole answers collects each time)."""
    _RUNS[0] += 1
    if _RUNS[0] % every == 0 and not gc.isenabled():
        gc.collect()


@contextmanager
def collection_held() -> Iterator[None]:
    """Cyclic garbage collection held while many persons are evaluated.

    Measured (benchmarks/register.py, 20 000 persons, 2 cores): Python's collector, run every 700 new objects,
    walked pyDatalog's many small objects again and again and took a third of the wall time (47.5 s → 28.4 s
    without it). What is loaded before (the law) is frozen out of later collections; `collect_now` collects now and
    then."""
    was, frozen = gc.isenabled(), gc.get_freeze_count()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        if not frozen:  # a process that froze objects before (a forked service child) keeps them frozen
            gc.unfreeze()


def inherited(name: str) -> Any:
    """In a worker: what the pool was started with under this name."""
    return _INHERITED[name]
