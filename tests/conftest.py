"""The one home of what the whole test run shares.

- Every test run uses its own empty cache, shared by the run's workers (so a record validated in an earlier run can
  never hide a SHACL error, and nothing is written outside the run's temporary folders).
- The law and the manning tables are compiled once per process (per xdist worker): the `law` and `manning` fixtures,
  scoped to the whole run. A test that needs an edited kb loads it itself (`load_law(kb=...)`).
- Hypothesis profiles: `dev`, the default, is small so the whole suite stays fast; `--hypothesis-profile=ci` runs as
  many examples as CI always did; `deep` (or HYPOTHESIS_PROFILE=deep) searches long. Every profile is derandomized
  except `deep`, so a run repeats the same cases. The properties checked over a generated population of persons
  take its size from the profile too (`sized`).
- Tiers: `pytest -m smoke` (`make smoke`) runs the quick health checks (kb hygiene, architecture, catalogues, the
  requirement kinds, one casebook case per provision); plain `pytest` runs everything over every core (pytest-xdist,
  see pyproject.toml). Tests that share a costly module fixture (a server, a store) are kept on one worker with
  `pytestmark = pytest.mark.xdist_group(...)`."""

from __future__ import annotations

import gc
import os

import pytest
from hypothesis import HealthCheck, settings

from crewkg.law.statute import Law, load_law

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("dev", max_examples=6, deadline=None, derandomize=True, suppress_health_check=_QUIET)
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True, suppress_health_check=_QUIET)
settings.register_profile("deep", max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))  # --hypothesis-profile=NAME overrides it


def pytest_configure(config):
    """Python's cyclic collector runs every 700 new objects and walks what a test process holds (the law, stores, rdflib
    graphs) again and again while pyDatalog makes many small objects: it took half of a check's time here (87 ms
    against 44 ms). A collection every 50 000 new objects, and none of what is loaded before the tests run
    (`pytest_collection_finish`), changes no answer, only how often garbage is looked for (as `workers.collection_held`
    does for a register)."""
    gc.set_threshold(50_000, 20, 20)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


#: the smoke tier: whole modules, and of the YAML casebook the first case of each provision
SMOKE_MODULES = {"test_kb_hygiene", "test_architecture", "test_messages", "test_requirement_kinds", "test_new_kind",
                 "test_law_is_data"}


#: modules whose tests take the longest one by one: they start first, so no worker is left with one of them at the end
LONG = ("test_planner_agrees", "test_export", "test_register", "test_languages", "test_register_store")


def pytest_collection_modifyitems(config, items):
    # a module kept on one worker (xdist_group) and the long ones are handed out first; the many short tests fill in
    # behind them (the sort is stable: a module's tests keep their order)
    items.sort(key=lambda item: 0 if item.get_closest_marker("xdist_group") else 1 if item.path.stem in LONG else 2)
    provisions: set[str] = set()
    for item in items:
        module = item.path.stem
        if module in SMOKE_MODULES:
            item.add_marker(pytest.mark.smoke)
        elif module == "test_casebook_yaml" and item.originalname == "test_case":
            provision = item.callspec.params["case"].provision
            if provision not in provisions:
                provisions.add(provision)
                item.add_marker(pytest.mark.smoke)


@pytest.fixture(scope="session", autouse=True)
def _piped_width():
    """Text for people is as wide as COLUMNS says (answers.render.output_width): the run leaves aside a COLUMNS the
    shell exported, so every test reads the width of a pipe unless it sets one itself (tests/test_cli.py)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("COLUMNS", raising=False)
        yield


@pytest.fixture(scope="session", autouse=True)
def _fresh_cache(tmp_path_factory):
    """A cache folder of this run's own, which its xdist workers share (the law compiled once, a record's SHACL
    verdict remembered for both): under the run's temporary folder, not a worker's."""
    old = os.environ.get("CREWKG_CACHE")
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-of-USER/pytest-N: the workers' folders popen-gwK lie in it
    cache = root / "crewkg-cache"
    cache.mkdir(mode=0o700, exist_ok=True)
    os.environ["CREWKG_CACHE"] = str(cache)
    yield
    if old is None:
        os.environ.pop("CREWKG_CACHE", None)
    else:
        os.environ["CREWKG_CACHE"] = old


@pytest.fixture(scope="session")
def sized():
    """How many generated persons a property over a population checks: as many as CI always checked under
    `--hypothesis-profile=ci` (or `deep`), half as many under the small default profile."""
    full = settings.get_current_profile_name() in ("ci", "deep")
    return lambda n: n if full else (n + 1) // 2


@pytest.fixture(scope="session")
def law() -> Law:
    """The bundled law, compiled once per process."""
    return load_law()


@pytest.fixture(scope="session")
def manning(law):
    """The bundled manning tables, compiled once per process."""
    from crewkg.manning.compile import load_manning

    return load_manning(law)
