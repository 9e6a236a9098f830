"""The Python API: what a program that embeds crewkg (a training institution's system, a notebook) calls.

One small, typed surface over the law, the records and the answers, so the CLI, the HTTP service and an
embedding program obtain every answer the same way. Bad input raises :class:`crewkg.InputError` (file, field,
expectation), never a bare exception.

>>> import crewkg
>>> answer = crewkg.check({"id": "doc-1", "birth_date": "1990-01-01"}, as_of="2024-06-01", lang="en")
>>> answer["person"], answer["covered"]
('doc-1', True)
>>> try:
...     crewkg.check({"id": "doc-2", "birth_date": "not a date"}, as_of="2024-06-01")
... except crewkg.InputError as exc:
...     print(exc.field)
birth_date
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkg.errors import InputError
from crewkg.law.statute import Law  # the compiled law's type: the faces name it through here

if TYPE_CHECKING:
    from crewkg.records.persons import Person

__all__ = ["InputError", "Law", "check", "credential", "crew", "draft", "explain", "law", "person", "plan"]


def law() -> Law:
    """The bundled law (SchBV 2022, SchBesV 2004), compiled once and cached on disk by content.

    >>> "UBZ-Steuermann" in law().certificates
    True
    """
    from crewkg.law.statute import load_law

    return load_law()


def _day(as_of: date | str | None) -> date:
    if as_of is None:
        return date.today()
    if isinstance(as_of, date):
        return as_of
    try:
        return date.fromisoformat(as_of)
    except (TypeError, ValueError):
        raise InputError("as_of", "as_of", "iso_date", as_of) from None


def _lang(lang: str) -> str:
    """The CLI and the HTTP API refuse other languages; so does the Python API (not raw ids in a label)."""
    if lang not in ("de", "en"):
        raise InputError("lang", "lang", "lang", lang)
    return lang


def _persons(record: Any, the_law: Law, day: date) -> list[Person]:
    from crewkg.records.persons import Person

    if isinstance(record, Person):
        return [record]
    if isinstance(record, str | Path):
        from crewkg.records.load import load_persons

        return load_persons(Path(record), the_law, day)
    if isinstance(record, Mapping):  # the schema check, as strict as the person shapes (records.load)
        from crewkg.records.persons import person_from_mapping

        return [person_from_mapping(dict(record), the_law, day, "<record>")]
    raise InputError("<record>", "", "record_kind", type(record).__name__)


def person(record: Mapping[str, Any] | str | Path | Person, as_of: date | str | None = None) -> Person:
    """One person record (a mapping, or a YAML/JSON/Turtle file), schema- and SHACL-checked.

    >>> person({"id": "doc-3", "birth_date": "2001-02-03"}, as_of="2024-01-01").birth_date
    datetime.date(2001, 2, 3)
    """
    day = _day(as_of)
    persons = _persons(record, law(), day)
    if len(persons) != 1:
        raise InputError(str(record), "", "one_record")
    return persons[0]


def check(record: Any, as_of: date | str | None = None, lang: str = "de") -> dict[str, Any] | list[dict[str, Any]]:
    """The eligibility answer of `crewkg check --format json`, with its `summary` (what the person reads first:
    roles, issuable, lapsed, next steps): for a mapping, a file or a Person one answer dict; for a folder of records
    the list of answers (as the CLI prints them)."""
    from crewkg.answers.eligibility import check as run_check

    day, lang = _day(as_of), _lang(lang)
    the_law = law()
    persons = _persons(record, the_law, day)
    answers = run_check(the_law, persons, day, lang)
    from crewkg.careers.summary import summarise

    summarise(the_law, persons, answers, day, lang)
    if isinstance(record, str | Path) and Path(record).is_dir():
        return answers
    return answers[0]


def explain(record: Any, certificate: str, as_of: date | str | None = None, lang: str = "de",
            terminal: bool = False) -> dict[str, Any]:
    """The derivation of one certificate: ``{"answer": <the check answer>, "certificate": <its entry or None>,
    "tree": <the derivation as data, what `crewkg explain --format json` prints>, "lines": <the explanation line by
    line, as data>, "text": <the text `crewkg explain` prints>}`` (with colours only when ``terminal``).

    The tree (docs/explain.md): ``person``, ``certificate``, ``as_of``, ``verdict`` and ``pathways``, each with its
    ``requirements`` (a group's ``parts`` or ``alternatives`` in turn), every one with its ``provision``, the
    ``wording`` where it is quoted first (else ``quoted_at``: where it was), ``facts``, ``needed``/``have``/``unit``,
    ``met``, ``missing`` and the kb's ``notes`` as ``{"kind", "topic", "text", "lang"}``.

    >>> out = explain({"id": "doc-4", "birth_date": "1990-01-01"}, "UBZ-Steuermann", as_of="2024-06-01", lang="en")
    >>> out["certificate"]["eligible"], "doc-4" in out["text"], out["tree"]["verdict"]
    (False, True, 'not_eligible')
    """
    from crewkg.answers.eligibility import check as run_check
    from crewkg.answers.explanation import derivation, lines, text_of
    from crewkg.records.persons import near

    day, lang = _day(as_of), _lang(lang)
    the_law = law()
    persons = _persons(record, the_law, day)
    if len(persons) != 1:
        raise InputError(str(record), "", "one_record")
    certificate = the_law.certificate_named(certificate) or certificate
    if certificate not in the_law.certificates:
        raise InputError("CERTIFICATE", "certificate", "certificate_of", certificate, ids=sorted(the_law.certificates),
                         near=near(certificate, the_law.certificates))
    answer = run_check(the_law, persons, day, lang)[0]
    tree = derivation(the_law, persons[0], answer, certificate, lang)
    said = lines(tree)
    entry = next((c for c in answer["certificates"] if c["id"] == certificate), None)
    return {"answer": answer, "certificate": entry, "tree": tree, "lines": said, "text": text_of(said, terminal)}


def _one(record: Any, the_law: Law, day: date) -> Person:
    persons = _persons(record, the_law, day)
    if len(persons) != 1:
        raise InputError(str(record), "", "one_record")
    return persons[0]


def _certificate(the_law: Law, certificate: str) -> str:
    """A certificate id (or a name `Law.certificate_named` knows), else bad input naming the ids and the nearest."""
    from crewkg.records.persons import near

    cid = the_law.certificate_named(certificate) or certificate
    if cid not in the_law.certificates:
        raise InputError("CERTIFICATE", "certificate", "certificate_of", certificate, ids=sorted(the_law.certificates),
                         near=near(certificate, the_law.certificates))
    return cid


def draft(record: Any, certificate: str, as_of: date | str | None = None, kind: str = "decision", lang: str = "de",
          fmt: str = "json", authority: Mapping[str, Any] | str | Path | None = None) -> dict[str, Any] | str | bytes:
    """A draft an authority can work from (`crewkg draft`, docs/clerk.md): for the person's application for
    ``certificate`` on ``as_of``, of ``kind`` decision (a Bescheid, proposing grant, refuse or incomplete), completion
    (a request to complete the application, § 13 Abs. 3 AVG) or hearing (the result of the taking of evidence, § 45
    Abs. 3 AVG). ``fmt`` json gives the draft as data (its keys: docs/clerk.md), html the page (a str), pdf the PDF/A
    (bytes; the [documents] extra). ``authority``: the authority's file or mapping (header, Rechtsmittelbelehrung,
    inserted as given; else CREWKG_AUTHORITY names the file, else the places say they are empty).

    Without a basic safety training or a year's experience in a deck crew the application for a deckhand's certificate lacks only a proof
    that can be submitted (§ 10 Z 2 SchBV): the draft proposes that it is incomplete.

    >>> d = draft({"id": "doc-5", "birth_date": "1990-01-01"}, "UBZ-Decksmann", as_of="2024-06-01")
    >>> d["banner"].startswith("ENTWURF – kein Bescheid"), d["proposal"], d["missing"][0]["provision"]
    (True, 'incomplete', '§ 10 Z 2 SchBV')
    """
    from crewkg.answers.eligibility import check as run_check
    from crewkg.answers.explanation import derivation
    from crewkg.documents import authority as authorities
    from crewkg.documents.draft import build

    day, lang = _day(as_of), _lang(lang)
    if fmt not in ("json", "html", "pdf"):
        raise InputError("--format", "format", "draft_format", fmt)
    the_law = law()
    cid = _certificate(the_law, certificate)
    who = authorities.from_mapping(authority) if isinstance(authority, Mapping) else authorities.authority(authority)
    p = _one(record, the_law, day)
    answer = run_check(the_law, [p], day, lang)[0]
    doc = build(the_law, p, answer, derivation(the_law, p, answer, cid, lang), cid, day, kind, lang, who)
    if fmt == "json":
        return doc
    from crewkg.documents import pages

    return pages.html(doc) if fmt == "html" else pages.pdf(doc)


def credential(record: Any, certificate: str, as_of: date | str | None = None, lang: str = "de",
               issuer: Mapping[str, Any] | str | Path | None = None, validate: bool = True) -> dict[str, Any]:
    """The certificate the record holds, with its issue date, as an unsigned European Digital Credential (ELM v3,
    EDC profile) in JSON-LD (`crewkg credential --format edc`, docs/clerk.md): the person, the learning achievement
    awarded by the issuing authority (``issuer``: its file or mapping — name, eIDAS identifier, country; else
    CREWKG_AUTHORITY), the entitlement it gives, the validity of § 22 SchBV, a rendered page and evidence pointing to
    the PROV derivation. Checked offline against the official EDC shapes unless ``validate`` is False; a certificate
    the record does not hold, or holds without an issue date, is bad input. Needs the [documents] and [pictures]
    extras. Unsigned: sealing it is the authority's."""
    from crewkg.documents import authority as authorities
    from crewkg.documents.credential import credential as make

    day, lang = _day(as_of), _lang(lang)
    the_law = law()
    cid = _certificate(the_law, certificate)
    who = authorities.from_mapping(issuer) if isinstance(issuer, Mapping) else authorities.authority(issuer, "--issuer")
    p = _one(record, the_law, day)
    doc = make(the_law, p, cid, day, lang, who)
    if validate:
        from crewkg.documents.conformance import conforms

        conforms(doc)
    return doc


def plan(record: Any, target: str, as_of: date | str | None = None, lang: str = "de", days_per_year: int | None = None,
         *, evaluate: Callable[[Person], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The answer of `crewkg plan --format json`: routes to ``target`` with the earliest date of each step.

    The target is checked first, then the record is read, then evaluated. ``evaluate`` lets a caller supply the
    eligibility answer its own way (the service batches evaluations); ``record`` may be a Person already read, or a
    function that reads it (called after the target check)."""
    from crewkg.api.careers import planned

    day, lang = _day(as_of), _lang(lang)

    def read() -> Person:
        return record() if callable(record) else record if _is_person(record) else person(record, day)

    return planned(law(), read, target, day, lang, days_per_year,
                   evaluate=evaluate or (lambda p: check(p, day, lang))).result


def _is_person(x: Any) -> bool:
    from crewkg.records.persons import Person

    return isinstance(x, Person)


def crew(vessel: Mapping[str, Any] | str | Path, roster: Mapping[str, Any] | str | Path | None = None,
         as_of: date | str | None = None, lang: str = "de", school_attendance: bool = False) -> dict[str, Any]:
    """The answer of `crewkg crew --format json`: the minimum crew of a vessel and, with a roster, the verdict. A file
    is read and checked as `crewkg crew` reads it; a mapping as the service's request body."""
    from crewkg.manning.compile import load_manning
    from crewkg.manning.crew import crew_answer
    from crewkg.manning.vessels import checked_vessel, load_roster, load_vessel, roster_from_mapping

    day, lang = _day(as_of), _lang(lang)
    the_law = law()
    ml = load_manning(the_law)
    if isinstance(vessel, str | Path):
        v = load_vessel(Path(vessel), the_law, ml)
    else:
        v = checked_vessel(vessel, ml, "request body: vessel")
    r = None
    if isinstance(roster, str | Path):
        r = load_roster(Path(roster), the_law, ml, day)
    elif roster is not None:
        r = roster_from_mapping(roster, the_law, day, "request body: roster")
    return crew_answer(the_law, ml, v, day, r, school_attendance, lang)
