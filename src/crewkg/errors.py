"""One error type for bad input, so every face (CLI, API) can report file, field and expectation alike."""

from __future__ import annotations


class InputError(Exception):
    """Bad input: names the file, the field and what was expected."""

    def __init__(self, file: str, field: str, expected: str, got: object | None = None) -> None:
        self.file = file
        self.field = field
        self.expected = expected
        self.got = got
        super().__init__(self.message())

    def message(self) -> str:
        got = "" if self.got is None else f" (got {self.got!r})"
        where = f"{self.file}: " if self.file else ""
        field = f"field '{self.field}': " if self.field else ""
        return f"{where}{field}expected {self.expected}{got}"
