"""The register diff (`crewkg diff REGISTER --from D1 --to D2`, design contract "Register diff"): who gains or loses
which certificates and roles between two days — the day the SchBV took effect, the end of the old qualifications
(§ 47 SchBV), a day a validity or a medical proof runs out.

Each record is read once and credited on each day (`records.dated.at`); the two days are answered by the register's
own evaluation (`register.answer_register_days`: signatures evaluated once, batches, worker processes), so a diff
costs per person what two register lines cost. A line names only what differs; a person whose answer is the same is
left out. For the persons who lose a role, the text says the replacement routes of the transitional provisions
(crew:ReplacementPathway, § 47 SchBV) whose held qualification they hold, as the check answer of the first day has
them: satisfied (an application can still be made, by the last day of its period) or what is missing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.law.statute import Law
from crewkg.records.persons import Person
from crewkg.records.register import Entry


class Diff:
    """One diff of a register: its lines (iterated once, in input order) and, once iterated, the records of the
    persons who lose a role, credited on the first day (`losers`), and how many records were read (`read`)."""

    def __init__(self, law: Law, path: Path, start: date, end: date, workers: int = 1, lang: str = "en") -> None:
        self.law, self.path, self.start, self.end, self.workers, self.lang = law, path, start, end, workers, lang
        self.losers: dict[str, Person] = {}
        self.read = 0
        self.failed = 0

    def _pairs(self) -> Iterator[tuple[Entry, ...]]:
        """Each entry of the register as a pair: the record credited on the first day and on the second (read as of
        the later day, so that a person born between them is read at all)."""
        import dataclasses

        from crewkg.records.dated import at
        from crewkg.records.register import read_register

        for e in read_register(self.path, self.law, max(self.start, self.end)):
            self.read += 1
            if e.person is None:
                yield e, e
            else:
                yield tuple(dataclasses.replace(e, person=at(e.person, self.law, day)) for day in (self.start, self.end))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        from crewkg.answers.register import answer_register_days

        kept: dict[str, Person] = {}
        for first, second in answer_register_days(self.law, self._remembered(kept), (self.start, self.end),
                                                  self.workers, self.lang):
            if "error" in first:
                self.failed += 1
                yield first
                continue
            line = changed(first, second, self.start, self.end)
            person = kept.pop(first["person"], None)
            if line is not None:
                if line["roles_lost"] and person is not None:
                    self.losers[line["person"]] = person
                yield line

    def _remembered(self, kept: dict[str, Person]) -> Iterator[tuple[Entry, ...]]:
        for pair in self._pairs():
            if pair[0].person is not None:
                kept[pair[0].person.id] = pair[0].person
            yield pair


def diff_register(law: Law, path: Path, start: date, end: date, workers: int = 1, lang: str = "en") -> Diff:
    """The diff of a register between two days (iterate it for the lines)."""
    return Diff(law, path, start, end, workers, lang)


def changed(first: dict[str, Any], second: dict[str, Any], start: date, end: date) -> dict[str, Any] | None:
    """The diff line of one person's two register lines, or None where nothing differs."""
    a, b = first.get("eligible", {}), second.get("eligible", {})
    line = {"person": first["person"], "from": start.isoformat(), "to": end.isoformat(),
            "gained": {c: v for c, v in b.items() if c not in a}, "lost": {c: v for c, v in a.items() if c not in b},
            "roles_gained": [r for r in second.get("roles", []) if r not in first.get("roles", [])],
            "roles_lost": [r for r in first.get("roles", []) if r not in second.get("roles", [])]}
    if not (line["gained"] or line["lost"] or line["roles_gained"] or line["roles_lost"]):
        return None
    return line


def counts(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """How many persons gain and lose each certificate and each role, and how many lines and errors there are."""
    certs: dict[str, dict[str, int]] = {}
    roles: dict[str, dict[str, int]] = {}
    for line in lines:
        for key, into in (("gained", certs), ("lost", certs), ("roles_gained", roles), ("roles_lost", roles)):
            for x in line.get(key, []):
                into.setdefault(x, {"gained": 0, "lost": 0})["gained" if key.endswith("gained") else "lost"] += 1
    return {"persons": sum(1 for x in lines if "error" not in x), "errors": sum(1 for x in lines if "error" in x),
            "certificates": certs, "roles": roles}


def replacement_routes(law: Law, losers: dict[str, Person], start: date, lang: str = "de") -> dict[str, list[dict[str, Any]]]:
    """For each person who loses a role: the replacement routes (crew:ReplacementPathway) whose held qualification
    the person holds on the first day, as that day's check answer has them (satisfied, or what is missing), with the
    last day of the application period and the spells, from the day the regulation took effect to that last day, in
    which the route is satisfied (`answers.eligibility.pathway_spells`): whether, and until when, an application can
    still be made."""
    from crewkg.answers.eligibility import check, pathway_spells
    from crewkg.rules.kinds import missing_sentence

    reg = law.regulation_on(start)
    if not losers or reg is None:
        return {}
    answers = check(law, list(losers.values()), start, lang)
    out: dict[str, list[dict[str, Any]]] = {}
    for (pid, p), answer in zip(losers.items(), answers, strict=True):
        routes = []
        for c in answer["certificates"]:
            for w in c["pathways"]:
                pathway = law.pathways.get(w["id"])
                # the qualification it replaces: a requirement naming the certificates it accepts (crew:acceptsCertificate)
                holds = [r for r in w["requirements"] if r["id"] in law.requirements and law.requirements[r["id"]].certificates]
                if pathway is None or not pathway.replacement or not holds or not all(r["met"] for r in holds):
                    continue
                last = min((d for r in pathway.requirements if (d := law.requirements[r].last_day)), default=None)
                spells = pathway_spells(law, p, {w["id"]}, reg.in_force_from, last or start).get(w["id"], [])
                routes.append({"certificate": c["id"], "provision": w["provision"], "satisfied": w["satisfied"],
                               "apply_by": last.isoformat() if last else None,
                               "spells": [[a.isoformat(), b.isoformat()] for a, b in spells],
                               "missing": [missing_sentence(law, r, lang) for r in w["missing"]]})
        out[pid] = routes
    return out


def text(law: Law, lines: list[dict[str, Any]], report: dict[str, Any], start: date, end: date,
         lang: str = "de") -> list[str]:
    """The diff for people: the heading, a table (person, gained, lost, roles gained, roles lost), the counts per
    certificate and role, and for those who lose a role the replacement routes open on the first day."""
    from crewkg.messages.sections import section

    t = section("diff.", lang)
    persons = [x for x in lines if "error" not in x]
    out = [t["heading"].format(start=start.isoformat(), end=end.isoformat(), n=len(persons))]
    if not persons:
        return out + ["  " + t["none"]]

    def cert(c: str) -> str:
        return law.certificate_short(c, lang) if c in law.certificates else c

    rows = [[x["person"], ", ".join(cert(c) for c in x["gained"]) or "—", ", ".join(cert(c) for c in x["lost"]) or "—",
             ", ".join(law.label(r, lang) for r in x["roles_gained"]) or "—",
             ", ".join(law.label(r, lang) for r in x["roles_lost"]) or "—"] for x in persons]
    head = [t["col.person"], t["col.gained"], t["col.lost"], t["col.roles_gained"], t["col.roles_lost"]]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, ["─" * w for w in widths], *rows]:
        out.append("  " + " │ ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())
    out.append(t["counts"])
    for c, n in sorted(report["counts"]["certificates"].items(), key=lambda kv: (law.certificates[kv[0]].order, kv[0])
                       if kv[0] in law.certificates else (10**6, kv[0])):
        out.append("  " + t["count"].format(item=cert(c), gained=n["gained"], lost=n["lost"]))
    order = {r: i for i, r in enumerate(law.ids_of("Role"))}
    for r, n in sorted(report["counts"]["roles"].items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])):
        out.append("  " + t["count"].format(item=law.label(r, lang), gained=n["gained"], lost=n["lost"]))
    if report.get("routes"):
        out.append(t["routes"].format(start=start.isoformat()))
        for pid, routes in report["routes"].items():
            if not routes:
                out.append("  " + t["route.none"].format(person=pid))
            for r in shown(law, routes):
                out.append("  " + _route(t, pid, cert(r["certificate"]), r, start))
    return out


def shown(law: Law, routes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The routes the text names: the one open on the first day to the highest certificate (its holder fills the
    roles below it too), else those open in an earlier spell, else the one that lacks least."""
    def rank(r: dict[str, Any]) -> int:
        role = law.certificates[r["certificate"]].role if r["certificate"] in law.certificates else None
        return len(set(law.below(role))) if role else -1

    open_now = [r for r in routes if r["satisfied"]]
    if open_now:
        return [max(open_now, key=rank)]
    earlier = [r for r in routes if r["spells"]]
    return [max(earlier, key=rank)] if earlier else sorted(routes, key=lambda r: len(r["missing"]))[:1]


def _route(t: dict[str, str], pid: str, certificate: str, r: dict[str, Any], start: date) -> str:
    """A replacement route in words: open on the first day (until the last day to apply), open in an earlier spell
    (from when to when), or not open (what is missing)."""
    fields = {"person": pid, "certificate": certificate, "provision": r["provision"], "by": r["apply_by"] or "—",
              "start": start.isoformat(), "missing": "; ".join(r["missing"])}
    if r["satisfied"]:
        return t["route.open"].format(**fields)
    if r["spells"]:
        first, last = r["spells"][-1]
        return t["route.was_open"].format(first=first, last=last, **fields)
    return t["route.missing"].format(**fields)
