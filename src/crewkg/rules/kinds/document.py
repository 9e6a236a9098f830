"""Document — the named document (radio certificate, medical fitness, safety training, Lehrvertrag) is held."""

from __future__ import annotations

from datetime import date

from crewkg.records.persons import Person

NAME = "Document"
ORDER = 80
CLAUSES = """
met(P, R) <= req_kind(R, 'Document') & req_document(R, D) & document(P, D)
"""
PREDICATES = {"req_document": 2, "document": 2}


def kb_facts(r):
    return [("req_document", r.id, r.document)] if r.document else []


def have(r, p, d, as_of):
    return documents(p, as_of).get(r.document or "", False)


def documents(p: Person, as_of: date) -> dict[str, bool]:
    """Which documents of the ontology the record proves on the evaluation date."""
    medical = p.medical_fitness and (p.medical_valid_until is None or p.medical_valid_until >= as_of)
    return {
        "MedicalFitness": medical,
        "Sprechfunkzeugnis": p.radio_certificate,
        "BasicSafetyTraining": p.basic_safety_training,
        "ApprenticeshipContract": p.apprenticeship_contract,
    }
