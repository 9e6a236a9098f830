"""The text of a draft, in sections: what the JSON carries for a case-file system (each section with the PROV IRIs of
the export it rests on) and what the HTML and PDF render as they are (`pages`), so the three never say different
things. Every sentence is the catalogue's (`draft.*`); the values are the draft's data (`draft.build`).

A section: `{"id", "title", "level", "blocks": [...], "prov": [IRI, …]}`; a block: `{"type": "p", "text"}`,
`{"type": "list", "items": [...]}`, `{"type": "quote", "text"}` (the kb's wording of a provision, with its lead-in),
`{"type": "given", "text"}` (the authority's own text, as given), `{"type": "empty", "text"}` (a place left empty),
`{"type": "finding", "level", "title", "lines": [...]}` and `{"type": "reading", "applied", "other"}`."""

from __future__ import annotations

from typing import Any

from crewkg.documents.reasons import flat
from crewkg.messages.catalogue import say


def sections(doc: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The draft's sections in the order of the letter: the authority's header, the subject, the body of the kind
    (Spruch, request to complete, or letter on the evidence), the reasons, the Rechtsmittelbelehrung, the approval."""
    body = {"decision": _spruch, "completion": _request, "hearing": _hearing}[doc["kind"]]
    out = [_authority(doc, lang, "header"), _subject(doc, lang), body(doc, lang)]
    out += _reasons(doc, lang)
    out.append(_remedy(doc, lang))
    out.append(_section("approval", say(lang, "draft.section.approval"), [_p(say(lang, "draft.approval"))]))
    return out


def _section(sid: str, title: str, blocks: list[dict[str, Any]], prov: list[str | None] | None = None,
             level: int = 1) -> dict[str, Any]:
    """A section; its PROV IRIs once each, in order (a finding the export writes no result for has none)."""
    return {"id": sid, "title": title, "level": level, "blocks": blocks, "prov": list(dict.fromkeys(x for x in prov or [] if x))}


def _p(text: str) -> dict[str, Any]:
    return {"type": "p", "text": text}


def _list(items: list[str]) -> dict[str, Any]:
    return {"type": "list", "items": items}


def _authority(doc: dict[str, Any], lang: str, key: str) -> dict[str, Any]:
    """The authority's own text (its header or Rechtsmittelbelehrung) as given, else the place says it is empty."""
    text = doc["authority_text"]["header" if key == "header" else "rechtsmittelbelehrung"]
    block = {"type": "given", "text": text} if text else {"type": "empty", "text": say(lang, f"draft.{key}.empty")}
    return _section(key, say(lang, f"draft.section.{key}"), [block])


def _subject(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    return _section("subject", say(lang, f"draft.title.{doc['kind']}"), [_p(say(
        lang, "draft.subject", person=doc["person"], certificate=doc["certificate_label"],
        provision=doc["certificate_provision"], as_of=doc["as_of"], regulation=doc["regulation"] or ""))],
        [doc["prov"]["person"]])


def _shortfalls(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    return _list([say(lang, "draft.missing.item", shortfall=m["shortfall"], needed=_figure(m, lang)) for m in doc["missing"]])


def _figure(m: dict[str, Any], lang: str) -> str:
    """'verlangt: 360 Tage, vorgelegt: 340 Tage' for an amount; nothing for a document or an item (the shortfall names it)."""
    from crewkg.messages.wording import amount

    if m["unit"] not in ("days", "years", "months") or not isinstance(m["needed"], (int, float)):
        return ""
    return say(lang, "draft.missing.figures", needed=amount(m["needed"], m["unit"], lang),
               have=amount(m["have"] or 0, m["unit"], lang))


def _spruch(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """The Spruch as a proposal: grant (with the provisions of the pathway met), refuse or incomplete (with each unmet
    requirement's provision and what is short); the validity a granted certificate would have, the medical schedule,
    and what is left to the authority."""
    blocks: list[dict[str, Any]] = []
    fields = {"certificate": doc["certificate_label"], "provision": doc["certificate_provision"],
              "pathway": doc["considered_pathway"]}
    blocks.append(_p(say(lang, f"draft.spruch.{doc['proposal']}", **fields)))
    prov = [doc["prov"]["eligibility"], doc["prov"]["pathway"]]
    if doc["proposal"] == "grant":
        blocks.append(_p(say(lang, "draft.spruch.provisions", provisions=", ".join(
            dict.fromkeys(f["provision"] for f in flat(doc["findings"]) if f["met"])))))
        also = [o["pathway"] for o in doc["other_pathways"] if o["satisfied"]]
        if also:
            blocks.append(_p(say(lang, "draft.spruch.also", pathways="; ".join(also))))
    else:
        blocks.append(_shortfalls(doc, lang))
        prov += [m["prov"] for m in doc["missing"]]
        if doc["proposal"] == "refuse":
            blocks.append(_p(say(lang, "draft.spruch.before_refusal")))
    blocks += _validity_blocks(doc, lang)
    blocks.append(_p(say(lang, "draft.spruch.left")))
    return _section("spruch", say(lang, "draft.section.spruch"), blocks, prov)


def _validity_blocks(doc: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    out = []
    v = doc["validity"]
    key = "draft.spruch.validity" if doc["proposal"] == "grant" else "draft.spruch.validity_if"
    if v is not None:
        out.append(_p(say(lang, key, provision=v["provision"], until=v["until"], issued=v["issued"])))
    else:
        out.append(_p(say(lang, "draft.spruch.validity_none")))
    m = doc["medical"]
    if m is not None:
        out.append(_p(say(lang, "draft.spruch.medical", provision=m["provision"],
                          steps="; ".join(s["text"] for s in m["steps"]))))
        if m["proof_until"]:
            out.append(_p(say(lang, "draft.spruch.medical_proof", until=m["proof_until"])))
    return out


def _request(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """The request to complete the application (§ 13 Abs. 3 AVG): what to submit, the period left to the authority."""
    fields = {"certificate": doc["certificate_label"], "provision": doc["certificate_provision"],
              "pathway": doc["considered_pathway"]}
    if not doc["missing"]:
        return _section("request", say(lang, "draft.section.request"), [_p(say(lang, "draft.completion.nothing", **fields))])
    items = [say(lang, "draft.completion.item." + ("submit" if m["submittable"] else "more"), shortfall=m["shortfall"],
                 needed=_figure(m, lang)) for m in doc["missing"]]
    blocks = [_p(say(lang, "draft.completion.intro", **fields)), _list(items), _p(say(lang, "draft.completion.consequence"))]
    if not all(m["submittable"] for m in doc["missing"]):
        blocks.append(_p(say(lang, "draft.completion.not_only_proofs")))
    return _section("request", say(lang, "draft.section.request"), blocks, [m["prov"] for m in doc["missing"]])


def _hearing(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """The letter on the result of the taking of evidence (§ 45 Abs. 3 AVG): what is missing, and the opportunity to
    comment and submit more within a period the authority sets."""
    fields = {"certificate": doc["certificate_label"], "provision": doc["certificate_provision"],
              "pathway": doc["considered_pathway"]}
    if not doc["missing"]:
        blocks = [_p(say(lang, "draft.hearing.nothing", **fields))]
    else:
        blocks = [_p(say(lang, "draft.hearing.intro", **fields)), _shortfalls(doc, lang)]
    blocks.append(_p(say(lang, "draft.hearing.comment")))
    return _section("hearing", say(lang, "draft.section.hearing"), blocks, [m["prov"] for m in doc["missing"]])


def _reasons(doc: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The Begründung: the submitted evidence, the days credited and not, the legal assessment per requirement, the
    other pathways, the readings applied and what crewkg did not check."""
    title = say(lang, "draft.section.reasons" if doc["kind"] == "decision" else "draft.section.basis")
    out = [_section("reasons", title, [_p(say(lang, "draft.reasons.intro"))], [doc["prov"]["evaluation"]])]
    out.append(_section("evidence", say(lang, "draft.section.evidence"), [_list([e["text"] for e in doc["evidence"]])],
                        [e["prov"] for e in doc["evidence"]], 2))
    days = doc["days"]
    out.append(_section("days", say(lang, "draft.section.days"),
                        [_list(days)] if days else [_p(say(lang, "draft.days.none"))],
                        [f["prov"] for f in flat(doc["findings"]) if "days" in f], 2))
    out.append(_assessment(doc, lang))
    others = [say(lang, "draft.other.satisfied", pathway=o["pathway"]) if o["satisfied"] else
              say(lang, "draft.other.missing", pathway=o["pathway"], missing="; ".join(o["missing"]))
              for o in doc["other_pathways"]]
    out.append(_section("other_pathways", say(lang, "draft.section.other_pathways"),
                        [_list(others)] if others else [_p(say(lang, "draft.other.none"))], [], 2))
    out.append(_section("readings", say(lang, "draft.section.readings"), _readings(doc, lang), [], 2))
    out.append(_section("not_checked", say(lang, "draft.section.not_checked"),
                        [_p(say(lang, "draft.not_checked.intro")), _list(doc["not_checked"])], [], 2))
    return out


def _assessment(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """Per requirement of the pathway discussed: its provision and text, the kb's wording (each quoted once), the
    evidence it rests on, the facts and figures, the result and what is short; a group's parts below it."""
    blocks = [_p(say(lang, "draft.assessment.intro", pathway=doc["considered_pathway"]))]
    shown: set[str] = set()

    def add(f: dict[str, Any], level: int) -> None:
        lines = []
        if f["wording"] and f["wording"] not in shown:
            shown.add(f["wording"])
            lines.append(say(lang, "draft.finding.wording", wording=f["wording"]))
        lines += [say(lang, "draft.finding.evidence", text=e["text"]) for e in f["evidence"]]
        lines += [say(lang, "draft.finding.fact", fact=x) for x in f["facts"][:1]]
        if f["needed_text"]:
            lines.append(f["needed_text"])
        if f["shortfall"]:
            lines.append(say(lang, "draft.finding.shortfall", shortfall=f["shortfall"]))
        result = say(lang, "draft.result.met" if f["met"] else "draft.result.not_met")
        blocks.append({"type": "finding", "level": level, "requirement": f["requirement"], "prov": f["prov"],
                       "title": say(lang, "draft.finding.title", provision=f["provision"], text=f["text"], result=result),
                       "lines": lines})
        for part in f.get("parts") or []:
            add(part, level + 1)

    for f in doc["findings"]:
        add(f, 1)
    return _section("assessment", say(lang, "draft.section.assessment"), blocks,
                    [doc["prov"]["pathway"], *(f["prov"] for f in flat(doc["findings"]))], 2)


def _readings(doc: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    if not doc["readings"]:
        return [_p(say(lang, "draft.reading.none"))]
    out = [_p(say(lang, "draft.reading.intro"))]
    for r in doc["readings"]:
        where = r["provision"] or doc["certificate_provision"]
        out.append({"type": "reading", "id": r["id"],
                    "applied": say(lang, "draft.reading.applied", provision=where, text=r["applied"]),
                    "other": say(lang, "draft.reading.other", text=r["other"])})
    return out


def _remedy(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """The Rechtsmittelbelehrung: the authority's own text in a decision (else the place says it is empty); a request
    to complete or a letter on the evidence is no decision, and the draft adds none."""
    if doc["kind"] == "decision":
        return _authority(doc, lang, "remedy")
    return _section("remedy", say(lang, "draft.section.remedy"), [_p(say(lang, "draft.remedy.not_here"))])
