"""Building a workout's entry moved to :mod:`engine.importers.common.workout`, shared by every importer."""

from engine.importers.common.workout import build_entry, workout_identity

__all__ = ["build_entry", "workout_identity"]
