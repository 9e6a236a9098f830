"""The wheel's build hook: compiles the message catalogues (src/crewkg/messages/locale/*/LC_MESSAGES/crewkg.po) into
the wheel as .mo files, so an installed crewkg reads its sentences in a millisecond and never needs to compile them.

The compiling is `crewkg.messages.compiled` (loaded by its path: crewkg is not installed while it is being built);
an editable install reads the source folder, where the first process compiles them (see that module)."""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MESSAGES = Path("src") / "crewkg" / "messages"


class MessageCatalogues(BuildHookInterface):
    """Adds the compiled .mo of every .po to a (non-editable) wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location("crewkg_messages_compiled", root / MESSAGES / "compiled.py")
        compiled = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(compiled)
        self._out = Path(tempfile.mkdtemp(prefix="crewkg-mo-"))
        locale = root / MESSAGES / "locale"
        for lang in compiled.languages(locale):
            source = compiled.po_file(lang, locale).read_bytes()
            name = compiled.mo_name(source)
            mo = self._out / lang / name
            mo.parent.mkdir(parents=True)
            mo.write_bytes(compiled.compile_po(source))
            build_data["force_include"][str(mo)] = f"crewkg/messages/locale/{lang}/LC_MESSAGES/{name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_out", None) is not None:
            shutil.rmtree(self._out, ignore_errors=True)
