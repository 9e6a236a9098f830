"""The picture of a fleet forecast (`crewkg fleet --out FILE.svg|png|html`): one row per vessel over the span, green
where its roster meets the minimum crew, red where it does not, grey where the sources leave it open; each change
marked on its day and labelled with its causes (who, and what changed). Drawn with matplotlib like the timeline
(careers.timeline_picture): text of at least 9 points at 110 dpi; every text from the message catalogue."""

from __future__ import annotations

import textwrap
from datetime import date, timedelta
from typing import Any

from crewkg.careers.fleet_text import heading, lines
from crewkg.careers.pictures import COLOR, figure_bytes
from crewkg.extras import require
from crewkg.law.statute import Law
from crewkg.messages.sections import section

#: the colours of a verdict (colour-blind safe: bluish green, vermilion, grey)
SHADE = {True: "#8fd3b8", False: "#d55e00", None: "#bdbdbd"}
#: the label of a change, lines of at most this many characters, at most this many lines
WIDTH, LINES = 30, 3


def _d(s: str) -> date:
    return date.fromisoformat(s)


def spells(vessel: dict[str, Any], start: date, end: date) -> list[tuple[date, date, bool | None]]:
    """(first day, the day after the last, verdict) of each stretch of one vessel's span."""
    marks = [(start, vessel["satisfied"])] + [(_d(e["date"]), e["satisfied"]) for e in vessel["events"]]
    out = []
    for (a, verdict), nxt in zip(marks, [*marks[1:], (end + timedelta(days=1), None)], strict=True):
        out.append((a, nxt[0], verdict))
    return out


def label(law: Law, event: dict[str, Any], lang: str) -> str:
    """A change's label: each cause as its person and a few words for what changed."""
    t = section("fleet.", lang)
    parts = []
    for c in event["causes"]:
        what = t.get("reason." + c["reason"], t["reason.changed"])
        parts.append(t["picture.cause"].format(person=c["person"] or t["picture.law"], what=what))
    text = "; ".join(dict.fromkeys(parts)) or t["no_cause"]
    return textwrap.fill(text, WIDTH, max_lines=LINES, placeholder=" …")


def draw(law: Law, result: dict[str, Any], fmt: str = "png", lang: str = "de") -> bytes:
    """The forecast as PNG or SVG bytes."""
    require("pictures", "matplotlib")
    from matplotlib import dates as mdates
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    t = section("fleet.", lang)
    start, end = _d(result["from"]), _d(result["until"])
    vessels = result["vessels"]
    row = 1.2  # inches per vessel: the bar and two labels above it
    height = 1.6 + row * max(len(vessels), 1)
    fig = Figure(figsize=(13, height), dpi=110)
    fig.text(0.01, 1 - 0.3 / height, heading(result, lang), fontsize=13, fontweight="bold", va="center")
    ax = fig.add_axes((0.16, 0.95 / height, 0.82, 1 - 1.6 / height))
    for y, v in enumerate(vessels):
        for a, b, verdict in spells(v, start, end):
            ax.barh(y, (b - a).days, left=a, height=0.34, color=SHADE[verdict], edgecolor="white", lw=0.5)
        for i, e in enumerate(v["events"]):
            day = _d(e["date"])
            late = (day - start).days > 0.7 * max((end - start).days, 1)  # a label near the end runs leftwards
            ax.plot([day, day], [y - 0.22, y + 0.22], color=COLOR["edge"], lw=1.6)
            ax.annotate(label(law, e, lang), (day, y - 0.2), xytext=(-3 if late else 3, 4 + 22 * (i % 2)),
                        textcoords="offset points", fontsize=9, va="bottom", ha="right" if late else "left",
                        color="#222222", annotation_clip=False)
    ax.set_yticks(range(len(vessels)), [v["vessel"] for v in vessels], fontsize=10)
    ax.set_ylim(len(vessels) - 0.4, -0.95)
    ax.set_xlim(start, end + timedelta(days=1))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))
    ax.tick_params(axis="x", labelsize=9)
    ax.grid(axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    handles = [Patch(facecolor=SHADE[True], label=t["verdict.met"]), Patch(facecolor=SHADE[False], label=t["verdict.not_met"]),
               Patch(facecolor=SHADE[None], label=t["verdict.open"])]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.57, 0.35 / height), ncols=3, fontsize=9, frameon=False)
    return figure_bytes(fig, fmt, bbox_inches="tight", pad_inches=0.15)


def html_page(law: Law, result: dict[str, Any], svg: bytes, lang: str = "de") -> str:
    """A self-contained page (template `fleet.html.j2`): the picture (inline SVG) and the text."""
    from crewkg.careers.pages import render

    body = svg.decode("utf-8")
    return render("fleet.html.j2", lang=lang, title=heading(result, lang), svg=body[body.index("<svg"):],
                  lines=lines(law, result, lang))
