"""The crewkg command line. Thin: every answer comes from the library (`crewkg.api`), so the CLI, the HTTP API
and the Python API never disagree. Bad input exits 2 with one message, and nothing is written.

Each capability's commands live in their own module and register themselves on the one `app` (`cli.common`);
their modules import nothing heavy at module level, so `crewkg check` stays fast."""

from crewkg.cli import careers, casebook, check, crew, documents, register, service, timeline  # noqa: F401  (registers the commands)
from crewkg.cli.common import app


def main() -> None:  # pragma: no cover - console entry for python -m
    app()


__all__ = ["app", "main"]
