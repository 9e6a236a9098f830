"""The requirement-kind registry (crewkg.rules.kinds): one module per kind, covering every kind the kb uses."""

from __future__ import annotations

import ast
import pkgutil
import textwrap
from pathlib import Path

import pytest

from crewkg.law.statute import load_law
from crewkg.rules import kinds as registry
from crewkg.rules.eligibility import rules
from crewkg.rules.kinds.protocol import members, undefined


def test_registry_covers_every_requirement_kind_the_kb_uses():
    law = load_law()
    used = {r.kind for r in law.requirements.values()}
    assert used, "the kb defines requirements"
    assert used <= set(registry.kinds()), used - set(registry.kinds())


def test_unknown_kind_fails_clearly():
    with pytest.raises(registry.UnknownKind, match="NoSuchKind"):
        registry.kind("NoSuchKind")


def test_program_is_assembled_from_the_kinds():
    program = rules()
    for k in registry.kinds().values():
        for clause in filter(None, (line.strip() for line in k.clauses.splitlines())):
            assert clause in program


# ------------------------------------------------------------------------------------------------------------
# No code outside rules/kinds/ reaches into a kind or asks a kind by its name: it asks the registry (`kind(name)`,
# `with_role(KindRole.AGE)`) and the protocol's hooks.

SRC = Path(__file__).resolve().parents[1] / "src"
KINDS_DIR = SRC / "crewkg" / "rules" / "kinds"


def kind_leaks(source: str, module: str, kind_names: frozenset[str], submodules: frozenset[str]) -> list[str]:
    """Where the code of `module` imports a module of the kinds package (`crewkg.rules.kinds.<submodule>`, however
    spelt: absolute, relative, `from crewkg.rules.kinds import <submodule>`, importlib) or compares a value with a
    registered kind name (a string constant, a literal collection of them, or a module-level name bound to either;
    `==`, `!=`, `in`, `match`), as 'line N: what'."""
    package = "crewkg.rules.kinds"
    tree = ast.parse(source)
    here = module.split(".")
    found: list[str] = []

    def inner(target: str) -> bool:
        return target.startswith(package + ".") and target[len(package) + 1:].split(".")[0] in submodules

    def names(node: ast.AST, bound: dict[str, set[str]]) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return set().union(*(names(e, bound) for e in node.elts)) if node.elts else set()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set", "tuple"):
            return set().union(*(names(a, bound) for a in node.args)) if node.args else set()
        if isinstance(node, ast.Name):
            return bound.get(node.id, set())
        return set()

    bound: dict[str, set[str]] = {}
    for stmt in tree.body:  # module-level constants: ON_THE_DAY = ("Document", "Exam")
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Name) and (values := names(stmt.value, {}) & kind_names):
                    bound[t.id] = values
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if inner(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level] if node.level else []
            source_module = ".".join(base + ([node.module] if node.module else []))
            targets = [source_module] if inner(source_module) else [f"{source_module}.{a.name}" for a in node.names]
            found += [f"line {node.lineno}: import {t}" for t in targets if inner(t)]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and inner(node.args[0].value):
            found.append(f"line {node.lineno}: import {node.args[0].value}")
        elif isinstance(node, ast.Compare):
            compared = set().union(*(names(o, bound) for o in [node.left, *node.comparators])) & kind_names
            found += [f"line {node.lineno}: compares with {n!r}" for n in sorted(compared)]
        elif isinstance(node, ast.MatchValue):
            found += [f"line {node.lineno}: matches {n!r}" for n in sorted(names(node.value, bound) & kind_names)]
    return found


def _registered() -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(registry.kinds()), frozenset(info.name for info in pkgutil.iter_modules(registry.__path__))


def test_the_scan_finds_imports_of_a_kind_module_and_comparisons_with_a_kind_name():
    code = textwrap.dedent('''
        import crewkg.rules.kinds.fahrzeit
        from crewkg.rules.kinds.certificate_held import held
        from crewkg.rules.kinds import document, kind
        from .kinds.exam import Exam
        from crewkg.rules import kinds

        ON_THE_DAY = ("Document", "Exam")


        def f(r, m):
            from crewkg.rules.kinds.programme import runs_to
            import importlib
            importlib.import_module("crewkg.rules.kinds.minimum_age")
            if r.kind == "MinimumAge" or "Programme" != m["kind"] or m["kind"] in ("SeaTime", "Role"):
                return m["kind"] in ON_THE_DAY
            match r.kind:
                case "AnyOf":
                    return kind(r.kind).parts
            return r.kind == "Role" and kinds.kind(r.kind).unit == "days"
    ''')
    found = kind_leaks(code, "crewkg.rules.eligibility", *_registered())
    assert found == [
        "line 2: import crewkg.rules.kinds.fahrzeit",
        "line 3: import crewkg.rules.kinds.certificate_held",
        "line 4: import crewkg.rules.kinds.document",
        "line 5: import crewkg.rules.kinds.exam",
        "line 12: import crewkg.rules.kinds.programme",
        "line 14: import crewkg.rules.kinds.minimum_age",
        "line 15: compares with 'MinimumAge'",
        "line 15: compares with 'Programme'",
        "line 15: compares with 'SeaTime'",
        "line 16: compares with 'Document'",
        "line 16: compares with 'Exam'",
        "line 18: matches 'AnyOf'",
    ], found


def test_no_code_outside_the_kinds_package_reaches_into_a_kind_or_asks_a_kind_by_its_name():
    registered = _registered()
    leaks = []
    for path in sorted((SRC / "crewkg").rglob("*.py")):
        if KINDS_DIR in path.parents:
            continue
        module = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        leaks += [f"{path.relative_to(SRC)} {x}" for x in kind_leaks(path.read_text(encoding="utf-8"), module, *registered)]
    assert not leaks, leaks


def test_every_kind_is_a_class_of_the_protocol_defining_every_member():
    for k in registry.kinds().values():
        assert isinstance(k, registry.RequirementKind)
        assert not undefined(type(k)), (k.name, undefined(type(k)))
    assert {"project", "summary", "name", "unit", "lapsed", "obtained_on_the_day"} <= set(members())


def test_each_part_a_kind_plays_is_played_by_one_kind():
    for role in registry.KindRole:
        assert sum(1 for k in registry.kinds().values() if k.role is role) == 1, role
    assert registry.with_role(registry.KindRole.AGE).name == "MinimumAge"


def test_the_programme_phases_are_the_ontologys():
    from crewkg.law.phases import PHASES

    assert {ph.id for ph in PHASES} == set(load_law().ids_of("ProgrammePhase"))
