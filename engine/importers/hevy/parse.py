"""A Hevy export read: one entry per workout (title and start time), one set per row."""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from engine.entries.model import SetKind
from engine.importers.common import (
    ImportResult,
    MissingColumnsError,
    NotASet,
    Progress,
    SetRow,
    WeightUnit,
    clean,
    duration_text,
    find_columns,
    read_table,
    read_workouts,
)
from engine.importers.common.numbers import read_numbers
from engine.importers.strong.names import ExerciseNamer

HEADERS: dict[str, tuple[str, ...]] = {
    "title": ("title",),
    "start": ("start_time",),
    "end": ("end_time",),
    "description": ("description",),
    "exercise": ("exercise_title",),
    "superset": ("superset_id",),
    "notes": ("exercise_notes",),
    "set_index": ("set_index",),
    "set_type": ("set_type",),
    "weight_kg": ("weight_kg",),
    "weight_lb": ("weight_lbs", "weight_lb"),
    "reps": ("reps",),
    "distance_km": ("distance_km",),
    "distance_mi": ("distance_miles", "distance_mi"),
    "seconds": ("duration_seconds",),
    "rpe": ("rpe",),
}
_KINDS: dict[str, SetKind] = {"normal": "normal", "warmup": "warmup", "dropset": "drop", "failure": "failure"}
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
# "5 Mar 2024, 18:00" (Hevy's own), with or without seconds or AM/PM; ISO as a fallback.
_WRITTEN = re.compile(
    r"(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?", re.IGNORECASE
)
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[ t](\d{1,2}):(\d{2})(?::(\d{2}))?", re.IGNORECASE)
MAX_REPS = 1000


@lru_cache(maxsize=4096)
def when(text: str) -> datetime:
    """A Hevy time (``5 Mar 2024, 18:00``).

    Raises:
        ValueError: not a time Hevy writes.
    """
    s = text.strip()
    if (m := _WRITTEN.fullmatch(s)) is not None:
        if m[2].casefold() not in _MONTHS:
            raise ValueError(text)
        hour = int(m[4])
        if m[7]:
            if not 1 <= hour <= 12:
                raise ValueError(text)
            hour = hour % 12 + (12 if m[7].casefold() == "pm" else 0)
        return datetime(int(m[3]), _MONTHS.index(m[2].casefold()) + 1, int(m[1]), hour, int(m[5]), int(m[6] or 0))
    if (m := _ISO.fullmatch(s)) is not None:
        return datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6] or 0))
    raise ValueError(text)


class HevyRows:
    """Reads Hevy rows into sets; ``set_index`` is 0-based, so set ``n`` is index ``n - 1``."""

    def __init__(self, index: dict[str, int]) -> None:
        self._index = index
        # The weight column's name says the unit, also for a bodyweight set with no weight.
        self._unit: WeightUnit = "lb" if "weight_lb" in index and "weight_kg" not in index else "kg"

    def _get(self, values: list[str], fld: str) -> str:
        i = self._index.get(fld)
        return values[i].strip() if i is not None and i < len(values) else ""

    def workout_of(self, values: list[str]) -> tuple[str, str]:
        try:
            start = when(self._get(values, "start")).isoformat()
        except ValueError:
            start = ""
        return start, clean(self._get(values, "title"))

    def read(self, line: int, values: list[str]) -> SetRow | NotASet | list[str]:
        get = self._get
        fields = ("weight_kg", "weight_lb", "reps", "distance_km", "distance_mi", "seconds", "rpe", "set_index")
        numbers, problems = read_numbers({fld: get(values, fld) for fld in fields})
        exercise = clean(get(values, "exercise"))
        if not exercise:
            problems.insert(0, "missing exercise_title")
        start_text = get(values, "start")
        try:
            start = when(start_text)
        except ValueError:
            problems.insert(0, f"bad start_time {start_text!r}" if start_text else "missing start_time")
            start = datetime.min
        set_type = get(values, "set_type").casefold()
        if set_type and set_type not in _KINDS:
            problems.append(f"unknown set_type {set_type!r}")
        if problems:
            return problems
        unit = self._unit
        # Hevy writes 0 or nothing for bodyweight.
        weight = (numbers.get("weight_lb") if unit == "lb" else numbers.get("weight_kg")) or None
        reps_value = numbers.get("reps")
        mi = numbers.get("distance_mi")
        distance, distance_unit = (mi, "mi") if mi else (numbers.get("distance_km") or None, "km")
        seconds = numbers.get("seconds") or None
        if reps_value == 0 and weight is None:
            reps_value = None
        if weight is None and reps_value is None and distance is None and seconds is None:
            return NotASet("no weight, reps, distance or time (an empty set)")
        if reps_value is not None and (reps_value != int(reps_value) or reps_value > MAX_REPS):
            return [f"reps {get(values, 'reps')!r} is not a whole number up to {MAX_REPS}"]
        reps = int(reps_value) if reps_value is not None else None
        index = numbers.get("set_index")
        kind = _KINDS.get(set_type, "normal")
        if reps == 0 and kind == "normal":
            kind = "failure"  # a weight with 0 reps: a failed attempt
        duration = ""
        try:
            end = when(get(values, "end"))
            duration = duration_text((end - start).total_seconds()) if end > start else ""
        except ValueError:
            pass
        return SetRow(
            line=line,
            day=start.date(),
            start=start.isoformat(),
            workout=clean(get(values, "title")),
            exercise=exercise,
            order=f"{index:g}" if index is not None else "",
            set_num=int(index) + 1 if index is not None and index == int(index) else None,
            label="",
            kind=kind,
            weight=weight,
            unit=unit,
            reps=reps,
            distance=distance,
            distance_unit=distance_unit,
            seconds=seconds,
            rpe=numbers.get("rpe"),
            notes=clean(get(values, "notes")),
            workout_notes=clean(get(values, "description")),
            duration=duration,
        )


def hevy_reader(header: list[str]) -> tuple[HevyRows, dict[str, str]]:
    """The reader of a Hevy file with this header, and field -> the header it reads.

    Raises:
        MissingColumnsError: title, start_time, exercise_title or set_index is missing.
    """
    index, names = find_columns(header, HEADERS)
    missing = [HEADERS[f][0] for f in ("title", "start", "exercise", "set_index") if f not in index]
    if missing:
        raise MissingColumnsError(missing, [h.strip() for h in header if h.strip()])
    return HevyRows(index), names


def parse_hevy_csv(text: str, *, user_key: str, namer: ExerciseNamer, progress: Progress | None = None) -> ImportResult:
    """Read a Hevy export (``workouts.csv``) into one entry per workout.

    Raises:
        MissingColumnsError: title, start_time, exercise_title or set_index is missing.
        ImportFormatError: the file is empty.
    """
    table = read_table(text)
    reader, names = hevy_reader(table.header)
    return read_workouts("hevy", table, reader, user_key=user_key, namer=namer, columns=names, progress=progress)


__all__ = ["HEADERS", "HevyRows", "hevy_reader", "parse_hevy_csv", "when"]
