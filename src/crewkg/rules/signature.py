"""What the rules can tell apart: a person's facts reduced to what decides every outcome of the program, so that a
register evaluates persons with equal signatures once (answers.register).

Two facts of the program make this sound. Every fact about a person names the person first and no rule joins two
persons, so the id can be set aside. And the numbers of a record (days, years, months, an age) reach the program only
through comparisons with minimums of the kb, after the sums its clauses make: each requirement kind that reads such
numbers says which of its fact predicates carry them (`ABSTRACTED`) and which of those comparisons hold
(`abstraction`), in the kind's own module beside its clauses. Every other fact is kept as it is.

tests/test_register.py checks the grouping against evaluating each person alone, on synthetic registers and on
persons one day either side of every threshold sum."""

from __future__ import annotations

from typing import Any

from crewkg.law.statute import Law
from crewkg.rules.kinds import kinds


def abstracted_predicates() -> frozenset[str]:
    """The fact predicates whose numbers the kinds abstract."""
    return frozenset(name for k in kinds().values() for name in k.abstracted)


def signature(person_id: str, facts: list[tuple], law: Law) -> tuple[Any, ...] | None:
    """The person's facts as the rules tell them apart (None when a fact does not name the person first: such a
    person is evaluated on its own)."""
    if any(len(f) < 2 or f[1] != person_id for f in facts):
        return None
    numeric = abstracted_predicates()
    exact: list[tuple] = []
    by_predicate: dict[str, list[tuple]] = {}
    for f in facts:
        by_predicate.setdefault(f[0], []).append(f)
        if f[0] not in numeric:
            exact.append((f[0], *f[2:]))
    return (frozenset(exact),
            tuple((k.name, k.abstraction(by_predicate, law)) for k in kinds().values() if k.abstraction is not None))
