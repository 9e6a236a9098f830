"""The examples of a Markdown page run as doctests: the `>>>` lines of its fenced blocks (```pycon), each fence line
read as a blank line, so an example's expected output ends where its block does. tests/test_docs.py runs the pages
with this parser; tests/test_wheel.py runs this file as a script in the wheel's venv (standard library only):

    python tests/markdown_doctest.py docs/python-api.md [MORE.md ...]    # exit status: the number of failures
"""

from __future__ import annotations

import doctest
import re
import sys

FENCE = re.compile(r"(?m)^[ \t]*(```|~~~).*$")


class FencedParser(doctest.DocTestParser):
    """doctest's parser with every fence line blanked (line numbers kept, so a failure names the page's line)."""

    def parse(self, string: str, name: str = "<string>"):
        return super().parse(FENCE.sub("", string), name)


def run(path: str) -> doctest.TestResults:
    """Run the page's examples in one namespace, as doctest.testfile runs a text file."""
    return doctest.testfile(path, module_relative=False, parser=FencedParser(), optionflags=doctest.ELLIPSIS,
                            encoding="utf-8")


if __name__ == "__main__":
    results = [run(p) for p in sys.argv[1:]]
    print(f"{sum(r.attempted for r in results)} examples, {sum(r.failed for r in results)} failed")
    sys.exit(min(sum(r.failed for r in results), 100))
