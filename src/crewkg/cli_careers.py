"""Career commands (issue 4): `crewkg paths`, `plan`, `programme`, `cohort`. Imports inside the commands keep `crewkg check` fast."""

from __future__ import annotations

from .cli import app  # noqa: F401
