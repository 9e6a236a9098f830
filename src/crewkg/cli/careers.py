"""Career commands (issue 4): `crewkg paths`, `plan`, `programme`, `cohort`. Imports inside the commands keep `crewkg check` fast."""

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

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


PICTURES = {".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}
#: the career graph's files: the pictures, and the graph as data
GRAPH_FILES = PICTURES | {".json": "json", ".graphml": "graphml"}

DaysPerYear = Annotated[int | None, typer.Option("--days-per-year", help="Credited Fahrzeit days per 365 days (default: the kb's § 6 Abs. 4 maximum).")]
AsOf = Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")]


def _write(out: Path, data: bytes | str) -> None:
    """Write a whole file or nothing (`outputs.write_atomically`)."""
    from crewkg.outputs import write_atomically

    write_atomically(out, [data])


def _emit(data: bytes | str, out: Path | None) -> None:
    if out is not None:
        _write(out, data)
    elif isinstance(data, bytes):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        sys.stdout.write(data)


def _covered(law, day) -> None:
    """Refuse an evaluation date no encoded regulation governs (the planner would have nothing to plan with)."""
    if law.regulation_on(day) is None:
        regs = {law.certificates[w.certificate].regulation for w in law.pathways.values()}
        first = min((law.regulations[r] for r in regs if r in law.regulations), key=lambda r: r.in_force_from)
        raise InputError("--as-of", "as_of", "pathway_date", day.isoformat(), regulation=first.name,
                         since=first.in_force_from.isoformat())


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
        from crewkg.careers.graph import career_graph, graphml_text, node_link
        from crewkg.law.statute import load_law

        g = career_graph(load_law(), lang.value, days_per_period=days_per_year)
        if fmt is PictureFormat.json:
            data: bytes | str = json_text(node_link(g))
        elif fmt is PictureFormat.graphml:
            data = graphml_text(g)
        elif fmt is PictureFormat.html:
            from crewkg.careers.pictures import html_page

            data = html_page(g)
        else:
            from crewkg.careers.pictures import draw

            data = draw(g, fmt.value)
        _emit(data, out)
    except InputError as exc:
        _fail(exc, lang.value)


@app.command()
def plan(
    person: Annotated[Path, typer.Argument(help="One person record (YAML, JSON or Turtle).")],
    target: Annotated[str, typer.Option("--target", help="Certificate id, e.g. UBZ-Schiffsfuehrer.")],
    as_of: AsOf = None,
    days_per_year: DaysPerYear = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    out: Annotated[Path | None, typer.Option("--out", help="Draw the fastest route on the career graph (.svg, .png or .html).")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
) -> None:
    """Every route from where the person stands to the target, fastest first, with the earliest date of each step."""
    day = _as_of(as_of, lang.value)
    try:
        if out is not None and out.suffix.lower() not in PICTURES:
            raise InputError(str(out), "--out", "picture_file", out.suffix)
        from crewkg.answers.eligibility import check
        from crewkg.careers.graph import career_graph
        from crewkg.careers.planning import Pace
        from crewkg.careers.routes import plan as make_plan
        from crewkg.careers.routes import plan_target
        from crewkg.cli.common import _load

        law, persons = _load(person, day)
        if len(persons) != 1:
            raise InputError(str(person), "", "one_record")
        pace = Pace.from_kb(days=days_per_year)
        g = career_graph(law, lang.value, days_per_period=pace.days)
        target = plan_target(law, g, target, day, fields=("--as-of", "--target"), not_covered=True)
        answer = check(law, persons, day, lang.value)[0]
        if not answer.get("covered", True):
            raise InputError("--as-of", "as_of", "covered_date", day.isoformat(), reason=answer["reason"])
        result = make_plan(law, persons[0], answer, target, day, pace, graph=g, lang=lang.value)
        picture = None
        if out is not None:
            from crewkg.careers.pictures import draw, html_page, route_edges, route_title

            best = result["routes"][0] if result["routes"] else {"steps": []}
            edges = route_edges(best, g)
            held = set(persons[0].certificates)
            title = route_title(g, result, edges, held, lang.value)
            kind = PICTURES[out.suffix.lower()]
            picture = html_page(g, edges, held, title) if kind == "html" else draw(g, kind, edges, held, title)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if picture is not None:
        try:
            _write(out, picture)
        except InputError as exc:
            _fail(exc, lang.value)
    if fmt is Format.json:
        sys.stdout.write(json_text(result))
        return
    from rich.console import Console

    from crewkg.careers.routes import plan_lines

    console = Console(highlight=False, soft_wrap=True, emoji=False)
    for line in plan_lines(law, result, pace, lang.value):
        console.print(line, markup=False)


@app.command()
def programme(
    design: Annotated[Path, typer.Argument(help="A programme design (YAML or JSON): for, months, sailing_days, sailing_days_after, entry.")],
    as_of: AsOf = None,
    fmt: Annotated[Format, typer.Option("--format", help="text for people, json for programs.")] = Format.text,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output (de or en).")] = Lang.de,
) -> None:
    """Which pathways a training programme serves and, for the others, exactly what it lacks."""
    day = _as_of(as_of, lang.value)
    try:
        from crewkg.careers.programmes import check_programme, load_programme
        from crewkg.law.statute import load_law

        law = load_law()
        _covered(law, day)
        result = check_programme(law, load_programme(design, law), day, lang.value)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    if fmt is Format.json:
        sys.stdout.write(json_text(result))
        return
    from crewkg.careers.programmes import report_lines

    for line in report_lines(law, result, lang.value):
        typer.echo(line)


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
        from crewkg.careers.cohorts import LARGE, csv_text, html_report, load_cohort
        from crewkg.careers.graph import career_graph
        from crewkg.careers.planning import Pace
        from crewkg.careers.routes import plan_target
        from crewkg.law.statute import load_law

        law = load_law()
        _covered(law, day)
        pace = Pace.from_kb(days=days_per_year)
        g = career_graph(law, lang.value, days_per_period=pace.days)
        target = plan_target(law, g, target, day, fields=("--as-of", "--target"))
        trainees = load_cohort(cohort_file, law, day)
        rows = _run_cohort(law, trainees, target, day, pace, lang.value, g, workers, LARGE)
        report = None
        if out is not None:
            suffix = out.suffix.lower()
            if suffix in (".html", ".htm"):
                report = html_report(law, rows, g, cohort_file.name, target, day, pace, lang.value)
            elif suffix == ".csv":
                report = csv_text(law, rows, lang.value)
            else:
                report = json_text(_json(rows, target, day))
            _write(out, report)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    errors = sum(1 for r in rows if r["error"])
    if fmt is CohortFormat.json:
        sys.stdout.write(json_text(_json(rows, target, day)))
    elif fmt is CohortFormat.csv:
        sys.stdout.write(csv_text(law, rows, lang.value))
    else:
        _print_table(law, rows, lang.value)
    if errors:
        from crewkg.messages.catalogue import say

        for t in trainees:  # each bad row with all its errors, in the language asked (records.problems)
            for line in t.problem.lines(lang.value) if t.problem else ():
                typer.echo(line, err=True)
        typer.echo(say(lang.value, "cli.cohort_errors", errors=errors, total=len(rows)), err=True)
        raise typer.Exit(1)  # as `check FOLDER`: the good rows are answered, the status says some failed


def _json(rows, target, day) -> dict:
    return {"target": target, "as_of": day.isoformat(), "trainees": rows}


def _run_cohort(law, trainees, target, day, pace, lang, g, workers, large):
    from crewkg.careers.cohorts import evaluate_cohort

    n = sum(1 for t in trainees if t.person is not None)
    if n <= large:
        return evaluate_cohort(law, trainees, target, day, pace, lang, workers=workers or 1, g=g)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(target, total=n)
        return evaluate_cohort(law, trainees, target, day, pace, lang, workers=workers or os.cpu_count() or 1,
                               on_progress=lambda k: progress.advance(task, k), g=g)


def _print_table(law, rows, lang: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from crewkg.careers.cohorts import header, row_cells, summary

    table = Table(show_lines=False)
    for h in header(lang):
        table.add_column(h)
    for row in rows:
        table.add_row(*(escape(c) for c in row_cells(law, row, lang)), style="red" if row["error"] else None)
    console = Console(highlight=False, width=200, emoji=False)
    console.print(table)
    console.print(summary(rows, lang), markup=False)
