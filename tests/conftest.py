"""Shared fixtures: every test session uses its own empty cache (so a record validated in an earlier run can never
hide a SHACL error, and nothing is written outside the test's temporary folders), and one compiled law."""

from __future__ import annotations

import os

import pytest

from crewkg.law.statute import Law, load_law


@pytest.fixture(scope="session", autouse=True)
def _fresh_cache(tmp_path_factory):
    old = os.environ.get("CREWKG_CACHE")
    os.environ["CREWKG_CACHE"] = str(tmp_path_factory.mktemp("crewkg-cache"))
    yield
    if old is None:
        os.environ.pop("CREWKG_CACHE", None)
    else:
        os.environ["CREWKG_CACHE"] = old


@pytest.fixture(scope="session")
def law() -> Law:
    return load_law()
