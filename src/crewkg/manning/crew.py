"""The minimum-crew answer (Mindestbesatzung): what the manning program derived, arranged as the answer contract of
docs/answers.md (regulation, provision, Stufe, alternatives, functions, `covered`), and the roster verdict."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from crewkg.law.statute import Law, notes_in
from crewkg.manning.program import Derived, derive, scenarios
from crewkg.manning.requirement import AlternativeNeed, FunctionNeed, Requirement
from crewkg.manning.tables import (
    ANSWER_FLAGS,
    FUNCTION_KEYS,
    Adjustment,
    Case,
    CoverageGap,
    FunctionRule,
    ManningLaw,
    Row,
    Rule,
    Substitution,
    Table,
)
from crewkg.messages.catalogue import say
from crewkg.messages.sections import section
from crewkg.messages.wording import number


def explain_case(ml: ManningLaw, vessel, case: Case, lang: str) -> list[str]:
    """The conditions of a case with the vessel's values, for people: 'zulässige Anzahl der Fahrgäste 300: mindestens 76'."""
    t = section("crew.", lang)
    out = []
    for k in case.conditions:
        attr = ml.attributes[k.attribute]
        name = attr.label.get(lang, attr.id)
        have = vessel.values.get(k.attribute)
        if attr.type == "term":
            have_s = ml.values[have].label.get(lang, have) if have in ml.values else str(have)
            want = ml.values[k.value].label.get(lang, k.value) if k.value in ml.values else str(k.value)
            out.append(f"{name}: {have_s} (= {want})")
        elif attr.type == "boolean":
            out.append(f"{name}: {t['yes'] if have else t['no']}")
        elif attr.type == "litera":
            out.append(f"{name}: {', '.join(have or [])} (∋ {k.value})")
        else:
            out.append(f"{name} {number(have, lang)}: {t['op.' + k.op]} {number(k.value, lang)}")
    return out


def _condition_json(ml: ManningLaw, vessel, case: Case) -> list[dict[str, Any]]:
    out = []
    for k in case.conditions:
        attr = ml.attributes[k.attribute]
        out.append({"attribute": attr.key, "op": k.op, "value": k.value, "have": vessel.values.get(k.attribute)})
    return out


def _cite(law: Law, pid: str | None) -> str | None:
    return None if not pid else law.citation(pid) if pid in law.provisions else pid


def _rule_json(law: Law, r: Rule, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.id, "kind": r.kind, "provision": _cite(law, r.provision), "text": r.label.get(lang, r.id)}
    if isinstance(r, Adjustment):
        out |= {"role": r.role, "change": r.change, "temporary": r.temporary}
    elif isinstance(r, Substitution):
        out |= {"replaces": r.role, "by": r.by}
        cond = {k: v for k, v in (("min_age", r.min_age), ("min_apprenticeship_year", r.min_apprenticeship_year),
                                  ("min_fahrzeit_days", r.min_fahrzeit_days), ("at_most", r.max_per_alternative)) if v is not None}
        if cond:
            out["conditions"] = cond
    elif isinstance(r, FunctionRule):
        out |= {"function": r.role, "count": r.count}
        if r.except_role:
            out["except"] = r.except_role
        if r.required_of_role:
            out["required_of"] = r.required_of_role
    return out


def requirement(law: Law, ml: ManningLaw, vessel, as_of: date, reductions=(), lang: str = "de") -> Requirement:
    """What the law in force on the date requires for the vessel: table row, alternatives and functions — or why it
    is not covered. `reductions`: the temporary reductions whose dated conditions hold on the date (a roster's
    school attendance, `manning.attendance`); none where empty or falsy."""
    return requirements(law, ml, [vessel], as_of, reductions, lang)[0]


def requirements(law: Law, ml: ManningLaw, vessels: list, as_of: date, reductions=(),
                 lang: str = "de", readings: bool = True) -> list[Requirement]:
    """The requirement for a batch of vessels on one date, from one Datalog run per amendment scenario. Amendments
    whose day the sources lack are evaluated both ways; where the results differ the answer is 'not covered'. Without
    `readings`, the other readings of doubtful provisions are not evaluated (a forecast checks the reading applied)."""
    temporary = frozenset(reductions or ())
    if len({v.id for v in vessels}) != len(vessels):
        from crewkg.errors import InputError

        raise InputError("", "id", "unique_vessel_ids", sorted(v.id for v in vessels))
    worlds = scenarios(ml, as_of)
    runs = [(derive(ml, law, vessels, as_of, temporary, amended), unsure) for amended, unsure in worlds]
    others = _other_readings(law, ml, vessels, as_of, temporary, worlds[0][0], runs[0][0]) if readings else {}
    return [_requirement(law, ml, v, as_of, [(run[v.id], unsure) for run, unsure in runs], temporary, lang, others.get(v.id, {}))
            for v in vessels]


def _other_readings(law: Law, ml: ManningLaw, vessels: list, as_of: date, temporary: frozenset[str], amended: frozenset[str],
                    first: dict[str, Derived]) -> dict[str, dict[str, Derived]]:
    """For each other reading of a doubtful provision (kb crew:Reading), one more run of the program for the vessels
    it reaches, with the reading's cases and rules in force instead of those it replaces: vessel -> reading -> result."""
    out: dict[str, dict[str, Derived]] = {}
    for rid in sorted(ml.readings):
        reported = ml.amendments.get(ml.readings[rid].amendment or "")
        first_day = reported.first_possible_day if reported is not None else None
        if first_day is not None and as_of < first_day:
            continue  # the amended wording cannot be in force yet: no other reading on this date
        reach = [v for v in vessels if rid in first[v.id].readings]
        if reach:
            run = derive(ml, law, reach, as_of, temporary, amended | {rid})
            for v in reach:
                out.setdefault(v.id, {})[rid] = run[v.id]
    return out


@dataclass(frozen=True, kw_only=True)
class _Ask:
    """One vessel's question and what the program derived for it: what every part of the answer is formatted from."""

    law: Law
    ml: ManningLaw
    vessel: Any
    as_of: date
    d: Derived
    temporary: frozenset[str]  # the temporary reductions whose dated conditions hold
    lang: str

    def cite(self, pid: str | None) -> str | None:
        return _cite(self.law, pid)

    def say(self, key: str, **fields: object) -> str:
        return say(self.lang, key, **fields)


def _requirement(law: Law, ml: ManningLaw, vessel, as_of: date, results: list[tuple[Derived, str | None]],
                 temporary: frozenset[str], lang: str, others: dict[str, Derived] | None = None) -> Requirement:
    """The answer for one vessel: the program's verdict (`covered`, or `uncovered` with one reason), formatted, and
    beside it each other reading of a doubtful provision that reaches the vessel.

    The one decision left in Python compares the runs of the amendment scenarios (and of the readings): each run is a
    separate database, so whether they agree is a question about two programs' answers, not one a rule inside either
    could ask."""
    ask = _Ask(law=law, ml=ml, vessel=vessel, as_of=as_of, d=results[0][0], temporary=temporary, lang=lang)
    if len({r.key() for r, _ in results}) > 1:
        return _amendment_unknown(ask, next(u for _, u in results if u))
    if "no_regulation" in ask.d.uncovered:
        return _no_regulation(ask)
    reg = law.regulations[sorted(ask.d.in_force)[0]]
    req = Requirement(vessel, as_of, reg, False)
    base: dict[str, Any] = {"vessel": vessel.id, "as_of": as_of.isoformat(), "regulation": reg.name}
    if ask.d.covered:
        req = _covered(ask, req, base)
    else:
        ((reason, names),) = ask.d.uncovered.items()
        req.answer = base | {"alternatives": [], "functions": None, "covered": False} | _UNCOVERED[reason](ask, req, sorted(names))
        # what holds whatever the missing part says, for the roster check: the function rules and the one row of the
        # passenger-safety table (its counts depend on the passengers, not on the missing table or equipment)
        req.rules = _function_rules(ask)
        if ask.d.function_tables and len(ask.d.function_rows) == 1:
            req.functions = _functions(ask, ask.ml.rows[next(iter(ask.d.function_rows))])[2]
            req.function_substitutions = _function_substitutions(ask)
            # a transitional rule that relaxes a function of that row holds as well (§ 47 Abs. 13 SchBV)
            req.transitional = [ask.ml.rules[x] for x in sorted(ask.d.transitional)]
            if req.transitional:
                req.answer["transitional"] = _transitional(ask, req)
    if others:
        _readings(ask, req, others)
    req.derived = ask.d
    return req


def _readings(ask: _Ask, req: Requirement, others: dict[str, Derived]) -> None:
    """The answer's `readings`: for each doubtful provision that reaches the vessel, the reading applied, the other
    reading, whether the other one requires something else, and what it requires."""
    entries = []
    for rid, d_other in sorted(others.items()):
        rd = ask.ml.readings[rid]
        other = _requirement(ask.law, ask.ml, ask.vessel, ask.as_of, [(d_other, None)], ask.temporary, ask.lang)
        req.readings.append((rd, other))
        a = other.answer
        under = {k: a[k] for k in ("covered", "provision", "stufe", "row", "alternatives", "functions", "function_row", "reason")
                 if k in a}
        entries.append({"id": rd.id, "provision": ask.cite(rd.provision), "applied": _text(rd.applied, ask.lang),
                        "other": _text(rd.other, ask.lang), "differs": d_other.key() != ask.d.key(),
                        "under_other_reading": under, "notes": list(notes_in(rd.notes, ask.lang))})
    req.answer["readings"] = entries


def _amendment_unknown(ask: _Ask, amendment: str) -> Requirement:
    reg = ask.law.regulations.get(next(iter(ask.d.in_force), ""))
    return Requirement(ask.vessel, ask.as_of, reg, False, answer={
        "vessel": ask.vessel.id, "as_of": ask.as_of.isoformat(),
        "regulation": reg.name if reg else None, "covered": False, "alternatives": [], "functions": None,
        "reason": ask.say("crew.reason.amendment_unknown", date=ask.as_of.isoformat(),
                          gazette=ask.ml.amendments[amendment].gazette),
        "provisions": []})


def _no_regulation(ask: _Ask) -> Requirement:
    first = ask.law.first_regulation()
    return Requirement(ask.vessel, ask.as_of, None, False, answer={
        "vessel": ask.vessel.id, "as_of": ask.as_of.isoformat(),
        "regulation": None, "covered": False, "alternatives": [], "functions": None,
        "reason": ask.say("crew.reason.no_regulation", date=ask.as_of.isoformat(), first=first.name,
                          since=first.in_force_from.isoformat()),
        "provisions": []})


# --- why a vessel is not covered: one function per reason the program derives, each the answer's fields ---------
def _function_rules(ask: _Ask) -> list[FunctionRule]:
    """The function rules (engine, first aid, LNG) of the tables that govern the vessel: they hold even where the table
    or the crew under a gap is missing from the sources (§ 41 Abs. 5–7 SchBV ask nothing of the table)."""
    return sorted((r for r in (ask.ml.rules[x] for x in ask.d.rules) if isinstance(r, FunctionRule)), key=lambda r: r.id)


def _function_substitutions(ask: _Ask) -> list[Substitution]:
    """The substitutions of the passenger-safety tables that govern the vessel (who may hold a function instead)."""
    ml = ask.ml
    return [ml.rules[s] for s in sorted(ask.d.substitution_tables) if ml.rules[s].tables
            and all(ml.tables[t].kind == "functions" for t in ml.rules[s].tables)]


def _gap(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    gap = ask.ml.rules[names[0]]
    assert isinstance(gap, CoverageGap)  # the program derives 'gap' only for a coverage gap
    out: dict[str, Any] = {"provision": ask.cite(gap.provision), "reason": _text(gap.reason, ask.lang),
                           "provisions": [ask.cite(p) for p in gap.authority]}
    known = _function_rules(ask)
    if known:
        out["known_rules"] = [_rule_json(ask.law, r, ask.lang) for r in known]
    if gap.last_known:
        out["last_known"] = _last_known(ask, gap.last_known)
    return out


def _no_table(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    reg = req.regulation
    # a vessel no table governs: the regulation's provision for the other vessels, and those of its tables
    authority = sorted({p for t in ask.ml.tables.values() if t.regulation == reg.id for p in t.authority}
                       | set(ask.ml.other_vessels.get(reg.id, ())))
    kind = ask.ml.values.get(ask.vessel.values.get("vesselKind", ""))
    what = kind.label.get(ask.lang, kind.id) if kind else ask.say("crew.vessel")
    return {"reason": ask.say("crew.reason.no_table", regulation=reg.name, kind=what),
            "provisions": [ask.cite(p) for p in authority]}


def _several_tables(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    tables = [ask.ml.tables[t] for t in names]
    return {"reason": ask.say("crew.reason.several_tables", tables=", ".join(ask.cite(t.provision) or t.id for t in tables)),
            "provisions": sorted({ask.cite(p) for t in tables for p in t.authority})}


def _missing_table(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    table = req.table = ask.ml.tables[names[0]]
    d, ml = ask.d, ask.ml
    out: dict[str, Any] = {
        "provision": ask.cite(table.provision), "table": table.id,
        "reason": _text(table.reason, ask.lang) or ask.say("crew.reason.missing_table", table=table.label.get(ask.lang, table.id)),
        "provisions": [ask.cite(p) for p in table.authority]}
    known = [ml.rules[r] for r in sorted(d.rules)] + [ml.rules[s] for s in sorted(d.substitution_tables)]
    known += [ml.rules[m] for m in sorted(d.effective)]
    out["known_rules"] = [_rule_json(ask.law, r, ask.lang) for r in known]
    if table.last_known:
        out["last_known"] = _last_known(ask, table.last_known)
    return out


def _no_row(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    table = req.table = ask.ml.tables[names[0]]
    # a vessel its table has no row for is one the tables do not cover: also the provision for the other vessels
    other = ask.ml.other_vessels.get(table.regulation, ())
    provisions = [ask.cite(p) for p in sorted({*table.authority, *other})]
    out = _table_fields(ask, table) | {"notes": list(notes_in(table.notes, ask.lang)), "provisions": provisions,
                                       "reason": ask.say("crew.reason.no_row", provision=ask.cite(table.provision))}
    known = _function_rules(ask)  # the engine and first-aid rules ask nothing of the row (§ 13 Abs. 4, 5 SchBesV)
    if known:
        out["known_rules"] = [_rule_json(ask.law, r, ask.lang) for r in known]
    if ask.d.function_rows:  # the passenger-safety row holds without a nautical row (§ 43 Abs. 3 Z 2 SchBV)
        frow = ask.ml.rows[sorted(ask.d.function_rows)[0]]
        functions, provisions, _ = _functions(ask, frow)
        out |= {"functions": functions, "function_provisions": provisions, "function_row": frow.quoted}
    return out


def _several_rows(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    rows = sorted((ask.ml.rows[r] for r in names), key=lambda r: (r.stufe or 0, r.id))
    table = req.table = ask.ml.tables[rows[0].table]
    reason = ask.say("crew.reason.several_rows", n=len(rows), provision=ask.cite(table.provision),
                     stufen=", ".join(str(r.stufe) for r in rows))
    return _table_fields(ask, table) | {"reason": reason, "rows": [{"stufe": r.stufe, "row": r.quoted} for r in rows],
                                        "notes": list(notes_in(table.notes, ask.lang))}


def _no_column(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    row = req.row = ask.ml.rows[names[0]]
    table = req.table = ask.ml.tables[row.table]
    return _table_fields(ask, table, row) | {
        "reason": ask.say("crew.reason.no_column", stufe=row.stufe, provision=ask.cite(table.provision))}


def _function_rows(ask: _Ask, req: Requirement, names: list[str]) -> dict[str, Any]:
    req.table, req.row = ask.ml.tables[ask.d.table or ""], ask.ml.rows[ask.d.row or ""]
    req.function_table = ask.ml.tables[names[0]]
    frows = sorted((ask.ml.rows[r] for r in ask.d.function_rows), key=lambda r: r.id)
    quoted = ask.say("crew.reason.function_rows.quoted", rows="; ".join(r.quoted for r in frows)) if frows else ""
    return _table_fields(ask, req.table, req.row) | {
        "reason": ask.say("crew.reason.function_rows", n=len(frows), provision=ask.cite(req.function_table.provision),
                          rows=quoted)}


def _table_fields(ask: _Ask, table: Table, row: Row | None = None) -> dict[str, Any]:
    """The table (and Stufe) an uncovered answer names, with the provisions under which the authority decides."""
    out: dict[str, Any] = {"provision": ask.cite(table.provision), "table": table.id}
    if row is not None:
        out["stufe"] = row.stufe
    return out | {"provisions": [ask.cite(p) for p in table.authority]}


_UNCOVERED = {"gap": _gap, "no_table": _no_table, "several_tables": _several_tables, "missing_table": _missing_table,
              "no_row": _no_row, "several_rows": _several_rows, "no_column": _no_column, "function_rows": _function_rows}


def _last_known(ask: _Ask, target: str) -> dict[str, Any] | None:
    """The answer of the preceding regulation on its last day, as information only (never the answer)."""
    law, ml = ask.law, ask.ml
    owner = ml.tables[target].regulation if target in ml.tables else ml.rules[target].regulation or _rule_regulation(ml, target)
    reg = law.regulations.get(owner or "")
    if reg is None or reg.in_force_until is None:
        return None
    old = requirement(law, ml, ask.vessel, reg.in_force_until, (), ask.lang).answer  # no school attendance then
    old = {k: v for k, v in old.items() if k not in ("vessel", "last_known")}
    return {"information_only": True,
            "note": ask.say("crew.last_known", regulation=reg.name, until=reg.in_force_until.isoformat()),
            "valid_until": reg.in_force_until.isoformat(), **old}


def _rule_regulation(ml: ManningLaw, rule_id: str) -> str | None:
    r = ml.rules[rule_id]
    for t in r.tables:
        return ml.tables[t].regulation
    return None


def _text(texts: dict[str, str], lang: str) -> str:
    """A kb text in the answer's language (the kb gives each in German and English)."""
    return texts.get(lang) or next(iter(texts.values()), "")


# --- a covered vessel: the row, its alternatives, the functions, and the answer -----------------------------------
def _covered(ask: _Ask, req: Requirement, base: dict[str, Any]) -> Requirement:
    ml, d = ask.ml, ask.d
    table = req.table = ml.tables[d.table or ""]
    row = req.row = ml.rows[d.row or ""]
    req.covered = True
    req.alternatives = _alternatives(ask, row)
    if d.function_tables:
        req.function_table = ml.tables[sorted(d.function_tables)[0]]
    frow = ml.rows[sorted(d.function_rows)[0]] if req.function_table is not None else None
    req.rules = sorted((ml.rules[r] for r in d.rules), key=lambda r: r.id)
    functions, provisions, req.functions = _functions(ask, frow)
    req.delegations = [ml.rules[g] for g in sorted(d.delegations)]
    req.proofs = [ml.rules[q] for q in sorted(d.proofs)]
    req.function_substitutions = _function_substitutions(ask)
    req.transitional = [ml.rules[x] for x in sorted(d.transitional)]
    req.answer = base | _row_fields(ask, table, row) | _changes(ask, req) | {
        "functions": functions,
        "function_provisions": provisions,
        "transitional": _transitional(ask, req),
        "notes": _notes(ask, req, row, frow),
    }
    if frow is not None:
        req.answer["function_row"] = frow.quoted
    if req.proofs:  # qualifications these waters let a person prove by a pathway's requirements (§ 6 Abs. 6 SchBesV)
        req.answer["qualification_proofs"] = [{"certificate": q.certificate, "provision": ask.cite(q.provision),
                                               "text": q.label.get(ask.lang, q.id)} for q in req.proofs]
    return req


def _transitional(ask: _Ask, req: Requirement) -> list[dict[str, Any]]:
    return [{"provision": ask.cite(x.provision), "until": x.until.isoformat() if x.until else None,
             "relaxes": x.role, "covered": not x.missing, "reason": _text(x.reason, ask.lang)}
            for x in req.transitional]


def _alternatives(ask: _Ask, row: Row) -> list[AlternativeNeed]:
    """The alternatives of the covering row in the vessel's column, after the adjustments and with the substitutions
    that reach each."""
    ml, d, law = ask.ml, ask.d, ask.law
    alts = sorted((ml.alternatives[a] for a in d.alternatives if ml.alternatives[a].row == row.id), key=lambda a: a.order)
    out = []
    for i, a in enumerate(alts):
        counts = {role: n for role, n in sorted(d.required.get(a.id, {}).items(), key=lambda rn: _role_order(law, rn[0])) if n > 0}
        # a substitution takes a place the table prescribes (solver._slots): one whose place this alternative has
        # none of (Stufe 2 of § 13 SchBesV names no Decksmann) would only be a line the reader cannot apply
        table = dict(a.counts)
        subs = [ml.rules[s] for s, alt in sorted(d.substitutions) if alt == a.id
                and (ml.rules[s].role is None or min(counts.get(ml.rules[s].role, 0), table.get(ml.rules[s].role, 0)) > 0)]
        adjs = [ml.rules[m] for m, alt in sorted(d.adjusted) if alt == a.id and (m, alt) not in d.idle]
        out.append(AlternativeNeed(a.id, i, counts, table, subs, adjs))
    return out


def _functions(ask: _Ask, frow: Row | None) -> tuple[dict[str, Any], dict[str, str | None], list[FunctionNeed]]:
    """The answer's `functions` object and the provision of each entry: the passenger-safety row's counts, then what
    the program merged from the function rules (flags, largest counts, the engine), in the order of the rules."""
    d = ask.d
    functions: dict[str, Any] = {k: 0 for k in FUNCTION_KEYS}
    provisions: dict[str, str | None] = {}
    needs: list[FunctionNeed] = []
    for fn, n in frow.counts if frow is not None else ():
        functions[fn] = n
        provisions[fn] = ask.cite(frow.provision)
        if n > 0:
            needs.append(FunctionNeed(fn, n, ask.cite(frow.provision) or "", frow.table))
    functions["FirstAid"] = 0
    for flag in ANSWER_FLAGS:
        functions[flag] = False
    engine = None
    merged = [(rule, fn, "required") for fn, rule in d.function_required] + [(rule, fn, "counted") for fn, rule in d.function_counted]
    for rule, name, how in sorted(merged + [(rule, role, "engine") for role, rule in d.engines]):
        if how == "engine":
            engine, name = name, "engine"
        else:
            functions[name] = True if how == "required" else d.function_counts[name]
        provisions[name] = ask.cite(ask.ml.rules[rule].provision)
    functions["engine"] = engine
    return functions, provisions, needs


def _row_fields(ask: _Ask, table: Table, row: Row) -> dict[str, Any]:
    """The covering row: its provision, Stufe and quoted text, why it covers the vessel, and the column."""
    case_ids = [c for c in row.cases if c in ask.d.cases]
    return {
        "covered": True,
        "provision": ask.cite(table.provision),
        "table": table.id,
        "stufe": row.stufe,
        "row": row.quoted,
        "why": [line for c in case_ids for line in explain_case(ask.ml, ask.vessel, ask.ml.cases[c], ask.lang)],
        "conditions": [c for cid in case_ids for c in _condition_json(ask.ml, ask.vessel, ask.ml.cases[cid])],
        "standard": ask.d.columns.get(table.id),
    }


def _changes(ask: _Ask, req: Requirement) -> dict[str, Any]:
    """The alternatives as the table gives them and after the reductions, additions and substitutions that reach them."""
    law, ml, d, lang, alts = ask.law, ask.ml, ask.d, ask.lang, req.alternatives
    return {
        "alternatives": [a.counts for a in alts],
        "table_alternatives": [{k: v for k, v in sorted(a.table_counts.items(), key=lambda rn: _role_order(law, rn[0]))}
                               for a in alts],
        "adjustments": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in alts if (m, a.id) in d.adjusted],
            "no_effect_on": [a.index for a in alts if (m, a.id) in d.idle]} for m in sorted({m for m, _ in d.adjusted})],
        "temporary_reductions_available": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in alts if (m, a.id) in d.offered]} for m in sorted({m for m, _ in d.offered})],
        "substitutions": [_rule_json(law, s, lang) | {"alternatives": [a.index for a in alts if s in a.substitutions]}
                          for s in _unique(s for a in alts for s in a.substitutions)]
                         + [_rule_json(law, s, lang) for s in req.function_substitutions],
    }


def _notes(ask: _Ask, req: Requirement, row: Row, frow: Row | None) -> list[str]:
    """The readings and notes of the cases that hold (of the row and of the passenger-safety row: a row chosen by a
    reading says so), the table, the row, the passenger-safety table and the rules, once each, in the answer's
    language."""
    cases = list(row.cases) + (list(frow.cases) if frow is not None else [])
    sources = [ask.ml.cases[c].notes for c in cases if c in ask.d.cases]
    sources += [req.table.notes if req.table else {}, row.notes]
    if req.function_table is not None:
        sources.append(req.function_table.notes)
    sources += [r.notes for r in req.rules]
    tables = {t.id for t in (req.table, req.function_table) if t is not None}
    sources += [ask.ml.cases[c].notes for c in _amended_cases(ask, tables)]
    return _unique(n for notes in sources for n in notes_in(notes, ask.lang))


def _amended_cases(ask: _Ask, tables: set[str]) -> list[str]:
    """The cases of the tables' rows worded by an amendment in force on the date: their wording may come from outside
    the bundled texts, and it decides which row applies (a row it narrows may not apply), so the answer says so even
    where such a case did not hold."""
    out = []
    for row in sorted((r for r in ask.ml.rows.values() if r.table in tables), key=lambda r: r.id):
        for c in row.cases:
            m = ask.ml.amendments.get(ask.ml.cases[c].introduced_by or "") if c in ask.ml.cases else None
            if m is not None and m.in_force_from is not None and m.in_force_from <= ask.as_of:
                out.append(c)
    return out


def _unique(items) -> list:
    seen: list = []
    for i in items:
        if i not in seen:
            seen.append(i)
    return seen


def _role_order(law: Law, role: str) -> tuple[int, str]:
    """Roles from the top (Schiffsführer) down, as the tables list them."""
    t = law.terms.get(role)
    return (-(t.order if t else 0), role)


def crew_answer(law: Law, ml: ManningLaw, vessel, as_of: date, persons=None, attendance=None,
                lang: str = "de") -> dict[str, Any]:
    """The minimum-crew answer, with the roster verdict when persons are given. The roster's school attendance (its
    `attendance`, or the periods given) decides on the date who is at school and not on board, and which temporary
    reduction holds: each with every condition and the one that fails (`school_attendance`, manning.attendance)."""
    from crewkg.manning import attendance as school

    periods = tuple(attendance or getattr(persons, "attendance", ()) or ())
    away = school.at_school(periods, as_of)
    dated = school.dated_reductions(ml, periods, as_of, roles_at_school(law, ml, persons, away, as_of)) if periods else {}
    req = requirement(law, ml, vessel, as_of, frozenset(r for r, cs in dated.items() if all(c["met"] for c in cs)), lang)
    answer = dict(req.answer)
    if periods:
        answer["school_attendance"] = school.attendance_answer(law, ml, req, dated, periods, as_of, lang)
    if persons is not None:
        from crewkg.manning.rosters import check_roster

        on_board = [p for p in persons if p.id not in away]
        answer["roster"] = check_roster(law, ml, req, on_board, lang) | ({"at_school": away} if away else {})
        for entry, (_, other) in zip(answer.get("readings", []), req.readings, strict=True):
            entry["roster"] = _roster_under(answer["roster"], check_roster(law, ml, other, on_board, lang))
    return answer


def roles_at_school(law: Law, ml: ManningLaw, persons, away: list[str], as_of: date) -> dict[str, set[str]]:
    """The roles the members at school hold on the date (their certificates' and the roles their records prove)."""
    if not persons or not away:
        return {}
    from crewkg.manning.people import people_of

    people = people_of(law, [p for p in persons if p.id in away], as_of, ml.proven_functions)
    return {pid: set(people.top[pid]) | set(people.proven.get(pid, {})) for pid in away if pid in people.top}


def _roster_under(applied: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """The roster verdict under the other reading, and what it changes: the positions and functions it would fill
    that the reading applied leaves open (with who fills them), those it would no longer require, and those it would
    leave open."""
    from collections import Counter

    def open_slots(r: dict[str, Any]) -> Counter:
        return Counter((m["kind"], m["role"]) for m in r.get("missing", []))

    gained, lost = open_slots(applied) - open_slots(other), open_slots(other) - open_slots(applied)
    fills, not_required = [], []
    for (kind, role), n in sorted(gained.items()):
        holders = sorted({d["person"] for d in other.get("details", []) if d["kind"] == kind and d["role"] == role})
        (fills if holders else not_required).extend([{"kind": kind, "role": role, "persons": holders}] * n)
    opens = []
    for m in other.get("missing", []):
        if lost[(m["kind"], m["role"])] > 0:
            lost[(m["kind"], m["role"])] -= 1
            opens.append(m)
    return {"satisfied": other["satisfied"], "verdict_differs": other["satisfied"] != applied["satisfied"],
            "assignment": other.get("assignment", {}), "fills": fills, "not_required": not_required, "leaves_open": opens}
