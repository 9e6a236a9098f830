"""The phases of a training programme in which Fahrzeit counts (crew:ProgrammePhase of the ontology): within it, after
it, or within or after it, the two added. The one home of which days of a dated programme each phase counts — the
record's credited scopes (`records.dated`), the ProgrammeFahrzeit kind, the planner and the timeline read it here.

The phases are the ontology's terms (ontology/crew.ttl; tests/test_requirement_kinds.py checks they are its
crew:ProgrammePhase terms), in the order the ontology defines them (within, after, within or after). Their ids are
written here rather than read through `law.namespaces`, which would load rdflib for the planner and the timeline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Phase:
    """One programme phase: its term, and whether it counts the days from the programme's first to its last day
    (`within`) and those after its last day (`after`)."""

    id: str
    within: bool
    after: bool

    def window(self, first: int, last: int) -> tuple[int, int | None]:
        """The days (ordinals) the phase counts of a programme from day `first` to day `last`: (lowest, highest),
        None for no end."""
        return (first if self.within else last + 1), (None if self.after else last)

    def days(self, g: Any) -> int:
        """The days a record's programme (`records.persons.Programme`) holds in this phase, as the record or its log
        gives them: within and after added, where its log does not give their credited sum (`within_or_after`)."""
        within, after = g.sailing_days or 0, g.sailing_days_after or 0
        if not self.after:
            return within
        if not self.within:
            return after
        return g.within_or_after if g.within_or_after is not None else within + after


WITHIN = Phase("WithinProgramme", within=True, after=False)
AFTER = Phase("AfterProgramme", within=False, after=True)
WITHIN_OR_AFTER = Phase("WithinOrAfterProgramme", within=True, after=True)
#: every phase, in the ontology's order
PHASES = (WITHIN, AFTER, WITHIN_OR_AFTER)


def phase(phase_id: str | None) -> Phase:
    """The phase called `phase_id`; a requirement that names none counts within or after the programme."""
    return next((ph for ph in PHASES if ph.id == phase_id), WITHIN_OR_AFTER)
