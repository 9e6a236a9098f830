"""The minimum-crew answer (Mindestbesatzung): what the manning program derived, arranged as the answer contract of
the README (regulation, provision, Stufe, alternatives, functions, `covered`), and the roster verdict."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.law.manning import ANSWER_FLAGS, FUNCTION_KEYS, Case, ManningLaw, Rule, Table
from crewkg.law.statute import Law
from crewkg.rules.manning import AlternativeNeed, Derived, FunctionNeed, Requirement, _scenarios, derive

# ------------------------------------------------------------------------------------------------------------------
# The requirement and the answer
# ------------------------------------------------------------------------------------------------------------------






T = {
    "de": {"ge": "mindestens", "gt": "mehr als", "le": "höchstens", "lt": "weniger als", "is": "=",
           "true": "ja", "false": "nein"},
    "en": {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than", "is": "=",
           "true": "yes", "false": "no"},
}


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:g}"
    return str(x)


def explain_case(ml: ManningLaw, vessel, case: Case, lang: str) -> list[str]:
    """The conditions of a case with the vessel's values, for people: 'zulässige Anzahl der Fahrgäste 300: mindestens 76'."""
    t = T[lang]
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
            out.append(f"{name}: {t['true'] if have else t['false']}")
        elif attr.type == "litera":
            out.append(f"{name}: {', '.join(have or [])} (∋ {k.value})")
        else:
            out.append(f"{name} {_fmt(have)}: {t[k.op]} {_fmt(k.value)}")
    return out


def _condition_json(ml: ManningLaw, vessel, case: Case) -> list[dict[str, Any]]:
    out = []
    for k in case.conditions:
        attr = ml.attributes[k.attribute]
        out.append({"attribute": attr.key, "op": k.op, "value": k.value, "have": vessel.values.get(k.attribute)})
    return out


def _cite(law: Law, pid: str | None) -> str | None:
    return None if not pid else law.citation(pid) if pid in law.provisions else pid


def _role_label(law: Law, role: str, lang: str) -> str:
    return law.label(role, lang)


def _rule_json(law: Law, r: Rule, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.id, "kind": r.kind, "provision": _cite(law, r.provision), "text": r.label.get(lang, r.id)}
    if r.kind in ("Reduction", "Addition"):
        out |= {"role": r.role, "change": r.change, "temporary": r.temporary}
    elif r.kind == "Substitution":
        out |= {"replaces": r.role, "by": r.by}
        cond = {k: v for k, v in (("min_age", r.min_age), ("min_apprenticeship_year", r.min_apprenticeship_year),
                                  ("min_fahrzeit_days", r.min_fahrzeit_days), ("at_most", r.max_per_alternative)) if v is not None}
        if cond:
            out["conditions"] = cond
    elif r.kind == "FunctionRule":
        out |= {"function": r.role, "count": r.count}
        if r.except_role:
            out["except"] = r.except_role
        if r.required_of_role:
            out["required_of"] = r.required_of_role
    return out


def _missing_table_answer(law: Law, ml: ManningLaw, base: dict[str, Any], table: Table, vessel, as_of: date, d: Derived,
                          temporary: bool, lang: str) -> dict[str, Any]:
    ans = base | {"covered": False, "provision": _cite(law, table.provision), "table": table.id,
                  "reason": table.reason or f"the table {table.label.get(lang, table.id)} is not in the sources",
                  "provisions": [_cite(law, p) for p in table.authority]}
    known = [ml.rules[r] for r in sorted(d.rules)] + [ml.rules[s] for s in sorted(d.substitution_tables)]
    known += [ml.rules[m] for m in sorted(d.effective)]
    ans["known_rules"] = [_rule_json(law, r, lang) for r in known]
    if table.last_known:
        ans["last_known"] = _last_known(law, ml, vessel, table.last_known, temporary, lang)
    return ans


def _last_known(law: Law, ml: ManningLaw, vessel, target: str, temporary: bool, lang: str) -> dict[str, Any] | None:
    """The answer of the preceding regulation on its last day, as information only (never the answer)."""
    owner = ml.tables[target].regulation if target in ml.tables else ml.rules[target].regulation or _rule_regulation(law, ml, target)
    reg = law.regulations.get(owner or "")
    if reg is None or reg.in_force_until is None:
        return None
    old = requirement(law, ml, vessel, reg.in_force_until, temporary, lang).answer
    old = {k: v for k, v in old.items() if k not in ("vessel", "last_known")}
    return {"information_only": True,
            "note": (f"the {reg.name} was in force until {reg.in_force_until.isoformat()}; its answer for this "
                     "vessel on that day is shown as information only because the current provision is not in the sources — "
                     "it is not the answer"),
            "valid_until": reg.in_force_until.isoformat(), **old}


def _rule_regulation(law: Law, ml: ManningLaw, rule_id: str) -> str | None:
    r = ml.rules[rule_id]
    for t in r.tables:
        return ml.tables[t].regulation
    return None


def requirement(law: Law, ml: ManningLaw, vessel, as_of: date, temporary: bool = False, lang: str = "de") -> Requirement:
    """What the law in force on the date requires for the vessel: table row, alternatives and functions — or why it
    is not covered."""
    return requirements(law, ml, [vessel], as_of, temporary, lang)[0]


def requirements(law: Law, ml: ManningLaw, vessels: list, as_of: date, temporary: bool = False,
                 lang: str = "de") -> list[Requirement]:
    """The requirement for a batch of vessels on one date, from one Datalog run per amendment scenario. Amendments
    whose day the sources lack are evaluated both ways; where the results differ the answer is 'not covered'."""
    if len({v.id for v in vessels}) != len(vessels):
        from crewkg.errors import InputError

        raise InputError("", "id", "vessel ids that are unique within one evaluation", sorted(v.id for v in vessels))
    runs = [(derive(ml, law, vessels, as_of, temporary, amended), unsure) for amended, unsure in _scenarios(ml, as_of)]
    return [_requirement(law, ml, v, as_of, [(run[v.id], unsure) for run, unsure in runs], temporary, lang) for v in vessels]


def _requirement(law: Law, ml: ManningLaw, vessel, as_of: date, results: list[tuple[Derived, str | None]],
                 temporary: bool, lang: str) -> Requirement:
    d = results[0][0]
    base: dict[str, Any] = {"vessel": vessel.id, "as_of": as_of.isoformat()}
    if len({r.key() for r, _ in results}) > 1:
        am = ml.amendments[next(u for _, u in results if u)]
        reg = law.regulations.get(next(iter(d.in_force), ""))
        return Requirement(vessel, as_of, reg, False, answer=base | {
            "regulation": reg.name if reg else None, "covered": False, "alternatives": [], "functions": None,
            "reason": (f"on {as_of.isoformat()} it is not known from the sources whether {am.gazette} was already in force "
                       f"(the reference names only a period); the answer differs between its wording and the one before"),
            "provisions": []})
    if not d.in_force:
        first = min(law.regulations.values(), key=lambda r: r.in_force_from)
        return Requirement(vessel, as_of, None, False, answer=base | {
            "regulation": None, "covered": False, "alternatives": [], "functions": None,
            "reason": (f"no encoded regulation on minimum crew is in force on {as_of.isoformat()}; the encoded law starts "
                       f"with the {first.name} on {first.in_force_from.isoformat()}"),
            "provisions": []})
    reg = law.regulations[sorted(d.in_force)[0]]
    base["regulation"] = reg.name
    req = Requirement(vessel, as_of, reg, False)
    nautical = sorted(t for t in d.tables if ml.tables[t].kind == "nautical")
    empty = {"alternatives": [], "functions": None}

    def uncovered(**kw) -> Requirement:
        req.answer = base | empty | {"covered": False} | kw
        return req

    if d.gaps:
        gap = ml.rules[sorted(d.gaps)[0]]
        extra: dict[str, Any] = {}
        if gap.last_known:
            extra["last_known"] = _last_known(law, ml, vessel, gap.last_known, temporary, lang)
        return uncovered(provision=_cite(law, gap.provision), reason=gap.reason,
                         provisions=[_cite(law, p) for p in gap.authority], **extra)
    if not nautical:
        authority = sorted({p for t in ml.tables.values() if t.regulation == reg.id for p in t.authority})
        kind = ml.values.get(vessel.values.get("vesselKind", ""))
        what = kind.label.get(lang, kind.id) if kind else "vessel"
        return uncovered(reason=f"no table of the {reg.name} covers this vessel ({what})",
                         provisions=[_cite(law, p) for p in authority])
    if len(nautical) > 1:
        return uncovered(reason="more than one table covers the vessel: " + ", ".join(_cite(law, ml.tables[t].provision) or t for t in nautical),
                         provisions=sorted({_cite(law, p) for t in nautical for p in ml.tables[t].authority}))
    table = ml.tables[nautical[0]]
    req.table = table
    if table.missing:
        req.answer = _missing_table_answer(law, ml, base | empty, table, vessel, as_of, d, temporary, lang)
        return req
    rows = sorted((ml.rows[r] for r in d.rows if ml.rows[r].table == table.id), key=lambda r: (r.stufe or 0, r.id))
    authority = [_cite(law, p) for p in table.authority]
    if not rows:
        return uncovered(provision=_cite(law, table.provision), table=table.id, provisions=authority, notes=list(table.notes),
                         reason=f"no Stufe of the table of {_cite(law, table.provision)} covers the vessel")
    if len(rows) > 1:
        return uncovered(provision=_cite(law, table.provision), table=table.id, provisions=authority,
                         reason=f"{len(rows)} rows of the table of {_cite(law, table.provision)} cover the vessel "
                                f"(Stufen {', '.join(str(r.stufe) for r in rows)}); the text does not say which applies",
                         rows=[{"stufe": r.stufe, "row": r.quoted} for r in rows], notes=list(table.notes))
    row = rows[0]
    req.row = row
    column = d.columns.get(table.id)
    alts = sorted((ml.alternatives[a] for a in d.alternatives if ml.alternatives[a].row == row.id), key=lambda a: a.order)
    if not alts:
        return uncovered(provision=_cite(law, table.provision), table=table.id, stufe=row.stufe, provisions=authority,
                         reason=f"Stufe {row.stufe} of {_cite(law, table.provision)} has no column for the vessel's equipment standard")
    req.covered = True
    for i, a in enumerate(alts):
        counts = {role: n for role, n in sorted(d.required.get(a.id, {}).items(), key=lambda rn: _role_order(law, rn[0])) if n > 0}
        subs = [ml.rules[s] for s, alt in sorted(d.substitutions) if alt == a.id]
        adjs = [ml.rules[m] for m, alt in sorted(d.adjusted) if alt == a.id and (m, alt) not in d.idle]
        req.alternatives.append(AlternativeNeed(a.id, i, counts, dict(a.counts), subs, adjs))

    # functions: the passenger-safety row and the function rules
    ftables = sorted(t for t in d.tables if ml.tables[t].kind == "functions")
    frows = sorted((ml.rows[r] for r in d.function_rows), key=lambda r: r.id)
    notes: list[str] = list(table.notes) + list(row.notes)
    functions: dict[str, Any] = {k: 0 for k in FUNCTION_KEYS}
    provisions: dict[str, str] = {}
    if ftables:
        req.function_table = ml.tables[ftables[0]]
        notes += list(req.function_table.notes)
        if len(frows) != 1:
            return uncovered(provision=_cite(law, table.provision), table=table.id, stufe=row.stufe, provisions=authority,
                             reason=(f"{len(frows)} rows of the table of {_cite(law, req.function_table.provision)} cover the vessel"
                                     + (f" ({'; '.join(r.quoted for r in frows)})" if frows else "")
                                     + "; the passenger-safety functions cannot be determined"))
        frow = frows[0]
        for fn, n in frow.counts:
            functions[fn] = n
            provisions[fn] = _cite(law, frow.provision)
            if n > 0:
                req.functions.append(FunctionNeed(fn, n, _cite(law, frow.provision) or "", frow.table))
    rules = sorted((ml.rules[r] for r in d.rules), key=lambda r: r.id)
    req.rules = rules
    engine = None
    functions["FirstAid"] = 0
    for flag in ANSWER_FLAGS:
        functions[flag] = False
    for r in rules:
        if r.function_kind == "RequiredFunction":
            functions[r.role] = True
            provisions[r.role] = _cite(law, r.provision)
        elif r.function_kind == "CountedFunction":
            functions[r.role] = max(functions.get(r.role, 0), r.count)
            provisions[r.role] = _cite(law, r.provision)
        elif r.function_kind == "EngineQualification":
            engine = r.role
            provisions["engine"] = _cite(law, r.provision)
        notes += list(r.notes)
    functions["engine"] = engine
    req.delegations = [ml.rules[g] for g in sorted(d.delegations)]
    req.function_substitutions = [ml.rules[s] for s in sorted(d.substitution_tables) if ml.rules[s].tables
                                  and all(ml.tables[t].kind == "functions" for t in ml.rules[s].tables)]
    req.transitional = [ml.rules[x] for x in sorted(d.transitional)]

    adjusted = sorted({m for m, _ in d.adjusted})
    offered = sorted({m for m, _ in d.offered})
    case_ids = [c for c in row.cases if c in d.cases]
    why = [line for c in case_ids for line in explain_case(ml, vessel, ml.cases[c], lang)]
    notes = [n for c in case_ids for n in ml.cases[c].notes] + notes
    req.answer = base | {
        "covered": True,
        "provision": _cite(law, table.provision),
        "table": table.id,
        "stufe": row.stufe,
        "row": row.quoted,
        "why": why,
        "conditions": [c for cid in case_ids for c in _condition_json(ml, vessel, ml.cases[cid])],
        "standard": column,
        "alternatives": [a.counts for a in req.alternatives],
        "table_alternatives": [{k: v for k, v in sorted(a.table_counts.items(), key=lambda rn: _role_order(law, rn[0]))}
                               for a in req.alternatives],
        "adjustments": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in req.alternatives if (m, a.id) in d.adjusted],
            "no_effect_on": [a.index for a in req.alternatives if (m, a.id) in d.idle]} for m in adjusted],
        "temporary_reductions_available": [_rule_json(law, ml.rules[m], lang) | {
            "alternatives": [a.index for a in req.alternatives if (m, a.id) in d.offered]} for m in offered],
        "substitutions": [_rule_json(law, s, lang) | {"alternatives": [a.index for a in req.alternatives if s in a.substitutions]}
                          for s in _unique(s for a in req.alternatives for s in a.substitutions)]
                         + [_rule_json(law, s, lang) for s in req.function_substitutions],
        "functions": functions,
        "function_provisions": provisions,
        "transitional": [{"provision": _cite(law, x.provision), "until": x.until.isoformat() if x.until else None,
                          "relaxes": x.role, "covered": not x.missing, "reason": x.reason} for x in req.transitional],
        "notes": _unique(notes),
    }
    if req.function_table is not None:
        req.answer["function_row"] = frows[0].quoted
    return req


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


def crew_answer(law: Law, ml: ManningLaw, vessel, as_of: date, persons=None, temporary: bool = False,
                lang: str = "de") -> dict[str, Any]:
    """The minimum-crew answer, with the roster verdict when persons are given."""
    req = requirement(law, ml, vessel, as_of, temporary, lang)
    answer = dict(req.answer)
    if persons is not None:
        from crewkg.answers.rosters import check_roster

        answer["roster"] = check_roster(law, ml, req, persons, lang)
    return answer
