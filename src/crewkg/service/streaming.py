"""A register's records and derived facts as text, a block per person in input order, evaluated in worker processes
as the register is read: `crewkg export` writes the blocks into a file or onto standard output, or loads them into a
store, and holds a bounded number of persons at a time whatever the register's size (issue 46).

The compact shape (service/compact.py) first asks the register's own evaluation which certificates each person can be
issued and which roles they fill (`answers.register`: persons the rules cannot tell apart evaluated once, in the
reading process), then batches of persons go to the workers of this module, which ask the program for what their
compact graphs hold and write the text. The full shape evaluates each batch whole (`derived.evaluate`). pyDatalog
keeps its database in module state, so the workers are processes (`crewkg.workers`), forked so that they inherit the
compiled law; at most two batches a worker are out at once, so the register is read no faster than it is written."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
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


@dataclass
class Part:
    """A batch of persons written: their text (the records and derived facts, a block per person), in a file a worker
    wrote (`path`, read in pieces: the text never passes through the pool's pipe nor sits whole in the reading
    process) or here (`text`); their ids, their input digests apart where asked (N-Quads, which a store writes after
    the facts, `loading.put_persons`), and how many triples the text holds."""

    persons: list[str]
    digests: str
    triples: int
    text: str = ""
    path: Path | None = None

    def pieces(self, size: int = 1 << 20) -> Iterator[str]:
        """The text in pieces of about `size` characters; a worker's file is removed once read."""
        if self.path is None:
            yield self.text
            return
        try:
            with self.path.open(encoding="utf-8") as f:
                while piece := f.read(size):
                    yield piece
        finally:
            self.path.unlink(missing_ok=True)

    def whole(self) -> str:
        return "".join(self.pieces())


def marker(pid: str) -> str:
    """The comment line that opens a person's block in a file: a later export into the file replaces the block."""
    return f"# person {pid}\n"


def head(syntax: str, shape: str) -> str:
    """What a file opens with: the export's mark, Turtle's prefixes, and the engine every evaluation of the compact
    shape is associated with (said once, service/compact.py)."""
    from crewkg.service.compact import engine_triples
    from crewkg.service.dataset import DERIVED_GRAPH
    from crewkg.service.derived_terms import PREFIXES

    text = Text(syntax, PREFIXES)
    return f"{HEAD_MARK}{syntax}\n" + text.head() + (text.triples(engine_triples(), DERIVED_GRAPH) if shape == COMPACT else "")


#: the first line of a streamed export (then its syntax): a later export into the file merges by person blocks
HEAD_MARK = "# crewkg export, blocks by person: "


def parts(law: Law, persons: Iterable[Person], as_of: date, shape: str = COMPACT, syntax: str = "nq",
          workers: int = 1, digest_apart: bool = False, marks: bool = True, batch: int = BATCH) -> Iterator[Part]:
    """The persons written a batch at a time, in input order (see the module's docstring). `digest_apart`: the input
    digests' triples go into `Part.digests` (N-Quads), not the text; `marks`: each person's block opens with its
    `marker`; `batch`: persons a worker evaluates at a time. A part's text is to be read before the next part is
    asked for (its file is removed once read)."""
    import tempfile

    from crewkg.workers import collection_held

    if shape not in (COMPACT, FULL) or syntax not in SYNTAXES:
        raise ValueError(f"no shape {shape!r} or syntax {syntax!r}")
    with collection_held(), tempfile.TemporaryDirectory(prefix="crewkg-parts-") as folder:
        yield from _parts(law, persons, as_of, shape, syntax, workers, digest_apart, marks, batch, Path(folder))


def _parts(law: Law, persons: Iterable[Person], as_of: date, shape: str, syntax: str, workers: int,
           digest_apart: bool, marks: bool, size: int, folder: Path) -> Iterator[Part]:
    from itertools import chain

    from crewkg.workers import collect_now, fork_pool

    persons = iter(persons)
    first = next(persons, None)
    if first is None:  # nobody: no process is started
        return
    persons = chain([first], persons)
    pool = fork_pool(workers, law=law) if workers > 1 else None
    running: deque = deque()
    try:
        pairs = _lined(law, persons, as_of) if shape == COMPACT else ((p, None) for p in persons)
        for n, batch in enumerate(_batches(pairs, size)):
            job = ([p for p, _ in batch], [line for _, line in batch], as_of, shape, syntax, digest_apart, marks)
            if pool is None:
                yield _written(law, *job)
                continue
            running.append(pool.apply_async(_in_worker, (job, folder / f"part-{n}")))
            collect_now(every=10)  # the register's runs here leave cycles too
            # a worker has one batch running and one waiting: both stay busy, and the register is read no faster
            while running and (len(running) > workers or running[0].ready()):
                yield running.popleft().get()
        while running:
            yield running.popleft().get()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def _lined(law: Law, persons: Iterable[Person], as_of: date) -> Iterator[tuple[Person, dict[str, Any]]]:
    """Each person with their register line (which certificates can be issued, by which pathways; the roles), in this
    process: persons the rules cannot tell apart are evaluated once, so this is a small part of the work (100 000
    synthetic persons: 28 137 signatures), and a second pool of processes beside the workers' would hold the law
    twice more (300 persons: 462 MiB instead of 262 at the peak, measured)."""
    from crewkg.answers.register import answer_register
    from crewkg.records.register import Entry

    waiting: deque[Person] = deque()

    def entries() -> Iterator[Entry]:
        for p in persons:
            waiting.append(p)
            yield Entry(p.id, p.source, person=p)

    for line in answer_register(law, entries(), as_of):
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


def _in_worker(job: tuple, path: Path) -> Part:
    """A batch in a worker: its text into the file at `path`, the rest through the pipe."""
    from crewkg.workers import collect_now, inherited

    part = _written(inherited("law"), *job)
    path.write_text(part.text, encoding="utf-8")
    part.text, part.path = "", path
    collect_now(every=1)  # what a batch leaves in cycles, at once: a worker's memory is its first batch's (measured)
    return part


def _written(law: Law, persons: list[Person], lines: list, as_of: date, shape: str, syntax: str, digest_apart: bool,
             marks: bool) -> Part:
    """A batch evaluated and written."""
    from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH
    from crewkg.service.derived_terms import PREFIXES, D

    if shape == COMPACT:
        from crewkg.service.compact import evaluate_compact

        evaluated = evaluate_compact(law, persons, as_of, lines)
    else:
        from crewkg.service.derived import evaluate

        evaluated = evaluate(law, persons, as_of)
    text, quads = Text(syntax, PREFIXES), Text("nq")
    bodies, digests, ids, count = [], [], [], 0
    for p, record, derived in evaluated:
        digest = [t for t in derived if t[1] == D.inputDigest] if digest_apart else []
        if digest:
            derived = [t for t in derived if t[1] != D.inputDigest]
        bodies += [marker(p.id) if marks else "", text.triples(record, RECORDS_GRAPH), text.triples(derived, DERIVED_GRAPH)]
        digests.append(quads.triples(digest, DERIVED_GRAPH))
        ids.append(p.id)
        count += len(record) + len(derived)
    return Part(ids, "".join(digests), count, "".join(bodies))
