"""Routes to a target certificate: every chain of pathways through the career graph, each stepped through the
planner (`careers.planning`), ranked by the earliest date it can be completed, and the text that explains them."""

from __future__ import annotations

from datetime import date
from typing import Any

from crewkg.careers.planning import Pace, Planner, confirm, make_planner, not_accrued, unplanned_step
from crewkg.law.statute import Law
from crewkg.messages.sections import sections
from crewkg.records.persons import Person
from crewkg.rules.kinds import kind


def held_above(law: Law, p: Person, cid: str, counting: list[str]) -> str | None:
    """The certificate the person holds on the date for a role above `cid`'s (crew:ranksAbove: a held UBZ Matrose is
    above the Leichtmatrose's and the Decksmann's), else None: nothing to plan for `cid` then. Only the held
    certificates that count on the date (`counting`, rules.validity.held) rank above anything."""
    role = law.certificates[cid].role
    if not role:
        return None
    for h in counting:
        cert = law.certificates.get(h)
        if cert is not None and cert.role and role in law.below(cert.role):
            return h
    return None


def held_above_on(law: Law, p: Person, target: str, as_of: date) -> str | None:
    """The certificate held and counting on the date for a role above the target's (`held_above`)."""
    from crewkg.rules.validity import held

    if target not in law.certificates:
        return None
    return held_above(law, p, target, held(p, as_of, law))


def plan_target(law: Law, graph, target: str, as_of: date, *, fields: tuple[str, str] = ("as_of", "target"),
                not_covered: bool = False) -> str:
    """The target certificate of a plan: its id or a short name ('Steuermann', 'Schiffsführer'), of the regulation in
    force on `as_of` (the career graph holds only its pathways: a certificate of a later or earlier regulation is
    refused with the day that regulation applies from, never planned with the law of another day). A certificate only
    a replacement of earlier law leads to (§ 47 SchBV) is a target too: the check meets it. `fields` name the date and
    the target where the question came from (the CLI's options, the API's arguments). `not_covered`: a certificate
    whose conditions the sources lack is a target too (`plan` answers it „not covered“; a cohort has no column for
    it and refuses it)."""
    from crewkg.errors import InputError
    from crewkg.records.persons import near

    choices = sorted({n for n in graph.nodes if graph.in_degree(n) > 0}
                     | {c for c in law.certificates if replacements(law, c)})  # an authorisation is no graph node
    target = law.certificate_named(target) or target
    own = law.regulations.get(law.certificates[target].regulation or "") if target in law.certificates else None
    in_force = law.regulation_on(as_of)
    if own is not None and (in_force is None or own.id != in_force.id):
        raise InputError(fields[0], "as_of", "pathway_date", as_of.isoformat(), regulation=own.name,
                         since=own.in_force_from.isoformat())
    planned = {law.certificates[n].regulation for n in graph.nodes if n in law.certificates}  # the graph's law
    if not_covered and own is not None and own.id in planned and not law.certificates[target].pathways:
        return target  # a certificate whose conditions the sources lack (§§ 16, 17 SchBV): the plan says "not covered"
    if target not in choices:
        raise InputError(fields[1], "target", "target", target, ids=choices, near=near(target, choices))
    return target


def plan(law: Law, person: Person, answer: dict[str, Any], target: str, as_of: date, pace: Pace,
         graph=None, planner: Planner | None = None, lang: str = "de", replaced: bool = True,
         memo: dict | None = None) -> dict[str, Any]:
    """Every route from where the person stands to `target`, fastest first (the `crewkg plan --format json` answer).

    A route starts at `start` or at a certificate the person holds and passes through no other certificate the
    person holds. Routes that cannot be planned (sea time, prior experience, a missing birth date) come last with
    `earliest: null`; the entry that blocks them has `met_on: null`. A replacement of a qualification held under
    earlier law (§ 47 SchBV) that the check answer finds met on the evaluation date is a first step of its own: the
    certificate it leads to on that date, and every route onward from it (`replaced`: whether to look for them; `memo`
    keeps the holder's answer and planner across the targets of one person, as the timeline asks them)."""
    from crewkg.careers.graph import career_graph, person_routes

    g = graph if graph is not None else career_graph(law, days_per_period=pace.days)
    # the shape (person, target, as_of, routes); `covered` and `provision` only for a target not covered
    result: dict[str, Any] = {"person": person.id, "target": target, "as_of": as_of.isoformat(), "routes": []}
    cert = law.certificates.get(target)
    if cert is not None and not cert.pathways and target not in person.certificates:
        # its conditions are not in the sources: not covered, as the check answers it — no route is guessed
        result |= {"covered": False, "provision": law.citation(cert.provision)}
        return result
    if target in person.certificates:
        # held from its issue date (a later one: held from then, not on the evaluation date)
        issued = person.certificate_issued.get(target)
        later = issued is not None and issued > as_of
        result["routes"] = [{"earliest": (issued if later else as_of).isoformat(), "steps": []}]
        if later:
            result["held_from"] = issued.isoformat()
        # held, but not counting on the date (lapsed): the check answer says why
        why = [x for x in answer.get("lapsed", []) if x["certificate"] == target]
        if why:
            result["held_not_counting"] = why
        return result
    if above := held_above_on(law, person, target, as_of):
        # a certificate for a role above the target's is held: the routes stay (asked for), said not to be needed
        result["held_above"] = {"id": above, "label": law.certificate_short(above, lang)}
    planner = planner or make_planner(law, person, answer, as_of, pace, lang)
    held = [c for c in person.certificates if c in g]
    routes = person_routes(g, target, held, answer) if target in g else []  # a replacement's only: below
    for route in routes:
        planner.walk(route)
    confirm([planner])
    built = []
    for route in routes:
        results = planner.walk(route)
        steps, earliest, ok = [], None, True
        seen_held = set(held)
        for (_, v, k), res in zip(route, results, strict=True):
            if res is None or res.earliest is None:
                ok = False
            if res is not None:
                remaining = res.remaining
                day = planner.ctx.date(res.earliest).isoformat() if res.earliest is not None else None
            else:
                remaining = unplanned_step(planner.ctx.items[k], seen_held)
                day = None
            steps.append({"certificate": v, "provision": law.citation(law.pathways[k].provision),
                          "remaining": remaining, "earliest": day})
            seen_held.add(v)
            earliest = day
        built.append(({"earliest": earliest if ok else None, "steps": steps}, route))
    order = {w: law.pathways[w].order + 100 * law.certificates[law.pathways[w].certificate].order for w in law.pathways}

    def rank(rb):
        r, route = rb
        n_remaining = sum(len(s["remaining"]) for s in r["steps"])
        return (r["earliest"] is None, r["earliest"] or "", len(r["steps"]), n_remaining, [order[k] for _, _, k in route])

    if replaced:
        built += _via_replacements(law, person, answer, target, as_of, pace, g, lang, {} if memo is None else memo)
    result["routes"] = [r for r, _ in sorted(built, key=rank)]
    return result


def replaced_today(law: Law, answer: dict[str, Any]) -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """certificate -> the first replacement pathway (crew:ReplacementPathway) the check answer finds satisfied, or
    lacking only what the plan assumes obtained on a step's date (the medical fitness of § 47 Abs. 6, the
    supplementary exam of § 47 Abs. 9 and 11 for a restricted patent): those take no time (the planning assumptions,
    kb/schbv2022/03_fahrzeit.ttl), so the replacement is planned on the evaluation date with them as remaining.
    Satisfied ones come first."""
    out: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    for c in answer.get("certificates", []):
        ws = [w for w in c.get("pathways", []) if w["id"] in law.pathways and law.pathways[w["id"]].replacement]
        for w in sorted(ws, key=lambda w: not w.get("satisfied")):
            if w.get("satisfied") or (w.get("missing") and all(_on_the_day(m) for m in w["missing"])):
                out.setdefault(c["id"], (w["id"], [] if w.get("satisfied") else list(w["missing"])))
    return out


def _on_the_day(m: dict[str, Any]) -> bool:
    """A missing requirement a step's date gives (its kind's `obtained_on_the_day`: a document or an exam, which the
    plan assumes obtained on a step's date), or alternatives one of which it gives, or parts all of which it gives: an
    exclusion held, a closed application period or a function (what a replaced patent allowed is a fact about the
    past no day gives) is none."""
    k = kind(m["kind"])
    if k.parts is None:
        return k.obtained_on_the_day
    parts = m.get(k.parts) or []
    test = any if k.parts == "alternatives" else all
    return bool(parts) and test(c.get("met") or _on_the_day(c) for c in parts)


def _via_replacements(law: Law, person: Person, answer: dict[str, Any], target: str, as_of: date, pace: Pace, g,
                      lang: str, memo: dict) -> list[tuple[dict[str, Any], list[tuple[str, str, str]]]]:
    """The routes that begin by replacing a qualification held under earlier law on the evaluation date: the target
    itself, or a certificate from which the career graph leads on (planned for the person holding it from that day)."""
    import dataclasses

    from crewkg.answers.eligibility import check

    today = as_of.isoformat()
    out = []
    for cid, (wid, documents) in replaced_today(law, answer).items():
        if cid in person.certificates:
            continue
        first = {"certificate": cid, "provision": law.citation(law.pathways[wid].provision),
                 "remaining": [m | {"met_on": today} for m in documents], "earliest": today}
        if cid == target:
            out.append(({"earliest": today, "steps": [first]}, [("", cid, wid)]))
            continue
        if cid not in g or target not in g:
            continue
        if cid not in memo:
            holder = dataclasses.replace(person, certificates=[*person.certificates, cid],
                                         certificate_issued={**person.certificate_issued, cid: as_of})
            held_answer = check(law, [holder], as_of, lang)[0]
            memo[cid] = (holder, held_answer, make_planner(law, holder, held_answer, as_of, pace, lang))
        holder, held_answer, planner = memo[cid]
        onward = plan(law, holder, held_answer, target, as_of, pace, graph=g, planner=planner, lang=lang, replaced=False)
        for r in onward["routes"]:
            if r["steps"]:
                out.append(({"earliest": r["earliest"], "steps": [first, *r["steps"]]}, [("", cid, wid)]))
    return out


def replacements(law: Law, target: str) -> list[dict[str, str]]:
    """The pathways to `target` the career graph leaves out: those replacing a qualification held under earlier law
    (crew:ReplacementPathway, § 47 SchBV). They accrue nothing: a route begins with one only when the check answer
    meets it on the evaluation date, or finds missing only what a step's date gives (`plan`: documents, exams);
    otherwise `crewkg check` says what it
    lacks."""
    ws = sorted((w for w in law.pathways.values() if w.certificate == target and w.replacement), key=lambda w: w.order)
    return [{"pathway": w.id, "provision": law.citation(w.provision)} for w in ws]


def reach_dates(law: Law, person: Person, answer: dict[str, Any], as_of: date, pace: Pace, g, target: str,
                planner: Planner | None = None) -> dict[str, date | None]:
    """The earliest date the person can hold each certificate on a route to `target` (for cohort charts): held or
    eligible today → the evaluation date; None where no route can be planned."""
    from crewkg.careers.graph import person_routes

    planner = planner or make_planner(law, person, answer, as_of, pace)
    held = [c for c in person.certificates if c in g]
    out: dict[str, date | None] = {c: as_of for c in held}
    routes = person_routes(g, target, held, answer)
    for route in routes:
        planner.walk(route)
    confirm([planner])
    for route in routes:
        for (_, v, _), res in zip(route, planner.walk(route), strict=True):
            if res is None or res.earliest is None:
                out.setdefault(v, None)
                break
            day = planner.ctx.date(res.earliest)
            if out.get(v) is None or day < out[v]:
                out[v] = day
    return out



# ------------------------------------------------------------------------------------------------------------
# Text: the routes for people, and why the first beats the second

#: the routes texts, from the message catalogue (section "careers", keys careers.plan.*)
TEXT = sections("careers.plan.")


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(b) - date.fromisoformat(a)).days


def _slowest(result: dict[str, Any], route: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, Any] | None]:
    """The step that takes longest, its length in days, and the requirement it waits for longest."""
    prev, best = result["as_of"], None
    for s in route["steps"]:
        k = _days(prev, s["earliest"])
        if best is None or k > best[1]:
            binding = max(s["remaining"], key=lambda m: (m.get("met_on") or "", kind(m["kind"]).takes_time), default=None)
            best = (s, k, binding)
        prev = s["earliest"]
    assert best is not None
    return best


def _unplannable(m: dict[str, Any]) -> bool:
    """A requirement the planner does not accrue, or alternatives none of which it can plan."""
    return not_accrued(m["kind"]) or kind(m["kind"]).parts == "alternatives"


def _blocker(law: Law, route: dict[str, Any], lang: str) -> str:
    from crewkg.rules.kinds import missing_sentence

    for s in route["steps"]:
        if s["earliest"] is None:
            items = [m for m in s["remaining"] if m.get("met_on") is None]
            items.sort(key=lambda m: not _unplannable(m))
            if items:
                m = items[0]
                note = TEXT[lang]["not_accrued"] if _unplannable(m) else ""
                return missing_sentence(law, m, lang) + (f" — {note}" if note else "")
    return "?"


def why_first(law: Law, result: dict[str, Any], lang: str = "de") -> str:
    """One sentence: why route 1 beats route 2 (or why no route can be planned)."""
    from crewkg.careers.graph import certificate_short

    t = TEXT[lang]
    routes = result["routes"]
    target = certificate_short(law, result["target"], lang)
    if result.get("covered") is False:
        return t["not_covered"].format(target=target, provision=result["provision"])
    left_out = replacements(law, result["target"])
    if not routes and left_out:
        provs = ", ".join(dict.fromkeys(w["provision"] for w in left_out))
        return t["only_replacement"].format(target=target, provs=provs)
    if not routes:
        return t["none"].format(target=target)
    r1 = routes[0]
    if r1["earliest"] is None:
        return t["blocked_all"].format(what=_blocker(law, r1, lang))
    replacing = {w["provision"] for w in left_out}
    if len(routes) == 1 and left_out and not any(s["provision"] in replacing for s in r1["steps"]):
        # the only route planned, not the only way to the certificate
        provs = ", ".join(dict.fromkeys(w["provision"] for w in left_out))
        return t["only_planned"].format(target=target, provs=provs)
    if len(routes) == 1:
        return t["only"].format(target=target)
    r2 = routes[1]
    e1 = r1["earliest"]
    if r2["earliest"] is None:
        return t["blocked2"].format(e1=e1, what=_blocker(law, r2, lang))
    if r2["earliest"] == e1:
        a, b = len(r1["steps"]), len(r2["steps"])
        ia, ib = (sum(len(s["remaining"]) for s in r["steps"]) for r in (r1, r2))
        reason = (t["tie_steps"].format(a=a, b=b) if a != b else
                  t["tie_items"].format(a=ia, b=ib) if ia != ib else t["tie_order"])
        return t["tie"].format(e1=e1, reason=reason)
    _, k2, binding = _slowest(result, r2)
    return t["faster"].format(
        e1=e1, e2=r2["earliest"], n=_days(e1, r2["earliest"]), n1=_days(result["as_of"], e1),
        n2=_days(result["as_of"], r2["earliest"]), k=k2, steps1=_step_days(result, r1, t), steps2=_step_days(result, r2, t),
        text=binding["text"] if binding else "—", iprov=binding["provision"] if binding else "—")


def _step_days(result: dict[str, Any], route: dict[str, Any], t: dict[str, str]) -> str:
    """'§ 12 Z 2 545 Tage + § 13 Z 1 365 Tage': how long each step of a planned route takes."""
    parts, prev = [], result["as_of"]
    for s in route["steps"]:
        parts.append(f"{s['provision'].replace(' SchBV', '')} {_days(prev, s['earliest'])} {t['days']}")
        prev = s["earliest"]
    return " + ".join(parts)


def plan_lines(law: Law, result: dict[str, Any], pace: Pace, lang: str = "de") -> list[str]:
    """The routes for people: each step with what remains and the day each remaining requirement is met."""
    from crewkg.careers.graph import certificate_short
    from crewkg.rules.kinds import cited, missing_sentence

    t = TEXT[lang]
    target = certificate_short(law, result["target"], lang)
    lines = [t["head_assumed" if pace.assumed else "head"].format(person=result["person"], target=target,
                                                                  as_of=result["as_of"], d=pace.days, p=pace.period,
                                                                  prov=cited(pace.citation, lang), max=pace.legal)]
    routes = result["routes"]
    if result.get("held_above"):
        lines.append(t["held_above"].format(person=result["person"], target=target, above=result["held_above"]["label"]))
    if any(r["steps"] for r in routes):  # what the dates assume, said before them
        lines.append(t["assumes"])
    if routes and not routes[0]["steps"]:
        if result.get("held_from"):
            return lines + [t["held_from"].format(person=result["person"], target=target, date=result["held_from"],
                                                  as_of=result["as_of"])]
        lines.append(t["held"].format(person=result["person"], target=target))
        for x in result.get("held_not_counting", []):
            text = f"{x['text']} ({cited(x['provision'], lang)})" if x.get("provision") else x["text"]
            lines.append("  " + t["held_not_counting"].format(as_of=result["as_of"], why=text))
        return lines
    for i, r in enumerate(routes, 1):
        lines.append(t["route"].format(i=i, date=r["earliest"]) if r["earliest"] else t["route_blocked"].format(i=i))
        for n, s in enumerate(r["steps"], 1):
            cert = certificate_short(law, s["certificate"], lang)
            key = "step" if s["earliest"] else "step_blocked"
            lines.append(t[key].format(n=n, cert=cert, prov=s["provision"], date=s["earliest"]))
            for m in s["remaining"]:
                when = t["on"].format(date=m["met_on"]) if m.get("met_on") else t["unplanned"]
                follows = f" [{t['plan'].format(n=m['plan'])}]" if m.get("plan") else ""
                lines.append(f"       {missing_sentence(law, m, lang)}{follows} {when}")
            if not s["remaining"]:
                lines.append(t["nothing"])
    why = why_first(law, result, lang)
    lines.append(t["why"].format(s=why) if routes else why)  # without a route, no "why route 1"
    return lines
