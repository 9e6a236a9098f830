"""One evaluation of a pyDatalog program: the single way the eligibility and the manning programs are run.

pyDatalog keeps its database in module state, so an evaluation is one unit under one lock: load the rules, assert
the facts, declare the fact predicates that received none, ask one query, and take the facts back. Nothing of one
call leaks into the next, and the two programs never see each other's facts (docs/architecture.md, 'Engine notes').

A call may name a base (`base`, `base_key`): facts that stay the same from call to call (the kb). The rules and the
base are then kept loaded after the call, and the next call with the same rules and base key asserts and retracts only
its own facts — a register's batches skip parsing the program (≈ 40 ms) and asserting the kb each time. Any other
call clears the database first. pyDatalog tables nothing between two queries (every ask starts with fresh subgoals),
so a kept base gives the answers a fresh database gives (tests/test_datalog_engine.py, tests/test_register.py)."""

from __future__ import annotations

import collections
import sys
import threading
from collections.abc import Mapping
from typing import Any

from pyDatalog import Aggregate, pyDatalog, pyEngine, pyParser

_LOCK = threading.Lock()
#: (rules, base key, base predicates) of what the database holds now, or None when it holds nothing to keep
_LOADED: list[Any] = [None]


def _clause(fact: tuple):
    """A ground fact as the engine's clause. pyDatalog.assert_fact builds the same clause through the parser's
    expression objects first, which is nine tenths of its cost (measured: 100 persons' facts and the kb, 115 ms
    against 13 ms; the same answers)."""
    return pyEngine.Clause(pyEngine.Literal(fact[0], [pyEngine.Term_of(a) for a in fact[1:]]), [])


def _complete_in_turn(self, base_subgoal, subgoal) -> None:
    """Aggregate.complete without its thread pool: pyDatalog 0.22.4 evaluates the groups of an aggregate in a
    ThreadPoolExecutor, which only a free-threaded Python runs in parallel; with the GIL, starting the pool and its
    futures was a fifth of a register's time (measured: 7.6 s of 64 s on 10 000 persons). Each group is evaluated
    on its own copy of the aggregate, in the same order, as the pool does."""
    groups: dict[Any, list] = collections.defaultdict(list)
    for literal in base_subgoal.facts.values():
        row = tuple(literal.terms)
        groups[self.key(row)].append(row)
    for group in groups.values():
        for row in self._process_group_concurrently(group):
            self.fact_candidate(subgoal, row)


#: pyDatalog rounds every float it is given to about 8 significant digits (27 bits of the mantissa), so that
#: 4.99 years came back as 4.990000009536743 and 4.999999999 years would meet a minimum of 5 in the program but not
#: in `rules.signature`'s comparisons. The law compares the record's numbers as they are: no rounding.
pyEngine.Float_Precision = None

_AGGREGATE = Aggregate.Aggregate
if getattr(sys, "_is_gil_enabled", lambda: True)() and hasattr(_AGGREGATE, "_process_group_concurrently"):
    _AGGREGATE.complete = _complete_in_turn


def evaluate(rules: str, predicates: Mapping[str, int], facts: list[tuple], query: str, *,
             base: list[tuple] | None = None, base_key: Any = None) -> list[tuple]:
    """The answers to `query` (a tuple of values per row) over `rules`, `base` and `facts`.

    `predicates` names every fact predicate the rules read, with its arity: pyDatalog raises "Predicate without
    definition" for one that has no fact (a record without exams, a vessel without functions), so each of those is
    declared by asserting and retracting a fact. A base is kept loaded for the next call with the same rules and the
    same `base_key` object (a new object whenever the base changes); `facts` may not have a predicate the base has."""
    kept = base is not None and base_key is not None
    with _LOCK:
        loaded = _LOADED[0]
        if not kept or loaded is None or loaded[1] is not base_key or loaded[0] != rules:
            _load(rules, predicates, base or [], base_key if kept else None)
        own = [_clause(fact) for fact in facts]
        try:
            if kept and not {f[0] for f in facts}.isdisjoint(_LOADED[0][2]):
                raise ValueError("facts of a base predicate would be taken back from the base")
            for clause in own:
                pyEngine.assert_(clause)
            if not kept:
                _declare(predicates, {fact[0] for fact in facts})
            result = pyDatalog.ask(query)
            answers = list(result.answers) if result else []
        except BaseException:
            pyDatalog.clear()
            _LOADED[0] = None
            raise
        if kept:
            for clause in own:
                pyEngine.retract(clause)
        else:
            pyDatalog.clear()
        return answers


def _load(rules: str, predicates: Mapping[str, int], base: list[tuple], key: Any) -> None:
    """Load the program and its base; with a key, remember them (the key object itself: compared by identity)."""
    # Not pyDatalog.load(): it adds only an inspect.stack() walk to pick up the caller's atomized globals (these
    # programs have none), which reads the source file of every frame (~7 ms of a cold CLI call) and probes every
    # global of the calling module with hasattr().
    pyDatalog.clear()
    _LOADED[0] = None
    pyParser.load(rules)
    for fact in base:
        pyEngine.assert_(_clause(fact))
    if key is not None:
        names = frozenset(fact[0] for fact in base)
        _declare(predicates, names)  # every other predicate: a later call's facts come and go
        _LOADED[0] = (rules, key, names)


def _declare(predicates: Mapping[str, int], asserted: set[str] | frozenset[str]) -> None:
    """Declare the predicates that received no fact."""
    for name, arity in predicates.items():
        if name not in asserted:
            dummy = _clause((name,) + ("\u2205",) * arity)
            pyEngine.assert_(dummy)
            pyEngine.retract(dummy)
