"""Minimum crew commands (issue 3): `crewkg crew`. Imports inside the commands keep `crewkg check` fast."""

from __future__ import annotations

from .cli import app  # noqa: F401
