VENV ?= .venv
UV ?= uv
PY := $(VENV)/bin/python

install:
	python3 -m venv $(VENV) && $(VENV)/bin/pip install -c requirements.lock -e ".[all,test]"

# the pins of every package `.[all,test]` installs (docs/installing.md); needs uv (pip install uv)
lock:
	$(UV) pip compile pyproject.toml --extra all --extra test --universal --python-version 3.11 --no-emit-package crewkg -o requirements.lock

test:
	$(PY) -m pytest

smoke:
	$(PY) -m pytest -m smoke

lint:
	$(VENV)/bin/ruff check src tests benchmarks

bench:
	$(PY) benchmarks/cold_check.py
	$(PY) benchmarks/cohort.py
	$(PY) benchmarks/roster.py
	$(PY) benchmarks/sparql_service.py

.PHONY: install lock test smoke lint bench
