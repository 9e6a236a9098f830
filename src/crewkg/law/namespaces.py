"""The closed namespaces used from Python: a typo in a term fails at import, not as a silently minted IRI. RDF and
RDFS (rdflib's, closed too) are given here with the ontology's, for the compiler of the law (`law.statute`)."""

from __future__ import annotations

from rdflib import Namespace
from rdflib.namespace import RDF as RDF
from rdflib.namespace import RDFS as RDFS
from rdflib.namespace import DefinedNamespace
from rdflib.term import URIRef

CREW_IRI = "https://w3id.org/crewkg/onto#"
KB_IRI = "https://w3id.org/crewkg/kb/"
PERSON_IRI = "https://w3id.org/crewkg/person/"

KB = Namespace(KB_IRI)
PERSON = Namespace(PERSON_IRI)


class CREW(DefinedNamespace):
    _NS = Namespace(CREW_IRI)
    _fail = True

    Regulation: URIRef
    Provision: URIRef
    Role: URIRef
    DeckCrewRole: URIRef
    Certificate: URIRef
    Document: URIRef
    Exam: URIRef
    Pathway: URIRef
    Person: URIRef
    SailingRecord: URIRef
    SeaRecord: URIRef
    CompletedProgramme: URIRef
    SeaCapacity: URIRef
    ProgrammePhase: URIRef
    Function: URIRef
    Requirement: URIRef
    MinimumAgeRequirement: URIRef
    FahrzeitRequirement: URIRef
    ProgrammeFahrzeitRequirement: URIRef
    SeaTimeRequirement: URIRef
    ProfessionalExperienceRequirement: URIRef
    VocationalTrainingRequirement: URIRef
    ProgrammeRequirement: URIRef
    ExamRequirement: URIRef
    CertificateHeldRequirement: URIRef
    NotHeldRequirement: URIRef
    DocumentRequirement: URIRef
    AnyOfRequirement: URIRef
    AllOfRequirement: URIRef
    DatedProofRequirement: URIRef
    FunctionHeldRequirement: URIRef
    notOlderThanMonths: URIRef
    minimumHours: URIRef
    takenBefore: URIRef
    provenByServiceAs: URIRef
    provenByServiceInAnyRole: URIRef
    paraphrase: URIRef
    instructionHours: URIRef
    NationalCertificate: URIRef
    heldByProof: URIRef
    requiresHeldFunction: URIRef
    validUntil: URIRef
    countsUnder: URIRef
    validityProvision: URIRef
    issuedFrom: URIRef
    issuedUntil: URIRef
    datedFormOf: URIRef
    validityYears: URIRef
    appliesToCertificate: URIRef
    hasScheduleStep: URIRef
    fromAge: URIRef
    proofValidMonths: URIRef
    renewalGraceMonths: URIRef
    renewedAfterBirthday: URIRef
    renewalEveryYears: URIRef
    ranksAbove: URIRef
    certifiesRole: URIRef
    leadsTo: URIRef
    presupposes: URIRef
    hasRequirement: URIRef
    hasAlternative: URIRef
    hasPart: URIRef
    provision: URIRef
    partOf: URIRef
    inRegulation: URIRef
    servedAs: URIRef
    seaCapacity: URIRef
    programmeFor: URIRef
    ofProgramme: URIRef
    beforeProgramme: URIRef
    inAdditionTo: URIRef
    untilRenewalOf: URIRef
    Reading: URIRef
    readingOf: URIRef
    appliedReading: URIRef
    otherReading: URIRef
    programmePhase: URIRef
    requiresExam: URIRef
    acceptsCertificate: URIRef
    excludesCertificate: URIRef
    excludesFunction: URIRef
    requiresDocument: URIRef
    holdsCertificate: URIRef
    passedExam: URIRef
    holdsFunction: URIRef
    hasSailingRecord: URIRef
    hasSeaRecord: URIRef
    completedProgramme: URIRef
    inRole: URIRef
    minimumYears: URIRef
    minimumDays: URIRef
    minimumMonths: URIRef
    wording: URIRef
    citation: URIRef
    paragraph: URIRef
    absatz: URIRef
    ziffer: URIRef
    litera: URIRef
    abbreviation: URIRef
    certificateAbbreviation: URIRef
    gazette: URIRef
    inForceFrom: URIRef
    inForceUntil: URIRef
    certificatesIssuedFrom: URIRef
    statuteOrder: URIRef
    personId: URIRef
    birthDate: URIRef
    medicallyFit: URIRef
    medicalFitnessValidUntil: URIRef
    hasRadioCertificate: URIRef
    hasBasicSafetyTraining: URIRef
    hasApprenticeshipContract: URIRef
    apprenticeshipYear: URIRef
    professionalExperienceYears: URIRef
    vocationalTrainingYears: URIRef
    days: URIRef
    months: URIRef
    daysWithin: URIRef
    daysAfter: URIRef
    daysPerYear: URIRef
    AsDeckCrew: URIRef
    AsMaster: URIRef
    AnyCapacity: URIRef
    CapacityInclusion: URIRef
    CertificateValidityRule: URIRef
    MedicalExaminationSchedule: URIRef
    MedicalScheduleStep: URIRef
    includingCapacity: URIRef
    includedCapacity: URIRef
    WithinProgramme: URIRef
    AfterProgramme: URIRef
    WithinOrAfterProgramme: URIRef
    Anlage8: URIRef
    Anlage9: URIRef
    Anlage10: URIRef
    Anlage11: URIRef
    Sprechfunkzeugnis: URIRef
    MedicalFitness: URIRef
    BasicSafetyTraining: URIRef
    ApprenticeshipContract: URIRef
    CreditingLimit: URIRef
    NavigationArea: URIRef
    InlandNavigation: URIRef
    SeaNavigation: URIRef
    inNavigationArea: URIRef
    maximumCreditedDays: URIRef
    periodDays: URIRef
    ServiceEntry: URIRef
    hasServiceEntry: URIRef
    servedFrom: URIRef
    servedTo: URIRef
    servedAs: URIRef
    servedOnWaters: URIRef
    validated: URIRef
    vesselName: URIRef
    programmeFrom: URIRef
    programmeTo: URIRef
    ExamResult: URIRef
    hasExamResult: URIRef
    examPassed: URIRef
    passedOn: URIRef
    CertificateIssue: URIRef
    hasCertificateIssue: URIRef
    issuedCertificate: URIRef
    issuedOn: URIRef
    medicalExaminationDate: URIRef
    # § 47 SchBV: deadlines, replacement pathways, authorisations, reductions of Fahrzeit
    ApplicationPeriodRequirement: URIRef
    lastDay: URIRef
    ReplacementPathway: URIRef
    Authorisation: URIRef
    authorisationFor: URIRef
    FahrzeitReduction: URIRef
    reducibleBy: URIRef
    reductionEvidence: URIRef
    maximumDays: URIRef
    InlandNavigationTraining: URIRef
    inlandTrainingDays: URIRef


def local(iri: object) -> str:
    """The short id of a crew: or kb: term (the token used in records, Datalog and JSON)."""
    s = str(iri)
    for base in (CREW_IRI, KB_IRI, PERSON_IRI):
        if s.startswith(base):
            return s[len(base):]
    return s
