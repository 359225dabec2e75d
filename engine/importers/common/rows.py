"""What every importer reads a file into: one checked set per row, and what was left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from engine.entries.model import NewEntry, SetKind

WeightUnit = Literal["kg", "lb"]
App = Literal["strong", "hevy", "fitnotes"]

Progress = Callable[[int, int], None]
"""``progress(done, total)``, in data rows."""


@dataclass(frozen=True, slots=True)
class SetRow:
    """One set as an app exported it, read and checked (every importer produces these)."""

    line: int
    """1-based line of the file where the row starts."""
    day: date
    start: str
    """The workout's start, ``2024-01-15T18:30:00`` (or only the day when the app has no time)."""
    workout: str
    """The workout's name as written (empty when the app has none)."""
    exercise: str
    """The exercise's name as written."""
    order: str
    """The set's place as the app wrote it, normalized (``3``, ``w``); part of the workout's identity."""
    set_num: int | None
    """The app's own set number (1-based), None when its label is no number (Strong's ``W``)."""
    label: str
    """The label as written when it is no number (``W``, ``D``), for an export that gives it back."""
    kind: SetKind
    weight: float | None
    unit: WeightUnit
    reps: int | None
    distance: float | None
    distance_unit: str
    seconds: float | None
    rpe: float | None
    notes: str
    """Notes on this set (or its exercise, as the app repeats them on every row)."""
    workout_notes: str = ""
    duration: str = ""
    """The workout's length as written (``1h 5m``)."""
    cardio_hint: bool = False
    """The app files the exercise as cardio (FitNotes' category)."""

    def identity(self) -> tuple[str, str]:
        return self.start, self.workout

    def fingerprint(self) -> list[Any]:
        """The row's content, independent of how the file spelled its numbers.

        The same list Strong imports have always hashed, so workouts imported
        before keep their keys; a kind the label does not already say (a
        failed attempt, Hevy's set types) is added.
        """
        base: list[Any] = [
            self.exercise, self.order, self.weight, self.unit, self.reps,
            self.distance, self.distance_unit, self.seconds, self.rpe,
        ]  # fmt: skip
        return [*base, self.kind] if self.kind != "normal" and not self.label else base


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A row left out of the import, and why."""

    line: int
    """1-based line in the file where the row starts (the header is line 1)."""
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(slots=True)
class ImportResult:
    """What a file holds: entries ready to store, and every row left out with its reason."""

    app: App
    entries: list[NewEntry]
    """One per workout, oldest first."""
    rows_per_entry: list[int]
    """Data rows behind each entry (parallel to ``entries``), for progress."""
    problems: list[RowProblem]
    """Rows that could not be read (a bad number, date or unit)."""
    ignored: list[RowProblem]
    """Rows that are no set (rest timers, empty sets), each with what it was."""
    rows: int
    """Data rows read (header and blank lines not counted)."""
    delimiter: str
    columns: dict[str, str] = field(default_factory=dict)
    """Field -> the header it was read from."""

    @property
    def sets(self) -> int:
        """Set rows kept."""
        return sum(self.rows_per_entry)
