"""A certificate the record holds as a European Digital Credential (ELM v3, EDC application profile), unsigned, in
JSON-LD (`crewkg credential --format edc`, docs/clerk.md).

What it says: the person (the record's id and birth date; the record gives no name); a learning achievement — the
certificate, titled with the kb's label ('Unionsbefähigungszeugnis für …') — awarded by the issuing authority (its
file: name, eIDAS identifier, country; `authority`), on the issue date the record gives; the entitlement it gives
(type 'occupation', status 'actual', the jurisdiction from the EU's list of administrative units: the European
Union, for a Union certificate is valid on all Union inland waterways); `issued`, `validFrom` and the end of its
validity (§ 22 SchBV, `rules.validity.own_ends`); a display with a rendered page (`card`); and evidence that points
to the PROV derivation of crewkg's evaluation (the evaluation's IRI, the kb version, the input digest), not the
record's entries.

What it is not: sealed (a qualified electronic seal is the authority's) and not the legal document (in Austria the
certificate of a deck-crew member is one document with the Schifferdienstbuch, § 2 Z 2 SchBV): it says both itself.
No ESCO occupation is named: none of ESCO's occupations could be checked offline to fit an inland-navigation role,
and a guessed IRI would be worse than none (docs/clerk.md)."""

from __future__ import annotations

import base64
import uuid
from datetime import date
from typing import Any

from crewkg.answers import identifiers as ids
from crewkg.documents.authority import Authority
from crewkg.documents.conformance import CONTEXTS, SCHEMA
from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person
from crewkg.rules.validity import own_ends

# The EU's controlled vocabularies the EDC profile asks for (EU Vocabularies, as the official samples name them)
_AUTHORITY = "http://publications.europa.eu/resource/authority/"
_SNB = "http://data.europa.eu/snb/"
SCHEMES = {"country": _AUTHORITY + "country", "language": _AUTHORITY + "language", "atu": _AUTHORITY + "atu",
           "file-type": _AUTHORITY + "file-type", "credential": _SNB + "credential/25831c2",
           "encoding": _SNB + "encoding/25831c2", "entitlement": _SNB + "entitlement/25831c2",
           "entitlement-status": _SNB + "entitlement-status/25831c2", "evidence-type": _SNB + "evidence-type/25831c2"}
CONCEPTS = {
    "generic": ("credential", _SNB + "credential/e34929035b", "Generic"),
    "base64": ("encoding", _SNB + "encoding/6146cde7dd", "base64"),
    "png": ("file-type", _AUTHORITY + "file-type/PNG", "PNG"),
    "json-ld": ("file-type", _AUTHORITY + "file-type/JSON_LD", "JSON-LD"),
    "occupation": ("entitlement", _SNB + "entitlement/52f62180c2", "occupation"),
    "actual": ("entitlement-status", _SNB + "entitlement-status/b7015a8a8c", "actual"),
    # the European Union as an administrative unit (the EDC profile's jurisdictions are units of this list)
    "union": ("atu", _AUTHORITY + "atu/EUR", "European Union"),
    # the evidence type the official EDC sample credential names (EU Vocabularies' evidence types)
    "evidence": ("evidence-type", _SNB + "evidence-type/c_18016257", None),
}
LANGUAGE = {"de": ("DEU", "German"), "en": ("ENG", "English")}
#: the country of the law crewkg holds: the issuer's where its file names none
COUNTRY = "AUT"


def credential(law: Law, p: Person, cid: str, day: date, lang: str, who: Authority) -> dict[str, Any]:
    """The credential of the held certificate `cid` (bad input where the record does not hold it, or holds it
    without an issue date), its derivation as evaluated on `day`."""
    if cid not in p.certificates:
        raise InputError(p.source or p.id, "certificates", "credential_held", cid, certificate=cid,
                         held=", ".join(p.certificates) or "—")
    issued = p.certificate_issued.get(cid)
    if issued is None:
        raise InputError(p.source or p.id, "certificates", "credential_issued", cid, certificate=cid)
    base = "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"{ids.person(p.id)}/credential/{cid}/{issued.isoformat()}"))
    ends = own_ends(law, cid, issued)
    end = min(ends, key=lambda e: e.last_day) if ends else None
    issuer = _issuer(base, who, lang)
    summary = _summary(law, p, cid, issued, end, who, lang)
    doc: dict[str, Any] = {
        "@context": list(CONTEXTS),
        "id": base, "type": ["VerifiableCredential", "EuropeanDigitalCredential"],
        "credentialProfiles": _concept("generic"),
        "credentialSchema": {"id": SCHEMA, "type": "ShaclValidator2017"},
        "issuer": issuer,
        "issued": _moment(issued), "validFrom": _moment(issued),
        "credentialSubject": _subject(law, p, cid, issued, end, base, issuer["id"], lang),
        "displayParameter": _display(base, summary, lang),
        "evidence": _evidence(law, p, base, day, lang),
    }
    if end is not None:
        doc["validUntil"] = _moment(end.last_day, end_of_day=True)
        doc["expirationDate"] = doc["validUntil"]
    return doc


def _moment(d: date, end_of_day: bool = False) -> str:
    return d.isoformat() + ("T23:59:59Z" if end_of_day else "T00:00:00Z")


def _concept(name: str) -> dict[str, Any]:
    scheme, iri, label = CONCEPTS[name]
    out = {"id": iri, "type": "Concept", "inScheme": {"id": SCHEMES[scheme], "type": "ConceptScheme"}}
    return out | ({"prefLabel": {"en": label}} if label else {})


def _country(code: str) -> dict[str, Any]:
    return {"id": f"{_AUTHORITY}country/{code}", "type": "Concept", "notation": code,
            "inScheme": {"id": SCHEMES["country"], "type": "ConceptScheme"}}


def _language(lang: str) -> dict[str, Any]:
    code, label = LANGUAGE[lang]
    return {"id": f"{_AUTHORITY}language/{code}", "type": "Concept", "prefLabel": {"en": label},
            "inScheme": {"id": SCHEMES["language"], "type": "ConceptScheme"}}


def _both(key: str, **fields: Any) -> dict[str, str]:
    """A text in both languages (a language map): a wallet shows the one its reader speaks."""
    return {lang: say(lang, key, **fields) for lang in LANGUAGE}


def _labels(law: Law, term: str) -> dict[str, str]:
    return {lang: law.label(term, lang) for lang in LANGUAGE}


def _issuer(base: str, who: Authority, lang: str) -> dict[str, Any]:
    """The issuing authority as its file names it; where it names none, the places say so (the EDC profile asks an
    eIDAS identifier of every issuer: a credential without a configured one says it is not configured)."""
    country = who.country or COUNTRY
    org = {"id": f"{base}#issuer", "type": "Organisation",
           "legalName": {lang: who.name} if who.name else _both("credential.issuer.unset"),
           "eIDASIdentifier": {"id": f"{base}#issuer-eidas", "type": "LegalIdentifier",
                               "notation": who.eidas or say("en", "credential.issuer.no_eidas"),
                               "spatial": _country(country)},
           "location": {"id": f"{base}#issuer-location", "type": "Location",
                        "address": {"id": f"{base}#issuer-address", "type": "Address", "countryCode": _country(country)}}}
    if who.homepage:
        org["homepage"] = {"id": f"{base}#issuer-homepage", "type": "WebResource", "contentURL": who.homepage}
    return org


def _subject(law: Law, p: Person, cid: str, issued: date, end: Any, base: str, issuer: str, lang: str) -> dict[str, Any]:
    """The person, with the certificate as a learning achievement and the entitlement it gives."""
    cert = law.certificates[cid]
    awarded = {"id": f"{base}#awarding", "type": "AwardingProcess", "awardingBody": {"id": issuer},
               "awardingDate": _moment(issued)}
    role = cert.role or cid
    title = {x: say(x, "credential.entitlement.title", role=law.label(role, x)) for x in LANGUAGE}
    entitlement: dict[str, Any] = {
        "id": f"{base}#entitlement", "type": "LearningEntitlement", "title": title, "awardedBy": {"id": awarded["id"]},
        "specifiedBy": {"id": f"{base}#entitlement-specification", "type": "LearningEntitlementSpecification",
                        "title": title, "dcType": _concept("occupation"), "entitlementStatus": _concept("actual"),
                        "limitJurisdiction": [_concept("union")]},
        "additionalNote": [_note(f"{base}#note-medical", "credential.note.medical")],
    }
    if end is not None:
        entitlement["expiryDate"] = _moment(end.last_day, end_of_day=True)
    achievement = {
        "id": f"{base}#achievement", "type": "LearningAchievement", "title": _labels(law, cid), "awardedBy": awarded,
        "entitlesTo": [entitlement],
        "specifiedBy": {"id": f"{base}#achievement-specification", "type": "LearningAchievementSpecification",
                        "title": _labels(law, cid),
                        "additionalNote": [_note(f"{base}#note-basis", "credential.note.basis",
                                                 provision=law.citation(cert.provision))]},
        "additionalNote": [_note(f"{base}#note-seal", "credential.note.seal"),
                           _note(f"{base}#note-document", "credential.note.document")],
    }
    person: dict[str, Any] = {"id": ids.person(p.id), "type": "Person", "hasClaim": achievement,
                              "identifier": {"id": f"{base}#holder-id", "type": "Identifier", "notation": p.id,
                                             "schemeName": say("en", "credential.holder.scheme")}}
    if p.birth_date is not None:
        person["dateOfBirth"] = _moment(p.birth_date)
    return person


def _note(nid: str, key: str, **fields: Any) -> dict[str, Any]:
    return {"id": nid, "type": "Note", "noteLiteral": _both(key, **fields)}


def _summary(law: Law, p: Person, cid: str, issued: date, end: Any, who: Authority, lang: str) -> dict[str, Any]:
    """What the rendered page shows (`card.png`)."""
    cert = law.certificates[cid]
    reg = law.regulations.get(cert.regulation or "")
    until = say(lang, "credential.card.until_value", until=end.last_day.isoformat(), provision=law.citation(end.provision)) \
        if end is not None else "—"
    return {"label": law.label(cid, lang), "provision": law.citation(cert.provision), "regulation": reg.name if reg else "",
            "holder": p.id, "birth_date": p.birth_date.isoformat() if p.birth_date else None, "issued": issued.isoformat(),
            "until_text": until, "issuer": who.name or say(lang, "credential.issuer.unset"),
            "entitlement": say(lang, "credential.entitlement.title", role=law.label(cert.role or cid, lang))}


def _display(base: str, summary: dict[str, Any], lang: str) -> dict[str, Any]:
    """The display: the title, the languages, and one page (the rendered PNG) in the language asked."""
    from crewkg.documents.card import png

    image = {"id": f"{base}#page-1", "type": "MediaObject", "content": base64.b64encode(png(summary, lang)).decode("ascii"),
             "contentEncoding": _concept("base64"), "contentType": _concept("png")}
    return {"id": f"{base}#display", "type": "DisplayParameter", "title": {lang: summary["label"]},
            "language": [_language(x) for x in LANGUAGE], "primaryLanguage": _language(lang),
            "description": _both("credential.display.description"),
            "individualDisplay": [{"id": f"{base}#display-{lang}", "type": "IndividualDisplay", "language": _language(lang),
                                   "displayDetail": [{"id": f"{base}#display-{lang}-1", "type": "DisplayDetail",
                                                      "image": image, "page": 1}]}]}


def _evidence(law: Law, p: Person, base: str, day: date, lang: str) -> list[dict[str, Any]]:
    """Where the credential comes from: crewkg's evaluation of the record, a PROV activity of the RDF export (`crewkg
    export`). The evidence names it (its IRI, the evaluation date, the kb version and the digest of all it read) in
    words and as a small embedded PROV statement in JSON-LD whose URL is the activity's IRI — never the record's
    entries (the service log, the medical proof) themselves. Its target is the person the evaluation is about."""
    import json

    from crewkg.law.namespaces import CREW_IRI

    digest = ids.input_digest(law, p, day)
    prov = {"@context": {"prov": "http://www.w3.org/ns/prov#", "crew": CREW_IRI,
                         "xsd": "http://www.w3.org/2001/XMLSchema#"},
            "@id": ids.evaluation(p.id), "@type": ["prov:Activity", "crew:Evaluation"],
            "crew:evaluatedPerson": {"@id": ids.person(p.id)}, "prov:used": {"@id": ids.person(p.id)},
            "crew:evaluationDate": {"@value": day.isoformat(), "@type": "xsd:date"}, "crew:kbVersion": law.version,
            "crew:inputDigest": digest}
    embedded = {"id": f"{base}#evidence-prov", "type": "MediaObject", "contentURL": ids.evaluation(p.id),
                "content": base64.b64encode(json.dumps(prov, sort_keys=True).encode("utf-8")).decode("ascii"),
                "contentEncoding": _concept("base64"), "contentType": _concept("json-ld")}
    return [{"id": f"{base}#evidence", "type": "Evidence", "dcType": _concept("evidence"),
             "evidenceTarget": ids.person(p.id), "embeddedEvidence": [embedded],
             "evidenceStatement": say(lang, "credential.evidence", evaluation=ids.evaluation(p.id), as_of=day.isoformat(),
                                      kb_version=law.version, digest=digest)}]
