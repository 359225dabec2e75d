"""Strong app CSV exports -> entries, without the model.

One entry per workout: rows are grouped by (Date, Workout Name), which is how
Strong writes a workout (every set row carries the workout's start time).

* Headers are matched by name, in English or in a localized export (the
  Korean one says ``날짜, 워크아웃 이름, 운동 이름, 세트 순서, 체중, 렙, …``);
  unknown columns are ignored, optional ones may be missing.
* The delimiter (``,`` ``;`` or tab) is read off the header line; decimal
  commas (``62,5``) are accepted.
* A row that cannot be read (bad date, a non-number where a number belongs,
  no exercise) is reported with its line number and left out; the rest of the
  file is imported. Rows with no performance at all (Strong's rest-timer and
  empty sets: no weight, reps, distance or seconds) are ignored silently.
* Exercise names are mapped to canonical vocabulary terms (``Bench Press
  (Barbell)`` -> ``bench press``, ``Bench Press (Dumbbell)`` -> ``dumbbell
  bench press``, ``벤치프레스 (바벨)`` -> ``bench press``); the name as written
  is kept as ``source_name``.
* Cardio exercises (a running or general-fitness term such as ``Running
  (Treadmill)`` or ``Cycling (Indoor)``, or distance rows without weight) go
  to ``data["cardio"]``. A workout with only cardio becomes a ``running``
  entry when every cardio exercise is running, else ``general_fitness``; a
  workout with any strength sets is one ``strength`` entry.
* ``source_key`` is ``strong:<sha256>`` of the user and the workout's
  normalized rows, so importing the same file again, or a newer export that
  overlaps it, adds nothing for workouts already stored. The workout's
  identity (start time and name) is kept in ``data["import"]`` so that a
  workout edited in Strong since the last import can replace the old entry.

Nothing here prints, reads settings or touches the database.

Where it lives: :mod:`~engine.importers.strong.columns` decodes the file and
finds the columns, :mod:`~engine.importers.strong.rows` reads one row,
:mod:`~engine.importers.strong.names` maps exercise names,
:mod:`~engine.importers.strong.entries` builds a workout's entry and
:mod:`~engine.importers.strong.parse` runs the whole file through them.
"""

from engine.importers.strong.columns import ImportFormatError, MissingColumnsError, decode
from engine.importers.strong.entries import workout_identity
from engine.importers.strong.names import ExerciseNamer, WeightUnit
from engine.importers.strong.parse import Progress, RowProblem, StrongImport, parse_strong_csv

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
    "workout_identity",
]
