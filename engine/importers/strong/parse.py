"""A whole Strong export read into one entry per workout, every row kept or reported by line."""

from __future__ import annotations

from engine.importers.common import (
    ImportResult,
    MissingColumnsError,
    Progress,
    WeightUnit,
    find_columns,
    read_table,
    read_workouts,
)
from engine.importers.strong.columns import HEADERS, LABELS
from engine.importers.strong.names import ExerciseNamer
from engine.importers.strong.rows import StrongRows

StrongImport = ImportResult
"""What :func:`parse_strong_csv` returns (the name earlier versions used)."""


def strong_reader(
    header: list[str], *, namer: ExerciseNamer, default_unit: WeightUnit = "kg"
) -> tuple[StrongRows, dict[str, str]]:
    """The reader of a Strong file with this header, and field -> the header it reads.

    Raises:
        MissingColumnsError: Date, Exercise Name, or both Reps and Seconds are missing.
    """
    index, names = find_columns(header, HEADERS)
    missing = [LABELS[f] for f in ("date", "exercise") if f not in index]
    if "reps" not in index and "seconds" not in index:
        missing.append(f"{LABELS['reps']} or {LABELS['seconds']}")
    if missing:
        raise MissingColumnsError(missing, [h.strip() for h in header if h.strip()])
    return StrongRows(index, namer, default_unit), names


def parse_strong_csv(
    text: str,
    *,
    user_key: str,
    namer: ExerciseNamer,
    default_unit: WeightUnit = "kg",
    progress: Progress | None = None,
) -> ImportResult:
    """Read a Strong export into one entry per workout.

    Args:
        text: The file's text (see :func:`~engine.importers.common.decode` for bytes).
        user_key: Whose entries these are; part of every ``source_key``.
        namer: Exercise vocabulary (:meth:`ExerciseNamer.from_registry`).
        default_unit: Weight unit when the file has no ``Weight Unit`` column.
        progress: Called with (rows done, rows total) while reading.

    Raises:
        MissingColumnsError: Date, Exercise Name, or both Reps and Seconds are missing.
        ImportFormatError: the file is empty.
    """
    table = read_table(text)
    reader, names = strong_reader(table.header, namer=namer, default_unit=default_unit)
    return read_workouts("strong", table, reader, user_key=user_key, namer=namer, columns=names, progress=progress)
