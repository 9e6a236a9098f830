"""How long what a person holds counts: the one home of a held certificate's validity and of the medical proof.

A held certificate counts on a day when it was issued by then and none of these ends it (all kb data):
- an issue date after the regulation it is issued under ended (crew:inForceUntil of its regulation);
- a last day the kb gives the certificate (crew:validUntil, e.g. § 47 SchBV for SchBesV 2004 qualifications);
- a validity period from its issue date (crew:CertificateValidityRule, crew:validityYears): it ends with the end of
  the anniversary, as every period counted from a day ends (§ 902 Abs. 2 ABGB, `law.calendar.months_later`, the
  month's last day where it has no such day; `ValidityRule.last_day`); a certificate held without an issue date has
  no period to count;
- an overdue proof of medical fitness (crew:MedicalExaminationSchedule of the regulation in force on the day, for the
  certificates it names and those a reading extends it to, crew:Reading crew:readingOf): from the birthday
  completing a step's age, the proof counts up to and including the same day the step's months after the
  examination (`months_later` again), during the step's first grace months an older proof still counts, and after
  them, where the step asks a proof made after its birthday (crew:renewedAfterBirthday: 'nach Vollendung des …
  Lebensjahres … nachzuweisen'), a proof examined before it no longer does.

Where the kb records a reading of these rules, `other_verdicts` says what the other reading would decide on the date.

The same medical reading decides whether the record proves medical fitness for a certificate (the Document kind).
A certificate's own last days (the fixed one and those of its validity periods, `own_ends`) are read here for every
answer that shows them (the timeline). Validity lives here, in the rules layer, and not in the law's: it reads the
person's record (issue dates, birth date, the medical proof), which lies above the law.
No year, month or age is written here: every number is read from the kb (`Law.validity_rules`,
`Law.medical_schedules`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from crewkg.law.calendar import birthday, completed_on, months_later
from crewkg.law.statute import Law, MedicalSchedule, ScheduleStep, ValidityRule
from crewkg.records.persons import Person

DAY = timedelta(days=1)


@dataclass(frozen=True)
class Lapse:
    """Why a held certificate no longer counts on the evaluation date."""

    certificate: str
    #: end_of_validity (crew:validUntil) | validity_period (crew:validityYears) | medical_overdue (the schedule) |
    #: issued_after_regulation (dated after the regulation it is issued under ended) | issued_before_regulation (dated
    #: before the first day its regulation issues it, crew:certificatesIssuedFrom) | outside_regulation (a date the
    #: regulation it counts under, crew:countsUnder, does not govern)
    reason: str
    provision: str
    #: the first day of the unbroken spell, up to the evaluation date, in which it does not count
    since: date
    #: the last day it counted before that spell (None where it never counted)
    last_day: date | None
    issued: date | None = None
    years: int | None = None
    #: medical_overdue: the step that applies on the evaluation date and the examination the record gives
    step: ScheduleStep | None = None
    examined: date | None = None
    #: medical_overdue under a schedule a reading extends to this certificate (crew:Reading, crew:readingOf): the
    #: reading's id (a qualification kept valid by § 47 SchBV under § 22 Abs. 1 SchBV)
    reading: str | None = None


# ------------------------------------------------------------------------------------------------------------
# The medical proof


def schedule_on(law: Law, day: date) -> MedicalSchedule | None:
    """The medical examination schedule of the regulation in force on `day`."""
    for s in law.medical_schedules.values():
        reg = law.regulations.get(s.regulation or "")
        if reg is not None and reg.in_force_on(day):
            return s
    return None


def step_on(schedule: MedicalSchedule | None, birth: date | None, day: date) -> ScheduleStep | None:
    """The step that applies on `day`: the one with the highest age the person has completed (None before the first,
    or without a birth date)."""
    if schedule is None or birth is None:
        return None
    found = None
    for st in schedule.steps:
        if birthday(birth, st.from_age) <= day:
            found = st
    return found


#: how many renewal birthdays of a yearly step are looked at (more than a working life after the step's age)
_RENEWALS = 40


def _due(start: date, st: ScheduleStep) -> date:
    """The first day after the step's grace months from the birthday `start` (the birthday itself without any)."""
    return months_later(start, st.grace) + DAY if st.grace else start


def _required_from(birth: date, st: ScheduleStep) -> date:
    """The first day the step asks a proof of its own age: its birthday, or the day after its grace months."""
    return _due(birthday(birth, st.from_age), st)


def first_renewal_due(law: Law, schedule: str, birth: date | None) -> date | None:
    """The first day a schedule asks its holder's first renewal (its first step's birthday, after the step's grace
    months): a proof that stands in for the first report only (crew:untilRenewalOf, § 18 Abs. 2 SchBesV 2004) no
    longer counts from it. None without a birth date or a schedule of steps."""
    s = law.medical_schedules.get(schedule)
    if s is None or birth is None or not s.steps:
        return None
    return _required_from(birth, min(s.steps, key=lambda x: x.from_age))


def _renewal_birthdays(birth: date, st: ScheduleStep) -> list[tuple[int, date]]:
    """(age, birthday) of each renewal the step asks: the birthday that starts it and, with crew:renewalEveryYears,
    every birthday that many years after it ('und danach jährlich')."""
    if not st.every_years:
        return [(st.from_age, birthday(birth, st.from_age))]
    return [(st.from_age + k * st.every_years, birthday(birth, st.from_age + k * st.every_years))
            for k in range(_RENEWALS)]


def _renewal_on(birth: date, st: ScheduleStep, day: date) -> tuple[int, date, date] | None:
    """The latest renewal whose months are over on `day`: (age, birthday, the first day after its months)."""
    found = None
    for age, start in _renewal_birthdays(birth, st):
        due = _due(start, st)
        if due > day:
            break
        found = (age, start, due)
    return found


def renewal_missed(p: Person, st: ScheduleStep | None, day: date) -> tuple[int, date, date] | None:
    """(the age, the birthday, the last day of the renewal) where the proof is overdue on `day` because it was not
    renewed after that birthday (crew:renewedAfterBirthday: a proof examined before it is no renewal; with
    crew:renewalEveryYears the latest such birthday whose months are over); None where that is not the reason."""
    if st is None or not st.renewed_after_birthday or p.birth_date is None or p.medical_examined is None:
        return None
    due = _renewal_on(p.birth_date, st, day)
    if due is None:
        return None
    age, start, first_late = due
    # the last day a renewal is in time: the end of the grace months; without any, the birthday itself
    return (age, start, max(start, first_late - DAY)) if p.medical_examined < start else None


def medical_current(p: Person, law: Law, day: date, other: bool = False) -> bool:
    """Whether the record proves medical fitness on `day`: stated, examined by then, not past the end it states, and
    not older than the schedule in force lets it be. A proof without any date is taken as stated. `other`: under the
    other reading of a step that asks a proof made after its birthday (crew:renewedAfterBirthday, the kb's
    crew:Reading of it): any proof counts its months from its examination."""
    if not p.medical_fitness:
        return False
    if p.medical_examined is not None and p.medical_examined > day:
        return False
    if p.medical_valid_until is not None and p.medical_valid_until < day:
        return False
    st = step_on(schedule_on(law, day), p.birth_date, day)
    if st is None or p.medical_examined is None or p.birth_date is None:
        return True
    if day < _required_from(p.birth_date, st):
        return True
    if not other and renewal_missed(p, st, day) is not None:
        return False  # the renewal the step asks is one after its (latest) birthday
    return day <= months_later(p.medical_examined, st.months)


def _change_days(p: Person, law: Law) -> set[date]:
    """Every day on which `medical_current` can change."""
    found: set[date] = set()
    if p.medical_examined:
        found.add(p.medical_examined)
    if p.medical_valid_until:
        found.add(p.medical_valid_until + DAY)
    for s in law.medical_schedules.values():
        reg = law.regulations.get(s.regulation or "")
        if reg is not None:
            found.add(reg.in_force_from)
            if reg.in_force_until is not None:
                found.add(reg.in_force_until + DAY)
        if p.birth_date is None:
            continue
        for st in s.steps:
            for _, start in _renewal_birthdays(p.birth_date, st):
                found |= {start, _due(start, st)}
            if p.medical_examined:
                found.add(months_later(p.medical_examined, st.months) + DAY)
    return found


def medical_days(p: Person, law: Law) -> set[date]:
    """The days on which the medical verdict of a record can change (for the event dates of `eligible_since`)."""
    return _change_days(p, law)


def _spell_start(bad, days: set[date], on: date) -> date | None:
    """The first day of the unbroken spell up to `on` in which `bad` holds; `days` are all days it can change on.
    None when it held on every day before the first of them."""
    since: date | None = on
    for d in sorted((d for d in days if d <= on), reverse=True):
        if not bad(d):
            return since
        since = d
    return None if since is not None and bad(since - DAY) else since


def medical_overdue_since(p: Person, law: Law, on: date) -> date | None:
    """The first day of the spell, up to `on`, in which the record proves no medical fitness (None: since always)."""
    return _spell_start(lambda d: not medical_current(p, law, d), _change_days(p, law), on)


@dataclass(frozen=True)
class Overdue:
    """How the spell of an overdue proof began: its first day, the schedule in force on that day (an earlier
    regulation's, where the spell began under it) and its step, and the renewal then missed (age, birthday, last day)
    where that was the reason. An answer says the date with the law that set it, not with the law of the evaluation
    date."""

    since: date
    schedule: MedicalSchedule | None
    step: ScheduleStep | None
    renewal: tuple[int, date, date] | None


def overdue_start(p: Person, law: Law, on: date) -> Overdue | None:
    """Why the record proves no medical fitness on `on`, as of the first day of that spell (None: never proved, or
    proved on `on`)."""
    since = medical_overdue_since(p, law, on)
    if since is None or medical_current(p, law, on):
        return None
    schedule = schedule_on(law, since)
    step = step_on(schedule, p.birth_date, since)
    return Overdue(since, schedule, step, renewal_missed(p, step, since))


def renewal_fields(law: Law, p: Person, step: ScheduleStep | None, schedule: MedicalSchedule | None,
                   ov: Overdue | None, as_of: date) -> dict:
    """The renewal an overdue proof lacks, with the schedule that asked it: the one missed when the spell began, else
    the latest one the step in force asks (examined before its birthday: no renewal after it)."""
    if ov is not None and ov.renewal is not None and ov.schedule is not None:
        missed, asked_by = ov.renewal, ov.schedule
    else:
        missed, asked_by = renewal_missed(p, step, as_of), schedule
    if missed is None or asked_by is None:
        return {}
    return {"renewal_age": missed[0], "birthday": missed[1].isoformat(), "renew_by": missed[2].isoformat(),
            "renewal_schedule": law.citation(asked_by.provision)}


def medical_last_day(p: Person, law: Law, on: date) -> date | None:
    """The last day the proof held on `on` counts, looking ahead through the schedule's later steps; None when no
    end follows from the record and the kb. Remembered per law by the record's medical facts and the day: an answer
    asks it for every requirement of a medical proof (32 times a check), and it walks every renewal birthday."""
    key = (p.medical_fitness, p.medical_examined, p.medical_valid_until, p.birth_date, on)
    return law.remembered_for("_medical_last_day", key, lambda: _medical_last_day(p, law, on), bound=_MEMO)


#: how many answers of `medical_last_day` a law remembers (a register's persons each have their own)
_MEMO = 10_000


def _medical_last_day(p: Person, law: Law, on: date) -> date | None:
    if not medical_current(p, law, on):
        return None
    ahead = sorted(d for d in _change_days(p, law) if d > on)
    for d in ahead:
        if not medical_current(p, law, d):
            return d - DAY
    return None


# ------------------------------------------------------------------------------------------------------------
# Held certificates


@dataclass(frozen=True)
class End:
    """A last day a certificate's own validity gives it, and the provision that sets it."""

    last_day: date
    provision: str
    #: end_of_validity (a fixed last day, crew:validUntil) | validity_period (years from the issue date, crew:validityYears)
    reason: str
    years: int | None = None


def validity_periods(law: Law, cid: str) -> list[ValidityRule]:
    """The validity periods the kb gives the certificate (crew:CertificateValidityRule), in the kb's order."""
    return [r for r in law.validity_rules.values() if cid in r.certificates]


def own_ends(law: Law, cid: str, issued: date | None, known_on: date | None = None) -> list[End]:
    """The last days the certificate's own validity gives it: the fixed one the kb gives it (crew:validUntil, e.g.
    § 47 SchBV) and the end of each validity period from its issue date (none without an issue date). With
    `known_on`, a fixed end only from the day the provision setting it is law (§ 47 SchBV says nothing of 2015)."""
    out: list[End] = []
    c = law.certificates.get(cid)
    if c is not None and c.valid_until is not None:
        provision = c.validity_provision or c.provision
        if known_on is None or law.enacted_by(provision, known_on):
            out.append(End(c.valid_until, provision, "end_of_validity"))
    if issued is not None:
        out += [End(r.last_day(issued), r.provision, "validity_period", r.years) for r in validity_periods(law, cid)]
    return out


def extended(law: Law, schedule: str) -> dict[str, str]:
    """The certificates a reading extends the schedule to (crew:Reading crew:readingOf it, crew:appliesToCertificate),
    each with the reading's id: § 22 Abs. 1 SchBV read for the qualifications § 47 keeps valid (cached per law)."""
    def make() -> dict[str, str]:
        from crewkg.law.readings import extended_to

        return extended_to(schedule)

    return law.remembered_for("_extended", schedule, make)


def _governed(law: Law, cid: str, day: date) -> MedicalSchedule | None:
    s = schedule_on(law, day)
    return s if s is not None and (cid in s.certificates or cid in extended(law, s.id)) else None


def governing_reading(law: Law, cid: str, day: date) -> str | None:
    """The reading that extends the schedule in force on `day` to the certificate, if that is why it governs it."""
    s = schedule_on(law, day)
    return extended(law, s.id).get(cid) if s is not None and cid not in s.certificates else None


def lapses(p: Person, law: Law, cid: str, on: date) -> list[Lapse]:
    """Why the held certificate `cid` does not count on `on` (empty: it counts, or it is not issued yet)."""
    issued = p.certificate_issued.get(cid)
    if issued is not None and issued > on:
        return []
    out: list[Lapse] = []
    c = law.certificates.get(cid)
    reg = law.regulations.get(c.regulation or "") if c is not None else None
    if issued is not None and reg is not None and reg.in_force_until is not None and issued > reg.in_force_until:
        # dated after the regulation it is issued under ended: no qualification of it (§ 47 Abs. 2 SchBV keeps only
        # those entered before the SchBV took effect)
        out.append(Lapse(cid, "issued_after_regulation", c.validity_provision or c.provision, issued, None, issued))
    if issued is not None and reg is not None and reg.certificates_issued_from is not None \
            and issued < reg.certificates_issued_from:
        out.append(Lapse(cid, "issued_before_regulation", c.provision, issued, None, issued))
    under = law.regulations.get(c.counts_under or "") if c is not None else None
    if under is not None and not under.in_force_on(on):
        # a recognition the regulation in force on the date does not provide (a third-country certificate under the
        # SchBesV 2004): no role that day, whenever it was issued
        out.append(Lapse(cid, "outside_regulation", c.provision, issued or on, None, issued))
    for end in own_ends(law, cid, issued):
        if on > end.last_day:
            out.append(Lapse(cid, end.reason, end.provision, end.last_day + DAY, end.last_day, issued, end.years))
    s = _governed(law, cid, on)
    if s is not None and governing_reading(law, cid, on) in p.other_readings:
        s = None  # evaluated under the other reading: the schedule does not reach this certificate
    if s is not None and p.birth_date is not None:
        def bad(d: date) -> bool:
            g = _governed(law, cid, d)
            if g is None or step_on(g, p.birth_date, d) is None or medical_current(p, law, d):
                return False
            # nothing is overdue before the first renewal is (§ 5 Abs. 3 SchBesV: 'spätestens innerhalb von drei
            # Monaten'): a record without a report, or with one that has ended, no earlier than one with an old report
            return d >= _required_from(p.birth_date, min(g.steps, key=lambda x: x.from_age))

        st = step_on(s, p.birth_date, on)
        if st is not None and bad(on):
            since = _spell_start(bad, _change_days(p, law), on) or birthday(p.birth_date, st.from_age)
            if issued is not None and since <= issued:  # overdue when it was issued: it never counted
                since = issued
            last = since - DAY if issued is None or since > issued else None
            out.append(Lapse(cid, "medical_overdue", s.provision, since, last, issued, step=st,
                             examined=p.medical_examined, reading=governing_reading(law, cid, on)))
    return out


def counts(p: Person, law: Law, cid: str, on: date) -> bool:
    """Whether a certificate the record holds counts on `on`: issued by then and not ended (see `lapses`)."""
    issued = p.certificate_issued.get(cid)
    return (issued is None or issued <= on) and not lapses(p, law, cid, on)


def kept_by_reading(p: Person, law: Law, on: date) -> list[str]:
    """The certificates the record holds that fill no role on `on` only because a reading extends the schedule in
    force to them (§ 22 Abs. 1 SchBV for a qualification § 47 keeps valid): still valid, they are held for what asks
    the qualification itself (its replacement, which asks a proof of fitness of its own), not for a role."""
    out = []
    for cid in p.certificates:
        if governing_reading(law, cid, on) is None:  # no reading reaches it on the date: asked of every record
            continue
        found = lapses(p, law, cid, on)
        if found and all(x.reason == "medical_overdue" and x.reading is not None for x in found):
            out.append(cid)
    return out


def all_lapses(p: Person, law: Law, on: date) -> list[Lapse]:
    """Every reason a certificate the record holds does not count on `on`, in the record's order."""
    return [x for cid in p.certificates for x in lapses(p, law, cid, on)]


def certificate_days(p: Person, law: Law) -> set[date]:
    """The days on which a held certificate can start or stop counting (for the event dates of `eligible_since`)."""
    found: set[date] = set(medical_days(p, law))
    for cid in p.certificates:
        issued = p.certificate_issued.get(cid)
        if issued is not None:
            found.add(issued)
        found |= {end.last_day + DAY for end in own_ends(law, cid, issued)}
    return found


# ------------------------------------------------------------------------------------------------------------
# What a record holds on a day: the certificates, exams, documents and dated proofs that count then (asked by the
# requirement kinds, the roster check, the planner and the timeline alike)


def held(p: Person, as_of: date, law: Law | None = None) -> list[str]:
    """The certificates held on the evaluation date: a dated one from the day it was issued, as long as the kb lets
    it count (crew:validUntil, e.g. § 47 SchBV for SchBesV 2004 qualifications; a validity period from the issue date,
    § 22 Abs. 2, 3 SchBV; the holder's medical proof not overdue, § 22 Abs. 1 SchBV): `counts`."""
    if law is None:
        from crewkg.law.statute import load_law

        law = load_law()
    return [c for c in p.certificates if counts(p, law, c, as_of)]


def passed(p: Person, as_of: date) -> list[str]:
    """The exams passed by the evaluation date (a dated exam counts from the day it was passed)."""
    return [e for e in p.exams if e not in p.exam_passed or p.exam_passed[e] <= as_of]


def proof_last_day(p: Person, proof: str, months: int | None) -> date | None:
    """The last day a dated proof (an exam of the record taken on a day) counts when the law asks it to be no older
    than `months` months: the same day that many months on; None for an undated proof or no such limit."""
    taken = p.exam_passed.get(proof)
    return months_later(taken, months) if taken is not None and months else None


#: document of the ontology -> the record field that proves it
DOCUMENT_FIELDS = {
    "MedicalFitness": "medical_fitness",
    "Sprechfunkzeugnis": "radio_certificate",
    "BasicSafetyTraining": "basic_safety_training",
    "ApprenticeshipContract": "apprenticeship_contract",
    "InlandNavigationTraining": "inland_training_days",
}
#: document of the ontology -> the record field that gives its length in days (a document that lasts)
DOCUMENT_DAYS_FIELDS = {"InlandNavigationTraining": "inland_training_days"}


def document_days(p: Person, doc: str) -> int:
    """The length in days of a document the record proves (0 when it gives none or the document has no length)."""
    return int(getattr(p, DOCUMENT_DAYS_FIELDS[doc], 0) or 0) if doc in DOCUMENT_DAYS_FIELDS else 0


def documents(p: Person, as_of: date, law: Law | None = None) -> dict[str, bool]:
    """Which documents of the ontology the record proves on the evaluation date: medical fitness as long as the
    proof counts (its stated end, and the examination schedule of the law in force: `medical_current`)."""
    if law is None:
        from crewkg.law.statute import load_law

        law = load_law()
    out = {doc: bool(getattr(p, name)) for doc, name in DOCUMENT_FIELDS.items()}
    out["MedicalFitness"] = medical_current(p, law, as_of)
    return out


# ------------------------------------------------------------------------------------------------------------
# The other reading of a doubtful provision (kb crew:Reading with crew:readingOf): what it would decide on the date,
# where that differs from the reading applied


@dataclass(frozen=True)
class OtherVerdict:
    """A held certificate the other reading of `reading` would decide otherwise on the date: whether it would count
    then (`counts`), and the last day it counts (counted) under that reading (None: no end follows)."""

    certificate: str
    reading: str
    counts: bool
    last_day: date | None
    provision: str


def _medical_last_day_other(p: Person, law: Law, on: date) -> date | None:
    """The last day the proof counts under the other reading of the steps (`medical_current(other=True)`)."""
    for d in sorted(d for d in _change_days(p, law) if d > on):
        if not medical_current(p, law, d, other=True):
            return d - DAY
    return None


def other_verdicts(p: Person, law: Law, on: date) -> list[OtherVerdict]:
    """For each certificate the record holds on `on`, what the other reading of a doubtful provision the kb records
    (crew:Reading, crew:readingOf) would decide where it decides otherwise: a qualification kept valid by § 47 SchBV
    that the schedule in force lapses only by the reading that extends it to it would count; a proof examined before
    the birthday that asks one after it would count its months; a validity period whose last day is today would
    have ended yesterday."""
    from crewkg.law.readings import reading_of

    out: list[OtherVerdict] = []
    for cid in p.certificates:
        issued = p.certificate_issued.get(cid)
        if issued is not None and issued > on:
            continue
        found = lapses(p, law, cid, on)
        own = [e.last_day for e in own_ends(law, cid, issued)]
        for x in found:
            rest = [y for y in found if y is not x]
            if x.reason != "medical_overdue" or rest:
                continue
            if x.reading is not None:  # the schedule reaches the certificate only by a reading
                out.append(OtherVerdict(cid, x.reading, True, min(own, default=None), x.provision))
            elif x.step is not None and (rd := reading_of(x.step.id)) is not None and medical_current(p, law, on, other=True):
                ends = [d for d in (_medical_last_day_other(p, law, on), *own) if d is not None]
                out.append(OtherVerdict(cid, rd.id, True, min(ends, default=None), x.provision))
        if found:
            continue
        for rule in validity_periods(law, cid):  # the period's last day is today: under the other reading it ended
            if issued is not None and rule.last_day(issued) == on and (rd := reading_of(rule.id)) is not None:
                out.append(OtherVerdict(cid, rd.id, False, completed_on(issued, years=rule.years) - DAY, rule.provision))
    return out
