"""`crewkg draft` and `crewkg credential`: the clerk's file (docs/clerk.md). A draft of a decision, of a request to
complete the application or of a letter on the evidence, as JSON, HTML or PDF; and a certificate the record holds
as an unsigned European Digital Credential. Both from `crewkg.api`; imports inside the commands keep `crewkg check`
fast."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from crewkg.cli.common import Lang, _as_of, _fail, app, json_text
from crewkg.errors import InputError


class DraftFormat(str, Enum):
    json = "json"
    html = "html"
    pdf = "pdf"


class DraftKind(str, Enum):
    decision = "decision"
    completion = "completion"
    hearing = "hearing"


class CredentialFormat(str, Enum):
    edc = "edc"


def _emit(text: str | bytes, out: Path | None, inputs: list[Path], lang: str) -> None:
    """The document on standard output, or written whole to `out` (nothing half-written)."""
    if out is not None:
        from crewkg.outputs import write_atomically

        try:
            write_atomically(out, [text], inputs=inputs)
        except InputError as exc:
            _fail(exc, lang)
        return
    if isinstance(text, bytes):
        sys.stdout.buffer.write(text)
        sys.stdout.flush()
    else:
        sys.stdout.write(text)


@app.command()
def draft(
    person: Annotated[Path, typer.Argument(help="One person record (YAML, JSON or Turtle): the applicant's.")],
    certificate: Annotated[str, typer.Option("--certificate", help="The certificate applied for, e.g. UBZ-Matrose.")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date (ISO); default today.")] = None,
    kind: Annotated[DraftKind, typer.Option("--kind", help="decision (a Bescheid), completion (request to complete the application, § 13 Abs. 3 AVG) or hearing (the result of the taking of evidence, § 45 Abs. 3 AVG).")] = DraftKind.decision,
    fmt: Annotated[DraftFormat, typer.Option("--format", help="json for a case-file system, html or pdf (PDF/A; the [documents] extra) for people.")] = DraftFormat.json,
    authority: Annotated[Path | None, typer.Option("--authority", help="The authority's file (YAML): its header and Rechtsmittelbelehrung, inserted as given; default: the file CREWKG_AUTHORITY names.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the draft to this file instead of standard output.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the draft (de or en).")] = Lang.de,
) -> None:
    """A draft an authority can work from: the Spruch as a proposal (grant, refuse or incomplete) with the provisions,
    the validity and the medical schedule; the Begründung from the derivation; the authority's own texts as given.
    Always marked 'ENTWURF – kein Bescheid'."""
    day = _as_of(as_of, lang.value)
    try:
        if fmt is DraftFormat.pdf and out is None and sys.stdout.isatty():
            raise InputError("--out", "out", "pdf_terminal")
        from crewkg.api import draft as make

        doc = make(person, certificate, day, kind.value, lang.value, fmt.value, authority)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    _emit(json_text(doc) if isinstance(doc, dict) else doc, out, [person] + ([authority] if authority else []), lang.value)


@app.command()
def credential(
    person: Annotated[Path, typer.Argument(help="One person record (YAML, JSON or Turtle) that holds the certificate with its issue date.")],
    certificate: Annotated[str, typer.Option("--certificate", help="The certificate held, e.g. UBZ-Matrose (certificates: [{id, issued}]).")],
    issuer: Annotated[Path | None, typer.Option("--issuer", help="The issuing authority's file (YAML): name, eidas, country; default: the file CREWKG_AUTHORITY names.")] = None,
    fmt: Annotated[CredentialFormat, typer.Option("--format", help="edc: a European Digital Credential (ELM v3) in JSON-LD, unsigned.")] = CredentialFormat.edc,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Evaluation date of the derivation the evidence points to (ISO); default today.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the credential to this file instead of standard output.")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the credential's texts and of messages (de or en).")] = Lang.de,
) -> None:
    """A certificate the record holds as an unsigned European Digital Credential (ELM v3, EDC profile), checked offline
    against the official shapes. Not the legal document, and not sealed: sealing is the authority's."""
    day = _as_of(as_of, lang.value)
    try:
        from crewkg.api import credential as make

        doc = make(person, certificate, day, lang.value, issuer)
    except InputError as exc:
        _fail(exc, lang.value)
        return
    _emit(json_text(doc), out, [person] + ([issuer] if issuer else []), lang.value)
