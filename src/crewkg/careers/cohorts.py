"""Cohort plans for training institutions (`crewkg cohort COHORT.(csv|yaml) --target CERTIFICATE`).

For every trainee: what can be issued on the evaluation date, whether the target can, the earliest date for the target along the
fastest route (planning.py) and what is still missing on it. A trainee whose row is bad is reported with its error;
the others are evaluated all the same. Output as a rich table, CSV, JSON or a self-contained HTML report with a
matplotlib chart (embedded as a base64 PNG) of how many trainees can hold each certificate month by month.

Speed: the eligibility engine costs about 10 ms per person and grows faster than linearly in very large batches, so
trainees are evaluated in batches of `BATCH`; large cohorts use one process per core (fork), each with its own
pyDatalog database. Cohort rows pass the schema check of person records (types, ranges, known ids); the per-record
SHACL run of `crewkg check` (about 0.2 s per new record) is skipped, as its constraints are the schema's.
"""

from __future__ import annotations

import base64
import csv
import io
import multiprocessing
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.careers.planning import Pace, Planner, add_months, confirm, make_planner
from crewkg.careers.routes import held_above_on, plan, reach_dates
from crewkg.errors import InputError, Place, place
from crewkg.extras import require
from crewkg.law.statute import Law
from crewkg.messages.sections import sections
from crewkg.records.flat import csv_rows
from crewkg.records.persons import Person, person_from_mapping
from crewkg.records.problems import Problem, all_errors
from crewkg.records.reading import read_mapping

BATCH = 100
#: cohorts larger than this get a progress bar and, on machines with more than one core, worker processes
LARGE = 300



@dataclass
class Trainee:
    """One row of a cohort: the person, or the error that kept it from being read."""

    source: str
    id: str
    person: Person | None = None
    error: str | None = None
    problem: Problem | None = None  # the row's errors, all of them where cheap (records.problems)








def load_cohort(path: Path, law: Law, as_of: date) -> list[Trainee]:
    """Read a cohort file. A bad file (unreadable, unknown column, no trainees) raises InputError; a bad row becomes
    a Trainee with its error, and the other rows are read all the same."""
    if not path.is_file():
        raise InputError(str(path), "", "cohort_file")
    suffix = path.suffix.lower()
    rows: list[tuple[str, str | None, Any]] = []  # (source, the CSV row's id cell, the record or its error)
    if suffix == ".csv":
        rows = list(csv_rows(path, law, "cohort", {RECORD: "str"}))
    elif suffix in (".yaml", ".yml", ".json"):
        data = read_mapping(path, "cohort", list_ok=True)
        if isinstance(data, dict) and set(data) == {"trainees"}:
            data = data["trainees"]
        if not isinstance(data, list):
            raise InputError(str(path), "trainees", "trainees")
        rows = [(f"{path}: trainees[{i}]", None, None, rec) for i, rec in enumerate(data)]
    else:
        raise InputError(str(path), "", "cohort_suffix", path.suffix)
    if not rows:
        raise InputError(str(path), "", "one_trainee")
    out: list[Trainee] = []
    seen: dict[str, str] = {}
    for source, _, cell, rec in rows:
        rid = cell if cell else rec.get("id") if isinstance(rec, dict) else None
        label = rid if isinstance(rid, str) and rid else source.rsplit(": ", 1)[-1]
        where = source.rsplit(": ", 1)[-1]
        if cell is not None and isinstance(rec, list):  # the errors of a CSV row's cells (records.flat)
            out.append(_bad(source, label, Problem(where, rec)))
            continue
        try:
            p = linked_record(path, rec, source, law, as_of) if isinstance(rec, dict) and RECORD in rec \
                else person_from_mapping(rec, law, as_of, source)
        except InputError as exc:
            errors = [exc] if isinstance(rec, dict) and RECORD in rec else all_errors(exc, rec, law, as_of, source)
            out.append(_bad(source, label, Problem(where, errors)))
            continue
        if p.id in seen:
            out.append(_bad(source, p.id, Problem(where, [InputError(source, "id", "unique_trainee_id", p.id, other=Place(seen[p.id]))])))
            continue
        seen[p.id] = source
        out.append(Trainee(source, p.id, person=p))
    return out


#: the column (CSV) or key (YAML, JSON) that names a trainee's own record file instead of giving the record inline
RECORD = "record"


def linked_record(cohort: Path, rec: dict[str, Any], source: str, law: Law, as_of: date) -> Person:
    """The person record a cohort row points to (`record`: a YAML, JSON or Turtle record file, relative to the cohort
    file): how a trainee's service log (Schifferdienstbuch), dated programmes and exams come into a cohort, as a CSV
    row holds totals only. The row gives nothing else but, optionally, the record's id."""
    from crewkg.records.persons import SUFFIXES

    name = rec[RECORD]
    others = sorted(k for k in rec if k not in (RECORD, "id"))
    if others:
        raise InputError(source, others[0], "cohort_record_alone", record=name)
    f = cohort.parent / name if isinstance(name, str) and name else None
    if f is None or f.suffix.lower() not in SUFFIXES or not f.is_file():
        raise InputError(source, RECORD, "cohort_record_file", name, suffixes=", ".join(sorted(SUFFIXES)))
    if f.suffix.lower() == ".ttl":
        from crewkg.records.turtle import person_from_turtle

        p = person_from_turtle(f, law, as_of)
    else:
        p = person_from_mapping(read_mapping(f), law, as_of, str(f))
    if "id" in rec and rec["id"] != p.id:
        raise InputError(source, "id", "cohort_record_id", rec["id"], record=name, other=p.id)
    return p


# ------------------------------------------------------------------------------------------------------------
# Evaluation

_WORKER: dict[str, Any] = {}  # what forked workers inherit: law, graph


def _row(law: Law, g, p: Person, answer: dict[str, Any], target: str, as_of: date, pace: Pace,
         planner: Planner | None = None) -> dict[str, Any]:
    planner = planner or make_planner(law, p, answer, as_of, pace)
    result = plan(law, p, answer, target, as_of, pace, graph=g, planner=planner)
    best = result["routes"][0] if result["routes"] else None
    reach = reach_dates(law, p, answer, as_of, pace, g, target, planner=planner)
    eligible = [c["id"] for c in answer["certificates"] if c.get("eligible")]
    return {
        "id": p.id, "error": None,
        "eligible_today": eligible,
        "target_today": target in eligible,
        "holds_target": target in p.certificates,
        "held_above": held_above_on(law, p, target, as_of),
        "earliest": best["earliest"] if best else None,
        "route": [s["provision"] for s in best["steps"]] if best else [],
        "missing": [m for s in best["steps"] for m in s["remaining"]] if best else [],
        "reach": {c: (d.isoformat() if d else None) for c, d in reach.items()},
    }


def _planned(law: Law, g, persons: list[Person], answers: list, target: str, as_of: date,
             pace: Pace, lang: str = "de") -> dict[str, Planner]:
    """Every route of every trainee walked, then the rules' verdicts on all their projected steps in one batch
    (one Datalog run per few hundred steps instead of one per step). A trainee whose routes fail to plan is left
    to `_row`, which reports the error."""
    from crewkg.careers.graph import person_routes

    planners: dict[str, Planner] = {}
    for p, a in zip(persons, answers, strict=True):
        if isinstance(a, Exception) or not a.get("covered", True):
            continue
        try:
            planner = make_planner(law, p, a, as_of, pace, lang)
            held = [c for c in p.certificates if c in g]
            for route in person_routes(g, target, held, a):
                planner.walk(route)
        except Exception:
            continue
        planners[p.id] = planner
    confirm(list(planners.values()))
    return planners


def _bad(source: str, label: str, problem: Problem) -> Trainee:
    return Trainee(source, label, error=problem.first.message(), problem=problem)


def _error_row(t: Trainee | Person, message: str, lang: str = "en") -> dict[str, Any]:
    """`error` and `errors` in English as every JSON answer names a bad record (clients match on them); `detail`, the
    first error as a sentence in the language asked, for the tables and the report."""
    problem = t.problem if isinstance(t, Trainee) else None
    entry = problem.entry(lang) if problem else {"errors": [message], "detail": message, "details": [message]}
    return {"id": t.id, "error": message, "errors": entry["errors"], "detail": entry["detail"],
            "details": entry["details"], "eligible_today": [], "target_today": None,
            "holds_target": None, "held_above": None, "earliest": None, "route": [], "missing": [], "reach": {}}


def evaluate_batch(persons: list[Person], target: str, as_of: date, pace: Pace, lang: str = "de",
                   law: Law | None = None, g=None) -> list[dict[str, Any]]:
    """One Datalog run for the batch, then the plan per trainee. An error with one trainee becomes that trainee's
    error; the batch is retried person by person so the others keep their answers."""
    from crewkg.answers.eligibility import check

    law = law or _WORKER["law"]
    g = g if g is not None else _WORKER["graph"]
    try:
        answers = check(law, persons, as_of, lang)
    except Exception:  # isolate the trainee that broke the batch
        answers = []
        for p in persons:
            try:
                answers.append(check(law, [p], as_of, lang)[0])
            except Exception as exc:
                answers.append(exc)
    planners = _planned(law, g, persons, answers, target, as_of, pace, lang)
    rows = []
    for p, a in zip(persons, answers, strict=True):
        if isinstance(a, Exception):
            rows.append(_error_row(p, f"{p.source}: evaluation failed ({type(a).__name__}: {a})"))
            continue
        try:
            rows.append(_row(law, g, p, a, target, as_of, pace, planners.get(p.id)))
        except Exception as exc:
            rows.append(_error_row(p, f"{p.source}: planning failed ({type(exc).__name__}: {exc})"))
    return rows


def evaluate_cohort(law: Law, trainees: list[Trainee], target: str, as_of: date, pace: Pace, lang: str = "de",
                    workers: int = 1, on_progress: Callable[[int], None] | None = None, g=None) -> list[dict[str, Any]]:
    """Rows in the cohort's order. `workers` > 1 evaluates batches in forked processes (where fork exists)."""
    from crewkg.careers.graph import career_graph

    g = g if g is not None else career_graph(law, lang, days_per_period=pace.days)
    persons = [t.person for t in trainees if t.person is not None]
    batches = [persons[i:i + BATCH] for i in range(0, len(persons), BATCH)]
    done: dict[str, dict[str, Any]] = {}
    if workers > 1 and len(batches) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _WORKER.update(law=law, graph=g)
        with ProcessPoolExecutor(max_workers=min(workers, len(batches)), mp_context=multiprocessing.get_context("fork")) as ex:
            futures = {ex.submit(evaluate_batch, b, target, as_of, pace, lang): b for b in batches}
            for f in as_completed(futures):
                try:
                    rows = f.result()
                except Exception:  # a worker died (not a trainee's error): evaluate its batch here instead
                    rows = evaluate_batch(futures[f], target, as_of, pace, lang, law, g)
                for row in rows:
                    done[row["id"]] = row
                if on_progress:
                    on_progress(len(futures[f]))
    else:
        for b in batches:
            for row in evaluate_batch(b, target, as_of, pace, lang, law, g):
                done[row["id"]] = row
            if on_progress:
                on_progress(len(b))
    return [done[t.id] if t.person is not None else _error_row(t, t.error or "", lang) for t in trainees]


# ------------------------------------------------------------------------------------------------------------
# Output

#: the cohorts texts, from the message catalogue (section "careers", keys careers.cohort.*)
TEXT = sections("careers.cohort.")


def _short(law: Law, cid: str, lang: str) -> str:
    from crewkg.careers.graph import certificate_short

    return certificate_short(law, cid, lang)




def row_cells(law: Law, row: dict[str, Any], lang: str = "de") -> list[str]:
    """A row as texts: trainee, issuable on the evaluation date, the target then, earliest, route, missing, error. A
    target not needed (a certificate for a role above it is held) has no date, route or gap; a date that assumes
    exams or proofs obtained on the step's date (the plan's assumption) names them."""
    t = TEXT[lang]
    if row["error"]:
        # a row without a readable id is named by its place, in English in the JSON ('row 7'): said in `lang` here
        return [place(row["id"], lang), "", "", "", "", "", row.get("detail") or row["error"]]
    today = ", ".join(_short(law, c, lang) for c in row["eligible_today"])
    if row["holds_target"]:
        return [row["id"], today, t["held"], _earliest(law, row, lang), route_text(row), missing_text(law, row, lang), ""]
    if row.get("held_above"):  # the JSON keeps the route asked for; the table says the target is not needed
        above = t["held_above"].format(certificate=_short(law, row["held_above"], lang))
        return [row["id"], today, above, t["not_needed"], "", "", ""]
    return [row["id"], today, t["yes"] if row["target_today"] else t["no"], _earliest(law, row, lang),
            route_text(row), missing_text(law, row, lang), ""]


def _earliest(law: Law, row: dict[str, Any], lang: str) -> str:
    """The earliest date, with what it assumes obtained by then (an exam, a medical fitness: planned on the step's
    date, as `plan` says in its assumptions), so that a 'no' on the evaluation date beside that very date says why."""
    from crewkg.rules.kinds import kind

    t = TEXT[lang]
    if not row["earliest"]:
        return t["never"]
    assumed: list[str] = []
    for m in row["missing"]:
        k = kind(m["kind"])
        if not k.takes_time and m.get("met_on") and m.get("id") in law.requirements:
            name = k.summary(law, law.requirements[m["id"]], lang)
            if name not in assumed:
                assumed.append(name)
    if not assumed:
        return row["earliest"]
    return t["earliest_assuming"].format(date=row["earliest"], items=", ".join(assumed))


def route_text(row: dict[str, Any]) -> str:
    """The route's steps, '§ 12 Z 2 → § 13 Z 1'."""
    return " → ".join(p.replace(" SchBV", "") for p in row["route"])


def missing_text(law: Law, row: dict[str, Any], lang: str) -> str:
    """What the route still lacks, sentence by sentence."""
    from crewkg.rules.kinds import missing_sentence

    return "; ".join(missing_sentence(law, m, lang) for m in row["missing"])


def assumptions(lang: str = "de") -> str:
    """What the dates of a cohort assume: the sentence `plan` and `timeline` say (careers.plan.assumes)."""
    from crewkg.messages.catalogue import say

    return say(lang, "careers.plan.assumes")


def header(lang: str = "de") -> list[str]:
    t = TEXT[lang]
    return [t["id"], t["today"], t["target_today"], t["earliest"], t["route"], t["missing"], t["error"]]


def csv_text(law: Law, rows: list[dict[str, Any]], lang: str = "de") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    # `error` in English, as every JSON answer names a bad record (programs match on it); `detail` in `lang`
    w.writerow(["id", "eligible_today", "target_today", "holds_target", "held_above", "earliest", "route", "missing", "error",
                "detail"])

    def flag(x: bool | None) -> str:  # machine-readable in every language, as the record CSV reads them
        return "" if x is None else ("true" if x else "false")

    for row in rows:  # the answer's values, as the JSON gives them (held_above says why a date is not needed)
        route, missing = ("", "") if row["error"] else (route_text(row), missing_text(law, row, lang))
        w.writerow([row["id"], " ".join(row["eligible_today"]), flag(row["target_today"]), flag(row["holds_target"]),
                    row.get("held_above") or "", row["earliest"] or "", route, missing, row["error"] or "", (row.get("detail") or "") if row["error"] else ""])
    return buf.getvalue()


def chart_certificates(g, target: str) -> list[str]:
    """The target and every certificate on a route to it, left to right."""
    import networkx as nx

    from crewkg.careers.graph import START

    nodes = [n for n in nx.ancestors(g, target) if n != START] + [target]
    return sorted(nodes, key=lambda n: (g.nodes[n]["rank"], n))


def level_dates(law: Law, row: dict[str, Any], certs: list[str], depth: dict[str, int]) -> dict[str, date | None]:
    """The day a trainee reaches each certificate's level: its own date, or an earlier one of a certificate whose role
    ranks higher (a Bootsmann has passed the Matrose level; crew:ranksAbove, an INTERPRETATION recorded in the kb).
    `depth` is planning.role_depths(law)."""
    reach = {c: date.fromisoformat(d) for c, d in row["reach"].items() if d}
    out: dict[str, date | None] = {}
    for c in certs:
        level = depth.get(law.certificates[c].role or "", -1)
        days = [d for c2, d in reach.items() if c2 == c or depth.get(law.certificates[c2].role or "", -1) > level >= 0]
        out[c] = min(days, default=None)
    return out


def month_counts(law: Law, rows: list[dict[str, Any]], certs: list[str], as_of: date,
                 horizon: int = 120) -> tuple[list[date], dict[str, list[int]]]:
    """For each month from the evaluation date on: how many trainees can hold each certificate (or a higher one)."""
    from crewkg.careers.planning import role_depths

    depth = role_depths(law)
    levels = [level_dates(law, r, certs, depth) for r in rows if not r["error"]]
    last = max((d for lv in levels for d in lv.values() if d), default=as_of)
    months = min(horizon, max(1, (last.year - as_of.year) * 12 + last.month - as_of.month + 1))
    ticks = [add_months(as_of, m) for m in range(months + 1)]
    counts = {c: [sum(1 for lv in levels if lv[c] and lv[c] <= tick) for tick in ticks] for c in certs}
    return ticks, counts


def chart_png(law: Law, rows: list[dict[str, Any]], g, target: str, as_of: date, lang: str = "de") -> bytes:
    """Step lines: trainees who can hold each certificate on the route to the target, month by month."""
    require("pictures", "matplotlib")
    from matplotlib.figure import Figure

    t = TEXT[lang]
    certs = chart_certificates(g, target)
    ticks, counts = month_counts(law, rows, certs, as_of)
    fig = Figure(figsize=(10, 4.8), dpi=110)
    ax = fig.add_subplot(1, 1, 1)
    for c in certs:
        ax.step(ticks, counts[c], where="post", lw=2.2 if c == target else 1.4, label=_short(law, c, lang))
    ax.set_ylim(0, max(1, sum(1 for r in rows if not r["error"])) * 1.05)
    ax.set_title(t["chart"], fontsize=11)
    ax.set_xlabel(t["month"])
    ax.set_ylabel(t["count"])
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    fig.autofmt_xdate()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    return buf.getvalue()


def summary(rows: list[dict[str, Any]], lang: str = "de") -> str:
    err = sum(1 for r in rows if r["error"])
    today = sum(1 for r in rows if r["target_today"] or r["holds_target"])
    planned = sum(1 for r in rows if r["earliest"])
    return TEXT[lang]["summary"].format(n=len(rows), ok=len(rows) - err, err=err, today=today, planned=planned)


#: what must not break over a line in the report: a citation ("§ 14 Z 1 lit. a SchBV", up to its closing bracket or
#: separator) and an ISO date
_UNBREAKABLE = re.compile(r"§[^();,:→]*[^();,:→\s]|\d{4}-\d{2}-\d{2}")
#: the columns kept on one line whole where they hold one date (earliest) and the columns whose items are
#: (certificates, route steps)
_NOWRAP_COLUMNS = {3}
_ITEM_SEPARATORS = {1: ", ", 4: " → "}


def cell_parts(text: str, column: int) -> tuple[bool, list[tuple[str, bool]], str]:
    """How a table cell of the report is laid out: whether the whole cell stays on one line, its parts (text, kept
    whole), and what stands between the parts. Citations and dates are kept whole, so "§ 14 Z 1 lit. a SchBV" and
    "2027-06-28" never break inside; a list of certificates or route steps breaks only between its items."""
    if column in _NOWRAP_COLUMNS and _UNBREAKABLE.fullmatch(text):
        return True, [(text, False)], ""
    if column in _ITEM_SEPARATORS and text:
        sep = _ITEM_SEPARATORS[column]
        return False, [(item, True) for item in text.split(sep)], sep
    from crewkg.careers.pages import kept_whole

    return False, kept_whole(text), ""


def cell_html(text: str, column: int) -> str:
    """A table cell's HTML, as the report has it (template `cohort_cell.html.j2`): the parts `cell_parts` keeps
    whole in `<span class="nw">` (CSS white-space: nowrap)."""
    from crewkg.careers.pages import macro

    return str(macro("cohort_cell.html.j2", "cell")(*cell_parts(text, column)))


def html_report(law: Law, rows: list[dict[str, Any]], g, name: str, target: str, as_of: date, pace: Pace, lang: str = "de") -> str:
    """A self-contained page (template `cohort_report.html.j2`): summary, chart (inline PNG), one table row per
    trainee, errors. No external URL."""
    from crewkg.careers.pages import render

    t = TEXT[lang]
    png = base64.b64encode(chart_png(law, rows, g, target, as_of, lang)).decode("ascii")
    body = [{"error": bool(row["error"]), "cells": [cell_parts(c, i) for i, c in enumerate(row_cells(law, row, lang))]}
            for row in rows]
    return render("cohort_report.html.j2", lang=lang, title=t["title"].format(name=name, target=_short(law, target, lang)),
                  as_of=t["as_of"].format(as_of=as_of.isoformat(), pace=pace.words(t)), assumes=assumptions(lang),
                  summary=summary(rows, lang),
                  chart_alt=t["chart"], chart_png=png, header=header(lang), rows=body, errors_heading=t["errors"],
                  errors=[r.get("detail") or r["error"] for r in rows if r["error"]])
