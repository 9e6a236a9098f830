"""Person records as RDF: the same keys as YAML/JSON, in the ontology's terms.

Turtle records are read back through the same schema check as YAML/JSON, so all three formats give
the same Person and the same errors.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from crewkg.errors import InputError, Phrase, Reason
from crewkg.law.statute import Law
from crewkg.records.persons import SEA_KEYS, Person, person_from_mapping, person_to_mapping
from crewkg.records.reading import ill_typed_literals_unlogged, read_text


def person_graph(p: Person, subject=None):
    """The RDF form of one record (for SHACL validation and export), about `subject`: the register's
    `person/<id>` unless given (a roster's crew member, docs/identifiers.md)."""
    from rdflib import Graph

    from crewkg.law.namespaces import CREW, KB, PERSON

    g = Graph(bind_namespaces="core")  # rdflib's thirty namespaces were a tenth of a register's export of records
    g.bind("crew", CREW._NS)
    g.bind("kb", KB)
    s = PERSON[p.id] if subject is None else subject
    _facts_graph(g, s, p)
    _time_graph(g, s, p)
    _service_graph(g, s, p)
    _qualifications_graph(g, s, p)
    return g


def _facts_graph(g, s, p: Person) -> None:
    """The person, birth date, medical fitness, radio certificate, basic safety training and apprenticeship."""
    from rdflib import Literal
    from rdflib.namespace import RDF, XSD

    from crewkg.law.namespaces import CREW

    g.add((s, RDF.type, CREW.Person))
    g.add((s, CREW.personId, Literal(p.id)))
    if p.birth_date:
        g.add((s, CREW.birthDate, Literal(p.birth_date, datatype=XSD.date)))
    g.add((s, CREW.medicallyFit, Literal(p.medical_fitness)))
    if p.medical_valid_until:
        g.add((s, CREW.medicalFitnessValidUntil, Literal(p.medical_valid_until, datatype=XSD.date)))
    g.add((s, CREW.hasRadioCertificate, Literal(p.radio_certificate)))
    g.add((s, CREW.hasBasicSafetyTraining, Literal(p.basic_safety_training)))
    g.add((s, CREW.hasApprenticeshipContract, Literal(p.apprenticeship_contract)))
    if p.apprenticeship_year is not None:
        g.add((s, CREW.apprenticeshipYear, Literal(p.apprenticeship_year)))


def _record_node(g, s, link, cls):
    """A new blank node of class `cls` that the person `s` links to by `link`."""
    from rdflib import BNode
    from rdflib.namespace import RDF

    b = BNode()
    g.add((s, link, b))
    g.add((b, RDF.type, cls))
    return b


def _time_graph(g, s, p: Person) -> None:
    """The totals of time (sailing and sea days, years of experience and training, inland training days) and the
    programmes completed."""
    from rdflib import Literal
    from rdflib.namespace import XSD

    from crewkg.law.namespaces import CREW, KB

    for role, days in p.sailing_days.items():
        b = _record_node(g, s, CREW.hasSailingRecord, CREW.SailingRecord)
        g.add((b, CREW.inRole, KB[role]))
        g.add((b, CREW.days, Literal(days)))
    for cap, days in p.sea_days.items():
        b = _record_node(g, s, CREW.hasSeaRecord, CREW.SeaRecord)
        g.add((b, CREW.seaCapacity, getattr(CREW, cap)))
        g.add((b, CREW.days, Literal(days)))
    if p.professional_experience_years:
        g.add((s, CREW.professionalExperienceYears, Literal(Decimal(str(p.professional_experience_years)), datatype=XSD.decimal)))
    if p.vocational_training_years:
        g.add((s, CREW.vocationalTrainingYears, Literal(Decimal(str(p.vocational_training_years)), datatype=XSD.decimal)))
    if p.inland_training_days:
        g.add((s, CREW.inlandTrainingDays, Literal(p.inland_training_days)))
    for prog in p.programmes:
        b = _record_node(g, s, CREW.completedProgramme, CREW.CompletedProgramme)
        g.add((b, CREW.programmeFor, KB[prog.role]))
        g.add((b, CREW.months, Literal(prog.months)))
        g.add((b, CREW.daysWithin, Literal(prog.sailing_days)))
        g.add((b, CREW.daysAfter, Literal(prog.sailing_days_after)))
        if prog.start is not None and prog.end is not None:
            g.add((b, CREW.programmeFrom, Literal(prog.start, datatype=XSD.date)))
            g.add((b, CREW.programmeTo, Literal(prog.end, datatype=XSD.date)))


def _service_graph(g, s, p: Person) -> None:
    """The dated service log (crew:ServiceEntry)."""
    from rdflib import Literal
    from rdflib.namespace import XSD

    from crewkg.law.crediting import AREAS
    from crewkg.law.namespaces import CREW, KB

    for e in p.service or []:
        b = _record_node(g, s, CREW.hasServiceEntry, CREW.ServiceEntry)
        g.add((b, CREW.servedFrom, Literal(e.start, datatype=XSD.date)))
        g.add((b, CREW.servedTo, Literal(e.end, datatype=XSD.date)))
        g.add((b, CREW.servedOnWaters, CREW[AREAS[e.waters]]))
        if e.role:
            g.add((b, CREW.servedAs, KB[e.role]))
        if e.capacity:
            g.add((b, CREW.seaCapacity, getattr(CREW, e.capacity)))
        g.add((b, CREW.validated, Literal(e.validated)))
        if e.vessel:
            g.add((b, CREW.vesselName, Literal(e.vessel)))


def _qualifications_graph(g, s, p: Person) -> None:
    """The medical examination's date, the exams passed and certificates held (dated: a node with the date), the
    functions held."""
    from rdflib import Literal
    from rdflib.namespace import XSD

    from crewkg.law.namespaces import CREW, KB

    if p.medical_examined:
        g.add((s, CREW.medicalExaminationDate, Literal(p.medical_examined, datatype=XSD.date)))
    for e in p.exams:
        if e in p.exam_passed:
            b = _record_node(g, s, CREW.hasExamResult, CREW.ExamResult)
            g.add((b, CREW.examPassed, exam_term(e)))
            g.add((b, CREW.passedOn, Literal(p.exam_passed[e], datatype=XSD.date)))
            if e in p.exam_hours:
                g.add((b, CREW.instructionHours, Literal(Decimal(str(p.exam_hours[e])), datatype=XSD.decimal)))
        else:
            g.add((s, CREW.passedExam, exam_term(e)))
    for c in p.certificates:
        if c in p.certificate_issued:
            b = _record_node(g, s, CREW.hasCertificateIssue, CREW.CertificateIssue)
            g.add((b, CREW.issuedCertificate, KB[c]))
            g.add((b, CREW.issuedOn, Literal(p.certificate_issued[c], datatype=XSD.date)))
        else:
            g.add((s, CREW.holdsCertificate, KB[c]))
    for f in p.functions:
        g.add((s, CREW.holdsFunction, KB[f]))


def person_from_turtle(path: Path, law: Law, as_of: date) -> Person:
    """Read a Turtle record: SHACL-validate it, then map it onto the record keys and run the schema check."""
    from rdflib.namespace import RDF

    from crewkg.law.namespaces import CREW
    from crewkg.records.shacl import shacl_check

    g = _parsed(path)
    subjects = list(g.subjects(RDF.type, CREW.Person))
    if len(subjects) != 1:
        raise InputError(str(path), "rdf:type", "one_person", len(subjects))
    _known_predicates_only(g, str(path))
    shacl_check(g, str(path))
    return person_from_mapping(_record_keys(g, subjects[0], str(path)), law, as_of, str(path))


def person_from_graph(g, subject, law: Law, as_of: date, source: str) -> Person:
    """The record of `subject` in an RDF graph of records (a store's, where a register was exported to: its entries
    are IRIs there instead of blank nodes), checked as a record file is."""
    return person_from_mapping(_record_keys(g, subject, source), law, as_of, source)


def _parsed(path: Path):
    """The record's graph; an empty or malformed file refused with the line and rdflib's complaint."""
    from rdflib import Graph

    text = read_text(path)
    if not text.strip():
        raise InputError(str(path), "", "non_empty")
    g = Graph()
    try:
        with ill_typed_literals_unlogged():
            g.parse(data=text, format="turtle")
    except Exception as exc:  # rdflib raises several parser types; all mean malformed Turtle
        raise InputError(str(path), "", "turtle", reason=_syntax_reason(exc)) from None
    return g


#: sea capacities (crew:) as a record's `sea_days` keys
_SEA_KEYS = {cap: key for key, cap in SEA_KEYS.items()}


def _record_keys(g, s, source: str) -> dict:
    """The person `s` of the graph as the keys of a YAML/JSON record, for the one schema check."""
    from rdflib import Literal

    from crewkg.law.namespaces import CREW, local

    def val(p):
        v = g.value(s, p)
        return v.toPython() if isinstance(v, Literal) else v

    data: dict = {"id": str(val(CREW.personId) or local(s))}
    if val(CREW.birthDate) is not None:
        data["birth_date"] = val(CREW.birthDate)
    if val(CREW.medicalFitnessValidUntil) is not None or val(CREW.medicalExaminationDate) is not None:
        data["medical_fitness"] = {k: v for k, v in (("valid_until", val(CREW.medicalFitnessValidUntil)),
                                                     ("examined", val(CREW.medicalExaminationDate))) if v is not None}
    elif val(CREW.medicallyFit) is not None:
        data["medical_fitness"] = bool(val(CREW.medicallyFit))
    for key, prop in (("radio_certificate", CREW.hasRadioCertificate), ("basic_safety_training", CREW.hasBasicSafetyTraining)):
        if val(prop) is not None:
            data[key] = bool(val(prop))
    if val(CREW.hasApprenticeshipContract) is not None or val(CREW.apprenticeshipYear) is not None:
        data["apprenticeship"] = {"contract": bool(val(CREW.hasApprenticeshipContract))}
        if val(CREW.apprenticeshipYear) is not None:
            data["apprenticeship"]["year"] = int(val(CREW.apprenticeshipYear))
    data |= _day_totals(g, s, source)
    for key, prop in (("professional_experience_years", CREW.professionalExperienceYears),
                      ("vocational_training_years", CREW.vocationalTrainingYears)):
        if val(prop) is not None:
            data[key] = float(val(prop))
    if val(CREW.inlandTrainingDays) is not None:
        data["inland_training_days"] = val(CREW.inlandTrainingDays)
    entries = _service_entries(g, s)
    if entries or g.value(s, CREW.hasServiceEntry) is not None:
        data["service"] = entries
    progs = _programmes(g, s, logged=bool(entries))
    if progs:
        data["programmes"] = progs
    _qualification_keys(g, s, data)
    return data


def _day_totals(g, s, source: str) -> dict:
    """`sailing_days` and `sea_days`: one total per role or capacity, as a YAML record's keys are (a second one is
    refused, never silently chosen)."""
    from crewkg.law.namespaces import CREW, local

    data: dict = {}
    sailing = {}
    for b in g.objects(s, CREW.hasSailingRecord):
        role = local(g.value(b, CREW.inRole))
        if role in sailing:  # as a YAML record's duplicate key: one total per role, never a silent choice
            raise InputError(source, "crew:hasSailingRecord", "one_sailing_record", role=role)
        sailing[role] = int(g.value(b, CREW.days).toPython())
    if sailing:
        data["sailing_days"] = sailing
    sea = {}
    for b in g.objects(s, CREW.hasSeaRecord):
        cap = local(g.value(b, CREW.seaCapacity))
        if _SEA_KEYS.get(cap, cap) in sea:
            raise InputError(source, "crew:hasSeaRecord", "one_sea_record", capacity=cap)
        sea[_SEA_KEYS.get(cap, cap)] = int(g.value(b, CREW.days).toPython())
    if sea:
        data["sea_days"] = sea
    return data


def _service_entries(g, s) -> list[dict]:
    """The service log's entries as a record's `service`, in order of their dates."""
    from crewkg.law.namespaces import CREW, local

    entries = []
    for b in g.objects(s, CREW.hasServiceEntry):
        e = {"from": g.value(b, CREW.servedFrom).toPython(), "to": g.value(b, CREW.servedTo).toPython(),
             "waters": "sea" if g.value(b, CREW.servedOnWaters) == CREW.SeaNavigation else "inland"}
        if g.value(b, CREW.servedAs) is not None:
            e["role"] = local(g.value(b, CREW.servedAs))
        if g.value(b, CREW.seaCapacity) is not None:
            e["capacity"] = _SEA_KEYS.get(local(g.value(b, CREW.seaCapacity)), "")
        if g.value(b, CREW.validated) is not None:
            e["validated"] = bool(g.value(b, CREW.validated).toPython())
        if g.value(b, CREW.vesselName) is not None:
            e["vessel"] = str(g.value(b, CREW.vesselName))
        entries.append(e)
    return sorted(entries, key=lambda e: (str(e["from"]), str(e["to"]), str(e.get("role", e.get("capacity")))))


def _programmes(g, s, logged: bool) -> list[dict]:
    """The programmes completed as a record's `programmes`: dated, or of a number of months; their sailing days
    where no log gives them (`logged`) or the programme is undated."""
    from rdflib import Literal

    from crewkg.law.namespaces import CREW, local

    progs = []
    for b in g.objects(s, CREW.completedProgramme):
        prog = {"for": local(g.value(b, CREW.programmeFor))}
        if g.value(b, CREW.programmeFrom) is not None:
            prog |= {"from": g.value(b, CREW.programmeFrom).toPython(), "to": g.value(b, CREW.programmeTo).toPython()}
        else:
            prog["months"] = int(g.value(b, CREW.months).toPython())
        if not logged or "from" not in prog:
            prog |= {"sailing_days": int((g.value(b, CREW.daysWithin) or Literal(0)).toPython()),
                     "sailing_days_after": int((g.value(b, CREW.daysAfter) or Literal(0)).toPython())}
        progs.append(prog)
    return progs


def _qualification_keys(g, s, data: dict) -> None:
    """`exams`, `certificates` and `functions`: the undated ids, then the dated ones (with the instruction's hours
    where the record states them)."""
    from crewkg.law.namespaces import CREW, local

    for key, prop in (("exams", CREW.passedExam), ("certificates", CREW.holdsCertificate), ("functions", CREW.holdsFunction)):
        items = sorted(local(o) for o in g.objects(s, prop))
        if items:
            data[key] = items
    for key, link, item, on, name in (("exams", CREW.hasExamResult, CREW.examPassed, CREW.passedOn, "passed"),
                                      ("certificates", CREW.hasCertificateIssue, CREW.issuedCertificate, CREW.issuedOn, "issued")):
        dated = sorted(({"id": local(g.value(b, item)), name: g.value(b, on).toPython()} for b in g.objects(s, link)),
                       key=lambda d: d["id"])
        if key == "exams":  # the hours an instruction comprised (crew:instructionHours), where the record states them
            hours = {local(g.value(b, item)): g.value(b, CREW.instructionHours) for b in g.objects(s, link)}
            dated = [d | ({"hours": float(hours[d["id"]].toPython())} if hours.get(d["id"]) is not None else {}) for d in dated]
        if dated:
            data[key] = data.get(key, []) + dated


def exam_term(e: str):
    """An exam of the ontology (crew:Anlage8) or a proof the kb defines (kb:Unterweisung-Fahrgastbetreuer)."""
    from crewkg.law.namespaces import CREW, KB

    return getattr(CREW, e) if e in CREW else KB[e]


def _known_predicates_only(g, source: str) -> None:
    """Every predicate of a record must be one a crewkg person record uses: a misspelt or foreign predicate
    (`crew:holdsCertifcate`) would otherwise be silently ignored and change the answer."""
    import difflib

    from rdflib.namespace import RDF

    from crewkg.law.namespaces import CREW

    known = {RDF.type, *(getattr(CREW, n) for n in _PREDICATES)}
    for pred in sorted({p for p in g.predicates()} - known):
        name = pred.n3(g.namespace_manager)
        near = difflib.get_close_matches(str(pred), [str(k) for k in known], n=1, cutoff=0.8)
        hint = Phrase("error.near", name=g.namespace_manager.normalizeUri(near[0])) if near else ""
        raise InputError(source, name[:80], "predicate", near=hint)


#: the predicates of a person record (crew: terms), as `person_graph` writes them
_PREDICATES = ("personId", "birthDate", "medicallyFit", "medicalFitnessValidUntil", "hasRadioCertificate",
               "hasBasicSafetyTraining", "hasApprenticeshipContract", "apprenticeshipYear", "hasSailingRecord", "inRole",
               "days", "hasSeaRecord", "seaCapacity", "professionalExperienceYears", "vocationalTrainingYears", "inlandTrainingDays",
               "completedProgramme", "programmeFor", "months", "daysWithin", "daysAfter", "passedExam", "instructionHours",
               "holdsCertificate", "holdsFunction", "hasServiceEntry", "servedFrom", "servedTo", "servedAs",
               "servedOnWaters", "validated", "vesselName", "programmeFrom", "programmeTo", "hasExamResult", "examPassed",
               "passedOn", "hasCertificateIssue", "issuedCertificate", "issuedOn", "medicalExaminationDate")


__all__ = ["person_graph", "person_from_turtle", "person_to_mapping"]


def _syntax_reason(exc: Exception) -> Phrase | str:
    """rdflib's complaint ('at line 3 of <>:\nBad syntax (EOF found after object) at ^ in: …') as the line and the
    complaint (said in German where the catalogue has it: crewkg.errors.Reason), without the echoed source bytes. Its
    parser fails with an IndexError on a text that breaks off inside a statement ('<x> a <y>' without its '.')."""
    import re

    if isinstance(exc, IndexError):
        return Phrase("error.turtle_cut_off")
    text = str(exc)

    line = re.search(r"at line (\d+)", text)
    bad = re.search(r"Bad syntax \((.*)\) at \^", text)
    what = bad.group(1) if bad else (text.strip().splitlines() or [""])[0]
    if line:
        return Phrase("error.turtle_reason", line=int(line.group(1)), reason=Reason(what[:160]))
    return Reason(what[:200])
