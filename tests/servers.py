"""`crewkg serve` in a subprocess, for the tests about the served process (tests/test_server.py, test_web_e2e.py).

Waits are bounded by events: a reader thread copies the server's output to its log file line by line and wakes whoever
waits for a line (`wait_for`); the server is ready when it has announced itself and answers /health."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

#: how long a start or an awaited log line may take on a loaded machine before the test fails
PATIENCE = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`crewkg serve ARGS --port P` started in `tmp` (its own cache); `log` holds everything it printed."""

    def __init__(self, tmp: Path, args: list[str], name: str = "serve") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"{name}.log"
        self._lines: list[str] = []
        self._changed = threading.Condition()
        env = dict(os.environ, CREWKG_CACHE=str(tmp / "cache"))
        cmd = [sys.executable, "-c", "from crewkg.cli import app; app()", "serve", "--port", str(self.port), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        threading.Thread(target=self._read, name=f"{name}-log", daemon=True).start()
        try:
            self.wait_for("serving http://")
            self._until_healthy()
        except BaseException:
            self.stop()
            raise

    def _read(self) -> None:
        with self.log.open("w") as out:
            for line in self.proc.stdout:
                out.write(line)
                out.flush()
                with self._changed:
                    self._lines.append(line)
                    self._changed.notify_all()
        with self._changed:
            self._lines.append("")  # end of output: the process has ended
            self._changed.notify_all()

    def text(self) -> str:
        with self._changed:
            return "".join(self._lines)

    def wait_for(self, text: str, timeout: float = PATIENCE) -> str:
        """Until the server has printed `text` (the whole output so far); fails if it ends or stays silent that long."""
        with self._changed:
            if not self._changed.wait_for(lambda: text in "".join(self._lines) or self._lines[-1:] == [""], timeout):
                raise TimeoutError(f"crewkg serve did not print {text!r} within {timeout:g} s:\n{''.join(self._lines)}")
            out = "".join(self._lines)
        if text not in out:
            raise RuntimeError(f"crewkg serve ended before printing {text!r}:\n{out}")
        return out

    def _until_healthy(self) -> None:
        """The announcement comes just before uvicorn binds the port: connect until it answers (a refused connection
        is retried after a moment, an accepted one waits for the answer)."""
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"crewkg serve exited:\n{self.text()}")
            try:
                if httpx.get(self.url + "/health", timeout=PATIENCE).status_code == 200:
                    return
            except httpx.ConnectError:
                time.sleep(0.05)  # the port is not bound yet

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
