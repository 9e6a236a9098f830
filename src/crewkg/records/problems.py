"""A bad record in a batch — a folder, a register, a cohort, an export: the one home of how it is named.

The person check stops at a record's first error. Where the record could be read as a mapping, its other errors are
cheap to find: each top-level key is checked alone, in a minimal record {id, key}, and the errors found are added
after the first, each once. A face then answers the good records, names each bad one with all its errors (`entry`
for JSON, `lines` for people, in the language asked), and ends with exit status 1 and the catalogue's summary line."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import ID_RE, person_from_mapping


@dataclass
class Problem:
    """A record that could not be read: where it stands ('line 7', 'row 3', a file) and its errors, first first;
    `line`: the line of the file it begins on, where it stands in a JSON Lines or CSV file."""

    where: str
    errors: list[InputError]
    line: int | None = None

    @property
    def first(self) -> InputError:
        return self.errors[0]

    def entry(self, lang: str = "en") -> dict[str, Any]:
        """The JSON form: {"file": the path, or "line": the line number in a JSON Lines or CSV file, "error": the first
        error, "errors": all} in English, as programs match on them, and "detail", "details": the same in the language
        asked (as the service's refusals)."""
        place = {"file": self.where} if self.line is None else {"line": self.line}
        return {**place, "error": self.first.message(),
                "errors": [e.message() for e in self.errors], "detail": self.first.message(lang),
                "details": [e.message(lang) for e in self.errors]}

    def lines(self, lang: str) -> list[str]:
        """The lines for people: the first error, then each further one."""
        return [say(lang, "error.line", message=self.first.message(lang))] + \
            [say(lang, "error.also", message=e.message(lang)) for e in self.errors[1:]]


def all_errors(first: InputError, data: Any, law: Law, as_of: date, source: str) -> list[InputError]:
    """`first` and, where `data` is a mapping, the errors of each of its top-level keys checked alone."""
    found = [first]
    if not isinstance(data, dict):
        return found
    seen = {first.message()}
    pid = data.get("id")
    pid = pid if isinstance(pid, str) and ID_RE.match(pid) else "record"
    for key, value in data.items():
        if key == "id":
            continue
        try:
            person_from_mapping({"id": pid, key: value}, law, as_of, source)
        except InputError as exc:
            if exc.message() not in seen:
                seen.add(exc.message())
                found.append(exc)
    return found


def file_errors(first: InputError, path: Path, law: Law, as_of: date) -> list[InputError]:
    """All errors of a record file that failed with `first` (its mapping read again, where it can be)."""
    if path.suffix.lower() == ".ttl" or first.file != str(path):
        return [first]
    from crewkg.records.reading import read_mapping

    try:
        data = read_mapping(path)
    except InputError:
        return [first]
    return all_errors(first, data, law, as_of, str(path))


def summary(failed: int, lang: str, left_out: bool = False) -> str:
    """'crewkg: 2 records could not be evaluated; see their error lines' in `lang`; `left_out`: the command writes no
    error lines (export, sparql, serve: each bad record is named on standard error and left out)."""
    key = "error.failed_left_out" if left_out else "error.failed"
    return say(lang, key + "_one" if failed == 1 else key, n=failed)
