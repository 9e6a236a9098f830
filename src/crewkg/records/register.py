"""Registers: many person records in one source, read as a stream — a JSON Lines file (one record per line), a CSV of
flat records (`records.flat`), or a folder of record files. Each entry is the Person or the InputError that refused
it, in input order, so one bad record never stops the others."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Place, os_reason
from crewkg.law.statute import Law
from crewkg.records.persons import ID_RE, Person, person_from_mapping, record_files
from crewkg.records.problems import Problem, all_errors, file_errors
from crewkg.records.reading import MAX_BYTES, parse_mapping

#: register file suffixes (a folder, or a single record file, is read as its records)
REGISTER_SUFFIXES = {".jsonl", ".ndjson", ".csv"}


@dataclass
class Entry:
    """One record of a register: where it stands (`line` for JSON Lines and CSV, `file` for a folder), and the
    Person or the error."""

    label: str  # the record's id where it could be read, else its line or file
    where: str  # "line 7" / "row 7" / a file path
    person: Person | None = None
    error: InputError | None = None
    errors: list[InputError] = field(default_factory=list)  # all the record's errors, `error` first (records.problems)
    line: int | None = None  # the line of the file the record begins on (JSON Lines and CSV)

    def problem(self) -> Problem:
        return Problem(self.where, self.errors or [self.error], self.line)

    def error_entry(self, lang: str = "en") -> dict[str, Any]:
        """The JSON form of a record that failed, in every register answer (`--format jsonl` and `json`):
        {"person": id, "error", "errors", "detail", "details"} where the record's id could be read, else
        {"line": the line number | "file": the path, …} (records.problems)."""
        entry = self.problem().entry(lang)
        if self.label != self.where:
            del entry["file" if self.line is None else "line"]
            return {"person": self.label, **entry}
        return entry


def is_register(path: Path) -> bool:
    return path.is_dir() or path.suffix.lower() in REGISTER_SUFFIXES


def read_register(path: Path, law: Law, as_of: date, shacl: bool = False) -> Iterator[Entry]:
    """The entries of a register, in input order; ids must be unique (a repeated id is an error of that entry).
    `shacl` also runs the SHACL shapes on each record (slow; the schema check is as strict, see records.load)."""
    seen: dict[str, str] = {}  # id -> where it first stood, whether or not that record could be read
    entry = None
    for entry in _entries(path, law, as_of, shacl):
        pid = entry.person.id if entry.person is not None else entry.label if entry.label != entry.where else None
        if entry.person is not None and pid in seen:
            where = entry.where if entry.line is None else f"{path}: {entry.where}"  # a folder's file, or a line
            entry.error = InputError(where, "id", "unique_id_at", pid, other=Place(seen[pid]))
            entry.person = None
        elif pid is not None:
            seen.setdefault(pid, entry.where)
        yield entry
    if entry is None:  # an empty register is a wrong file, not a register of nobody
        raise InputError(str(path), "", "register_records")


def each_person(path: Path, law: Law, as_of: date) -> list[Person | Problem]:
    """Every record a path names — a record file, a folder or a register — as `records.load.load_each` gives a file's
    or a folder's: the Person, or the Problem that refused it, in input order."""
    from crewkg.records.load import load_each

    if path.is_dir() or path.suffix.lower() not in REGISTER_SUFFIXES:
        return load_each(path, law, as_of)
    return [e.person if e.person is not None else e.problem() for e in read_register(path, law, as_of)]


def _entries(path: Path, law: Law, as_of: date, shacl: bool) -> Iterator[Entry]:
    suffix = path.suffix.lower()
    if path.is_dir() or suffix not in REGISTER_SUFFIXES:
        from crewkg.records.load import load_person_file

        for f in record_files(path):
            try:
                p = load_person_file(f, law, as_of, shacl)
                yield Entry(p.id, str(f), person=p)
            except InputError as exc:
                yield Entry(_readable_id(f) or str(f), str(f), error=exc, errors=file_errors(exc, f, law, as_of))
        return
    if suffix == ".csv":
        from crewkg.records.flat import csv_rows

        for source, n, rid, rec in csv_rows(path, law, "register"):
            yield _entry(rec, source, law, as_of, shacl, n, rid)
        return
    yield from _jsonl(path, law, as_of, shacl)


def _readable_id(f: Path) -> str | None:
    """The id of a YAML or JSON record file that was refused, where it can still be read (the entry then names the
    person, as a register line does); None for Turtle or a file that does not parse."""
    from crewkg.records.reading import read_mapping

    if f.suffix.lower() not in (".yaml", ".yml", ".json"):
        return None
    try:
        rec = read_mapping(f)
    except InputError:
        return None
    rid = rec.get("id") if isinstance(rec, dict) else None
    return rid if isinstance(rid, str) and ID_RE.match(rid) else None


def _entry(rec, source: str, law: Law, as_of: date, shacl: bool, line: int, rid: object = None) -> Entry:
    where = source.rsplit(": ", 1)[-1]
    if rid is None and isinstance(rec, dict):
        rid = rec.get("id")
    label = rid if isinstance(rid, str) and ID_RE.match(rid) else where
    if isinstance(rec, list):  # the errors of a CSV row's cells (records.flat)
        return Entry(label, where, error=rec[0], errors=rec, line=line)
    try:
        p = person_from_mapping(rec, law, as_of, source)
        if shacl:
            from crewkg.records.load import shacl_check_person

            shacl_check_person(p)
    except InputError as exc:
        return Entry(label, where, error=exc, errors=all_errors(exc, rec, law, as_of, source), line=line)
    return Entry(p.id, where, person=p, line=line)


#: byte-order marks of UTF-16 and UTF-32: a register saved so is refused whole, not read line by line as garbage
_OTHER_ENCODINGS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def _jsonl(path: Path, law: Law, as_of: date, shacl: bool) -> Iterator[Entry]:
    """Each line of a JSON Lines register as an Entry. Lines are read as bytes and decoded one by one: a line that is
    no UTF-8 is that line's error (the others are answered); a file in UTF-16 or UTF-32 is refused whole (issue 44:
    its first line raised out of the reader)."""
    try:
        f = path.open("rb")
    except OSError as exc:
        raise InputError(str(path), "", "jsonl", os_reason(exc)) from None
    with f:
        if f.read(4).startswith(_OTHER_ENCODINGS):
            raise InputError(str(path), "", "utf8")
        f.seek(0)
        for n, raw in enumerate(f, start=1):
            source = f"{path}: line {n}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield Entry(f"line {n}", f"line {n}", error=InputError(source, "", "utf8"), line=n)
                continue
            if n == 1:
                line = line.removeprefix("\ufeff")
            if not line.strip():
                continue
            if len(line) > MAX_BYTES:
                yield Entry(f"line {n}", f"line {n}", error=InputError(source, "", "record_size"), line=n)
                continue
            try:  # the same reading as a record file: duplicate keys, depth and size bounded, a mapping
                rec = parse_mapping(line.rstrip("\r\n"), source, json_syntax=True, in_line=True)
            except InputError as exc:
                yield Entry(f"line {n}", f"line {n}", error=exc, line=n)
                continue
            yield _entry(rec, source, law, as_of, shacl, n)

