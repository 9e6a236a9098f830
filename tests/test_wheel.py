"""The wheel is the product: build it from the repository, install it into a fresh venv (reusing this venv's
dependencies through a .pth file, so nothing is downloaded), and from another directory run `crewkg check` on a
bundled example and the README's Python example."""

import re
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_wheel_installs_and_runs(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    wheel = next(dist.glob("crewkg-*.whl"))
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
    readme = subprocess.run([str(py), "-c", _readme_example()], cwd=elsewhere, env=clean, capture_output=True, text=True)
    assert readme.returncode == 0, readme.stderr
    assert readme.stdout.strip().splitlines()[-1] in ("True", "False")
