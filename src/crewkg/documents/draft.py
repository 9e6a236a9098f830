"""A draft an authority can work from (`crewkg draft`, issue 47), as data: the JSON of docs/clerk.md (the contract
"Decision draft"), with its text in sections the HTML and the PDF render as they are.

What a tool may draft and what it may not: it proposes (grant, refuse, incomplete) what the derivation supports, and
says what the record shows 'laut vorgelegtem …' — it never finds a fact ('festgestellt'), never decides ('wird
abgewiesen'), never presents the reading it applies as the only law (each reading comes with the other), and never
writes what is the authority's: its header and Rechtsmittelbelehrung (`authority`, inserted as given, else the place
says it is empty), costs, conditions and restriction codes, the weighing of evidence, the approval and the
Amtssignatur (§ 18 AVG, § 19 E-GovG). A banner that no option removes opens every draft and every page of it:
'ENTWURF – kein Bescheid', crewkg's version, the kb's, the evaluation date and a digest of the input record.

Three kinds: the decision itself, and before a refusal the drafts that carry less risk — a request to complete the
application (§ 13 Abs. 3 AVG) and a letter on the result of the taking of evidence listing what is missing (§ 45
Abs. 3 AVG).

The proposal: 'grant' where a pathway is satisfied (the first in statute order; the others said too); otherwise the
pathway that lacks the fewest requirements is the one the draft discusses, and it proposes 'incomplete' where all it
lacks is something the applicant submits rather than acquires (a document, an exam, a proof: a kind met on the day
it is obtained, `takes_time` False) or days already recorded that only await validation, and 'refuse' else."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.answers import identifiers as ids
from crewkg.documents import reasons
from crewkg.documents.authority import Authority
from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind
from crewkg.rules.validity import medical_last_day, own_ends, schedule_on
from crewkg.version import __version__

KINDS = ("decision", "completion", "hearing")
PROPOSALS = ("grant", "refuse", "incomplete")


def build(law: Law, p: Person, answer: dict[str, Any], tree: dict[str, Any], cert_id: str, day: date, draft_kind: str,
          lang: str, authority: Authority) -> dict[str, Any]:
    """The draft of `draft_kind` for the person's application for `cert_id` on `day`, from the check answer and the
    explanation tree of the certificate."""
    if draft_kind not in KINDS:
        raise InputError("--kind", "kind", "draft_kind", draft_kind, kinds=list(KINDS))
    c = next((x for x in answer["certificates"] if x["id"] == cert_id), None)
    if c is None or not c["covered"]:
        raise InputError("CERTIFICATE", "certificate", "draft_covered", cert_id, as_of=day.isoformat())
    at, pathway = _chosen(c)
    node = tree["pathways"][at]
    evidence = reasons.inventory(law, p, lang)
    found = reasons.findings(law, p, pathway["requirements"], node["requirements"], evidence, lang)
    if not pathway["satisfied"]:  # the export writes a pathway not satisfied with what it lacks only (service.derived)
        for f in found:
            if f["met"]:
                f["prov"] = None
    nodes = reasons.tree_nodes(tree, node)
    digest = ids.input_digest(law, p, day)
    doc: dict[str, Any] = {
        "draft": True, "kind": draft_kind, "lang": lang,
        "banner": say(lang, "draft.banner", version=__version__, kb_version=law.version, as_of=day.isoformat(),
                      digest=digest),
        "crewkg_version": __version__, "person": p.id, "certificate": cert_id,
        "certificate_label": c["label"], "certificate_provision": c["provision"], "as_of": day.isoformat(),
        "regulation": answer.get("regulation"), "kb_version": law.version, "input_digest": digest,
        "proposal": _proposal(pathway, found),
        "pathway": pathway["provision"] if pathway["satisfied"] else None,
        "considered_pathway": pathway["provision"],
        "validity": _validity(law, cert_id, day),
        "medical": _medical(law, p, cert_id, day, lang),
        "findings": found,
        "missing": [_missing(f) for f in found if not f["met"]],
        "other_pathways": _others(law, c, at, lang),
        "evidence": [{k: e[k] for k in ("entry", "text", "prov")} for e in evidence],
        "days": reasons.days(found, lang),
        "readings": reasons.readings(nodes, lang),
        "not_checked": reasons.not_checked(nodes, lang),
        "authority_text": {"header": authority.header, "rechtsmittelbelehrung": authority.rechtsmittelbelehrung},
        "prov": {"evaluation": ids.evaluation(p.id), "eligibility": ids.eligibility(p.id, cert_id),
                 "pathway": ids.pathway(p.id, pathway["id"]), "person": ids.person(p.id)},
    }
    from crewkg.documents.sections import sections

    doc["sections"] = sections(doc, lang)
    return doc


def _chosen(c: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The pathway a draft discusses, with its place in the answer: the first satisfied one, else the one that lacks
    the fewest requirements (the first of equals, in statute order)."""
    ways = list(enumerate(c["pathways"]))
    satisfied = [(i, w) for i, w in ways if w["satisfied"]]
    if satisfied:
        return satisfied[0]
    return min(ways, key=lambda iw: (len(iw[1]["missing"]), iw[0]))


def _proposal(pathway: dict[str, Any], found: list[dict[str, Any]]) -> str:
    """grant, incomplete or refuse (see the module's docstring)."""
    if pathway["satisfied"]:
        return "grant"
    return "incomplete" if all(_submittable(f) for f in found if not f["met"]) else "refuse"


def _submittable(f: dict[str, Any]) -> bool:
    """An unmet requirement the applicant meets by submitting something: a kind met on the day it is obtained that a
    person can do something about (not an exclusion or a closed period), days recorded that only await validation, or
    a group one of whose ways is such."""
    k = kind(f["kind"])
    if k.parts is not None:
        parts = [x for x in f["parts"] if not x["met"]]
        return any(_submittable(x) for x in parts) if k.parts == "alternatives" else all(_submittable(x) for x in parts)
    if not k.takes_time and k.action is not None:
        return True
    d = f.get("days") or {}
    short = (f["needed"] or 0) - (f["have"] or 0) if isinstance(f["needed"], (int, float)) else None
    return bool(short) and short > 0 and (d.get("not_validated") or 0) >= short


def _missing(f: dict[str, Any]) -> dict[str, Any]:
    return {"requirement": f["requirement"], "text": f["text"], "provision": f["provision"], "needed": f["needed"],
            "have": f["have"], "unit": f["unit"], "shortfall": f["shortfall"], "submittable": _submittable(f),
            "prov": f["prov"]}


def _validity(law: Law, cert_id: str, day: date) -> dict[str, Any] | None:
    """The validity a certificate issued on the evaluation date would have (§ 22 SchBV and any fixed end the kb gives
    it): its last day and the provision setting it; None where the kb gives none."""
    ends = own_ends(law, cert_id, day, known_on=day)
    if not ends:
        return None
    end = min(ends, key=lambda e: e.last_day)
    return {"until": end.last_day.isoformat(), "provision": law.citation(end.provision), "years": end.years,
            "issued": day.isoformat()}


def _medical(law: Law, p: Person, cert_id: str, day: date, lang: str) -> dict[str, Any] | None:
    """The schedule of medical examinations that applies to the certificate on the day (§ 22 Abs. 1 SchBV), its steps
    as the kb gives them, and how long the proof the record gives counts under it."""
    s = schedule_on(law, day)
    if s is None or cert_id not in s.certificates:
        return None
    from crewkg.messages.wording import period

    steps = [{"from_age": st.from_age, "months": st.months, "every_years": st.every_years,
              "text": say(lang, "draft.medical.step", age=st.from_age, period=period(st.months, lang))} for st in s.steps]
    last = medical_last_day(p, law, day)
    return {"provision": law.citation(s.provision), "steps": steps,
            "proof_until": last.isoformat() if last is not None else None}


def _others(law: Law, c: dict[str, Any], at: int, lang: str) -> list[dict[str, Any]]:
    """The certificate's other pathways: satisfied or what each lacks (the missing sentences of the answer)."""
    from crewkg.rules.kinds import missing_sentence

    return [{"pathway": w["label"], "provision": w["provision"], "satisfied": w["satisfied"],
             "missing": [missing_sentence(law, m, lang) for m in w["missing"]]}
            for i, w in enumerate(c["pathways"]) if i != at]
