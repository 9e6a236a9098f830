"""What the web page shows for a record: the eligibility answer, a sentence per missing requirement, and the career
graph with the fastest route to a target drawn in (`crewkg plan --out x.svg` draws the same picture)."""

from __future__ import annotations

import copy
import logging
import threading
from datetime import date
from typing import Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person

log = logging.getLogger("crewkg.server")
_DRAW_LOCK = threading.Lock()


def default_target(law: Law) -> str | None:
    """The certificate a route is drawn to when the page names none: the last in statute order with pathways."""
    with_paths = [c.id for c in law.certificates_in_order() if c.pathways]
    return with_paths[-1] if with_paths else None


def report(state, person: Person, as_of: date, lang: str, target: str | None = None) -> dict[str, Any]:
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


def career_picture(law: Law, person: Person, answer: dict[str, Any], as_of: date, lang: str,
                   target: str | None = None) -> dict[str, Any]:
    """The career graph (crewkg.careers) drawn as SVG with the certificates the person holds and the fastest
    planned route to the target marked."""
    import base64

    from crewkg.careers.graph import career_graph
    from crewkg.careers.pictures import draw, route_edges, route_title
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan

    target = target or default_target(law)
    pace = Pace.from_kb()
    g = career_graph(law, lang, days_per_period=pace.days)
    result = plan(law, person, answer, target, as_of, pace, graph=g, lang=lang) if target in g else {"routes": []}
    best = result["routes"][0] if result["routes"] else {"steps": [], "earliest": None}
    edges, held = route_edges(best, g), set(person.certificates)
    title = route_title(g, {"person": person.id, **result}, edges, held, lang)
    with _DRAW_LOCK:  # matplotlib's text layout is not thread-safe
        svg = draw(g, "svg", edges, held, title)
    return {"svg": base64.b64encode(svg).decode("ascii"), "target": target, "route_text": title,
            "earliest": best.get("earliest"), "steps": best["steps"]}
