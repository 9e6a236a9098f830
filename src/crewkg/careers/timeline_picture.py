"""The picture of a person's timeline (`crewkg timeline --out FILE.svg|png|html`): above, the credited days of each
scope over time with the day counts the law names; below, one row per certificate with the spells in which it was
issuable, its issue date and its planned earliest date; the evaluation date and the end of the medical certificate
as vertical lines. Drawn with matplotlib like the career graph (careers.pictures): text of at least 9 points at
110 dpi, so it stays legible at 80 % zoom; every text from the message catalogue, with a legend."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from crewkg.careers.pictures import COLOR, figure_bytes
from crewkg.careers.placing import text_width, wrap
from crewkg.careers.timeline import TEXT, heading
from crewkg.extras import require
from crewkg.law.phases import PHASES

#: how far beyond the evaluation date a coming date (an event of the timeline) may widen the axis
SPAN = timedelta(days=3 * 365)

#: the marks on the evaluation date of a record without a service log, by the timeline text that names them
MARKS = {"eligible_now": {"ls": "", "marker": "o", "ms": 9, "mfc": COLOR["held"], "mec": "#b36b00", "mew": 1.5},
         "holds": {"ls": "", "marker": "s", "ms": 7, "mfc": "white", "mec": COLOR["edge"], "mew": 2}}

#: one colour per credited-days line (colour-blind safe, Okabe-Ito)
LINES = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#f0e442")


def _d(s: str) -> date:
    return date.fromisoformat(s)


def draw(result: dict[str, Any], fmt: str = "png", lang: str = "de") -> bytes:
    """The timeline as PNG or SVG bytes: each half's time axis fitted to what it draws, a row for every certificate
    with a date on it (named whole, never two rows alike), the days recorded but not yet validated hatched."""
    require("pictures", "matplotlib")
    from matplotlib.figure import Figure

    t = TEXT[lang]
    as_of = _d(result["as_of"])
    covered = [c for c in result.get("certificates", []) if c.get("covered", True)]  # a row only where there is a line
    certs = [c for c in covered if _dated(result, c)]
    names = row_labels(certs)
    lines = max((n.count("\n") + 1 for n in names), default=1)
    row = 0.15 * lines + 0.14
    rows = max(len(certs), 1)
    title = wrap(heading(result, lang), 13 * 72 - 20, 13, bold=True)
    head = 0.2 + 0.25 * len(title)
    credited = bool(_drawn_scopes(result)) or bool(_waiting(result))
    top_h, gap, bottom_h = (3.0, 0.55, row * rows) if credited else (0.3, 0.2, row * rows)
    foot = 0.35 if len(certs) < len(covered) else 0.0
    height = head + top_h + gap + bottom_h + 0.45 + foot
    fig = Figure(figsize=(13, height), dpi=110)
    fig.text(0.01, 1 - 0.12 / height, "\n".join(title), fontsize=13, fontweight="bold", va="top", gid="title")
    left = 0.02 + (max((text_width(n, 9) for n in names), default=60) + 12) / (13 * 72)
    width = 0.745 - 0.02 - left
    bx = fig.add_axes((left, (0.45 + foot) / height, width, bottom_h / height))
    if credited:
        ax = fig.add_axes((left, (0.45 + foot + bottom_h + gap) / height, width, top_h / height))
        handles = _draw_credited(ax, result, as_of, t, lang)
    else:
        handles = []
        fig.text(left, 1 - (head + 0.2) / height, t["no_log"], fontsize=10, color="#444444", va="center")
    bx.set_xlim(*_span(result, certs, as_of))
    marks = _draw_certificates(bx, result, certs, names, as_of, rows) | ({"threshold"} if credited else set())
    handles += _draw_dates((ax, bx) if credited else (bx,), result, as_of, t, marks)
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.755, 1 - head / height), fontsize=9,
               frameon=False, title=t["picture.legend"], title_fontsize=10, alignment="left")
    if foot:
        fig.text(left, 0.12 / height, t["picture.hidden"].format(n=len(covered) - len(certs)), fontsize=9,
                 color="#444444", va="bottom")
    return figure_bytes(fig, fmt, bbox_inches="tight", pad_inches=0.15)


def _dated(result: dict[str, Any], c: dict[str, Any]) -> bool:
    """Whether a certificate's row has something to draw: a spell, that it is issuable or held, a planned date."""
    return bool(c["spells"] or c["eligible"] or c.get("held") or (c.get("planned") and not c["eligible"]))


def row_labels(certs: list[dict[str, Any]]) -> list[str]:
    """Each row's name, whole, over lines of at most 200 points; where two names read alike, with the provision."""
    names = [c["label"] for c in certs]
    names = [f"{n} ({c['provision']})" if names.count(n) > 1 else n for n, c in zip(names, certs, strict=True)]
    names = [f"{n} [{c['id']}]" if names.count(n) > 1 else n for n, c in zip(names, certs, strict=True)]
    return ["\n".join(wrap(n, 200, 9)) for n in names]


def _span(result: dict[str, Any], certs: list[dict[str, Any]], as_of: date) -> tuple[date, date]:
    """The time axis of the certificates: from the first issuable spell or issue date to the last planned date or
    coming event within `SPAN`, the evaluation date always on it; at least half a year."""
    days = [as_of] + [_d(a) for c in certs for a, _ in c["spells"]]
    days += [_d(h["issued"]) for h in result.get("held", []) if h.get("issued")]
    days += [_d(c["planned"]) for c in certs if c.get("planned")]
    # a coming date decades ahead (a medical renewal at 60, a validity of 13 years) would squeeze the record's years
    # into a sliver: dates within SPAN of the evaluation date set the axis, the calendar file (`ics`) has them all
    days += [d for d in (_d(e["date"]) for e in result.get("events", [])) if d <= as_of + SPAN]
    return _padded(min(days), max(days))


def _padded(lo: date, hi: date) -> tuple[date, date]:
    """An axis from `lo` to `hi` with a margin of a twentieth each side, at least 180 days long."""
    short = max(timedelta(0), timedelta(days=180) - (hi - lo))
    margin = max((hi - lo + short) / 20, timedelta(days=10))
    return lo - short / 2 - margin, hi + short / 2 + margin


def _drawn_scopes(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The credited-days lines drawn: of a programme's phases only the days within it, not the phases after it."""
    after = tuple(":" + ph.id for ph in PHASES if ph.after)
    return [s for s in result.get("credited", []) if not s["scope"].endswith(after)]


def _waiting(result: dict[str, Any]) -> list[tuple[date, date, int]]:
    """The runs of days recorded but not yet validated, over every scope, each once: first day, last day, days."""
    runs = {(r["from"], r["to"], r["days"]) for s in result.get("credited", []) for r in s.get("not_validated_runs", [])}
    return [(_d(a), _d(b), n) for a, b, n in sorted(runs)]


def _draw_credited(ax, result: dict[str, Any], as_of: date, t: dict[str, str], lang: str) -> list[Any]:
    """Above: the credited days per scope, a step line through the end of each run of credited days, a dot where
    it reaches a day count the law names, and a dotted line at each such count; the days recorded but not yet
    validated as hatched spans with their number. Its time axis runs from the first day drawn to the evaluation
    date. Returns the legend handles."""
    from matplotlib.patches import Patch

    from crewkg.messages.wording import amount

    handles: list[Any] = []
    drawn = _drawn_scopes(result)
    waiting = _waiting(result)
    firsts = [_d(s["runs"][0]["from"]) for s in drawn if s["runs"]] + [a for a, _, _ in waiting]
    lo, hi = _padded(min(firsts, default=as_of), max([as_of] + [b for _, b, _ in waiting]))
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
        (line,) = ax.plot(xs, ys, color=colour, lw=2.6 if dashed else 2, ls="--" if dashed else "-", label="\n".join(wrap(s["label"], 190, 9)))
        handles.append(line)
        for n, day in s["reached"].items():
            ax.plot([_d(day)], [int(n)], marker="o", ms=5, color=colour)
    marks = sorted({int(n) for s in drawn for n in s["reached"]})
    for n in marks:
        ax.axhline(n, color=COLOR["dim"], lw=0.8, ls=":", zorder=0)
    if waiting:
        for a, b, n in waiting:
            ax.axvspan(a, b + timedelta(days=1), facecolor="#eeeeee", edgecolor="#777777", hatch="///", lw=0.8, zorder=0,
                       gid="not-validated")
            ax.text(a + (b - a) / 2, 0.5, amount(n, "days", lang), transform=ax.get_xaxis_transform(),
                    ha="center", va="center", fontsize=9, color="#444444",
                    bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85})
        handles.append(Patch(facecolor="#eeeeee", edgecolor="#777777", hatch="///", label=t["picture.unvalidated"]))
    ax.set_xlim(lo, hi)
    ax.set_ylim(bottom=0)
    ax.set_ylabel(t["picture.days"], fontsize=10)
    ax.tick_params(labelsize=9)
    ax.grid(axis="x", color="#eeeeee")
    _date_axis(ax)
    return handles


def _date_axis(ax) -> None:
    from matplotlib import dates as mdates

    locator = mdates.AutoDateLocator(minticks=4, maxticks=9)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m"))


def _draw_certificates(bx, result: dict[str, Any], certs: list[dict[str, Any]], names: list[str], as_of: date,
                       rows: int) -> set[str]:
    """Below: a row per certificate with the spells in which it was issuable, its issue date where it is held and
    its planned earliest date where it is not yet issuable; without a service log, a mark on the evaluation date
    where it is issuable then or held with no issue date. Returns which of those marks it drew."""
    from matplotlib import dates as mdates

    marks = set()
    for y, c in enumerate(certs):
        for a, b in c["spells"]:
            start, end = _d(a), _d(b) if b else as_of
            bx.barh(y, (end - start).days + 1, left=start, height=0.5, color=COLOR["held"], edgecolor="#b36b00")
            marks.add("spell")
        if c["eligible"] and not c["spells"]:
            bx.plot([as_of], [y], **MARKS["eligible_now"])
            marks.add("eligible_now")
        held = next((h for h in result.get("held", []) if h["id"] == c["id"]), None)
        if held and held.get("issued"):
            bx.plot([_d(held["issued"])], [y], marker="D", ms=7, color=COLOR["edge"])
            marks.add("issued")
        elif c.get("held"):
            bx.plot([as_of], [y], **MARKS["holds"])
            marks.add("holds")
        if c.get("planned") and not c["eligible"]:
            day = _d(c["planned"])
            bx.plot([day], [y], marker=">", ms=8, mfc="white", mec=COLOR["hi"], mew=2)
            marks.add("planned")
            lo, hi = bx.get_xlim()
            late = mdates.date2num(day) > lo + 0.85 * (hi - lo)  # near the right edge: the date left of its mark
            bx.annotate(c["planned"], (day, y), xytext=(-8 if late else 8, 0), textcoords="offset points", fontsize=9,
                        va="center", ha="right" if late else "left", color=COLOR["hi"])
    bx.set_yticks(range(len(names)), names, fontsize=9)
    bx.set_ylim(-0.6, rows - 0.4)
    bx.invert_yaxis()
    bx.tick_params(axis="x", labelsize=9)
    _date_axis(bx)
    return marks


def _draw_dates(axes: tuple[Any, ...], result: dict[str, Any], as_of: date, t: dict[str, str],
                marks: set[str]) -> list[Any]:
    """The evaluation date, and the end of the medical certificate where it falls on a half's axis, as vertical
    lines; returns the legend handles of everything but the credited lines, of the `marks` drawn only."""
    from matplotlib import dates as mdates
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    medical = result.get("medical", {}).get("valid_until")
    for a in axes:
        a.axvline(as_of, color=COLOR["hi"], lw=1.5)
        lo, hi = (mdates.num2date(x).date() for x in a.get_xlim())
        if medical and lo <= _d(medical) <= hi:  # beyond the axis: not drawn, not in the legend
            a.axvline(_d(medical), color="#7a5195", lw=1.5, ls="--")
            marks.add("medical")
    handles = {"today": Line2D([], [], color=COLOR["hi"], lw=1.5, label=t["picture.today"]),
               "threshold": Line2D([], [], color=COLOR["dim"], lw=0.8, ls=":", label=t["picture.threshold"]),
               "spell": Patch(facecolor=COLOR["held"], edgecolor="#b36b00", label=t["picture.spell"]),
               "issued": Line2D([], [], ls="", marker="D", ms=7, color=COLOR["edge"], label=t["picture.issued"]),
               "planned": Line2D([], [], ls="", marker=">", ms=8, mfc="white", mec=COLOR["hi"], mew=2, label=t["picture.planned"]),
               "medical": Line2D([], [], color="#7a5195", lw=1.5, ls="--", label=t["picture.medical"])}
    handles |= {m: Line2D([], [], label=t[m], **MARKS[m]) for m in MARKS}
    return [h for m, h in handles.items() if m == "today" or m in marks]
