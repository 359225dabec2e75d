"""What the importers share: reading a CSV export, numbers and times, the checked set row, and the workout entry.

Each app's package (:mod:`~engine.importers.strong`, :mod:`~engine.importers.hevy`,
:mod:`~engine.importers.fitnotes`) only knows its own columns and how its
rows are written; it reads each row into a :class:`SetRow` (or a
:class:`RowProblem` saying why not) and hands a workout's rows to
:func:`build_entry`.
"""

from engine.importers.common.csvfile import (
    ImportFormatError,
    MissingColumnsError,
    Records,
    Table,
    clean,
    decode,
    find_columns,
    fold,
    read_records,
    read_table,
)
from engine.importers.common.numbers import clock, duration_text, num, number, seconds_of
from engine.importers.common.reading import (
    LeftOut,
    NotASet,
    RowReader,
    Workout,
    WorkoutKey,
    WorkoutReader,
    read_workouts,
)
from engine.importers.common.rows import App, ImportResult, Progress, RowProblem, SetRow, WeightUnit
from engine.importers.common.textfile import TextFile, encodings
from engine.importers.common.workout import APP_TITLES, KM_PER_UNIT, build_entry, source_key, workout_identity

__all__ = [
    "APP_TITLES",
    "KM_PER_UNIT",
    "App",
    "ImportFormatError",
    "ImportResult",
    "LeftOut",
    "MissingColumnsError",
    "NotASet",
    "Progress",
    "Records",
    "RowProblem",
    "RowReader",
    "SetRow",
    "Table",
    "TextFile",
    "WeightUnit",
    "Workout",
    "WorkoutKey",
    "WorkoutReader",
    "build_entry",
    "clean",
    "clock",
    "decode",
    "duration_text",
    "encodings",
    "find_columns",
    "fold",
    "num",
    "number",
    "read_records",
    "read_table",
    "read_workouts",
    "seconds_of",
    "source_key",
    "workout_identity",
]
