"""Sentences for people: what is missing, in German (default) or English. Templates per requirement kind;
every number, role and citation in them comes from the answer, never from here."""

from __future__ import annotations

from typing import Any

from crewkg.law.statute import Law
from crewkg.messages.catalogue import CATALOGUES, catalogue

T = CATALOGUES


def _num(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def _count(x: Any, unit: str, lang: str) -> str:
    """'1 Tag' / '40 Tage' (after 'noch'), '1 more day' / '40 more days'."""
    t = catalogue(lang)
    return f"{_num(x)}{t['unit.more']} {t[f'unit.{unit}.' + ('one' if x == 1 else 'many')]}"


def missing_sentence(law: Law, req: dict[str, Any], lang: str = "de", cite: bool = True) -> str:
    """One sentence saying what is missing for an unmet requirement, with its provision."""
    t = catalogue(lang)
    kind = req["kind"]
    needed, have = req.get("needed"), req.get("have")
    role = law.label(req["role"], lang) if req.get("role") else ""
    gap = (needed - have) if isinstance(needed, (int, float)) and isinstance(have, (int, float)) else needed
    if kind == "Fahrzeit":
        n = _count(gap, "days", lang)
        s = t["days_role"].format(n=n, role=role) if role else t["days"].format(n=n)
    elif kind == "ProgrammeFahrzeit":
        s = t[f"days_{req['phase']}"].format(n=_count(gap, "days", lang), role=role)
    elif kind == "SeaTime":
        s = t[f"sea_{req['capacity']}"].format(n=_count(gap, "days", lang))
    elif kind == "MinimumAge":
        s = t["age"].format(needed=needed, on=req.get("reached_on")) if have is not None else t["age_unknown"].format(needed=needed)
    elif kind == "ProfessionalExperience":
        s = t["experience"].format(n=_count(gap, "years", lang))
    elif kind == "VocationalTraining":
        s = t["vocational"].format(needed=needed, have=_num(have))
    elif kind == "Programme":
        s = t["programme"].format(role=role, needed=needed, have=_num(have))
    elif kind == "Exam":
        s = t["exam"].format(items=", ".join(law.label(e, lang) for e in needed if e not in have))
    elif kind == "CertificateHeld":
        s = t["certificate"].format(items=t["or"].join(law.label(c, lang) for c in needed))
    elif kind == "Document":
        item = law.label(req["document"], lang)
        s = t["document_expired"].format(item=item, until=req["valid_until"]) if req.get("valid_until") else t["document"].format(item=item)
    elif kind == "AnyOf":
        inner = [missing_sentence(law, a, lang, cite=False) for a in req["alternatives"]]
        s = t["any_of"].format(items=t["or"].join(f"({x})" for x in inner))
    else:  # AllOf
        inner = [missing_sentence(law, a, lang, cite=False) for a in req["parts"] if not a["met"]]
        s = t["all_of"].format(items=t["and"].join(inner))
    return f"{s} ({req['provision']})" if cite else s
