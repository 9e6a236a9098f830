"""Records for the faces: what a path names (a record file, a folder, a register), the records that failed, and many
persons answered at once. The CLI and the service ask here; the reading itself is crewkg.records', the answering
crewkg.answers'."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkg.errors import InputError

if TYPE_CHECKING:
    from crewkg.law.statute import Law
    from crewkg.records.persons import Person
    from crewkg.records.problems import Problem
    from crewkg.records.register import Entry


def is_register(path: Path) -> bool:
    """A folder, a JSON Lines file or a CSV of flat records: many records, each answered or refused on its own."""
    from crewkg.records.register import is_register as register

    return register(path)


def each(path: Path, law: Law, as_of: date) -> list[Person | Problem]:
    """Every record a path names, in input order: the Person, or the Problem that refused it."""
    from crewkg.records.register import each_person

    return each_person(path, law, as_of)


def entries(path: Path, law: Law, as_of: date) -> Iterator[Entry]:
    """The entries of a register (JSON Lines, CSV or a folder), read as they are asked for."""
    from crewkg.records.register import read_register

    return read_register(path, law, as_of)


def is_problem(item: Any) -> bool:
    """Whether an item of `each` is a record that could not be read."""
    from crewkg.records.problems import Problem

    return isinstance(item, Problem)


def summary(failed: int, lang: str, left_out: bool = False) -> str:
    """The closing line when records failed ('2 records could not be read …')."""
    from crewkg.records.problems import summary as said

    return said(failed, lang, left_out)


def answered(items: Iterable[Any], law: Law, as_of: date, lang: str,
             person_of: Callable[[Any], Person | None] | None = None) -> Iterator[Any]:
    """Each item's eligibility answer with its summary (crewkg.careers.summary), or the item itself where it failed,
    in input order (crewkg.answers.many)."""
    from collections import deque

    from crewkg.answers.many import answered as in_order
    from crewkg.careers.summary import summary
    from crewkg.records.persons import Person as Record

    find = person_of or (lambda x: x if isinstance(x, Record) else None)
    kept: deque = deque()

    def remembered(xs: Iterable[Any]) -> Iterator[Any]:
        for x in xs:
            kept.append(x)
            yield x

    for out in in_order(law, remembered(items), as_of, lang, person_of):
        item = kept.popleft()
        if isinstance(out, dict):
            out["summary"] = summary(law, find(item), out, as_of, lang)
        yield out


def compact_lines(law: Law, items: Iterable[Entry], as_of: date, workers: int, lang: str,
                  on_progress: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """A register's compact answers (`check --format jsonl`), one dict per record in input order."""
    from crewkg.answers.register import answer_register

    return answer_register(law, items, as_of, workers, on_progress=on_progress, lang=lang)


def persons_of(paths: list[Path], law: Law, as_of: date) -> tuple[list[Person], list[Problem]]:
    """Every record the paths name, ids unique across all of them, and the records that failed. A record file named
    itself that fails stops the call (its InputError); a bad record inside a folder or a register is a failure, and so
    is a record whose id an earlier one had (`repeated`)."""
    persons: list[Person] = []
    failures: list[Problem] = []
    seen: dict[str, str] = {}
    for path in paths:
        for p in each(path, law, as_of):
            if is_problem(p):
                if not is_register(path):
                    raise p.first
                failures.append(p)
            elif (twice := repeated(p, seen)) is not None:
                failures.append(twice)
            else:
                persons.append(p)
    return persons, failures


def repeated(p: Person, seen: dict[str, str]) -> Problem | None:
    """The problem of a person whose id an earlier record of the same call had (one evaluation per person, never two
    side by side), else None; `seen` maps each id to where it was read, and learns this one."""
    from crewkg.records.problems import Problem

    if p.id in seen:
        return Problem(p.source, [InputError(p.source, "id", "unique_id_in", p.id, other=seen[p.id])])
    seen[p.id] = p.source
    return None
