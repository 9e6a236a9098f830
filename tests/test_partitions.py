"""A register larger than one machine, in partitions (docs/scale.md, "Past one machine"): a person's evaluation reads
only that person's record and the kb, so the register is split by person, each partition exported on its own (a
worker of Dask, Ray or Spark would run exactly `crewkg export PARTITION …`), and the partitions answer as one — merged
(their N-Quads loaded into one store) or federated (each partition's store asked, the rows merged in the query's
order). Here on two local partitions of the examples, every canned query against the whole register's answer."""

from __future__ import annotations

import shutil
import zlib
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crewkg.cli import app
from crewkg.law.statute import load_law
from crewkg.records.load import load_person_file
from crewkg.records.persons import record_files
from crewkg.service.canned import canned_queries
from crewkg.service.results import short
from crewkg.service.stores import open_store_dir

pytestmark = pytest.mark.xdist_group("test_partitions")  # its module fixtures are made once, on one worker

AS_OF = date(2026, 11, 30)
EXAMPLES = Path(__file__).resolve().parents[1] / "kb" / "examples" / "persons"
CANNED = {q.name: q for q in canned_queries()}
runner = CliRunner()


def _partition(pid: str, partitions: int = 2) -> int:
    """A person's partition: a hash of the id, so that it never changes however the register grows."""
    return zlib.crc32(pid.encode("utf-8")) % partitions


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The whole register and its two partitions, each exported as N-Quads (the full derivation graph) and into a
    store of its own (the compact one, the default): the partitions answer as one in either shape."""
    folder = tmp_path_factory.mktemp("partitions")
    law = load_law()
    parts = [folder / "part-0", folder / "part-1"]
    for part in parts:
        part.mkdir()
    for f in record_files(EXAMPLES):
        shutil.copy(f, parts[_partition(load_person_file(f, law, AS_OF).id)] / f.name)
    assert all(any(part.iterdir()) for part in parts)
    out = {}
    for name, source in (("whole", EXAMPLES), ("part-0", parts[0]), ("part-1", parts[1])):
        for how in (["--out", str(folder / f"{name}.nq"), "--derivations", "full"],
                    ["--store", str(folder / f"{name}-store")]):
            r = runner.invoke(app, ["export", str(source), "--as-of", AS_OF.isoformat(), "--workers", "1", *how])
            assert r.exit_code == 0, r.output
        out[name] = (folder / f"{name}.nq", folder / f"{name}-store")
    return out


def _csv(args: list[str]) -> list[str]:
    r = runner.invoke(app, ["sparql", *args, "--format", "csv"])
    assert r.exit_code == 0, r.output
    return r.stdout.splitlines()


@pytest.mark.parametrize("name", sorted(CANNED))
def test_two_partitions_merged_into_one_store_answer_as_the_whole_register(exported, name):
    whole = _csv([name, "--graph", str(exported["whole"][0]), "--store", "oxigraph"])
    merged = _csv([name, "--graph", str(exported["part-0"][0]), "--graph", str(exported["part-1"][0]), "--store", "oxigraph"])
    assert merged == whole
    assert len(whole) > 1 or name == "rosters-failing", name


def _rows(store_dir: Path, text: str) -> tuple[list[str], list[tuple[str, ...]]]:
    store = open_store_dir(store_dir, must_exist=True, read_only=True)
    try:
        table = store.select(text)
        return table.vars, [tuple(short(x) for x in row) for row in table.rows]
    finally:
        del store


def _federated(name: str, answers: list[tuple[list[str], list[tuple[str, ...]]]]) -> list[tuple[str, ...]]:
    """The partitions' rows as the whole register's: a query about persons (its page variable, the first key of its
    order) takes each person's rows from the one partition that holds the person, in the order of the persons;
    a count adds the partitions' counts; a query of the kb alone gives the same rows in every partition."""
    q = CANNED[name]
    names = answers[0][0]
    if q.page is not None:
        column = names.index(q.page.lstrip("?"))
        blocks: dict[str, list[tuple[str, ...]]] = {}
        for _, rows in answers:
            for row in rows:
                blocks.setdefault(row[column], []).append(row)
        return [row for person in sorted(blocks) for row in blocks[person]]
    if name == "eligible-count":
        totals: dict[str, int] = {}
        for _, rows in answers:
            for certificate, n in rows:
                totals[certificate] = totals.get(certificate, 0) + int(n)
        return [(certificate, str(n)) for certificate, n in totals.items()]
    assert all(rows == answers[0][1] for _, rows in answers), name
    return answers[0][1]


@pytest.mark.parametrize("name", sorted(CANNED))
def test_two_partitions_stores_federated_answer_as_the_whole_register(exported, name):
    text = CANNED[name].text
    whole = _rows(exported["whole"][1], text)[1]
    parts = [_rows(exported[part][1], text) for part in ("part-0", "part-1")]
    assert _federated(name, parts) == whole
    # no roster is loaded; no example is blocked by medical fitness alone from a certificate that concerns them
    assert whole or name in ("rosters-failing", "blocked-by-medical-fitness"), name
