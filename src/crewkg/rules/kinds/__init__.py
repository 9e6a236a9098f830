"""The requirement-kind registry: one module per kind of requirement (MinimumAge, Fahrzeit, Exam, ...).

A kind module defines one class implementing the protocol (`RequirementKind`, in `protocol.py`): the one home of what
its kind means, everywhere in crewkg:

- to the Datalog program: its rule clauses (`clauses`), the facts its kb requirements give (`kb_facts`), the
  facts a person record gives (`person_facts`) and the fact predicates it reads (`predicates`);
- to the answer: the unit of needed/have (`unit`), the answer entry's needed/have and extra fields (`answer`;
  `have` when the have-value is not the Datalog-derived one), the record entries it is decided on (`facts`, for
  `explain`; `based_on`, for the exported provenance) and, for a kind that names items rather than an amount,
  the needed and held items of the export (`items`, terms of the ontology or the kb: `item_terms`);
- to people: the sentence that says what is missing, in each language (`missing`; a kind may carry its own
  templates in `messages = {"de": {...}, "en": {...}}`, read with `say`), and the short phrase of the career graph
  (`summary`);
- to the planner: how the requirement projects forward in time (`project`; a kind without one is not accrued: a
  route lacking it cannot be planned), whether a certificate obtained on the route meets it (`held_meets`), whether
  meeting it takes time (`takes_time = False`: an exam or a document is met on the step's date), whether obtaining it
  on the day lets a replacement be begun (`obtained_on_the_day`), whether it lapses by time alone (`lapsed`), and
  what the projected record holds once the plan has met it (`assume`, for the Datalog verdict on the projected
  record);
- to the register: what its rules can tell apart (`abstracted`, the fact predicates whose numbers reach the program
  only through comparisons with minimums of the kb, and `abstraction`, which of those comparisons hold for a
  person), so that persons who differ only in numbers no rule tells apart are evaluated once (`rules.signature`);
- to the event dates of an answer: the minimums the person's own record lowers (`lowered_minima`).

Composite kinds (AnyOf, AllOf) name the answer key of their children (`parts`) and how many must be met
(`needed`); one may say whose figures its answer entry shows (`figures`: AnyOf, the deciding alternative's). Generic
code never asks a kind by its name: it asks the kind that plays a part (`with_role(KindRole.AGE)`), or a hook.

Modules are discovered with pkgutil over this package's `__path__`, so adding a kind is adding a module (a test
appends a folder to `__path__`). A kind class that leaves a member of the protocol undefined fails when its module
loads (`IncompleteKind`); an unknown kind in the kb fails clearly at load (`UnknownKind`).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue
from crewkg.rules.kinds.protocol import IncompleteKind, KindRole, NotAGroup, RequirementKind, nothing

__all__ = ["IncompleteKind", "KindRole", "NotAGroup", "RequirementKind", "UnknownKind", "kind", "kinds", "nothing", "with_role"]

_FOUND: dict[tuple[str, ...], dict[str, RequirementKind]] = {}


def kinds() -> dict[str, RequirementKind]:
    """Every kind module of the package (discovered again when `__path__` changes, so an added folder counts)."""
    key = tuple(__path__)
    if key not in _FOUND:
        _FOUND[key] = _discover()
    return _FOUND[key]


def _discover() -> dict[str, RequirementKind]:
    """One instance of the kind class each module defines (a module defining none, as `protocol`, holds no kind)."""
    found: dict[str, RequirementKind] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, RequirementKind)
                   and c is not RequirementKind and c.__module__ == module.__name__]
        if len(classes) > 1:
            raise IncompleteKind(f"requirement kind module {module.__name__} defines more than one kind class: "
                                 + ", ".join(c.__name__ for c in classes))
        if classes:
            k = classes[0]()
            found[k.name] = k
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


class UnknownKind(ValueError):
    """A requirement in the kb names a kind no module of this package declares."""


def kind(name: str) -> RequirementKind:
    """The kind called `name`; an unknown kind fails clearly."""
    found = kinds()
    if name not in found:
        raise UnknownKind(f"requirement kind {name!r} has no module in crewkg.rules.kinds (known: {sorted(found)})")
    return found[name]


def with_role(role: KindRole) -> RequirementKind:
    """The kind that plays `role` (the age kind, the programme kind, ...): generic code asks it, never a name."""
    for k in kinds().values():
        if k.role is role:
            return k
    raise UnknownKind(f"no requirement kind in crewkg.rules.kinds plays the role {role.value!r}")


def say(kind_name: str, lang: str, key: str, **fields: Any) -> str:
    """A kind's sentence: from the kind's own templates when it brings them, else from the message catalogue."""
    own = kind(kind_name).messages.get(lang, {})
    template = own[key] if key in own else catalogue(lang)[key]
    return template.format(**fields)


def labels_or(law: Law, ids: Any, lang: str) -> str:
    """Terms of the kb (certificates, functions) by their labels, as alternatives: 'A oder B' / 'A or B'."""
    return catalogue(lang)["or"].join(law.label(x, lang) for x in ids)


def missing_sentence(law: Law, req: dict[str, Any], lang: str = "de", cite: bool = True) -> str:
    """One sentence saying what is missing for an unmet requirement (an answer entry), with its provision (said to be
    paraphrased where the kb paraphrases it: `cited`)."""
    s = kind(req["kind"]).missing(law, req, lang)
    return f"{s} ({cited(req['provision'], lang)})" if cite else s


def cited(citation: str, lang: str) -> str:
    """A provision as an answer for people cites it: the citation, and where the kb gives its wording in its own words
    because the bundled texts lack it (Provision.paraphrased: § 6 Abs. 4, § 22, §§ 28–29, § 47 Abs. 2 and Abs. 4 Z 1–3
    SchBV), the same words saying so in every answer — the one place that says it."""
    return citation + catalogue(lang)["credit.outside"] if paraphrased(citation) else citation


def paraphrased(citation: str) -> bool:
    """Whether the provision cited is one the kb paraphrases because the bundled texts lack its wording (the JSON
    answers carry `paraphrased: true` beside such a provision)."""
    from crewkg.law.statute import load_law

    law = load_law()
    found = law.remembered("_paraphrased",
                           lambda: frozenset(p.citation for p in law.provisions.values() if p.paraphrased))
    return citation in found


def requirement_summary(law: Law, rid: str, lang: str = "de") -> str:
    """One short phrase for a requirement of the kb (e.g. '180 T. als Matrose', 'Prüfung Anl. 8')."""
    r = law.requirements[rid]
    return kind(r.kind).summary(law, r, lang)


def have_value(r: Any, p: Any, d: Any, as_of: Any) -> Any:
    """What the person has toward a requirement, for the answer: the kind's own value, else the best value the
    program derived (0 when it derived none)."""
    own = kind(r.kind).have
    if own is not None:
        return own(r, p, d, as_of)
    values = d.have.get((p.id, r.id), [])
    if not values:
        return 0
    best = max(values)
    return int(best) if float(best).is_integer() else best


def credit_fields(p: Any, scope: str, waters: str, as_of: Any = None) -> dict[str, Any]:
    """What a record with a service log adds to a day-counting requirement: the days recorded, those not yet
    validated and those the cap leaves out (`waters` names the crediting limit that applies), and where the cap left
    days out, the provision of the limit the law in force on `as_of` sets (`cap_provision`). Nothing without a log
    of these waters."""
    if not p.logged(waters):
        return {}
    c = p.credits.get(scope)
    recorded, not_validated, capped = (c.recorded, c.not_validated, c.capped) if c else (0, 0, 0)
    out: dict[str, Any] = {"recorded": recorded, "not_validated": not_validated, "capped": capped}
    if capped and as_of is not None:
        out["cap_provision"] = cap_provision(waters, as_of)
    return out


def cap_provision(waters: str, as_of: Any) -> str:
    """The provision of the crediting limit for `waters` (inland | sea) that the law in force on `as_of` sets (§ 3
    Abs. 6 SchBesV 2004 before 17 Jan 2022, § 6 Abs. 4 SchBV from then)."""
    from crewkg.law.crediting import AREAS, limit_on

    return limit_on(AREAS[waters], as_of).citation


def credit_gap(req: dict[str, Any], lang: str) -> str:
    """The part of a missing sentence that explains the gap between the days recorded and the days credited."""
    from crewkg.law.crediting import AREAS, crediting_limits
    from crewkg.messages.wording import amount

    t = catalogue(lang)
    out = ""

    def days(n: int) -> str:
        return amount(n, "days", lang)

    if req.get("not_validated"):
        out += t["credit.not_validated"].format(n=days(req["not_validated"]))
    if req.get("capped"):
        area = AREAS["sea" if req.get("kind") == "SeaTime" else "inland"]
        lim = crediting_limits()[area]
        cite = cited(req.get("cap_provision") or lim.citation, lang)  # § 6 Abs. 4 SchBV: said to be paraphrased
        out += t["credit.capped"].format(n=days(req["capped"]), cap=lim.days, period=lim.period, provision=cite)
    return out


def limit_said(key: str, credit: Any, waters: str, req: dict[str, Any], lang: str, **fields: Any) -> str:
    """A count's crediting limit, for `explain`, where it left days of a log out: a line (after a newline) that says
    how many days were recorded, the limit (so many days in so many, its provision, said to be paraphrased where the
    kb paraphrases it) and how many days it left out ('' where it left none out). `credit` is the count's Credit."""
    from crewkg.law.crediting import AREAS, crediting_limits
    from crewkg.messages.wording import amount

    if credit is None or not credit.capped:
        return ""
    t = catalogue(lang)
    lim = crediting_limits()[AREAS[waters]]
    cite = cited(req.get("cap_provision") or lim.citation, lang)
    return "\n" + t[key].format(recorded=amount(credit.recorded, "days", lang), cap=lim.days, period=lim.period,
                                provision=cite, capped=credit.capped, **fields)


def unit(kind_name: str) -> str:
    """The unit of needed/have for a kind (days, years, months, exams, ...)."""
    return kind(kind_name).unit


def minima(law: Law, kind_name: str, **attributes: Any) -> list[int]:
    """The distinct minimums the kb's requirements of a kind ask (those whose attributes have the given values),
    ascending: the thresholds a number of that kind is compared with (cached per law)."""
    return law.remembered_for("_minima", (kind_name, tuple(sorted(attributes.items()))),
                              lambda: sorted({r.minimum for r in law.requirements.values()
                                              if r.kind == kind_name and r.minimum is not None
                                              and all(getattr(r, a) == v for a, v in attributes.items())}))


def band(value: Any, grid: list[int]) -> Any:
    """How many thresholds of the grid the value reaches: two values in the same band meet the same minimums (None,
    a value the record lacks, stays None)."""
    import bisect

    return None if value is None else bisect.bisect_right(grid, value)


def bands(facts: dict[str, list[tuple]], law: Law, kind_name: str, predicate: str) -> tuple:
    """The abstraction of a kind whose one number per person (`predicate`'s last argument) reaches the program only
    through the threshold rule: the band of each such fact among the kind's minimums."""
    return tuple(band(f[-1], minima(law, kind_name)) for f in facts.get(predicate, []))
