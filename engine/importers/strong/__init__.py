"""Strong app CSV exports -> entries, without the model.

One entry per workout: rows are grouped by (Date, Workout Name), which is how
Strong writes a workout (every set row carries the workout's start time).

* Headers are matched by name, in English or in a localized export (the
  Korean one says ``날짜, 워크아웃 이름, 운동 이름, 세트 순서, 체중, 렙, …``);
  the current export (``Duration``, no unit columns) and the legacy one
  (semicolons, ``Weight Unit``, ``Distance Unit``, ``Workout Duration``) are
  both read; unknown columns are ignored, optional ones may be missing.
* The delimiter (``,`` ``;`` or tab) is read off the header line; decimal
  commas (``62,5``) and 12-hour times (``8:05:00 AM``, ``오후 6:30``) are accepted.
* Every row is kept or reported with its line number and the true reason: a
  row that cannot be read (bad date, a non-number where a number belongs, no
  exercise) is a problem; a rest-timer row (``Rest Timer`` in the set order)
  or an empty set is reported as no set.
* Set orders are kept, never renumbered: ``W`` is a warm-up, ``D`` a drop set,
  ``F`` a failure, and a weight with 0 reps a failed attempt (kind
  ``failure``, 0 reps: never a record).
* Exercise names are mapped to canonical vocabulary terms, equipment variants
  staying distinct (``Bench Press (Barbell)`` -> ``bench press``, ``Bench
  Press (Dumbbell)`` -> ``dumbbell bench press``); the name as written is kept
  as ``source_name``. Cardio goes to ``data["cardio"]``.
* ``source_key`` is ``strong:<sha256>`` of the user and the workout's
  normalized rows, so importing the same file again, or a newer export that
  overlaps it, adds nothing for workouts already stored. The workout's
  identity (start time and name) is kept in ``data["import"]`` so that a
  workout edited in Strong since the last import can replace the old entry.

Nothing here prints, reads settings or touches the database.

Where it lives: :mod:`~engine.importers.strong.columns` knows the headers,
:mod:`~engine.importers.strong.rows` reads one row,
:mod:`~engine.importers.strong.names` maps exercise names (every importer
uses it), :mod:`~engine.importers.strong.parse` runs the file through them;
what all importers share is in :mod:`engine.importers.common`.
"""

from engine.importers.common import (
    ImportFormatError,
    MissingColumnsError,
    Progress,
    RowProblem,
    WeightUnit,
    decode,
    workout_identity,
)
from engine.importers.strong.names import ExerciseNamer
from engine.importers.strong.parse import StrongImport, parse_strong_csv, strong_reader

__all__ = [
    "ExerciseNamer",
    "ImportFormatError",
    "MissingColumnsError",
    "Progress",
    "RowProblem",
    "StrongImport",
    "WeightUnit",
    "decode",
    "parse_strong_csv",
    "strong_reader",
    "workout_identity",
]
