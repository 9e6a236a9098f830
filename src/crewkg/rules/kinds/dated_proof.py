"""DatedProof — every listed proof (an instruction, an exercise) taken no longer ago than N months.

The proofs are record exams (`exams: [{id: ..., passed: DATE, hours: H}]`); a dated proof counts from the day it was
taken up to and including the same day N months later; one given without a date is taken as stated (as a plain exam
id is). A requirement may also ask for a least number of hours (crew:minimumHours: a proof that states fewer does not
count, one that states none is taken as stated) or a cut-off day (crew:takenBefore: a dated proof counts only if taken
before it). A proof of employment in a role before the cut-off day (crew:provenByServiceAs; in any role,
crew:provenByServiceInAnyRole) is also given by the service log: a validated entry in that role begun before that day,
the Schifferdienstbuch being the official record of the Fahrpraxis (§ 2 Z 2 SchBV)."""

from __future__ import annotations

from datetime import date, timedelta

from crewkg.messages.wording import number, value
from crewkg.rules.kinds.exam import Exam
from crewkg.rules.kinds.protocol import NotAGroup, RequirementKind, nothing
from crewkg.rules.validity import proof_last_day

NAME = "DatedProof"
MESSAGES = {
    "de": {
        "missing": "Nachweis fehlt oder liegt länger als {months} Monate zurück: {items}",
        "summary": "{items} (höchstens {months} Monate alt)",
        "facts": "Nachweise = {items}",
        "missing_before": "Nachweis fehlt oder ist nicht vor dem {before} datiert: {items}",
        "summary_before": "{items} (vor dem {before})",
        "hours": " (mindestens {hours} Stunden)",
        "short_hours": "{item}: {hours} Stunden nachgewiesen, mindestens {minimum} verlangt",
        "taken_too_late": "{item}: mit {taken} datiert, zählt nur vor dem {before}",
        "expired": "{item}: am {taken} erbracht, zählte bis einschließlich {until} (höchstens {months} Monate alt)",
        "dated_later": "{item}: mit {taken} datiert, nach dem Stichtag",
        "by_service": "Schifferdienstbuch: {role} ab {start}",
        "or_service": " oder eine bestätigte Eintragung im Schifferdienstbuch als {role}, begonnen vor dem {before}",
        "or_service_undated": " oder eine bestätigte Eintragung im Schifferdienstbuch als {role}",
        "or_any_service": " oder eine bestätigte Eintragung im Schifferdienstbuch in beliebiger Funktion, begonnen vor dem {before}",
        "or_any_service_undated": " oder eine bestätigte Eintragung im Schifferdienstbuch in beliebiger Funktion",
    },
    "en": {
        "missing": "proof missing or taken more than {months} months ago: {items}",
        "summary": "{items} (at most {months} months old)",
        "facts": "proofs = {items}",
        "missing_before": "proof missing or not dated before {before}: {items}",
        "summary_before": "{items} (before {before})",
        "hours": " (at least {hours} hours)",
        "short_hours": "{item}: {hours} hours proven, at least {minimum} required",
        "taken_too_late": "{item}: dated {taken}, counts only before {before}",
        "expired": "{item}: taken on {taken}, counted up to and including {until} (at most {months} months old)",
        "dated_later": "{item}: dated {taken}, after the evaluation date",
        "by_service": "service log: {role} from {start}",
        "or_service": " or a validated service-log entry as {role} begun before {before}",
        "or_service_undated": " or a validated service-log entry as {role}",
        "or_any_service": " or a validated service-log entry in any role begun before {before}",
        "or_any_service_undated": " or a validated service-log entry in any role",
    },
}


def current(p, proof: str, months: int | None, as_of: date, r=None) -> bool:
    """Whether the proof counts on the date (and meets the requirement's hours and cut-off day, given `r`)."""
    if proof not in p.exams:
        return False
    if r is not None and r.min_hours is not None and proof in p.exam_hours and p.exam_hours[proof] < r.min_hours:
        return False
    taken = p.exam_passed.get(proof)
    if taken is None:
        return True
    if r is not None and r.taken_before is not None and not taken < r.taken_before:
        return False
    end = proof_last_day(p, proof, months)
    return taken <= as_of and (end is None or as_of <= end)


def by_service(p, r, as_of: date):
    """The first service-log entry that proves the requirement's employment (crew:provenByServiceAs, or in any role:
    crew:provenByServiceInAnyRole), or None."""
    if (r.proven_by_service_as is None and not r.proven_by_any_service) or r.taken_before is None:
        return None
    return min((e for e in p.service or [] if e.waters == "inland" and e.validated
                and (r.proven_by_any_service or e.role == r.proven_by_service_as)
                and e.start < r.taken_before and e.start <= as_of), key=lambda e: e.start, default=None)


def renewal_due(law, p, r) -> date | None:
    """The first day a proof that stands in for the first medical report only (crew:untilRenewalOf) no longer counts:
    the day the schedule asks the first renewal (None: it stands in as stated)."""
    from crewkg.rules.validity import first_renewal_due

    return first_renewal_due(law, r.until_renewal, p.birth_date) if r.until_renewal else None


def proven(p, r, as_of: date, law=None) -> bool:
    """Every proof the requirement lists counts on the date, or the service log gives it; a proof standing in for the
    first medical report only, not once the schedule asks a renewal (`renewal_due`)."""
    if law is not None and (due := renewal_due(law, p, r)) is not None and as_of >= due:
        return False
    return bool(r.exams) and (all(current(p, e, r.max_months, as_of, r) for e in r.exams)
                              or by_service(p, r, as_of) is not None)


class DatedProof(NotAGroup, RequirementKind):
    name = NAME
    order = 65
    role = None

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'DatedProof') & proof_current(P, R)
"""
    predicates = {"proof_current": 2}
    kb_facts = nothing  # the proofs are read from the requirement itself (person_facts)

    def person_facts(self, p, law, as_of):
        return [("proof_current", p.id, r.id) for r in law.requirements.values()
                if r.kind == NAME and proven(p, r, as_of, law)]

    abstracted = ()
    abstraction = None  # decided on dates, compared with no minimum of the kb

    unit = "document"
    action = "obtain_proof"

    def answer(self, law, r, p, d, as_of):
        out = {"needed": list(r.exams), "have": self.have(r, p, d, as_of), "not_older_than_months": r.max_months}
        if r.min_hours is not None:
            out["minimum_hours"] = r.min_hours
            stated = {e: p.exam_hours[e] for e in r.exams if e in p.exam_hours}
            if stated:
                out["hours"] = stated
        entry = by_service(p, r, as_of)
        if entry is not None:  # the log's entry is the proof: named, so that the answer says where it comes from
            out["by_service"] = {"role": entry.role, "from": entry.start.isoformat(), "to": entry.end.isoformat(),
                                 "vessel": entry.vessel}
        if r.proven_by_service_as is not None:
            out["proven_by_service_as"] = r.proven_by_service_as
        if r.proven_by_any_service:
            out["proven_by_any_service"] = True
        if (due := renewal_due(law, p, r)) is not None:  # stands in for the first report only (§ 18 Abs. 2 SchBesV)
            out |= {"stands_in_until": (due - timedelta(days=1)).isoformat(),
                    "renewal_provision": law.citation(law.medical_schedules[r.until_renewal].provision)}
            if as_of >= due:
                out |= {"have": [], "renewal_overdue": True}
        if r.taken_before is not None:
            out["taken_before"] = r.taken_before.isoformat()
            late = {e: p.exam_passed[e].isoformat() for e in r.exams
                    if e in p.exam_passed and p.exam_passed[e] >= r.taken_before}
            if late:  # there, but dated on or after the cut-off day: said as such
                out["taken_too_late"] = late
        return out | _dates(p, r, out["have"], as_of)

    def have(self, r, p, d, as_of):
        if by_service(p, r, as_of) is not None:
            return list(r.exams)
        return [e for e in r.exams if current(p, e, r.max_months, as_of, r)]

    lowered_minima = None  # no minimum

    messages = MESSAGES

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import say

        lacking = [e for e in req["needed"] if e not in req["have"]]
        least, stated = req.get("minimum_hours"), req.get("hours", {})
        # a proof that states fewer hours than asked is there but too short: say that, not that it is missing
        short = [e for e in lacking if least is not None and e in stated and stated[e] < least]
        said = [say(NAME, lang, "short_hours", item=law.label(e, lang), hours=number(stated[e], lang),
                    minimum=number(least, lang)) for e in short]
        late = {e: d for e, d in req.get("taken_too_late", {}).items() if e in lacking and e not in short}
        said += [say(NAME, lang, "taken_too_late", item=law.label(e, lang), taken=d, before=req["taken_before"])
                 for e, d in late.items()]
        expired = {e: d for e, d in req.get("taken_expired", {}).items()
                   if e in lacking and e not in short and e not in late}
        said += [say(NAME, lang, "expired", item=law.label(e, lang), taken=d, until=req["valid_until"][e],
                     months=req.get("not_older_than_months")) for e, d in expired.items()]
        later = {e: d for e, d in req.get("taken_later", {}).items() if e in lacking and e not in short and e not in late}
        said += [say(NAME, lang, "dated_later", item=law.label(e, lang), taken=d) for e, d in later.items()]
        if req.get("renewal_overdue"):  # it stood in for the first report only: the renewal is due
            said += [say(NAME, lang, "dated_proof.renewal_due", item=law.label(e, lang), until=req["stands_in_until"],
                         provision=req["renewal_provision"]) for e in lacking if e not in late]
            lacking = [e for e in lacking if e in late]
        rest = [e for e in lacking if e not in short and e not in late and e not in expired and e not in later]
        if rest:
            named = _items(law, rest, lang) + _hours(least, lang) + _or_service(
                law, req.get("proven_by_service_as"), req.get("taken_before"), lang,
                bool(req.get("proven_by_any_service")))
            if req.get("taken_before") and not req.get("not_older_than_months"):
                said.insert(0, say(NAME, lang, "missing_before", before=req["taken_before"], items=named))
            else:
                said.insert(0, say(NAME, lang, "missing", months=req.get("not_older_than_months"), items=named))
        return "; ".join(said)

    def facts(self, req, p, lang):
        from crewkg.rules.kinds import say

        entry = req.get("by_service")
        if entry is not None:
            return say(NAME, lang, "by_service", role=entry["role"], start=entry["from"])
        return say(NAME, lang, "facts", items=value([e for e in p.exams if e in req["needed"]], lang))

    def summary(self, law, r, lang):
        from crewkg.rules.kinds import say

        named = _items(law, r.exams, lang) + _hours(r.min_hours, lang)
        if r.taken_before is not None and not r.max_months:
            # one cut-off day for the proof and the service: said once, after both
            named += _or_service(law, r.proven_by_service_as, None, lang, r.proven_by_any_service, undated=True)
            return say(NAME, lang, "summary_before", before=r.taken_before.isoformat(), items=named)
        named += _or_service(law, r.proven_by_service_as, r.taken_before.isoformat() if r.taken_before else None, lang,
                             r.proven_by_any_service)
        return say(NAME, lang, "summary", months=r.max_months, items=named)

    #: the export names the needed and held items as terms of the kb
    item_terms = "kb"
    based_on = nothing  # the proofs of the record: the export names the person
    items = Exam.items  # named like an exam's

    #: met on the step's date, without time of its own (the planner)
    takes_time = False
    obtained_on_the_day = False  # a replacement does not wait for a proof (it names a past employment or training)
    project = Exam.project  # taken like an exam: no time of its own
    held_meets = None  # no certificate meets it
    lapsed = None  # not asked by the planner: the rules' verdict on the step's projected record decides

    def assume(self, p, r, on):
        """Taken on the step's date, as the plan assumes."""
        p.exams = sorted(set(p.exams) | set(r.exams))
        for e in r.exams:
            p.exam_passed[e] = on
            p.exam_hours.pop(e, None)


def _dates(p, r, have, as_of: date) -> dict:
    """The days the record's proofs count until, and those there but not counting on the date: too old, or dated
    after it (said as such, not as missing)."""
    out = {}
    ends = {e: proof_last_day(p, e, r.max_months) for e in r.exams if e in p.exams}
    dated = {e: d_.isoformat() for e, d_ in ends.items() if d_ is not None}
    if dated:
        out["valid_until"] = dated
    taken = {e: p.exam_passed[e] for e in r.exams if e in p.exams and e in p.exam_passed and e not in have}
    expired = {e: d_.isoformat() for e, d_ in taken.items() if ends.get(e) is not None and ends[e] < as_of}
    later = {e: d_.isoformat() for e, d_ in taken.items() if d_ > as_of}
    if expired:
        out["taken_expired"] = expired
    if later:
        out["taken_later"] = later
    return out


def _hours(value, lang) -> str:
    from crewkg.rules.kinds import say

    if value is None:
        return ""
    return say(NAME, lang, "hours", hours=int(value) if float(value).is_integer() else value)


def _items(law, ids, lang):
    return ", ".join(law.label(e, lang) for e in ids)


def _or_service(law, role, before, lang, any_role: bool = False, undated: bool = False) -> str:
    """The service log's alternative to the proof, as the requirement names it (a role, or any role)."""
    from crewkg.rules.kinds import say

    key = "or_any_service" if any_role else "or_service"
    if any_role or role is not None:
        return say(NAME, lang, key + ("_undated" if undated else ""), role=law.label(role, lang) if role else "",
                   before=before)
    return ""
