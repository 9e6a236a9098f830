"""Putting what is asked about into a store: persons (their records and derived facts, evaluated by Datalog, in worker
processes for a register), crew checks of vessels and rosters, and RDF files as they are (`build_store`, the store of
`crewkg sparql` and `crewkg serve`; `put_persons`, `crewkg export --store`)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from crewkg.errors import InputError
from crewkg.law.namespaces import CREW_IRI
from crewkg.law.statute import Law
from crewkg.service.crew_checks import crew_check_subjects, crew_check_triples
from crewkg.service.dataset import DERIVED_GRAPH, RECORDS_GRAPH
from crewkg.service.derived import evaluate
from crewkg.service.derived_terms import D, derived_subjects, evaluation_iri
from crewkg.service.export import format_for_suffix
from crewkg.service.provenance import input_digest
from crewkg.service.records_rdf import record_subjects
from crewkg.service.stores import Store, is_store_dir, new_store, open_store_dir
from crewkg.service.terms import nquads


def _evaluated(law: Law, part: list, as_of: date) -> tuple[str, str]:
    """(N-Quads of the batch's records and derived facts, N-Quads of their input digests): one Datalog run."""
    facts, digests = [], []
    for _, record, derived in evaluate(law, part, as_of):
        facts.append(nquads(record, RECORDS_GRAPH))
        facts.append(nquads([t for t in derived if t[1] != D.inputDigest], DERIVED_GRAPH))
        digests.append(nquads([t for t in derived if t[1] == D.inputDigest], DERIVED_GRAPH))
    return "".join(facts), "".join(digests)


def _evaluated_in_worker(args: tuple[list, date, Path]) -> tuple[Path, str]:
    """A worker's run: its facts go to a file, not through the pool's pipe (a batch is tens of megabytes, and a pool
    terminated while such a result is in the pipe hangs on it), the digests come back."""
    part, as_of, folder = args
    from crewkg.workers import collect_now, inherited

    facts, digests = _evaluated(inherited("law"), part, as_of)
    collect_now(every=1)
    path = folder / f"{os.getpid()}-{part[0].id}.nq"
    path.write_text(facts, encoding="utf-8")
    return path, digests


def put_persons(store: Store, law: Law, persons: list, as_of: date, replace: bool = True, chunk: int = 200,
                keep_unchanged: bool = False, workers: int = 1) -> int:
    """Evaluate the persons (Datalog, `chunk` a run) and put their records and derived facts into the store,
    removing whatever an earlier evaluation of the same person left there (delete-before-insert). With
    `keep_unchanged`, a person whose evaluation in the store read exactly what this one would (`crew:inputDigest`)
    keeps their facts and is not evaluated again. With more than one worker, the runs are evaluated in worker
    processes (fork: they inherit the compiled law; they leave an interrupt to this process) while this one
    writes, in input order. Returns how many persons were kept so."""
    import tempfile

    if keep_unchanged:
        todo = [p for p in persons if store.objects(evaluation_iri(p.id), D.inputDigest) != [input_digest(law, p, as_of)]]
    else:
        todo = list(persons)
    parts = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    if not parts:
        return len(persons)
    pool = None
    with tempfile.TemporaryDirectory(prefix="crewkg-export-") as folder:
        if workers > 1 and len(parts) > 1:
            from crewkg.workers import fork_pool

            pool = fork_pool(min(workers, len(parts)), law=law)
            done = pool.imap(_evaluated_in_worker, [(part, as_of, Path(folder)) for part in parts])
        else:
            done = (_evaluated(law, part, as_of) for part in parts)
        try:
            for part, (facts, digests) in zip(parts, done, strict=True):
                if isinstance(facts, Path):
                    facts, path = facts.read_text(encoding="utf-8"), facts
                    path.unlink()
                if replace:
                    store.replace_subjects([s for p in part for s in record_subjects(p) + derived_subjects(law, p.id)],
                                           facts)
                else:
                    store.add_nquads(facts, bulk=True)
                store.add_nquads(digests)  # last, in one transaction: a person with a digest is complete
        finally:
            if pool is not None:
                pool.terminate()
                pool.join()
    return len(persons) - len(todo)


def load_graph_files(store: Store, paths: Iterable[Path]) -> None:
    """Add RDF files as they are (an earlier `crewkg export`, a register's records): Turtle, N-Triples or
    JSON-LD by suffix. A file that does not parse is an InputError naming it."""
    for path in paths:
        fmt = format_for_suffix(path.suffix)
        if fmt is None:
            raise InputError(str(path), "", "rdf_suffix")
        if not path.is_file():
            raise InputError(str(path), "", "rdf_file")
        try:
            store.load_file(path, fmt)
        except Exception as exc:  # rdflib and pyoxigraph raise several parser types
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            raise InputError(str(path), "", "rdf_syntax", format=fmt, reason=first) from None


def parse_crew_option(value: str) -> tuple[Path, Path | None]:
    """--crew VESSEL[:ROSTER]"""
    vessel, _, roster = value.partition(":")
    pair = (Path(vessel), Path(roster) if roster else None)
    for path in pair:
        if path is not None and not path.is_file():
            raise InputError(str(path), "--crew", "crew_option", value)
    return pair


def put_crew_checks(store: Store, law: Law, pairs: Iterable[tuple[Path, Path | None]], as_of: date, lang: str = "de") -> None:
    """The minimum crew of each vessel and the verdict on its roster (crewkg.manning, the `crewkg crew` call), as
    records and derived facts in the store, replacing an earlier check of the same vessel and roster."""
    import importlib.util

    pairs = list(pairs)
    if not pairs:
        return
    if importlib.util.find_spec("crewkg.manning.crew") is None:
        raise InputError("--crew", "crew", "manning_module")
    from crewkg.manning.compile import load_manning
    from crewkg.manning.crew import crew_answer
    from crewkg.manning.vessels import load_roster, load_vessel, roster_key, roster_name, vessel_graph

    ml = load_manning(law)
    for vessel_path, roster_path in pairs:
        vessel = load_vessel(vessel_path, law, ml)
        crew = load_roster(roster_path, law, ml, as_of) if roster_path is not None else None
        answer = crew_answer(law, ml, vessel, as_of, crew, False, lang)
        roster = roster_name(roster_path) if roster_path is not None else None
        store.remove_subjects(crew_check_subjects(vessel.id, roster_key(roster, crew) if roster and crew else None))
        store.add(list(vessel_graph(vessel, ml)), RECORDS_GRAPH)
        store.add(crew_check_triples(law, answer, roster, crew, lang), DERIVED_GRAPH)


def build_store(kind: str, law: Law, persons: list, as_of: date, graphs: Iterable[Path] = (),
                crews: Iterable[tuple[Path, Path | None]] = (), only_read: bool = False, workers: int = 1,
                lang: str = "de") -> Store:
    """A store with ontology + kb, the persons' records and derived facts (evaluated by `workers` processes where
    there are more than one run's persons, `put_persons`), crew checks of vessels and rosters, and any extra RDF
    files. `only_read`: a store folder with nothing to put into it is opened read-only (one question, `crewkg
    sparql`: a folder `crewkg serve` holds can be asked too). `lang`: the language of the crew checks' sentences."""
    graphs, crews = list(graphs), list(crews)
    if is_store_dir(kind):
        nothing_to_put = only_read and not persons and not graphs and not crews
        store = open_store_dir(Path(kind), must_exist=True, read_only=nothing_to_put)
        if nothing_to_put:
            return store
        put_persons(store, law, persons, as_of, replace=True, workers=workers)
    else:
        store = new_store(kind)
        put_persons(store, law, persons, as_of, replace=False, workers=workers)
    put_crew_checks(store, law, crews, as_of, lang)
    load_graph_files(store, graphs)
    return store


def other_kb_evaluations(store: Store, law: Law) -> int:
    """How many evaluations in the store were made with another version of the kb (`crew:kbVersion`): their facts,
    and the summary triples the canned queries start from, are that version's until they are exported again, so a
    store left from an earlier crewkg answers about them as it did then, or not at all."""
    query = (f"PREFIX crew: <{CREW_IRI}>\nSELECT (COUNT(?ev) AS ?n) WHERE {{ ?ev crew:kbVersion ?v . "
             f"FILTER(STR(?v) != {json.dumps(law.version)}) }}")
    rows = store.select(query).rows
    return int(rows[0][0].toPython()) if rows and rows[0][0] is not None else 0
