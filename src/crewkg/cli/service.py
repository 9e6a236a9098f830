"""Service commands (issue 5): `crewkg export`, `sparql`, `serve`, `docs`. Imports inside the commands keep `crewkg check` fast.

Bad input (records, dates, queries, an unreadable earlier export) exits 2 with one message, and nothing is
written: an export is built completely in memory and then replaces the output file in one rename."""

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Lang, _as_of, _fail, app
from crewkg.errors import InputError
from crewkg.extras import require

#: the language of serve's and docs' messages (bad input); export and sparql take --lang, English by default as before
LANG = "en"


class ExportFormat(str, Enum):
    turtle = "turtle"
    nt = "nt"
    nq = "nq"
    jsonld = "jsonld"


class Derivations(str, Enum):
    compact = "compact"
    full = "full"


class TableFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


def _persons(paths: list[Path], day):
    """Every record the paths name (record files, registers or folders), ids unique across all of them. A record file
    named on the command line that fails stops the command (exit 2); a bad record inside a folder or a register is
    named on standard error and left out, and the command ends with exit status 1 (`_report_failures`), as `check
    FOLDER` does."""
    from crewkg import api
    from crewkg.api.records import persons_of

    law = api.law()
    persons, failures = persons_of(paths, law, day)
    return law, persons, failures


def _warn_other_kb(store, law, name: str, lang: str) -> None:
    """A store (or --graph file) with evaluations of another kb version answers about them as that version did:
    say so, and how to bring them up to date, before the answer."""
    from crewkg.messages.catalogue import say
    from crewkg.service.loading import other_kb_evaluations

    n = other_kb_evaluations(store, law)
    if n:
        typer.echo(say(lang, "cli.store_other_kb", n=n, store=name), err=True)


def _report_failures(failures, lang: str = LANG) -> None:
    """Each bad record with all its errors (records.problems), then the summary line."""
    from crewkg.api.records import summary

    for problem in failures:
        for line in problem.lines(lang):
            typer.echo(line, err=True)
    if failures:
        typer.echo(summary(len(failures), lang, left_out=True), err=True)


@app.command()
def export(
    persons: Annotated[list[Path], typer.Argument(help="Person records (YAML, JSON, Turtle), registers (JSON Lines, CSV) or folders of records.")],
    out: Annotated[Path | None, typer.Option("--out", help="Output file; an earlier export there is updated in place.")] = None,
    fmt: Annotated[ExportFormat | None, typer.Option("--format", help="turtle, nt, nq (the records and derived facts in their named graphs) or jsonld; default from --out's suffix, else turtle. All but jsonld are written a block per person as the persons are evaluated.")] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    store: Annotated[Path | None, typer.Option("--store", metavar="DIR", help="Put them into the on-disk Oxigraph store in DIR (made if missing) instead: each person's facts replace their earlier ones.")] = None,
    derivations: Annotated[Derivations, typer.Option("--derivations", help="compact: what concerns each person (the roles, the certificates they hold, can be issued or come next, what is missing of them; about a tenth of the triples); full: every requirement of every pathway of every certificate.")] = Derivations.compact,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes that evaluate (default: one per core).")] = None,
    force: Annotated[bool, typer.Option("--force", help="With --store: evaluate every person again, also those whose record, evaluation date, kb and crewkg version are unchanged since their last export (kept by default).")] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the messages on standard error (bad records, the notice).")] = Lang.en,
) -> None:
    """The derived facts (the roles, eligibility per certificate with the pathways that make it, what is missing with
    needed/have) as RDF with PROV-O provenance, with the records they rest on, so that the file alone answers the
    canned queries (`crewkg sparql --graph FILE`). Re-exporting a person into the same file replaces their facts."""
    from crewkg.service.export import format_for_suffix

    day = _as_of(as_of, lang.value)
    if workers is not None and workers < 1:  # as `check --workers`: the catalogue's message, exit 2
        _fail(InputError("--workers", "workers", "workers", workers), lang.value)
    processes = workers or os.cpu_count() or 1
    if store is not None:
        _export_store(persons, store, day, keep_unchanged=not force, workers=processes, lang=lang.value,
                      shape=derivations.value)
        return
    try:
        if fmt is None and out is not None and format_for_suffix(out.suffix) is None:
            raise InputError(str(out), "--out", "export_file", out.suffix)
        chosen = fmt.value if fmt else (format_for_suffix(out.suffix) if out else None) or "turtle"
        law, people, failures = _register(persons, day)
        if out is not None:
            from crewkg.service.export import export_file

            written = export_file(law, people, day, out, chosen, derivations.value, processes)
        else:
            from crewkg.service.export import Written, export_text

            written = Written()
            for piece in export_text(law, people, day, chosen, derivations.value, processes, written):
                sys.stdout.write(piece)
            sys.stdout.flush()
    except InputError as exc:
        _fail(exc, lang.value)
        return
    _report_failures(failures, lang.value)
    if out is not None:
        from crewkg.messages.catalogue import say

        typer.echo(say(lang.value, "cli.exported_one" if written.persons == 1 else "cli.exported", out=out,
                       n=written.persons, as_of=day.isoformat(), triples=written.triples), err=True)
    if failures:
        raise typer.Exit(1)


def _export_store(paths: list[Path], folder: Path, day, keep_unchanged: bool = True, workers: int = 1,
                  lang: str = LANG, shape: str = "compact") -> None:
    """`crewkg export REGISTER... --store DIR`: read each source as a register (bad records named, the others
    exported), evaluate them as they are read and replace each person's records and derived facts in the store; a
    person whose last export read the same record on the same date under the same kb and crewkg is kept as it is, so a
    register's daily re-export evaluates only the persons that changed. A new store is bulk-loaded; what a served
    store needs at start (the whole answers, the person ids) is then computed once and kept with it."""
    from crewkg.messages.catalogue import say
    from crewkg.service.kept import keep, touch
    from crewkg.service.loading import put_persons
    from crewkg.service.stores import open_store_dir

    counted = [0]
    try:
        require("service", "pyoxigraph")
        law, people, failures = _register(paths, day)
        new = not (folder / "CURRENT").is_file()  # a store RocksDB has not written yet
        store = open_store_dir(folder, must_exist=False)

        def each():
            for p in people:
                counted[0] += 1
                yield p

        kept = put_persons(store, law, each(), day, replace=not new, keep_unchanged=keep_unchanged and not new,
                           workers=workers, shape=shape)
        n = counted[0]
        touch(store)  # a new state of the store: what was kept for an earlier one is not read (service/kept.py)
        # a large bulk load merged and compressed, what a service needs at start computed meanwhile
        quads = store.settle(keep)
        store.flush()
        # closed at once: a writer lets RocksDB merge what was written, into levels it may keep uncompressed
        # (docs/scale.md); after a small load what a service needs at start is computed on a read-only handle
        del store
        if quads is None:
            store = open_store_dir(folder, must_exist=True, read_only=True)
            quads = keep(store)
            del store  # closed now: a caller in the same process (a test, a notebook) may open the folder again
    except InputError as exc:
        _fail(exc, lang)
        return
    _report_failures(failures, lang)
    typer.echo(say(lang, "cli.exported_store_one" if n == 1 else "cli.exported_store", out=folder, n=n, kept=kept,
                   as_of=day.isoformat(), quads=quads), err=True)
    if failures:
        raise typer.Exit(1)


def _register(paths: list[Path], day):
    """The persons the paths name, read as they are asked for (a register is never held whole): a record file named on
    the command line that fails stops the command (exit 2) before anything is written; a bad record inside a folder or
    a register, and a repeated id, is a failure, named on standard error at the end (exit 1)."""
    from crewkg import api
    from crewkg.api.records import each, entries, is_problem, is_register, repeated

    law = api.law()
    failures: list = []
    singles: dict[Path, list] = {}
    for path in paths:
        if is_register(path):
            if not path.exists():
                raise InputError(str(path), "", "register_path")
            continue
        singles[path] = each(path, law, day)
        for item in singles[path]:
            if is_problem(item):
                raise item.first

    def people():
        seen: dict[str, str] = {}
        for path in paths:
            found = singles[path] if path in singles else (
                e.person if e.person is not None else e.problem() for e in entries(path, law, day))
            for p in found:
                if is_problem(p):
                    failures.append(p)
                elif (twice := repeated(p, seen)) is not None:
                    failures.append(twice)
                else:
                    yield p

    return law, people(), failures


@app.command()
def sparql(
    query: Annotated[str | None, typer.Argument(help="A SPARQL query, a .rq file, or a canned query name (see --list).")] = None,
    data: Annotated[list[Path] | None, typer.Option("--data", help="Person records, registers (JSON Lines, CSV) or folders to load (repeatable).")] = None,
    graph: Annotated[list[Path] | None, typer.Option("--graph", help="RDF files to add as they are, e.g. a crewkg export (repeatable).")] = None,
    crew: Annotated[list[str] | None, typer.Option("--crew", metavar="VESSEL[:ROSTER]", help="A vessel record and optionally its roster: the minimum crew and the roster verdict (repeatable).")] = None,
    fmt: Annotated[TableFormat, typer.Option("--format", help="table for people; csv or json (SPARQL results) for programs.")] = TableFormat.table,
    store: Annotated[str, typer.Option("--store", metavar="memory|oxigraph|DIR", help="memory (rdflib) or oxigraph, identical answers; or DIR, an on-disk Oxigraph store written by crewkg export --store DIR (only read unless --data, --graph or --crew put something into it, so a folder crewkg serve holds can be asked too).")] = "memory",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date of the --data persons' derived facts (ISO); default today. The persons a store folder holds keep the date of their export (crew:evaluationDate).")] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the canned queries with their descriptions.")] = False,
    after: Annotated[str | None, typer.Option("--after", metavar="ID", help="A canned query paged by persons (# page:): the page of the persons after this crew:personId, as crewkg serve's /api/queries/NAME gives it; standard error names the next page's.")] = None,
    persons: Annotated[int | None, typer.Option("--persons", help="A canned query paged by persons: this many persons a page (1-1000, default 50), from the first without --after.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the messages on standard error (bad input, bad records) and of the --crew checks' sentences.")] = Lang.en,
) -> None:
    """SPARQL over ontology + kb + the persons' records + their derived facts (read-only)."""
    from crewkg.service.canned import canned_queries, canned_words

    if list_:  # the .rq files' own words in English (as always), the catalogue's in German
        for q in canned_queries():
            title, description = canned_words(q, None if lang is Lang.en else lang.value)
            typer.echo(f"{q.name}\n    {title}\n    {description}\n")
        return
    if query is None:
        _fail(InputError("", "query", "query_or_list"), lang.value)
        return
    day = _as_of(as_of, lang.value)
    from crewkg.service.canned import resolve_query
    from crewkg.service.loading import build_store
    from crewkg.service.query_refusals import MalformedQuery, ServiceRefused, UpdateRefused
    from crewkg.service.results import print_table, to_csv, to_json
    from crewkg.service.stores import ask

    try:
        if store != "memory" or data or crew:  # the Oxigraph store; records and crew checks are read by its N-Quads parser
            require("service", "pyoxigraph")
        text = resolve_query(query)
        law, people, failures = _persons(list(data or []), day)
        _report_failures(failures, lang.value)
        from crewkg.service.loading import parse_crew_option

        crews = [parse_crew_option(c) for c in crew or []]
        built = build_store(store, law, people, day, list(graph or []), crews, only_read=True,
                            workers=os.cpu_count() or 1, lang=lang.value)
        _warn_other_kb(built, law, store, lang.value)
        if after is not None or persons is not None:  # a page, as the service gives it
            result = _canned_page(built, query, after, persons, lang.value)
        else:  # kept with the store folder, else asked sealed
            result = _kept_answer(built, query) or ask(built, text)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    except ServiceRefused:
        _fail(InputError("", "query", "no_service"), lang.value)
        return
    except MalformedQuery as exc:
        _fail(InputError("", "query", "sparql_syntax", reason=str(exc)), lang.value)
        return
    except UpdateRefused:
        _fail(InputError("", "query", "read_only_query"), lang.value)
        return
    if fmt is TableFormat.json:
        sys.stdout.write(to_json(result) + "\n")
    elif fmt is TableFormat.csv:
        sys.stdout.write(to_csv(result))
    else:
        print_table(result)
    if failures:
        raise typer.Exit(1)


def _canned_page(store, name: str, after: str | None, persons: int | None, lang: str):
    """The page of a canned query paged by persons that /api/queries/NAME gives for the same store (paging.page_of:
    kept answers and ids where the store folder's export kept them); the next page's --after on standard error."""
    from crewkg.messages.catalogue import say
    from crewkg.service.canned import canned_queries
    from crewkg.service.kept import kept, kept_page
    from crewkg.service.paging import MAX_PAGE_PERSONS, PAGE_PERSONS, Answers, page_of, person_ids

    q = next((q for q in canned_queries() if q.name == name), None)
    if q is None or q.page is None:
        raise InputError("", "--after" if after is not None else "--persons", "paged_query", name)
    count = PAGE_PERSONS if persons is None else persons
    if not 1 <= count <= MAX_PAGE_PERSONS:
        raise InputError("", "--persons", "page_persons", count, limit=MAX_PAGE_PERSONS)
    ready = kept(store)
    if ready is not None and q.whole and name in ready.answers:  # the kept answer, its page's rows alone made
        rows = kept_page(ready, q, after, count)
    else:
        ids = [] if q.whole else ready.person_ids if ready is not None else person_ids(store)
        rows = page_of(store, q, Answers(store), ids, after, count)
    if rows.after is not None:
        typer.echo(say(lang, "cli.sparql.next_page", after=rows.after, persons=rows.persons), err=True)
    return rows.table


def _kept_answer(store, name: str):
    """The whole answer of a canned query that a store folder's export computed and kept for it as it is now, as the
    service gives it (service/kept.py); None for any other query or store."""
    from crewkg.service.canned import canned_queries
    from crewkg.service.kept import kept

    q = next((q for q in canned_queries() if q.name == name), None)
    ready = kept(store) if q is not None and (q.whole or q.page is None) else None
    return ready.answers.get(name) if ready is not None else None


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to bind; loopback unless you mean otherwise.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8080,
    data: Annotated[list[Path] | None, typer.Option("--data", help="Person records, registers (JSON Lines, CSV) or folders for the SPARQL graph (repeatable).")] = None,
    graph: Annotated[list[Path] | None, typer.Option("--graph", help="RDF files to add as they are, e.g. a crewkg export of a register (repeatable).")] = None,
    crew: Annotated[list[str] | None, typer.Option("--crew", metavar="VESSEL[:ROSTER]", help="A vessel record and optionally its roster for the SPARQL graph (repeatable).")] = None,
    store: Annotated[str, typer.Option("--store", metavar="memory|oxigraph|DIR", help="memory (rdflib) or oxigraph (large registers); or DIR, an on-disk Oxigraph store written by crewkg export --store DIR (--data records are put into it).")] = "memory",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date of the --data persons' derived facts (ISO); default today. The persons a store folder holds keep the date of their export (crew:evaluationDate).")] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="SPARQL query timeout in seconds.")] = 10.0,
    max_query_bytes: Annotated[int, typer.Option("--max-query-bytes", help="Longest SPARQL query accepted.")] = 10_000,
    max_body_bytes: Annotated[int, typer.Option("--max-body-bytes", help="Largest request body accepted.")] = 1_000_000,
    shacl: Annotated[bool, typer.Option("--shacl/--no-shacl", help="Also run the SHACL shapes on JSON records of the API (uploads always are).")] = False,
    allow_host: Annotated[list[str] | None, typer.Option("--allow-host", help="A Host name the service answers to besides the loopback names and --host (repeatable).")] = None,
) -> None:
    """The SPARQL endpoint (/sparql), the JSON API (/docs) and the web pages (/, /queries) in one process."""
    try:
        require("service")
    except InputError as exc:
        _fail(exc, LANG)
    day = _as_of(as_of, LANG)
    if port < 0 or port > 65535:
        _fail(InputError("--port", "port", "port", port), LANG)
    from crewkg.service.app import port_in_use

    if port_in_use(host, port):  # before the records are read and the service announces itself
        _fail(InputError("--port", "port", "port_free", port), LANG)
    for name, value in (("--timeout", timeout), ("--max-query-bytes", max_query_bytes), ("--max-body-bytes", max_body_bytes)):
        if value <= 0:
            _fail(InputError(name, name.lstrip("-"), "positive", value), LANG)
    try:
        law, people, failures = _persons(list(data or []), day)
        _report_failures(failures)  # the service starts with the good records
        from crewkg.service.app import Service, Settings, run
        from crewkg.service.loading import build_store, parse_crew_option

        crews = [parse_crew_option(c) for c in crew or []]
        graph_store = build_store(store, law, people, day, list(graph or []), crews, workers=os.cpu_count() or 1)
        _warn_other_kb(graph_store, law, store, LANG)
    except InputError as exc:
        _fail(exc, LANG)
        return
    hosts = {"localhost", "127.0.0.1", "::1", *(allow_host or [])}
    if host not in ("0.0.0.0", "::", ""):
        hosts.add(host.strip("[]"))
    settings = Settings(query_timeout=timeout, max_query_bytes=max_query_bytes, max_body_bytes=max_body_bytes, shacl_json=shacl,
                        allowed_hosts=tuple(sorted(hosts)))
    run(Service(law, graph_store, {p.id: p for p in people}, day, settings), host, port)


@app.command()
def docs(
    out: Annotated[Path, typer.Option("--out", help="The folder to write the ontology documentation into (made if missing).")],
):
    """The ontology's HTML documentation (index.html German, index.en.html English: every class, property and
    individual with labels, definition, domain and range), the T-box as one Turtle file and its OWL 2 DL profile
    (crewkg-dl.ttl; ontology/dl/ ships a copy). `crewkg serve` answers the same page at /onto."""
    from crewkg.messages.catalogue import say
    from crewkg.service.ontology import write_docs

    try:
        written = write_docs(out)
    except OSError as exc:
        _fail(InputError(str(out), "--out", "writable_folder", reason=exc.strerror), LANG)
        return
    typer.echo(say(LANG, "cli.docs_written", out=out, n=len(written)), err=True)
