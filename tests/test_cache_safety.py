"""The compiled-law cache is loaded back as Python objects, so it must be provably this user's own: a foreign or
tampered file is rebuilt, never unpickled, and no broken cache state crashes a command."""

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "kb" / "examples" / "persons" / "anna-matrose.yaml"


def _check(cache: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CREWKG_CACHE": str(cache)}
    return subprocess.run([sys.executable, "-m", "crewkg", "check", str(EXAMPLE), "--as-of", "2026-11-30", "--format", "json"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


class _Boom:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ['CREWKG_PWNED']}",))


def test_a_foreign_pickle_in_the_cache_never_runs(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    assert _check(cache, tmp_path).returncode == 0
    pwned = tmp_path / "pwned"
    monkeypatch.setenv("CREWKG_PWNED", str(pwned))
    files = sorted(cache.glob("*.pickle"))
    assert files, "the first run caches the compiled law"
    for f in files:  # another user (or a tampering process) replaces every cached pickle
        f.write_bytes(pickle.dumps(_Boom()))
    run = _check(cache, tmp_path)
    assert run.returncode == 0, run.stderr
    assert not pwned.exists()
    assert '"person": "anna"' in run.stdout


def test_a_pickle_of_the_wrong_type_with_a_valid_mac_is_rebuilt(tmp_path, monkeypatch):
    from crewkg.law import cache as law_cache

    cdir = tmp_path / "c"
    monkeypatch.setenv("CREWKG_CACHE", str(cdir))
    calls = []
    build = lambda: calls.append(1) or {"x": 1}  # noqa: E731
    assert law_cache.compiled("t", "v", law_cache.__file__, build, expect=dict) == {"x": 1}
    path = next(cdir.glob("t-*.pickle"))
    secret = (cdir / "cache.key").read_bytes()
    import hashlib
    import hmac

    body = pickle.dumps(["not", "a", "dict"])
    path.write_bytes(hmac.new(secret, body, hashlib.sha256).digest() + body)
    assert law_cache.compiled("t", "v", law_cache.__file__, build, expect=dict) == {"x": 1}
    assert len(calls) == 2
    path.write_bytes(b"short")
    assert law_cache.compiled("t", "v", law_cache.__file__, build, expect=dict) == {"x": 1}
    assert len(calls) == 3
    assert law_cache.compiled("t", "v", law_cache.__file__, build, expect=dict) == {"x": 1}
    assert len(calls) == 3, "a good cache entry is used"


@pytest.mark.parametrize("state", ["file", "read-only", "shared"])
def test_a_broken_cache_folder_is_skipped_not_a_crash(tmp_path, state):
    cache = tmp_path / "cache"
    if state == "file":
        cache.write_text("not a folder")
    else:
        cache.mkdir(mode=0o700)
        os.chmod(cache, 0o500 if state == "read-only" else 0o777)
    run = _check(cache, tmp_path)
    assert run.returncode == 0, run.stderr
    assert '"person": "anna"' in run.stdout
    if state == "shared":
        assert not list(cache.glob("*.pickle")), "a folder others can write is never used"


def test_the_cache_folder_and_key_are_private(tmp_path, monkeypatch):
    from crewkg.locations import cache_dir

    monkeypatch.setenv("CREWKG_CACHE", str(tmp_path / "new"))
    d = cache_dir()
    assert d is not None and (d.stat().st_mode & 0o777) == 0o700
    assert _check(d, tmp_path).returncode == 0
    assert ((d / "cache.key").stat().st_mode & 0o777) == 0o600


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG layout is Linux's")
def test_without_crewkg_cache_the_folder_is_the_platforms_cache(tmp_path, monkeypatch):
    from crewkg.locations import cache_dir

    monkeypatch.delenv("CREWKG_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "crewkg"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "crewkg"
