"""Register answers: one compact line per person (which certificates can be issued, by which provisions, and the
roles the person can fill), for registers of many thousands of people where the full answer (every requirement of
every pathway) would be gigabytes. Built from the same Datalog derivation as the full answer, so the two agree
(tests/test_register.py compares them).

Persons the rules cannot tell apart are evaluated once (`rules.signature`: the facts without the person's id, and of
the numbers only which minimums of the register's program they reach, `rules.eligibility.signature_law`): the reading
process keeps the outcomes of the signatures it has met (`_SEEN`) and sends only new ones to the Datalog program, in
batches (one run each) and, on more than one core, to worker processes that inherit the compiled law by fork; lines
come back in input order. A person whose facts do not all name it first is evaluated on its own.

A new signature goes to the whole program only while one of its kind shares (`rules.signature.kind_keys`: what the
clauses of one kind read) is new; that run also gives the requirements the person meets, remembered per share
(`_MET`). Once every share of a signature is known, the requirements it meets are too, and the second stage alone
derives its pathways, certificates and roles from them (`rules.eligibility.derive_from_met`, about half the program),
once per second-stage key (`rules.signature.stage_two_key`). 100 000 synthetic persons: 54 s on two cores instead of
91 s (docs/scale.md)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.records.register import Entry
from crewkg.workers import collect_now, collection_held, fork_pool, inherited

#: persons per Datalog run: with the collector held, measured fastest between 70 and 150 (20 000 persons: 23.3 s at
#: 100, 28.9 s at 40); with it running, 40 was (pyDatalog's tables grow worse than linearly beyond)
BATCH = 100
#: signatures remembered (outcomes without the person id), across registers of the same process
SEEN_MAX = 200_000
_SEEN: dict[tuple[date, tuple], dict[str, Any]] = {}
#: the requirements each kind's share of a signature meets (`rules.signature.kind_keys`), and the second-stage key of
#: each signature that went to the second stage (`rules.signature.stage_two_key`); forgotten with `_SEEN`
_MET: dict[tuple[date, tuple], frozenset[str]] = {}
_VIA: dict[tuple[date, tuple], tuple] = {}


#: the version of the law whose outcomes are remembered: another law's register forgets them first
_LAW: list[str | None] = [None]


def forget() -> None:
    """Forget every outcome remembered (a test that must start afresh; another law)."""
    _SEEN.clear()
    _MET.clear()
    _VIA.clear()


def compact(law: Law, pid: str, d, as_of: date) -> dict[str, Any]:
    """The register line of one person: design contract 'Register (bulk) answers'."""
    reg = law.regulation_on(as_of)
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


def _outcomes(law: Law, todo: list[tuple[str, list[tuple]]], as_of: date,
              stage: int) -> list[tuple[dict[str, Any], frozenset[str] | None]]:
    """The register lines (without the person) of persons given by id and facts, one Datalog run: of the whole
    program (stage 1; with the requirements each person meets) or of the second stage (stage 2; the facts then hold
    the requirements met, `rules.eligibility.derive_from_met`)."""
    from crewkg.rules.eligibility import derive_from_met, derive_outcomes

    d = (derive_outcomes if stage == 1 else derive_from_met)([facts for _, facts in todo], law, as_of)
    collect_now()
    met: dict[str, set[str]] = {}
    for pid, r in d.met:
        met.setdefault(pid, set()).add(r)
    return [(_without_person(compact(law, pid, d, as_of)), frozenset(met.get(pid, ())) if stage == 1 else None)
            for pid, _ in todo]


def _without_person(line: dict[str, Any]) -> dict[str, Any]:
    del line["person"]
    return line


def _work(args: tuple[list[tuple[str, list[tuple]]], date, int]) -> list[tuple[dict[str, Any], frozenset[str] | None]]:
    todo, as_of, stage = args
    return _outcomes(inherited("law"), todo, as_of, stage)


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
    from crewkg.rules.eligibility import person_facts, signature_law, stage_two_rules
    from crewkg.rules.signature import kind_keys, signature, stage_two_key, stage_two_reads

    waiting: deque[tuple[Entry, Any]] = deque()  # input order: (entry, key of its line or None for an error)
    asked: set[Any] = set()  # keys sent to the program and not yet answered
    alone: list[Any] = []  # keys of persons evaluated on their own: forgotten at the end
    todo: dict[int, list[tuple[Any, str, list[tuple], Any]]] = {1: [], 2: []}  # per stage: (key, id, facts, shares)
    running: deque[tuple[list[Any], list[Any], Any]] = deque()
    compared = signature_law(law, as_of)  # the minimums the program compares the numbers with
    two_rules = stage_two_rules()
    two_reads = stage_two_reads(two_rules)
    kind_of = {rid: r.kind for rid, r in law.requirements.items()}
    if _LAW[0] != law.version:
        forget()
        _LAW[0] = law.version
    pool = None
    if workers > 1:
        pool = fork_pool(workers, law=law)

    def send(stage: int) -> None:
        batch = todo[stage]
        keys, shares = [t[0] for t in batch], [t[3] for t in batch]
        job = [(pid, facts) for _, pid, facts, _ in batch]
        batch.clear()
        if pool is None:
            remember(keys, shares, _outcomes(law, job, as_of, stage))
        else:
            running.append((keys, shares, pool.apply_async(_work, ((job, as_of, stage),))))

    def collect(block: bool) -> None:
        while running and (block or running[0][2].ready()):
            keys, shares, result = running.popleft()
            remember(keys, shares, result.get())

    def remember(keys: list[Any], shares: list[Any], results: list[tuple[dict[str, Any], Any]]) -> None:
        if len(_SEEN) + len(keys) > SEEN_MAX:  # forget all but what lines still wait for
            kept = {key: _SEEN[key] for _, key in waiting if key in _SEEN}
            _SEEN.clear()
            _SEEN.update(kept)
            _MET.clear()
            _VIA.clear()
        for key, share, (line, met) in zip(keys, shares, results, strict=True):
            _SEEN[key] = line
            if share is not None:  # what each kind's share of this signature meets, for the second stage
                for s in share:
                    _MET[(as_of, s)] = frozenset(r for r in met if kind_of.get(r) == s[0])
        asked.difference_update(keys)

    def ready() -> Iterator[dict[str, Any]]:
        n = 0
        while waiting and (waiting[0][1] is None or waiting[0][1] in _SEEN):
            e, key = waiting.popleft()
            n += 1
            yield e.error_entry(lang) if key is None else {"person": e.person.id, **_SEEN[key]}
        if n and on_progress:
            on_progress(n)

    def ask(stage: int, key: Any, pid: str, facts: list[tuple], shares: Any = None) -> None:
        if key not in _SEEN and key not in asked:
            asked.add(key)
            todo[stage].append((key, pid, facts, shares))
            if len(todo[stage]) >= BATCH:
                send(stage)

    try:
        for i, e in enumerate(entries):
            if e.person is None:
                waiting.append((e, None))
            else:
                pid = e.person.id
                facts = person_facts(e.person, law, as_of)
                sig = signature(pid, facts, compared)
                if sig is None:
                    key = (as_of, "alone", i, pid)
                    alone.append(key)
                    ask(1, key, pid, facts)
                else:
                    key = _VIA.get((as_of, sig), (as_of, sig))
                    if key not in _SEEN and key not in asked:
                        shares = kind_keys(sig)
                        mets = [_MET.get((as_of, s)) for s in shares]
                        if all(m is not None for m in mets):  # every share met before: the second stage alone
                            met = frozenset().union(*mets)
                            key = _VIA[(as_of, sig)] = (as_of, "met", stage_two_key(sig, met, two_rules))
                            ask(2, key, pid, [f for f in facts if f[0] in two_reads]
                                + [("met", pid, r) for r in sorted(met)])
                        else:
                            ask(1, key, pid, facts, shares)
                waiting.append((e, key))
            collect(block=len(running) > 2 * workers)
            yield from ready()
        for stage in (1, 2):
            if todo[stage]:
                send(stage)
        collect(block=True)
        yield from ready()
        assert not waiting, "every line is answered"
    finally:
        if pool is not None:
            pool.terminate()
        for key in alone:
            _SEEN.pop(key, None)
