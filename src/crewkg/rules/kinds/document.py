"""Document — the named document (radio certificate, medical fitness, safety training, Lehrvertrag) is held."""

from __future__ import annotations

from datetime import date

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import value
from crewkg.records.persons import Person

NAME = "Document"
ORDER = 80
UNIT = "document"
#: the export names the needed and held items as terms of the ontology
ITEM_TERMS = "crew"
#: met on the step's date, without time of its own (the planner)
TAKES_TIME = False
CLAUSES = """
met(P, R) <= req_kind(R, 'Document') & req_document(R, D) & document(P, D)
"""
PREDICATES = {"req_document": 2, "document": 2}


def kb_facts(r):
    return [("req_document", r.id, r.document)] if r.document else []


def person_facts(p, law, as_of):
    return [("document", p.id, doc) for doc, held in documents(p, as_of).items() if held]


def have(r, p, d, as_of):
    return documents(p, as_of).get(r.document or "", False)


def answer(law, r, p, d, as_of):
    out = {"needed": True, "have": have(r, p, d, as_of), "document": r.document}
    if r.document == "MedicalFitness" and p.medical_valid_until:
        out["valid_until"] = p.medical_valid_until.isoformat()
    return out


#: document of the ontology -> the record field that proves it
FIELDS = {
    "MedicalFitness": "medical_fitness",
    "Sprechfunkzeugnis": "radio_certificate",
    "BasicSafetyTraining": "basic_safety_training",
    "ApprenticeshipContract": "apprenticeship_contract",
    "InlandNavigationTraining": "inland_training_days",
}
#: document of the ontology -> the record field that gives its length in days (a document that lasts)
DAYS_FIELDS = {"InlandNavigationTraining": "inland_training_days"}


def document_days(p: Person, doc: str) -> int:
    """The length in days of a document the record proves (0 when it gives none or the document has no length)."""
    return int(getattr(p, DAYS_FIELDS[doc], 0) or 0) if doc in DAYS_FIELDS else 0


def documents(p: Person, as_of: date) -> dict[str, bool]:
    """Which documents of the ontology the record proves on the evaluation date (medical fitness until its end)."""
    held = {doc: bool(getattr(p, name)) for doc, name in FIELDS.items()}
    held["MedicalFitness"] = (held["MedicalFitness"] and (p.medical_valid_until is None or p.medical_valid_until >= as_of)
                              and (p.medical_examined is None or p.medical_examined <= as_of))
    return held


def missing(law, req, lang):
    t = catalogue(lang)
    item = law.label(req["document"], lang)
    if req.get("valid_until"):
        return t["document_expired"].format(item=item, until=req["valid_until"])
    return t["document"].format(item=item)


def facts(req, p, lang):
    t = catalogue(lang)
    until = t["cli.facts.valid_until"].format(until=req["valid_until"]) if req.get("valid_until") else ""
    return t["kind.facts.document"].format(item=req["document"], value=value(req["have"], lang), until=until)


def summary(law, r, lang):
    return catalogue(lang)["kind.summary.Document"].format(item=law.label(r.document or "", lang))


def project(ctx, state, it, prog, n):
    """Takes no time, but is listed as remaining (a medical certificate may also lapse before the step's date)."""
    n.at_step = not n.met


def items(req):
    """The needed and the held items, for the export."""
    return [req["document"]], [req["document"]] if req.get("have") else []


def assume(p, r, on):
    """Obtained (and valid) on the step's date, as the plan assumes."""
    if r.document in FIELDS:
        setattr(p, FIELDS[r.document], True)
    if r.document == "MedicalFitness":
        p.medical_valid_until = None
