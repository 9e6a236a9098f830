"""The English message catalogue: every sentence crewkg prints in English, by key.

Keys and placeholders match the other language's catalogue exactly (tests/test_messages.py). Numbers, names and
citations are placeholders filled from the answer; none is written here."""

MESSAGES: dict[str, str] = {
    # ---- requirement kinds: what is missing (messages.wording, the requirement-kind registry) ----
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
    "unit.days.one": "day",
    "unit.days.many": "days",
    "unit.years.one": "year",
    "unit.years.many": "years",
    "unit.more": " more",
    # ---- crew: minimum crew and roster answers (answers.crew, answers.rosters) ----
    # ---- careers: graph, plans, programmes, cohorts, pictures ----
    # ---- cli: command-line text output ----
    # ---- service: HTTP API and web pages ----
}
