"""Career commands (issue 4): `crewkg paths`, `plan`, `programme`, `cohort`. Imports inside the commands keep `crewkg check` fast."""

import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.api.careers import PICTURES
from crewkg.cli.common import Format, Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError


class PictureFormat(str, Enum):
    json = "json"
    graphml = "graphml"
    svg = "svg"
    png = "png"
    html = "html"


class CohortFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


#: the career graph's files: the pictures, and the graph as data
GRAPH_FILES = PICTURES | {".json": "json", ".graphml": "graphml"}

DaysPerYear = Annotated[int | None, typer.Option("--days-per-year", help="Credited Fahrzeit days per 365 days (default: the kb's § 6 Abs. 4 maximum).")]
AsOf = Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")]


def _write(out: Path, data: bytes | str) -> None:
    """Write a whole file or nothing (`outputs.write_atomically`)."""
    from crewkg.outputs import write_atomically

    write_atomically(out, [data])


def _wrote(lang: str, key: str, **fields: object) -> None:
    """Where `--out` wrote, on standard error (standard output keeps the answer): `{out}: what it holds`, as
    `export --out` says it."""
    from crewkg.messages.catalogue import say

    typer.echo(say(lang, key, **fields), err=True)


def _emit(data: bytes | str, out: Path | None) -> None:
    if out is not None:
        _write(out, data)
    elif isinstance(data, bytes):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        sys.stdout.write(data)


@app.command()
def paths(
    fmt: Annotated[PictureFormat | None, typer.Option("--format", help="json (node-link), graphml, svg, png or html; default from --out, else json.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write to this file instead of standard output.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of labels.")] = Lang.de,
    days_per_year: DaysPerYear = None,
) -> None:
    """The career graph: one edge per pathway of the kb, from the certificate it presupposes (or from the start)."""
    try:
        if out is not None and not out.parent.is_dir():
            raise InputError(str(out), "--out", "out_folder")
        if fmt is None and out is not None and out.suffix.lower() not in GRAPH_FILES:
            raise InputError(str(out), "--out", "graph_file", out.suffix)
        if fmt is None:
            fmt = PictureFormat(GRAPH_FILES[out.suffix.lower()]) if out is not None else PictureFormat.json
        from crewkg import api
        from crewkg.api.careers import graph_data

        data = graph_data(api.law(), fmt.value, lang.value, days_per_year)
        if fmt is PictureFormat.json:
            data = json_text(data)
        _emit(data, out)
    except InputError as exc:
        _fail(exc, lang.value)
    if out is not None:
        _wrote(lang.value, "cli.wrote.graph", out=out)


@app.command()
def plan(
    person: Annotated[Path, typer.Argument(help="One person record (YAML, JSON or Turtle).")],
    target: Annotated[str, typer.Option("--target", help="Certificate id, e.g. UBZ-Schiffsfuehrer.")],
    as_of: AsOf = None,
    days_per_year: DaysPerYear = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    out: Annotated[Path | None, typer.Option("--out", help="Draw the routes on the career graph from what the person holds, the fastest highlighted (.svg, .png or .html).")] = None,
    whole_graph: Annotated[bool, typer.Option("--whole-graph", help="With --out: draw every certificate and pathway, not only those the routes touch.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
) -> None:
    """Every route from where the person stands to the target, fastest first, with the earliest date of each step."""
    day = _as_of(as_of, lang.value)
    try:
        if out is not None and out.suffix.lower() not in PICTURES:
            raise InputError(str(out), "--out", "picture_file", out.suffix)
        from crewkg import api
        from crewkg.api.careers import planned, route_picture

        law = api.law()
        record = api.person(person, day)  # the record first, then the target (as the command always did)
        p = planned(law, lambda: record, target, day, lang.value, days_per_year,
                    evaluate=lambda x: api.check(x, day, lang.value), fields=("--as-of", "--target"))
        result = p.result
        picture = route_picture(law, p, PICTURES[out.suffix.lower()], lang.value, whole_graph) if out is not None else None
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if picture is not None:
        try:
            _write(out, picture)
        except InputError as exc:
            _fail(exc, lang.value)
        _wrote(lang.value, "cli.wrote.route", out=out, person=result["person"])
    if fmt is Format.json:
        sys.stdout.write(json_text(result))
        return
    from rich.console import Console

    from crewkg.api.careers import plan_text
    from crewkg.api.texts import output_width

    console = Console(highlight=False, soft_wrap=True, width=output_width(), emoji=False)
    for line in plan_text(law, p, lang.value):
        console.print(line, markup=False)


@app.command()
def programme(
    design: Annotated[Path, typer.Argument(help="A programme design (YAML or JSON): for, months, sailing_days, sailing_days_after, entry.")],
    as_of: AsOf = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
) -> None:
    """Which pathways a training programme serves and, for the others, exactly what it lacks.

    Exit status (text and JSON alike): 0 when the design serves at least one pathway; 1 when it serves none (a
    pathway lacking something, or no pathway accepting a programme for its role); 2 for bad input."""
    day = _as_of(as_of, lang.value)
    try:
        from crewkg import api
        from crewkg.api.careers import programme as check_programme

        law = api.law()
        result = check_programme(law, design, day, lang.value)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if fmt is Format.json:
        sys.stdout.write(json_text(result))
    else:
        from crewkg.api.careers import programme_text

        for line in programme_text(law, result, lang.value):
            typer.echo(line)
    if not result["serves"]:
        raise typer.Exit(1)  # a script can gate on the design


@app.command()
def cohort(
    cohort_file: Annotated[Path, typer.Argument(metavar="COHORT", help="Trainees as CSV (one person record per row) or YAML/JSON (a list of records).")],
    target: Annotated[str, typer.Option("--target", help="Certificate id, e.g. UBZ-Matrose.")],
    as_of: AsOf = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the report to this file: .html (with chart), .csv or .json.")] = None,
    fmt: Annotated[CohortFormat, typer.Option("--format", help="Standard output: table, csv or json.")] = CohortFormat.table,
    days_per_year: DaysPerYear = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes for large cohorts; default one per core.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
) -> None:
    """For every trainee: eligibility on the evaluation date, the earliest date for the target, and what is missing."""
    day = _as_of(as_of, lang.value)
    try:
        if out is not None and out.suffix.lower() not in (".html", ".htm", ".csv", ".json"):
            raise InputError(str(out), "--out", "report_file", out.suffix)
        if workers is not None and workers < 1:
            raise InputError("--workers", "workers", "workers", workers)
        from crewkg import api
        from crewkg.api.careers import cohort as evaluate
        from crewkg.api.careers import cohort_report

        law = api.law()
        c = evaluate(law, cohort_file, target, day, lang.value, days_per_year, workers, progress=_progress)
        if out is not None:
            kind = {".htm": "html"}.get(out.suffix.lower(), out.suffix.lower()[1:])
            report = cohort_report(law, c, kind, cohort_file.name, lang.value)
            _write(out, json_text(report) if kind == "json" else report)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if out is not None:
        from crewkg.messages.catalogue import say_plural

        _wrote(lang.value, "cli.wrote.cohort", out=out, trainees=say_plural(lang.value, "cli.wrote.trainees", len(c.rows),
                                                                              n=len(c.rows)))
    errors = sum(1 for r in c.rows if r["error"])
    if fmt is CohortFormat.json:
        sys.stdout.write(json_text(c.json()))
    elif fmt is CohortFormat.csv:
        sys.stdout.write(cohort_report(law, c, "csv", cohort_file.name, lang.value))
    else:
        _print_table(law, c, lang.value)
    if errors:
        from crewkg.messages.catalogue import say

        for t in c.trainees:  # each bad row with all its errors, in the language asked (records.problems)
            for line in t.problem.lines(lang.value) if t.problem else ():
                typer.echo(line, err=True)
        typer.echo(say(lang.value, "cli.cohort_errors", errors=errors, total=len(c.rows)), err=True)
        raise typer.Exit(1)  # as `check FOLDER`: the good rows are answered, the status says some failed


@contextmanager
def _progress(target: str, total: int):
    """A progress bar on standard error while a large cohort is evaluated; yields the callback that advances it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(target, total=total)
        yield lambda k: progress.advance(task, k)


def _print_table(law, c, lang: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from crewkg.api.careers import cohort_table
    from crewkg.api.texts import output_width

    assumes, header, cells, summary = cohort_table(law, c, lang)
    table = Table(show_lines=False)
    for h in header:
        table.add_column(h)
    for row, row_cells in zip(c.rows, cells, strict=True):
        table.add_row(*(escape(x) for x in row_cells), style="red" if row["error"] else None)
    console = Console(highlight=False, width=output_width(piped=200), emoji=False)
    console.print(assumes, markup=False)  # what the dates assume, said before them (as plan says it)
    console.print(table)
    console.print(summary, markup=False)
