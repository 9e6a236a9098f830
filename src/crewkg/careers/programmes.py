"""Checking a training programme design against the kb (`crewkg programme PROGRAMME.yaml`).

A training institution describes a programme: the role it trains for, its length in months, the Fahrzeit its
trainees serve within it and after it, and what its trainees bring on entry (age, work experience, vocational
training, sea time). crewkg builds the graduate this programme produces, asks the eligibility engine about them,
and reports which pathways the programme serves — the pathways with an approved-programme requirement for that role
(crew:ProgrammeRequirement) that the graduate satisfies — and, for every other such pathway, exactly what it lacks,
in the same needed/have/provision items as `crewkg check`. A programme ends on the day that completes its months as
`check` counts a dated programme's (`law.crediting.programme_end`). A minimum age is the applicant's (§ 12 Z 1
lit. a: "das 18. Lebensjahr vollendet hat"), not the programme's: a pathway the graduate meets but for their age is
served, and the answer dates when the youngest entrant, entering on the evaluation date, completes the programme and
reaches that age (`entrant_age`).

Documents (medical fitness, Sprechfunkzeugnis) belong to the trainee, not to the programme: the graduate is assumed to
hold them and the report lists them as what graduates must also hold. Fahrzeit served in a programme is entered in
the lowest deck role of the kb, so it counts where any Fahrzeit counts but not as days in a role the trainee does
not hold yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError, Phrase
from crewkg.law.statute import Law
from crewkg.messages.sections import sections
from crewkg.records.persons import ID_MAX, ID_RE, SEA_KEYS, person_from_mapping
from crewkg.records.reading import MAX_NUMBER, read_mapping
from crewkg.rules.kinds import KindRole, with_role

PROGRAMME_KEYS = {"id", "title", "for", "months", "sailing_days", "sailing_days_after", "entry"}
ENTRY_KEYS = {"min_age", "professional_experience_years", "vocational_training_years", "sea_days"}


@dataclass
class ProgrammeDesign:
    id: str
    role: str
    months: int
    sailing_days: int
    sailing_days_after: int
    title: str = ""
    entry: dict[str, Any] = field(default_factory=dict)
    source: str = ""


def _count(value: Any, source: str, fld: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(source, fld, "whole_of", value, unit=Phrase("error.unit." + what))
    if value > MAX_NUMBER:
        raise InputError(source, fld, "at_most", value, max=MAX_NUMBER)
    return value


def _number(value: Any, source: str, fld: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise InputError(source, fld, "number_of_years", value)
    if value > MAX_NUMBER:
        raise InputError(source, fld, "at_most", value, max=MAX_NUMBER)
    return value


def programme_from_mapping(data: Any, law: Law, source: str) -> ProgrammeDesign:
    """Schema check of a programme design; every error names file, field and what was expected."""
    if not isinstance(data, dict):
        raise InputError(source, "", "keys_mapping", type(data).__name__, keys=", ".join(sorted(PROGRAMME_KEYS)))
    for k in data:
        if k not in PROGRAMME_KEYS:
            raise InputError(source, str(k), "known_key", k, keys=sorted(PROGRAMME_KEYS), near="")
    pid = data.get("id")
    if not isinstance(pid, str) or not ID_RE.match(pid):
        raise InputError(source, "id", "id", pid, most=ID_MAX)
    roles = law.ids_of("DeckCrewRole")
    if data.get("for") not in roles:
        raise InputError(source, "for", "programme_role", data.get("for"), ids=roles, near="")
    if "months" not in data:
        raise InputError(source, "months", "programme_months")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise InputError(source, "title", "text", title)
    entry = data.get("entry") or {}
    if not isinstance(entry, dict):
        raise InputError(source, "entry", "entry_mapping", entry)
    clean: dict[str, Any] = {}
    for k, v in entry.items():
        if k not in ENTRY_KEYS:
            raise InputError(source, f"entry.{k}", "known_key", k, keys=sorted(ENTRY_KEYS), near="")
        if k == "sea_days":
            if not isinstance(v, dict):
                raise InputError(source, "entry.sea_days", "sea_mapping", v, keys=sorted(SEA_KEYS))
            for cap, days in v.items():
                if cap not in SEA_KEYS:
                    raise InputError(source, f"entry.sea_days.{cap}", "one_of", cap, ids=sorted(SEA_KEYS), near="")
                _count(days, source, f"entry.sea_days.{cap}", "days")
            clean[k] = dict(v)
        elif k == "min_age":
            clean[k] = _count(v, source, "entry.min_age", "years")
        else:
            clean[k] = _number(v, source, f"entry.{k}")
    return ProgrammeDesign(
        id=pid, role=data["for"], months=_count(data["months"], source, "months", "months"),
        sailing_days=_count(data.get("sailing_days", 0), source, "sailing_days", "days"),
        sailing_days_after=_count(data.get("sailing_days_after", 0), source, "sailing_days_after", "days"),
        title=title, entry=clean, source=source)


def load_programme(path: Path, law: Law) -> ProgrammeDesign:
    if not path.is_file():
        raise InputError(str(path), "", "programme_file")
    return programme_from_mapping(read_mapping(path), law, str(path))


def creditable_within(design: ProgrammeDesign, as_of: date) -> dict[str, Any]:
    """The most days of Fahrzeit the programme's months can credit to an entrant entering on `as_of`: every day from
    entry to completion sailed, credited under the kb's inland crediting limit in force then (§ 6 Abs. 4 SchBV: at
    most so many days in any so many consecutive days). A design may not give its trainees more."""
    from crewkg.law.crediting import AREAS, credited_days, limit_on, programme_end

    lim = limit_on(AREAS["inland"], as_of)
    try:
        end = programme_end(as_of, design.months)
    except (ValueError, OverflowError):
        end = date.max
    length = (end - as_of).days + 1  # entry to completion, both counted
    # every day sailed, credited chronologically, credits the same days in each period: count one period's and the rest
    whole, rest = divmod(length, lim.period)
    most = whole * len(credited_days(list(range(lim.period)), lim.days, lim.period)) + len(
        credited_days(list(range(rest)), lim.days, lim.period))
    return {"days": design.sailing_days, "at_most": most, "from": as_of.isoformat(), "to": end.isoformat(),
            "provision": lim.citation}


def graduate_record(design: ProgrammeDesign, law: Law, as_of: date) -> dict[str, Any]:
    """The person record of someone completing the programme on `as_of` (having entered on the day after the same
    day `months` earlier, aged entry.min_age): entry facts, the programme, its Fahrzeit, and the documents every
    candidate needs anyway."""
    from datetime import timedelta

    from crewkg.careers.planning import add_months, role_depths

    depths = role_depths(law)
    lowest = min(depths, key=lambda r: (depths[r], law.ids_of("DeckCrewRole").index(r)))
    rec: dict[str, Any] = {
        "id": design.id,
        "medical_fitness": True,
        "radio_certificate": True,
        "programmes": [{"for": design.role, "months": design.months, "sailing_days": design.sailing_days,
                        "sailing_days_after": design.sailing_days_after}],
    }
    days = design.sailing_days + design.sailing_days_after
    if days:
        rec["sailing_days"] = {lowest: days}
    if "min_age" in design.entry:  # youngest entrant, completing the programme today
        back = 12 * design.entry["min_age"] + design.months
        if back >= 12 * (as_of.year - 1) + as_of.month - 1:  # born before the calendar begins
            raise InputError(design.source, "months", "programme_span", design.months, min_age=design.entry["min_age"])
        after = as_of + timedelta(days=1) if as_of < date.max else as_of  # 31 Dec 9999 has no day after
        rec["birth_date"] = add_months(after, -back).isoformat()
    for k in ("professional_experience_years", "vocational_training_years", "sea_days"):
        if k in design.entry:
            rec[k] = design.entry[k]
    return rec


def entrant_age(design: ProgrammeDesign, item: dict[str, Any], as_of: date) -> dict[str, Any]:
    """A minimum age the graduate has not reached on completion, dated for the youngest entrant entering on `as_of`
    aged entry.min_age: the day they complete the programme (`completed_on`, `law.crediting.programme_end`) and the
    day they are of that age (`reached_on`), before which they cannot apply (Fahrzeit after the programme may ask
    more). `have` is the age on completion, which does not depend on the day of entry."""
    from crewkg.careers.planning import BeyondCalendar, add_months
    from crewkg.law.calendar import birthday
    from crewkg.law.crediting import programme_end

    if item.get("have") is None or "min_age" not in design.entry:
        return item
    try:
        born = add_months(as_of, -12 * design.entry["min_age"])
        return item | {"min_age": design.entry["min_age"], "entry_on": as_of.isoformat(),
                       "completed_on": programme_end(as_of, design.months).isoformat(),
                       "reached_on": birthday(born, item["needed"]).isoformat()}
    except (BeyondCalendar, ValueError, OverflowError):  # after 31 December 9999: no day to name
        return {k: v for k, v in item.items() if k != "reached_on"} | {"min_age": design.entry["min_age"]}


def _has_programme_for(law: Law, rids: tuple[str, ...], role: str) -> bool:
    for rid in rids:
        r = law.requirements[rid]
        if (r.kind == with_role(KindRole.PROGRAMME).name and r.programme_for == role) \
                or _has_programme_for(law, r.children, role):
            return True
    return False


def check_programme(law: Law, design: ProgrammeDesign, as_of: date, lang: str = "de") -> dict[str, Any]:
    """Which pathways the programme serves and, for the others that accept a programme for its role, what it lacks;
    on each, the minimum ages its youngest graduates reach only after completion (`age_waits`). Days within the
    programme beyond what its months can credit (`creditable_within`) are not counted (`credit_cap`)."""
    import dataclasses

    from crewkg.answers.eligibility import check

    cap = creditable_within(design, as_of)
    capped = dataclasses.replace(design, sailing_days=min(design.sailing_days, cap["at_most"]))
    graduate = person_from_mapping(graduate_record(capped, law, as_of), law, as_of, design.source or design.id)
    answer = check(law, [graduate], as_of, lang)[0]
    by_id = {w["id"]: w for c in answer["certificates"] for w in c["pathways"]}
    candidates = [w for w in sorted(law.pathways.values(), key=lambda w: (law.certificates[w.certificate].order, w.order))
                  if _has_programme_for(law, w.requirements, design.role) and w.id in by_id]
    pathways, docs, unchecked = [], [], []
    document, age = with_role(KindRole.DOCUMENT).name, with_role(KindRole.AGE).name
    for w in candidates:
        entry = by_id[w.id]
        missing = [m for m in entry["missing"] if m["kind"] != document]
        ages = [m for m in missing if m["kind"] == age and m.get("have") is None]
        if ages:
            unchecked += [{"provision": m["provision"], "text": m["text"], "reason": TEXT[lang]["no_min_age"]} for m in ages]
            missing = [m for m in missing if m not in ages]
        waits = [entrant_age(design, m, as_of) for m in missing if m["kind"] == age]
        missing = [m for m in missing if m["kind"] != age]
        served = not missing
        pathways.append({"id": w.id, "provision": entry["provision"], "label": entry["label"], "certificate": w.certificate,
                         "served": served, "missing": missing, "age_waits": waits})
        if served:
            docs += [r for r in entry["requirements"] if r["kind"] == document and r["text"] not in {d["text"] for d in docs}]
    return {
        "programme": design.id, "title": design.title, "for": design.role, "months": design.months,
        "sailing_days": design.sailing_days, "sailing_days_after": design.sailing_days_after, "entry": design.entry,
        "as_of": as_of.isoformat(),
        **({"credit_cap": cap} if design.sailing_days > cap["at_most"] else {}),
        "serves": [p["provision"] for p in pathways if p["served"]],
        "pathways": pathways,
        "graduates_must_hold": [{"text": d["text"], "provision": d["provision"]} for d in docs],
        "not_checked": unchecked,
        "covered": bool(candidates),
        **({} if candidates else {"reason": TEXT[lang]["no_pathway"].format(role=law.label(design.role, lang))}),
    }


#: the programmes texts, from the message catalogue (section "careers", keys careers.programme.*)
TEXT = sections("careers.programme.")


def report_lines(law: Law, result: dict[str, Any], lang: str = "de") -> list[str]:
    """The text report: served pathways first, then what every other candidate pathway lacks."""
    from crewkg.rules.kinds import missing_sentence

    t = TEXT[lang]
    lines = [t["head"].format(id=result["programme"], role=law.label(result["for"], lang), months=result["months"],
                              within=result["sailing_days"], after=result["sailing_days_after"])]
    if not result["covered"]:
        return lines + [t["no_pathway"].format(role=law.label(result["for"], lang))]
    if "credit_cap" in result:
        cap = result["credit_cap"]
        lines.append(t["capped"].format(days=cap["days"], months=result["months"], most=cap["at_most"],
                                        start=cap["from"], prov=cap["provision"]))
    if not result["serves"]:
        lines.append(t["none"])
    for p in result["pathways"]:
        if p["served"]:
            lines.append(t["serves"].format(prov=p["provision"], label=p["label"]))
            lines += ["    " + _age_sentence(m, lang) for m in p["age_waits"]]
    for p in result["pathways"]:
        if not p["served"]:
            lines.append(t["lacks"].format(prov=p["provision"], label=p["label"]))
            lines += ["    " + missing_sentence(law, m, lang) for m in p["missing"]]
            # an age is the applicant's, not a lack of the programme: marked so (no day to apply: none is possible)
            lines += ["    " + t["age_note"].format(text=_age_sentence(m, lang, served=False)) for m in p["age_waits"]]
    for u in result["not_checked"]:
        lines.append(t["unchecked"].format(text=u["text"], prov=u["provision"], reason=t["no_min_age"]))
    if result["graduates_must_hold"]:
        lines.append(t["hold"].format(items=", ".join(f"{d['text']} ({d['provision']})" for d in result["graduates_must_hold"])))
    return lines


def _age_sentence(m: dict[str, Any], lang: str, served: bool = True) -> str:
    """A minimum age the youngest graduates reach only after completion: under a served pathway, for an entrant
    entering on the evaluation date, the day of completion and the day before which they cannot apply; else (or
    without a day to name) the age on completion."""
    t = TEXT[lang]
    if served and m.get("reached_on"):
        return t["age_wait"].format(entry=m["entry_on"], min_age=m["min_age"], end=m["completed_on"], needed=m["needed"],
                                    on=m["reached_on"], prov=m["provision"])
    return t["age"].format(needed=m["needed"], have=m["have"], prov=m["provision"])
