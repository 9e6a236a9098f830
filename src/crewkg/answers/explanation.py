"""The derivation of one certificate for `crewkg explain`: as data (`derivation`: the tree `--format json` prints and
`crewkg.api.explain` returns) and as lines for people (`lines`, made from that tree; `text_of` renders them).

Written for a reader, not a maintainer of the kb:

- each provision's wording is quoted once per explanation, where it is first met (a wording that is part of a longer
  one of the same explanation, within that); a later mention cites it (a pathway says where the wording stands:
  above or below), and the tree names where it is quoted (`quoted_at`);
- the kb's editorial notes are said part by part in the catalogue's words, cut at the markers of the kb's convention
  (`crewkg.law.notes`): an interpretation after 'Auslegung:' / 'Reading:', a wording from outside the bundled texts
  in words a reader understands — never a marker; each note once;
- a count that adds up several counts (Fahrzeit in any role) is said as its parts, which add up to it (the kind's
  `facts`, given the days a log credits in each role)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from crewkg.answers.lines import Line
from crewkg.answers.render import _no_regulation, console, role_names
from crewkg.law.notes import refer, segments
from crewkg.law.statute import Law, Notes, notes_in
from crewkg.messages.catalogue import catalogue
from crewkg.messages.wording import T, value
from crewkg.records.dated import credited_in_roles
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind, missing_sentence


@dataclass
class _Said:
    """What an explanation says and has said: where each provision's wording stands (`quotes`: provision -> the
    provision whose quotation holds it and the id of the pathway or requirement where that is quoted), the quotations
    given and the notes given; and, asked once, the days the record's log credits in each role."""

    law: Law
    person: Person
    lang: str
    quotes: dict[str, tuple[str, str]] = field(default_factory=dict)
    quoted: set[str] = field(default_factory=set)
    notes: set[str] = field(default_factory=set)
    in_roles: dict[str, int] | None = None


def derivation(law: Law, p: Person, answer: dict[str, Any], cert_id: str, lang: str) -> dict[str, Any]:
    """The derivation of one certificate as data: the person, the certificate, the evaluation date, the verdict and
    per pathway its requirements (recursively their parts or alternatives), each with its provision, the wording
    (quoted once: `wording`, else `quoted_at`), the facts it was decided on, needed/have/unit, met, what is missing,
    and the kb's notes as parts ({"kind", "topic", "text", "lang"})."""
    c = next((c for c in answer["certificates"] if c["id"] == cert_id), None)
    base = {"person": p.id, "as_of": answer["as_of"], "regulation": answer.get("regulation"), "lang": lang}
    if c is None:
        t = catalogue(lang)
        why = _no_regulation(law, answer, lang) if not answer.get("covered", True) else t["cli.not_in_force"]
        return base | {"certificate": {"id": cert_id, "label": None, "provision": None}, "verdict": "not_covered",
                       "covered": False, "why": why, "notes": [], "pathways": [], "role_names": None}
    said = _Said(law, p, lang)
    said.quotes = _quotes(law, c, lang)
    verdict = "eligible" if c["eligible"] else ("not_eligible" if c["covered"] else "not_covered")
    cert = law.certificates.get(cert_id)
    tree = base | {"certificate": {"id": cert_id, "label": c["label"], "provision": c["provision"]}, "verdict": verdict,
                   "covered": c["covered"], "eligible_since": c.get("eligible_since"),
                   "why": None if c["covered"] else catalogue(lang)["not_in_sources"].format(provision=c["provision"])}
    # what the kb says of the certificate itself (its ordinary conditions not in the sources)
    tree["notes"] = _notes(cert.notes if cert else {}, _gazette(law, cert.regulation if cert else None), said)
    tree["pathways"] = [_pathway(w, said) for w in c["pathways"]]
    tree["role_names"] = role_names(law, lang) or None
    return tree


def _pathway(w: dict[str, Any], said: _Said) -> dict[str, Any]:
    law = said.law
    provision = law.pathways[w["id"]].provision
    node = {"id": w["id"], "label": w["label"], "provision": w["provision"], "satisfied": w["satisfied"]}
    node |= _wording(provision, w["id"], said)
    node["requirements"] = [_requirement(r, said) for r in w["requirements"]]
    node["notes"] = _notes(law.provisions[provision].notes, _gazette(law, law.provisions[provision].regulation), said)
    return node


def _requirement(req: dict[str, Any], said: _Said) -> dict[str, Any]:
    law, lang = said.law, said.lang
    k = kind(req["kind"])
    r = law.requirements[req["id"]]
    node = {"id": req["id"], "kind": req["kind"], "text": req["text"], "provision": req["provision"], "met": req["met"]}
    node |= _wording(r.provision, req["id"], said)
    node |= {"needed": req.get("needed"), "have": req.get("have"), "unit": req.get("unit")}
    if k.parts is not None:
        node["combine"] = k.parts
        node[k.parts] = [_requirement(child, said) for child in req.get(k.parts) or []]
    else:
        node["facts"] = _facts(req, said).split("\n")  # a line each: the entries, then a crediting limit
        node["needed_text"] = _needed(req, said)
    node["missing"] = None if req["met"] else missing_sentence(law, req, lang)
    node["notes"] = _notes(r.notes, _gazette(law, law.provisions[r.provision].regulation), said)
    return node


def _quotes(law: Law, c: dict[str, Any], lang: str) -> dict[str, tuple[str, str]]:
    """Where each provision of a certificate's explanation is quoted: a provision whose wording is part of another's
    there (a litera of its Ziffer, the last sentence of its paragraph) within the longer quotation, every provision
    where its quotation is first met (provision -> (the provision quoted, the id of the pathway or requirement))."""
    met: dict[str, str] = {}  # provision -> the first pathway or requirement citing it, in the order they are said

    def visit(req: dict[str, Any]) -> None:
        met.setdefault(law.requirements[req["id"]].provision, req["id"])
        for child in req.get(kind(req["kind"]).parts or "") or []:
            visit(child)

    for w in c["pathways"]:
        met.setdefault(law.pathways[w["id"]].provision, w["id"])
        for req in w["requirements"]:
            visit(req)
    core = {p: _core(_quotable(law, p, lang)[0]) for p in met}
    order = list(met)
    out = {}
    for p in met:
        if core[p]:  # the longest wording holding this one (the first met of equals): its quotation holds it
            holder = max((q for q in order if core[p] in core[q]), key=lambda q: (len(core[q]), -order.index(q)))
            out[p] = (holder, met[holder])
    return out


def _quotable(law: Law, provision: str, lang: str) -> tuple[str, str]:
    """The wording an answer quotes of a provision and its language: the official German text, the kb's English
    paraphrase of a provision the bundled texts lack, or in German output its German paraphrase."""
    p = law.provisions[provision]
    if p.paraphrased and lang == "de" and p.paraphrase:
        return p.paraphrase, "de"
    return p.wording, p.wording_lang


def _wording(provision: str, where: str, said: _Said) -> dict[str, Any]:
    """The provision's wording where it is quoted (`quoted_at` None), else where it is — above or below, and also
    where it is part of a longer wording (`quoted_with`: that provision's citation). `official` False for a
    paraphrase."""
    none = {"wording": None, "wording_lang": None, "official": None, "quoted_at": None, "quoted_with": None}
    if provision not in said.quotes:  # a provision the kb gives no wording of: nothing to quote
        return none
    holder, at = said.quotes[provision]
    if holder in said.quoted or holder != provision or at != where:
        return none | {"quoted_at": at, "quoted_with": said.law.citation(holder)}
    said.quoted.add(holder)
    text, lang = _quotable(said.law, provision, said.lang)
    return none | {"wording": text, "wording_lang": lang, "official": not said.law.provisions[provision].paraphrased}


def wording(law: Law, provision: str, lang: str) -> str:
    """A provision's wording as an explanation quotes it, said for what it is (the official text or a paraphrase)."""
    said = _Said(law, Person(id=""), lang, quotes={provision: (provision, provision)})
    return _quotation(_wording(provision, provision, said), lang)


def _core(text: str) -> str:
    """A wording without the marks around a quoted part ('… ersetzt werden.'), for finding it in a longer one."""
    return " ".join(text.split()).strip("…,.;: ")


def _facts(req: dict[str, Any], said: _Said) -> str:
    """The record entries the requirement was decided on (said by its kind): a term of the ontology the answer names
    by its id (the sea capacity) is said by its label, and a count in any role is given the days the log credits in
    each role (records.dated.credited_in_roles), so that its parts add up."""
    law, p = said.law, said.person
    if req.get("capacity"):
        req = req | {"capacity": law.label(req["capacity"], said.lang)}
    if p.logged("inland"):
        if said.in_roles is None:
            said.in_roles = credited_in_roles(p, law)
        req = req | {"credited_in_roles": said.in_roles}
    return kind(req["kind"]).facts(req, p, said.lang)


def _needed(req: dict[str, Any], said: _Said) -> str:
    t = catalogue(said.lang)
    listed = isinstance(req["needed"], (list, tuple))  # certificates, exams, proofs: named, their labels say the unit
    unit = "" if listed else t.get(f"cli.unit.{req['unit']}", req["unit"])
    return t["cli.explain.needed"].format(needed=value(_named(said.law, req["needed"], said.lang), said.lang), unit=unit,
                                          have=value(_named(said.law, req["have"], said.lang), said.lang)).replace(" ,", ",")


def _named(law: Law, x: Any, lang: str) -> Any:
    """A list of kb ids (certificates, exams, functions) as their labels; any other value as it is."""
    return [law.label(str(v), lang) for v in x] if isinstance(x, (list, tuple)) else x


def _gazette(law: Law, regulation: str | None) -> str:
    reg = law.regulations.get(regulation or "")
    return reg.gazette if reg is not None else ""


def _notes(notes: Notes, gazette: str, said: _Said) -> list[dict[str, Any]]:
    """The kb's editorial notes not given yet in this explanation, in the output language where the kb gives them in
    it (else the other's, `lang` saying which), each cut into its parts (law.notes): kind, topic and text, the kb's
    terms named as an answer names them and a wording from outside the bundled texts said in words."""
    t = catalogue(said.lang)
    own = said.lang if notes.get(said.lang) or not notes else next(iter(notes))
    out = []
    for note in notes_in(notes, said.lang):
        if note in said.notes:
            continue
        said.notes.add(note)
        for part in segments(note):
            text = refer(said.law, part.text, said.lang)
            if part.kind == "source":
                text = " ".join(x for x in (t["cli.explain.source"].format(gazette=gazette), text) if x)
            out.append({"kind": part.kind, "topic": part.topic, "text": text, "lang": own})
    return out


def lines(tree: dict[str, Any]) -> list[Line]:
    """The tree as the lines `crewkg explain` prints: the verdict, the certificate's notes, then per pathway its
    wording, its requirements (each with the facts, needed/have and what is missing) and its notes."""
    lang = tree["lang"]
    t = catalogue(lang)
    c = tree["certificate"]
    if c["label"] is None:
        return [Line(f"{c['id']}: {t['not_covered']} ({tree['why']})")]
    verdict = T[lang][tree["verdict"]]
    out = [Line(f"[bold]{tree['person']}[/bold]: {c['label']} ({c['provision']}) — {verdict} — {tree['as_of']}")]
    if tree["why"]:
        out.append(Line(tree["why"]))
    out += _note_lines(tree["notes"], lang, "")
    # the ids where a quotation stands so far, and the lines after a count's facts (its crediting limit), each once
    shown: set[str] = set()
    for w in tree["pathways"]:
        mark = "[green]✓[/green]" if w["satisfied"] else "[red]✗[/red]"
        out.append(Line(f"\n{mark} [bold]{w['label']}[/bold]"))
        out += _wording_lines(w, lang, "  ", shown, pathway=True)
        for req in w["requirements"]:
            _requirement_lines(req, lang, 1, out, shown)
        out += _note_lines(w["notes"], lang, "  ")
    if tree["role_names"]:
        out.append(Line(tree["role_names"], "dim"))
    return out


def _requirement_lines(req: dict[str, Any], lang: str, depth: int, out: list[Line], shown: set[str]) -> None:
    pad = "    " * depth
    mark = "[green]✓[/green]" if req["met"] else "[red]✗[/red]"
    out.append(Line(f"{pad}{mark} {req['text']} — {req['provision']}"))
    out += _wording_lines(req, lang, pad + "    ", shown)
    if "combine" in req:
        for child in req[req["combine"]]:
            _requirement_lines(child, lang, depth + 1, out, shown)
    else:
        first, *more = (_escaped(x) for x in req["facts"])
        out.append(Line(f"{pad}    {first}; {req['needed_text']}"))
        out += [Line(f"{pad}    {x}") for x in more if x not in shown]
        shown.update(more)
        if req["missing"] is not None:
            out.append(Line(f"{pad}    → {req['missing']}"))
    out += _note_lines(req["notes"], lang, pad + "    ")


def _wording_lines(node: dict[str, Any], lang: str, pad: str, shown: set[str], pathway: bool = False) -> list[Line]:
    """The wording where it is quoted, said for what it is: the official German text, the kb's English paraphrase,
    or a German paraphrase (no official text); a pathway whose wording is quoted elsewhere says where (above or below,
    with which provision). `shown` gathers the ids where a quotation stands."""
    t = catalogue(lang)
    if node["wording"] is None:
        if pathway and node["quoted_at"] is not None:
            key = "cli.explain.quoted_above" if node["quoted_at"] in shown else "cli.explain.quoted_below"
            return [Line(pad + t[key].format(provision=node["quoted_with"]), "dim")]
        return []
    shown.add(node["id"])
    return [Line(pad + _quotation(node | {"wording": _escaped(node["wording"])}, lang), "italic")]


def _quotation(node: dict[str, Any], lang: str) -> str:
    """A quoted wording with the lead-in that says what it is: the official German text, the kb's English
    paraphrase, or a German paraphrase (no official text)."""
    key = "cli.explain.wording" if node["official"] else (
        "cli.explain.paraphrase" if node["wording_lang"] == "de" else "cli.explain.wording_en")
    return catalogue(lang)[key].format(wording=node["wording"])


def _note_lines(notes: list[dict[str, Any]], lang: str, pad: str) -> list[Line]:
    """Each part of a note on a line: its kind said by the catalogue ('Reading', 'Auslegung' …, with its topic), then
    its text — quoted where the kb gives the note in the other language only."""
    t = catalogue(lang)
    out = []
    for n in notes:
        lead = t[f"cli.explain.kind.{n['kind']}"]
        if n["topic"]:
            lead = t["cli.explain.topic"].format(kind=lead, topic=_escaped(n["topic"]))
        key = "cli.explain.note" if n["lang"] == lang else "cli.explain.note_other"
        out.append(Line(pad + t[key].format(kind=lead, note=_escaped(n["text"])), "dim"))
    return out


def _escaped(text: str) -> str:
    """Text of the kb or the record inside a line of rich markup: printed as written."""
    return escape(text)


def explanation(law: Law, p: Person, answer: dict[str, Any], cert_id: str, lang: str) -> list[Line]:
    """The derivation of one certificate for `crewkg explain`, line by line."""
    return lines(derivation(law, p, answer, cert_id, lang))


def text_of(lines: list[Line], terminal: bool = False) -> str:
    """The lines as the terminal shows them (wrapped at the output's width; colours only for a terminal), rendered on
    a console of their own, so callers on several threads never share one."""
    buf = io.StringIO()
    c = Console(file=buf, width=console.width, highlight=False, soft_wrap=False, emoji=False, force_terminal=terminal)
    for line in lines:
        c.print(line.text, style=line.style)
    return buf.getvalue()
