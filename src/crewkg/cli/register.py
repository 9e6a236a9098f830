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


def write_atomically(out: Path, chunks: Iterable[str], inputs: Iterable[Path] = ()) -> None:
    """Stream the chunks into a temporary file beside `out`, then rename it over `out`; nothing half-written remains
    when anything fails (Ctrl-C included). `out` may not be one of the inputs (that would replace what is read), and
    gets the mode the file it replaces had, else the mode a new file gets (the umask), not the temporary file's 0600."""
    import tempfile

    if not out.parent.is_dir():
        raise InputError(str(out), "--out", "out_folder", str(out.parent))
    for source in inputs:
        if source.exists() and out.exists() and out.resolve() == source.resolve():
            raise InputError(str(out), "--out", "out_not_input", str(source))
    if out.exists():
        mode = out.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for chunk in chunks:
                f.write(chunk)
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
    from crewkg.records.problems import Problem

    batch, first = [], True

    def flush(batch):
        persons = [e.person for e in batch if e.person is not None]
        answers = iter(check(law, persons, day, lang))
        for e in batch:
            if e.person is None:
                failed[0] += 1
                yield e.problem()
            else:
                yield next(answers)

    def render(item) -> str:
        nonlocal first
        if fmt == "json":
            text = ("[\n" if first else ",\n") + json_text(item.entry(lang) if isinstance(item, Problem) else item).rstrip("\n")
            first = False
            return text
        if isinstance(item, Problem):
            for line in item.lines(lang):
                typer.echo(line, err=True)
            return ""
        from crewkg.answers.render import print_answer

        print_answer(law, item, lang)
        return ""

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
