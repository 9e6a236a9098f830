"""The page a credential shows (its display's image, ELM `DisplayDetail`): a PNG of the certificate's summary —
what it is and under which provision, whose, issued when and by whom, valid until when, the entitlement, and that the
page is neither sealed nor the legal document. matplotlib (the [pictures] extra), drawn by the careers' one way of
turning a figure into bytes (`careers.pictures.figure_bytes`): equal credentials have equal images."""

from __future__ import annotations

from typing import Any

from crewkg.messages.catalogue import say

#: the page: A5 landscape at 100 dots per inch
SIZE = (8.27, 5.83)
DPI = 100


def png(summary: dict[str, Any], lang: str) -> bytes:
    """The page of a credential's summary (`credential.summary`: the certificate's label and provision, the holder's
    id and birth date, issued, valid until and its provision, the issuer, the entitlement) as PNG bytes."""
    from crewkg.extras import require

    require("pictures", "matplotlib")
    from matplotlib.figure import Figure

    from crewkg.careers.pictures import figure_bytes

    fig = Figure(figsize=SIZE, dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.add_patch(_frame())
    ax.text(0.06, 0.87, summary["label"], fontsize=15, fontweight="bold", va="top", wrap=True)
    ax.text(0.06, 0.76, say(lang, "credential.card.basis", provision=summary["provision"], regulation=summary["regulation"]),
            fontsize=10, va="top", color="#333333")
    rows = [("holder", summary["holder"]), ("birth", summary["birth_date"] or "—"), ("issued", summary["issued"]),
            ("until", summary["until_text"]), ("issuer", summary["issuer"]), ("entitlement", summary["entitlement"])]
    for i, (key, text) in enumerate(rows):
        y = 0.64 - i * 0.075
        ax.text(0.06, y, say(lang, f"credential.card.{key}"), fontsize=9.5, color="#555555", va="top")
        ax.text(0.30, y, text, fontsize=9.5, va="top", wrap=True)
    ax.text(0.06, 0.12, say(lang, "credential.card.unsealed"), fontsize=8, color="#a00000", va="top", wrap=True)
    return figure_bytes(fig, "png", dpi=DPI)


def _frame() -> Any:
    from matplotlib.patches import FancyBboxPatch

    return FancyBboxPatch((0.03, 0.04), 0.94, 0.92, boxstyle="round,pad=0.005", fill=False, linewidth=2,
                          edgecolor="#1f3b73")
