"""`crewkg test CASES.yaml [more files or folders]`: run a casebook (issue 13 point 12) and print each failing case
with what differed — the case, the field, what the case expects and what the answer has — as OpenFisca's
`openfisca test` does for its YAML tests. Exit status 0 when every case passes, 1 when some fail, 2 for a case file
that cannot be read (the message names the file, the case and the field) or a `--name` that matches no case. The
engine is `crewkg.casebook`."""

from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Lang, _fail, app
from crewkg.errors import InputError, quote


@app.command("test")
def test_cases(
    paths: Annotated[list[Path], typer.Argument(help="Case files (YAML) or folders of case files.")],
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the output and of the answers compared.")] = Lang.de,
    name: Annotated[str | None, typer.Option("--name", "-k", help="Run only the cases whose name contains this text.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List the passing cases too.")] = False,
) -> None:
    """Run the YAML cases (person or vessel, date, expected answer) and print each case that fails with what differed."""
    from crewkg.casebook import ABSENT, case_files, load_cases, run_case, shown
    from crewkg.messages.catalogue import say

    lg = lang.value
    try:
        files = case_files(paths)
        if not files:
            typer.echo(f"crewkg: {say(lg, 'cli.casebook.no_cases')}: {', '.join(map(str, paths))}", err=True)
            raise typer.Exit(2)
        cases = [c for f in files for c in load_cases(f)]
        if name is not None:
            cases = [c for c in cases if name in c.name]
            if not cases:  # a mistyped filter must not pass as a green run of no cases
                typer.echo(say(lg, "error.line", message=say(lg, "cli.casebook.no_match", name=quote(name))), err=True)
                raise typer.Exit(2)
        outcomes = [run_case(c, lg) for c in cases]
    except InputError as exc:
        _fail(exc, lg)
        return

    def value(v: object) -> str:
        return say(lg, "cli.casebook.absent") if v is ABSENT else shown(v)

    failed = 0
    for o in outcomes:
        c = o.case
        if o.passed:
            if verbose:
                typer.echo(say(lg, "cli.casebook.pass", name=c.name))
            continue
        failed += 1
        typer.echo(say(lg, "cli.casebook.fail", name=c.name))
        typer.echo(say(lg, "cli.casebook.where", file=c.file, provision=c.provision, as_of=c.as_of.isoformat()))
        typer.echo(say(lg, "cli.casebook.description", description=c.description))
        for d in o.differences:
            typer.echo(say(lg, "cli.casebook.differs", field=d.field, expected=value(d.expected), actual=value(d.actual)))
    typer.echo(say(lg, "cli.casebook.summary_one" if len(outcomes) == 1 else "cli.casebook.summary", total=len(outcomes),
                   passed=len(outcomes) - failed, failed=failed))
    if failed:
        raise typer.Exit(1)
