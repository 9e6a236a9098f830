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


def check_register(path: Path, day: date, fmt: str, lang: str, out: Path | None, workers: int | None,
                   every: bool = False) -> None:
    from crewkg import api
    from crewkg.api import records

    if workers is not None and workers < 1:
        _fail(InputError("--workers", "workers", "workers", workers), lang)
    if not path.exists():
        _fail(InputError(str(path), "", "register_path"), lang)
    law = api.law()
    failed = [0]

    def lines() -> Iterable[str]:
        entries = records.entries(path, law, day)
        if fmt == "jsonl":
            yield from _compact_lines(law, entries, day, workers, failed, lang)
        else:
            yield from _full(law, entries, day, lang, fmt, failed, every)

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
        typer.echo(records.summary(failed[0], lang), err=True)
        raise typer.Exit(1)


def _compact_lines(law, entries, day, workers, failed, lang) -> Iterable[str]:
    from crewkg.api.records import compact_lines

    progress = _progress()
    with progress as advance:
        for line in compact_lines(law, entries, day, workers or os.cpu_count() or 1, lang, on_progress=advance):
            if "error" in line:
                failed[0] += 1
            yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


def _full(law, entries, day, lang, fmt, failed, every=False) -> Iterable[str]:
    """The full answers of `--format json` (one JSON list, streamed) or text tables, in input order."""
    from crewkg.api.records import answered
    from crewkg.api.texts import print_answer

    first = True
    for item in answered(entries, law, day, lang, person_of=lambda e: e.person):
        failure = not isinstance(item, dict)
        failed[0] += failure
        if fmt == "json":
            yield ("[\n" if first else ",\n") + json_text(item.error_entry(lang) if failure else item).rstrip("\n")
            first = False
        elif failure:
            for line in item.problem().lines(lang):
                typer.echo(line, err=True)
        else:
            print_answer(law, item, lang, every)
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
