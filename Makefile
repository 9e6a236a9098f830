VENV ?= .venv
PY := $(VENV)/bin/python

install:
	python3 -m venv $(VENV) && $(VENV)/bin/pip install -e ".[test]"

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

.PHONY: install test smoke lint bench
