"""Many persons answered in input order: a folder of records, a register read whole (`check --format json` or text),
the records of several paths. The one home of what every face does with many records: the good ones are checked a
batch at a time (one Datalog run per batch, Python's cyclic collector held meanwhile, `workers.collection_held`), a
record that failed keeps its place, and the answers come back in the order the records came."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any, TypeVar

from crewkg.answers.eligibility import check
from crewkg.law.statute import Law
from crewkg.records.persons import Person

#: a record that could not be read (records.problems.Problem, records.register.Entry): kept as it came
Failure = TypeVar("Failure")
#: persons checked in one Datalog run: big enough to share the run's cost, small enough to stream a register
BATCH = 200


def answered(law: Law, items: Iterable[Person | Failure], as_of: date, lang: str = "de",
             person_of: Callable[[Any], Person | None] | None = None) -> Iterator[dict[str, Any] | Failure]:
    """Each item's eligibility answer, or the item itself where it is a record that failed, in input order.
    `person_of` finds the Person in an item that may hold one (a register's Entry); by default an item is a Person
    or a failure."""
    from crewkg.workers import collect_now, collection_held

    find = person_of or (lambda x: x if isinstance(x, Person) else None)
    batch: list[Any] = []

    def flush() -> Iterator[dict[str, Any] | Failure]:
        persons = [p for p in map(find, batch) if p is not None]
        answers = iter(check(law, persons, as_of, lang, readings=True))
        collect_now(every=1)
        for item in batch:
            yield next(answers) if find(item) is not None else item
        batch.clear()

    with collection_held():
        for item in items:
            batch.append(item)
            if len(batch) >= BATCH:
                yield from flush()
        yield from flush()
