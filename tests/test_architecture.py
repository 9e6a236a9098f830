"""The package layout is the architecture. Its contracts are written once, in pyproject.toml's [tool.importlinter]:
the layers (a module imports its own layer and lower ones, imports inside functions included, so no import cycle
crosses them) and the façade (the CLI and the HTTP routes reach the law, the records, the rules, the answers and the
careers only through crewkg.api). Import Linter checks them on the real package; the tests below also show that a
broken contract is found. And the house stays small: no module over 600 lines, no function over 80."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _lint_imports(src: Path) -> subprocess.CompletedProcess:
    """Import Linter over the package found in `src` (a copy in a test, the real one otherwise)."""
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
                           "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
                          capture_output=True, text=True, env=env, cwd=src, timeout=300)


def test_the_layers_and_the_facade_hold():
    run = _lint_imports(SRC)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 2 kept, 0 broken." in run.stdout


def _with_import(tmp_path: Path, module: str, imported: str, name: str) -> subprocess.CompletedProcess:
    """Import Linter over a copy of the package whose `module` (a path under crewkg/) imports `name` from `imported`
    inside a function."""
    copy = tmp_path / "src"
    shutil.copytree(SRC / "crewkg", copy / "crewkg", ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "crewkg" / module).open("a", encoding="utf-8") as f:
        f.write(f"\n\ndef _reaching():\n    from {imported} import {name}\n\n    return {name}\n")
    return _lint_imports(copy)


def test_a_cli_module_that_imports_the_answers_breaks_the_facade(tmp_path):
    """The check fails for an import the CLI makes past crewkg.api, even one inside a function."""
    run = _with_import(tmp_path, "cli/check.py", "crewkg.answers.eligibility", "check")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "crewkg.cli is not allowed to import crewkg.answers" in run.stdout
    assert "crewkg.cli.check -> crewkg.answers.eligibility" in run.stdout


def test_a_lower_layer_that_imports_an_upper_one_breaks_the_layers(tmp_path):
    run = _with_import(tmp_path, "law/calendar.py", "crewkg.careers", "graph")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Lower layers never import upper ones BROKEN" in run.stdout
    assert "crewkg.law.calendar -> crewkg.careers.graph" in run.stdout


def _functions(tree: ast.AST):
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_module_over_600_lines_and_no_function_over_80():
    too_long = []
    for path in sorted((SRC / "crewkg").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(SRC)
        if len(text.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        for f in _functions(ast.parse(text)):
            if f.end_lineno - f.lineno + 1 > MAX_FUNCTION_LINES:
                too_long.append(f"{name}:{f.lineno} {f.name}: {f.end_lineno - f.lineno + 1} lines")
    assert not too_long, too_long


def test_no_import_cycle():
    """Within a layer too (imports inside functions count): the modules' import graph has no cycle."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph("crewkg", cache_dir=None)
    edges = nx.DiGraph((m, n) for m in graph.modules for n in graph.find_modules_directly_imported_by(m))
    cycles = list(nx.simple_cycles(edges))
    assert not cycles, [" -> ".join([*c, c[0]]) for c in cycles[:5]]
