"""The kb's editorial notes (skos:editorialNote) read by their convention, the one home of it.

A note is written for maintainers: it runs sentence after sentence, and a sentence may open with a marker in capitals
that says what follows — ``INTERPRETATION:`` (``Auslegung:``), ``LITERAL:`` (``WÖRTLICH:``), ``NOT IN THE SOURCES:``
(``NICHT IN DEN QUELLEN:``), ``NOT CHECKED:``, ``NOT COVERED:``, ``FLAG:`` (``PRÜFHINWEIS:``) — sometimes with a topic
in brackets (``INTERPRETATION (two readings):``, ``FLAG (review flag H.5):``), and a note on wording taken from outside
the bundled texts opens with ``Wording from the RIS, not in the bundled texts`` (``Wortlaut aus dem RIS, nicht in den
mitgelieferten Texten``). `segments` cuts a note at its markers into what each part is (`Segment.kind`) and its text
without the marker, so that an answer for people says each part in its own words (the catalogue's, by kind) and
never prints a marker; `refer` names the kb's terms a note refers to (``kb:SchBV2022-P47-Abs4``) by their citations."""

from __future__ import annotations

import re
from dataclasses import dataclass

from crewkg.law.statute import Law

#: the markers of the convention, in both languages, and the kind of part each opens
MARKERS = {
    "INTERPRETATION": "reading", "AUSLEGUNG": "reading", "Auslegung": "reading",
    "LITERAL": "literal", "WÖRTLICH": "literal",
    "NOT IN THE SOURCES": "gap", "NICHT IN DEN QUELLEN": "gap",
    "NOT IN THE BUNDLED TEXTS": "gap", "NICHT IN DEN MITGELIEFERTEN TEXTEN": "gap",
    "NOT CHECKED": "unchecked", "NICHT GEPRÜFT": "unchecked",
    "NOT COVERED": "uncovered", "NICHT ABGEDECKT": "uncovered",
    "FLAG": "flag", "PRÜFHINWEIS": "flag",
    "PLANNING ASSUMPTIONS": "planning", "PLANUNGSANNAHMEN": "planning",
}
#: the opening of a note on wording the kb took from outside the bundled texts, in both languages
SOURCE = ("Wording from the RIS, not in the bundled texts", "Wortlaut aus dem RIS, nicht in den mitgelieferten Texten")
#: the kinds of part, in the order an answer may list them
KINDS = ("note", "source", "reading", "literal", "gap", "unchecked", "uncovered", "flag", "planning")

_MARKER = "|".join(re.escape(m) for m in sorted(MARKERS, key=len, reverse=True))
# a marker opens the note or a sentence (after '.', ';' or ':'), with an optional topic in brackets and an optional
# 'as …' / 'wie …' (another reading it follows), and ends at the first colon followed by a space
_OPENING = re.compile(rf"(?:^|(?<=[.;:]\s))(?P<marker>{_MARKER})(?:\s*\((?P<topic>[^)]*)\))?"
                      rf"(?P<like>,?\s+(?:as|wie)\s+.+?)?:\s+")
_SOURCE = re.compile(rf"^(?:{'|'.join(re.escape(s) for s in SOURCE)})(?:\s*\([^)]*\))?\s*[:.]\s*")
#: a topic for maintainers only: one that names a review flag of their review ('review flag H.5', 'as review flag H.8
#: reads …') or is no more than the name of a term of the ontology or the kb ('crew:minimumHours')
_INTERNAL_TOPIC = re.compile(r"\b(?:review flag|Prüfvermerk) H\.\d+|^(?:crew|kb):[\w-]+$")
_REFERENCE = re.compile(r"\bkb:(?P<id>[A-Za-z0-9][\w-]*[A-Za-z0-9])")


@dataclass(frozen=True)
class Segment:
    """One part of a note: what it is (`KINDS`: 'reading' an interpretation crewkg chose, 'literal' a reading of the
    words as written, 'source' where wording outside the bundled texts comes from, 'gap' what the sources lack,
    'unchecked', 'uncovered', 'flag' a doubt about the source's text, 'planning', 'note' anything else), its text
    without the marker, and the topic the marker named in brackets (None: none)."""

    kind: str
    text: str
    topic: str | None = None


def segments(note: str) -> tuple[Segment, ...]:
    """A note cut at its markers: the text before the first marker is a 'note' (or, opening with `SOURCE`, a
    'source'), then one segment per marker. A marker's topic for maintainers only (a review flag,
    a bare name of the ontology) is left out."""
    note = note.strip()
    out: list[Segment] = []
    head = _SOURCE.match(note)
    first = "note"
    if head:
        note, first = note[head.end():], "source"
    starts = list(_OPENING.finditer(note))
    lead = note[: starts[0].start()].strip() if starts else note
    if lead or first == "source":
        out.append(Segment(first, lead))
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(note)
        topic = ", ".join(x.strip(" ,") for x in (m["topic"] or "", m["like"] or "") if x and not _INTERNAL_TOPIC.search(x.strip(" ,")))
        out.append(Segment(MARKERS[m["marker"]], note[m.end():end].strip(), topic or None))
    return tuple(out)


def refer(law: Law, text: str, lang: str) -> str:
    """A note's text with the kb terms it names (``kb:<id>``) said as an answer says them: a provision, pathway or
    requirement by the citation of its provision, a certificate or another term by its label; a name the compiled law
    does not hold (a manning table's row, the role hierarchy) stays as written."""

    def said(m: re.Match) -> str:
        x = m["id"]
        if x in law.provisions:
            return law.provisions[x].citation
        for table in (law.pathways, law.requirements):
            if x in table:
                return law.citation(table[x].provision)
        if x in law.certificates or x in law.terms:
            return law.label(x, lang)
        return m[0]

    return _REFERENCE.sub(said, text)
