"""The message catalogues as gettext files: `locale/<lang>/LC_MESSAGES/crewkg.po` is what people edit, the `.mo`
compiled from it is what a process reads.

Every process reads both catalogues at start, so the reading must cost next to nothing: Babel takes about 60 ms to
import and 40 ms to read one .po, while the standard library's gettext reads a compiled .mo in about a millisecond.
Babel therefore compiles (`compile_po`) and the process only reads (`load`). A .mo is named after the content hash of
the .po it was compiled from (`crewkg.<hash>.mo`, beside the .po), so an edited .po is never read through a stale
.mo: the wheel ships the .mo of its .po files (`hatch_build.py` compiles them with this module), and in a source
checkout the first process after an edit compiles it once and leaves it beside the .po for the next (git ignores
it). Where that folder cannot be written, the .po is compiled in memory on every start: slower, never wrong.

This module imports nothing of crewkg: the wheel's build hook loads it by its path, before crewkg is installed."""

from __future__ import annotations

import gettext
import hashlib
import io
import os
import struct
import tempfile
from pathlib import Path

#: the folder of the catalogues, one sub-folder per language (gettext's layout)
LOCALE = Path(__file__).resolve().parent / "locale"
#: gettext's name for crewkg's catalogues: the file name of each .po
DOMAIN = "crewkg"


def languages(locale: Path = LOCALE) -> tuple[str, ...]:
    """The languages that have a catalogue, in the order of their codes (de, en)."""
    return tuple(sorted(p.parent.parent.name for p in locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po")))


def po_file(lang: str, locale: Path = LOCALE) -> Path:
    """The catalogue people edit for `lang`."""
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_name(source: bytes) -> str:
    """The file name of the .mo compiled from a .po whose bytes are `source`: the domain and the content hash."""
    return f"{DOMAIN}.{hashlib.sha256(source).hexdigest()[:16]}.mo"


def compile_po(source: bytes) -> bytes:
    """The .mo of a .po, compiled with Babel (read_po, write_mo). Fuzzy entries are left out, as msgfmt leaves them
    (tests/test_messages.py keeps the catalogues free of them)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = io.BytesIO()
    write_mo(out, read_po(io.BytesIO(source), domain=DOMAIN, abort_invalid=True))
    return out.getvalue()


class Translations(gettext.GNUTranslations):
    """One language's compiled catalogue: gettext's reader (ngettext by the .po's Plural-Forms) that also lists its
    messages, for the callers that read a catalogue as a dict."""

    def messages(self) -> dict[str, str]:
        """Every message without plural forms, by key (the entry with the empty key is the .po's header)."""
        return {key: text for key, text in self._catalog.items() if isinstance(key, str) and key}

    def form(self, key: str, n: int) -> str:
        """The form of the plural message `key` for the whole number n, chosen by the .po's Plural-Forms. A key
        without plural forms is a KeyError, as a missing message is for a dict (gettext's ngettext answers the key)."""
        if (key, 0) not in self._catalog:
            raise KeyError(key)
        return self.ngettext(key, key, n)


def load(lang: str, locale: Path = LOCALE) -> Translations:
    """The compiled catalogue of `lang`: the .mo of the .po as it is now, compiled first if there is none yet."""
    po = po_file(lang, locale)
    source = po.read_bytes()
    mo = po.with_name(mo_name(source))
    try:
        with mo.open("rb") as f:
            return Translations(f)
    except (OSError, ValueError, struct.error):  # not compiled yet, or not a .mo at all: compiled anew
        pass
    data = compile_po(source)
    _keep(mo, data)
    return Translations(io.BytesIO(data))


def _keep(mo: Path, data: bytes) -> None:
    """Leave the compiled catalogue beside its .po for the next process (written whole, or not at all) and remove
    the ones compiled from earlier versions of that .po. A folder that cannot be written stays as it is."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=mo.parent, prefix=mo.name + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):  # mkstemp makes it private; these are public words, read by whoever reads the package
                os.fchmod(f.fileno(), 0o644)
            f.write(data)
        os.replace(tmp, mo)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        return
    for old in mo.parent.glob(f"{DOMAIN}.*.mo"):
        if old != mo:
            try:
                old.unlink()
            except OSError:
                pass
