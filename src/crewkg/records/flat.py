"""Flat records: a person record as one CSV row, its nested keys flattened with dots (`sailing_days.Matrose`,
`apprenticeship.year`, one completed programme as `programme.*`, lists separated by `;`, `,` or spaces).
Cohort files and registers read CSV through here, so the columns are defined once."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from crewkg.errors import InputError
from crewkg.law.statute import Law
from crewkg.records.persons import APPRENTICESHIP_YEAR_MAX, near
from crewkg.records.reading import MAX_BYTES, read_text

#: the longest cell a row may have (the csv module's default limit): no column holds anything near it
MAX_CELL = 131_072
BOOL = {"true": True, "yes": True, "ja": True, "1": True, "false": False, "no": False, "nein": False, "0": False}


#: each column's kind: how its cell is read; a number's kind is the record check's expectation for it
#: (`error.expected.<kind>`), so a cell that is no number says its unit as the record's field would
SCALAR_COLUMNS = {
    "id": "str", "birth_date": "str", "medical_fitness": "medical", "radio_certificate": "bool",
    "basic_safety_training": "bool", "apprenticeship.contract": "bool", "apprenticeship.year": "apprenticeship_year",
    "sea_days.deck_crew": "days", "sea_days.master": "days", "professional_experience_years": "years",
    "vocational_training_years": "years", "inland_training_days": "days", "programme.for": "str",
    "programme.months": "months", "programme.sailing_days": "days", "programme.sailing_days_after": "days",
    "exams": "list", "certificates": "list", "functions": "list",
}
#: the number kinds read as whole numbers (the others, years, as any number)
WHOLE = {"days", "months", "apprenticeship_year"}


def columns(law: Law) -> dict[str, str]:
    """The CSV columns a cohort file may have: the person record's keys, flattened with dots."""
    cols = dict(SCALAR_COLUMNS)
    for role in law.ids_of("DeckCrewRole"):
        cols[f"sailing_days.{role}"] = "days"
    return cols


def _cell(value: str, kind: str, source: str, column: str) -> Any:
    v = value.strip()
    if kind == "str":
        return v
    if kind == "list":
        return [x for x in re.split(r"[;,\s]+", v) if x]
    if kind == "bool" or (kind == "medical" and v.lower() in BOOL):
        if v.lower() not in BOOL:
            raise InputError(source, column, "csv_boolean", v)
        return BOOL[v.lower()]
    if kind == "medical":  # a date: medical fitness valid until then
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            raise InputError(source, column, "csv_medical", v)
        return {"valid_until": v}  # the record check names an impossible date (2027-02-30) under valid_until
    try:
        return int(v) if kind in WHOLE else float(v)
    except ValueError:
        raise InputError(source, column, kind, v, most=APPRENTICESHIP_YEAR_MAX) from None


def flat_record(row: dict[str, str], cols: dict[str, str], source: str) -> dict[str, Any] | list[InputError]:
    """A CSV row as a person record mapping (empty cells are left out, as a missing key means 'none'), or the error of
    every cell that cannot be read, in column order."""
    rec: dict[str, Any] = {}
    errors: list[InputError] = []
    for column, value in row.items():
        if value is None or not value.strip():
            continue
        if len(value) > MAX_CELL:  # csv's own limit once, which raised out of the reader (issue 44)
            errors.append(InputError(source, column, "csv_cell_size", value, most=MAX_CELL))
            continue
        try:
            v = _cell(value, cols[column], source, column)
        except InputError as exc:
            errors.append(exc)
            continue
        if "." in column:
            outer, inner = column.split(".", 1)
            if outer == "programme":  # one completed programme per row
                rec.setdefault("programmes", [{}])[0][inner] = v
                continue
            rec.setdefault(outer, {})[inner] = v
        else:
            rec[column] = v
    return errors or rec



def csv_rows(path: Path, law: Law, what: str = "csv",
             extra: dict[str, str] | None = None) -> Iterator[tuple[str, int, str, dict[str, Any] | list[InputError]]]:
    """Each data row of a flat-record CSV file as (its source, the line of the file it begins on, its `id` cell, its
    record mapping or the errors that refuse the row, each bad cell's: a row refused for another cell is still named by
    its id). The line is the row's in the file, blank lines and cells that span lines counted ('row 4': line 4).
    A bad header (no `id` column, an unknown or repeated column) refuses the whole file. `extra` names columns a kind of file
    adds to the record's (a cohort's `record`)."""
    csv.field_size_limit(max(csv.field_size_limit(), MAX_BYTES))  # a long cell is read, then refused by its name
    reader = csv.DictReader(io.StringIO(read_text(path, what)))
    cols = columns(law) | (extra or {})
    header = reader.fieldnames or []
    if "id" not in header:
        if len(header) == 1 and ";" in header[0]:  # a spreadsheet's export in a German locale
            raise InputError(str(path), "", "csv_semicolons", header[0])
        raise InputError(str(path), "id", "csv_header", columns=", ".join(sorted(cols)))
    for i, h in enumerate(header):
        if h in header[:i]:  # csv.DictReader would keep the last cell of the two: never a silent choice
            raise InputError(str(path), h, "csv_duplicate_column", h)
        if h not in cols:
            raise InputError(str(path), h, "csv_column", h, columns=sorted(cols), near=near(h, cols))
    for row in reader:
        n = reader.line_num - sum(c.count("\n") for c in _cells(row))  # the line the row ends on, less its cells' breaks
        source = f"{path}: row {n}"
        rid = row["id"].strip() if isinstance(row.get("id"), str) else ""
        if None in row or None in row.values():  # more cells than the header, or fewer (never read as blanks)
            yield source, n, rid, [InputError(source, "", "csv_cells", n=len(header))]
            continue
        yield source, n, rid, flat_record(row, cols, source)


def _cells(row: dict[str | None, Any]) -> list[str]:
    """The cells of a row csv.DictReader read: those under the header and any beyond it (under None)."""
    return [c for k, v in row.items() for c in (v if k is None else [v]) if isinstance(c, str)]
