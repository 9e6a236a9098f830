"""Careers for the faces: the career graph and its pictures, the routes to a target, programme designs, cohorts and a
person's timeline. Each call answers as data (dicts, text lines, file bytes); the CLI and the service only print or
send it. The law of careers itself is crewkg.careers'."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkg.errors import InputError

if TYPE_CHECKING:
    from crewkg.careers.planning import Pace
    from crewkg.law.statute import Law
    from crewkg.records.persons import Person

#: the pictures a route, a career graph or a timeline is drawn as, by file suffix
PICTURES = {".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}


def graph(law: Law, lang: str, days_per_year: int | None = None) -> Any:
    """The career graph: one edge per pathway of the kb (a networkx MultiDiGraph)."""
    from crewkg.careers.graph import career_graph

    return career_graph(law, lang, days_per_period=days_per_year)


def graph_data(law: Law, fmt: str, lang: str, days_per_year: int | None = None) -> bytes | str:
    """The career graph as node-link JSON data, GraphML, an interactive HTML page, or an SVG/PNG drawing."""
    from crewkg.careers.graph import graphml_text, node_link

    g = graph(law, lang, days_per_year)
    if fmt == "json":
        return node_link(g)
    if fmt == "graphml":
        return graphml_text(g)
    from crewkg.careers.pictures import draw, html_page

    return html_page(g) if fmt == "html" else draw(g, fmt)


def covered(law: Law, day: date, field: str = "--as-of") -> None:
    """Refuse an evaluation date no encoded regulation governs (the planner would have nothing to plan with)."""
    if law.regulation_on(day) is None:
        first = law.first_regulation()
        raise InputError(field, "as_of", "pathway_date", day.isoformat(), regulation=first.name,
                         since=first.in_force_from.isoformat())


@dataclass(frozen=True)
class Planned:
    """A plan and what it was made with: the answer of `plan --format json`, the person, the career graph and the pace
    of crediting (which the text and the route picture say)."""

    result: dict[str, Any]
    person: Person
    graph: Any
    pace: Pace


def planned(law: Law, record: Callable[[], Person], target: str, day: date, lang: str, days_per_year: int | None = None,
            *, evaluate: Callable[[Person], dict[str, Any]], fields: tuple[str, str] = ("as_of", "target")) -> Planned:
    """Every route from where the person stands to `target`, fastest first. The target is checked first, then the
    record is read (`record()`), then evaluated (`evaluate`); `fields` name the date and the target where the question
    came from (the API's arguments, the CLI's options)."""
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan, plan_target

    pace = Pace.from_kb(days=days_per_year)
    g = graph(law, lang, pace.days)
    target = plan_target(law, g, target, day, fields=fields, not_covered=True)
    person = record()
    answer = evaluate(person)
    if not answer.get("covered", True):
        raise InputError(fields[0], "as_of", "covered_date", day.isoformat(), reason=answer["reason"])
    return Planned(plan(law, person, answer, target, day, pace, graph=g, lang=lang), person, g, pace)


def route_picture(law: Law, p: Planned, kind: str, lang: str, whole: bool = False) -> bytes | str:
    """The routes drawn on the career graph (svg, png or an HTML page) from where the person stands, the fastest
    highlighted; only what the routes touch unless `whole` asks for every certificate and pathway."""
    return route_drawing(law, p.graph, p.result, list(p.person.certificates), kind, lang, whole)[0]


def route_drawing(law: Law, g: Any, result: dict[str, Any], held: list[str], kind: str, lang: str,
                  whole: bool = False) -> tuple[bytes | str, str]:
    """A plan's routes drawn (`route_picture`) and the picture's title, for a plan made on the graph `g` for a person
    who holds `held`."""
    from crewkg.careers.pictures import draw, html_page, route_title
    from crewkg.careers.route_view import route_view

    names = {c: law.certificate_short(c, lang) if c in law.certificates else c for c in held}
    v = route_view(g, result, names, whole)
    title = route_title(v.graph, result, v.highlight, v.held, lang)
    if kind == "html":
        return html_page(v.graph, v.highlight, v.held, title), title
    return draw(v.graph, kind, v.highlight, v.held, title), title


def default_target(law: Law, held: list[str], lang: str = "de") -> str | None:
    """The certificate a plan aims at when none is named: the next one above what `held` holds on the ladder of
    roles (careers.graph.next_certificate)."""
    from crewkg.careers.graph import next_certificate

    return next_certificate(law, graph(law, lang), held)


def plan_text(law: Law, p: Planned, lang: str) -> list[str]:
    """The plan for people, line by line."""
    from crewkg.careers.routes import plan_lines

    return plan_lines(law, p.result, p.pace, lang)


def programme(law: Law, design: Path, day: date, lang: str) -> dict[str, Any]:
    """Which pathways a programme design serves and, for the others, what it lacks."""
    from crewkg.careers.programmes import check_programme, load_programme

    covered(law, day)
    return check_programme(law, load_programme(design, law), day, lang)


def programme_text(law: Law, result: dict[str, Any], lang: str) -> list[str]:
    from crewkg.careers.programmes import report_lines

    return report_lines(law, result, lang)


@dataclass(frozen=True)
class Cohort:
    """A cohort's rows (one per trainee, a bad row with its error), the trainees as read, and what they were planned
    with."""

    rows: list[dict[str, Any]]
    trainees: list[Any]
    target: str
    day: date
    graph: Any
    pace: Pace
    lang: str = "de"

    def json(self) -> dict[str, Any]:
        """The answer of `cohort --format json`: the rows, and what their dates assume (a sentence in `lang`)."""
        from crewkg.careers.cohorts import assumptions

        return {"target": self.target, "as_of": self.day.isoformat(), "assumes": assumptions(self.lang),
                "trainees": self.rows}


def cohort(law: Law, path: Path, target: str, day: date, lang: str, days_per_year: int | None = None,
           workers: int | None = None, progress: Callable[[str, int], AbstractContextManager] | None = None) -> Cohort:
    """Every trainee of a cohort file: eligibility on the day, the earliest date for the target, what is missing.
    A cohort larger than the careers' LARGE is evaluated by `workers` processes (default one per core) inside
    `progress(target, trainees)`, a context that gives the callback to report each evaluated trainee to."""
    from crewkg.careers.cohorts import LARGE, evaluate_cohort, load_cohort
    from crewkg.careers.planning import Pace
    from crewkg.careers.routes import plan_target

    covered(law, day)
    pace = Pace.from_kb(days=days_per_year)
    g = graph(law, lang, pace.days)
    target = plan_target(law, g, target, day, fields=("--as-of", "--target"))
    trainees = load_cohort(path, law, day)
    n = sum(1 for t in trainees if t.person is not None)
    if n <= LARGE:
        rows = evaluate_cohort(law, trainees, target, day, pace, lang, workers=workers or 1, g=g)
    else:
        with progress(target, n) if progress is not None else nullcontext() as advance:
            rows = evaluate_cohort(law, trainees, target, day, pace, lang, workers=workers or os.cpu_count() or 1,
                                   on_progress=advance, g=g)
    return Cohort(rows, trainees, target, day, g, pace, lang)


def cohort_report(law: Law, c: Cohort, kind: str, name: str, lang: str) -> str | dict[str, Any]:
    """The cohort as a file: an HTML report with its chart, CSV, or the JSON answer (a dict)."""
    from crewkg.careers.cohorts import csv_text, html_report

    if kind == "html":
        return html_report(law, c.rows, c.graph, name, c.target, c.day, c.pace, lang)
    if kind == "csv":
        return csv_text(law, c.rows, lang)
    return c.json()


def cohort_table(law: Law, c: Cohort, lang: str) -> tuple[str, list[str], list[list[str]], str]:
    """The cohort as a table for people: what its dates assume, its header, a row of cells per trainee, and the
    summary line."""
    from crewkg.careers.cohorts import assumptions, header, row_cells, summary

    return assumptions(lang), header(lang), [row_cells(law, row, lang) for row in c.rows], summary(c.rows, lang)


def timeline(law: Law, person: Person, day: date, lang: str, every: bool = False) -> dict[str, Any]:
    """A person's summary, credited days, issuable spells, certificates held, medical fitness and fastest planned
    route; the text, the calendar and the picture show the certificates that concern the person (`every`: all)."""
    from crewkg.careers.timeline import timeline as build

    return build(law, person, day, lang, every=every)


def timeline_picture(result: dict[str, Any], kind: str, lang: str) -> bytes | str:
    """The timeline drawn: SVG or PNG bytes, or an HTML page around the SVG drawing; of the certificates, those that
    concern the person unless the timeline was asked for every one."""
    from crewkg.careers.timeline import html_page
    from crewkg.careers.timeline_picture import draw

    if not result.get("every", True):
        result = result | {"certificates": [c for c in result.get("certificates", []) if c.get("concerns")]}
    return html_page(result, draw(result, "svg", lang), lang) if kind == "html" else draw(result, kind, lang)


def timeline_ics(result: dict[str, Any], lang: str) -> bytes:
    """The coming dates of a timeline as an iCalendar file."""
    from crewkg.careers.timeline import ics
    from crewkg.extras import require

    require("calendar")
    return ics(result, lang)


def timeline_text(result: dict[str, Any], lang: str) -> list[str]:
    from crewkg.careers.timeline import lines

    return lines(result, lang)
