"""The one way a pyDatalog program runs (rules/datalog.py): a kept base (the kb) gives the answers a fresh database
gives, one call's facts never reach the next, and the aggregates give the same answers without their thread pool."""

import pytest

from crewkg.rules.datalog import evaluate

RULES = """
(total[P] == sum_(D, for_each=K)) <= days(P, K, D)
enough(P) <= days(P, K, D) & (total[P] == T) & minimum(N) & (T >= N)
"""
PREDICATES = {"days": 3, "minimum": 1}


def test_a_kept_base_answers_as_a_fresh_database_and_forgets_each_calls_facts():
    base = [("minimum", 360)]
    key = object()
    first = [("days", "a", "Matrose", 200), ("days", "a", "Bootsmann", 160), ("days", "b", "Matrose", 359)]
    second = [("days", "b", "Matrose", 360)]
    assert sorted(evaluate(RULES, PREDICATES, first, "enough(P)", base=base, base_key=key)) == [("a",)]
    assert evaluate(RULES, PREDICATES, second, "enough(P)", base=base, base_key=key) == [("b",)]  # 'a' is gone
    assert evaluate(RULES, PREDICATES, [], "enough(P)", base=base, base_key=key) == []
    assert evaluate(RULES, PREDICATES, base + first, "enough(P)") == [("a",)]  # fresh: the same answer
    assert evaluate(RULES, PREDICATES, second, "enough(P)", base=[("minimum", 361)], base_key=object()) == []


def test_facts_may_not_take_back_a_base_fact():
    key = object()
    with pytest.raises(ValueError):
        evaluate(RULES, PREDICATES, [("minimum", 1)], "enough(P)", base=[("minimum", 360)], base_key=key)
    assert evaluate(RULES, PREDICATES, [("days", "a", "Matrose", 360)], "enough(P)", base=[("minimum", 360)],
                    base_key=key) == [("a",)]


def test_aggregates_over_many_groups_in_turn():
    facts = [("days", f"p{i}", k, i) for i in range(300) for k in ("Matrose", "Bootsmann")] + [("minimum", 360)]
    got = {p for (p,) in evaluate(RULES, PREDICATES, facts, "enough(P)")}
    assert got == {f"p{i}" for i in range(180, 300)}


OTHER_RULES = """
short(P) <= days(P, K, D) & minimum(N) & (D < N)
"""


def test_the_rules_stay_loaded_and_a_new_base_replaces_the_last_one():
    """Between calls only the base's facts are swapped: a base no longer named answers nothing, and other rules
    in between (the manning program between two checks) leave no rule or fact behind."""
    key = object()
    facts = [("days", "a", "Matrose", 359)]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=[("minimum", 359)], base_key=key) == [("a",)]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=[("minimum", 360)]) == []  # the 359 base is gone
    assert evaluate(OTHER_RULES, PREDICATES, facts, "short(P)", base=[("minimum", 360)]) == [("a",)]
    with pytest.raises(Exception):  # noqa: B017 - `enough` is not a predicate of the other program
        evaluate(OTHER_RULES, PREDICATES, facts, "enough(P)", base=[("minimum", 1)])
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=[("minimum", 359)], base_key=key) == [("a",)]
    assert evaluate(RULES, PREDICATES, facts + [("minimum", 359)], "enough(P)") == [("a",)]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)") == []  # the last call's minimum went with its facts


def test_each_thread_has_its_own_database():
    """pyDatalog's database is per thread: a base kept in one thread is loaded again in another, not assumed."""
    import threading

    key = object()
    base = [("minimum", 360)]
    facts = [("days", "a", "Matrose", 360)]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=base, base_key=key) == [("a",)]
    got: list = []
    thread = threading.Thread(target=lambda: got.append(evaluate(RULES, PREDICATES, facts, "enough(P)", base=base,
                                                                 base_key=key)))
    thread.start()
    thread.join()
    assert got == [[("a",)]]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=base, base_key=key) == [("a",)]


def test_a_swap_interrupted_half_way_is_loaded_afresh_by_the_next_call(monkeypatch):
    """An interrupt (Ctrl-C, an error) while one kept base's facts are taken back must not leave the next call
    with that base believing it whole."""
    from pyDatalog import pyEngine

    first, second = [("minimum", 1), ("minimum", 361)], [("minimum", 500)]  # without its 1, the first answers []
    facts = [("days", "a", "Matrose", 360)]
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=first, base_key=first) == [("a",)]
    real, calls = pyEngine.retract, []

    def interrupted(clause):
        calls.append(clause)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(clause)

    monkeypatch.setattr(pyEngine, "retract", interrupted)
    with pytest.raises(KeyboardInterrupt):
        evaluate(RULES, PREDICATES, facts, "enough(P)", base=second, base_key=second)
    monkeypatch.setattr(pyEngine, "retract", real)
    assert evaluate(RULES, PREDICATES, facts, "enough(P)", base=first, base_key=first) == [("a",)]


def test_the_kb_facts_kept_as_a_base_are_one_object_per_law_and_pathways():
    """The base key is compared by identity: a new list each call would parse nothing again but swap the whole kb."""
    import copy
    from datetime import date

    from crewkg.law.statute import load_law
    from crewkg.rules.eligibility import kb_facts, kept_kb_facts, register_pathways

    law = load_law()
    whole = kept_kb_facts(law)
    assert kept_kb_facts(law) is whole and whole == kb_facts(law)
    today, earlier = register_pathways(law, date(2026, 11, 30)), register_pathways(law, date(2022, 1, 17))
    assert today == earlier  # one regulation in force: the same pathways...
    assert kept_kb_facts(law, earlier) is kept_kb_facts(law, today)  # ...and the same base, whatever the date
    assert kept_kb_facts(law, today) is not whole and kept_kb_facts(law, today) == kb_facts(law, today)
    old = register_pathways(law, date(2021, 6, 1))  # SchBesV 2004: other pathways, another base
    assert old != today and kept_kb_facts(law, old) == kb_facts(law, old)
    other = copy.copy(law)
    other.__dict__.pop("_kept_kb_facts", None)
    assert kept_kb_facts(other) is not whole  # a law of its own keeps its own facts
