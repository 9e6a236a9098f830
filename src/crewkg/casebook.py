"""The casebook: legal test cases written in YAML by people who read the law, run by `crewkg test` and by pytest.

A case is one person (or one vessel with an optional roster) on one date and the answer the law gives, written as the
lawyer would state it: which certificate can be issued under which Ziffer, which litera is missing and by how much,
which Stufe and crew a vessel needs. The case is answered through the Python API (`crewkg.check`, `crewkg.crew`), the
same call the CLI and the HTTP service make, so a passing casebook is a statement about the product, not about an
internal function. The format is described in docs/casebook.md; this module reads it strictly (an unknown key is an
error naming the file, the case and the key: a misspelt expectation must not pass silently).

Lists of plain values (exams, certificates) are compared without regard to order, because their order carries no
meaning; lists of mappings (a vessel's crew alternatives) are compared in order, because "Variante 1" is named so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from crewkg.errors import InputError

#: the keys of a case
CASE_KEYS = {"name", "description", "provision", "as_of", "person", "vessel", "roster", "school_attendance", "expect"}
#: the expectation keys of a person case besides certificate ids
PERSON_KEYS = {"roles", "satisfied_pathways", "covered", "warnings", "lapsed", "other_readings"}
#: the keys of one entry of `lapsed` (a held certificate that gives no role on the date) and of `other_readings` (what
#: the other reading of a doubtful provision would decide for a certificate held)
LISTED_KEYS = {"lapsed": {"certificate", "reason", "provision", "since", "valid_until", "other_reading", "reading"},
               "other_readings": {"certificate", "reading", "provision", "counts", "valid_until"}}
#: the keys of one certificate's expectation
CERTIFICATE_KEYS = {"eligible", "covered", "eligible_since", "pathway", "satisfied", "missing", "requirements"}
#: the keys of one requirement (a litera) in `missing` or `requirements`
REQUIREMENT_KEYS = {"provision", "met", "kind", "needed", "have", "at", "reached_on", "unit"}
#: the expectation keys of a vessel case: fields of the crew answer, compared as written
VESSEL_KEYS = {"covered", "stufe", "standard", "provision", "regulation", "provisions", "alternatives", "functions",
               "complete"}
CASE_SUFFIXES = (".yaml", ".yml")
#: between the steps of a field in a difference: "UBZ-Matrose › § 12 Z 2 SchBV › satisfied"
SEP = " › "


@dataclass(frozen=True)
class Case:
    """One case as read from a case file."""

    file: str
    name: str
    description: str
    provision: str
    as_of: date
    expect: dict[str, Any]
    person: dict[str, Any] | None = None
    vessel: dict[str, Any] | None = None
    roster: dict[str, Any] | None = None
    school_attendance: bool = False

    @property
    def where(self) -> str:
        """How messages name the case: the file and the case name."""
        return f"{self.file}: case '{self.name}'"


@dataclass(frozen=True)
class Difference:
    """One expectation the answer does not meet: where in the expectation, what was expected, what the answer has."""

    field: str
    expected: Any
    actual: Any


@dataclass
class Outcome:
    """A case and what differed (nothing when it passed)."""

    case: Case
    differences: list[Difference] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.differences


class Absent:
    """The answer has no such entry (shown as such, distinct from null)."""

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = Absent()


# ---------------------------------------------------------------------------------------------------------------------
# Reading case files
# ---------------------------------------------------------------------------------------------------------------------


def case_files(paths: Iterable[Path]) -> list[Path]:
    """The case files named: files as given, folders by their *.yaml/*.yml files (sorted, recursively)."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            # its sub-folders too, but not hidden ones (an editor's or a tool's files are no cases)
            files += sorted(f for f in p.rglob("*") if f.suffix.lower() in CASE_SUFFIXES and f.is_file()
                            and not any(part.startswith(".") for part in f.relative_to(p).parts))
        else:
            files.append(p)
    return files


def load_cases(path: Path) -> list[Case]:
    """The cases of one file, each checked for its structure; the first fault raises InputError (file, case, field)."""
    from crewkg.records.reading import _yaml, read_text

    source = str(path)
    data = _yaml(read_text(path, "case"), source)
    if isinstance(data, dict) and "name" not in data and len(data) == 1 and isinstance(next(iter(data.values())), (list, dict)):
        # one key holding the cases ('cases: ...'): not a case, and not the list the file must be
        raise InputError(source, next(iter(data)), "case_list")
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data:
        raise InputError(source, "", "case_list",
                         type(data).__name__)
    cases: list[Case] = []
    seen: set[str] = set()
    for index, raw in enumerate(data):
        case = _case(raw, source, index)
        if case.name in seen:
            raise InputError(case.where, "name", "case_name_once", case.name)
        seen.add(case.name)
        cases.append(case)
    return cases


def _case(raw: Any, source: str, index: int) -> Case:
    where = f"{source}: case {index + 1}"
    if not isinstance(raw, dict):
        raise InputError(where, "", "case_mapping", type(raw).__name__)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(where, "name", "case_name", name)
    where = f"{source}: case '{name}'"
    _known(raw, CASE_KEYS, where, "")
    for key in ("description", "provision"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise InputError(where, key, "case_" + key,
                             raw.get(key))
    day = _date(raw.get("as_of"), where)
    if ("person" in raw) == ("vessel" in raw):
        raise InputError(where, "person/vessel", "case_person_or_vessel")
    if "roster" in raw and "vessel" not in raw:
        raise InputError(where, "roster", "case_roster_with_vessel")
    if "school_attendance" in raw and (not isinstance(raw["school_attendance"], bool) or "vessel" not in raw):
        raise InputError(where, "school_attendance", "case_school_attendance", raw["school_attendance"])
    record_base = Path(source).parent
    records = {k: _record(raw[k], record_base, where, k) for k in ("person", "vessel", "roster") if k in raw}
    expect = raw.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise InputError(where, "expect", "case_expect", expect)
    if "person" in raw:
        _check_person_expectation(expect, where)
    else:
        _known(expect, VESSEL_KEYS, where, "expect")
        if "complete" in expect and "roster" not in raw:
            raise InputError(where, "expect.complete", "case_complete")
    return Case(file=source, name=name, description=raw["description"], provision=raw["provision"], as_of=day,
                expect=expect, school_attendance=bool(raw.get("school_attendance", False)), **records)


def _known(mapping: Mapping[str, Any], keys: set[str], where: str, prefix: str) -> None:
    for k in mapping:
        if k not in keys:
            name = f"{prefix}.{k}" if prefix else str(k)
            raise InputError(where, name, "case_keys", k, keys=sorted(keys))


def _date(value: Any, where: str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise InputError(where, "as_of", "case_as_of", value) from None


def _record(value: Any, base: Path, where: str, key: str) -> dict[str, Any]:
    """A record written in the case, or the path of a record file (relative to the case file)."""
    if isinstance(value, str):
        from crewkg.records.reading import read_mapping

        path = base / value
        try:
            return read_mapping(path)
        except InputError as exc:
            raise InputError(where, key, "case_record_file", value, reason={"de": exc.message("de"), "en": exc.message("en")}) from None
    if not isinstance(value, dict):
        raise InputError(where, key, "case_record", type(value).__name__)
    return dict(value)


def _check_person_expectation(expect: Mapping[str, Any], where: str) -> None:
    from crewkg.api import law

    certificates = law().certificates
    for key, value in expect.items():
        at = f"expect.{key}"
        if key == "covered":  # whether the encoded law answers the person on the date at all (§ 1 before 2005: no)
            if not isinstance(value, bool):
                raise InputError(where, at, "boolean", value)
            continue
        if key in PERSON_KEYS:
            if not isinstance(value, list):
                raise InputError(where, at, "case_list_value", value)
            for i, entry in enumerate(value if key in LISTED_KEYS else []):
                if isinstance(entry, dict):
                    _known(entry, LISTED_KEYS[key], where, f"{at}[{i + 1}]")
            continue
        if key not in certificates:
            raise InputError(where, at, "case_expect_key", key, ids=sorted(certificates))
        if not isinstance(value, dict):
            raise InputError(where, at, "case_certificate", value)
        _known(value, CERTIFICATE_KEYS, where, at)
        for flag in ("covered", "satisfied"):
            if flag in value and not isinstance(value[flag], bool):
                raise InputError(where, f"{at}.{flag}", "boolean", value[flag])
        if "eligible" in value and value["eligible"] is not None and not isinstance(value["eligible"], bool):
            # null: the sources lack the conditions (§§ 16, 17 SchBV), as the answer says it
            raise InputError(where, f"{at}.eligible", "boolean_or_null", value["eligible"])
        if value.get("eligible_since") is not None and not _iso_date(value["eligible_since"]):
            raise InputError(where, f"{at}.eligible_since", "iso_date", value["eligible_since"])
        if ({"satisfied", "missing", "requirements"} & set(value)) and not isinstance(value.get("pathway"), str):
            raise InputError(where, f"{at}.pathway", "case_pathway",
                             value.get("pathway"))
        for part in ("missing", "requirements"):
            if part in value:
                entries = value[part]
                if not isinstance(entries, list):
                    raise InputError(where, f"{at}.{part}", "case_requirements", entries)
                for i, entry in enumerate(entries):
                    _requirement(entry, where, f"{at}.{part}[{i + 1}]")


def _iso_date(value: Any) -> bool:
    from datetime import date

    try:
        return isinstance(value, str) and date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def _requirement(entry: Any, where: str, at: str) -> None:
    if isinstance(entry, str):
        return
    if not isinstance(entry, dict) or not isinstance(entry.get("provision"), str):
        raise InputError(where, at, "case_requirement", entry)
    _known(entry, REQUIREMENT_KEYS, where, at)
    steps = entry.get("at", [])
    if not isinstance(steps, list) or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in steps):
        raise InputError(where, f"{at}.at", "case_at", steps)


# ---------------------------------------------------------------------------------------------------------------------
# Running cases
# ---------------------------------------------------------------------------------------------------------------------


def run_case(case: Case, lang: str = "de") -> Outcome:
    """Answer the case through the Python API and compare; a bad record in the case raises InputError naming it."""
    import crewkg

    def rewrap(exc: InputError, key: str) -> InputError:
        field = f"{key}.{exc.field}" if exc.field else key
        return exc.at(case.where, field)

    if case.person is not None:
        try:
            answer = crewkg.check({"id": "case", **case.person}, as_of=case.as_of, lang=lang)
        except InputError as exc:
            raise rewrap(exc, "person") from None
        return Outcome(case, person_differences(case.expect, answer))
    try:
        answer = crewkg.crew({"id": "case", **(case.vessel or {})}, case.roster, as_of=case.as_of, lang=lang,
                             school_attendance=case.school_attendance)
    except InputError as exc:
        raise rewrap(exc, "roster" if exc.file.endswith("roster") else "vessel") from None
    return Outcome(case, vessel_differences(case.expect, answer))


def run_files(paths: Iterable[Path], lang: str = "de") -> list[Outcome]:
    """Read every file first (a bad file is reported before any case runs), then run every case."""
    cases = [c for f in case_files(paths) for c in load_cases(f)]
    return [run_case(c, lang) for c in cases]


def same(expected: Any, actual: Any) -> bool:
    """Equal, with lists of plain values compared as sets of values (their order carries no meaning)."""
    if isinstance(expected, list) and isinstance(actual, list):
        if all(not isinstance(x, dict | list) for x in expected + actual):
            return len(expected) == len(actual) and all(
                e == a and type(e) is type(a) or _number(e) and _number(a) and e == a
                for e, a in zip(sorted(expected, key=_key), sorted(actual, key=_key), strict=True))
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual, strict=True))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, date):
        expected = expected.isoformat()
    return expected == actual


def _key(value: Any) -> str:
    return json.dumps(float(value) if _number(value) else value, sort_keys=True, default=str)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def person_differences(expect: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Difference]:
    """What in an eligibility answer differs from the expectation."""
    out: list[Difference] = []

    def compare(at: str, expected: Any, actual: Any) -> None:
        if not same(expected, actual):
            out.append(Difference(at, expected, actual))

    by_id = {c["id"]: c for c in answer["certificates"]}
    for key, exp in expect.items():
        if key == "roles":
            compare("roles", exp, answer["roles"])
            continue
        if key == "satisfied_pathways":
            compare(key, exp, [w["provision"] for c in answer["certificates"] for w in c["pathways"] if w["satisfied"]])
            continue
        if key == "covered":
            compare(key, exp, answer.get("covered"))
            continue
        if key == "warnings":  # the kinds of the warnings the answer gives (an overlap of entries of the log)
            compare(key, exp, [w["kind"] for w in answer.get("warnings", [])])
            continue
        if key in LISTED_KEYS:
            out += _listed_differences(key, exp, answer.get(key, []))
            continue
        cert = by_id.get(key)
        if cert is None:
            out.append(Difference(key, "—", ABSENT))
            continue
        for flag in ("eligible", "covered"):
            if flag in exp:
                compare(f"{key}{SEP}{flag}", exp[flag], cert.get(flag))
        if "eligible_since" in exp:
            compare(f"{key}{SEP}eligible_since", exp["eligible_since"], cert.get("eligible_since"))
        if "pathway" not in exp:
            continue
        at = f"{key}{SEP}{exp['pathway']}"
        ways = [w for w in cert["pathways"] if w["provision"] == exp["pathway"]]
        if len(ways) != 1:
            out.append(Difference(at, exp["pathway"], ABSENT))
            continue
        way = ways[0]
        if "satisfied" in exp:
            compare(f"{at}{SEP}satisfied", exp["satisfied"], way["satisfied"])
        if "missing" in exp:
            expected_missing = [e if isinstance(e, str) else e["provision"] for e in exp["missing"]]
            compare(f"{at}{SEP}missing", expected_missing, [r["provision"] for r in way["missing"]])
            for e in exp["missing"]:
                if isinstance(e, dict):
                    out += _entry_differences(e, way["missing"], f"{at}{SEP}missing", must_fail=True)
        for e in exp.get("requirements", []):
            entry = e if isinstance(e, dict) else {"provision": e}
            out += _entry_differences(entry, way["requirements"], f"{at}{SEP}requirements", must_fail=False)
    return out


def _listed_differences(name: str, expected: list[Any], lapsed: list[dict[str, Any]]) -> list[Difference]:
    """Held certificates the answer lists under `name` (lapsed; other_readings): the same certificates, and for an
    entry written as a mapping its fields (the answer's entry of that certificate, of that reason where it names one)."""
    out: list[Difference] = []
    ids = [e if isinstance(e, str) else e.get("certificate") for e in expected]
    if not same(sorted(set(ids)), sorted({x["certificate"] for x in lapsed})):
        out.append(Difference(name, ids, [x["certificate"] for x in lapsed]))
    for e in expected:
        if not isinstance(e, dict):
            continue
        found = [x for x in lapsed if x["certificate"] == e.get("certificate")
                 and ("reason" not in e or x["reason"] == e["reason"])]
        where = f"{name}{SEP}{e.get('certificate')}"
        if not found:
            out.append(Difference(where, e.get("certificate"), ABSENT))
            continue
        for k in sorted(set(e) - {"certificate"}):
            have = found[0].get(k, ABSENT)
            if isinstance(e[k], dict) and isinstance(have, dict):  # a nested entry: the fields it names
                have = {f: have.get(f, ABSENT) for f in e[k]}
            if not same(e[k], have):
                out.append(Difference(f"{where}{SEP}{k}", e[k], have))
    return out


def _entry_differences(exp: Mapping[str, Any], entries: list[dict[str, Any]], at: str, must_fail: bool) -> list[Difference]:
    """One requirement: found by its provision, walked into its alternatives/parts by `at`, fields compared. A missing
    requirement (and the alternative or part named by `at`) is unmet unless the case says `met` itself."""
    found = [r for r in entries if r["provision"] == exp["provision"]]
    where = f"{at}{SEP}{exp['provision']}"
    if len(found) != 1:
        return [Difference(where, exp["provision"], ABSENT)]
    entry = found[0]
    out: list[Difference] = []
    if must_fail and entry.get("met") is not False:
        out.append(Difference(f"{where}{SEP}met", False, entry.get("met")))
    for step in exp.get("at", []):
        inner = entry.get("alternatives") or entry.get("parts") or []
        where += f"{SEP}[{step}]"
        if step > len(inner):
            return [*out, Difference(where, step, ABSENT)]
        entry = inner[step - 1]
    expected = dict(exp)
    if must_fail and exp.get("at"):
        expected.setdefault("met", False)
    for k in sorted(expected.keys() - {"provision", "at"}):
        if not same(expected[k], entry.get(k, ABSENT)):
            out.append(Difference(f"{where}{SEP}{k}", expected[k], entry.get(k, ABSENT)))
    return out


def vessel_differences(expect: Mapping[str, Any], answer: Mapping[str, Any]) -> list[Difference]:
    """What in a crew answer differs: each field as written; `functions` only for the functions named (null: none
    apply); `complete` is the roster verdict (true, false, or null when it cannot be decided)."""
    out: list[Difference] = []
    for key, exp in expect.items():
        if key == "complete":
            actual = (answer.get("roster") or {}).get("satisfied", ABSENT)
        elif key == "functions" and isinstance(exp, dict) and isinstance(answer.get("functions"), dict):
            for name, value in exp.items():
                have = answer["functions"].get(name, ABSENT)
                if not same(value, have):
                    out.append(Difference(f"functions{SEP}{name}", value, have))
            continue
        else:
            actual = answer.get(key, ABSENT)
        if not same(exp, actual):
            out.append(Difference(key, exp, actual))
    return out


def shown(value: Any) -> str:
    """A value as the case file would write it (true, null, a list), so a lawyer can copy it back."""
    if value is ABSENT:
        return "—"
    return json.dumps(value, ensure_ascii=False, default=str)
