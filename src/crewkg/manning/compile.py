"""The manning tables compiled from the kb graph (`ontology/manning.ttl` terms over `kb/`) into the records of
`tables.py`, once per kb version, and cached on disk like the Law itself (`law.cache.compiled`).

Each kind of record has its own small reader below; a rule beside the tables is read by the reader of its kind
(`_RULE_READERS`). A function rule of unknown or missing kind is refused here, when the kb is compiled
(`ManningDataError`), never answered as something else."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from rdflib.term import URIRef

from crewkg.law.namespaces import CREW_IRI, local
from crewkg.law.reading import GraphReader
from crewkg.law.statute import Law
from crewkg.manning import tables
from crewkg.manning.tables import (
    FUNCTION_KINDS,
    MANNING,
    Adjustment,
    Alternative,
    Amendment,
    Attribute,
    Case,
    Condition,
    CoverageGap,
    FunctionDelegation,
    FunctionRule,
    LighterEquivalence,
    ManningLaw,
    QualificationProof,
    Reading,
    Row,
    RowPrecedence,
    Rule,
    Substitution,
    Table,
    TransitionalRule,
    Value,
)


class ManningDataError(ValueError):
    """The manning tables of the kb break a rule the answer relies on (named in the message); raised at kb load."""


def load_manning(law: Law, kb: Path | None = None, onto: Path | None = None) -> ManningLaw:
    """The manning law of the kb the Law was read from (pass the same kb/ontology folders as to load_law), compiled
    once and cached like the Law itself, keyed by the Law's content hash."""
    return _load_manning(law.version, None if kb is None else Path(kb).resolve(), None if onto is None else Path(onto).resolve())


@lru_cache(maxsize=8)
def _load_manning(version: str, kb: Path | None, onto: Path | None) -> ManningLaw:
    from crewkg.law.cache import compiled, load_graph

    return compiled("manning", _with_records(version), __file__, lambda: _compile(load_graph(kb, onto), version))


def _with_records(version: str) -> str:
    """The cache key's version: the kb's, and the source of the record types the cache holds (`tables.py`).
    `compiled` keys on this module's own source; the records are defined beside it, so an edit to either module
    rebuilds the cached tables, as it did when both were one module."""
    return version + "+" + hashlib.sha256(Path(tables.__file__).read_bytes()).hexdigest()[:16]


def _CREW(name: str) -> URIRef:
    """A term of ontology/crew.ttl that namespaces.CREW does not list (statuteOrder is there; these are read here only)."""
    return URIRef(CREW_IRI + name)


class _Reader(GraphReader):
    """The graph accessors of `law.reading` and the two shapes only the manning tables use: texts per language and
    role counts."""

    def texts(self, s, p) -> dict[str, str]:
        """A language-tagged text per language (untagged counts as German); a language without one falls back to the
        other, so an answer always has the text the kb gives."""
        out: dict[str, str] = {}
        for o in self.g.objects(s, p):
            out.setdefault(getattr(o, "language", None) or "de", str(o))
        for a, b in (("de", "en"), ("en", "de")):
            if a not in out and b in out:
                out[a] = out[b]
        return out

    def counts(self, s) -> tuple[tuple[str, int], ...]:
        out = []
        for rc in self.g.objects(s, MANNING.hasRoleCount):
            out.append((local(self.one(rc, MANNING.countsRole)), int(self.one(rc, MANNING.count).toPython())))
        return tuple(sorted(out))

    def day(self, s, p) -> date | None:
        v = self.one(s, p)
        return None if v is None else v.toPython()


def _compile(g, version: str) -> ManningLaw:
    """Every record of the manning tables in the graph, by kind."""
    r = _Reader(g)
    return ManningLaw(version=version, tables=_tables(r), rows=_rows(r), alternatives=_alternatives(r), cases=_cases(r),
                      rules=_rules(r), amendments=_amendments(r), attributes=_attributes(r), values=_values(r),
                      s1_literae=_s1_literae(r), provision_litera={local(p): str(lit) for p, lit in g.subject_objects(_CREW("litera"))},
                      readings=_readings(r),
                      proven_functions={local(e): local(f) for e, f in g.subject_objects(MANNING.provesFunction)},
                      other_vessels={local(reg): r.many(reg, MANNING.otherVesselsUnder)
                                     for reg in set(g.subjects(MANNING.otherVesselsUnder, None))},
                      standing_unknown={local(x): (r.many(x, MANNING.standingUnknownFor), r.opt(x, _CREW("provision")) or "")
                                        for x in set(g.subjects(MANNING.standingUnknownFor, None))},
                      restricted_waters={local(c): local(w) for c, w in g.subject_objects(MANNING.restrictedToWaters)})


def _cases(r: _Reader) -> dict[str, Case]:
    from rdflib import RDF

    M, g = MANNING, r.g
    cases: dict[str, Case] = {}
    for s in g.subjects(RDF.type, M.Case):
        conds: list[Condition] = []
        for i, c in enumerate(sorted(g.objects(s, M.hasCondition), key=lambda c: sorted(str(o) for o in g.objects(c)))):
            conds += _conditions(r, c, f"{local(s)}#{i}")
        cases[local(s)] = Case(id=local(s), provision=r.opt(s, _CREW("provision")), conditions=tuple(conds), label=r.labels(s),
                               introduced_by=r.opt(s, M.introducedBy), replaced_by=r.opt(s, M.replacedBy), notes=r.notes(s))
    return cases


def _conditions(r: _Reader, c, cid: str) -> list[Condition]:
    """One condition node of a case: a required value, and each bound it sets (at least, greater than, …)."""
    from rdflib import RDF, XSD, Literal

    M = MANNING
    attr = local(r.one(c, M.onAttribute))
    out = []
    if (c, RDF.type, M.ValueCondition) in r.g:
        v = r.one(c, M.requiredValue)
        value = ("true" if v.toPython() else "false") if isinstance(v, Literal) and v.datatype == XSD.boolean else (
            str(v) if isinstance(v, Literal) else local(v))
        out.append(Condition(id=cid, attribute=attr, op="is", value=value))
    for p, op in ((M.atLeast, "ge"), (M.greaterThan, "gt"), (M.atMost, "le"), (M.lessThan, "lt")):
        v = r.one(c, p)
        if v is not None:
            out.append(Condition(id=f"{cid}{op}", attribute=attr, op=op, value=float(v.toPython())))
    return out


def _tables(r: _Reader) -> dict[str, Table]:
    from rdflib import RDF

    M = MANNING
    out: dict[str, Table] = {}
    for cls, kind in ((M.NauticalTable, "nautical"), (M.SafetyFunctionTable, "functions")):
        for s in r.g.subjects(RDF.type, cls):
            out[local(s)] = Table(
                id=local(s), kind=kind, label=r.labels(s), provision=r.opt(s, _CREW("provision")) or "",
                regulation=r.opt(s, _CREW("inRegulation")) or "", cases=r.many(s, M.appliesWhen),
                missing=bool(r.value(s, M.notInSources)), reason=r.texts(s, M.reason), authority=r.many(s, M.authorityDecidesUnder),
                last_known=r.opt(s, M.lastKnown), notes=r.notes(s))
    return out


def _rows(r: _Reader) -> dict[str, Row]:
    from rdflib import RDF

    M = MANNING
    out: dict[str, Row] = {}
    for s in r.g.subjects(RDF.type, M.TableRow):
        st = r.value(s, M.stufe)
        out[local(s)] = Row(id=local(s), table=r.opt(s, M.inTable) or "", provision=r.opt(s, _CREW("provision")) or "",
                            quoted=r.text(s, M.quotedText), cases=r.many(s, M.appliesWhen), stufe=None if st is None else int(st),
                            counts=r.counts(s), notes=r.notes(s))
    return out


def _alternatives(r: _Reader) -> dict[str, Alternative]:
    from rdflib import RDF

    M = MANNING
    return {local(s): Alternative(id=local(s), row=r.opt(s, M.ofRow) or "", standard=r.opt(s, M.forStandard) or "",
                                  order=int(r.value(s, _CREW("statuteOrder")) or 1), counts=r.counts(s))
            for s in r.g.subjects(RDF.type, M.CrewAlternative)}


def _rules(r: _Reader) -> dict[str, Rule]:
    """The rules beside the tables, each read by the reader of its kind."""
    from rdflib import RDF

    M = MANNING
    kinds = {M.Reduction: "Reduction", M.Addition: "Addition", M.Substitution: "Substitution", M.FunctionRule: "FunctionRule",
             M.FunctionDelegation: "FunctionDelegation", M.CoverageGap: "CoverageGap",
             M.QualificationProof: "QualificationProof", M.TransitionalRule: "TransitionalRule",
             M.LighterEquivalence: "LighterEquivalence", M.RowPrecedence: "RowPrecedence"}
    rules: dict[str, Rule] = {}
    for cls, kind in kinds.items():
        for s in r.g.subjects(RDF.type, cls):
            rules[local(s)] = _RULE_READERS[kind](s, _RuleFields(r=r, M=M, s=s, kind=kind))
    return rules


def _amendments(r: _Reader) -> dict[str, Amendment]:
    from rdflib import RDF

    M = MANNING
    return {local(s): Amendment(id=local(s), label=r.labels(s), gazette=r.text(s, _CREW("gazette")),
                                in_force_from=r.day(s, _CREW("inForceFrom")), earliest=r.day(s, M.inForceFromEarliest),
                                latest=r.day(s, M.inForceFromLatest), notes=r.notes(s))
            for s in r.g.subjects(RDF.type, M.Amendment)}


def _readings(r: _Reader) -> dict[str, Reading]:
    from rdflib import RDF

    M = MANNING
    return {local(s): Reading(id=local(s), provision=r.opt(s, _CREW("provision")) or "", applied=r.texts(s, M.appliedReading),
                              other=r.texts(s, M.otherReading), tables=r.many(s, M.appliesToTable),
                              cases=r.many(s, M.appliesWhen), amendment=r.opt(s, M.reportedIn), notes=r.notes(s))
            for s in r.g.subjects(RDF.type, M.Reading) if r.many(s, M.appliesToTable)}  # eligibility ones: law.readings


def _attributes(r: _Reader) -> dict[str, Attribute]:
    """The vessel attributes a record names (the properties with a crew:recordKey), typed by their range."""
    from rdflib import RDF, RDFS, XSD
    from rdflib.namespace import OWL

    g = r.g
    attributes: dict[str, Attribute] = {}
    for s, key in g.subject_objects(MANNING.recordKey):
        is_property = any((s, RDF.type, t) in g for t in (OWL.DatatypeProperty, OWL.ObjectProperty))
        if not is_property:
            continue
        rng = r.one(s, RDFS.range)
        if rng in (XSD.decimal, XSD.double):
            typ = "number"
        elif rng == XSD.integer:
            typ = "integer"
        elif rng == XSD.boolean:
            typ = "boolean"
        elif rng == XSD.string:
            typ = "litera" if local(s) == "s1Unmet" else "string"
        else:
            typ = "term"
        attributes[local(s)] = Attribute(id=local(s), key=str(key), label=r.labels(s), type=typ,
                                         range=None if rng is None else local(rng))
    return attributes


def _values(r: _Reader) -> dict[str, Value]:
    from rdflib import RDF

    M = MANNING
    return {local(s): Value(id=local(s), key=str(r.one(s, M.recordKey)), cls=local(cls), label=r.labels(s),
                            requires=r.many(s, M.requiresAttribute))
            for cls in (M.VesselKind, M.Waters, M.EquipmentStandard) for s in r.g.subjects(RDF.type, cls)}


def _s1_literae(r: _Reader) -> tuple[str, ...]:
    """The literae of the S1 definition that a record may list as unmet (SchBesV 2004 § 11 Abs. 1 Z 1 lit. a–m)."""
    g, one = r.g, r.one
    s1_defs = set(g.objects(_CREW("S1"), _CREW("provision")))
    return tuple(sorted({str(one(p, _CREW("litera"))) for p in g.subjects(_CREW("partOf"), None)
                         if one(p, _CREW("partOf")) in s1_defs and one(p, _CREW("litera")) is not None}))


# ------------------------------------------------------------------------------------------------------------------
# The rules beside the tables, one reader per kind
# ------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class _RuleFields:
    """Reads one rule's properties from the kb graph: the shared fields and each kind's own."""

    r: _Reader
    M: Any
    s: Any
    kind: str

    def common(self) -> dict[str, Any]:
        r, M, s = self.r, self.M, self.s
        return {"id": local(s), "kind": self.kind, "provision": r.opt(s, _CREW("provision")) or "", "label": r.labels(s),
                "tables": r.many(s, M.appliesToTable), "cases": r.many(s, M.appliesWhen),
                "regulation": r.opt(s, _CREW("inRegulation")), "notes": r.notes(s),
                "introduced_by": r.opt(s, M.introducedBy), "replaced_by": r.opt(s, M.replacedBy)}

    def integer(self, p) -> int | None:
        v = self.r.value(self.s, p)
        return None if v is None else int(v)

    def real(self, p) -> float | None:
        v = self.r.value(self.s, p)
        return None if v is None else float(v)

    def cells(self) -> tuple[tuple[int, str], ...]:
        r, M = self.r, self.M
        return tuple(sorted((int(r.value(c, M.stufe)), r.opt(c, M.forStandard) or "") for c in r.g.objects(self.s, M.appliesToCell)))

    def opt(self, p) -> str | None:
        return self.r.opt(self.s, p)


def _adjustment(s, f: _RuleFields) -> Adjustment:
    M = f.M
    return Adjustment(**f.common(), role=f.opt(M.adjustsRole), cells=f.cells(), change=f.integer(M.changeBy) or 0,
                      temporary=bool(f.r.value(s, M.temporary)), base_standard=f.opt(M.baseStandard),
                      supersedes=f.opt(M.supersedes))


def _substitution(s, f: _RuleFields) -> Substitution:
    M = f.M
    return Substitution(**f.common(), role=f.opt(M.replacesRole), by=f.opt(M.byRole), cells=f.cells(),
                        max_per_alternative=f.integer(M.maxPerAlternative), min_age=f.integer(M.substituteMinimumAge),
                        min_apprenticeship_year=f.integer(M.substituteMinimumApprenticeshipYear),
                        min_fahrzeit_days=f.integer(M.substituteMinimumFahrzeitDays))


def _function_rule(s, f: _RuleFields) -> FunctionRule:
    M = f.M
    return FunctionRule(**f.common(), role=f.opt(M.requiresFunction), count=f.integer(M.count) or 0,
                        accepts_functions=f.r.many(s, M.acceptsFunction), accepts_at_least=f.opt(M.acceptsQualificationAtLeast),
                        accepts_issued_after=f.r.value(s, M.acceptsQualificationIssuedAfter),
                        required_of_role=f.opt(M.requiredOfRole), except_role=f.opt(M.exceptRequiredRole),
                        function_kind=_function_kind(local(s), f.opt(M.functionKind)))


def _delegation(s, f: _RuleFields) -> FunctionDelegation:
    M = f.M
    return FunctionDelegation(**f.common(), functions=f.r.many(s, M.delegatesFunction),
                              when_crew_size=f.integer(M.whenNauticalCrewSize), except_role=f.opt(M.exceptRequiredRole))


def _gap(s, f: _RuleFields) -> CoverageGap:
    M = f.M
    return CoverageGap(**f.common(), reason=f.r.texts(s, M.reason), authority=f.r.many(s, M.authorityDecidesUnder),
                       last_known=f.opt(M.lastKnown))


def _proof(s, f: _RuleFields) -> QualificationProof:
    return QualificationProof(**f.common(), certificate=f.opt(f.M.provesCertificate))


def _transitional(s, f: _RuleFields) -> TransitionalRule:
    M = f.M
    until = f.r.one(s, _CREW("inForceUntil"))
    return TransitionalRule(**f.common(), role=f.opt(M.relaxesFunction), until=None if until is None else until.toPython(),
                            missing=bool(f.r.value(s, M.notInSources)), reason=f.r.texts(s, M.reason))


def _equivalence(s, f: _RuleFields) -> LighterEquivalence:
    M = f.M
    return LighterEquivalence(**f.common(), max_length=f.real(M.maxGroupLength), max_breadth=f.real(M.maxGroupBreadth),
                              quoted=f.r.text(s, M.quotedText))


def _precedence(s, f: _RuleFields) -> RowPrecedence:
    M = f.M
    return RowPrecedence(**f.common(), preferred=f.opt(M.preferredRow), over=f.opt(M.overRow))


_RULE_READERS = {"Reduction": _adjustment, "Addition": _adjustment, "Substitution": _substitution,
                 "FunctionRule": _function_rule, "FunctionDelegation": _delegation, "CoverageGap": _gap, "QualificationProof": _proof,
                 "TransitionalRule": _transitional, "LighterEquivalence": _equivalence, "RowPrecedence": _precedence}


def _function_kind(rule_id: str, kind: str | None) -> str:
    """Every function rule names its kind in the kb; an unknown kind never falls back to the engine entry."""
    if kind not in FUNCTION_KINDS:
        raise ManningDataError(f"function rule kb:{rule_id}: crew:functionKind must be one of "
                               f"{', '.join('crew:' + k for k in FUNCTION_KINDS)} (got {'none' if kind is None else 'crew:' + kind})")
    return kind
