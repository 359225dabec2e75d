"""FitNotes CSV exports -> entries, without the model.

FitNotes writes ``Date, Exercise, Category, Weight (kgs) | Weight (lbs),
Reps, Distance, Distance Unit, Time[, Comment]``: one row per set, no workout
names and no set numbers. A day's rows are one workout; sets are numbered per
exercise in the order the file lists them. The weight column's name says the
unit; the ``Cardio`` category marks cardio; a weight with 0 reps is a failed
attempt. Everything else works as for Strong (:mod:`engine.importers.strong`).
"""

from engine.importers.fitnotes.parse import fitnotes_reader, parse_fitnotes_csv

__all__ = ["fitnotes_reader", "parse_fitnotes_csv"]
