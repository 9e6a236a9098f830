"""Register answers: one compact line per person (which certificates can be issued, by which provisions, and the
roles the person can fill), for registers of many thousands of people where the full answer (every requirement of
every pathway) would be gigabytes. Built from the same Datalog derivation as the full answer, so the two agree
(tests/test_register.py compares them).

Persons the rules cannot tell apart are evaluated once (`rules.signature`: the facts without the person's id, and of
the numbers only which minimums of the register's program they reach, `rules.eligibility.signature_law`): the reading
process keeps the outcomes of the signatures it has met (`_SEEN`) and sends only new ones to the Datalog program, in
batches (one run each) and, on more than one core, to worker processes that inherit the compiled law by fork; lines
come back in input order. A person whose facts do not all name it first is evaluated on its own."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any

from crewkg.answers.eligibility import regulation_in_force
from crewkg.law.statute import Law
from crewkg.records.register import Entry
from crewkg.workers import collect_now, collection_held, fork_pool, inherited

#: persons per Datalog run: with the collector held, measured fastest between 70 and 150 (20 000 persons: 23.3 s at
#: 100, 28.9 s at 40); with it running, 40 was (pyDatalog's tables grow worse than linearly beyond)
BATCH = 100
#: signatures remembered (outcomes without the person id), across registers of the same process
SEEN_MAX = 200_000
_SEEN: dict[tuple[date, tuple], dict[str, Any]] = {}


def compact(law: Law, pid: str, d, as_of: date) -> dict[str, Any]:
    """The register line of one person: design contract 'Register (bulk) answers'."""
    reg = regulation_in_force(law, as_of)
    base: dict[str, Any] = {"person": pid, "as_of": as_of.isoformat()}
    if reg is None:
        return base | {"regulation": None, "covered": False, "eligible": {}, "roles": []}
    eligible: dict[str, list[str]] = {}
    for c in law.certificates_in_order():
        if c.regulation == reg.id and (pid, c.id) in d.eligible:
            eligible[c.id] = [law.citation(law.pathways[w].provision) for w in c.pathways if (pid, w) in d.satisfied]
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    roles = sorted({role for who, role in d.can_fill if who == pid}, key=lambda r: (order.get(r, 99), r))
    return base | {"regulation": reg.name, "eligible": eligible, "roles": roles}


def _outcomes(law: Law, todo: list[tuple[str, list[tuple]]], as_of: date) -> list[dict[str, Any]]:
    """The register lines (without the person) of persons given by id and facts: one Datalog run."""
    from crewkg.rules.eligibility import derive_outcomes

    d = derive_outcomes([facts for _, facts in todo], law, as_of)
    collect_now()
    return [_without_person(compact(law, pid, d, as_of)) for pid, _ in todo]


def _without_person(line: dict[str, Any]) -> dict[str, Any]:
    del line["person"]
    return line


def _work(args: tuple[list[tuple[str, list[tuple]]], date]) -> list[dict[str, Any]]:
    todo, as_of = args
    return _outcomes(inherited("law"), todo, as_of)


def answer_register(law: Law, entries: Iterable[Entry], as_of: date, workers: int = 1,
                    on_progress: Callable[[int], None] | None = None, lang: str = "en") -> Iterator[dict[str, Any]]:
    """The register lines of the entries, in input order (an error line's `detail` in `lang`).

    This process reads each person's facts and signature; only persons with a signature not met before go to the
    Datalog program, `BATCH` at a time, in this process or in worker processes (fork: they inherit the compiled
    law); a line is given as soon as every line before it is known. Cyclic garbage collection is held meanwhile,
    here and in the workers (`workers.collection_held`)."""
    with collection_held():
        yield from _lines(law, entries, as_of, workers, on_progress, lang)


def _lines(law: Law, entries: Iterable[Entry], as_of: date, workers: int,
           on_progress: Callable[[int], None] | None, lang: str) -> Iterator[dict[str, Any]]:
    from crewkg.rules.eligibility import person_facts, signature_law
    from crewkg.rules.signature import signature

    waiting: deque[tuple[Entry, Any]] = deque()  # input order: (entry, signature key or None for an error)
    asked: set[Any] = set()  # keys sent to the program and not yet answered
    alone: list[Any] = []  # keys of persons evaluated on their own: forgotten at the end
    todo: list[tuple[Any, str, list[tuple]]] = []
    running: deque[tuple[list[Any], Any]] = deque()
    compared = signature_law(law, as_of)  # the minimums the program compares the numbers with
    pool = None
    if workers > 1:
        pool = fork_pool(workers, law=law)

    def send() -> None:
        keys = [key for key, _, _ in todo]
        job = [(pid, facts) for _, pid, facts in todo]
        todo.clear()
        if pool is None:
            remember(keys, _outcomes(law, job, as_of))
        else:
            running.append((keys, pool.apply_async(_work, ((job, as_of),))))

    def collect(block: bool) -> None:
        while running and (block or running[0][1].ready()):
            keys, result = running.popleft()
            remember(keys, result.get())

    def remember(keys: list[Any], lines: list[dict[str, Any]]) -> None:
        if len(_SEEN) + len(keys) > SEEN_MAX:  # forget all but what lines still wait for
            kept = {key: _SEEN[key] for _, key in waiting if key in _SEEN}
            _SEEN.clear()
            _SEEN.update(kept)
        _SEEN.update(zip(keys, lines, strict=True))
        asked.difference_update(keys)

    def ready() -> Iterator[dict[str, Any]]:
        n = 0
        while waiting and (waiting[0][1] is None or waiting[0][1] in _SEEN):
            e, key = waiting.popleft()
            n += 1
            yield e.error_entry(lang) if key is None else {"person": e.person.id, **_SEEN[key]}
        if n and on_progress:
            on_progress(n)

    try:
        for i, e in enumerate(entries):
            if e.person is None:
                waiting.append((e, None))
            else:
                facts = person_facts(e.person, law, as_of)
                sig = signature(e.person.id, facts, compared)
                key = (as_of, sig) if sig is not None else (as_of, "alone", i, e.person.id)
                if sig is None:
                    alone.append(key)
                waiting.append((e, key))
                if key not in _SEEN and key not in asked:
                    asked.add(key)
                    todo.append((key, e.person.id, facts))
                    if len(todo) >= BATCH:
                        send()
            collect(block=len(running) > 2 * workers)
            yield from ready()
        if todo:
            send()
        collect(block=True)
        yield from ready()
        assert not waiting, "every line is answered"
    finally:
        if pool is not None:
            pool.terminate()
        for key in alone:
            _SEEN.pop(key, None)

