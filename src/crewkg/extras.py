"""The optional parts of crewkg (pyproject's extras) and the one check that one is installed.

`pip install crewkg` answers `check`, `explain`, `plan`, `timeline` (text, JSON) and the career graph as JSON or
GraphML. Pictures, the service with its Oxigraph store, the calendar file and the clerk's documents (a draft as PDF,
a credential) need libraries the light install leaves out; a command that needs one calls `require` before it imports them, so a missing extra is said in one sentence of
the catalogue (`error.extra.<extra>`, in the language asked, with the `pip install` that brings it) and the command
exits 2 like any bad input, instead of a traceback from deep inside a drawing or a server."""

from __future__ import annotations

import importlib

from crewkg.errors import InputError

#: each extra of pyproject.toml's [project.optional-dependencies] and the modules it brings, by their import names
EXTRAS: dict[str, tuple[str, ...]] = {
    "pictures": ("matplotlib",),
    "service": ("fastapi", "uvicorn", "python_multipart", "pyoxigraph"),
    "calendar": ("icalendar",),
    "documents": ("weasyprint", "pyld"),
}


class MissingExtra(InputError):
    """Bad input of a kind: what was asked needs an extra that is not installed. Made by `require`; its fields are
    `extra` and `module` (the first module of the extra that could not be imported). Said as a whole sentence, not in
    the 'FILE: field: expected …' frame of other input errors."""

    def message(self, lang: str = "en") -> str:
        from crewkg.messages.catalogue import say

        return say(lang, f"error.extra.{self.fields['extra']}", **self.fields)


def require(extra: str, *modules: str) -> None:
    """Import the modules a command needs from `extra` (all the extra brings when none are named), or raise
    `MissingExtra` naming the extra to install. They are imported, not only looked up: a library that is there but
    cannot be loaded is as missing as one that is not there, and the caller imports them next anyway."""
    for module in modules or EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except (ImportError, OSError):  # OSError: WeasyPrint installed but the system's Pango library missing
            raise MissingExtra("", "", "extra", None, extra=extra, module=module) from None
