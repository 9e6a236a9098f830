"""The requirement the minimum-crew answer hands to the roster check: for one vessel on one date, the alternatives
after the adjustments (with the substitutions that reach each), the passenger-safety functions and the rules beside
the tables that govern it. `crew.requirement` builds it from what the program derived; `rosters.check_roster` fills it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from crewkg.law.statute import Regulation
from crewkg.manning.tables import (
    Adjustment,
    FunctionDelegation,
    FunctionRule,
    QualificationProof,
    Row,
    Substitution,
    Table,
    TransitionalRule,
)


@dataclass
class AlternativeNeed:
    """One alternative after the adjustments: what the roster check fills."""

    id: str
    index: int
    counts: dict[str, int]  # role -> count, zero counts omitted
    table_counts: dict[str, int]  # the counts as the table prescribes them
    substitutions: list[Substitution]  # substitutions that reach this alternative
    adjustments: list[Adjustment] = field(default_factory=list)  # reductions and additions that changed it


@dataclass
class FunctionNeed:
    function: str
    count: int
    provision: str
    table: str


@dataclass
class Requirement:
    """The answer's data for the roster check (rosters.py) besides the JSON answer itself."""

    vessel: Any
    as_of: date
    regulation: Regulation | None
    covered: bool
    table: Table | None = None
    row: Row | None = None
    alternatives: list[AlternativeNeed] = field(default_factory=list)
    functions: list[FunctionNeed] = field(default_factory=list)
    function_table: Table | None = None
    function_substitutions: list[Substitution] = field(default_factory=list)
    delegations: list[FunctionDelegation] = field(default_factory=list)
    #: qualifications proven on this vessel by the requirements of their pathways (crew:QualificationProof)
    proofs: list[QualificationProof] = field(default_factory=list)
    rules: list[FunctionRule] = field(default_factory=list)
    transitional: list[TransitionalRule] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=dict)
    #: the other readings of doubtful provisions that reach the vessel, each with the requirement under it
    readings: list[tuple[Any, Requirement]] = field(default_factory=list)
    #: what the program derived for the vessel (`manning.program.Derived`): the temporary reductions it reaches
    derived: Any = None

