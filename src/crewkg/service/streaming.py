"""A register's records and derived facts as text, a block per person in input order, evaluated in worker processes
as the register is read: `crewkg export` writes the blocks into a file or onto standard output, or loads them into a
store, and holds a bounded number of persons at a time whatever the register's size (issue 46).

The compact shape (service/compact.py) first asks the register's own evaluation which certificates each person can be
issued and which roles they fill (`answers.register`: persons the rules cannot tell apart evaluated once, in its own
worker processes), then batches of persons go to the workers of this module, which ask the program for what their
compact graphs hold and write the text. The full shape evaluates each batch whole (`derived.evaluate`). pyDatalog
keeps its database in module state, so the workers are processes (`crewkg.workers`), forked so that they inherit the
compiled law; at most two batches a worker are out at once, so the register is read no faster than it is written."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.service.derived import COMPACT, FULL
from crewkg.service.terms import Text

#: persons per run of the program in a worker (the register's own batches: answers.register.BATCH)
BATCH = 100
#: the syntaxes a block is written in: N-Triples, N-Quads (the records and the derived facts in their named graphs,
#: dataset.py), Turtle
SYNTAXES = ("nt", "nq", "turtle")


@dataclass(frozen=True)
class Block:
    """One person's text: the records and derived facts, and (apart, where asked) the input digest of the evaluation,
    which a store writes last (`loading.put_persons`); how many triples the text holds."""

    person: str
    text: str
    digest: str
    triples: int


def marker(pid: str) -> str:
    """The comment line that opens a person's block in a file: a later export into the file replaces the block."""
    return f"# person {pid}\n"


def head(syntax: str, shape: str) -> str:
    """What a file opens with: the export's mark, Turtle's prefixes, and the engine every evaluation of the compact
    shape is associated with (said once, service/compact.py)."""
    from crewkg.service.compact import engine_triples
    from crewkg.service.dataset import DERIVED_GRAPH
    from crewkg.service.export import PREFIXES

    text = Text(syntax, PREFIXES)
    return f"{HEAD_MARK}{syntax}\n" + text.head() + (text.triples(engine_triples(), DERIVED_GRAPH) if shape == COMPACT else "")


#: the first line of a streamed export (then its syntax): a later export into the file merges by person blocks
HEAD_MARK = "# crewkg export, blocks by person: "


def blocks(law: Law, persons: Iterable[Person], as_of: date, shape: str = COMPACT, syntax: str = "nq",
           workers: int = 1, digest_apart: bool = False, marks: bool = True, batch: int = BATCH) -> Iterator[Block]:
    """Each person's block, in input order (see the module's docstring). `digest_apart`: the input digest's triple
    goes into `Block.digest` (N-Quads), not the text; `marks`: each text opens with its person's `marker`; `batch`:
    persons a worker evaluates at a time."""
    from crewkg.workers import collection_held

    if shape not in (COMPACT, FULL) or syntax not in SYNTAXES:
        raise ValueError(f"no shape {shape!r} or syntax {syntax!r}")
    with collection_held():
        yield from _blocks(law, persons, as_of, shape, syntax, workers, digest_apart, marks, batch)


def _blocks(law: Law, persons: Iterable[Person], as_of: date, shape: str, syntax: str, workers: int,
            digest_apart: bool, marks: bool, size: int) -> Iterator[Block]:
    from itertools import chain

    from crewkg.workers import fork_pool

    persons = iter(persons)
    first = next(persons, None)
    if first is None:  # nobody: no process is started
        return
    persons = chain([first], persons)
    pool = fork_pool(workers, law=law) if workers > 1 else None
    running: deque = deque()
    try:
        pairs = _lined(law, persons, as_of, workers) if shape == COMPACT else ((p, None) for p in persons)
        for batch in _batches(pairs, size):
            job = ([p for p, _ in batch], [line for _, line in batch], as_of, shape, syntax, digest_apart, marks)
            if pool is None:
                yield from _written(law, *job)
                continue
            running.append(pool.apply_async(_in_worker, (job,)))
            while running and (len(running) > 2 * workers or running[0].ready()):
                yield from running.popleft().get()
        while running:
            yield from running.popleft().get()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def _lined(law: Law, persons: Iterable[Person], as_of: date, workers: int) -> Iterator[tuple[Person, dict[str, Any]]]:
    """Each person with their register line (which certificates can be issued, by which pathways; the roles)."""
    from crewkg.answers.register import answer_register
    from crewkg.records.register import Entry

    waiting: deque[Person] = deque()

    def entries() -> Iterator[Entry]:
        for p in persons:
            waiting.append(p)
            yield Entry(p.id, p.source, person=p)

    for line in answer_register(law, entries(), as_of, workers=workers):
        yield waiting.popleft(), line


def _batches(pairs: Iterable[tuple[Person, Any]], size: int) -> Iterator[list[tuple[Person, Any]]]:
    batch: list[tuple[Person, Any]] = []
    for pair in pairs:
        batch.append(pair)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _in_worker(job: tuple) -> list[Block]:
    from crewkg.workers import collect_now, inherited

    out = _written(inherited("law"), *job)
    collect_now(every=5)
    return out


def _written(law: Law, persons: list[Person], lines: list, as_of: date, shape: str, syntax: str, digest_apart: bool,
             marks: bool) -> list[Block]:
    """A batch evaluated and written."""
    from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH
    from crewkg.service.derived_terms import D
    from crewkg.service.export import PREFIXES

    if shape == COMPACT:
        from crewkg.service.compact import evaluate_compact

        evaluated = evaluate_compact(law, persons, as_of, lines)
    else:
        from crewkg.service.derived import evaluate

        evaluated = evaluate(law, persons, as_of)
    text, quads = Text(syntax, PREFIXES), Text("nq")
    out = []
    for p, record, derived in evaluated:
        digest = [t for t in derived if t[1] == D.inputDigest] if digest_apart else []
        if digest:
            derived = [t for t in derived if t[1] != D.inputDigest]
        body = text.triples(record, RECORDS_GRAPH) + text.triples(derived, DERIVED_GRAPH)
        out.append(Block(p.id, (marker(p.id) if marks else "") + body, quads.triples(digest, DERIVED_GRAPH),
                         len(record) + len(derived)))
    return out
