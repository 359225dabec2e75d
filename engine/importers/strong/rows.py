"""One data row of a Strong file read and checked: numbers, date, units, or what is wrong."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from engine.importers.strong.columns import _clean
from engine.importers.strong.names import ExerciseNamer, WeightUnit

_MAX_REPS = 1000  # SetDetail's bound

_DATE = re.compile(
    r"(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\.?"
    r"(?:[\sT]+(?:(am|pm|오전|오후)\s*)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(am|pm|오전|오후)?)?"
    r"\s*(?:z|[+-]\d{2}:?\d{2})?",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def _num(x: float) -> str:
    return f"{x:g}"


def _number(text: str) -> float | None:
    """A number as Strong writes it (``62.5``, ``62,5``, ``1.234,5``); None when blank.

    Raises:
        ValueError: not a number.
    """
    s = text.strip().replace("\u00a0", "").replace(" ", "")
    if not s:
        return None
    if "," in s and "." in s:
        thousands = "." if s.rfind(",") > s.rfind(".") else ","
        s = s.replace(thousands, "")
    s = s.replace(",", ".")
    if not _NUMBER.fullmatch(s):
        raise ValueError(text)
    value = float(s)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


@lru_cache(maxsize=4096)  # every set row of a workout repeats its start time
def _when(text: str) -> tuple[date, str]:
    """The workout's day and its normalized start (``2024-01-15T18:30:00``).

    Raises:
        ValueError: not a date Strong writes.
    """
    s = unicodedata.normalize("NFC", text).replace("\u202f", " ").replace("\u00a0", " ").strip()
    m = _DATE.fullmatch(s)
    if m is None:
        raise ValueError(text)
    day = date(int(m[1]), int(m[2]), int(m[3]))
    if m[5] is None:
        return day, day.isoformat()
    hour, minute, second = int(m[5]), int(m[6]), int(m[7] or 0)
    meridiem = (m[4] or m[8] or "").casefold()
    if meridiem:
        if not 1 <= hour <= 12:
            raise ValueError(text)
        hour = hour % 12 + (12 if meridiem in ("pm", "오후") else 0)
    start = datetime(day.year, day.month, day.day, hour, minute, second)
    return day, start.isoformat()


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    day: date
    start: str
    workout: str
    exercise: str
    set_order: str
    weight: float | None
    unit: WeightUnit
    reps: int | None
    distance: float | None
    distance_unit: str
    seconds: float | None
    rpe: float | None
    notes: str
    workout_notes: str
    duration: str

    def identity(self) -> tuple[str, str]:
        return self.start, self.workout

    def fingerprint(self) -> list[Any]:
        """The row's content, independent of how the file spelled its numbers."""
        return [
            self.exercise, self.set_order, self.weight, self.unit, self.reps,
            self.distance, self.distance_unit, self.seconds, self.rpe,
        ]  # fmt: skip


class _RowReader:
    def __init__(self, index: dict[str, int], namer: ExerciseNamer, default_unit: WeightUnit) -> None:
        self._index = index
        self._namer = namer
        self._default_unit = default_unit

    def _get(self, values: list[str], fld: str) -> str:
        i = self._index.get(fld)
        return values[i].strip() if i is not None and i < len(values) else ""

    def read(self, line: int, values: list[str], problems: list[str]) -> _Row | None:
        """The row, or None (with ``problems`` filled when it is malformed, empty when it is ignorable)."""
        get = self._get
        raw_date, exercise = get(values, "date"), _clean(get(values, "exercise"))
        numbers: dict[str, float | None] = {}
        for fld in ("weight", "reps", "distance", "seconds", "rpe"):
            text = get(values, fld)
            try:
                value = _number(text)
            except ValueError:
                problems.append(f"{fld} {text!r} is not a number")
                continue
            if value is not None and value < 0:
                problems.append(f"{fld} {text!r} is negative")
                continue
            # Strong writes 0 for "not filled in" (and 0 kg means bodyweight).
            numbers[fld] = None if value == 0 and fld != "rpe" else value
        if not problems and all(numbers.get(f) is None for f in ("weight", "reps", "distance", "seconds")):
            return None  # a rest-timer row, an empty set, or a line of bare separators
        try:
            day, start = _when(raw_date)
        except ValueError:
            problems.insert(0, f"bad date {raw_date!r}" if raw_date else "missing date")
            day, start = date.min, ""
        if not exercise:
            problems.insert(0, "missing exercise name")
        reps_value = numbers.get("reps")
        reps: int | None = None
        if reps_value is not None:
            if reps_value != int(reps_value):
                problems.append(f"reps {get(values, 'reps')!r} is not a whole number")
            elif reps_value > _MAX_REPS:
                problems.append(f"reps {get(values, 'reps')!r} is more than {_MAX_REPS}")
            else:
                reps = int(reps_value)
        unit: WeightUnit = self._default_unit
        unit_text = get(values, "weight_unit")
        if unit_text:
            found = self._namer.weight_unit(unit_text)
            if found is None:
                problems.append(f"unknown weight unit {unit_text!r}")
            else:
                unit = found
        distance_unit = "km"
        distance_text = get(values, "distance_unit")
        if distance_text:
            found_distance = self._namer.distance_unit(distance_text)
            if found_distance is None:
                problems.append(f"unknown distance unit {distance_text!r}")
            else:
                distance_unit = found_distance
        if not problems and reps is None and numbers.get("distance") is None and numbers.get("seconds") is None:
            problems.append("a weight without reps, seconds or distance")
        if problems:
            return None
        order = get(values, "set_order")
        try:
            parsed_order = _number(order)
            order = _num(parsed_order) if parsed_order is not None else order.casefold()
        except ValueError:
            order = order.casefold()
        return _Row(
            line=line,
            day=day,
            start=start,
            workout=_clean(get(values, "workout")),
            exercise=exercise,
            set_order=order,
            weight=numbers.get("weight"),
            unit=unit,
            reps=reps,
            distance=numbers.get("distance"),
            distance_unit=distance_unit,
            seconds=numbers.get("seconds"),
            rpe=numbers.get("rpe"),
            notes=_clean(get(values, "notes")),
            workout_notes=_clean(get(values, "workout_notes")),
            duration=_clean(get(values, "duration")),
        )
