"""What the web page shows for a record: the eligibility answer, a sentence per missing requirement, and the career
graph with the fastest route to a target drawn in (`crewkg plan --out x.svg` draws the same picture)."""

from __future__ import annotations

import copy
import logging
import threading
from datetime import date
from typing import Any

from crewkg.careers.pages import UNBREAKABLE
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person

log = logging.getLogger("crewkg.server")
_DRAW_LOCK = threading.Lock()


def report(state, person: Person, as_of: date, lang: str, target: str | None = None) -> dict[str, Any]:
    from crewkg.answers.relevance import concerned
    from crewkg.rules.kinds import missing_sentence
    from crewkg.service.inputs import certificate_id

    law = state.law
    if target is not None:
        certificate_id(law, target, "target")
    answer = state.evaluator.check(person, as_of, lang)
    view = copy.deepcopy(answer)
    for c in view.get("certificates", []):
        for w in c["pathways"]:
            for m in w["missing"]:
                m["sentence"] = missing_sentence(law, m, lang)
        if c.get("eligible_since"):
            c["since_sentence"] = say(lang, "service.report.eligible_since", date=c["eligible_since"])
        c["credits"] = credit_lines(c, lang)
    view["credit_title"] = say(lang, "service.report.credit_title")
    view["role_labels"] = {r: law.label(r, lang) for r in answer.get("roles", [])}
    view["summary_box"] = summary_box(law, answer, lang)
    # the certificates that concern the person are listed; the page's switch lists every one (answers.relevance)
    view["concerns"] = sorted(concerned(answer)) if answer.get("summary") else None
    view["every_label"] = say(lang, "service.report.every")
    view["unbreakable"] = UNBREAKABLE.pattern  # the page keeps citations and dates whole with the pages' own pattern
    out: dict[str, Any] = {"answer": answer, "view": view, "career": None,
                           "career_note": say(lang, "service.career_note.missing")}
    try:
        out["career"] = career_picture(law, person, answer, as_of, lang, target)
        out["career_note"] = None
    except Exception as exc:  # the picture is an extra; the eligibility answer stands without it
        log.warning("career graph failed: %s", exc)
        reason = str(exc) if lang == "en" else say(lang, "service.career_note.failed_reason")
        out["career_note"] = say(lang, "service.career_note.failed", reason=reason)
    return out


def credit_lines(certificate: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """For a record with a service log: each day-counting requirement of the certificate's pathways with days in
    the log (once each), its credited days beside the days recorded, not yet validated and over the cap."""
    from crewkg.messages.wording import amount

    def days(n: int) -> str:
        return amount(n, "days", lang)

    def walk(reqs):
        for r in reqs:
            yield r
            yield from walk(r.get("alternatives") or r.get("parts") or [])

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for w in certificate.get("pathways", []):
        for r in walk(w["requirements"]):
            if not r.get("recorded") or r["id"] in seen:
                continue
            seen.add(r["id"])
            out.append({"id": r["id"], "provision": r["provision"], "credited": r["have"], "recorded": r["recorded"],
                        "not_validated": r["not_validated"], "capped": r["capped"],
                        "sentence": say(lang, "service.report.credit", requirement=r["text"], provision=r["provision"],
                                        credited=days(r["have"]), recorded=days(r["recorded"]),
                                        not_validated=days(r["not_validated"]), capped=days(r["capped"]))})
    return out


def summary_box(law: Law, answer: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The answer's summary (`answer["summary"]`: roles, issuable now, lapsed, next steps) as the box at the top of
    the page: a heading and lines per part, every line a sentence of the catalogue's; None without a summary."""
    summary = answer.get("summary")
    if not summary:
        return None
    from crewkg.messages.sections import section

    t = section("service.report.summary.", lang)

    def name(cid: str) -> str:
        return law.certificate_short(cid, lang) if cid in law.certificates else cid

    told = {x["certificate"]: x.get("text") for x in answer.get("lapsed", [])}

    def why(x: dict[str, Any]) -> str:
        """Why a certificate no longer counts: the answer's sentence (it names the certificate), else since when."""
        text = x.get("text") or told.get(x["certificate"])
        if text and text.startswith(name(x["certificate"])):
            return t["cited"].format(text=text, provision=x.get("provision", ""))
        return t["why"].format(certificate=name(x["certificate"]), provision=x.get("provision", ""),
                               why=text or t["lapsed_since"].format(since=x.get("since")))

    parts = {"roles": [", ".join(law.label(r, lang) for r in summary.get("roles", [])) or t["none"]],
             "issuable": [t["since"].format(certificate=name(x["certificate"]), since=x["since"]) if x.get("since")
                          else name(x["certificate"]) for x in summary.get("issuable", [])] or [t["none"]],
             "lapsed": [why(x) for x in summary.get("lapsed", [])],
             "next": [_next_step(law, x, t, name, lang) for x in summary.get("next_steps", [])]}
    return {"title": t["title"], "parts": [{"key": k, "heading": t[k], "items": v} for k, v in parts.items() if v]}


def _next_step(law: Law, step: dict[str, Any], t: dict[str, str], name, lang: str) -> dict[str, Any]:
    """A next step of the summary: the certificate with its earliest date, and each action's sentence (the summary's
    own, which cites its provision)."""
    head = (t["step"].format(certificate=name(step["certificate"]), earliest=step["earliest"]) if step.get("earliest")
            else t["step_blocked"].format(certificate=name(step["certificate"])))
    return {"text": head, "actions": [a["text"] for a in step.get("actions", [])]}


def career_picture(law: Law, person: Person, answer: dict[str, Any], as_of: date, lang: str,
                   target: str | None = None) -> dict[str, Any]:
    """The person's routes to the target on the career graph (crewkg.careers), drawn as SVG from what the person
    holds, the fastest highlighted and its steps as lines; without a target, the next certificate above what the
    person holds (careers.graph.next_certificate)."""
    import base64

    from crewkg.api.careers import route_drawing
    from crewkg.careers.graph import career_graph, next_certificate
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan
    from crewkg.messages.sections import section

    pace = Pace.from_kb()
    g = career_graph(law, lang, days_per_period=pace.days)
    target = target or next_certificate(law, g, list(person.certificates))
    result = (plan(law, person, answer, target, as_of, pace, graph=g, lang=lang) if target in g
              else {"person": person.id, "target": target, "routes": []})
    best = result["routes"][0] if result["routes"] else {"steps": [], "earliest": None}
    with _DRAW_LOCK:  # matplotlib's text layout is not thread-safe
        svg, title = route_drawing(law, g, result, list(person.certificates), "svg", lang)
    t = section("careers.plan.", lang)
    lines = [(t["step"] if s["earliest"] else t["step_blocked"]).format(
        n=i, cert=law.certificate_short(s["certificate"], lang), prov=s["provision"], date=s["earliest"]).strip()
        for i, s in enumerate(best["steps"], 1)]
    return {"svg": base64.b64encode(svg).decode("ascii"), "target": target, "route_text": title,
            "earliest": best.get("earliest"), "steps": best["steps"], "step_lines": lines,
            "steps_title": say(lang, "service.report.route_steps")}
