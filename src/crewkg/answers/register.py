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
from crewkg.rules.eligibility import person_facts, signature_law, stage_two_rules
from crewkg.rules.signature import kind_keys, signature, stage_two_key, stage_two_reads
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


def satisfied_pathways(law: Law, line: dict[str, Any]) -> dict[str, list[str]]:
    """A register line's issuable certificates with the pathways (by id) it names as satisfied: a line names each by
    its provision (`compact`), which no two pathways of one certificate share."""
    return {cid: [w for w in law.certificates[cid].pathways if law.citation(law.pathways[w].provision) in cited]
            for cid, cited in line.get("eligible", {}).items()}


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
    run = _Run(law, as_of, workers, on_progress, lang)
    try:
        for i, e in enumerate(entries):
            run.enter(i, e)
            run.collect(block=len(run.running) > 2 * workers)
            yield from run.ready()
        run.flush()
        yield from run.ready()
        assert not run.waiting, "every line is answered"
    finally:
        run.close()


def answer_register_days(law: Law, entries: Iterable[tuple[Entry, ...]], days: tuple[date, ...], workers: int = 1,
                         lang: str = "en") -> Iterator[tuple[dict[str, Any], ...]]:
    """The register lines of each entry on each of the days (one entry per day: the record credited on that day), a
    tuple per entry in input order: the register's own evaluation, once per day, sharing one pool of workers and the
    outcomes remembered (a register diff, `answers.diff`, asks two days)."""
    with collection_held():
        pool = fork_pool(workers, law=law) if workers > 1 else None
        runs = [_Run(law, day, workers, None, lang, pool=pool) for day in days]
        found: list[deque[dict[str, Any]]] = [deque() for _ in days]

        def ready() -> Iterator[tuple[dict[str, Any], ...]]:
            for run, lines in zip(runs, found, strict=True):
                lines.extend(run.ready())
            while all(found):
                yield tuple(lines.popleft() for lines in found)

        try:
            for i, group in enumerate(entries):
                for run, e in zip(runs, group, strict=True):
                    run.enter(i, e)
                    run.collect(block=len(run.running) > 2 * workers)
                yield from ready()
            for run in runs:
                run.flush()
            yield from ready()
        finally:
            for run in runs:
                run.close()
            if pool is not None:
                pool.terminate()


class _Run:
    """One register's reading: the lines waiting in input order, the signatures asked of the Datalog program (in
    batches per stage, here or in worker processes) and the outcomes remembered across registers (`_SEEN`, `_MET`,
    `_VIA`)."""

    def __init__(self, law: Law, as_of: date, workers: int, on_progress: Callable[[int], None] | None,
                 lang: str, pool: Any = None) -> None:
        self.law, self.as_of, self.on_progress, self.lang = law, as_of, on_progress, lang
        self.waiting: deque[tuple[Entry, Any]] = deque()  # input order: (entry, key of its line or None for an error)
        self.asked: set[Any] = set()  # keys sent to the program and not yet answered
        self.alone: list[Any] = []  # keys of persons evaluated on their own: forgotten at the end
        self.todo: dict[int, list[tuple[Any, str, list[tuple], Any]]] = {1: [], 2: []}  # per stage: (key, id, facts, shares)
        self.running: deque[tuple[list[Any], list[Any], Any]] = deque()
        self.compared = signature_law(law, as_of)  # the minimums the program compares the numbers with
        self.two_rules = stage_two_rules()
        self.two_reads = stage_two_reads(self.two_rules)
        self.kind_of = {rid: r.kind for rid, r in law.requirements.items()}
        if _LAW[0] != law.version:
            forget()
            _LAW[0] = law.version
        self.own_pool = pool is None  # a pool given is the caller's to stop
        self.pool = pool if pool is not None else fork_pool(workers, law=law) if workers > 1 else None

    def enter(self, i: int, e: Entry) -> None:
        """Queue the line of the `i`th entry: an error line, or the key of its outcome, asked where it is new."""
        if e.person is None:
            self.waiting.append((e, None))
            return
        as_of, pid = self.as_of, e.person.id
        facts = person_facts(e.person, self.law, as_of)
        sig = signature(pid, facts, self.compared)
        if sig is None:
            key = (as_of, "alone", i, pid)
            self.alone.append(key)
            self.ask(1, key, pid, facts)
        else:
            key = _VIA.get((as_of, sig), (as_of, sig))
            if key not in _SEEN and key not in self.asked:
                shares = kind_keys(sig)
                mets = [_MET.get((as_of, s)) for s in shares]
                if all(m is not None for m in mets):  # every share met before: the second stage alone
                    met = frozenset().union(*mets)
                    key = _VIA[(as_of, sig)] = (as_of, "met", stage_two_key(sig, met, self.two_rules))
                    self.ask(2, key, pid, [f for f in facts if f[0] in self.two_reads]
                             + [("met", pid, r) for r in sorted(met)])
                else:
                    self.ask(1, key, pid, facts, shares)
        self.waiting.append((e, key))

    def ask(self, stage: int, key: Any, pid: str, facts: list[tuple], shares: Any = None) -> None:
        """Ask the program for an outcome not known nor asked yet; a full batch is sent."""
        if key not in _SEEN and key not in self.asked:
            self.asked.add(key)
            self.todo[stage].append((key, pid, facts, shares))
            if len(self.todo[stage]) >= BATCH:
                self.send(stage)

    def send(self, stage: int) -> None:
        """Run the stage's batch: here, or in a worker process (collected later)."""
        batch = self.todo[stage]
        keys, shares = [t[0] for t in batch], [t[3] for t in batch]
        job = [(pid, facts) for _, pid, facts, _ in batch]
        batch.clear()
        if self.pool is None:
            self.remember(keys, shares, _outcomes(self.law, job, self.as_of, stage))
        else:
            self.running.append((keys, shares, self.pool.apply_async(_work, ((job, self.as_of, stage),))))

    def flush(self) -> None:
        """Send what is left of every stage's batch and wait for every outcome."""
        for stage in (1, 2):
            if self.todo[stage]:
                self.send(stage)
        self.collect(block=True)

    def collect(self, block: bool) -> None:
        """Remember the outcomes of the workers' batches that are done (with `block`: of all of them)."""
        while self.running and (block or self.running[0][2].ready()):
            keys, shares, result = self.running.popleft()
            self.remember(keys, shares, result.get())

    def remember(self, keys: list[Any], shares: list[Any], results: list[tuple[dict[str, Any], Any]]) -> None:
        """Keep a batch's outcomes and what each kind's share of their signatures meets (for the second stage)."""
        if len(_SEEN) + len(keys) > SEEN_MAX:  # forget all but what lines still wait for
            kept = {key: _SEEN[key] for _, key in self.waiting if key in _SEEN}
            _SEEN.clear()
            _SEEN.update(kept)
            _MET.clear()
            _VIA.clear()
        for key, share, (line, met) in zip(keys, shares, results, strict=True):
            _SEEN[key] = line
            if share is not None:  # what each kind's share of this signature meets, for the second stage
                for s in share:
                    _MET[(self.as_of, s)] = frozenset(r for r in met if self.kind_of.get(r) == s[0])
        self.asked.difference_update(keys)

    def ready(self) -> Iterator[dict[str, Any]]:
        """The lines known, in input order, up to the first that is not."""
        n = 0
        while self.waiting and (self.waiting[0][1] is None or self.waiting[0][1] in _SEEN):
            e, key = self.waiting.popleft()
            n += 1
            yield e.error_entry(self.lang) if key is None else {"person": e.person.id, **_SEEN[key]}
        if n and self.on_progress:
            self.on_progress(n)

    def close(self) -> None:
        """Stop the worker processes and forget the outcomes of persons evaluated on their own."""
        if self.pool is not None and self.own_pool:
            self.pool.terminate()
        for key in self.alone:
            _SEEN.pop(key, None)
