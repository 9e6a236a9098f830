"""What a person reads first (`summary` of the check answer, ../docs/answers.md "Answer first"): the roles they can
fill, what is issuable now and since when, what they hold that no longer counts and why, and the next steps up —
each with its earliest date and the actions that get there, ranked.

Nothing here reads the law a second time. The roles, the issuable certificates and the lapses are the check
answer's; the next steps are the planner's routes (`careers.routes.plan`, which asks the Datalog program to
confirm every step), and an action is an unmet requirement of the route named by its kind (`RequirementKind.action`):
serve N more days, reach an age on a day, pass an exam, obtain a document. Two actions are no requirement of a
pathway: having the days of the service log that await validation validated (the plan is made on the record as it
would read once they are, `records.dated.validated`), and renewing the medical proof whose lapse stops a held
certificate from counting (the lapse's own provision).

Which certificates are next: those of the deck roles above the highest role the person fills, holds or can be
issued, of the regulation in force, that the sources cover; a certificate is left out when one of a higher role can
be obtained on the same day or earlier with no kind of action it does not ask itself (its holder fills the lower role
too), one whose route passes through another next step (it comes after that one), and one that cannot be planned
when another can."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.answers import relevance
from crewkg.answers.relevance import MEDICAL_LAPSE
from crewkg.law.statute import Law
from crewkg.messages.catalogue import say
from crewkg.records.persons import Person
from crewkg.rules.kinds import cited, kind, missing_sentence


def empty() -> dict[str, Any]:
    """The summary of an answer no regulation covers: nothing to fill, issue or plan."""
    return {"roles": [], "held": [], "issuable": [], "lapsed": [], "next_steps": []}


def summarise(law: Law, persons: list[Person], answers: list[dict[str, Any]], as_of: date, lang: str = "de",
              pace: Any = None) -> None:
    """Add `summary` to each answer (in place), one planner per person. The planners of the batch are made first and
    the steps of every candidate's routes confirmed together (`careers.planner.confirm`: one Datalog run a pathway
    for all of them), where each person planned alone asked about six runs of one record (the service's answers
    spent two thirds of their time there)."""
    from crewkg.careers.planning import Pace

    pace = pace or Pace.from_kb()
    prepared = _planners(law, persons, answers, as_of, lang, pace)
    for p, a, ready in zip(persons, answers, prepared, strict=True):
        a["summary"] = summary(law, p, a, as_of, lang, pace, ready)


def summary(law: Law, p: Person, answer: dict[str, Any], as_of: date, lang: str = "de", pace: Any = None,
            prepared: tuple | None = None) -> dict[str, Any]:
    """The summary of one check answer (see the module's docstring); `prepared`: its planner as `_planners` made
    and confirmed it, with the record and answer it plans from and the career graph."""
    if not answer.get("covered", True):
        return empty()
    from crewkg.rules.validity import held

    counting = set(held(p, as_of, law))
    lapsed = lapsed_of(answer)
    return {"roles": list(answer["roles"]),
            "held": [{"certificate": c, "counts": c in counting} for c in p.certificates if c in law.certificates],
            "issuable": [{"certificate": c["id"], "since": c.get("eligible_since"),
                          "via": [w["provision"] for w in c["pathways"] if w["satisfied"]]}
                         for c in answer["certificates"] if c.get("eligible")],
            "lapsed": lapsed,
            "next_steps": next_steps(law, p, answer, as_of, lang, pace, counting, prepared)}


def _planners(law: Law, persons: list[Person], answers: list[dict[str, Any]], as_of: date, lang: str,
              pace: Any) -> list[tuple | None]:
    """Per person with next steps to plan: (the record planned from, its answer, the career graph, its planner),
    every route to each candidate walked as `routes.plan` walks it, and all of them confirmed in one go."""
    from crewkg.careers.graph import Careers, person_routes
    from crewkg.careers.planner import confirm, make_planner
    from crewkg.rules.validity import held

    g = Careers(law)
    out: list[tuple | None] = []
    chosen = [bool(_candidates(law, p, a, as_of, set(held(p, as_of, law)))) if a.get("covered", True) else False
              for p, a in zip(persons, answers, strict=True)]
    planning = getattr(answers, "planning", None)  # evaluated in the check's own run (`answers.eligibility.Answers`)
    if planning is not None and (planning.as_of, planning.lang) == (as_of, lang) and len(planning.validated) == len(persons):
        def pick(xs: list) -> list:
            return [x for x, c in zip(xs, chosen, strict=True) if c]

        records = planned_from(law, pick(persons), pick(list(answers)), pick(planning.validated), pick(planning.runs),
                               planning.derived, as_of, lang)
    else:
        records = planning_records(law, [p for p, c in zip(persons, chosen, strict=True) if c],
                                   [a for a, c in zip(answers, chosen, strict=True) if c], as_of, lang)
    for p, answer, wanted in zip(persons, answers, chosen, strict=True):
        if not wanted:
            out.append(None)
            continue
        candidates = _candidates(law, p, answer, as_of, set(held(p, as_of, law)))
        q, base = records.pop(0)
        planner = make_planner(law, q, base, as_of, pace, lang)
        mine = [c for c in q.certificates if c in g]
        for cid in candidates:  # the routes `plan` walks (no route for a target held or not covered)
            if cid in q.certificates or cid not in g or not law.certificates[cid].pathways:
                continue
            for route in person_routes(g, cid, mine, base):
                planner.walk(route)
        out.append((q, base, g, planner))
    confirm([x[3] for x in out if x is not None])
    return out


def lapsed_of(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """What the person holds that does not count on the date, and why: the answer's lapses, and the qualifications
    of earlier law whose medical fitness the schedule in force cannot confirm."""
    out = [{"certificate": x["certificate"], "reason": x["reason"], "since": x["since"], "provision": x["provision"],
            "text": x["text"]} for x in answer.get("lapsed", [])]
    out += [{"certificate": x["certificate"], "reason": "medical_not_checked", "since": None, "provision": x["provision"],
             "text": x["text"]} for x in answer.get("medical_not_checked", [])]
    return out


def next_steps(law: Law, p: Person, answer: dict[str, Any], as_of: date, lang: str, pace: Any,
               counting: set[str], prepared: tuple | None = None) -> list[dict[str, Any]]:
    """The next certificates up, ranked by their earliest day (see the module's docstring)."""
    steps = [_renewal(law, x, as_of, lang) for x in answer.get("lapsed", []) if x["reason"] == MEDICAL_LAPSE]
    candidates = _candidates(law, p, answer, as_of, counting)
    if candidates:
        steps += _planned(law, p, answer, as_of, lang, pace, candidates, prepared)
    return _ranked(law, steps)


def _renewal(law: Law, lapse: dict[str, Any], as_of: date, lang: str) -> dict[str, Any]:
    """A held certificate that stopped counting for want of a medical proof counts again once one is renewed."""
    action = {"kind": "renew_medical", "provision": lapse["provision"],
              "text": say(lang, "summary.action.renew_medical", provision=cited(lapse["provision"], lang))}
    return {"certificate": lapse["certificate"], "earliest": as_of.isoformat(), "via": [lapse["provision"]],
            "actions": [action]}


def _candidates(law: Law, p: Person, answer: dict[str, Any], as_of: date, counting: set[str]) -> list[str]:
    """The certificates the next steps are planned among (`answers.relevance.candidates`: the one home of the rule)."""
    eligible = [c["id"] for c in answer["certificates"] if c.get("eligible")]
    renewable = [x["certificate"] for x in answer.get("lapsed", []) if x["reason"] == MEDICAL_LAPSE]
    return relevance.candidates(law, p, as_of, eligible, answer["roles"], counting, renewable)


def _planned(law: Law, p: Person, answer: dict[str, Any], as_of: date, lang: str, pace: Any,
             candidates: list[str], prepared: tuple | None = None) -> list[dict[str, Any]]:
    """Each candidate's fastest route, planned on the record as it reads once its days awaiting validation are
    validated; its actions: that validation where the certificate's unmet requirements count such days, every
    certificate the route passes through, and the route's unmet requirements."""
    from crewkg.careers.graph import Careers
    from crewkg.careers.planning import Pace, make_planner
    from crewkg.careers.routes import plan

    pace = pace or Pace.from_kb()
    if prepared is not None:
        q, base, g, planner = prepared
    else:
        q, base = planning_record(law, p, answer, as_of, lang)
        g = Careers(law)
        planner = make_planner(law, q, base, as_of, pace, lang)
    memo: dict = {}
    out = []
    for cid in candidates:
        eligible_then = q is not p and any(c["id"] == cid and c.get("eligible") for c in base["certificates"])
        result = plan(law, q, base, cid, as_of, pace, graph=g, planner=planner, lang=lang, memo=memo)
        route = result["routes"][0] if result["routes"] and not result.get("held_above") else None
        if route is None and not eligible_then:
            continue
        steps = route["steps"] if route else []
        actions = _validation(law, answer, cid, steps, lang) if q is not p else []
        for s in steps:
            if s["certificate"] != cid:
                actions.append({"kind": "obtain_certificate", "certificate": s["certificate"], "provision": s["provision"],
                                "on": s["earliest"],
                                "text": say(lang, "summary.action.obtain_certificate", provision=s["provision"],
                                            certificate=law.certificate_short(s["certificate"], lang),
                                            on=s["earliest"] or "—")})
            for item in s["remaining"]:
                actions += actions_of(law, item, lang)
        earliest = as_of.isoformat() if eligible_then else route["earliest"]
        out.append({"certificate": cid, "earliest": earliest, "via": [s["provision"] for s in steps], "actions": actions,
                    "through": {s["certificate"] for s in steps[:-1]}})
    # a certificate whose route passes through another one planned here comes after that one: it is no next step
    for x in out:
        x["after"] = bool(x.pop("through") & {o["certificate"] for o in out})
    return [{k: v for k, v in x.items() if k != "after"} for x in out if not x["after"]]


def planning_record(law: Law, p: Person, answer: dict[str, Any], as_of: date,
                    lang: str = "de") -> tuple[Person, dict[str, Any]]:
    """The record a plan starts from and its answer: the record as it reads once the days of its service log that
    await validation are validated (the first action the summary names), else the record and its answer as they are."""
    from crewkg.answers.eligibility import person_answer
    from crewkg.records.dated import validated
    from crewkg.rules.eligibility import derive_answered

    q = validated(p, law, as_of)
    if q is None:
        return p, answer
    return q, person_answer(law, q, derive_answered([q], law, as_of), as_of, lang)


def planning_records(law: Law, persons: list[Person], answers: list[dict[str, Any]], as_of: date,
                     lang: str = "de") -> list[tuple[Person, dict[str, Any]]]:
    """`planning_record` of each person, the records awaiting validation evaluated in one Datalog run (each under
    an id of its own for the run: two records of a batch may share one)."""
    import dataclasses

    from crewkg.records.dated import validated
    from crewkg.rules.eligibility import derive_answered

    validated_ = [validated(p, law, as_of) for p in persons]
    runs = [None if q is None else dataclasses.replace(q, id=f"{q.id}\u241f{i}") for i, q in enumerate(validated_)]
    wanted = [r for r in runs if r is not None]
    derived = derive_answered(wanted, law, as_of) if wanted else None
    return planned_from(law, persons, answers, validated_, runs, derived, as_of, lang)


def planned_from(law: Law, persons: list[Person], answers: list[dict[str, Any]], validated_: list[Person | None],
                 runs: list[Person | None], derived: Any, as_of: date,
                 lang: str = "de") -> list[tuple[Person, dict[str, Any]]]:
    """`planning_record` of each person from its record validated (None: nothing awaits validation), that record
    under the id it was evaluated under (`runs`) and what the program derived for it."""
    from crewkg.answers.eligibility import person_answer

    out: list[tuple[Person, dict[str, Any]]] = []
    for p, a, q, run in zip(persons, answers, validated_, runs, strict=True):
        if q is None or run is None:
            out.append((p, a))
            continue
        base = person_answer(law, run, derived, as_of, lang)
        base["person"] = q.id
        out.append((q, base))
    return out


def _validation(law: Law, answer: dict[str, Any], cid: str, steps: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Having the days awaiting validation validated, where an unmet requirement of the certificate (or of a
    certificate its route passes through) counts such days: the most of them any one requirement counts."""
    certs = {cid} | {s["certificate"] for s in steps}
    best: dict[str, Any] | None = None
    for c in answer["certificates"]:
        if c["id"] not in certs:
            continue
        for w in c["pathways"]:
            for r in _leaves(w["missing"]):
                if r.get("not_validated") and (best is None or r["not_validated"] > best["not_validated"]):
                    best = r
    if best is None:
        return []
    return [{"kind": "validate_days", "days": best["not_validated"], "provision": best["provision"],
             "text": say(lang, "summary.action.validate_days", days=best["not_validated"], provision=best["provision"])}]


def _leaves(items: list[dict[str, Any]]):
    """The requirement entries of a list and of its groups' parts, depth first."""
    for r in items:
        yield r
        parts = kind(r["kind"]).parts
        if parts is not None:
            yield from _leaves(r.get(parts) or [])


def actions_of(law: Law, item: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The actions an unmet requirement entry of a planned step asks for, named by its kind: a group's from the part
    the plan relies on (an alternative's figures, else the one met first) or from every unmet part."""
    k = kind(item["kind"])
    if k.parts is not None:
        parts = [c for c in item.get(k.parts) or [] if not c.get("met")]
        if item.get("figures_of"):
            parts = [c for c in parts if c["id"] == item["figures_of"]] or parts[:1]
        elif k.needed is not None and item.get("needed", len(parts)) < len(item.get(k.parts) or []):
            dated = sorted((c for c in parts if c.get("met_on")), key=lambda c: c["met_on"])
            parts = dated[:1] or parts[:1]
        return [a for c in parts for a in actions_of(law, c, lang)]
    if k.action is None:
        return []
    action: dict[str, Any] = {"kind": k.action, "provision": item["provision"], "requirement": item["id"]}
    needed, have = item.get("needed"), item.get("have")
    if k.unit == "days" and isinstance(needed, int) and isinstance(have, int):
        action["days"] = max(needed - have, 0)
    if item.get("reached_on"):
        action["age"], action["on"] = needed, item["reached_on"]
    elif item.get("met_on"):
        action["on"] = item["met_on"]
    action["text"] = missing_sentence(law, item, lang)
    return [action]


def _ranked(law: Law, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By earliest day, then the higher role first. A step is left out when one of a higher role comes no later and
    asks no kind of action it does not ask (its holder fills the lower role too), and a step that cannot be planned
    when another can."""
    def role(s: dict[str, Any]) -> int:
        return relevance.rank(law, law.certificates[s["certificate"]].role)

    def asks(s: dict[str, Any]) -> set[str]:
        return {a["kind"] for a in s["actions"]}

    dated = [s for s in steps if s["earliest"]]
    kept = [s for s in dated if not any(role(o) > role(s) and o["earliest"] <= s["earliest"] and asks(o) <= asks(s)
                                        for o in dated if o is not s)]
    if not dated:
        kept = [s for s in steps if role(s) == min(map(role, steps))] if steps else []
    return sorted(kept, key=lambda s: (s["earliest"] is None, s["earliest"] or "", -role(s)))
