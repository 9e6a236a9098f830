"""The Datalog programs: the one runner (`datalog`), the eligibility program and the manning program. Facts come
from `crewkg.law` and `crewkg.records`; answers are arranged above, in `crewkg.answers`."""
