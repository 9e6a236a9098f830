"""The eligibility answer (docs/answers.md; docs/architecture.md): every certificate of the regulation, every
pathway, every requirement with needed/have/unit/provision, and what is missing. Built from what the
Datalog program derived; this module only arranges it."""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from crewkg.law.statute import Certificate, Law
from crewkg.messages import wording
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person
from crewkg.rules.eligibility import Derived, derive_answered, requirement_have
from crewkg.rules.kinds import KindRole, kind, kinds, with_role


def requirement_entry(law: Law, rid: str, p: Person, d: Derived, as_of: date, lang: str) -> dict[str, Any]:
    """One answer entry: what the requirement's kind says the person has and needs (`crewkg.rules.kinds`)."""
    r = law.requirements[rid]
    k = kind(r.kind)
    entry: dict[str, Any] = {
        "id": rid,
        "text": r.label.get(lang) or r.label.get("de", rid),
        "provision": law.citation(r.provision),
        "met": (p.id, rid) in d.met,
        "kind": r.kind,
        "unit": k.unit,
    }
    if law.provisions[r.provision].paraphrased:  # rests on wording outside the bundled texts: said (rules.kinds.cited)
        entry["paraphrased"] = True
    if k.parts is not None:
        children = [requirement_entry(law, c, p, d, as_of, lang) for c in r.children]
        entry["needed"] = k.needed(len(children)) if k.needed else len(children)
        entry["have"] = sum(1 for c in children if c["met"])
        entry[k.parts] = children
        if k.figures is not None and children:
            entry |= k.figures(children)
    elif k.answer is not None:
        entry |= {key: v for key, v in k.answer(law, r, p, d, as_of).items() if v is not None or key in ("needed", "have")}
    else:
        entry |= {"needed": r.minimum, "have": requirement_have(r, p, d, as_of)}
    return entry


def person_answer(law: Law, p: Person, d: Derived, as_of: date, lang: str = "de") -> dict[str, Any]:
    reg = law.regulation_on(as_of)
    base: dict[str, Any] = {"person": p.id, "as_of": as_of.isoformat()}
    if reg is None:
        first = law.first_regulation()
        return base | {
            "regulation": None,
            "covered": False,
            "reason": say(lang, "cli.no_regulation", as_of=as_of.isoformat(), first=first.name,
                          since=first.in_force_from.isoformat()),
            "certificates": [],
            "roles": [],
        }
    certs = [certificate_entry(law, c, p, d, as_of, lang) for c in law.certificates_in_order() if c.regulation == reg.id]
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    roles = sorted({role for pid, role in d.can_fill if pid == p.id}, key=lambda r: (order.get(r, 99), r))
    withheld = roles_withheld(law, p, d, as_of, lang)
    lapsed = lapsed_entries(law, p, as_of, lang)
    later = not_yet_issued(law, p, as_of, lang)
    early = undated_early(law, p, as_of, lang)
    dated = dated_form_entries(law, p, lang)
    unchecked = medical_not_checked(law, p, as_of, lang)
    warnings = overlap_warnings(law, p, lang)
    others = [v for v in other_readings(law, p, as_of, lang) if not v["counts"]]  # those of a lapse: on its entry
    return base | ({"warnings": warnings} if warnings else {}) | ({"other_readings": others} if others else {}) | {
        "regulation": reg.name, "covered": True,
                   "certificates": certs, "roles": roles} | ({"roles_withheld": withheld} if withheld else {}) | (
                       {"lapsed": lapsed} if lapsed else {}) | ({"not_yet_issued": later} if later else {}) | ({"undated_early": early} if early else {}) | (
                       {"dated_forms": dated} if dated else {}) | ({"medical_not_checked": unchecked} if unchecked else {})


def certificate_entry(law: Law, c: Certificate, p: Person, d: Derived, as_of: date, lang: str,
                      pathways: list[str] | None = None) -> dict[str, Any]:
    """One certificate of the answer: covered or why not, eligible, and each of its pathways (or the named ones) with
    every requirement and what is missing."""
    entry: dict[str, Any] = {"id": c.id, "label": c.label.get(lang, c.id), "provision": law.citation(c.provision)}
    if not c.pathways:
        return entry | {"eligible": None, "covered": False,
                        "reason": say(lang, "not_in_sources", provision=law.citation(c.provision)), "pathways": []}
    out = []
    for wid in c.pathways if pathways is None else pathways:
        w = law.pathways[wid]
        reqs = [requirement_entry(law, rid, p, d, as_of, lang) for rid in w.requirements]
        out.append({"id": wid, "provision": law.citation(w.provision), "label": w.label.get(lang, wid),
                    "satisfied": (p.id, wid) in d.satisfied, "requirements": reqs,
                    "missing": [r for r in reqs if not r["met"]]}
                   | ({"waived": waived(law, w.waives, lang)} if w.waives else {}))
    return entry | {"eligible": (p.id, c.id) in d.eligible, "covered": True, "pathways": out}


def concerned_answer(law: Law, p: Person, d: Derived, as_of: date, chosen: dict[str, list[str]],
                     lang: str = "en") -> dict[str, Any]:
    """The answer restricted to what concerns the person (`answers.relevance.reach`: certificate -> pathways), for
    the compact derivation graph: the certificates chosen with the pathways chosen (an issuable one with those it
    satisfies), the roles, and each certificate the record holds with whether it counts on the date and, where it
    does not, each reason with since when (`rules.validity`; a certificate may lapse for more than one)."""
    from crewkg.rules.validity import all_lapses

    reg = law.regulation_on(as_of)
    base: dict[str, Any] = {"person": p.id, "as_of": as_of.isoformat(), "regulation": reg.name if reg else None,
                            "covered": reg is not None}
    if reg is None:
        first = law.first_regulation()
        return base | {"reason": say(lang, "cli.no_regulation", as_of=as_of.isoformat(), first=first.name,
                                     since=first.in_force_from.isoformat()), "certificates": [], "roles": [], "held": []}
    certs = [certificate_entry(law, law.certificates[cid], p, d, as_of, lang, ws) for cid, ws in chosen.items()
             if ws or (p.id, cid) in d.eligible]
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    roles = sorted({role for pid, role in d.can_fill if pid == p.id}, key=lambda r: (order.get(r, 99), r))
    lapses: dict[str, list] = {}
    for x in all_lapses(p, law, as_of):
        lapses.setdefault(x.certificate, []).append(x)
    held = [{"certificate": c, "counts": c not in lapses,
             "lapses": [{"reason": x.reason, "since": x.since.isoformat(), "provision": x.provision,
                         "valid_until": x.last_day.isoformat() if x.last_day else None} for x in lapses.get(c, [])]}
            for c in p.certificates if c in law.certificates]
    return base | {"certificates": certs, "roles": roles, "held": held}


def overlap_warnings(law: Law, p: Person, lang: str = "de") -> list[dict[str, Any]]:
    """The entries of the service log of different waters that cover the same calendar days, each pair named: a day
    is one Fahrtag (§ 2 Z 3 SchBV), so such a pair is almost always a typing error in the log; where days are added,
    each counts once (records.dated)."""
    from crewkg.records.dated import overlaps

    entries = p.service or []
    provision = law.citation("SchBV2022-P2-Z3") if "SchBV2022-P2-Z3" in law.provisions else ""
    out = []
    for x in overlaps(p):
        named = []
        for i in (x.first, x.second):
            e = entries[i - 1]
            what = law.label(e.role, lang) if e.waters == "inland" and e.role else law.label(e.capacity or "", lang)
            named.append({"entry": i, "waters": e.waters, "from": e.start.isoformat(), "to": e.end.isoformat()}
                         | ({"role": e.role} if e.waters == "inland" else {"capacity": e.capacity})
                         | ({"vessel": e.vessel} if e.vessel else {}) | {"said": say(
                             lang, f"warning.entry_{e.waters}", n=i, what=what, start=e.start.isoformat(),
                             end=e.end.isoformat())})
        out.append({"kind": "overlap", "entries": [{k: v for k, v in n.items() if k != "said"} for n in named],
                    "from": x.start.isoformat(), "to": x.end.isoformat(), "days": x.days, "provision": provision,
                    "text": say(lang, "warning.overlap", first=named[0]["said"], second=named[1]["said"],
                                days=wording.amount(x.days, "days", lang), start=x.start.isoformat(),
                                end=x.end.isoformat(), provision=provision)})
    return out


def waived(law: Law, ids: tuple[str, ...], lang: str) -> list[dict[str, Any]]:
    """The conditions of a certificate's own section a pathway does not ask (crew:waivesRequirement: a replacement by
    a lower Union certificate, § 47 Abs. 4 letzter Satz SchBV), each with its provision: what the authority waives,
    said beside what the pathway asks."""
    return [{"id": rid, "provision": law.citation(law.requirements[rid].provision),
             "text": law.requirements[rid].label.get(lang) or law.requirements[rid].label.get("de", rid)} for rid in ids]


def medical_not_checked(law: Law, p: Person, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """Held qualifications of an earlier regulation kept valid (crew:validUntil, § 47 SchBV) that fill roles while the
    record's medical proof would be overdue under the schedule in force, which governs only the certificates it names
    (the Union certificates): the kb records their medical fitness as not checked, and the answer says so rather
    than let the roles stand unremarked."""
    from crewkg.rules.validity import held, medical_current, schedule_on, step_on

    s = schedule_on(law, as_of)
    reg = law.regulation_on(as_of)
    if s is None or reg is None or step_on(s, p.birth_date, as_of) is None or medical_current(p, law, as_of):
        return []
    out = []
    for cid in held(p, as_of, law):
        c = law.certificates.get(cid)
        if c is None or not c.role or cid in s.certificates or c.regulation == reg.id or c.valid_until is None:
            continue
        kept_by, schedule = law.citation(c.validity_provision or c.provision), law.citation(s.provision)
        out.append({"certificate": cid, "provision": schedule, "kept_by": kept_by,
                    "text": say(lang, "medical_not_checked.text", certificate=law.certificate_short(cid, lang),
                                provision=schedule, kept_by=kept_by)})
    return out


def dated_form_entries(law: Law, p: Person, lang: str = "de") -> list[dict[str, Any]]:
    """The certificates the record named by another id, read by their issue date as the certificate the law treats
    apart (crew:datedFormOf, `records.persons.dated_forms`): said, since the answer names another certificate."""
    out = []
    for cid in p.certificates:
        named = p.certificate_named.get(cid)
        if named is None or cid not in law.certificates or named not in law.certificates:
            continue
        cert, was = law.certificates[cid], law.certificates[named]
        issued = p.certificate_issued[cid].isoformat()
        provision = law.citation(cert.validity_provision or cert.provision)
        named_provision = law.citation(was.validity_provision or was.provision)
        out.append({"certificate": cid, "named": named, "issued": issued, "provision": provision,
                    "text": say(lang, "dated_form.text", named=law.certificate_short(named, lang), issued=issued,
                                certificate=law.certificate_short(cid, lang), provision=provision,
                                named_provision=named_provision)})
    return out


def not_yet_issued(law: Law, p: Person, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """The certificates the record holds with an issue date after the evaluation date: not held on that date (a
    record read for an earlier day, or a typing error), said rather than left out silently."""
    out = []
    for cid in p.certificates:
        issued = p.certificate_issued.get(cid)
        if issued is not None and issued > as_of:
            cert = law.certificates.get(cid)
            name = law.certificate_short(cid, lang) if cert else cid
            out.append({"certificate": cid, "issued": issued.isoformat(), "role": cert.role if cert else None,
                        "text": say(lang, "not_yet_issued.text", certificate=name, issued=issued.isoformat(),
                                    as_of=as_of.isoformat())})
    return out


def undated_early(law: Law, p: Person, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """The certificates the record holds without an issue date although their regulation issues none before a later
    day (a Unionsbefähigungszeugnis on a roster of 2015): they count as the record states them, read as the
    qualification of their role under the law then in force (the kb's reading at kb:SchBesV2004-P4-Abs1) — said, so
    that a clerk sees the record names a certificate the date cannot have, rather than pass over it."""
    now = law.regulation_on(as_of)
    out = []
    for cid in p.certificates:
        cert = law.certificates.get(cid)
        reg = law.regulations.get(cert.regulation or "") if cert is not None else None
        first = (reg.certificates_issued_from or reg.in_force_from) if reg is not None else None
        if cid in p.certificate_issued or first is None or first <= as_of or now is None or now.id == reg.id:
            continue
        out.append({"certificate": cid, "regulation": reg.name, "from": first.isoformat(), "read_under": now.name,
                    "role": cert.role,
                    "text": say(lang, "undated_early.text", certificate=law.certificate_short(cid, lang),
                                regulation=reg.name, first=first.isoformat(), as_of=as_of.isoformat(),
                                now=now.name)})
    return out


def other_readings(law: Law, p: Person, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """What the other reading of a doubtful provision (kb crew:Reading with crew:readingOf) would decide on the date
    for a certificate the record holds, where it decides otherwise (`rules.validity.other_verdicts`): a lapse the other
    reading would not see, or a certificate counting today that the other reading would have ended yesterday."""
    from crewkg.law.readings import validity_readings
    from crewkg.rules.validity import other_verdicts

    readings = validity_readings()
    out = []
    for v in other_verdicts(p, law, as_of):
        rd = readings[v.reading]
        until = v.last_day.isoformat() if v.last_day else None
        key = "other_reading.counts" + ("_until" if until else "") if v.counts else "other_reading.ended"
        out.append({"certificate": v.certificate, "reading": v.reading, "provision": law.citation(v.provision),
                    "counts": v.counts, "valid_until": until,
                    "text": say(lang, key, reading=rd.label.get(lang, v.reading), as_of=as_of.isoformat(), until=until,
                                certificate=law.certificate_short(v.certificate, lang),
                                other=rd.other.get(lang) or next(iter(rd.other.values()), ""))})
    return out


def lapsed_entries(law: Law, p: Person, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """The certificates the record holds that do not count on the date, each with why, since when, the last day it
    counted, the role it would give and the provision (`crewkg.rules.validity` decides; this only says it)."""
    from crewkg.rules.validity import all_lapses, overdue_start, renewal_fields, schedule_on

    out = []
    others = {v["certificate"]: v for v in other_readings(law, p, as_of, lang) if v["counts"]}
    for x in all_lapses(p, law, as_of):
        cert = law.certificates.get(x.certificate)
        name = law.certificate_short(x.certificate, lang) if cert else x.certificate
        until = x.last_day.isoformat() if x.last_day else None
        entry: dict[str, Any] = {"certificate": x.certificate, "reason": x.reason, "provision": law.citation(x.provision),
                                 "since": x.since.isoformat(), "valid_until": until,
                                 "issued": x.issued.isoformat() if x.issued else None,
                                 "role": cert.role if cert else None}
        if law.provisions[x.provision].paraphrased:  # § 22, § 47 Abs. 2 SchBV: said to rest on the kb's paraphrase
            entry["paraphrased"] = True
        if x.reason == "validity_period":
            entry["years"] = x.years
            text = say(lang, "lapsed.validity_period", certificate=name, years=x.years, issued=entry["issued"],
                       until=until, since=entry["since"])
        elif x.reason == "medical_overdue" and x.step is not None:
            entry |= {"examined": x.examined.isoformat() if x.examined else None, "from_age": x.step.from_age,
                      "not_older_than_months": x.step.months}
            seen = (say(lang, "lapsed.examined", date=entry["examined"]) if x.examined
                    else say(lang, "lapsed.not_examined"))
            # the renewal missed when the proof's spell began (under the law then in force), else the latest one
            renewal = renewal_fields(law, p, x.step, schedule_on(law, as_of), overdue_start(p, law, as_of), as_of)
            if renewal:  # examined before the birthday of the renewal: no renewal after it
                entry |= renewal
                # a renewal an earlier schedule asked names it: the lapse's own provision is the schedule in force
                key = "lapsed.medical_not_renewed" if renewal["renewal_schedule"] == entry["provision"] \
                    else "lapsed.medical_not_renewed_then"
                text = say(lang, key, certificate=name, since=entry["since"], age=renewal["renewal_age"],
                           birthday=entry["birthday"], deadline=entry["renew_by"], examined=seen,
                           schedule=renewal["renewal_schedule"])
            else:
                text = say(lang, "lapsed.medical_overdue", certificate=name, since=entry["since"], age=x.step.from_age,
                           period=wording.period(x.step.months, lang), examined=seen)
        elif x.reason == "issued_after_regulation":
            reg = law.regulations[cert.regulation] if cert and cert.regulation else None
            entry["regulation_until"] = reg.in_force_until.isoformat() if reg and reg.in_force_until else None
            text = say(lang, "lapsed.issued_after_regulation", certificate=name, issued=entry["issued"],
                       regulation=reg.name if reg else "", until=entry["regulation_until"])
        elif x.reason == "issued_before_regulation":
            reg = law.regulations[cert.regulation] if cert and cert.regulation else None
            first = reg.certificates_issued_from if reg else None
            entry["regulation_from"] = first.isoformat() if first else None
            text = say(lang, "lapsed.issued_before_regulation", certificate=name, issued=entry["issued"],
                       regulation=reg.name if reg else "", first=entry["regulation_from"])
        elif x.reason == "outside_regulation":
            reg = law.regulations[cert.counts_under] if cert and cert.counts_under else None
            entry["regulation_from"] = reg.in_force_from.isoformat() if reg else None
            text = say(lang, "lapsed.outside_regulation", certificate=name, regulation=reg.name if reg else "",
                       first=entry["regulation_from"], provision=entry["provision"])
        else:
            text = say(lang, "lapsed.end_of_validity", certificate=name, until=until, since=entry["since"])
        if x.reading is not None:  # the schedule reaches the certificate by a reading of the kb (§ 47 SchBV)
            entry["reading"] = x.reading
        if x.reason == "medical_overdue" and (other := others.get(x.certificate)) is not None:
            entry["other_reading"] = {k: v for k, v in other.items() if k != "certificate"}
            text += say(lang, "other_reading.after", text=other["text"])
        entry["text"] = text
        out.append(entry)
    return out


def roles_withheld(law: Law, p: Person, d: Derived, as_of: date, lang: str = "de") -> list[dict[str, Any]]:
    """Roles below a certificate held that the person cannot fill because of the minimum age the role's own
    certificate asks, each with that age, the person's, the day it is reached and its provision (the program's
    can_fill decides; this only says why)."""
    from crewkg.law.calendar import birthday, completed_years
    from crewkg.rules.eligibility import role_ages
    from crewkg.rules.kinds import missing_sentence

    reg = law.regulation_on(as_of)
    ages = role_ages(law, reg.id if reg else None) or role_ages(law)
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    age_kind = with_role(KindRole.AGE)
    out = []
    for role in sorted({r for pid, r in d.reached if pid == p.id}, key=lambda r: (order.get(r, 99), r)):
        if (p.id, role) in d.can_fill or (p.id, role) not in d.too_young or role not in ages:
            continue
        age = ages[role]
        entry: dict[str, Any] = {
            "role": role, "kind": age_kind.name, "unit": age_kind.unit, "met": False,
            "provision": ", ".join(law.citation(law.requirements[r].provision) for r in age.requirements),
            "needed": age.years,
            "have": completed_years(p.birth_date, as_of) if p.birth_date else None,
        }
        if p.birth_date is not None:
            entry["reached_on"] = birthday(p.birth_date, age.years).isoformat()
        entry["text"] = missing_sentence(law, entry, lang)
        out.append(entry)
    return out


class Planning(NamedTuple):
    """What the summary plans from, evaluated in the check's run (`Answers.planning`): each person's record as it
    reads once its days awaiting validation are validated (None: none await), that record under the id it was
    evaluated under, what the run derived, and the date and language of the answers."""

    validated: list[Person | None]
    runs: list[Person | None]
    derived: Derived
    as_of: date
    lang: str


class Answers(list):
    """The answers of `check`, in input order, and (`planning`, where the process asked for it with
    `planning_in_check`) what the summary plans from: each person's record as it reads once its days awaiting
    validation are validated (None: none await), that record under the id it was evaluated under, and what the
    check's own Datalog run derived for them, with the date and language — where a run of their own asked the
    program's whole fixed cost again (≈ 25 ms a batch of the service that has one)."""

    planning: Planning | None = None


#: whether `check` evaluates the records the summary plans from in its own run (`planning_in_check`)
_PLANNING_IN_CHECK: list[bool] = []


def planning_in_check() -> None:
    """From now on `check` evaluates, in its own Datalog run, each record as it reads once its days awaiting
    validation are validated (`Answers.planning`; `careers.summary` plans from it): for a process whose every answer
    gets its summary (the service's evaluator workers). Elsewhere `check` does not (a record checked for a programme,
    a cohort or a route needs no summary)."""
    _PLANNING_IN_CHECK[:] = [True]


def check(law: Law, persons: list[Person], as_of: date, lang: str = "de", readings: bool = False) -> list[dict[str, Any]]:
    """Evaluate a batch of persons in one Datalog run and build one answer per person; each covered certificate
    carries `eligible_since` (a date only for an issuable certificate of a record with dated evidence). The answers a
    person is given (`readings`: the API's check and explain, a folder's answers, the service) add the other reading
    of a doubtful provision where its verdict differs; the answers the planner asks about projected records do not.
    Where the process asked for it (`planning_in_check`), the list is an `Answers`."""
    import dataclasses

    from crewkg.answers.readings import add_readings
    from crewkg.records.dated import validated

    runs: list[Person | None] = []
    if _PLANNING_IN_CHECK:
        validated_ = [validated(p, law, as_of) for p in persons]
        runs = [None if q is None else dataclasses.replace(q, id=f"{q.id}\u241f{i}") for i, q in enumerate(validated_)]
    d = derive_answered(list(persons) + [r for r in runs if r is not None], law, as_of)
    answers = [person_answer(law, p, d, as_of, lang) for p in persons]
    if runs:  # an `Answers` list only then: the API's answers to a folder stay a plain list
        answers = Answers(answers)
        answers.planning = Planning(validated_, runs, d, as_of, lang)
    issuable = [{c["id"] for c in a["certificates"] if c.get("eligible")} if p.dated else set()
                for p, a in zip(persons, answers, strict=True)]
    for a, since in zip(answers, spells_since(law, persons, as_of, issuable), strict=True):
        for c in a["certificates"]:  # every certificate, one the sources do not cover too (null: not issuable)
            c["eligible_since"] = since.get(c["id"])
    if readings:  # the other reading of a doubtful provision, where its verdict differs
        add_readings(law, persons, answers, as_of, lang)
    return answers


def event_dates(law: Law, p: Person, scopes: dict[str, Any], start: date, end: date) -> list[date]:
    """The days from `start` to `end` on which an input of the record's answer can change: the day a scope's
    credited count reaches a number of days the kb's requirements name; the birthdays reaching the kb's minimum
    ages; the days exams were passed, certificates issued, the medical examination held and its validity ended; the
    day after a dated proof lapses and after a held certificate's validity ends;
    the days a dated programme reaches the months the kb names and the day it ends. Between two of them nothing
    the Datalog program reads changes, so its verdict is constant."""
    from datetime import timedelta

    from crewkg.law.calendar import birthday
    from crewkg.law.crediting import programme_end
    from crewkg.rules.eligibility import role_ages

    reqs = list(law.requirements.values())
    days = {r.minimum for r in reqs if r.minimum and kind(r.kind).unit == "days"}
    for k in kinds().values():  # the minima the record shortens (a reduction of Fahrzeit)
        if k.lowered_minima is not None:
            days |= k.lowered_minima(law, p)
    age, programme = with_role(KindRole.AGE).name, with_role(KindRole.PROGRAMME).name
    ages = {r.minimum for r in reqs if r.minimum and r.kind == age} | {a.years for a in role_ages(law).values()}
    months = {r.minimum for r in reqs if r.minimum and r.kind == programme}
    found: set[date | None] = {start}
    found |= {s.nth(n) for s in scopes.values() for n in days}
    if p.birth_date:
        found |= {birthday(p.birth_date, a) for a in ages}
    found |= set(p.exam_passed.values()) | set(p.certificate_issued.values()) | {p.medical_examined}
    from crewkg.rules.validity import proof_last_day

    for r in reqs:  # the day after a period of application closes (crew:lastDay), a dated proof lapses (crew:notOlderThanMonths)
        if r.last_day is not None:
            found.add(r.last_day + timedelta(days=1))
        if r.max_months:
            found |= {lapse + timedelta(days=1) for e in r.exams
                      if (lapse := proof_last_day(p, e, r.max_months)) is not None}
    from crewkg.rules.validity import certificate_days

    found |= certificate_days(p, law)  # fixed ends, validity periods, the medical schedule's steps and the proof's end
    for g in p.programmes:
        if g.start is not None and g.end is not None:
            found.add(g.end)
            found |= {programme_end(g.start, m) for m in months}  # the day before the months are completed
    return sorted(x for x in found if x is not None and start <= x <= end)


def eligible_since(law: Law, p: Person, as_of: date, eligible: set[str]) -> dict[str, str]:
    """For each issuable certificate, the first day of the unbroken spell up to `as_of` in which it is issuable:
    the program is asked once (one batch) on every event date of the record, and the spell's first day is the
    earliest event date from which the certificate stays issuable through `as_of`."""
    return spells_since(law, [p], as_of, [eligible])[0]


def spells_since(law: Law, persons: list[Person], as_of: date, eligible: list[set[str]]) -> list[dict[str, str]]:
    """`eligible_since` of each person (with the certificates issuable to them), every person's event dates asked
    in one run of the program: a batch of records asked one at a time spent a quarter of its check there."""
    import dataclasses

    from crewkg.records.dated import at, ledger
    from crewkg.rules.eligibility import eligible_among

    reg = law.regulation_on(as_of)
    if reg is None:
        return [{} for _ in persons]
    asked: list[list[date]] = []
    records: list[tuple[Person, date]] = []
    for n, (p, certs) in enumerate(zip(persons, eligible, strict=True)):
        if not certs:
            asked.append([])
            continue
        scopes = ledger(p, law)
        dates = event_dates(law, p, scopes, reg.in_force_from, as_of)
        asked.append(dates)
        # under an id of its own for the run (two records of a batch may share one)
        records += [(dataclasses.replace(at(p, law, on, scopes), id=f"{n}:{p.id}@{i}"), on) for i, on in enumerate(dates)]
    found = eligible_among(records, law, set().union(*eligible)) if records else set()
    out: list[dict[str, str]] = []
    for n, (p, certs, dates) in enumerate(zip(persons, eligible, asked, strict=True)):
        spells: dict[str, str] = {}
        for cert in certs:
            since = as_of
            for i in range(len(dates) - 1, -1, -1):
                if (f"{n}:{p.id}@{i}", cert) not in found:
                    break
                since = dates[i]
            spells[cert] = since.isoformat()
        out.append(spells)
    return out


def eligible_spells(law: Law, p: Person, certificates: set[str], start: date, end: date) -> dict[str, list[tuple[date, date]]]:
    """For each named certificate, the spells from `start` to `end` in which it can be issued: (first day, last
    day). The program is asked once (one batch) on every event date of the record in the span, as `eligible_since`
    asks it; between two of them its verdict is constant. A fleet's forecast asks it of a member whom a certificate
    would let fill what is missing: from which day, and until which day an application can be made."""
    from crewkg.rules.eligibility import eligible_among

    if not certificates:
        return {}
    dates, records = _dated_records(law, p, start, end)
    found = eligible_among(records, law, certificates)
    return {c: runs for c in sorted(certificates) if (runs := _runs(dates, end, lambda i, c=c: (f"{p.id}@{i}", c) in found))}


def pathway_spells(law: Law, p: Person, pathways: set[str], start: date, end: date) -> dict[str, list[tuple[date, date]]]:
    """For each named pathway, the spells from `start` to `end` in which it is satisfied (as `eligible_spells`): a
    replacement route of § 47 SchBV, and until when an application by it could be made."""
    from crewkg.rules.eligibility import satisfied_pathways

    if not pathways:
        return {}
    dates, records = _dated_records(law, p, start, end)
    found = satisfied_pathways(records, law, frozenset(pathways))
    return {w: runs for w in sorted(pathways) if (runs := _runs(dates, end, lambda i, w=w: (f"{p.id}@{i}", w) in found))}


def _dated_records(law: Law, p: Person, start: date, end: date) -> tuple[list[date], list[tuple[Person, date]]]:
    """The record's event dates in the span (and its first day), and the record credited on each under an id of
    its own."""
    import dataclasses

    from crewkg.records.dated import at, ledger

    scopes = ledger(p, law) if p.service else {}
    dates = sorted(set(event_dates(law, p, scopes, start, end)) | {start})
    return dates, [(dataclasses.replace(at(p, law, on, scopes or None), id=f"{p.id}@{i}"), on) for i, on in enumerate(dates)]


def _runs(dates: list[date], end: date, ok) -> list[tuple[date, date]]:
    """The spells of the dates on which `ok(index)` holds, each to the day before the next date on which it does not
    (to `end` for the last)."""
    from datetime import timedelta

    runs: list[list[date | None]] = []
    for i, on in enumerate(dates):
        if ok(i) and (not runs or runs[-1][1] is not None):
            runs.append([on, None])
        elif not ok(i) and runs and runs[-1][1] is None:
            runs[-1][1] = on - timedelta(days=1)
    return [(a, b if b is not None else end) for a, b in runs]  # type: ignore[misc]
