"""The web page of the fleet forecast (`/fleet`): a form that uploads a fleet file with its records inline, then the
forecast as a reader takes it in — first each vessel's verdict and its next change, then the picture (`crewkg fleet
--out x.svg` draws the same), then the changes as a table, and the calendar file to download.

The page is rendered on the server from the template `templates/fleet.html` with every word from the catalogue
(`service.fleet.page.`, and the forecast's own sentences from `fleet.`), in the language asked: unlike the check
form, whose script carries its texts, nothing of it is written in a script. The form posts the file to the page
itself, so it works without a script; a refusal is shown on the page in its language, with the status of the API's
refusal (422)."""

from __future__ import annotations

import base64
from datetime import date
from typing import Any

import anyio
from fastapi import Request
from fastapi.responses import HTMLResponse

from crewkg.careers.pages import kept_whole
from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.messages.sections import section
from crewkg.service.state import State

#: the languages of the page, each named in itself
LANGUAGES = {"de": "Deutsch", "en": "English"}
#: a verdict's CSS class on the page (style.css: .verdict.yes / .no / .na)
SHADE = {True: "yes", False: "no", None: "na"}


def page_language(value: str | None) -> str:
    """The page's language: German (the law's) unless English is asked; a page is never refused for it."""
    return value if value in LANGUAGES else "de"


def render(st: State, lang: str, values: dict[str, str] | None = None, shown: dict[str, Any] | None = None,
           error: str | None = None) -> str:
    """The page: the form (with the values sent), then a refusal or the forecast."""
    from crewkg.service.ontology import templates

    words = section("service.fleet.page.", lang)
    s = st.settings
    limits = words["limits"].format(vessels=s.max_fleet_vessels, members=s.max_fleet_members, days=s.max_fleet_days)
    return templates().get_template("fleet.html").render(
        lang=lang, words=words, languages=LANGUAGES, values=values or {}, shown=shown, error=error, limits=limits,
        whole=kept_whole)


def view(law: Law, result: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the page shows of a forecast: the summary per vessel, the picture, the table of changes, the calendar."""
    from crewkg.careers.fleet_text import heading

    words = section("service.fleet.page.", lang)
    total = (date.fromisoformat(result["until"]) - date.fromisoformat(result["from"])).days + 1
    return {"heading": heading(result, lang), "fleet": result["fleet"],
            "vessels": [_vessel(law, v, result, total, words, lang) for v in result["vessels"]],
            "rows": _rows(law, result, words, lang), "picture": _picture(law, result, lang),
            "ics": _calendar(law, result, lang)}


def _vessel(law: Law, v: dict[str, Any], result: dict[str, Any], total: int, words: dict[str, str],
            lang: str) -> dict[str, Any]:
    """A vessel's line of the summary: its verdict on the first day, the days not met, and its next change."""
    from crewkg.careers.fleet_text import cause_text, verdict

    if v["events"]:
        e = v["events"][0]
        causes = "; ".join(cause_text(law, c, lang) for c in e["causes"]) or section("fleet.", lang)["no_cause"]
        following = words["next"].format(date=e["date"], verdict=verdict(e["satisfied"], lang), causes=causes)
    else:
        following = words["no_next"].format(until=result["until"])
    return {"vessel": v["vessel"], "shade": SHADE[v["satisfied"]],
            "verdict": words["on_first"].format(date=result["from"], verdict=verdict(v["satisfied"], lang)),
            "days": words["not_met_days"].format(days=v["not_met_days"], total=total), "next": following}


def _rows(law: Law, result: dict[str, Any], words: dict[str, str], lang: str) -> list[dict[str, Any]]:
    """One row per change of verdict (and per vessel not met on the first day), in date order, as the text of
    `crewkg fleet` lists them: the causes, what is missing, the remedies — each a sentence of the catalogue."""
    from crewkg.careers.fleet_text import cause_text, remedy_text, verdict

    def missing(items: list[dict[str, Any]]) -> list[str]:
        return [words["missing_item"].format(role=law.label(m["role"], lang) if m.get("role") else "",
                                             provision=m.get("provision") or "—") for m in items]

    rows = []
    for v in result["vessels"]:
        if v["satisfied"] is not True:
            rows.append({"date": result["from"], "order": 0, "vessel": v["vessel"], "shade": SHADE[v["satisfied"]],
                         "verdict": verdict(v["satisfied"], lang), "causes": [words["first_day"]],
                         "missing": missing(v["missing"]),
                         "remedies": [remedy_text(law, r, lang) for r in v.get("remedies", [])]})
        for e in v["events"]:
            rows.append({"date": e["date"], "order": 1, "vessel": v["vessel"], "shade": SHADE[e["satisfied"]],
                         "verdict": verdict(e["satisfied"], lang),
                         "causes": [cause_text(law, c, lang) for c in e["causes"]] or [section("fleet.", lang)["no_cause"]],
                         "missing": missing(e["missing"]), "remedies": [remedy_text(law, r, lang) for r in e["remedies"]]})
    return sorted(rows, key=lambda r: (r["date"], r["order"], r["vessel"]))


def _picture(law: Law, result: dict[str, Any], lang: str) -> str | None:
    """The picture as an SVG data address for an <img> (whatever the SVG holds, an image runs no script); None
    without the [pictures] extra."""
    from crewkg.api import forecasts
    from crewkg.extras import MissingExtra
    from crewkg.service.report import DRAW_LOCK

    try:
        with DRAW_LOCK:  # matplotlib's text layout is not thread-safe
            svg = forecasts.forecast_picture(law, result, "svg", lang)
    except MissingExtra:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def _calendar(law: Law, result: dict[str, Any], lang: str) -> str | None:
    """The calendar file as a data address for a download link (the page keeps no file: nothing is stored); None
    without the [calendar] extra."""
    from crewkg.api import forecasts
    from crewkg.extras import MissingExtra

    try:
        ics = forecasts.forecast_ics(law, result, lang)
    except MissingExtra:
        return None
    return "data:text/calendar;charset=utf-8;base64," + base64.b64encode(ics).decode("ascii")


async def answer(st: State, request: Request, asked: str | None) -> HTMLResponse:
    """The page for a posted form: the forecast of the uploaded fleet, or the page with the refusal (422)."""
    from crewkg.service import fleets

    lang, values = page_language(asked), {}
    try:
        form = await fleets.form_of(request)
        values = {k: str(form.get(k) or "") for k in ("from", "until", "lang")}
        lang = page_language(values["lang"] or asked)
        start, end = fleets.request_span(st.settings, values["from"] or None, values["until"] or None)
        name, content = await fleets.uploaded_file(form)
        data = await anyio.to_thread.run_sync(fleets.parse_upload, name, content)
        result = await fleets.forecast(st, data, start, end, lang, name)
        shown = await anyio.to_thread.run_sync(view, st.law, result, lang)
    except InputError as exc:
        return HTMLResponse(render(st, lang, values, error=exc.message(lang)), status_code=422)
    return HTMLResponse(render(st, lang, values, shown))
