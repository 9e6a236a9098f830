"""The requirement-kind registry (crewkg.rules.kinds): one module per kind, covering every kind the kb uses."""

from __future__ import annotations

import pytest

from crewkg.law.statute import load_law
from crewkg.rules import kinds as registry
from crewkg.rules.eligibility import rules


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
