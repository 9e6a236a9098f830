"""The wheel is the product: build it from the repository, install it into a fresh venv (reusing this venv's
dependencies through a .pth file, so nothing is downloaded), from another directory run `crewkg check` on a
bundled example, and run the examples of docs/python-api.md against it (the page's doctests, reading the
repository's example records). And the light install (issue 41): the wheel without extras, in a
fresh venv that holds only the distributions its own requirements name (linked from this venv, so nothing is
downloaded either), answers `crewkg check` and says which extra a picture needs."""

import importlib.metadata
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    return next(dist.glob("crewkg-*.whl"))


def test_wheel_installs_and_runs(tmp_path, wheel):
    with zipfile.ZipFile(wheel) as z:  # the catalogues, and their .mo compiled by the build (hatch_build.py)
        catalogues = {n for n in z.namelist() if n.startswith("crewkg/messages/locale/")}
    for lang in ("de", "en"):
        folder = f"crewkg/messages/locale/{lang}/LC_MESSAGES/"
        assert folder + "crewkg.po" in catalogues, sorted(catalogues)
        assert len([n for n in catalogues if n.startswith(folder) and n.endswith(".mo")]) == 1, sorted(catalogues)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    where = subprocess.run([str(py), "-c", "import crewkg; print(crewkg.__file__)"], cwd=elsewhere, env=clean,
                           check=True, capture_output=True, text=True).stdout
    assert where.startswith(site), where  # the installed wheel, not the repository
    example = subprocess.run([str(py), "-c", "import crewkg.locations as l; print(l.kb_dir())"], cwd=elsewhere, env=clean,
                             check=True, capture_output=True, text=True).stdout.strip()
    record = Path(example) / "examples" / "persons" / "04-jonas-steuermann-one-exam-short.yaml"
    out = subprocess.run([str(env_dir / "bin" / "crewkg"), "check", str(record), "--as-of", "2024-06-01", "--format", "json"],
                         cwd=elsewhere, env=clean, check=True, capture_output=True, text=True).stdout
    assert '"certificates"' in out
    shipped = {p.relative_to(site).as_posix() for p in (Path(site) / "crewkg" / "messages" / "locale").rglob("*") if p.is_file()}
    assert shipped == {n.removesuffix("/") for n in catalogues}  # the shipped .mo were read as they are: none compiled anew
    # the script's folder (tests/), not the repository, comes first on its path: `import crewkg` is the wheel's
    api = subprocess.run([str(py), str(ROOT / "tests" / "markdown_doctest.py"), "docs/python-api.md"], cwd=ROOT,
                         env=clean, capture_output=True, text=True)
    assert api.returncode == 0, api.stdout + api.stderr
    assert " 0 failed" in api.stdout, api.stdout


def _requirements(wheel: Path) -> list[str]:
    """The wheel's own Requires-Dist lines (its extras' included, each with its `extra == …` marker)."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        text = z.read(meta).decode("utf-8")
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")]


def _closure(requirements: list[str]) -> dict[str, importlib.metadata.Distribution]:
    """The installed distributions that `requirements` need, without extras, and what those need in turn (with the
    extras they ask of each other), as this venv has them."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(req.name)
        dist = importlib.metadata.distribution(req.name)
        for wanted in ("", *sorted(req.extras)):
            if (name, wanted) in found:
                continue
            found[(name, wanted)] = dist
            todo += [(Requirement(r), wanted) for r in dist.requires or []]
    return {name: dist for (name, _), dist in found.items()}


def _link_into(site: Path, dist: importlib.metadata.Distribution) -> None:
    """Make a distribution importable in another venv: link its top-level packages, modules and metadata folder."""
    tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
    for top in tops:
        source = Path(str(dist.locate_file(top)))
        if source.exists() and not (site / top).exists():
            (site / top).symlink_to(source)


def test_the_wheel_without_extras_answers_check_and_names_a_missing_extra(tmp_path, wheel):
    """`pip install crewkg`: the core requirements only. Its venv cannot import matplotlib, FastAPI, pyoxigraph,
    or icalendar, and still checks a bundled person; a picture says which extra to install (exit 2)."""
    env_dir = tmp_path / "light"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    core = _closure([r for r in _requirements(wheel) if "extra ==" not in r])
    assert not {"matplotlib", "fastapi", "uvicorn", "pyoxigraph", "icalendar", "pyvis"} & set(core), sorted(core)
    for dist in core.values():
        _link_into(site, dist)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CREWKG_CACHE": str(tmp_path / "cache")}
    heavy = subprocess.run([str(py), "-c", "import importlib.util as u; print([m for m in ('matplotlib', "
                            "'fastapi', 'pyoxigraph', 'icalendar') if u.find_spec(m)])"],
                           cwd=elsewhere, env=clean, check=True, capture_output=True, text=True).stdout.strip()
    assert heavy == "[]"  # the light venv really lacks every extra
    crewkg = str(env_dir / "bin" / "crewkg")
    record = ROOT / "kb" / "examples" / "persons" / "anna-matrose.yaml"
    out = subprocess.run([crewkg, "check", str(record), "--as-of", "2026-11-30", "--format", "json"],
                         cwd=elsewhere, env=clean, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert '"UBZ-Matrose"' in out.stdout and '"certificates"' in out.stdout
    picture = subprocess.run([crewkg, "paths", "--format", "svg", "--lang", "en"], cwd=elsewhere, env=clean,
                             capture_output=True, text=True)
    assert picture.returncode == 2 and "Traceback" not in picture.stderr, picture.stderr
    assert "pip install 'crewkg[pictures]'" in picture.stderr and "matplotlib" in picture.stderr
