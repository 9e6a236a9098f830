"""Register answers: one compact line per person (which certificates can be issued, by which provisions, and the
roles the person can fill), for registers of many thousands of people where the full answer (every requirement of
every pathway) would be gigabytes. Built from the same Datalog derivation as the full answer, so the two agree
(tests/test_register.py compares them).

A register is evaluated in batches (one Datalog run each) and, on more than one core, in worker processes that
inherit the compiled law by fork; lines come back in input order.

Persons the rules cannot tell apart are evaluated once (`rules.signature`: the facts without the person's id, and of
the numbers only which minimums of the kb they reach). Each worker keeps the outcomes of the signatures it has met
(`_SEEN`); a person whose facts do not all name it first is evaluated on its own."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any

from crewkg.answers.eligibility import regulation_in_force
from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.records.register import Entry

#: persons per Datalog run: measured fastest between 25 and 500 (pyDatalog's tables grow worse than linearly)
BATCH = 100
#: fact signatures remembered per worker process (outcomes without the person id)
SEEN_MAX = 200_000
_SEEN: dict[tuple[date, tuple], dict[str, Any]] = {}


def compact(law: Law, p: Person, d, as_of: date) -> dict[str, Any]:
    """The register line of one person: design contract 'Register (bulk) answers'."""
    reg = regulation_in_force(law, as_of)
    base: dict[str, Any] = {"person": p.id, "as_of": as_of.isoformat()}
    if reg is None:
        return base | {"regulation": None, "covered": False, "eligible": {}, "roles": []}
    eligible: dict[str, list[str]] = {}
    for c in law.certificates_in_order():
        if c.regulation == reg.id and (p.id, c.id) in d.eligible:
            eligible[c.id] = [law.citation(law.pathways[w].provision) for w in c.pathways if (p.id, w) in d.satisfied]
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    roles = sorted({role for pid, role in d.can_fill if pid == p.id}, key=lambda r: (order.get(r, 99), r))
    return base | {"regulation": reg.name, "eligible": eligible, "roles": roles}


def _batch_lines(law: Law, batch: list[Entry], as_of: date) -> list[dict[str, Any]]:
    from crewkg.rules.eligibility import derive_outcomes, person_facts
    from crewkg.rules.signature import signature

    keys: list[tuple | None] = []
    todo: dict[tuple | int, tuple[Person, list[tuple]]] = {}
    done: dict[Any, dict[str, Any]] = {}
    for i, e in enumerate(batch):
        if e.person is None:
            keys.append(None)
            continue
        facts = person_facts(e.person, law, as_of)
        sig = signature(e.person.id, facts, law)
        key = (as_of, sig) if sig is not None else i
        keys.append(key)
        if key in _SEEN:
            done[key] = _SEEN[key]
        elif key not in todo:
            todo[key] = (e.person, facts)
    if todo:
        d = derive_outcomes([facts for _, facts in todo.values()], law, as_of)
        for key, (p, _) in todo.items():
            line = compact(law, p, d, as_of)
            del line["person"]
            done[key] = line
            if not isinstance(key, int):
                if len(_SEEN) >= SEEN_MAX:
                    _SEEN.clear()
                _SEEN[key] = line
    return [_error(e) if key is None else {"person": e.person.id, **done[key]}
            for e, key in zip(batch, keys, strict=True)]


def _error(e: Entry) -> dict[str, Any]:
    """{"person": id, "error": …, "errors": […]} where the record's id could be read, else {"line"|"file": …, "error": …,
    "errors": […]}."""
    entry = e.problem().entry()  # records.problems: {"file"|"line", "error", "errors"}
    if e.label != e.where:
        del entry["file" if os.sep in e.where else "line"]
        return {"person": e.label, **entry}
    return entry


_WORKER: dict[str, Any] = {}


def _work(args: tuple[list[Entry], date]) -> list[dict[str, Any]]:
    batch, as_of = args
    return _batch_lines(_WORKER["law"], batch, as_of)


def answer_register(law: Law, entries: Iterable[Entry], as_of: date, workers: int = 1,
                    on_progress: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """The register lines of the entries, in input order."""
    def batches() -> Iterator[tuple[list[Entry], date]]:
        batch: list[Entry] = []
        for e in entries:
            batch.append(e)
            if len(batch) >= BATCH:
                yield batch, as_of
                batch = []
        if batch:
            yield batch, as_of

    if workers <= 1:
        for batch, day in batches():
            yield from _batch_lines(law, batch, day)
            if on_progress:
                on_progress(len(batch))
        return
    import multiprocessing

    _WORKER["law"] = law
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers) as pool:
        for lines in pool.imap(_work, batches(), chunksize=1):
            yield from lines
            if on_progress:
                on_progress(len(lines))
