"""The fleet forecast for people (`crewkg fleet`): the summary first, then one line per event in date order (the first
day's verdict of each vessel whose minimum crew is not met, then every change); and as an iCalendar file, one event
with an alarm per change, the remedies in it. Every sentence from the catalogue (section `fleet.`)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import say_plural
from crewkg.messages.sections import section

#: the order of the lines of one day: the first day's verdicts, then the changes
_FIRST, _CHANGE = 0, 1


def _t(lang: str) -> dict[str, str]:
    return section("fleet.", lang)


def verdict(satisfied: bool | None, lang: str) -> str:
    """Met, not met, or undecided (the sources leave it open), in words."""
    return _t(lang)["verdict." + {True: "met", False: "not_met", None: "open"}[satisfied]]


def _cert(law: Law, cid: str | None, lang: str) -> str:
    return law.certificate_short(cid, lang) if cid and cid in law.certificates else (cid or "")


def _role(law: Law, role: str | None, lang: str) -> str:
    return law.label(role, lang) if role else ""


def cause_text(law: Law, c: dict[str, Any], lang: str) -> str:
    """One cause in words (`fleet.cause.<reason>`)."""
    t = _t(lang)
    key = "cause." + c["reason"]
    if c["reason"] in ("age_reached", "days_reached", "apprenticeship_year") and c.get("instead_of"):
        key += "_instead"
    if key not in t:
        key = "cause.lapsed" if c.get("certificate") else "cause.changed"
    return t[key].format(person=c.get("person") or "", certificate=_cert(law, c.get("certificate"), lang),
                         provision=c.get("provision") or "—", role=_role(law, c.get("role"), lang),
                         instead=_role(law, c.get("instead_of"), lang))


def remedy_text(law: Law, r: dict[str, Any], lang: str) -> str:
    """One remedy in words (`fleet.remedy.<action>`)."""
    t = _t(lang)
    text = t["remedy." + r["action"]].format(person=r["person"], certificate=_cert(law, r.get("certificate"), lang),
                                             start=r["from"], provision=r.get("provision") or "—",
                                             vessel=r.get("vessel") or "")
    if r.get("apply_by"):
        text += t["remedy.apply_by"].format(by=r["apply_by"])
    if "renew_medical" in r.get("actions", []) and r["action"] != "renew_medical":
        text += t["remedy.and_renew"]
    return text


def _missing_text(law: Law, missing: list[dict[str, Any]], lang: str) -> str:
    items = [_role(law, m["role"], lang) + (f" ({m['provision']})" if m.get("provision") else "") for m in missing]
    return _t(lang)["missing"].format(items="; ".join(items)) if items else ""


def _remedies_text(law: Law, remedies: list[dict[str, Any]], lang: str) -> str:
    return _t(lang)["remedies"].format(items="; ".join(remedy_text(law, r, lang) for r in remedies)) if remedies else ""


def heading(result: dict[str, Any], lang: str) -> str:
    return _t(lang)["heading"].format(fleet=result["fleet"], start=result["from"], end=result["until"],
                                      vessels=say_plural(lang, "fleet.vessels", len(result["vessels"]), n=len(result["vessels"])))


def summary_lines(result: dict[str, Any], lang: str) -> list[str]:
    """One line per vessel: its verdict on the first day, how many changes follow, the days not met."""
    t = _t(lang)
    total = (date.fromisoformat(result["until"]) - date.fromisoformat(result["from"])).days + 1
    out = [t["summary"]]
    for v in result["vessels"]:
        changes = say_plural(lang, "fleet.changes", len(v["events"]), n=len(v["events"]))
        out.append("  " + t["summary_line"].format(vessel=v["vessel"], verdict=verdict(v["satisfied"], lang),
                                                   start=result["from"], changes=changes,
                                                   days=v["not_met_days"], total=total))
    return out


def events(law: Law, result: dict[str, Any], lang: str) -> list[tuple[str, int, str, str]]:
    """(date, order, vessel, line) of the first days not met and of every change, sorted by date."""
    t = _t(lang)
    out = []
    for v in result["vessels"]:
        if v["satisfied"] is not True:
            line = t["line_first"].format(date=result["from"], vessel=v["vessel"], verdict=verdict(v["satisfied"], lang))
            line += _missing_text(law, v["missing"], lang) + _remedies_text(law, v.get("remedies", []), lang)
            out.append((result["from"], _FIRST, v["vessel"], line))
        for e in v["events"]:
            causes = "; ".join(cause_text(law, c, lang) for c in e["causes"])
            line = t["line_event"].format(date=e["date"], vessel=v["vessel"], verdict=verdict(e["satisfied"], lang),
                                          causes=causes or t["no_cause"])
            line += _missing_text(law, e["missing"], lang) + _remedies_text(law, e["remedies"], lang)
            out.append((e["date"], _CHANGE, v["vessel"], line))
    return sorted(out, key=lambda x: x[:3])


def lines(law: Law, result: dict[str, Any], lang: str = "de") -> list[str]:
    """The forecast for people: the heading, the summary, then one line per event."""
    found = events(law, result, lang)
    body = [line for *_, line in found] or ["  " + _t(lang)["no_events"]]
    return [heading(result, lang), *summary_lines(result, lang), _t(lang)["events"], *body]


def ics(law: Law, result: dict[str, Any], lang: str = "de") -> bytes:
    """One all-day event per change of verdict (and per vessel not met on the first day), each with an alarm that
    says the remedies (RFC 5545)."""
    from icalendar import Alarm, Calendar, Event

    t = _t(lang)
    cal = Calendar()
    cal.add("prodid", "-//crewkg//fleet//" + lang.upper())
    cal.add("version", "2.0")
    cal.add("x-wr-calname", t["calendar"].format(fleet=result["fleet"]))
    stamp = datetime.combine(date.fromisoformat(result["from"]), datetime.min.time(), tzinfo=UTC)
    for v in result["vessels"]:
        items = ([(result["from"], v["satisfied"], [], v["missing"], v.get("remedies", []), True)]
                 if v["satisfied"] is not True else [])
        items += [(e["date"], e["satisfied"], e["causes"], e["missing"], e["remedies"], False) for e in v["events"]]
        for day, satisfied, causes, missing, remedies, first in items:
            ev = Event()
            ev.add("uid", f"{result['fleet']}-{v['vessel']}-{day}@crewkg")
            ev.add("dtstamp", stamp)
            ev.add("dtstart", date.fromisoformat(day))
            ev.add("dtend", date.fromisoformat(day) + timedelta(days=1))
            ev.add("summary", t["event_summary"].format(vessel=v["vessel"], verdict=verdict(satisfied, lang)))
            said = [cause_text(law, c, lang) for c in causes] + [_missing_text(law, missing, lang).lstrip(" —")]
            said += [remedy_text(law, r, lang) for r in remedies] or ([t["no_remedy"]] if satisfied is not True else [])
            ev.add("description", "\n".join(x for x in said if x))
            ev.add("transp", "TRANSPARENT")
            alarm = Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("trigger", timedelta(days=0 if first else -lead(satisfied)))
            alarm.add("description", _remedies_text(law, remedies, lang).lstrip(" —") or t["event_summary"].format(
                vessel=v["vessel"], verdict=verdict(satisfied, lang)))
            ev.add_component(alarm)
            cal.add_component(ev)
    return cal.to_ical()


#: how many days before a change to a verdict not met its alarm rings (a planning lead, no period of the law)
LEAD_DAYS = 30


def lead(satisfied: bool | None) -> int:
    """How many days before the change its alarm rings: `LEAD_DAYS` before a verdict not met, on the day otherwise."""
    return LEAD_DAYS if satisfied is not True else 0
