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

    def __reduce__(self):
        """Picklable with its fields (worker processes send errors back and forth; Exception's default would call
        __init__ with the message alone)."""
        return (type(self), (self.file, self.field, self.expected, self.got))

    def message(self) -> str:
        got = "" if self.got is None else f" (got {quote(self.got)})"
        where = f"{self.file}: " if self.file else ""
        field = f"field '{self.field}': " if self.field else ""
        return f"{where}{field}expected {self.expected}{got}"


#: at most this many characters of a value are quoted in a message: enough to recognise it, never a whole file
QUOTE_LIMIT = 60


def quote(value: object) -> str:
    """A short, printable prefix of a value's repr for messages (a huge or hostile value is not echoed whole)."""
    text = repr(value) if not isinstance(value, str) or len(value) <= QUOTE_LIMIT else repr(value[:QUOTE_LIMIT])
    if len(text) > QUOTE_LIMIT + 2:
        text = text[:QUOTE_LIMIT] + "…"
    elif isinstance(value, str) and len(value) > QUOTE_LIMIT:
        text += "…"
    return text
