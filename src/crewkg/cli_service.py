"""Service commands (issue 5): `crewkg export`, `sparql`, `serve`. Imports inside the commands keep `crewkg check` fast."""

from __future__ import annotations

from .cli import app  # noqa: F401
