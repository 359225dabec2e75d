"""A whole Strong export read: rows grouped into workouts, problems reported by line."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.importers.strong.columns import (
    _LABELS,
    ImportFormatError,
    MissingColumnsError,
    _columns,
    _delimiter,
)
from engine.importers.strong.entries import _entry
from engine.importers.strong.names import ExerciseNamer, WeightUnit
from engine.importers.strong.rows import _Row, _RowReader
from engine.entries.model import NewEntry

Progress = Callable[[int, int], None]
"""``progress(done, total)``, in data rows."""


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A row left out of the import."""

    line: int
    """1-based line in the file where the row starts (the header is line 1)."""
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(slots=True)
class StrongImport:
    """What a file holds: entries ready to store, and what was left out."""

    entries: list[NewEntry]
    """One per workout, oldest first."""
    rows_per_entry: list[int]
    """Data rows behind each entry (parallel to ``entries``), for progress."""
    problems: list[RowProblem]
    rows: int
    """Data rows read (header and blank lines not counted)."""
    ignored: int
    """Rows without any performance (rest timers, empty sets)."""
    delimiter: str
    columns: dict[str, str] = field(default_factory=dict)
    """Field -> the header it was read from."""


def parse_strong_csv(
    text: str,
    *,
    user_key: str,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    progress: Progress | None = None,
) -> StrongImport:
    """Read a Strong export into one entry per workout.

    Args:
        text: The file's text (see :func:`decode` for bytes).
        user_key: Whose entries these are; part of every ``source_key``.
        namer: Exercise vocabulary (:meth:`ExerciseNamer.from_registry`).
        default_unit: Weight unit when the file has no ``Weight Unit`` column.
        progress: Called with (rows done, rows total) while reading.

    Raises:
        MissingColumnsError: Date, Exercise Name, or both Reps and Seconds are missing.
        ImportFormatError: the file is empty.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ImportFormatError("the file is empty")
    delimiter = _delimiter(lines[first])
    skip = 0
    if (hint := lines[first].strip()).casefold().startswith("sep=") and len(hint) == 5:
        delimiter, skip = hint[4], first + 1  # Excel's "sep=;" first line
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    header: list[str] | None = None
    last = 0
    for values in reader:
        start, last = last + 1, reader.line_num
        if start <= skip:
            continue
        if header is None:
            if any(v.strip() for v in values):
                header = values
            continue
        if values:
            records.append((start, values))
    if header is None:
        raise ImportFormatError("the file has no header line")
    index, names = _columns(header)
    missing = [_LABELS[f] for f in ("date", "exercise") if f not in index]
    if "reps" not in index and "seconds" not in index:
        missing.append(f"{_LABELS['reps']} or {_LABELS['seconds']}")
    if missing:
        raise MissingColumnsError(missing, [h.strip() for h in header if h.strip()])

    row_reader = _RowReader(index, namer, default_unit)
    problems: list[RowProblem] = []
    workouts: dict[tuple[str, str], list[_Row]] = {}
    ignored = 0
    total = len(records)
    for done, (line, values) in enumerate(records, 1):
        reasons: list[str] = []
        if len(values) > len(header) and any(v.strip() for v in values[len(header) :]):
            reasons.append(f"{len(values)} fields but the header has {len(header)} (a stray {delimiter!r}?)")
            row = None
        else:
            row = row_reader.read(line, values, reasons)
        if reasons:
            problems.append(RowProblem(line, "; ".join(reasons)))
        elif row is None:
            ignored += 1
        else:
            workouts.setdefault(row.identity(), []).append(row)
        if progress is not None and (done % 500 == 0 or done == total):
            progress(done, total)

    ordered = sorted(workouts.items(), key=lambda item: (item[0][0], item[1][0].line))
    entries = [_entry(user_key, rows, namer) for _, rows in ordered]
    return StrongImport(
        entries=entries,
        rows_per_entry=[len(rows) for _, rows in ordered],
        problems=problems,
        rows=total,
        ignored=ignored,
        delimiter=delimiter,
        columns=names,
    )
