"""A person's timeline (`crewkg timeline`): the credited days per scope over time, when each certificate was or
became issuable (every spell, from the record's dated evidence), the certificates held with their issue dates, the
medical fitness, and the fastest planned route ahead (careers.planning). How long a held certificate counts and until
when the medical proof counts follow from the kb (crew:CertificateValidityRule, crew:MedicalExaminationSchedule, read
by `crewkg.rules.validity`); a rule the kb names without its numbers is named by its provision as not covered, never
guessed.

The coming dates (the planned earliest date of each certificate not yet issuable, the last day a held certificate and
the medical proof count) are also given as an iCalendar file for a crew member's calendar (`ics`)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from crewkg.careers.routes import held_above
from crewkg.law.phases import PHASES
from crewkg.law.statute import Law
from crewkg.messages.sections import sections
from crewkg.records.persons import Person
from crewkg.rules.kinds import cited, missing_sentence
from crewkg.rules.validity import held as held_on

#: the timeline's texts, from the message catalogue (keys careers.timeline.*)
TEXT = sections("careers.timeline.")

_RULES_QUERY = """
PREFIX crew: <https://w3id.org/crewkg/onto#>
SELECT ?type ?reg ?cit WHERE {
  VALUES ?type { crew:CertificateValidityRule crew:MedicalExaminationSchedule }
  ?rule a ?type ; crew:inRegulation ?reg ; crew:provision ?p .
  ?p crew:citation ?cit .
  FILTER NOT EXISTS { ?rule crew:validityYears ?years }
  FILTER NOT EXISTS { ?rule crew:hasScheduleStep ?step }
}"""


def uncovered_rules(law: Law) -> dict[tuple[str, str], str]:
    """(rule class, regulation id) -> the citations of the rule's provisions: the validity and medical-schedule rules
    the kb names but does not encode (no crew:validityYears, no crew:hasScheduleStep). Read from the kb graph with SPARQL, cached like the compiled law."""
    from crewkg.locations import kb_dir

    return _rules(Path(kb_dir()).resolve(), law.version)


@lru_cache(maxsize=4)
def _rules(kb: Path, version: str) -> dict[tuple[str, str], str]:
    from crewkg.law.cache import compiled

    return compiled("timeline-rules", version, __file__, lambda: _read_rules(kb), expect=dict)


def _read_rules(kb: Path) -> dict[tuple[str, str], str]:
    from crewkg.law.cache import load_graph
    from crewkg.law.namespaces import local
    from crewkg.locations import ontology_dir

    found: dict[tuple[str, str], list[str]] = {}
    for row in load_graph(kb, ontology_dir()).query(_RULES_QUERY):
        found.setdefault((local(row.type), local(row.reg)), []).append(str(row.cit))
    return {k: ", ".join(sorted(v)) for k, v in found.items()}


# ------------------------------------------------------------------------------------------------------------
# The timeline


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d is not None else None


def _scope_label(law: Law, key: str, p: Person, lang: str) -> str:
    t = TEXT[lang]
    kind, _, rest = key.partition(":")
    if kind == "role":
        return t["scope_role"].format(role=law.short_label(rest, lang))
    if kind == "sea" and ":before:" in rest:
        cap, _, i = rest.partition(":before:")
        g = p.programmes[int(i)]
        return t["scope_sea_before"].format(capacity=law.label(cap, lang), role=law.short_label(g.role, lang),
                                            start=_iso(g.start))
    if kind == "sea":
        return t["scope_sea"].format(capacity=law.label(rest, lang))
    if kind == "with-sea":  # inland and at sea together, each calendar day once (records.dated)
        return t["scope_with_sea"].format(capacity=law.label(rest, lang))
    if kind == "programme":
        i, _, phase = rest.partition(":")
        g = p.programmes[int(i)]
        return t["scope_programme"].format(role=law.short_label(g.role, lang), phase=law.label(phase, lang),
                                           start=_iso(g.start), end=_iso(g.end))
    return t["scope_any"]


def _scope_order(law: Law, key: str) -> tuple[int, int, str]:
    roles = law.ids_of("DeckCrewRole")
    kind, _, rest = key.partition(":")
    rank = {"role": 0, "any": 1, "sea": 2, "with-sea": 3, "programme": 4}.get(kind, 5)
    sub = roles.index(rest) if rest in roles else next((i for i, ph in enumerate(PHASES) if key.endswith(":" + ph.id)), 0)
    return rank, sub, key


def thresholds(law: Law) -> list[int]:
    """The day counts the kb's requirements name (the milestones of a credited-days line)."""
    from crewkg.rules.kinds import kind

    return sorted({r.minimum for r in law.requirements.values() if r.minimum and kind(r.kind).unit == "days"})


def _completes(law: Law, key: str, p: Person, as_of: date) -> str | None:
    """The last day of the dated programme of a programme scope when it is still running on the evaluation date and,
    completed, long enough for a programme requirement of the kb for its role (its days count for no requirement
    before then, records.dated), else None: a programme too short for every pathway never makes its days count."""
    from crewkg.records.dated import runs_to
    from crewkg.rules.kinds import KindRole, with_role

    kind, _, rest = key.partition(":")
    if kind != "programme":
        return None
    g = p.programmes[int(rest.partition(":")[0])]
    programme = with_role(KindRole.PROGRAMME).name
    least = min((r.minimum for r in law.requirements.values() if r.kind == programme and r.programme_for == g.role),
                default=None)
    return _iso(g.end) if least is not None and runs_to(g, g.role, least) else None


def _credited(law: Law, p: Person, scopes: dict[str, Any], as_of: date, lang: str) -> list[dict[str, Any]]:
    """Per scope of the log: the counts on the evaluation date, the runs of consecutive credited days (each with the
    credited count at its end) and the day each of the kb's day thresholds was reached."""
    from bisect import bisect_right

    from crewkg.rules.kinds import cap_provision

    day = as_of.toordinal()
    marks = thresholds(law)
    out = []
    for key in sorted(scopes, key=lambda k: _scope_order(law, k)):
        s = scopes[key]
        c = s.on(day)
        days = s.credited[: bisect_right(s.credited, day)]
        runs: list[dict[str, Any]] = []
        for i, d in enumerate(days):
            if runs and d == days[i - 1] + 1:
                runs[-1]["to"], runs[-1]["credited"] = date.fromordinal(d).isoformat(), i + 1
            else:
                runs.append({"from": date.fromordinal(d).isoformat(), "to": date.fromordinal(d).isoformat(), "credited": i + 1})
        waiting = [{"from": a, "to": b, "days": n} for a, b, n in _spans(s.not_validated[: bisect_right(s.not_validated, day)])]
        out.append({"scope": key, "label": _scope_label(law, key, p, lang), "credited": c.credited, "recorded": c.recorded,
                    "not_validated": c.not_validated, "not_validated_runs": waiting, "capped": c.capped, "runs": runs,
                    "completes": _completes(law, key, p, as_of),
                    "cap_provision": cap_provision("sea" if key.partition(":")[0] == "sea" else "inland", as_of),
                    "reached": {str(n): _iso(s.nth(n)) for n in marks if n <= len(days)}})
    return out


def _spans(days: list[int]) -> list[tuple[str, str, int]]:
    """Runs of consecutive days (sorted day numbers): first day, last day, number of days."""
    out: list[tuple[str, str, int]] = []
    start = 0
    for i, d in enumerate(days):
        if i + 1 == len(days) or days[i + 1] != d + 1:
            out.append((date.fromordinal(days[start]).isoformat(), date.fromordinal(d).isoformat(), i + 1 - start))
            start = i + 1
    return out


def spells(law: Law, p: Person, as_of: date, scopes: dict[str, Any]) -> dict[str, list[list[str | None]]]:
    """Every spell in which each certificate of the regulation in force was issuable, up to the evaluation date:
    [first day, last day] (last day None: still issuable on the evaluation date). The program is asked once, in one
    batch, on every date an input of the record can change (answers.eligibility.event_dates); between two of them
    its verdict is constant."""
    import dataclasses

    from crewkg.answers.eligibility import event_dates
    from crewkg.records.dated import at
    from crewkg.rules.eligibility import eligible_among

    reg = law.regulation_on(as_of)
    if reg is None or not p.dated:
        return {}
    dates = event_dates(law, p, scopes, reg.in_force_from, as_of)
    records = [(dataclasses.replace(at(p, law, on, scopes), id=f"{p.id}@{i}"), on) for i, on in enumerate(dates)]
    wanted = [c for c in law.certificates_in_order() if c.regulation == reg.id and c.pathways]
    found = eligible_among(records, law, {c.id for c in wanted})
    out: dict[str, list[list[str | None]]] = {}
    for c in wanted:
        runs: list[list[str | None]] = []
        for i, on in enumerate(dates):
            ok = (f"{p.id}@{i}", c.id) in found
            if ok and (not runs or runs[-1][1] is not None):
                runs.append([on.isoformat(), None])
            elif not ok and runs and runs[-1][1] is None:
                runs[-1][1] = (on - timedelta(days=1)).isoformat()
        if runs:
            out[c.id] = runs
    return out


def _plans(law: Law, p: Person, answer: dict[str, Any], as_of: date, pace, lang: str,
           above: dict[str, str | None], every: bool = True) -> tuple[dict[str, Any], str | None, dict]:
    """The earliest planned date of every certificate not yet issuable, not held and not below one held (its fastest
    route), and the fastest route to the certificate of the highest deck role, from one planner (routes share their
    prefixes). Without `every`, only that route is planned: the certificates that concern the person take their
    dates from the summary's next steps."""
    from crewkg.careers.graph import career_graph
    from crewkg.careers.planning import make_planner
    from crewkg.careers.routes import plan
    from crewkg.careers.summary import planning_record

    g = career_graph(law, lang, days_per_period=pace.days)
    p, answer = planning_record(law, p, answer, as_of, lang)  # as the summary plans: its validation done
    planner = make_planner(law, p, answer, as_of, pace, lang)
    eligible = {c["id"] for c in answer["certificates"] if c.get("eligible")}
    targets = [c["id"] for c in answer["certificates"] if c.get("covered") and c["id"] in g and g.in_degree(c["id"]) > 0]
    out: dict[str, Any] = {}
    memo: dict = {}
    top = _highest(law, targets)
    for cid in targets:
        if cid in eligible or cid in p.certificates or above.get(cid) or not (every or cid == top):
            continue
        result = plan(law, p, answer, cid, as_of, pace, graph=g, planner=planner, lang=lang, memo=memo)
        best = result["routes"][0] if result["routes"] else None
        out[cid] = best
    route = out.get(top) if top else None
    return out, top, route or {}


def _highest(law: Law, targets: list[str]) -> str | None:
    """The certificate of the highest deck role among the targets (most roles below it; the first in statute order
    among equals); without one of a deck role, the last target. A national qualification listed after the Union
    certificates (breathing-apparatus wearer) is no career's top."""
    deck = set(law.ids_of("DeckCrewRole"))
    ranked = [c for c in targets if law.certificates[c].role in deck]
    if not ranked:
        return targets[-1] if targets else None
    return max(ranked, key=lambda c: (len(set(law.below(law.certificates[c].role or ""))), -targets.index(c)))


def timeline(law: Law, p: Person, as_of: date, lang: str = "de", pace=None, every: bool = False) -> dict[str, Any]:
    """The `crewkg timeline --format json` answer for one person record (read and credited as of `as_of`): its
    summary (`careers.summary`), every certificate (each saying whether it `concerns` the person:
    `answers.relevance`), and the coming events of the certificates that concern the person (`every`: of all)."""
    from crewkg.answers.eligibility import check
    from crewkg.answers.relevance import concerned
    from crewkg.careers.planning import Pace
    from crewkg.careers.summary import summary
    from crewkg.records.dated import ledger

    t = TEXT[lang]
    pace = pace or Pace.from_kb()
    answer = check(law, [p], as_of, lang)[0]
    answer["summary"] = summary(law, p, answer, as_of, lang, pace)
    concerns = concerned(answer)
    steps = {x["certificate"]: x for x in answer["summary"]["next_steps"]}
    out: dict[str, Any] = {"person": p.id, "as_of": as_of.isoformat(), "regulation": answer.get("regulation"),
                           "covered": answer.get("covered", True)}
    if not out["covered"]:
        return out | {"reason": answer["reason"], "credited": [], "certificates": [], "held": [], "medical": {},
                      "route": None, "events": []}
    reg = law.regulation_on(as_of)
    assert reg is not None
    scopes = ledger(p, law) if p.dated else {}
    runs = spells(law, p, as_of, scopes)
    counting = held_on(p, as_of, law)
    above_of = {c["id"]: held_above(law, p, c["id"], counting) for c in answer["certificates"] if c.get("covered")}
    planned, top, route = _plans(law, p, answer, as_of, pace, lang, above_of, every)
    for cid, x in steps.items():  # the summary's step (the record as it reads once its days are validated)
        planned[cid] = {"earliest": x["earliest"], "steps": [{"provision": v} for v in x["via"]]}
    rules = uncovered_rules(law)
    certs = []
    for c in answer["certificates"]:
        if not c.get("covered"):  # its conditions are not in the sources (§§ 16, 17 SchBV): said so, as check says it
            certs.append({"id": c["id"], "label": law.certificate_short(c["id"], lang), "provision": c["provision"],
                          "covered": False, "eligible": None, "eligible_since": None,
                          "held": c["id"] in p.certificates, "held_above": None, "spells": [], "planned": None,
                          "planned_via": [], "concerns": c["id"] in concerns})
            continue
        best = planned.get(c["id"])
        above = above_of[c["id"]]
        certs.append({"id": c["id"], "label": law.certificate_short(c["id"], lang), "provision": c["provision"],
                      "covered": True, "eligible": c["eligible"], "eligible_since": c.get("eligible_since"), "held": c["id"] in p.certificates,
                      "held_above": {"id": above, "label": law.certificate_short(above, lang)} if above else None,
                      "spells": runs.get(c["id"], []),
                      "planned": best["earliest"] if best else None,
                      "planned_via": [s["provision"] for s in best["steps"]] if best else [],
                      "concerns": c["id"] in concerns})
    held = _held(law, p, as_of, rules.get(("CertificateValidityRule", reg.id)), lang)
    medical = _medical(law, p, as_of, rules.get(("MedicalExaminationSchedule", reg.id)), lang)
    events = []
    for c in certs:
        if c["planned"] and c["planned"] >= out["as_of"] and (every or c["concerns"]):
            events.append({"date": c["planned"], "kind": "planned", "certificate": c["id"],
                           "summary": t["event_planned"].format(certificate=c["label"]),
                           "provision": ", ".join(c["planned_via"])})
    for h in held:
        if h["valid_until"] and h["valid_until"] >= out["as_of"]:
            events.append({"date": h["valid_until"], "kind": "certificate_valid_until", "certificate": h["id"],
                           "summary": t["event_certificate"].format(certificate=h["label"]),
                           "provision": h["validity"]["provision"] if h["validity"] else ""})
    if medical["valid_until"] and medical["valid_until"] >= out["as_of"]:
        events.append({"date": medical["valid_until"], "kind": "medical_valid_until", "certificate": None,
                       "summary": t["event_medical"],
                       "provision": (medical["schedule"] or {}).get("provision") or ""})
    events.sort(key=lambda e: (e["date"], e["kind"], e["certificate"] or ""))
    target_route = None
    if top is not None and route:
        target_route = {"target": top, "label": law.certificate_short(top, lang), "earliest": route.get("earliest"),
                        "steps": [{"certificate": s["certificate"], "label": law.certificate_short(s["certificate"], lang),
                                   "provision": s["provision"], "earliest": s["earliest"],
                                   "remaining": [missing_sentence(law, m, lang) for m in s.get("remaining", [])]}
                                  for s in route.get("steps", [])]}
    return out | {"summary": answer["summary"], "every": every,
                  "pace": {"days": pace.days, "period": pace.period, "provision": pace.citation},
                  "credited": _credited(law, p, scopes, as_of, lang), "certificates": certs, "held": held,
                  "medical": medical, "route": target_route, "events": events}


def _held(law: Law, p: Person, as_of: date, uncovered: str | None, lang: str) -> list[dict[str, Any]]:
    """The certificates held, each with the last day its own validity lets it count (a fixed end, or the validity
    period from its issue date: `crewkg.rules.validity`) and, where it does not count on the date, why."""
    from crewkg.answers.eligibility import lapsed_entries
    from crewkg.rules.validity import own_ends, validity_periods

    t = TEXT[lang]
    lapsed = lapsed_entries(law, p, as_of, lang)
    out = []
    for cid in p.certificates:
        issued = p.certificate_issued.get(cid)
        c = law.certificates.get(cid)
        ends = [(end.last_day, law.citation(end.provision)) for end in own_ends(law, cid, issued, known_on=as_of)]
        rules = validity_periods(law, cid)
        validity: dict[str, Any] | None = None
        until = None
        if ends:
            last, cite = min(ends)
            until = last.isoformat()
            validity = {"covered": True, "provision": cite,
                        "text": t["validity_until"].format(date=until, provision=cited(cite, lang))}
        elif rules:
            cite = ", ".join(law.citation(r.provision) for r in rules)
            validity = {"covered": True, "provision": cite,
                        "text": t["validity_no_issue"].format(
                            years=rules[0].years, provision=", ".join(cited(law.citation(r.provision), lang) for r in rules))}
        elif uncovered:
            validity = {"covered": False, "provision": uncovered,
                        "text": t["validity_not_covered"].format(provision=uncovered)}
        entry = {"id": cid, "label": law.certificate_short(cid, lang) if c else cid, "issued": _iso(issued),
                 "valid_until": until, "validity": validity}
        mine = [x["text"] for x in lapsed if x["certificate"] == cid]
        if mine:
            entry["lapsed"] = mine
        out.append(entry)
    return out


def _medical(law: Law, p: Person, as_of: date, uncovered: str | None, lang: str) -> dict[str, Any]:
    """The medical proof: examined, the last day it counts (its stated end and the examination schedule of the law
    in force, `crewkg.rules.validity`) or since when it is overdue."""
    from crewkg.rules.validity import medical_current, medical_last_day, overdue_start, schedule_on

    t = TEXT[lang]
    schedule = schedule_on(law, as_of)
    current = medical_current(p, law, as_of)
    last = medical_last_day(p, law, as_of) if current else None
    out: dict[str, Any] = {"fit": p.medical_fitness, "examined": _iso(p.medical_examined),
                           "valid_until": _iso(last) if current else None, "stated_until": _iso(p.medical_valid_until),
                           "current": current}
    if schedule is not None:
        cite = law.citation(schedule.provision)
        sched: dict[str, Any] = {"covered": True, "provision": cite}
        if current and last is not None:
            sched["text"] = t["proof_until"].format(date=last.isoformat(), provision=cited(cite, lang))
        elif not current and p.medical_fitness:
            ov = overdue_start(p, law, as_of)
            if ov is not None:  # the date with the schedule that set it (an earlier regulation's, if it began then)
                then = law.citation(ov.schedule.provision) if ov.schedule is not None else cite
                sched |= {"overdue_since": ov.since.isoformat(),
                          "text": t["proof_overdue"].format(date=ov.since.isoformat(), provision=cited(then, lang))}
                if then != cite:
                    sched["overdue_under"] = then
        out["schedule"] = sched
    else:
        out["schedule"] = {"covered": False, "provision": uncovered,
                           "text": t["medical_not_covered"].format(provision=uncovered)} if uncovered else None
    return out


# ------------------------------------------------------------------------------------------------------------
# Text and calendar


def _law() -> Law:
    """The bundled law, for the names the summary's lines give (the timeline's result holds ids)."""
    from crewkg.law.statute import load_law

    return load_law()


def heading(result: dict[str, Any], lang: str = "de") -> str:
    """The timeline's title: the person, the date and the regulation in force (none before the first one)."""
    t = TEXT[lang]
    if result.get("regulation"):
        return t["heading"].format(person=result["person"], date=result["as_of"], reg=result["regulation"])
    return t["heading_no_regulation"].format(person=result["person"], date=result["as_of"])


def lines(result: dict[str, Any], lang: str = "de") -> list[str]:
    """The timeline for people, every sentence from the catalogue."""
    from crewkg.answers.overview import summary_lines
    from crewkg.answers.relevance import concerned

    t = TEXT[lang]
    out = [heading(result, lang)]
    if not result.get("covered", True):
        return out + [result["reason"]]
    out += [line.text for line in summary_lines(_law(), result, lang, result.get("every", False))]
    out.append(t["credited"])
    if not result["credited"]:
        out.append("  " + t["no_log"])
    for s in result["credited"]:
        out.append("  " + t["scope_line"].format(label=s["label"], credited=s["credited"], recorded=s["recorded"]))
        if s["not_validated"]:
            out.append("    " + t["not_validated"].format(n=s["not_validated"]))
        if s["capped"]:
            out.append("    " + t["capped"].format(n=s["capped"], provision=cited(s["cap_provision"], lang)))
        if s.get("completes") and s["credited"]:
            out.append("    " + t["running"].format(date=s["completes"]))
        for n, d in s["reached"].items():
            out.append("    " + t["reached"].format(n=n, date=d))
    out.append(t["certificates"])
    ids = concerned(result)
    for c in result["certificates"]:
        if not (result.get("every", True) or c["id"] in ids):
            continue
        head = f"  {c['label']} ({c['provision']}): "
        parts = []
        for a, b in c["spells"]:
            parts.append(t["spell_open"].format(start=a) if b is None else t["spell"].format(start=a, end=b))
        if c.get("held"):  # held: nothing to plan (as `crewkg plan` says), whatever a pathway lacks today
            parts.append(t["holds"])
        elif not c.get("covered", True):
            parts.append(t["not_covered"])
        elif c.get("held_above"):  # one held ranks above it: nothing to plan either
            parts.append(t["held_above"].format(certificate=c["held_above"]["label"]))
        elif c["eligible"] and not c["spells"]:
            parts.append(t["eligible_now"])
        elif not c["eligible"]:
            parts.append(t["planned"].format(date=c["planned"]) if c["planned"] else t["not_plannable"])
        out.append(head + "; ".join(parts))
    if any(c.get("planned") and not c["eligible"] for c in result["certificates"]):
        from crewkg.messages.catalogue import catalogue

        out.append("  " + catalogue(lang)["careers.plan.assumes"])  # what the planned dates assume, as plan says it
    out.append(t["held"])
    if not result["held"]:
        out.append("  " + t["none"])
    for h in result["held"]:
        issued = t["issued"].format(date=h["issued"]) if h["issued"] else t["issued_unknown"]
        validity = h["validity"]["text"] if h["validity"] else ""
        out.append(f"  {h['label']}: {issued}" + (f"; {validity}" if validity else ""))
        for x in h.get("lapsed", []):
            out.append(f"    {x}")
    out.append(t["medical"])
    m = result["medical"]
    if m.get("examined"):
        out.append("  " + t["examined"].format(date=m["examined"]))
    if m.get("stated_until"):
        out.append("  " + t["valid_until"].format(date=m["stated_until"]))
    elif not m.get("examined"):
        out.append("  " + (t["fit_yes"] if m.get("fit") else t["fit_no"]))
    if m.get("schedule") and m["schedule"].get("text"):
        out.append("  " + m["schedule"]["text"])
    r = result.get("route")
    if r:
        out.append(t["route"].format(target=r["label"], date=r["earliest"] or t["open"]))
        for i, s in enumerate(r["steps"], 1):
            out.append("  " + t["step"].format(i=i, label=s["label"], provision=s["provision"], date=s["earliest"] or t["open"]))
            if s["earliest"] == result["as_of"]:  # begun on the evaluation date: what that day still asks (an exam, a proof)
                out += ["     " + x for x in s.get("remaining", [])]
    return out


def ics(result: dict[str, Any], lang: str = "de") -> bytes:
    """The coming dates of the timeline as an iCalendar file (RFC 5545): one all-day event each."""
    from icalendar import Calendar, Event

    t = TEXT[lang]
    cal = Calendar()
    cal.add("prodid", "-//crewkg//timeline//" + lang.upper())
    cal.add("version", "2.0")
    cal.add("x-wr-calname", t["calendar"].format(person=result["person"]))
    stamp = datetime.combine(date.fromisoformat(result["as_of"]), datetime.min.time(), tzinfo=UTC)
    for e in result.get("events", []):
        day = date.fromisoformat(e["date"])
        ev = Event()
        ev.add("uid", f"{result['person']}-{e['kind']}-{e['certificate'] or 'medical'}@crewkg")
        ev.add("dtstamp", stamp)
        ev.add("dtstart", day)
        ev.add("dtend", day + timedelta(days=1))
        ev.add("summary", e["summary"])
        if e.get("provision"):
            ev.add("description", t["event_basis"].format(provision=e["provision"], date=result["as_of"]))
        ev.add("transp", "TRANSPARENT")
        cal.add_component(ev)
    return cal.to_ical()


def html_page(result: dict[str, Any], svg: bytes, lang: str = "de") -> str:
    """A self-contained page (template `timeline.html.j2`): the picture (inline SVG) and the text."""
    from crewkg.careers.pages import render

    body = svg.decode("utf-8")
    return render("timeline.html.j2", lang=lang, title=heading(result, lang), svg=body[body.index("<svg"):],
                  lines=lines(result, lang))
