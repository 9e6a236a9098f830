"""The German message catalogue: every sentence crewkg prints in German, by key.

Keys and placeholders match the other language's catalogue exactly (tests/test_messages.py). Numbers, names and
citations are placeholders filled from the answer; none is written here."""

MESSAGES: dict[str, str] = {
    # ---- requirement kinds: what is missing (messages.wording, the requirement-kind registry) ----
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
    "unit.days.one": "Tag",
    "unit.days.many": "Tage",
    "unit.years.one": "Jahr",
    "unit.years.many": "Jahre",
    "unit.more": "",
    # ---- crew: minimum crew and roster answers (answers.crew, answers.rosters) ----
    # ---- careers: graph, plans, programmes, cohorts, pictures ----
    # ---- cli: command-line text output ----
    # ---- service: HTTP API and web pages ----
}
