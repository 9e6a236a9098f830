"""The protocol every requirement kind implements: one class per kind module, declaring every constant and hook below.

A hook a kind does not have is set to None in the kind's own class, with a comment saying what that means there
(`project = None`: the planner does not accrue it); a hook whose answer is empty for the kind is set to `nothing`.
Nothing is filled in by the registry: a class that leaves a member undefined fails when its module loads
(`IncompleteKind`, naming the module, the class and the members it lacks).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from enum import Enum
from typing import Any, ClassVar


class IncompleteKind(TypeError):
    """A requirement kind's class does not define every constant and hook of the protocol."""


class KindRole(Enum):
    """The part a kind plays that generic code asks about (`crewkg.rules.kinds.with_role`), instead of its name."""

    #: the minimum age ('das N. Lebensjahr vollendet'): birthdays, the ages of the role hierarchy
    AGE = "age"
    #: the completed approved programme (§ 132 SchFG) a pathway relies on: its months, its role
    PROGRAMME = "programme"
    #: the days served within, after, or within or after the qualifying programme
    PROGRAMME_DAYS = "programme_days"
    #: a document held (radio certificate, medical fitness, safety training, Lehrvertrag)
    DOCUMENT = "document"


class NotAGroup:
    """The group hooks of a kind that is no group of other requirements (every kind but AnyOf and AllOf), stated once
    for all of them: it names no children (`parts`), needs no count of them (`needed`) and shows no child's figures
    (`figures`). A kind class lists it before RequirementKind."""

    parts = None
    needed = None
    figures = None


def nothing(self: RequirementKind, *args: Any) -> list:
    """The hook's answer for a kind that has nothing to give there (stated in the kind: `kb_facts = nothing`)."""
    return []


class RequirementKind(ABC):
    """One kind of requirement (MinimumAge, Fahrzeit, Exam, ...): the one home of what it means, everywhere in crewkg.

    The registry (`crewkg.rules.kinds`) makes one instance of each kind class; `kind(name)` returns it."""

    # ---- what it is

    #: the kind's name: the local name of its kb class without "Requirement" (crew:FahrzeitRequirement → Fahrzeit)
    name: ClassVar[str]
    #: its place in the program (pyDatalog resolves clauses in text order) and in every list of kinds
    order: ClassVar[int]
    #: the part it plays that generic code asks about (`KindRole`), or None
    role: ClassVar[KindRole | None]

    # ---- to the Datalog program

    #: a measured kind derives have(P, R, V); the generic threshold rule compares it with the minimum
    measured: ClassVar[bool]
    #: its rule clauses
    clauses: ClassVar[str]
    #: the fact predicates it reads, with their arity
    predicates: ClassVar[Mapping[str, int]]

    @abstractmethod
    def kb_facts(self, r: Any) -> list[tuple]:
        """The facts a requirement of the kb of this kind gives."""

    @abstractmethod
    def person_facts(self, p: Any, law: Any, as_of: Any) -> list[tuple]:
        """The facts a person record gives this kind on the evaluation date."""

    # ---- to the register (`rules.signature`)

    #: the fact predicates whose numbers reach the program only through comparisons with minimums of the kb
    abstracted: ClassVar[tuple[str, ...]]

    @abstractmethod
    def abstraction(self, facts: dict[str, list[tuple]], law: Any) -> Any:
        """Which of those comparisons hold for a person (persons who differ only in numbers no rule tells apart are
        evaluated once). None: the kind abstracts nothing."""

    # ---- to the answer

    #: the unit of needed/have (days, years, months, exams, ...)
    unit: ClassVar[str]
    #: what a person does to meet an unmet requirement of the kind, as the summary's next steps name it
    #: (serve_days, reach_age, pass_exam, obtain_document, ...); None: a group (its parts name it) or nothing a
    #: person can do (an exclusion, a closed period)
    action: ClassVar[str | None]
    #: a composite kind (AnyOf, AllOf): the answer key of its children; None for every other kind
    parts: ClassVar[str | None]

    @abstractmethod
    def needed(self, n_children: int) -> int:
        """A composite kind: how many of its `n_children` parts must be met."""

    @abstractmethod
    def figures(self, children: list[dict[str, Any]]) -> dict[str, Any]:
        """A composite kind: whose figures its answer entry shows (AnyOf: the deciding alternative's)."""

    @abstractmethod
    def answer(self, law: Any, r: Any, p: Any, d: Any, as_of: Any) -> dict[str, Any]:
        """The answer entry's needed, have and extra fields (role, capacity, phase, document, reached_on, ...).
        None: needed is the minimum and have the best value the program derived."""

    @abstractmethod
    def have(self, r: Any, p: Any, d: Any, as_of: Any) -> Any:
        """What the person has toward the requirement, where it is not the value the program derived."""

    @abstractmethod
    def lowered_minima(self, law: Any, p: Any) -> set[int]:
        """The minimums of this kind's requirements the person's own record lowers (a reduction shortening a
        Fahrzeit, § 47 Abs. 5 SchBV): numbers a count is compared with beyond the kb's own, on whose day an answer
        can change."""

    # ---- to people

    #: the kind's own sentence templates, {"de": {...}, "en": {...}} (read with `kinds.say`); empty: the catalogue's
    messages: ClassVar[Mapping[str, Mapping[str, str]]]

    @abstractmethod
    def missing(self, law: Any, req: dict[str, Any], lang: str) -> str:
        """The sentence saying what is missing for an unmet answer entry."""

    @abstractmethod
    def facts(self, req: dict[str, Any], p: Any, lang: str) -> str:
        """The record entries the requirement is decided on, for `explain`."""

    @abstractmethod
    def summary(self, law: Any, r: Any, lang: str) -> str:
        """The short phrase of the career graph for a requirement of the kb."""

    # ---- to the export

    #: the terms the export names the items in: "crew" (the ontology's) or "kb"; None for a kind naming no items
    item_terms: ClassVar[str | None]

    @abstractmethod
    def based_on(self, law: Any, r: Any, nodes: dict[str, Any]) -> list[str]:
        """The record nodes (keys of `nodes`) the requirement is derived from, for the exported provenance."""

    @abstractmethod
    def items(self, req: dict[str, Any]) -> tuple[list[str], list[str]]:
        """A kind that names items rather than an amount: the needed and the held items of an answer entry."""

    # ---- to the planner

    #: meeting it takes time; False: met on the step's date (an exam, a document)
    takes_time: ClassVar[bool]
    #: met by obtaining it on the step's date (a document, an exam): a replacement of earlier law that lacks only
    #: such requirements may be begun on the evaluation date
    obtained_on_the_day: ClassVar[bool]

    @abstractmethod
    def project(self, ctx: Any, state: Any, it: dict[str, Any], prog: Any, n: Any) -> None:
        """How the requirement projects forward in time from a step's start (fills the need `n`). None: the kind is
        not accrued, and a route lacking it cannot be planned."""

    @abstractmethod
    def held_meets(self, req: dict[str, Any], held: set[str]) -> bool:
        """Whether a certificate obtained on an earlier step of a route meets it."""

    @abstractmethod
    def lapsed(self, p: Any, req: dict[str, Any], on: Any) -> bool:
        """Whether an entry met on the evaluation date is no longer met on a later day by time alone (a medical
        proof running out): the planner lists it again for a step on that day."""

    @abstractmethod
    def assume(self, p: Any, r: Any, on: Any) -> None:
        """What the projected record holds once the plan has met the requirement on `on` (for the rules' verdict)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The check when a kind module loads: every member of the protocol is defined by the class."""
        super().__init_subclass__(**kwargs)
        lacking = undefined(cls)
        if lacking:
            raise IncompleteKind(f"requirement kind module {cls.__module__}: class {cls.__name__} does not define: "
                                 + ", ".join(lacking))


def members() -> list[str]:
    """Every constant and hook of the protocol, in the order it declares them."""
    constants = list(RequirementKind.__annotations__)
    hooks = [n for n, v in vars(RequirementKind).items() if getattr(v, "__isabstractmethod__", False)]
    return constants + hooks


def undefined(cls: type) -> list[str]:
    """The members of the protocol a kind class (or a kind class it derives from) leaves undefined, sorted."""
    own = cls.__mro__[: cls.__mro__.index(RequirementKind)]
    return sorted(m for m in members()
                  if not any(m in vars(c) for c in own) or getattr(getattr(cls, m), "__isabstractmethod__", False))
