"""Text in the static pictures (careers.pictures, careers.timeline_picture): wrapped to a width measured with
matplotlib's own font metrics, so a title or a row label is never cut, and labels put where they cover no node."""

from __future__ import annotations

from functools import cache
from typing import Any

#: words a line never ends with: a citation keeps its number ("§ 14", "Z 1", "lit. a")
NO_BREAK_AFTER = ("§", "Z", "Abs.", "lit.", "Art.", "Nr.", "→")


@cache
def _renderer() -> Any:
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(10, 10, 72)  # 72 dpi: one pixel is one point


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of a line of text in points, at font size `size`."""
    from matplotlib.font_manager import FontProperties

    prop = FontProperties(size=size, weight="bold" if bold else "normal")
    return max((_renderer().get_text_width_height_descent(line, prop, ismath=False)[0] for line in text.split("\n")),
               default=0.0)


def _tokens(text: str) -> list[str]:
    """The words of a line, a citation's parts kept together (no break after '§', 'Z', 'lit.' …)."""
    out: list[str] = []
    for word in text.split(" "):
        if out and out[-1].split(" ")[-1] in NO_BREAK_AFTER:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def wrap(text: str, width: float, size: float, bold: bool = False, indent: str = "") -> list[str]:
    """`text` in lines no wider than `width` points, broken between words only (a word wider than the line stands on a
    line of its own, whole); every line after the first begins with `indent`."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for token in _tokens(para):
            candidate = f"{line} {token}" if line else token
            if line and text_width(candidate, size, bold) > width:
                lines.append(line)
                line = indent + token
            else:
                line = candidate
        lines.append(line)
    return lines


def bezier(p0: tuple[float, float], p2: tuple[float, float], rad: float, t: float) -> tuple[float, float]:
    """The point at `t` (0 to 1) of matplotlib's arc3 connection from p0 to p2 bent by `rad` (a quadratic Bézier
    curve whose control point lies at the middle plus rad times the perpendicular)."""
    (x0, y0), (x2, y2) = p0, p2
    cx, cy = (x0 + x2) / 2 + rad * (y2 - y0), (y0 + y2) / 2 - rad * (x2 - x0)
    a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
    return a * x0 + b * cx + c * x2, a * y0 + b * cy + c * y2


#: where along its edge a label is tried, the middle first
ALONG = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8, 0.14, 0.86)


def overlap(a, b, margin: float = 2.0) -> float:
    """The area two display boxes share, each grown by `margin` pixels (0: apart)."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0) + 2 * margin
    h = min(a.y1, b.y1) - max(a.y0, b.y0) + 2 * margin
    return w * h if w > 0 and h > 0 else 0.0


def extent(artist, renderer, pad: float = 0.0) -> Any:
    """The display box of a text artist grown by its background box's pad (`pad` in pixels)."""
    return artist.get_window_extent(renderer).expanded(1, 1).padded(pad)


def place(artist, points: list[tuple[float, float]], obstacles: list[Any], renderer, pad: float) -> Any:
    """Move a text artist to the first of `points` (data coordinates) where it covers no obstacle (display boxes),
    else to the one where it covers least; returns its display box, an obstacle for the next label."""
    best = None
    for xy in points:
        artist.set_position(xy)
        box = extent(artist, renderer, pad)
        covered = sum(overlap(box, o) for o in obstacles)
        if best is None or covered < best[0]:
            best = (covered, xy, box)
        if covered == 0:
            break
    assert best is not None
    artist.set_position(best[1])
    return best[2]
