"""What the authority writes itself and crewkg never does: its header and its Rechtsmittelbelehrung (inserted into a
draft as given), and who it is as the issuer of a credential (name, eIDAS identifier, country). One file, YAML or
JSON, named with `--authority` / `--issuer` (or by the environment variable CREWKG_AUTHORITY, for a service):

    name: Bezirkshauptmannschaft Musterstadt          # the issuing authority's legal name
    eidas: AT/ZVR/000000000                             # its eIDAS legal identifier, as the authority writes it
    country: AUT                                        # ISO 3166-1 alpha-3 (the EU country list's code)
    homepage: https://www.example.gv.at                 # optional
    header: |                                           # the draft's header, as given
      …
    rechtsmittelbelehrung: |                            # the draft's Rechtsmittelbelehrung, as given
      …

Every key is optional; an unknown key, a value that is no text, or a country code that is no three capital letters
is bad input (file, key, expectation: exit 2). Without a file a draft says where the authority's texts go, and a
credential names the issuer as not configured."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewkg.errors import InputError

#: the environment variable naming the authority's file where no option does (the web service, a clerk's shell)
ENVIRONMENT = "CREWKG_AUTHORITY"
KEYS = ("name", "eidas", "country", "homepage", "header", "rechtsmittelbelehrung")


@dataclass(frozen=True)
class Authority:
    """The authority's own texts and identity, each None where its file gives none (or there is no file)."""

    name: str | None = None
    eidas: str | None = None
    country: str | None = None
    homepage: str | None = None
    header: str | None = None
    rechtsmittelbelehrung: str | None = None
    source: str | None = None


def authority(path: str | Path | None, option: str = "--authority") -> Authority:
    """The authority's file (`path`, else the one CREWKG_AUTHORITY names, else none), read and checked."""
    if path is None:
        path = os.environ.get(ENVIRONMENT) or None
        option = ENVIRONMENT
    if path is None:
        return Authority()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        from crewkg.errors import os_reason

        raise InputError(str(path), option, "authority_file", reason=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise InputError(str(path), option, "utf8") from None
    return from_mapping(_parse(text, path), str(path))


def _parse(text: str, path: Path) -> Any:
    import yaml

    try:
        return yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        from crewkg.errors import Reason

        raise InputError(str(path), "", "authority_yaml", reason=Reason(str(exc).splitlines()[0])) from None


def from_mapping(data: Any, source: str = "<authority>") -> Authority:
    """An authority from a mapping (a file read, or the API's argument), every key checked."""
    if isinstance(data, Authority):
        return data
    if not isinstance(data, dict):
        raise InputError(source, "", "authority_mapping", type(data).__name__)
    for key, v in data.items():
        if key not in KEYS:
            raise InputError(source, str(key), "authority_key", key, keys=list(KEYS))
        if v is not None and not isinstance(v, str):
            raise InputError(source, key, "authority_text", type(v).__name__)
    country = data.get("country")
    if country is not None and not re.fullmatch(r"[A-Z]{3}", country):
        raise InputError(source, "country", "country_code", country)
    return Authority(**{k: data.get(k) for k in KEYS}, source=source)
