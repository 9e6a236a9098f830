"""One evaluation of a pyDatalog program: the single way the eligibility and the manning programs are run.

pyDatalog keeps its database in module state, so an evaluation is one unit under one lock: load the rules, assert
the facts, declare the fact predicates that received none, ask one query, and take the facts back. Nothing of one
call leaks into the next, and the two programs never see each other's facts (docs/architecture.md, 'Engine notes').

A call may name a base (`base`, `base_key`): facts that stay the same from call to call (the kb). The rules and the
base are then kept loaded after the call, and the next call with the same rules and base key asserts and retracts only
its own facts — a register's batches skip parsing the program (≈ 40 ms) and asserting the kb each time. The rules stay
loaded after every call: a call with the same rules and another base swaps only the base's facts. pyDatalog tables
nothing between two queries (every ask starts with fresh subgoals), so a kept base gives the answers a fresh database
gives (tests/test_datalog_engine.py, tests/test_register.py)."""

from __future__ import annotations

import collections
import os
import sys
import threading
from collections.abc import Mapping
from typing import Any

from pyDatalog import Aggregate, pyDatalog, pyEngine, pyParser

_LOCK = threading.Lock()
# A process forked while another thread evaluates (the service forks its evaluation workers and query workers while
# it serves) would inherit the lock held for good and a database half-changed: a fork waits for the evaluation to end.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_LOCK.acquire, after_in_parent=_LOCK.release, after_in_child=_LOCK.release)
#: what this thread's database holds (pyDatalog keeps one database per thread): (rules, fact predicates, base key,
#: base predicates, base clauses), or no `loaded` when it may hold anything
_STATE = threading.local()


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
    declared when the program is loaded, by asserting and retracting a fact. A base is kept loaded for the next call
    with the same rules and the same `base_key` object (a new object whenever the base changes); `facts` may not have
    a predicate the base has. A call with other rules loads them afresh; one with the same rules and another base only
    swaps the base's facts (≈ 10 ms for the whole kb against ≈ 100 ms to parse the program again)."""
    kept = base is not None and base_key is not None
    with _LOCK:
        _use(rules, predicates, base or [], base_key if kept else None)
        own = [_clause(fact) for fact in facts]
        try:
            if not {f[0] for f in facts}.isdisjoint(_STATE.loaded[3]):
                raise ValueError("facts of a base predicate would be taken back from the base")
            for clause in own:
                pyEngine.assert_(clause)
            result = pyDatalog.ask(query)
            answers = list(result.answers) if result else []
            for clause in own:
                pyEngine.retract(clause)
        except BaseException:
            pyDatalog.clear()
            _STATE.loaded = None
            raise
        return answers


def _use(rules: str, predicates: Mapping[str, int], base: list[tuple], key: Any) -> None:
    """Make the database hold `rules` and `base`: parse the program only when other rules (or fact predicates) are
    loaded, and otherwise swap the previous base's facts for these unless it is the same kept base (`key`, compared by
    identity; None: never the same)."""
    loaded = getattr(_STATE, "loaded", None)
    if loaded is None or loaded[0] != rules or loaded[1] != predicates:
        # Not pyDatalog.load(): it adds only an inspect.stack() walk to pick up the caller's atomized globals (these
        # programs have none), which reads the source file of every frame (~7 ms of a cold CLI call) and probes every
        # global of the calling module with hasattr().
        pyDatalog.clear()
        _STATE.loaded = None
        pyParser.load(rules)
        for name, arity in predicates.items():
            dummy = _clause((name,) + ("\u2205",) * arity)
            pyEngine.assert_(dummy)
            pyEngine.retract(dummy)
        loaded = (rules, dict(predicates), None, frozenset(), [])
    elif key is not None and loaded[2] is key:
        return
    _STATE.loaded = None  # until the new base is whole: an interrupted swap is loaded afresh by the next call
    for clause in loaded[4]:
        pyEngine.retract(clause)
    clauses = [_clause(fact) for fact in base]
    for clause in clauses:
        pyEngine.assert_(clause)
    _STATE.loaded = (rules, loaded[1], key, frozenset(fact[0] for fact in base), clauses)


#: the threads `evaluate_apart` keeps, by name, with the process that started them (a forked child starts its own)
_APART: dict[str, tuple[int, Any]] = {}


def evaluate_apart(name: str, rules: str, predicates: Mapping[str, int], facts: list[tuple], query: str, *,
                   base: list[tuple] | None = None, base_key: Any = None) -> list[tuple]:
    """`evaluate` in a thread kept for `name`. pyDatalog keeps one database per thread, so two programs asked in turn
    (a register's two stages) each stay loaded in their own thread, where asking them in one thread would parse each
    again at every switch (≈ 100 ms). The calls still run one at a time (the lock)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    pid, pool = _APART.get(name, (None, None))
    if pid != os.getpid():
        pool = ThreadPoolExecutor(1, thread_name_prefix=f"crewkg-{name}")
        _APART[name] = (os.getpid(), pool)
    return pool.submit(evaluate, rules, predicates, facts, query, base=base, base_key=base_key).result()
