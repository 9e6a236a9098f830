"""What is made from a law alone and asked again and again — the reducible requirements, the kb's facts of a
program, the law as a reading or a register's program reads it — made at the first asking and kept on the law itself:
a law dropped (another kb, a test's law) takes it with it, and no module-level cache keeps a law alive. The one home
of that keeping (`Law` is `Remembering`); each value is named by what it is."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


class Remembering:
    """Values kept in the instance's own `__dict__` (a frozen or plain dataclass alike; `dataclasses.replace` makes
    an instance that remembers nothing)."""

    def remembered(self, name: str, make: Callable[[], T]) -> T:
        """The value kept under `name`, made by `make` at the first asking."""
        try:
            return self.__dict__[name]
        except KeyError:
            found = self.__dict__[name] = make()
            return found

    def remembered_for(self, name: str, key: Hashable, make: Callable[[], T], bound: int | None = None) -> T:
        """As `remembered`, one value per key (a date, a regulation, a set of pathways); with a `bound`, the values
        kept are forgotten together once that many are (keys the law does not bound: records, days)."""
        memo: dict = self.remembered(name, dict)
        try:
            return memo[key]
        except KeyError:
            if bound is not None and len(memo) >= bound:
                memo.clear()
            found = memo[key] = make()
            return found
