"""Pictures of the career graph: SVG/PNG with matplotlib (no network, no display) and a self-contained interactive
HTML page (template `templates/career_graph.html.j2`) with vis-network's script and style inlined from the copy the
package ships (`vis-network/`, no CDN). A route can be highlighted (`crewkg plan --out`). Both need the extra
[pictures]."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path
from typing import Any

from crewkg.careers.placing import ALONG, bezier, extent, place, text_width, wrap
from crewkg.extras import require
from crewkg.messages.catalogue import say
from crewkg.messages.sections import sections

#: the pictures texts, from the message catalogue (section "careers", keys careers.picture.*)
TEXT = sections("careers.picture.")

COLOR = {"node": "#dbe8f5", "start": "#eeeeee", "edge": "#35608f", "dim": "#c4c9cf", "hi": "#d9480f", "held": "#ffd8a8"}
#: the background box of an edge label in the interactive page (vis-network draws no border round it: a tint shows the box)
LABEL_BACKGROUND = {"edge": "#e6edf6", "hi": "#ffe8d9"}


def pace_text(g, t: dict[str, str]) -> str:
    """The crediting pace of the picture (the graph's `Pace`): the law's maximum, or the days assumed below it."""
    from crewkg.careers.planning import Pace

    return Pace.of_attributes(g.graph).words(t)


def _drawn_nodes(g) -> list[str]:
    return [n for n, a in g.nodes(data=True) if a.get("covered", True)]


#: the distance of two columns and of two certificates in a column, in layout units
COLUMN, ROW = 4.6, 1.5
#: how far an edge up to a box high in the next column bows (arc3's rad)
RISE = 0.22
#: the widest line of a certificate's name in a box, in points at its font size (9)
NODE_TEXT = 150.0
#: the widest line of a note beside a certificate, in points at its font size (8)
NOTE_TEXT = 115.0
#: points per layout unit of the static picture at the career graph's scale
UNIT = 0.77


def node_text(g, n: str) -> str:
    """A certificate's box text: its short name over lines no wider than NODE_TEXT, then its provision."""
    a = g.nodes[n]
    lines = wrap(a.get("short") or a.get("label") or n, NODE_TEXT, 9)
    return "\n".join(lines + ([a["provision"]] if a.get("provision") else []))


def unconnected(g) -> list[str]:
    """The certificates no pathway of the graph leads to or from (drawn apart, in a block of their own)."""
    if not g.number_of_edges():
        return []
    return [n for n in _drawn_nodes(g) if g.degree(n) == 0 and g.nodes[n].get("rank", 1) > 0]


def layout(g) -> dict[str, tuple[float, float]]:
    """Columns by rank (left to right); in each column the certificate that leads further sits on the middle line
    and the others above it, in statute order. The certificates no pathway touches stand in a block above the
    columns right of the first, where no pathway runs."""
    alone = unconnected(g)
    cols: dict[int, list[str]] = {}
    for n in _drawn_nodes(g):
        if n not in alone:
            cols.setdefault(g.nodes[n]["rank"], []).append(n)
    pos = {}
    for rank, nodes in cols.items():
        onward = [n for n in nodes if any(g.nodes[v]["rank"] > rank for v in g.successors(n))]
        rest = [n for n in nodes if n not in onward]
        for i, n in enumerate(onward + rest):
            pos[n] = (rank * COLUMN, i * ROW)
    if alone:
        far = [r for r in sorted(cols) if r >= 2] or [max(cols, default=0) + 1]
        beside = [pos[n][1] for n in pos if g.nodes[n]["rank"] in far or g.nodes[n].get("leads_nowhere")]  # notes
        base = max(beside, default=0.0) + 1.8 * ROW
        for i, n in enumerate(alone):
            pos[n] = (far[i % len(far)] * COLUMN, base + (i // len(far)) * ROW)
    return pos


def _edge_geometry(g, pos) -> dict[tuple[str, str, str], tuple[float, tuple[float, float]]]:
    """For every edge the arc3 'rad' and the point where its label goes. Parallel edges between neighbouring columns
    sag below each other; edges that skip columns run in their own lane below the middle line."""
    out = {}
    seen: dict[tuple[str, str], int] = {}
    lane = 0
    edges = sorted(g.edges(keys=True), key=lambda e: (g.nodes[e[1]]["rank"] - g.nodes[e[0]]["rank"], pos.get(e[1], (0, 0))[0], e[2]))
    for u, v, k in edges:
        if u not in pos or v not in pos:
            continue
        (x1, y1), (x2, y2) = pos[u], pos[v]
        span = g.nodes[v]["rank"] - g.nodes[u]["rank"]
        i = seen.get((u, v), 0)
        if span <= 1 or y1 != y2:
            seen[(u, v)] = i + 1
            depth = 0.75 * i
        else:
            depth = 2.3 + 0.8 * lane
            lane += 1
        dx, dy = x2 - x1, y2 - y1
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        # an edge up to a box high in the next column bows up and to the left, so that it arrives from the side
        # and passes left of the boxes below its own
        rad = 2 * depth / length if not (dy > ROW and 0 < dx <= COLUMN) else -RISE * (1 + 0.6 * i)
        out[(u, v, k)] = (rad, bezier(pos[u], pos[v], rad, 0.5))
    return out


def draw(g, fmt: str = "png", highlight: list[tuple[str, str, str]] | None = None, held: set[str] | None = None,
         title: str | None = None) -> bytes:
    """The career graph as PNG or SVG bytes: nodes by rank left to right, every edge labelled with its provision and
    minimum time where the label covers no certificate, the requirements of every edge listed underneath, the title
    (wrapped, never cut), the crediting pace and the colour legend in the header."""
    require("pictures", "matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    t = TEXT[g.graph.get("lang", "de")]
    pos = layout(g)
    geo = _edge_geometry(g, pos)
    hi = set(highlight or [])
    held = held or set()
    edges = sorted(g.edges(keys=True, data=True), key=lambda e: (g.nodes[e[1]]["rank"], e[1], e[2]))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()] + [m[1] for _, m in geo.values()]
    x0, x1 = min(xs) - 2.0, max(xs) + 2.0
    y0, y1 = min(ys) - 1.0, max(ys) + 1.1
    # the career graph's scale (UNIT inches a unit) where the picture is at most 16 inches wide, else smaller; a
    # small graph stands in the middle of a picture wide enough for its title and legend
    width = 16.0 if len(pos) > 8 else min(16.0, max(11.0, (x1 - x0) * UNIT))
    scale = min(UNIT, width / (x1 - x0))
    x0, x1 = (x0 + x1) / 2 - width / scale / 2, (x0 + x1) / 2 + width / scale / 2
    graph_h = (y1 - y0) * scale
    head = _Header(g, t, title, hi, held, width)
    lines = _pathway_lines(g, t, edges, hi, width)
    legend_h = 0.2 * len(lines) + 0.15 if lines else 0.05
    height = head.height + graph_h + legend_h
    fig = Figure(figsize=(width, height), dpi=110)
    renderer = FigureCanvasAgg(fig).get_renderer()
    ax = fig.add_axes((0.0, legend_h / height, 1.0, graph_h / height))
    ax.set_axis_off()
    ax.set_aspect("equal")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.apply_aspect()
    head.draw(fig, height)
    boxes = _draw_nodes(ax, g, pos, hi, held, route_origin(highlight))
    taken = [extent(b, renderer, 0.45 * 9 * fig.dpi / 72) for b in boxes.values()]
    taken += _draw_notes(ax, g, pos, t, boxes, renderer)
    _draw_edges(ax, g, sorted(edges, key=lambda e: e[:3] not in hi), pos, geo, boxes, hi, taken, renderer)
    _draw_pathway_legend(fig, lines, legend_h / height)
    return figure_bytes(fig, fmt)


class _Header:
    """The picture's header: the title in as many lines as it takes, the crediting pace, the colour legend in as
    many rows as its entries take; its height in inches."""

    TITLE, PACE, KEY = 13, 9, 8

    def __init__(self, g, t: dict[str, str], title: str | None, route: set[tuple[str, str, str]], held: set[str],
                 width: float) -> None:
        self.g, self.t, self.route, self.held = g, t, route, held
        room = width * 72 - 20
        self.title = wrap(title or t["title"].format(reg=g.graph.get("regulation", "")), room, self.TITLE, bold=True)
        entries = colour_key(g, route, held, g.graph.get("lang", "de"))
        widest = max((text_width(e["text"], self.KEY) for e in entries), default=0.0) + 4.6 * self.KEY
        self.ncol = max(1, min(len(entries), int(room // widest)))
        rows = -(-len(entries) // self.ncol)
        self.title_h = len(self.title) * self.TITLE * 1.3 / 72
        self.height = 0.15 + self.title_h + 0.3 + 0.2 * (rows + 1) + 0.15

    def draw(self, fig, height: float) -> None:
        top = 1 - 0.15 / height
        fig.text(0.01, top, "\n".join(self.title), fontsize=self.TITLE, fontweight="bold", va="top", linespacing=1.3,
                 gid="title")
        pace_y = top - (self.title_h + 0.15) / height
        fig.text(0.01, pace_y, pace_text(self.g, self.t), fontsize=self.PACE, color="#444444", va="center")
        _colour_key(fig, self.t, self.g, self.route, self.held, pace_y - 0.15 / height, self.ncol)


def _pathway_lines(g, t: dict[str, str], edges: list, hi: set, width: float) -> list[tuple[str, bool]]:
    """The lines listed under the picture (text, bold): the heading, every pathway with its requirements and
    minimum time (bold on the route), the certificates not covered; each wrapped to the picture's width."""
    uncovered = [g.nodes[n].get("provision") or n for n, d in g.nodes(data=True) if not d.get("covered", True)]
    if not edges and not uncovered:
        return []
    lines = [(t["legend"], True)]
    room = width * 72 - 24
    for u, v, k, a in edges:
        entry = f"{a['provision']} → {g.nodes[v].get('short') or v}: {a['summary']}  [{a.get('duration', '')}]"
        on = (u, v, k) in hi
        lines += [(w, on) for w in wrap(entry, room, 8, bold=on, indent="        ")]
    if uncovered:
        lines += [(w, False) for w in wrap(t["uncovered"].format(items=", ".join(uncovered)), room, 8)]
    return lines


def _draw_nodes(ax, g, pos, hi: set, held: set[str], origin: str | None) -> dict[str, Any]:
    """A box per certificate (short name and provision), filled by what it is, outlined where a route touches it;
    the box where the route begins outlined thicker. Returns the text artists, whose boxes the arrows end at."""
    boxes = {}
    for n, (x, y) in pos.items():
        face = node_colour(g, n, held)
        edge_color = COLOR["hi"] if hi and any(n in (u, v) for u, v, _ in hi) else "#4a6d94"
        # drawn before the arrows (lower zorder), so each arrow is clipped to the box as it is drawn in this renderer
        boxes[n] = ax.text(x, y, node_text(g, n), ha="center", va="center", fontsize=9, zorder=1, gid=f"node-{n}",
                           bbox={"boxstyle": "round,pad=0.45", "fc": face, "ec": edge_color, "lw": 3.0 if n == origin else 1.4})
    return boxes


def node_notes(g, t: dict[str, str]) -> dict[str, str]:
    """What the picture says under a certificate: that no pathway starts from it although a certificate of a role
    above its own is drawn (graph attribute `leads_nowhere`)."""
    reg = g.graph.get("regulation", "")
    return {n: t["dead_end"].format(reg=reg) for n in _drawn_nodes(g) if g.nodes[n].get("leads_nowhere")}


def _draw_notes(ax, g, pos, t: dict[str, str], boxes: dict[str, Any], renderer) -> list[Any]:
    """Each note right of its certificate's box (where no pathway arrives), and a caption over the block of
    certificates no pathway touches; returns their display boxes (no edge label goes there)."""
    out = []
    pad = 0.45 * 9 * ax.figure.dpi / 72
    inverse = ax.transData.inverted()
    for n, note in node_notes(g, t).items():
        box = extent(boxes[n], renderer, pad)
        x, y = inverse.transform((box.x1 + 6, (box.y0 + box.y1) / 2))
        text = ax.text(x, y, "\n".join(wrap(note, NOTE_TEXT, 8)), ha="left", va="center", fontsize=8, style="italic",
                       color="#444444", zorder=3.5, gid=f"note-{n}")
        out.append(extent(text, renderer))
    alone = unconnected(g)
    if alone:
        xs = sorted({pos[n][0] for n in alone})
        top = max(pos[n][1] for n in alone)
        text = ax.text(sum(xs) / len(xs), top + 0.75, t["unconnected"], ha="center", va="bottom", fontsize=9,
                       style="italic", color="#555555", gid="unconnected")
        out.append(extent(text, renderer))
    return out


def _draw_edges(ax, g, edges: list, pos, geo, boxes: dict[str, Any], hi: set, taken: list[Any], renderer) -> None:
    """An arrow per pathway from box to box, bent as `_edge_geometry` says, with its provision and minimum time on a
    white label put along the arrow where it covers no box, note or other label (`taken`, the route's first); the
    route's arrows thick and coloured, the others dimmed when there is a route."""
    from matplotlib.patches import FancyArrowPatch

    for u, v, k, a in edges:
        if (u, v, k) not in geo:
            continue
        rad, mid = geo[(u, v, k)]
        on = (u, v, k) in hi
        color = COLOR["hi"] if on else (COLOR["dim"] if hi else COLOR["edge"])
        arrow = FancyArrowPatch(pos[u], pos[v], connectionstyle=f"arc3,rad={rad:.4f}", arrowstyle="-|>", mutation_scale=12,
                                lw=2.6 if on else 1.1, color=color, patchA=boxes[u].get_bbox_patch(),
                                patchB=boxes[v].get_bbox_patch(), shrinkA=1, shrinkB=1, zorder=3 if on else 2)
        ax.add_patch(arrow)
        label = a["provision"].replace(" SchBV", "") + "\n" + a.get("duration", "")
        # the label sits on its own white box (its gid names the pathway: the SVG's <g id="edge-label-…">)
        text = ax.text(*mid, label, ha="center", va="center", fontsize=7, zorder=4, color="#222222" if (on or not hi) else "#888888",
                       gid=f"edge-label-{k}", bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": color, "lw": 0.6, "alpha": 0.95})
        points = [bezier(pos[u], pos[v], rad, s) for s in ALONG]
        taken.append(place(text, points, taken, renderer, 0.2 * 7 * ax.figure.dpi / 72))


def _draw_pathway_legend(fig, lines: list[tuple[str, bool]], share: float) -> None:
    """The pathway lines in the bottom `share` of the figure, one under the other; the route's in its colour."""
    if not lines:
        return
    legend = fig.add_axes((0.0, 0.0, 1.0, share))
    legend.set_axis_off()
    for i, (line, bold) in enumerate(lines):
        legend.text(0.01, 1 - (i + 0.5) / len(lines), line, transform=legend.transAxes, fontsize=8, va="center",
                    fontweight="bold" if bold else "normal", color=COLOR["hi"] if (bold and i) else "#222222")


def figure_bytes(fig, fmt: str, **options: Any) -> bytes:
    """A matplotlib figure as PNG or SVG bytes (`options` go to savefig): an SVG's text stays text (searchable,
    smaller) and it carries no date."""
    from matplotlib import rc_context

    buf = io.BytesIO()
    meta = {"Date": None} if fmt == "svg" else {}
    with rc_context({"svg.fonttype": "none"}):
        fig.savefig(buf, format=fmt, metadata=meta, **options)
    return buf.getvalue()


def route_origin(highlight: list[tuple[str, str, str]] | None) -> str | None:
    """Where a highlighted route begins: the certificate the person holds, or `start` (the first step's source)."""
    return highlight[0][0] if highlight else None


def node_colour(g, n: str, held: set[str]) -> str:
    if g.nodes[n].get("kind") == "start":
        return COLOR["start"]
    return COLOR["held"] if n in held else COLOR["node"]


def colour_key(g, route: set[tuple[str, str, str]], held: set[str], lang: str) -> list[dict[str, str]]:
    """The entries of the colour legend: what a fill or a line colour means, only those the picture uses.
    Each entry: key, text, and either fill+outline (a box) or line (an arrow)."""
    t = TEXT[lang]
    drawn = set(_drawn_nodes(g))
    starts = {n for n in drawn if g.nodes[n].get("kind") == "start"}
    out = []
    if starts:
        out.append({"key": "start", "text": t["key.start"], "fill": COLOR["start"], "outline": "#4a6d94"})
    if drawn - starts - held:
        out.append({"key": "certificate", "text": t["key.certificate"], "fill": COLOR["node"], "outline": "#4a6d94"})
    if held & drawn:
        out.append({"key": "held", "text": t["key.held"], "fill": COLOR["held"], "outline": "#4a6d94"})
    if route:
        out.append({"key": "from", "text": t["key.from"], "fill": "#ffffff", "outline": COLOR["hi"]})
        out.append({"key": "route", "text": t["key.route"], "line": COLOR["hi"]})
        if g.number_of_edges() > len(set(g.edges(keys=True)) & route):
            out.append({"key": "other", "text": t["key.other"], "line": COLOR["dim"]})
    elif g.number_of_edges():
        out.append({"key": "edge", "text": t["key.edge"], "line": COLOR["edge"]})
    return out


def _colour_key(fig, t: dict[str, str], g, route: set[tuple[str, str, str]], held: set[str], top: float, ncol: int) -> None:
    """The colour legend under the pace line, `ncol` entries a row (boxes for nodes, lines for edges)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    lang = g.graph.get("lang", "de")
    handles = []
    entries = colour_key(g, route, held, lang)
    for e in entries:
        if "line" in e:
            handles.append(Line2D([], [], color=e["line"], lw=2.6 if e["key"] == "route" else 1.2, label=e["text"]))
        else:
            handles.append(Patch(facecolor=e["fill"], edgecolor=e["outline"], lw=3.0 if e["key"] == "from" else 1.2,
                                 label=e["text"]))
    leg = fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.005, top), ncol=ncol,
                     fontsize=8, frameon=False, title=t["colours"] + ":", title_fontsize=8, alignment="left",
                     handlelength=2.2, borderpad=0.2, columnspacing=1.6)
    leg.set_gid("colour-key")


def kinds_used(g) -> list[str]:
    """The requirement kinds of the graph's pathways (edge attribute `kinds`), in the registry's order."""
    from crewkg.rules.kinds import kinds

    used = {k for _, _, a in g.edges(data=True) for k in (a.get("kinds") or "").split()}
    order = list(kinds())
    return sorted(used, key=lambda k: (order.index(k) if k in order else len(order), k))


def kind_legend(kind_name: str, lang: str) -> str:
    """What a kind's short phrase means (catalogue key kind.legend.<Kind>, or the kind's own `messages`); a kind
    that brings no legend text is named by its name."""
    from crewkg.rules.kinds import say

    try:
        return say(kind_name, lang, f"kind.legend.{kind_name}")
    except KeyError:
        return kind_name


def route_title(g, result: dict[str, Any], highlight: list[tuple[str, str, str]], held: set[str], lang: str) -> str:
    """'Route for P: UBZ Bootsmann (held) → UBZ Steuermann (§ 14 Z 1 SchBV) — earliest D': the route from where
    the person stands (the certificates held, or no certificate) to the target; that the person holds the target
    already (and whether it counts), or that no route leads there, in a sentence of the plan's."""
    from crewkg.messages.sections import section

    t, plan = TEXT[lang], section("careers.plan.", lang)
    person = result.get("person", "")
    target = result.get("target", "")
    name = (g.nodes[target].get("short") or g.nodes[target].get("label")) if target in g else target
    if not result.get("routes"):
        return plan["none"].format(target=name)
    best = result["routes"][0]
    if not best["steps"]:
        why = [f"{x['text']} ({x['provision']})" if x.get("provision") else x["text"] for x in result.get("held_not_counting", [])]
        return " ".join([plan["held"].format(person=person, target=name)]
                        + [plan["held_not_counting"].format(as_of=result.get("as_of", ""), why=w) for w in why])
    parts = []
    origin = route_origin(highlight)
    if origin is not None:
        a = g.nodes[origin]
        names = ", ".join(a.get("held_names") or [a.get("short") or a.get("label") or origin])
        parts.append(t["held"].format(cert=names) if origin in held else names)
    for st in best["steps"]:
        node = g.nodes[st["certificate"]] if st["certificate"] in g else {}
        parts.append(f"{node.get('short') or st['certificate']} ({st['provision']})")
    if best.get("earliest") is None:
        return t["route_blocked"].format(person=person, steps=" → ".join(parts))
    return t["route"].format(person=person, steps=" → ".join(parts), date=best["earliest"])


#: vis-network's standalone script and style, shipped in the package with their licences (vis-network/README.md)
VIS_NETWORK = Path(__file__).with_name("vis-network")
#: pixels per layout unit in the interactive page: the same layout as the static picture, y pointing down on a canvas
SCALE = 72
#: the options of the interactive graph (vis-network): fixed positions, hover, zoom and drag, boxes, edge labels
VIS_OPTIONS = {"physics": False, "interaction": {"hover": True, "tooltipDelay": 80, "zoomView": True, "dragView": True},
               "nodes": {"shape": "box", "font": {"face": "sans-serif", "size": 13}, "margin": 8},
               "edges": {"font": {"size": 11, "align": "horizontal", "background": LABEL_BACKGROUND["edge"], "strokeWidth": 0},
                         "smooth": {"enabled": False}}}
#: a note of the interactive graph: text without a box, nothing to choose or drag
NOTE = {"shape": "text", "font": {"size": 12, "color": "#555555", "face": "sans-serif"}, "chosen": False, "fixed": True}


@cache
def vis_assets() -> tuple[str, str]:
    """vis-network's script and style, to be inlined (the page works offline, from a file)."""
    return ((VIS_NETWORK / "vis-network.min.js").read_text(encoding="utf-8"),
            (VIS_NETWORK / "vis-network.css").read_text(encoding="utf-8"))


def _vis_nodes(g, pos, hi: set, held: set[str], origin: str | None, t: dict[str, str]) -> list[dict[str, Any]]:
    """The certificates as vis-network nodes at the static picture's positions, the route's ends outlined; each
    note beside its certificate and the caption over the block no pathway touches as text (vis-network's 'text'
    shape, ids beginning with 'note:')."""
    nodes = []
    notes = node_notes(g, t)
    for n in _drawn_nodes(g):
        a = g.nodes[n]
        on_route = any(n in (u, v) for u, v, _ in hi)
        nodes.append({"id": n, "x": pos[n][0] * SCALE, "y": -pos[n][1] * SCALE, "label": node_text(g, n),
                      "title": a["label"] + (f" ({a['provision']})" if a.get("provision") else ""),
                      "borderWidth": 4 if n == origin else (2 if on_route else 1),
                      "color": {"background": node_colour(g, n, held), "border": COLOR["hi"] if on_route else "#4a6d94"}})
        if n in notes:  # right of the box: half its width (its widest line at the page's font, and margins) on
            note = "\n".join(wrap(notes[n], NOTE_TEXT, 8))
            half = (max(text_width(x, 9) for x in node_text(g, n).split("\n")) * 13 / 9 + 16) / 2
            nodes.append({"id": f"note:{n}", "x": pos[n][0] * SCALE + half + 12 + text_width(note, 8) * 12 / 8 / 2,
                          "y": -pos[n][1] * SCALE, "label": note, **NOTE})
    alone = unconnected(g)
    if alone:
        xs = sorted({pos[n][0] for n in alone})
        nodes.append({"id": "note:unconnected", "x": sum(xs) / len(xs) * SCALE,
                      "y": -(max(pos[n][1] for n in alone) + 0.85) * SCALE, "label": t["unconnected"], **NOTE})
    return nodes


def _vis_edges(g, geo, hi: set, t: dict[str, str]) -> list[dict[str, Any]]:
    """The pathways as vis-network edges, bent as in the static picture; hovering one shows its requirements."""
    edges = []
    for u, v, k, a in g.edges(keys=True, data=True):
        if (u, v, k) not in geo:
            continue
        rad = geo[(u, v, k)][0]
        on = (u, v, k) in hi
        colour = COLOR["hi"] if on else (COLOR["dim"] if hi else COLOR["edge"])
        edges.append({"from": u, "to": v, "id": k, "label": a["provision"].replace(" SchBV", "") + "\n" + a.get("duration", ""),
                      "arrows": "to", "title": f"{a['provision']} — {a['label']}\n{a['summary']}\n{t['min']}: {a.get('duration', '')}",
                      "smooth": {"enabled": True, "type": "curvedCCW" if rad > 0 else "curvedCW", "roundness": round(abs(rad), 4)}
                      if rad else {"enabled": False},
                      "width": 3 if on else 1, "color": colour,
                      "font": {"background": LABEL_BACKGROUND["hi" if on else "edge"], "color": "#222222" if (on or not hi) else "#777777"}})
    return edges


def _vis_data(g, hi: set, held: set[str], origin: str | None, t: dict[str, str]) -> str:
    """What the page's script draws, as JSON safe inside a <script> element: nodes, edges, options and the view
    that fits the nodes and the arcs below them."""
    pos = layout(g)
    geo = _edge_geometry(g, pos)
    xs = [p[0] for p in pos.values()]
    ys = [-p[1] for p in pos.values()] + [-m[1] for _, m in geo.values()]
    view = {"x": (min(xs) + max(xs)) / 2 * SCALE, "y": (min(ys) + max(ys)) / 2 * SCALE,
            "w": (max(xs) - min(xs) + 4) * SCALE, "h": (max(ys) - min(ys) + 2.5) * SCALE}
    data = {"nodes": _vis_nodes(g, pos, hi, held, origin, t), "edges": _vis_edges(g, geo, hi, t), "options": VIS_OPTIONS,
            "view": view}
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def _kind_entries(g, lang: str) -> list[dict[str, str]]:
    """The legend of the requirement kinds the pathways use, and of the separator: phrase, then what it means."""
    out = []
    for name, text in [(k, kind_legend(k, lang)) for k in kinds_used(g)] + [("sep", say(lang, "kind.legend.sep"))]:
        phrase, dash, meaning = text.partition(" — ")
        out.append({"name": name, "phrase": phrase, "meaning": dash + meaning})
    return out


def _pathway_rows(g, hi: set) -> list[dict[str, Any]]:
    """Every pathway below the graph, by the rank of its certificate: provision, certificate, requirements, time."""
    rows = []
    for u, v, k, a in sorted(g.edges(keys=True, data=True), key=lambda x: (g.nodes[x[1]]["rank"], x[1], x[2])):
        rows.append({"key": k, "on": (u, v, k) in hi, "provision": a["provision"], "target": g.nodes[v].get("short") or v,
                     "summary": a["summary"], "duration": a.get("duration", "")})
    return rows


def html_page(g, highlight: list[tuple[str, str, str]] | None = None, held: set[str] | None = None,
              title: str | None = None) -> str:
    """A self-contained interactive page (template `career_graph.html.j2`): zoom (wheel or buttons) and drag;
    hovering an edge shows its provision and requirements. Every edge label sits on a background box; below the
    graph the colour legend, the legend of the requirement kinds the pathways use and every pathway with its
    requirements. Every script and style is inlined; the page references no external URL."""
    from crewkg.careers.pages import kept_whole, render

    lang = g.graph.get("lang", "de")
    t = TEXT[lang]
    hi = set(highlight or [])
    held = held or set()
    script, style = vis_assets()
    uncovered = [g.nodes[n].get("provision") or n for n, d in g.nodes(data=True) if not d.get("covered", True)]
    heading = title or t["title"].format(reg=g.graph.get("regulation", ""))
    return render("career_graph.html.j2", lang=lang, t=t, heading=heading, heading_parts=kept_whole(heading),
                  pace=pace_text(g, t), vis_script=script, vis_style=style,
                  data=_vis_data(g, hi, held, route_origin(highlight), t),
                  colour_key=colour_key(g, hi, held, lang), kinds=_kind_entries(g, lang), pathways=_pathway_rows(g, hi),
                  foot=t["uncovered"].format(items=", ".join(uncovered)) if uncovered else "",
                  label_background=LABEL_BACKGROUND["edge"], route_colour=COLOR["hi"])


def route_edges(route: dict[str, Any], g) -> list[tuple[str, str, str]]:
    """The graph edges of a planned route (its steps name certificate and provision)."""
    by_prov = {(v, a["provision"]): (u, v, k) for u, v, k, a in g.edges(keys=True, data=True)}
    return [by_prov[(s["certificate"], s["provision"])] for s in route["steps"] if (s["certificate"], s["provision"]) in by_prov]
