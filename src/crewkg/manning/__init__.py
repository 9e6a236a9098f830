"""Minimum crew (Mindestbesatzung) in one place: the manning tables compiled from the kb, vessel and roster records,
the Datalog program that decides which table, Stufe and alternatives govern a vessel on a date, the minimum-crew
answer, and the roster check with its assignment of crew members to positions.

It sits above `crewkg.answers` because the roster check asks the eligibility program which roles each crew member
can fill (`answers.eligibility`, `rules.eligibility`); it imports law, records, rules and answers, and nothing above."""
