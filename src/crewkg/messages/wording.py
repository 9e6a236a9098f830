"""Sentences for people: what is missing, in German (default) or English. Templates per requirement kind;
every number, role and citation in them comes from the answer, never from here."""

from __future__ import annotations

from typing import Any

from crewkg.law.statute import Law

T = {
    "de": {
        "days_role": "noch {n} Fahrzeit als {role}",
        "days": "noch {n} Fahrzeit",
        "days_WithinProgramme": "noch {n} Fahrzeit im Rahmen des Ausbildungsprogramms für {role}",
        "days_AfterProgramme": "noch {n} Fahrzeit nach Abschluss des Ausbildungsprogramms für {role}",
        "days_WithinOrAfterProgramme": "noch {n} Fahrzeit im Rahmen oder nach Abschluss des Ausbildungsprogramms für {role}",
        "sea_AsDeckCrew": "noch {n} Berufserfahrung als Mitglied einer Decksmannschaft auf einem Seeschiff",
        "sea_AsMaster": "noch {n} Berufserfahrung als Schiffsführer auf See",
        "sea_AnyCapacity": "noch {n} Berufserfahrung auf einem Seeschiff",
        "age": "das {needed}. Lebensjahr ist noch nicht vollendet (vollendet am {on})",
        "age_unknown": "Geburtsdatum fehlt (Mindestalter {needed} Jahre)",
        "experience": "noch {n} Berufserfahrung",
        "vocational": "Berufsausbildung von mindestens {needed} Jahren fehlt (vorhanden: {have})",
        "programme": "zugelassenes Ausbildungsprogramm für {role} von mindestens {needed} Monaten fehlt (vorhanden: {have} Monate)",
        "exam": "Prüfung fehlt: {items}",
        "certificate": "Zeugnis fehlt: {items}",
        "document": "fehlt: {item}",
        "document_expired": "fehlt: {item} (gültig bis {until}, abgelaufen)",
        "any_of": "eine davon fehlt: {items}",
        "all_of": "{items}",
        "or": " oder ",
        "and": " und ",
        "eligible": "ausstellbar",
        "not_eligible": "nicht ausstellbar",
        "not_covered": "nicht abgedeckt",
        "pathway": "Weg",
        "result": "Ergebnis",
        "missing": "Es fehlt",
        "roles": "Kann besetzen",
        "none": "—",
        "not_in_sources": "die Voraussetzungen von {provision} sind in den Quellen nicht enthalten (nur Überschrift)",
    },
    "en": {
        "days_role": "{n} of sailing time as {role}",
        "days": "{n} of sailing time",
        "days_WithinProgramme": "{n} of sailing time within the programme for {role}",
        "days_AfterProgramme": "{n} of sailing time after completing the programme for {role}",
        "days_WithinOrAfterProgramme": "{n} of sailing time within or after the programme for {role}",
        "sea_AsDeckCrew": "{n} of experience as deck crew on a sea-going ship",
        "sea_AsMaster": "{n} of experience as master at sea",
        "sea_AnyCapacity": "{n} of experience on a sea-going ship",
        "age": "not yet {needed} years of age (reached on {on})",
        "age_unknown": "birth date missing (minimum age {needed})",
        "experience": "{n} of professional experience",
        "vocational": "vocational training of at least {needed} years missing (has {have})",
        "programme": "approved programme for {role} of at least {needed} months missing (has {have} months)",
        "exam": "exam missing: {items}",
        "certificate": "certificate missing: {items}",
        "document": "missing: {item}",
        "document_expired": "missing: {item} (valid until {until}, expired)",
        "any_of": "one of these is missing: {items}",
        "all_of": "{items}",
        "or": " or ",
        "and": " and ",
        "eligible": "can be issued",
        "not_eligible": "cannot be issued",
        "not_covered": "not covered",
        "pathway": "Pathway",
        "result": "Result",
        "missing": "Missing",
        "roles": "Can fill",
        "none": "—",
        "not_in_sources": "the requirements of {provision} are not in the sources (heading only)",
    },
}


def _num(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


UNIT_WORDS = {"de": {"days": ("Tag", "Tage"), "years": ("Jahr", "Jahre")},
              "en": {"days": ("day", "days"), "years": ("year", "years")}}


def _count(x: Any, unit: str, lang: str) -> str:
    """'1 Tag' / '40 Tage' (after 'noch'), '1 more day' / '40 more days'."""
    one, many = UNIT_WORDS[lang][unit]
    more = " more" if lang == "en" else ""
    return f"{_num(x)}{more} {one if x == 1 else many}"


def missing_sentence(law: Law, req: dict[str, Any], lang: str = "de", cite: bool = True) -> str:
    """One sentence saying what is missing for an unmet requirement, with its provision."""
    t = T[lang]
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
