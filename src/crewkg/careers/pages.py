"""The self-contained HTML pages of the careers (the interactive career graph, the timeline page, the cohort report)
are Jinja2 templates in `careers/templates/`, rendered with autoescaping on: every text a page shows is escaped by
the template engine, and only what a page inlines on purpose (vis-network's script and style, the graph's JSON, an
SVG drawing) is marked `|safe` in the template, where a reader sees it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

#: the page templates, files of the package
TEMPLATES = Path(__file__).with_name("templates")


@cache
def environment() -> Any:
    """The one Jinja2 environment of the pages: autoescaping, a missing value an error (not an empty text), block
    tags that leave no blank lines behind, and a page's last newline kept."""
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def render(template: str, **values: Any) -> str:
    """The page `template` (a file name in `templates/`) filled with `values`."""
    return environment().get_template(template).render(**values)


def macro(template: str, name: str) -> Any:
    """A macro of a template (a page's fragment that code also renders alone, e.g. one table cell of a report)."""
    return getattr(environment().get_template(template).module, name)


#: what must not break over a line on a page: a citation ("§ 14 Z 1 lit. a SchBV", up to its closing bracket or
#: separator) and an ISO date
UNBREAKABLE = re.compile(r"§[^();,:→]*[^();,:→\s]|\d{4}-\d{2}-\d{2}")


def kept_whole(text: str) -> list[tuple[str, bool]]:
    """A text in parts (text, kept whole): its citations and dates are kept whole (a page sets them in
    `<span class="nw">`, CSS white-space: nowrap), so "§ 14 Z 1 lit. a SchBV" and "2027-06-28" never break inside."""
    parts, last = [], 0
    for m in UNBREAKABLE.finditer(text):
        parts += [(text[last:m.start()], False), (m.group(), True)]
        last = m.end()
    return parts + [(text[last:], False)]
