"""The register end to end: `crewkg check REGISTER --format jsonl --out FILE` on N synthetic persons (dated logs
included, benchmarks/synthetic.py), against a plain-Python evaluation of §§ 10–15 over the same records (the floor).
Prints wall time, persons per second, peak memory (the command and all its worker processes), the ratio to the
floor, the load average, and with --agree N whether the register lines agree with the full `--format json` answers
of the first N persons. Asserts nothing (speed is never a test).

    python benchmarks/register.py 100000 --workers 2 --agree 2000

The floor lives here only; the product never uses it. It reads each line as the product does (JSON, then the
record checks and the crediting of a dated log: records.persons) and then decides each requirement of the kb in
plain Python, kind by kind, as the Datalog program's clauses say."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import synthetic  # noqa: E402

AS_OF = date(2026, 11, 30)
CREWKG = Path(sys.executable).with_name("crewkg")


# ---------------------------------------------------------------------------------------------------- the floor
#: the kinds the floor decides: those of §§ 10–15 (the UBZ); a certificate with a requirement it does not decide (dated
#: proofs, a Fahrzeit with sea days or a shortening, § 47 application periods) is left to the product and to the
#: comparison's other side: `decided` names the certificates compared
PLAIN = {"MinimumAge", "Fahrzeit", "SeaTime", "ProfessionalExperience", "VocationalTraining", "Programme",
         "ProgrammeFahrzeit", "Exam", "CertificateHeld", "Document", "AnyOf", "AllOf"}


def floor_lines(path: Path) -> tuple[list[dict], float, float]:
    """(register lines, seconds reading, seconds deciding) of the plain-Python evaluation."""
    from crewkg.law.statute import load_law
    from crewkg.records.persons import person_from_mapping

    law = load_law()
    start = time.perf_counter()
    persons = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            persons.append(person_from_mapping(json.loads(line), law, AS_OF, f"line {n}"))
    read = time.perf_counter() - start

    start = time.perf_counter()
    floor = Floor.of(law, law.regulation_on(AS_OF))
    lines = [floor.line(p) for p in persons]
    return lines, read, time.perf_counter() - start


class Floor:
    """What the floor reads from the law once (the certificates it decides, the capacities and roles each includes,
    the role ages), and its verdict on one person."""

    def __init__(self, law, certs: list, ages: dict[str, int]) -> None:
        self.law, self.certs, self.ages = law, certs, ages
        self.decided = {c.id for c in certs}
        self.reqs = law.requirements
        self.deck_roles = law.ids_of("DeckCrewRole")
        self.includes: dict[str, set[str]] = {}
        for a, b in law.capacity_includes:
            self.includes.setdefault(a, set()).add(b)
        self.below: dict[str, set[str]] = {}
        for a, b in law.ranks_above:
            self.below.setdefault(a, set()).add(b)

    @classmethod
    def of(cls, law, reg) -> Floor:
        from crewkg.rules.eligibility import role_ages

        def decidable(rid: str) -> bool:
            r = law.requirements[rid]
            if r.kind not in PLAIN or (r.kind == "Fahrzeit" and (r.capacity or r.reduction)):
                return False
            return all(decidable(c) for c in r.children)

        certs = [c for c in law.certificates_in_order() if c.regulation == reg.id
                 and all(decidable(x) for w in c.pathways for x in law.pathways[w].requirements)]
        return cls(law, certs, {role: a.years for role, a in role_ages(law).items()})

    @staticmethod
    def _closure(start: str, edges: dict[str, set[str]], own: bool) -> set[str]:
        out, todo = ({start} if own else set()), [start]
        while todo:
            for b in edges.get(todo.pop(), ()):
                if b not in out:
                    out.add(b)
                    todo.append(b)
        return out

    def counted(self, cap: str) -> set[str]:
        return self._closure(cap, self.includes, own=True)

    def under(self, role: str) -> set[str]:
        return self._closure(role, self.below, own=False)

    def line(self, p) -> dict:
        from crewkg.law.calendar import completed_years
        from crewkg.rules.validity import counts, documents, passed

        law = self.law
        age = completed_years(p.birth_date, AS_OF) if p.birth_date else None
        held = {c for c in p.certificates if counts(p, law, c, AS_OF)}  # issued by then, not lapsed (rules.validity)
        facts = {"age": age, "docs": documents(p, AS_OF), "exams": set(passed(p, AS_OF)), "held": held}
        memo: dict[str, bool] = {}
        eligible = {}
        for c in self.certs:
            sat = [law.citation(law.pathways[w].provision) for w in c.pathways
                   if all(self.met(p, facts, memo, x) for x in law.pathways[w].requirements)]
            if sat:
                eligible[c.id] = sat
        roles = set()
        for c in held:
            role = law.certificates[c].role if c in law.certificates else None
            if role:
                roles.add(role)
                roles |= {x for x in self.under(role) if x not in self.ages or (age is not None and age >= self.ages[x])}
        return {"person": p.id, "eligible": eligible, "roles": roles & set(self.deck_roles), "decided": self.decided,
                "deck": set(self.deck_roles)}

    def met(self, p, facts: dict, memo: dict[str, bool], rid: str) -> bool:
        if rid not in memo:
            memo[rid] = self._met(p, facts, memo, rid)
        return memo[rid]

    def _met(self, p, facts: dict, memo: dict[str, bool], rid: str) -> bool:
        r, k, n = self.reqs[rid], self.reqs[rid].kind, self.reqs[rid].minimum or 0
        if k == "MinimumAge":
            return facts["age"] is not None and facts["age"] >= n
        if k == "Fahrzeit":
            if r.served_as:
                return p.sailing_days.get(r.served_as, 0) >= n
            if p.any_role_days is not None:
                return p.any_role_days >= n
            return sum(p.sailing_days.get(x, 0) for x in self.deck_roles) >= n
        if k == "SeaTime":
            if p.sea_credited is not None:
                return p.sea_credited.get(r.capacity, -1) >= n
            return sum(p.sea_days.get(c, 0) for c in self.counted(r.capacity)) >= n
        if k == "ProfessionalExperience":
            return p.professional_experience_years >= n
        if k == "VocationalTraining":
            return p.vocational_training_years >= n
        if k == "Programme":
            return any(g.role == r.programme_for and g.completed and g.months >= n for g in p.programmes)
        if k == "ProgrammeFahrzeit":
            return any(v >= n for v in self._phase_days(p, r))
        if k == "Exam":
            return all(e in facts["exams"] for e in r.exams)
        if k == "CertificateHeld":
            return any(c in facts["held"] for c in r.certificates)
        if k == "Document":
            return facts["docs"].get(r.document or "", False)
        if k == "AnyOf":
            return any(self.met(p, facts, memo, c) for c in r.children)
        if k == "AllOf":
            return all(self.met(p, facts, memo, c) for c in r.children)
        raise ValueError(k)

    def _phase_days(self, p, r) -> list[int]:
        """The days in the requirement's phase of each qualifying programme of the record."""
        of = self.reqs[r.of_programme]
        values = []
        for g in p.programmes:
            if not (g.role == of.programme_for and g.completed and g.months >= (of.minimum or 0)):
                continue
            if r.phase == "WithinProgramme":
                values.append(g.sailing_days)
            elif r.phase == "AfterProgramme":
                values.append(g.sailing_days_after)
            else:
                values.append(g.within_or_after if g.within_or_after is not None
                              else g.sailing_days + g.sailing_days_after)
        return values


# ---------------------------------------------------------------------------------------------------- the command
def run_measured(cmd: list[str]) -> tuple[float, int]:
    """(wall seconds, peak resident bytes of the command and its children together, sampled every 50 ms)."""
    start = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL)
    peak = [0]

    def sample():
        while proc.poll() is None:
            try:
                procs = [proc, *proc.children(recursive=True)]
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.05)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    proc.wait()
    wall = time.perf_counter() - start
    t.join()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"crewkg check failed with exit status {proc.returncode}")
    return wall, peak[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=100_000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--agree", type=int, default=0, help="compare with the full --format json answers of the first N")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="crewkg-register-"))
    reg, out = tmp / "register.jsonl", tmp / "lines.jsonl"
    rng = synthetic.random.Random(1)
    with reg.open("w") as f:
        for i in range(args.n):
            f.write(json.dumps(synthetic.person(i, rng), separators=(",", ":")) + "\n")

    load_before = os.getloadavg()
    wall, peak = run_measured([str(CREWKG), "check", str(reg), "--format", "jsonl", "--as-of", AS_OF.isoformat(),
                               "--workers", str(args.workers), "--out", str(out)])
    load_after = os.getloadavg()
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    floor, read, decide = floor_lines(reg)
    # compared: the certificates the floor decides, and the deck roles (functions held by proof are the product's)
    same = sum(1 for a, b in zip(lines, floor, strict=True)
               if {c: w for c, w in a.get("eligible", {}).items() if c in b["decided"]} == b["eligible"]
               and set(a.get("roles", [])) & b["deck"] == b["roles"])

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average before "
          f"{load_before[0]:.2f}, after {load_after[0]:.2f}")
    print(f"{'persons (dated logs: ' + str(sum(1 for x in reg.open() if 'service' in x)) + ')':<44} {args.n:>10}")
    print(f"{'crewkg check --format jsonl, workers ' + str(args.workers):<44} {wall:10.2f} s   (target <= 60 s)")
    print(f"{'persons per second':<44} {args.n / wall:10.0f}")
    print(f"{'per core (workers x wall / persons)':<44} {wall * args.workers / args.n * 1000:10.2f} ms/person")
    print(f"{'peak memory, command + workers':<44} {peak / 2**20:10.0f} MiB (target <= 2048 MiB)")
    print(f"{'plain-Python floor: reading / deciding':<44} {read:10.2f} s / {decide:.2f} s")
    print(f"{'ratio to the floor (one core)':<44} {wall / (read + decide):10.1f} x   (target <= 25 x)")
    print(f"{'lines agreeing with the floor':<44} {same:>10} of {len(lines)}")
    if args.agree:
        part = tmp / "part.jsonl"
        part.write_text("".join(reg.open().readlines()[: args.agree]))
        full = json.loads(subprocess.run([str(CREWKG), "check", str(part), "--format", "json", "--as-of", AS_OF.isoformat()],
                                         capture_output=True, text=True).stdout)
        agree = sum(1 for f, c in zip(full, lines, strict=False)
                    if c["eligible"] == {x["id"]: [w["provision"] for w in x["pathways"] if w["satisfied"]]
                                         for x in f["certificates"] if x.get("eligible")} and c["roles"] == f["roles"])
        print(f"{'register lines = full --format json answers':<44} {agree:>10} of {args.agree}")


if __name__ == "__main__":
    main()
