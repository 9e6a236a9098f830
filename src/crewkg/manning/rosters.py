"""The roster check: can the people on a roster fill one alternative of the minimum crew, with its functions?

What each person can do comes from `people.py`, the assignment of people to positions and functions (a min-cost flow)
from `solver.py`. The verdict names the assignment, or exactly which positions, functions and qualifications stay
open and what kind of person would fill each, with the near misses; where the table is missing from the sources, the
rules that hold whatever it says are still checked.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.manning.people import People, people_of
from crewkg.manning.requirement import Requirement
from crewkg.manning.solver import Attempt, Slot, best_attempt, may_combine, qualifications
from crewkg.manning.tables import FunctionRule, ManningLaw, TransitionalRule
from crewkg.messages.sections import section
from crewkg.records.persons import Person


def _words(lang: str) -> dict[str, str]:
    """The roster check's wording in one language (the `crew.roster.` section of the message catalogue)."""
    return section("crew.roster.", lang)


def _lack_text(law: Law, key: str, values: dict[str, Any], lang: str) -> str:
    if key == "lacks_requirement":
        values = {"item": law.label(values["item"], lang)}
    elif key == "lacks_entry":
        values = values | {"certificate": law.certificate_short(values["certificate"], lang)}
    return _words(lang)[key].format(**values)


def _label(law: Law, role: str, lang: str) -> str:
    return law.label(role, lang)


def _fill_with(law: Law, ml: ManningLaw, req: Requirement, slot: Slot, people: People, combinable: tuple[bool, set[str]] | None,
               lang: str) -> tuple[str, dict[str, Any]]:
    """What kind of person would fill an open slot, in words and as data (certificates, substitutions)."""
    t = _words(lang)
    role = _label(law, slot.role, lang)
    if slot.kind == "position":
        governed = {s.by for s in slot.substitutions}  # a step a substitution governs is taken only on its conditions
        higher = sorted((r for r, under in people.below.items() if slot.role in under and r not in governed),
                        key=lambda r: law.terms[r].order if r in law.terms else 0)
        certs = [c.id for c in law.certificates_in_order() if c.role == slot.role or c.role in higher]
        text = t["position"].format(role=role)
        if higher:
            text += t["higher"].format(roles=", ".join(_label(law, r, lang) for r in higher))
        proofs = []
        for q in req.proofs:  # a qualification these waters let a person prove by its pathway (§ 6 Abs. 6 SchBesV)
            c = law.certificates.get(q.certificate or "")
            if c is None or c.role != slot.role:
                continue
            needs = [law.label(r, lang) for w in c.pathways for r in law.pathways[w].requirements]
            text += t["proof"].format(needs=", ".join(dict.fromkeys(needs))) + f" ({law.citation(q.provision)})"
            proofs.append({"certificate": c.id, "provision": law.citation(q.provision)})
        subs = []
        for s in slot.substitutions:
            conds = [t[k].format(n=v) for k, v in (("age", s.min_age), ("year", s.min_apprenticeship_year), ("days", s.min_fahrzeit_days)) if v is not None]
            by = _label(law, s.by, lang) + (f" ({', '.join(conds)})" if conds else "")
            text += t["subst"].format(by=by) + f" ({law.citation(s.provision)})"
            subs.append({"by": s.by, "provision": law.citation(s.provision)} | (
                {"conditions": {k: v for k, v in (("min_age", s.min_age), ("min_apprenticeship_year", s.min_apprenticeship_year),
                                                  ("min_fahrzeit_days", s.min_fahrzeit_days)) if v is not None}} if conds else {}))
        return text, {"certificates": certs, "roles": [slot.role, *higher], "substitutions": subs} | (
            {"proofs": proofs} if proofs else {})
    text = t["function"].format(role=role)
    ok, excepted = combinable or (False, set())
    if ok:
        exc = "".join(t["except"].format(role=_label(law, r, lang)) for r in sorted(excepted))
        text += t["combinable"].format(exc=exc)
    else:
        text += t["alone"]
    subs = [s for s in req.function_substitutions if s.role == slot.role]
    if subs:
        text += t["accepts"].format(items=t["or"].join(_label(law, s.by, lang) for s in subs))
    return text, {"roles": [slot.role, *(s.by for s in subs)], "combinable_with_position": ok}


def _qualification_text(law: Law, q: dict[str, Any], rule: FunctionRule, lang: str) -> str:
    t = _words(lang)
    missing = max(q["needed"] - len(q["have"]), 0)
    if rule.required_of_role and missing == 0:
        return t["required_of"].format(of=_label(law, rule.required_of_role, lang), role=_label(law, rule.role, lang))
    text = t["qualification_one" if max(missing, 1) == 1 else "qualification"].format(n=max(missing, 1), role=_label(law, rule.role, lang))
    extra = [_label(law, f, lang) for f in rule.accepts_functions]
    if rule.accepts_at_least and rule.accepts_issued_after:
        extra.append(t["at_least_after"].format(role=_label(law, rule.accepts_at_least, lang),
                                                day=rule.accepts_issued_after.isoformat()))
    elif rule.accepts_at_least:
        extra.append(t["at_least"].format(role=_label(law, rule.accepts_at_least, lang)))
    if extra:
        text += t["accepts"].format(items=t["or"].join(extra))
    if rule.except_role:
        text += t["except"].format(role=_label(law, rule.except_role, lang))
    if rule.required_of_role:
        text += "; " + t["required_of"].format(of=_label(law, rule.required_of_role, lang), role=_label(law, rule.role, lang))
    return text


def _uncovered_roster(law: Law, ml: ManningLaw, req: Requirement, persons: list[Person], lang: str) -> dict[str, Any]:
    """Where the table (or the crew under a gap) is missing from the sources no position can be checked, but the
    function rules that govern the vessel still hold (two first-aiders, the engine qualification): a roster that
    cannot meet one of them is not satisfied whatever the missing table says. A rule that names a position is decided
    only where it cannot be met whoever takes the position: fewer holders than it asks, (held by the prescribed
    Schiffsführer) no holder who could take that position, or (not held by the Schiffsführer, § 14 Abs. 8 SchBesV) too
    few holders besides each member who could take it."""
    t = _words(lang)
    answer: dict[str, Any] = {"satisfied": None, "reason": t["not_covered"], "assignment": {}, "missing": []}
    if not req.rules and not req.functions:
        return answer
    people = people_of(law, persons, req.as_of, ml.proven_functions)
    short_functions = []  # passenger-safety functions fewer members hold (or may hold instead) than the row asks
    for need in req.functions:
        holders = [pid for pid in people.persons if need.function in people.functions[pid]
                   or any(s.role == need.function and s.by in people.functions[pid] for s in req.function_substitutions)]
        if len(holders) < need.count:
            n = need.count - len(holders)
            short_functions.append({"kind": "function", "role": need.function, "provision": need.provision,
                                    "needed": need.count, "have": len(holders),
                                    "fill_with": t["qualification_one" if n == 1 else "qualification"].format(
                                        n=n, role=_label(law, need.function, lang))})
    decided = []
    for q in qualifications(law, req.rules, people, {}):
        rule = ml.rules[q["rule"]]
        short = len(q["have"]) < q["needed"]  # nobody to exclude can give more holders
        if rule.required_of_role:  # whoever is prescribed in the position must be able to fill it
            short = short or not any(rule.required_of_role in people.fills[pid] for pid in q["have"])
        if rule.except_role:  # whoever takes the position does not count: short if so for everyone who could take it
            takers = [pid for pid in people.persons if rule.except_role in people.fills[pid]]
            if takers and all(sum(h != x for h in q["have"]) < q["needed"] for x in takers):
                short = True  # the holders that count are those besides the taker who leaves the most of them
                x = max(takers, key=lambda x: (sum(h != x for h in q["have"]), x))
                q = q | {"have": [h for h in q["have"] if h != x]}
        if short or not (rule.required_of_role or rule.except_role):
            decided.append(q | {"met": not short})
    missing = [{"kind": "qualification", "role": q["function"], "provision": q["provision"], "needed": q["needed"],
                "have": len(q["have"]), "fill_with": _qualification_text(law, q, ml.rules[q["rule"]], lang)}
               for q in decided if not q["met"]] + short_functions
    for q in decided:
        for pid in q["have"][: q["needed"]]:
            answer["assignment"].setdefault(pid, []).append(q["function"])
    if (x := _transitional(law, req, missing)) is not None:
        # only functions a transitional rule lets others take, in a form the sources lack (§ 47 second Abs. 13 SchBV)
        answer["reason"] = t["not_covered_transitional"].format(reason=_reason(x, lang))
    elif missing:
        answer |= {"satisfied": False, "reason": t["not_covered_rules"]}
    elif decided:
        answer["reason"] = t["not_covered_rules_met"]
    return answer | {"qualifications": [{k: v for k, v in q.items() if k != "rule"} for q in decided], "missing": missing}


def _transitional(law: Law, req: Requirement, missing: list[dict[str, Any]]) -> TransitionalRule | None:
    """The transitional rule in force that lets others take every missing function (§ 47 second Abs. 13 SchBV,
    kb:SchBV2022-P47-Abs13b: until its date, a Fahrgastbetreuer or Ersthelfer instead of the Sachkundige), in a form the sources lack — so the roster is
    neither complete nor short: each missing entry is marked with the rule; None where anything else is missing."""
    relaxed = {x.role: x for x in req.transitional if x.missing}
    if not missing or not all(m["kind"] == "function" and m["role"] in relaxed for m in missing):
        return None
    x = relaxed[missing[0]["role"]]
    for m in missing:
        m["transitional"] = {"provision": law.citation(x.provision), "until": x.until.isoformat() if x.until else None,
                             "covered": False}
    return x


def _reason(x: TransitionalRule, lang: str) -> str:
    """The transitional rule's reason in the language asked for, else in the one the kb gives."""
    return x.reason.get(lang) or next(iter(x.reason.values()), "")


def _standing_unknown(law: Law, ml: ManningLaw, people: People, waters: str | None) -> tuple[People, list[tuple[str, str, str]]] | None:
    """The people as they would be if every holder of a role whose standing the sources do not give
    (crew:standingUnknownFor) took the table roles it may perhaps stand for; None when nobody holds such a role. A
    role held only by certificates restricted to other waters than the vessel's (crew:restrictedToWaters) stands
    for nothing there: its standing is known."""
    def open_here(p: Person, role: str) -> bool:
        certs = [c for c in p.certificates if c in law.certificates and law.certificates[c].role == role]
        return not certs or any(ml.restricted_waters.get(c) in (None, waters) for c in certs)

    extra = [(pid, role, target) for pid in people.persons for role in sorted(people.top[pid])
             if open_here(people.persons[pid], role) for target in ml.standing_unknown.get(role, ((), ""))[0]]
    if not extra:
        return None
    top = {pid: set(v) for pid, v in people.top.items()}
    fills = {pid: set(v) for pid, v in people.fills.items()}
    for pid, _, target in extra:
        top[pid].add(target)
        fills[pid].add(target)
    return dataclasses.replace(people, top=top, fills=fills), extra


def _by_reading(law: Law, ml: ManningLaw, req: Requirement, persons: list[Person], as_of: date) -> list[dict[str, Any]]:
    """The members whose held certificate gives no role on the date only by a reading of the kb (crew:Reading: the
    schedule in force read for a qualification § 47 SchBV keeps valid) and without whom, under the other reading, the
    roster would be complete: it cannot be confirmed then (empty: it would not be complete either way)."""
    from crewkg.rules.validity import all_lapses

    found = {p.id: [x for x in all_lapses(p, law, as_of) if x.reading is not None] for p in persons}
    if not any(found.values()):
        return []
    other = [dataclasses.replace(p, other_readings=p.other_readings | {x.reading for x in found[p.id]}) for p in persons]
    people = people_of(law, other, as_of, ml.proven_functions, {q.certificate: q.provision for q in req.proofs if q.certificate})
    if not any(best_attempt(law, req, alt, people, as_of, {}).complete() for alt in req.alternatives):
        return []
    return [{"person": pid, "certificate": x.certificate, "reading": x.reading, "provision": law.citation(x.provision),
             "since": x.since.isoformat()} for pid, xs in found.items() for x in xs]


def _unconfirmed_reason(law: Law, unconfirmed: list[dict[str, Any]], lang: str) -> str:
    """Why a roster complete only under the other reading of a lapse cannot be confirmed, member by member."""
    from crewkg.law.readings import eligibility_readings
    from crewkg.rules.kinds import cited

    readings = eligibility_readings()
    return "; ".join(_words(lang)["by_reading"].format(
        person=x["person"], certificate=law.certificate_short(x["certificate"], lang),
        provision=cited(x["provision"], lang), reading=readings[x["reading"]].label.get(lang, x["reading"]))
        for x in unconfirmed)


def _issuable_not_held(law: Law, people: People, as_of: date, slots: list[Slot], near: dict[str, list]) -> None:
    """A person who meets every condition of a certificate of the regulation in force but does not hold it (not
    issued, or under the SchBesV 2004 not entered in the Schifferdienstbuch, § 6 Abs. 1 Z 2) fills no position: said
    as a near miss of the open positions its role or a role below it would take, not left unexplained. Asked only when
    a position stays open: one run of the eligibility program over the roster's persons (its eligible rule)."""
    from crewkg.rules.eligibility import derive

    reg = law.regulation_on(as_of)
    if reg is None:
        return
    eligible = derive(list(people.persons.values()), law, as_of).eligible
    certs = [c for c in law.certificates_in_order() if c.regulation == reg.id and c.role]
    for pid in people.persons:
        for cert in (c for c in certs if (pid, c.id) in eligible):
            roles = {cert.role} | people.below.get(cert.role, set())
            for slot in slots:
                if slot.kind != "position" or slot.role not in roles or slot.role in people.fills[pid]:
                    continue
                if any(m[0] == pid for m in near.get(slot.id, [])):
                    continue  # named already (with what they lack, or by a lower certificate met)
                near.setdefault(slot.id, []).append((pid, slot.role, cert.provision,
                                                     [("lacks_entry", {"certificate": cert.id})]))


def _proof_of(req: Requirement, cid: str):
    """The vessel's proof of qualification (crew:QualificationProof) that proves the certificate, if any."""
    return next((q for q in req.proofs if q.certificate == cid), None)


def _other_alternatives(chosen: Attempt, attempts: list[tuple[Attempt, dict[str, list]]]) -> list[dict[str, Any]]:
    """What each other alternative of the table row would lack with the same people: the verdict names one
    alternative, but a roster that fills none has as many ways out as the row has alternatives, and the nearest
    may be another one (Schiffsführer and Matrose lack a Leichtmatrose under one, a Bootsmann under the other)."""
    out = []
    for attempt, _ in attempts:
        if attempt is chosen:
            continue
        lacks: dict[tuple[str, str, str], int] = {}
        for slot in attempt.open_slots():
            key = (slot.kind, slot.role, slot.provision)
            lacks[key] = lacks.get(key, 0) + 1
        for q in attempt.qualifications:
            if not q["met"]:
                lacks[("qualification", q["function"], q["provision"])] = q["needed"] - len(q["have"])
        out.append({"alternative": attempt.alternative.index,
                    "missing": [{"kind": kind, "role": role, "provision": provision, "count": n}
                                for (kind, role, provision), n in lacks.items()]})
    return out


def check_roster(law: Law, ml: ManningLaw, req: Requirement, persons: list[Person], lang: str = "de") -> dict[str, Any]:
    """The roster verdict: satisfied, the assignment (person id -> positions and functions), and what is
    missing with its provision and the kind of person who would fill it."""
    if not req.covered:
        return _uncovered_roster(law, ml, req, persons, lang)
    as_of = req.as_of
    people = people_of(law, persons, as_of, ml.proven_functions, {q.certificate: q.provision for q in req.proofs if q.certificate})
    attempts: list[tuple[Attempt, dict[str, list]]] = []
    for alt in req.alternatives:
        near: dict[str, list] = {}
        attempts.append((best_attempt(law, req, alt, people, as_of, near), near))
    done = [a for a in attempts if a[0].complete()]
    unknown: list[tuple[str, str, str]] = []  # (person, role, table role) a complete roster would need
    waters = req.vessel.values.get("onWaters") if req.vessel is not None else None
    if not done and (perhaps := _standing_unknown(law, ml, people, waters)) is not None:
        if any(best_attempt(law, req, alt, perhaps[0], as_of, {}).complete() for alt in req.alternatives):
            unknown = perhaps[1]
    unconfirmed = [] if done else _by_reading(law, ml, req, persons, as_of)
    chosen, near = done[0] if done else max(attempts, key=lambda an: (an[0].score(), -an[0].alternative.index))
    assignment, details = _assignment(law, ml, req, people, chosen)
    missing = _missing(law, ml, req, people, chosen, near, assignment, lang)
    satisfied, answer = _verdict(law, ml, req, missing, unknown, lang)
    if unconfirmed and satisfied is False:  # complete only under the other reading of a lapse: never satisfied
        satisfied = None
        answer["reason"] = _unconfirmed_reason(law, unconfirmed, lang)
        answer["unconfirmed"] = unconfirmed
    if not done and (others := _other_alternatives(chosen, attempts)):
        answer["other_alternatives"] = others
    answer |= _member_notes(law, persons, as_of, lang)
    return {"satisfied": satisfied, "alternative": chosen.alternative.index, "assignment": assignment, "details": details,
            "qualifications": [{k: v for k, v in q.items() if k != "rule"} for q in chosen.qualifications],
            "missing": missing, **answer}


def _assignment(law: Law, ml: ManningLaw, req: Requirement, people: People,
                chosen: Attempt) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    """Who takes which position and function (person id -> roles, deck positions first) and how each place is
    filled (`details`: by certificate, hierarchy, function, the record's proofs or a substitution); the holders who
    meet a function rule join the assignment, exact holders first."""
    assignment: dict[str, list[str]] = {}
    details = []
    for slot in chosen.slots:
        o = chosen.positions.get(slot.id) or chosen.functions.get(slot.id)
        if o is None:
            continue
        assignment.setdefault(o.person, []).append(slot.role)
        via = o.via if o.via in ("certificate", "hierarchy", "function", "record") else "substitution"
        entry = {"kind": slot.kind, "role": slot.role, "person": o.person, "via": via, "provision": slot.provision}
        if via == "record":  # the function follows from the certificate the record's proofs make (crew:heldByProof)
            cid = people.proven[o.person][slot.role]
            entry |= {"certificate": cid, "certificate_provision": law.citation(law.certificates[cid].provision)}
            if (proof := _proof_of(req, cid)) is not None:  # proven on these waters (§ 6 Abs. 6 SchBesV)
                entry["proof_provision"] = law.citation(proof.provision)
        if via == "substitution":
            s = ml.rules[o.via]
            entry |= {"substitution": s.id, "substitution_provision": law.citation(s.provision), "as": s.by}
            cid = people.proven.get(o.person, {}).get(s.by or "")
            if cid and (proof := _proof_of(req, cid)) is not None:  # the substitute's role proven on these waters
                entry |= {"certificate": cid, "certificate_provision": law.citation(law.certificates[cid].provision),
                          "proof_provision": law.citation(proof.provision)}
        details.append(entry)
    for q in chosen.qualifications:  # the holders who meet a function rule, exact holders first
        rule = ml.rules[q["rule"]]
        derived = {pid: people.proven[pid][f] for pid in q["have"] for f in (rule.role, *rule.accepts_functions)
                   if f in people.proven.get(pid, {}) and f not in people.persons[pid].functions}
        if derived:  # who holds it through the certificate the record's own proofs make, not as stated
            q["derived"] = derived
        exact = [pid for pid in q["have"] if rule.role in people.functions[pid]]
        for pid in (exact + [pid for pid in q["have"] if pid not in exact])[: rule.count]:
            if rule.role not in assignment.setdefault(pid, []):
                assignment[pid].append(rule.role)
    deck = set(law.ids_of("DeckCrewRole"))
    for pid in assignment:
        assignment[pid].sort(key=lambda r: 0 if r in deck and r in {d["role"] for d in details if d["person"] == pid and d["kind"] == "position"} else 1)
    return assignment, details


def _missing(law: Law, ml: ManningLaw, req: Requirement, people: People, chosen: Attempt, near: dict[str, list],
             assignment: dict[str, list[str]], lang: str) -> list[dict[str, Any]]:
    """The open positions and functions, each with the kind of person who would fill it and the near misses, then
    the function rules the crew does not meet."""
    missing = []
    if any(slot.kind == "position" for slot in chosen.open_slots()):
        _issuable_not_held(law, people, req.as_of, chosen.open_slots(), near)
    for slot in chosen.open_slots():
        combinable = may_combine(req, chosen.alternative, slot.role) if slot.kind == "function" else None
        text, accepts = _fill_with(law, ml, req, slot, people, combinable, lang)
        entry = {"kind": slot.kind, "role": slot.role, "provision": slot.provision, "fill_with": text, "accepts": accepts}
        misses = sorted(near.get(slot.id, []), key=lambda m: (len(m[3]), m[0]))
        if misses:
            entry["near_misses"] = [{"person": pid, "as": role, "provision": law.citation(provision),
                                     "lacks": [_lack_text(law, k, v, lang) for k, v in lacks]}
                                    | ({"assigned": list(assignment[pid])} if pid in assignment else {})
                                    for pid, role, provision, lacks in misses]
        missing.append(entry)
    for q in chosen.qualifications:
        if not q["met"]:
            rule = ml.rules[q["rule"]]
            missing.append({"kind": "qualification", "role": q["function"], "provision": q["provision"], "needed": q["needed"],
                            "have": len(q["have"]), "fill_with": _qualification_text(law, q, rule, lang)}
                           | ({"of": rule.required_of_role} if rule.required_of_role else {}))
    return missing


def _verdict(law: Law, ml: ManningLaw, req: Requirement, missing: list[dict[str, Any]],
             unknown: list[tuple[str, str, str]], lang: str) -> tuple[bool | None, dict[str, Any]]:
    """Satisfied when nothing is missing; neither (None, with the reason) where only functions a transitional rule
    lets others take are missing, or where the roster is complete only if a holder whose standing the sources lack
    counts."""
    t = _words(lang)
    satisfied: bool | None = not missing
    answer: dict[str, Any] = {}
    if (x := _transitional(law, req, missing)) is not None:
        satisfied = None
        answer["reason"] = t["transitional"].format(reason=_reason(x, lang), until=x.until.isoformat() if x.until else "")
    if unknown and satisfied is False:  # complete only if a holder whose standing the sources lack counts
        satisfied = None
        answer["reason"] = "; ".join(t["standing_unknown"].format(
            person=pid, role=_label(law, role, lang), target=_label(law, target, lang),
            provision=law.citation(ml.standing_unknown[role][1]))
            for pid, role, target in unknown)
        answer["standing_unknown"] = [{"person": pid, "role": role, "as": target} for pid, role, target in unknown]
    return satisfied, answer


def _member_notes(law: Law, persons: list[Person], as_of: date, lang: str) -> dict[str, Any]:
    """What `check` would say of the members' certificates on the date, where it says something: lapsed, not yet
    issued, dated before they can be, or kept valid without a checked medical fitness."""
    from crewkg.answers.eligibility import lapsed_entries, medical_not_checked, not_yet_issued, undated_early

    answer: dict[str, Any] = {}
    lapsed = {p.id: found for p in persons if (found := lapsed_entries(law, p, as_of, lang))}
    if lapsed:  # the members whose held certificate gives no role on the date, and why (§ 22, § 47 SchBV)
        answer["lapsed"] = lapsed
    later = {p.id: found for p in persons if (found := not_yet_issued(law, p, as_of, lang))}
    if later:  # the members whose certificate is issued only after the date: not held yet, as `check` says
        answer["not_yet_issued"] = later
    early = {p.id: found for p in persons if (found := undated_early(law, p, as_of, lang))}
    if early:  # members named with a certificate their date cannot have, counted as read under the law then in force
        answer["undated_early"] = early
    unchecked = {p.id: found for p in persons if (found := medical_not_checked(law, p, as_of, lang))}
    if unchecked:  # members filling roles by a qualification kept valid by § 47 whose medical fitness is not checked
        answer["medical_not_checked"] = unchecked
    return answer
