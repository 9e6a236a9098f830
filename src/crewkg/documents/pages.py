"""A draft as a page: HTML from the Jinja2 template `templates/draft.html.j2` (autoescaping on: the authority's texts
and the kb's wording are text, never markup), and PDF from the same HTML by WeasyPrint ([documents] extra), as PDF/A-3b
(fonts embedded, an sRGB output intent). The banner 'ENTWURF – kein Bescheid …' stands at the top and the foot of
the page and, in the PDF, in the head of every page; no option leaves it out."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: the page templates, files of the package
TEMPLATES = Path(__file__).with_name("templates")
#: the PDF variant WeasyPrint writes (PDF/A-3b: archivable, fonts embedded)
PDF_VARIANT = "pdf/a-3b"


@cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _css_string(text: str) -> str:
    """A text as the inside of a CSS string (the page head's banner): backslashes and quotes escaped, no newline."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def html(doc: dict[str, Any]) -> str:
    """The draft as one self-contained HTML page."""
    from crewkg.messages.catalogue import say

    title = say(doc["lang"], f"draft.title.{doc['kind']}")
    return _environment().get_template("draft.html.j2").render(
        lang=doc["lang"], banner=doc["banner"], banner_css=_css_string(doc["banner"]), title=title,
        version=doc["crewkg_version"], sections=doc["sections"])


def pdf(doc: dict[str, Any]) -> bytes:
    """The draft as PDF/A (WeasyPrint renders the HTML page); the [documents] extra."""
    from crewkg.extras import require

    require("documents", "weasyprint")
    import weasyprint

    page = weasyprint.HTML(string=html(doc), base_url=str(TEMPLATES))
    return page.write_pdf(pdf_variant=PDF_VARIANT)
