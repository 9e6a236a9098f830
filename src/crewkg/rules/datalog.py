"""One evaluation of a pyDatalog program: the single way the eligibility and the manning programs are run.

pyDatalog keeps its database in module state, so an evaluation is one unit under one lock: clear, load the rules,
assert the facts, declare the fact predicates that received none, ask one query, clear again. Nothing of one call
leaks into the next, and the two programs never see each other's facts (docs/architecture.md, 'Engine notes')."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from pyDatalog import pyDatalog, pyEngine, pyParser

_LOCK = threading.Lock()


def _clause(fact: tuple):
    """A ground fact as the engine's clause. pyDatalog.assert_fact builds the same clause through the parser's
    expression objects first, which is nine tenths of its cost (measured: 100 persons' facts and the kb, 115 ms
    against 13 ms; the same answers)."""
    return pyEngine.Clause(pyEngine.Literal(fact[0], [pyEngine.Term_of(a) for a in fact[1:]]), [])


def evaluate(rules: str, predicates: Mapping[str, int], facts: list[tuple], query: str) -> list[tuple]:
    """The answers to `query` (a tuple of values per row) over `rules` and `facts`.

    `predicates` names every fact predicate the rules read, with its arity: pyDatalog raises "Predicate without
    definition" for one that has no fact (a record without exams, a vessel without functions), so each of those is
    declared by asserting and retracting a fact."""
    with _LOCK:
        pyDatalog.clear()
        try:
            # Not pyDatalog.load(): it adds only an inspect.stack() walk to pick up the caller's atomized globals (these
            # programs have none), which reads the source file of every frame (~7 ms of a cold CLI call) and probes
            # every global of the calling module with hasattr().
            pyParser.load(rules)
            for fact in facts:
                pyEngine.assert_(_clause(fact))
            asserted = {fact[0] for fact in facts}
            for name, arity in predicates.items():
                if name not in asserted:
                    dummy = _clause((name,) + ("\u2205",) * arity)
                    pyEngine.assert_(dummy)
                    pyEngine.retract(dummy)
            result = pyDatalog.ask(query)
            return list(result.answers) if result else []
        finally:
            pyDatalog.clear()
