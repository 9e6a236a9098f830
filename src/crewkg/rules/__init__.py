"""The Datalog programs: the one runner (`datalog`) and the eligibility program (the minimum-crew program lives with
the rest of minimum crew, in `crewkg.manning.program`). Facts come from `crewkg.law` and `crewkg.records`; answers are
arranged above, in `crewkg.answers`."""
