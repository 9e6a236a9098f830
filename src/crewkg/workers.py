"""Worker processes for the commands that evaluate many persons (a register's lines, a store's export).

pyDatalog keeps its database in module state, so parallel evaluation needs processes, not threads. They are forked:
each inherits the compiled law (`inherited`) instead of loading it again, and leaves an interrupt to the command that
started it (else every worker prints its own traceback on Ctrl-C, and the command decides nothing about stopping)."""

from __future__ import annotations

import signal
from typing import Any

#: what the forked workers inherit (the law), set before the pool forks
_INHERITED: dict[str, Any] = {}


def fork_pool(processes: int, **inherit: Any):
    """A pool of forked worker processes that ignore SIGINT; `inherit` is what they can ask for (`inherited`)."""
    import multiprocessing

    _INHERITED.update(inherit)
    return multiprocessing.get_context("fork").Pool(processes, initializer=signal.signal,
                                                    initargs=(signal.SIGINT, signal.SIG_IGN))


def inherited(name: str) -> Any:
    """In a worker: what the pool was started with under this name."""
    return _INHERITED[name]
