"""Writing an output file whole or not at all: every command that writes a file (`--out` of check, export, cohort,
paths, timeline, …) goes through `write_atomically`, so a failure or Ctrl-C half-way never leaves half a file, and a
written file gets the mode an ordinary file gets."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from crewkg.errors import InputError


def write_atomically(out: Path, chunks: Iterable[str | bytes], inputs: Iterable[Path] = ()) -> None:
    """Stream the chunks into a temporary file beside `out`, then rename it over `out`; nothing half-written remains
    when anything fails (Ctrl-C included). `out` may not be a folder or one of the inputs (that would replace what is
    read), and gets the mode the file it replaces had, else the mode a new file gets (the umask), not the temporary
    file's 0600."""
    import tempfile

    if not out.parent.is_dir():
        raise InputError(str(out), "--out", "out_folder", str(out.parent))
    if out.is_dir():
        raise InputError(str(out), "--out", "out_file")
    for source in inputs:
        if source.exists() and out.exists() and out.resolve() == source.resolve():
            raise InputError(str(out), "--out", "out_not_input", str(source))
    if out.exists():
        mode = out.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    except OSError as exc:  # a folder that takes no new file (/proc, read-only, no permission)
        from crewkg.errors import os_reason

        raise InputError(str(out), "--out", "out_writable", reason=os_reason(exc)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
