"""What the rules can tell apart: a person's facts reduced to what decides every outcome of the program, so that a
register evaluates persons with equal signatures once (answers.register).

Two facts of the program make this sound. Every fact about a person names the person first and no rule joins two
persons, so the id can be set aside. And the numbers of a record (days, years, months, an age) reach the program only
through comparisons with minimums of the kb, after the sums its clauses make: each requirement kind that reads such
numbers says which of its fact predicates carry them (`ABSTRACTED`) and which of those comparisons hold
(`abstraction`), in the kind's own module beside its clauses. Every other fact is kept as it is.

tests/test_register.py checks the grouping against evaluating each person alone, on synthetic registers and on
persons one day either side of every threshold sum."""

from __future__ import annotations

import re
from typing import Any

from crewkg.law.statute import Law
from crewkg.rules.kinds import kinds


def abstracted_predicates() -> frozenset[str]:
    """The fact predicates whose numbers the kinds abstract."""
    return frozenset(name for k in kinds().values() for name in k.abstracted)


def signature(person_id: str, facts: list[tuple], law: Law) -> tuple[Any, ...] | None:
    """The person's facts as the rules tell them apart (None when a fact does not name the person first: such a
    person is evaluated on its own)."""
    if any(len(f) < 2 or f[1] != person_id for f in facts):
        return None
    numeric = abstracted_predicates()
    exact: list[tuple] = []
    by_predicate: dict[str, list[tuple]] = {}
    for f in facts:
        by_predicate.setdefault(f[0], []).append(f)
        if f[0] not in numeric:
            exact.append((f[0], *f[2:]))
    return (frozenset(exact),
            tuple((k.name, k.abstraction(by_predicate, law)) for k in kinds().values() if k.abstraction is not None))


# ------------------------------------------------------------------------------------------------ the two stages
# A finer grouping for the register (answers.register). Whether a requirement of a kind that is not composite is met
# depends only on the facts its kind's clauses read, and on those of the kinds whose predicates they read in turn
# (Fahrzeit with sea time reads the sea days; sea time before a programme reads the programmes): `kind_keys` gives
# each such kind's share of a signature. The pathways, certificates and roles then depend only on the requirements
# met and on the few person facts the generic rules read (`stage_two_key`). So a person whose every kind share was
# met before needs only the second stage, about half the program (`rules.eligibility.derive_from_met`).
# The clauses of a kind derive `have` and `met` only for requirements of that kind (each is bound by the kind's
# own kb facts), so those two are not followed from one kind to another.

_PREDICATE = re.compile(r"(~?)([a-z_][a-z0-9_]*)\s*[\[(]")
_OWN = frozenset({"have", "met"})


def _rules_of(text: str) -> list[tuple[str, frozenset[str]]]:
    """(head predicate, body predicates) of each clause of a program text."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        if "<=" in line:
            head, body = line.split("<=", 1)
            names = [m.group(2) for m in _PREDICATE.finditer(head)]
            if names:
                out.append((names[0], frozenset(m.group(2) for m in _PREDICATE.finditer(body))))
    return out


_READS: dict[int, dict[str, tuple[tuple[str, ...], frozenset[str]]]] = {}


def leaf_reads() -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """Per kind that is not composite: the kinds whose clauses or facts its clauses read (itself first, then in
    registry order) and every predicate those read."""
    found = kinds()
    if id(found) not in _READS:
        owner: dict[str, str] = {}
        direct: dict[str, set[str]] = {}
        for k in found.values():
            direct[k.name] = set(k.predicates)
            for p in k.predicates:
                owner.setdefault(p, k.name)
            for head, body in _rules_of(k.clauses):
                direct[k.name] |= body
                if head not in _OWN:
                    owner.setdefault(head, k.name)
        reads = {}
        for k in found.values():
            if k.parts is not None:
                continue
            seen, todo = {k.name}, [k.name]
            while todo:
                for p in direct[todo.pop()] - _OWN:
                    o = owner.get(p)
                    if o is not None and o not in seen:
                        seen.add(o)
                        todo.append(o)
            order = [k.name] + [n for n in found if n in seen and n != k.name]
            reads[k.name] = (tuple(order), frozenset().union(*(direct[n] for n in order)))
        _READS[id(found)] = reads
    return _READS[id(found)]


def kind_keys(sig: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    """A signature's share per kind that is not composite: the exact facts its clauses read and the abstractions of
    the kinds it reads. Two persons with the same share meet the same requirements of that kind."""
    exact, abstractions = sig
    by_name = dict(abstractions)
    return tuple((name, frozenset(f for f in exact if f[0] in preds), tuple(by_name.get(n) for n in order))
                 for name, (order, preds) in leaf_reads().items())


def stage_two_key(sig: tuple[Any, ...], met: frozenset[str], rules_text: str) -> tuple[Any, ...]:
    """What the second stage can tell apart: the requirements met, the person facts its rules read (`rules_text`,
    `rules.eligibility.stage_two_rules`), and the abstractions of the kinds whose numbers those facts carry (the
    age: every minimum age of the law, which the role-age rule compares it with)."""
    read = stage_two_reads(rules_text)
    exact, abstractions = sig
    return (met, frozenset(f for f in exact if f[0] in read),
            tuple((name, a) for name, a in abstractions if not read.isdisjoint(kinds()[name].abstracted)))


_TWO: dict[str, frozenset[str]] = {}


def stage_two_reads(rules_text: str) -> frozenset[str]:
    """Every predicate the bodies of a program's rules read: a person's facts the second stage needs."""
    if rules_text not in _TWO:
        _TWO[rules_text] = frozenset().union(*(body for _, body in _rules_of(rules_text)))
    return _TWO[rules_text]
