"""`crewkg check REGISTER`: a JSON Lines file, a CSV of flat records or a folder, answered record by record in input
order — compact lines (`--format jsonl`) or the full answers (`--format json`); a bad record gets an error line and
the others are answered; exit status 1 when any failed. `--out` writes atomically (temporary file + rename)."""

import json
import os
import sys
from collections.abc import Iterable
from datetime import date
from pathlib import Path

import typer

from crewkg.cli.common import _fail, json_text
from crewkg.errors import InputError
from crewkg.outputs import write_atomically


def check_register(path: Path, day: date, fmt: str, lang: str, out: Path | None, workers: int | None) -> None:
    from crewkg.law.statute import load_law
    from crewkg.records.register import read_register

    if workers is not None and workers < 1:
        _fail(InputError("--workers", "workers", "workers", workers), lang)
    if not path.exists():
        _fail(InputError(str(path), "", "register_path"), lang)
    law = load_law()
    failed = [0]

    def lines() -> Iterable[str]:
        entries = read_register(path, law, day)
        if fmt == "jsonl":
            yield from _compact_lines(law, entries, day, workers, failed, lang)
        else:
            yield from _full(law, entries, day, lang, fmt, failed)

    try:
        if out is not None:
            write_atomically(out, lines(), inputs=[path])
        else:
            for chunk in lines():
                sys.stdout.write(chunk)
    except InputError as exc:
        _fail(exc, lang)
        return
    if failed[0]:
        from crewkg.records.problems import summary

        typer.echo(summary(failed[0], lang), err=True)
        raise typer.Exit(1)


def _compact_lines(law, entries, day, workers, failed, lang) -> Iterable[str]:
    from crewkg.answers.register import answer_register

    progress = _progress()
    with progress as advance:
        for line in answer_register(law, entries, day, workers or os.cpu_count() or 1, on_progress=advance,
                                    lang=lang):
            if "error" in line:
                failed[0] += 1
            yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


def _full(law, entries, day, lang, fmt, failed) -> Iterable[str]:
    """The full answers of `--format json` (one JSON list) or text tables, batch by batch."""
    from crewkg.answers.eligibility import check
    from crewkg.records.register import Entry
    from crewkg.workers import collect_now, collection_held

    batch, first = [], True

    def flush(batch):
        persons = [e.person for e in batch if e.person is not None]
        answers = iter(check(law, persons, day, lang))
        collect_now(every=1)
        for e in batch:
            if e.person is None:
                failed[0] += 1
                yield e
            else:
                yield next(answers)

    def render(item) -> str:
        nonlocal first
        if fmt == "json":
            text = ("[\n" if first else ",\n") + json_text(item.error_entry(lang) if isinstance(item, Entry) else item).rstrip("\n")
            first = False
            return text
        if isinstance(item, Entry):
            for line in item.problem().lines(lang):
                typer.echo(line, err=True)
            return ""
        from crewkg.answers.render import print_answer

        print_answer(law, item, lang)
        return ""

    with collection_held():
        for e in entries:
            batch.append(e)
            if len(batch) >= 200:
                for item in flush(batch):
                    yield render(item)
                batch = []
        for item in flush(batch):
            yield render(item)
    if fmt == "json":
        yield "[]\n" if first else "\n]\n"


class _progress:
    """A rich progress bar on standard error when it is a terminal; nothing otherwise."""

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn("check"), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                             transient=True)
        self._bar.__enter__()
        task = self._bar.add_task("check", total=None)
        return lambda n: self._bar.advance(task, n)

    def __exit__(self, *exc):
        if getattr(self, "_bar", None) is not None:
            self._bar.__exit__(*exc)
        return False
