"""The picture of a person's timeline (`crewkg timeline --out FILE.svg|png|html`): above, the credited days of each
scope over time with the day counts the law names; below, one row per certificate with the spells in which it was
issuable, its issue date and its planned earliest date; the evaluation date and the end of the medical certificate
as vertical lines. Drawn with matplotlib like the career graph (careers.pictures): text of at least 9 points at
110 dpi, so it stays legible at 80 % zoom; every text from the message catalogue, with a legend."""

from __future__ import annotations

import textwrap
from datetime import date, timedelta
from typing import Any

from crewkg.careers.pictures import COLOR, figure_bytes
from crewkg.careers.timeline import TEXT, heading
from crewkg.extras import require
from crewkg.law.phases import PHASES

#: how far beyond the evaluation date a coming date (an event of the timeline) may widen the axis
SPAN = timedelta(days=3 * 365)

#: one colour per credited-days line (colour-blind safe, Okabe-Ito)
LINES = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#f0e442")


def _d(s: str) -> date:
    return date.fromisoformat(s)


def draw(result: dict[str, Any], fmt: str = "png", lang: str = "de") -> bytes:
    """The timeline as PNG or SVG bytes."""
    require("pictures", "matplotlib")
    from matplotlib.figure import Figure

    t = TEXT[lang]
    as_of = _d(result["as_of"])
    certs = [c for c in result.get("certificates", []) if c.get("covered", True)]  # a row only where there is a line
    lo, hi = _span(result, certs, as_of)
    rows = max(len(certs), 1)
    height = 3.6 + 0.42 * rows + 0.7
    fig = Figure(figsize=(13, height), dpi=110)
    fig.text(0.01, 1 - 0.3 / height, heading(result, lang),
             fontsize=13, fontweight="bold", va="center")
    top_h, bottom_h = 3.0 / height, (0.42 * rows) / height
    ax = fig.add_axes((0.17, 1 - 0.55 / height - top_h, 0.56, top_h))
    bx = fig.add_axes((0.17, 1 - 0.55 / height - top_h - 0.35 / height - bottom_h, 0.56, bottom_h), sharex=ax)
    handles = _draw_credited(ax, result, lo, as_of, t)
    _draw_certificates(bx, result, certs, as_of, rows)
    bx.set_xlim(lo, hi)
    handles += _draw_dates((ax, bx), result, as_of, hi, t)
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.745, 1 - 0.55 / height), fontsize=9,
               frameon=False, title=t["picture.legend"], title_fontsize=10, alignment="left")
    # the certificates' names are as wide as the language makes them: the page grows to hold them, not clip them
    return figure_bytes(fig, fmt, bbox_inches="tight", pad_inches=0.15)


def _span(result: dict[str, Any], certs: list[dict[str, Any]], as_of: date) -> tuple[date, date]:
    """The time axis: from the first credited day or issuable spell (a year before the evaluation date at the
    latest) to the last planned date or coming event within `SPAN` (half a year after it at the earliest)."""
    starts = [_d(r["from"]) for s in result.get("credited", []) for r in s["runs"][:1]]
    starts += [_d(a) for c in certs for a, _ in c["spells"]]
    ends = [_d(c["planned"]) for c in certs if c.get("planned")]
    # a coming date decades ahead (a medical renewal at 60, a validity of 13 years) would squeeze the record's years
    # into a sliver: dates within SPAN of the evaluation date set the axis, the calendar file (`ics`) has them all
    ends += [d for d in (_d(e["date"]) for e in result.get("events", [])) if d <= as_of + SPAN]
    lo = min(starts + [as_of - timedelta(days=365)])
    hi = max(ends + [as_of + timedelta(days=180)])
    return lo - timedelta(days=30), hi + timedelta(days=60)


def _draw_credited(ax, result: dict[str, Any], lo: date, as_of: date, t: dict[str, str]) -> list[Any]:
    """Above: the credited days per scope, a step line through the end of each run of credited days, a dot where
    it reaches a day count the law names, and a dotted line at each such count. Returns the lines' legend handles."""
    handles: list[Any] = []
    # of a programme's phases only the days within it are drawn, not the phases that count days after it
    after = tuple(":" + ph.id for ph in PHASES if ph.after)
    drawn = [s for s in result.get("credited", []) if not s["scope"].endswith(after)]
    for i, s in enumerate(drawn):
        xs: list[date] = [lo]
        ys: list[int] = [0]
        before = 0
        for r in s["runs"]:
            xs += [_d(r["from"]) - timedelta(days=1), _d(r["to"])]
            ys += [before, r["credited"]]
            before = r["credited"]
        xs.append(as_of)
        ys.append(before)
        colour = LINES[i % len(LINES)]
        dashed = s["scope"] == "any"  # the union of the roles' days: drawn dashed so a role's line under it shows
        (line,) = ax.plot(xs, ys, color=colour, lw=2.6 if dashed else 2, ls="--" if dashed else "-", label=textwrap.fill(s["label"], 36))
        handles.append(line)
        for n, day in s["reached"].items():
            ax.plot([_d(day)], [int(n)], marker="o", ms=5, color=colour)
    marks = sorted({int(n) for s in drawn for n in s["reached"]})
    for n in marks:
        ax.axhline(n, color=COLOR["dim"], lw=0.8, ls=":", zorder=0)
    ax.set_ylabel(t["picture.days"], fontsize=10)
    ax.tick_params(labelsize=9)
    ax.grid(axis="x", color="#eeeeee")
    return handles


def _draw_certificates(bx, result: dict[str, Any], certs: list[dict[str, Any]], as_of: date, rows: int) -> None:
    """Below: a row per certificate with the spells in which it was issuable, its issue date where it is held and
    its planned earliest date where it is not yet issuable."""
    from matplotlib import dates as mdates

    names = [textwrap.fill(c["label"], 34, max_lines=2, placeholder=" …") for c in certs]
    for y, c in enumerate(certs):
        for a, b in c["spells"]:
            start, end = _d(a), _d(b) if b else as_of
            bx.barh(y, (end - start).days + 1, left=start, height=0.5, color=COLOR["held"], edgecolor="#b36b00")
        held = next((h for h in result.get("held", []) if h["id"] == c["id"]), None)
        if held and held.get("issued"):
            bx.plot([_d(held["issued"])], [y], marker="D", ms=7, color=COLOR["edge"])
        if c.get("planned") and not c["eligible"]:
            day = _d(c["planned"])
            bx.plot([day], [y], marker=">", ms=8, mfc="white", mec=COLOR["hi"], mew=2)
            bx.text(day + timedelta(days=12), y, c["planned"], fontsize=9, va="center", color=COLOR["hi"])
    bx.set_yticks(range(len(names)), names, fontsize=9)
    bx.set_ylim(-0.6, rows - 0.4)
    bx.invert_yaxis()
    bx.tick_params(axis="x", labelsize=9)
    bx.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))


def _draw_dates(axes: tuple[Any, Any], result: dict[str, Any], as_of: date, hi: date, t: dict[str, str]) -> list[Any]:
    """The evaluation date, and the end of the medical certificate where it falls on the axis, as vertical lines
    on both halves; returns the legend handles of everything but the credited lines."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    medical = result.get("medical", {}).get("valid_until")
    if medical and _d(medical) > hi:  # beyond the axis: not drawn, not in the legend
        medical = None
    for a in axes:
        a.axvline(as_of, color=COLOR["hi"], lw=1.5)
        if medical:
            a.axvline(_d(medical), color="#7a5195", lw=1.5, ls="--")
    handles = [Line2D([], [], color=COLOR["hi"], lw=1.5, label=t["picture.today"]),
               Line2D([], [], color=COLOR["dim"], lw=0.8, ls=":", label=t["picture.threshold"]),
               Patch(facecolor=COLOR["held"], edgecolor="#b36b00", label=t["picture.spell"]),
               Line2D([], [], ls="", marker="D", ms=7, color=COLOR["edge"], label=t["picture.issued"]),
               Line2D([], [], ls="", marker=">", ms=8, mfc="white", mec=COLOR["hi"], mew=2, label=t["picture.planned"])]
    if medical:
        handles.append(Line2D([], [], color="#7a5195", lw=1.5, ls="--", label=t["picture.medical"]))
    return handles
