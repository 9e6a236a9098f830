"""A process that can open no socket: where Oxigraph evaluates a client's SPARQL query.

pyoxigraph evaluates SERVICE with an HTTP client compiled into it, and its Python API has no way to take that client
away (Oxigraph's Rust API has a service handler; the binding does not expose it). crewkg refuses SERVICE on the parsed
query before Oxigraph sees it (query_refusals.py), but Oxigraph parses the text again, and two parsers can read one
text two ways (issue 44). So the processes that evaluate a client's query — the service's query workers (the zygote
they are forked from is sealed, querying.py) and the child `crewkg sparql` runs an Oxigraph query in — are *sealed*:
a seccomp filter makes the `socket` system call fail with EACCES (any family: no TCP, no UDP, so no DNS lookup
either, and no Unix socket to a resolver daemon) and refuses io_uring, which could open one without it. A sealed
process keeps the sockets it already has (the worker's socket pair to the service). A filter cannot be lifted, and
every process forked from a sealed one is sealed too.

Linux only, on x86-64 and AArch64; elsewhere `seal()` returns False and the refusal on the parsed query stands
alone. Nothing is imported beyond the standard library, since the zygote seals itself before its first fork."""

from __future__ import annotations

import ctypes
import errno
import os
import pickle
import platform
import sys
from collections.abc import Callable
from typing import Any

#: the machine's seccomp architecture token, its `socket` system call number, and whether x32 calls must be refused
_ARCH = {"x86_64": (0xC000003E, 41, True), "amd64": (0xC000003E, 41, True),
         "aarch64": (0xC00000B7, 198, False), "arm64": (0xC00000B7, 198, False)}
_IO_URING_SETUP = 425  # the same number on both
_X32_BIT = 0x40000000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JGE|K, BPF_RET|K

CAN_SEAL = sys.platform.startswith("linux") and platform.machine().lower() in _ARCH and hasattr(os, "fork")
_sealed = False


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _program() -> list[tuple[int, int, int, int]]:
    """The filter: a system call of another architecture fails (ENOSYS; a 64-bit process can still make 32-bit
    calls, whose numbers differ), so do x32 calls on x86-64; `socket` and `io_uring_setup` fail with EACCES;
    everything else is allowed."""
    arch, sock, x32 = _ARCH[platform.machine().lower()]
    prog = [(_LD_ABS, 0, 0, 4),                        # A = seccomp_data.arch
            (_JEQ, 1, 0, arch),                        # native: skip the refusal below
            (_RET, 0, 0, _RET_ERRNO | errno.ENOSYS),
            (_LD_ABS, 0, 0, 0)]                        # A = seccomp_data.nr
    if x32:
        prog += [(_JGE, 0, 1, _X32_BIT), (_RET, 0, 0, _RET_ERRNO | errno.ENOSYS)]
    prog += [(_JEQ, 2, 0, sock),                       # socket: refused
             (_JEQ, 1, 0, _IO_URING_SETUP),            # io_uring_setup: refused
             (_RET, 0, 0, _RET_ALLOW),
             (_RET, 0, 0, _RET_ERRNO | errno.EACCES)]
    return prog


def seal() -> bool:
    """Seal this process (and every process it forks from now on): no new socket, ever. True when the filter is in
    place (also when it was already), False where it cannot be (another system, a kernel without seccomp)."""
    global _sealed
    if _sealed:
        return True
    if not CAN_SEAL:
        return False
    prog = _program()
    filters = (_Filter * len(prog))(*(_Filter(*f) for f in prog))
    fprog = _Program(len(prog), filters)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)):
        return False
    if libc.prctl(_PR_SET_SECCOMP, ctypes.c_ulong(_SECCOMP_MODE_FILTER), ctypes.byref(fprog), ctypes.c_ulong(0),
                  ctypes.c_ulong(0)):
        return False
    _sealed = True
    return True


def is_sealed() -> bool:
    """Whether this process sealed itself (or was forked from a process that had)."""
    return _sealed


def refused_by_seal(exc: BaseException) -> bool:
    """Whether an engine's error is the seal refusing a connection or a name lookup (Oxigraph's HTTP client says
    'Permission denied (os error 13)' or 'failed to lookup address information'): a SERVICE call that a parser
    difference let through, stopped here."""
    text = str(exc)
    return _sealed and isinstance(exc, OSError) and ("os error 13" in text or "lookup address" in text)


def in_sealed_process(fn: Callable[..., Any], *args: Any, before: Callable[[], None] | None = None) -> Any:
    """`fn(*args)` evaluated in a forked child that seals itself first (after `before`, e.g. reopening an on-disk
    store, whose handle does not survive fork): its value, or its exception raised here. Where no process can be
    sealed, `fn(*args)` in this one."""
    if not CAN_SEAL:
        return fn(*args)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never flushes what the parent had buffered
        try:
            os.close(read_end)
            try:
                if before is not None:
                    before()
                seal()
                outcome: tuple[str, Any] = ("value", fn(*args))
            except Exception as exc:  # handed to the parent, which raises it
                outcome = ("error", exc)
            try:
                data = pickle.dumps(outcome)
            except Exception as exc:  # an answer or exception that does not pickle: said as an error
                data = pickle.dumps(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    if not data:
        raise RuntimeError("the sealed process evaluating the query ended without an answer")
    kind, value = pickle.loads(data)  # noqa: S301 - our own child's answer, over our own pipe
    if kind == "error":
        raise value
    return value
