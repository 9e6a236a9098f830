"""Document — the named document (radio certificate, medical fitness, safety training, Lehrvertrag) is held (on the
evaluation date: `rules.validity.documents`)."""

from __future__ import annotations

from datetime import timedelta

from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import period, value
from crewkg.rules.kinds.protocol import KindRole, NotAGroup, RequirementKind, nothing
from crewkg.rules.validity import DOCUMENT_FIELDS, documents


class Document(NotAGroup, RequirementKind):
    name = "Document"
    order = 80
    role = KindRole.DOCUMENT

    measured = False
    clauses = """
met(P, R) <= req_kind(R, 'Document') & req_document(R, D) & document(P, D)
"""
    predicates = {"req_document": 2, "document": 2}

    def kb_facts(self, r):
        return [("req_document", r.id, r.document)] if r.document else []

    def person_facts(self, p, law, as_of):
        return [("document", p.id, doc) for doc, held in documents(p, as_of, law).items() if held]

    abstracted = ()
    abstraction = None  # documents are compared with no minimum

    unit = "document"
    action = "obtain_document"

    def answer(self, law, r, p, d, as_of):
        """The medical proof also says until when it counts, or since when it is overdue and what the schedule asks."""
        out = {"needed": True, "have": self.have(r, p, d, as_of, law), "document": r.document}
        if r.document == "MedicalFitness":
            out |= _medical(law, p, as_of, out["have"])
        return out

    def have(self, r, p, d, as_of, law=None):
        return documents(p, as_of, law).get(r.document or "", False)

    lowered_minima = None  # no minimum

    messages = {}

    def missing(self, law, req, lang):
        from crewkg.rules.kinds import cited

        t = catalogue(lang)
        item = law.label(req["document"], lang)
        if req.get("renew_by") and req.get("overdue_since"):  # the schedule said to be paraphrased where it is
            return t["document_medical_not_renewed"].format(
                item=item, examined=req["examined"], since=req["overdue_since"], age=req["renewal_age"],
                birthday=req["birthday"], deadline=req["renew_by"],
                schedule=cited(req.get("renewal_schedule") or req["schedule"], lang))
        if req.get("from_age") is not None and req.get("overdue_since"):
            months = period(req["not_older_than_months"], lang)
            since = req["overdue_since"] if not req.get("overdue_under") else t["medical.since_under"].format(
                date=req["overdue_since"], provision=cited(req["overdue_under"], lang))
            return t["document_medical_overdue"].format(item=item, examined=req["examined"], since=since,
                                                        age=req["from_age"], period=months,
                                                        schedule=cited(req["schedule"], lang))
        if req.get("valid_until"):
            return t["document_expired"].format(item=item, until=req["valid_until"])
        if req.get("examined_later"):
            return t["document_examined_later"].format(item=item, examined=req["examined_later"])
        return t["document"].format(item=item)

    def facts(self, req, p, lang):
        t = catalogue(lang)
        until = t["cli.facts.valid_until"].format(until=req["valid_until"]) if req.get("valid_until") else ""
        # the record's field, as the other kinds' fact lines name theirs (sailing_days, exams, certificates)
        return t["kind.facts.document"].format(item=DOCUMENT_FIELDS.get(req["document"], req["document"]),
                                               value=value(req["have"], lang), until=until)

    def summary(self, law, r, lang):
        return catalogue(lang)["kind.summary.Document"].format(item=law.label(r.document or "", lang))

    #: the export names the needed and held items as terms of the ontology
    item_terms = "crew"
    based_on = nothing  # the record's field: the export names the person

    def items(self, req):
        """The needed and the held items, for the export."""
        return [req["document"]], [req["document"]] if req.get("have") else []

    #: met on the step's date, without time of its own (the planner)
    takes_time = False
    #: obtained on a step's date: a replacement lacking only it may be begun on the evaluation date
    obtained_on_the_day = True

    def project(self, ctx, state, it, prog, n):
        """Takes no time, but is listed as remaining (a medical certificate may also lapse before the step's date)."""
        n.at_step = not n.met

    held_meets = None  # no certificate meets it

    def lapsed(self, p, req, on):
        """A document valid at the start may lapse before the step's date (medical fitness)."""
        return not documents(p, on).get(req.get("document") or "", True)

    def assume(self, p, r, on):
        """Obtained (and valid) on the step's date, as the plan assumes."""
        if r.document in DOCUMENT_FIELDS:
            setattr(p, DOCUMENT_FIELDS[r.document], True)
        if r.document == "MedicalFitness":
            p.medical_valid_until = None
            p.medical_examined = on


def _medical(law, p, as_of, held: bool) -> dict:
    """The medical proof's fields of the answer: until when it counts, or since when it is overdue (and under which
    schedule), what the schedule asks, and when it was examined if after the date."""
    from crewkg.rules.validity import medical_last_day, overdue_start, renewal_fields, schedule_on, step_on

    out: dict = {}
    if held:
        end = medical_last_day(p, law, as_of)
        if end is not None:
            out["valid_until"] = end.isoformat()
    elif p.medical_fitness and (p.medical_examined is None or p.medical_examined <= as_of):
        ov = overdue_start(p, law, as_of)
        if ov is not None:
            out |= {"valid_until": (ov.since - timedelta(days=1)).isoformat(), "overdue_since": ov.since.isoformat()}
        schedule = schedule_on(law, as_of)
        step = step_on(schedule, p.birth_date, as_of)
        if step is not None and schedule is not None and p.medical_examined is not None and (
                p.medical_valid_until is None or p.medical_valid_until >= as_of):
            out |= {"examined": p.medical_examined.isoformat(), "from_age": step.from_age,
                    "not_older_than_months": step.months, "schedule": law.citation(schedule.provision)}
            if ov is not None and ov.schedule is not None and ov.schedule.id != schedule.id:
                out["overdue_under"] = law.citation(ov.schedule.provision)  # the spell began under that law
            out |= renewal_fields(law, p, step, schedule, ov, as_of)
    elif p.medical_fitness and p.medical_examined is not None and p.medical_examined > as_of:
        out["examined_later"] = p.medical_examined.isoformat()  # not yet examined on the date: said as such
    return out
