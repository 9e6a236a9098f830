"""The Begründung of a draft, from what the answers already hold: the record's entries as submitted evidence
(`inventory`: each with the record key it comes from and its PROV IRI, said 'laut vorgelegtem …'), the findings of a
pathway (`findings`: per requirement the provision, its wording as the kb gives it, the facts, the result and what is
short, and the evidence it rests on), the days credited and not credited (`days`), every reading applied with the
other one (`readings`) and what crewkg did not check (`not_checked`).

Nothing here reads the law a second time: the facts, the wording and the notes are the explanation tree's
(`answers.explanation.derivation`), the figures the check answer's, which record entries a requirement rests on the
requirement kind's (`based_on`, `items`, its role), as for the RDF export."""

from __future__ import annotations

import re
from typing import Any

from crewkg.answers import identifiers as ids
from crewkg.answers.explanation import wording
from crewkg.law.statute import Law
from crewkg.messages.catalogue import catalogue, say
from crewkg.messages.wording import amount, value
from crewkg.records.persons import SEA_KEYS, Person, person_to_mapping
from crewkg.rules.kinds import KindRole, kind, missing_sentence
from crewkg.rules.validity import DOCUMENT_FIELDS

#: the record's own keys of documents (medical fitness, radio certificate …) -> the ontology's document
_DOCUMENTS = {name: doc for doc, name in DOCUMENT_FIELDS.items()}


# ------------------------------------------------------------------------------------------------------------
# The submitted evidence


def inventory(law: Law, p: Person, lang: str) -> list[dict[str, Any]]:
    """Every entry of the record as submitted evidence, in the record's order: `entry` (the record key it comes from,
    'service[2]', 'sailing_days.Decksmann'), `text` ('laut vorgelegtem …'), `prov` (its IRI in the export) and `keys`
    (what a requirement can rest on: 'sailing:Matrose', 'exam:Anlage8', 'document:MedicalFitness', 'birth' …)."""
    record = person_to_mapping(p)
    out: list[dict[str, Any]] = []
    if p.birth_date is not None:
        out.append(_item("birth_date", "birth", lang, {"birth"}, p.id, date=p.birth_date.isoformat()))
    out += _documents(law, p, record, lang)
    out += _counts(law, p, record, lang)
    out += _programmes(law, p, lang)
    out += _service(law, p, lang)
    out += _held(law, p, record, lang)
    return out


def _item(entry: str, key: str, lang: str, keys: set[str], pid: str, prov: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"entry": entry, "text": say(lang, f"draft.evidence.{key}", **fields), "prov": prov or ids.person(pid),
            "keys": sorted(keys)}


def _documents(law: Law, p: Person, record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    out = []
    if p.medical_fitness:
        details = [say(lang, f"draft.evidence.medical_{k}", date=v) for k, v in
                   (record.get("medical_fitness") or {}).items()] if isinstance(record.get("medical_fitness"), dict) else []
        out.append(_item("medical_fitness", "document", lang, {"document:MedicalFitness"}, p.id,
                         document=law.label("MedicalFitness", lang), details="".join(details)))
    for key in ("radio_certificate", "basic_safety_training"):
        if record.get(key):
            doc = _DOCUMENTS[key]
            out.append(_item(key, "document", lang, {f"document:{doc}"}, p.id, document=law.label(doc, lang), details=""))
    if p.apprenticeship_contract or p.apprenticeship_year:
        year = say(lang, "draft.evidence.apprenticeship_year", year=p.apprenticeship_year) if p.apprenticeship_year else ""
        out.append(_item("apprenticeship", "document", lang, {"document:ApprenticeshipContract"}, p.id,
                         document=law.label("ApprenticeshipContract", lang), details=year))
    return out


def _counts(law: Law, p: Person, record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """Totals the record gives itself (not those a service log's days give: the log's entries are the evidence)."""
    out = []
    for role, days in (record.get("sailing_days") or {}).items():
        out.append(_item(f"sailing_days.{role}", "sailing_total", lang, {f"sailing:{role}"}, p.id,
                         prov=ids.sailing_record(p.id, role), days=amount(days, "days", lang),
                         role=law.short_label(role, lang)))
    for key, days in (record.get("sea_days") or {}).items():
        cap = SEA_KEYS[key]
        out.append(_item(f"sea_days.{key}", "sea_total", lang, {f"sea:{cap}"}, p.id, prov=ids.sea_record(p.id, cap),
                         days=amount(days, "days", lang), capacity=law.label(cap, lang)))
    for key in ("professional_experience_years", "vocational_training_years", "inland_training_days"):
        if record.get(key):
            unit = "days" if key.endswith("days") else "years"
            out.append(_item(key, key, lang, {f"count:{key}"}, p.id, amount=amount(record[key], unit, lang)))
    return out


def _programmes(law: Law, p: Person, lang: str) -> list[dict[str, Any]]:
    out = []
    number = {i: n for n, i in enumerate(ids.programme_order(p), start=1)}
    for i, g in enumerate(p.programmes):
        dates = say(lang, "draft.evidence.programme_dates", start=g.start.isoformat(), end=g.end.isoformat()) \
            if g.start is not None and g.end is not None else ""
        out.append(_item(f"programmes[{i}]", "programme", lang, {f"programme:{g.role}"}, p.id,
                         prov=ids.programme_record(p.id, number[i]),
                         role=law.short_label(g.role, lang), months=amount(g.months, "months", lang), dates=dates,
                         within=amount(g.sailing_days, "days", lang), after=amount(g.sailing_days_after, "days", lang)))
    return out


def _service(law: Law, p: Person, lang: str) -> list[dict[str, Any]]:
    """The service log's entries (the Schifferdienstbuch), each with the number its IRI bears."""
    out = []
    number = {i: n for n, i in enumerate(ids.entry_order(p), start=1)}
    for i, e in enumerate(p.service or []):
        days = (e.end - e.start).days + 1
        if e.waters == "inland":
            what = say(lang, "draft.evidence.service_inland", role=law.short_label(e.role or "", lang))
            keys = {f"sailing:{e.role}"}
        else:
            what = say(lang, "draft.evidence.service_sea", capacity=law.label(e.capacity or "", lang))
            keys = {f"sea:{e.capacity}"}
        vessel = say(lang, "draft.evidence.vessel", vessel=e.vessel) if e.vessel else ""
        status = say(lang, "draft.evidence.validated" if e.validated else "draft.evidence.not_validated")
        out.append(_item(f"service[{i}]", "service", lang, keys, p.id, prov=ids.service_entry(p.id, number[i]),
                         n=i + 1, start=e.start.isoformat(), end=e.end.isoformat(), days=amount(days, "days", lang),
                         what=what, vessel=vessel, status=status))
    return out


def _held(law: Law, p: Person, record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """Exams and dated proofs passed, certificates and functions held, each with its date where the record gives it."""
    out = []
    for key, dates, prefix in (("exams", p.exam_passed, "exam"), ("certificates", p.certificate_issued, "certificate"),
                               ("functions", {}, "function")):
        for i, x in enumerate(getattr(p, key)):
            on = say(lang, f"draft.evidence.{prefix}_date", date=dates[x].isoformat()) if x in dates else ""
            out.append(_item(f"{key}[{i}]", prefix, lang, {f"item:{x}"}, p.id, label=law.label(x, lang), date=on))
    return out


# ------------------------------------------------------------------------------------------------------------
# The findings of a pathway


def findings(law: Law, p: Person, reqs: list[dict[str, Any]], nodes: list[dict[str, Any]], evidence: list[dict[str, Any]],
             lang: str) -> list[dict[str, Any]]:
    """Per requirement (the answer's entries and the tree's nodes of one pathway, in the same order): its id and text,
    provision, needed/have/unit, met, the evidence it rests on (entries of `inventory`), the facts as the tree says
    them, what is short, the days credited and not, and its PROV IRI; a group with its parts in turn."""
    return [_finding(law, p, r, n, evidence, lang) for r, n in zip(reqs, nodes, strict=True)]


def _finding(law: Law, p: Person, r: dict[str, Any], node: dict[str, Any], evidence: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    k = kind(r["kind"])
    out: dict[str, Any] = {"requirement": r["id"], "text": r["text"], "provision": r["provision"], "kind": r["kind"],
                           "needed": r.get("needed"), "have": r.get("have"), "unit": r.get("unit"), "met": r["met"],
                           "wording": wording(law, law.requirements[r["id"]].provision, lang),
                           "shortfall": None if r["met"] else missing_sentence(law, r, lang),
                           "prov": ids.requirement(p.id, r["id"])}
    if k.parts is not None:
        out["combine"] = k.parts
        out["parts"] = findings(law, p, r.get(k.parts) or [], node.get(k.parts) or [], evidence, lang)
        out["evidence"] = []
        out["facts"] = []
        out["needed_text"] = _group_figures(r, lang)
        return out
    out["facts"] = node.get("facts") or []
    out["needed_text"] = node.get("needed_text")
    rests = _rests_on(law, r, evidence)
    out["evidence"] = [{"entry": e["entry"], "text": e["text"], "prov": e["prov"]} for e in rests]
    if k.unit == "days":
        out["days"] = {x: r[x] for x in ("recorded", "not_validated", "capped") if x in r} | {"credited": r.get("have")}
    return out


def _group_figures(r: dict[str, Any], lang: str) -> str | None:
    """A group's figures where it shows those of a part (the deciding alternative of an AnyOf): needed and have."""
    if r.get("unit") not in ("days", "years", "months"):
        return None
    return say(lang, "draft.finding.figures", needed=amount(r["needed"], r["unit"], lang),
               have=amount(r.get("have") or 0, r["unit"], lang))


def _rests_on(law: Law, r: dict[str, Any], evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of the record a requirement rests on, asked of its kind as the export asks it: the record nodes it
    is derived from (`based_on`: days in a role, at sea, in a programme), the items it names (`items`: exams,
    certificates, documents, functions), the birth date for an age."""
    k = kind(r["kind"])
    keys: set[str] = set()
    if k.role is KindRole.AGE:
        keys.add("birth")
    if r.get("document"):
        keys.add(f"document:{r['document']}")
    if k.items is not None:
        wanted, held = k.items(r)
        keys |= {f"item:{x}" for x in [*wanted, *held]}
    nodes = {key: [] for e in evidence for key in e["keys"]}
    for cap in {key.split(":", 1)[1] for key in nodes if key.startswith("sea:")}:
        nodes.setdefault(f"sea-credited:{cap}", [])
    for key in k.based_on(law, law.requirements[r["id"]], nodes):
        if key.startswith("sea-credited:"):
            keys |= {f"sea:{c}" for c in law.counted_capacities(key.split(":", 1)[1])}
        else:
            keys.add(key)
    return [e for e in evidence if keys & set(e["keys"])]


def flat(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The findings and their parts, depth first."""
    out = []
    for f in found:
        out.append(f)
        out += flat(f.get("parts") or [])
    return out


# ------------------------------------------------------------------------------------------------------------
# Days, readings, what is not checked


def days(found: list[dict[str, Any]], lang: str) -> list[str]:
    """Per day count the draft rests on (met, or unmet where no group above it is met: an alternative not taken is
    left out): the days credited against those needed, and those not credited and why (not validated, over the
    crediting limit — as the tree's facts say it), once per provision and count."""
    out: list[str] = []
    for f in _counted(found):
        d = f["days"]
        why = []
        if d.get("recorded") is not None:
            why.append(say(lang, "draft.days.recorded", days=amount(d["recorded"], "days", lang)))
        if d.get("not_validated"):
            why.append(say(lang, "draft.days.not_validated", days=amount(d["not_validated"], "days", lang)))
        why += f["facts"][1:]  # the crediting limit and what it left out, as the tree says it
        if d.get("recorded") is None:
            why.append(say(lang, "draft.days.totals" if d.get("credited") else "draft.days.no_days"))
        line = say(lang, "draft.days.credited", provision=f["provision"], text=f["text"],
                   credited=amount(d.get("credited") or 0, "days", lang), needed=amount(f["needed"], "days", lang))
        text = " ".join([line, *(w.rstrip(".") + "." for w in why)])
        if text not in out:
            out.append(text)
    return out


def _counted(found: list[dict[str, Any]], above_met: bool = False) -> list[dict[str, Any]]:
    """The day counts among the findings, depth first, without the unmet ones below a met group."""
    out = []
    for f in found:
        if "days" in f and (f["met"] or not above_met):
            out.append(f)
        out += _counted(f.get("parts") or [], above_met or (f["met"] and "parts" in f))
    return out


def readings(tree_nodes: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Every reading the kb applies in these nodes of the explanation tree (notes of kind 'reading' and 'literal'),
    each with the other reading: the kb's own sentence on it where the note states one, else the catalogue's sentence
    that the reading applied is one reading and not the only law, for the authority to weigh."""
    out = []
    for node in tree_nodes:
        n = 0
        for note in node.get("notes") or []:
            if note["kind"] not in ("reading", "literal"):
                continue
            n += 1
            applied, other = _split_other(note["text"])
            fallback = "draft.reading.other_literal" if note["kind"] == "literal" else "draft.reading.other_unstated"
            out.append({"id": f"{node.get('id') or node.get('certificate', {}).get('id')}#reading-{n}",
                        "provision": node.get("provision"), "kind": note["kind"], "applied": applied,
                        "other": other or say(lang, fallback), "other_stated": bool(other), "lang": note["lang"]})
    return out


#: a sentence of a note that states the other reading (the kb's convention: 'the other reading …', 'andere Lesart …')
_OTHER = re.compile(r"\b(?:other reading|andere[nr]? Lesart)\b", re.IGNORECASE)


def _split_other(text: str) -> tuple[str, str | None]:
    """A note's sentences that state the other reading, apart from the rest (the reading applied)."""
    sentences = re.split(r"(?<=[.;])\s+(?=[A-ZÄÖÜ'(])", text.strip())
    other = [s for s in sentences if _OTHER.search(s)]
    applied = [s for s in sentences if not _OTHER.search(s)]
    return (" ".join(applied) or text), (" ".join(other) or None)


def tree_nodes(tree: dict[str, Any], pathway: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The nodes of the tree a draft rests on: the certificate itself and, where one is chosen, the pathway and its
    requirements (their parts in turn)."""
    out: list[dict[str, Any]] = [tree]
    if pathway is None:
        return out

    def walk(node: dict[str, Any]) -> None:
        out.append(node)
        for child in node.get(node.get("combine") or "") or []:
            walk(child)

    out.append(pathway)
    for req in pathway["requirements"]:
        walk(req)
    return out


#: what crewkg leaves to the authority in every draft (keys of draft.not_checked.*)
NOT_CHECKED = ("identity", "authenticity", "validation", "application", "competence", "special", "costs")


def not_checked(nodes: list[dict[str, Any]], lang: str) -> list[str]:
    """What crewkg did not check: the catalogue's list for every draft, then the kb's notes of what the sources lack
    or crewkg does not check or cover, on the certificate and the nodes the draft rests on."""
    out = [say(lang, f"draft.not_checked.{k}") for k in NOT_CHECKED]
    t = catalogue(lang)
    for node in nodes:
        for note in node.get("notes") or []:
            if note["kind"] in ("gap", "unchecked", "uncovered"):
                where = node.get("provision") or value(node.get("certificate", {}).get("provision"), lang)
                text = say(lang, "draft.not_checked.kb", provision=where, kind=t[f"cli.explain.kind.{note['kind']}"],
                           text=note["text"])
                if text not in out:
                    out.append(text)
    return out
