"""The package layout is the architecture: law → records → rules → answers → careers → api → service → cli.
No import cycle (imports inside functions count), and no lower layer imports an upper one."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: the layers, lowest first; a module may import its own layer and those before it
LAYERS = [
    ("crewkg.messages",),  # the words, no logic: every layer, the error type included, may say a sentence
    ("crewkg.errors", "crewkg.locations", "crewkg.workers", "crewkg.outputs", "crewkg.extras"),
    ("crewkg.law",),
    ("crewkg.records",),
    ("crewkg.rules",),
    ("crewkg.answers",),
    ("crewkg.careers",),
    ("crewkg.api", "crewkg.casebook", "crewkg"),
    ("crewkg.service",),
    ("crewkg.cli", "crewkg.__main__"),
]


def _modules() -> dict[str, Path]:
    mods = {}
    for p in (SRC / "crewkg").rglob("*.py"):
        name = ".".join(p.relative_to(SRC).with_suffix("").parts)
        mods[name[: -len(".__init__")] if name.endswith(".__init__") else name] = p
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
            found |= {t for t in targets if t in mods and t != name}
        edges[name] = found
    return edges


def _layer(module: str) -> int:
    best = (-1, -1)
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if module == p or module.startswith(p + ".") and p != "crewkg":
                best = max(best, (len(p), i))
    assert best[1] >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return best[1]


def test_no_import_cycle():
    edges = _imports(_modules())
    cycles, done = [], set()

    def visit(n, stack):
        if n in stack:
            cycles.append(stack[stack.index(n):] + [n])
            return
        if n in done:
            return
        for m in sorted(edges[n]):
            visit(m, stack + [n])
        done.add(n)

    for n in sorted(edges):
        visit(n, [])
    assert not cycles, [" -> ".join(c) for c in cycles[:5]]


def test_lower_layers_never_import_upper_ones():
    edges = _imports(_modules())
    wrong = sorted(f"{a} -> {b}" for a, bs in edges.items() for b in bs if _layer(b) > _layer(a))
    assert not wrong, wrong


def test_the_scan_sees_imports_inside_functions():
    code = "def f():\n    from crewkg.cli.common import app\n"
    tree = ast.parse(code)
    assert any(isinstance(n, ast.ImportFrom) and n.module == "crewkg.cli.common" for n in ast.walk(tree))
