"""One data row of a Strong file read and checked: numbers, date, units, set order and kind."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from functools import lru_cache

from engine.entries.model import SetKind
from engine.importers.common import NotASet, SetRow, WeightUnit, clean, clock, num, number
from engine.importers.common.numbers import read_numbers
from engine.importers.strong.names import ExerciseNamer

MAX_REPS = 1000  # SetDetail's bound

_DATE = re.compile(
    r"(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\.?"
    r"(?:[\sT]+(?:(am|pm|오전|오후)\s*)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(am|pm|오전|오후)?)?"
    r"\s*(?:z|[+-]\d{2}:?\d{2})?",
    re.IGNORECASE,
)
# Strong's set-order letters: warm-up, drop set, failure.
_LETTER_KINDS: dict[str, SetKind] = {"w": "warmup", "d": "drop", "f": "failure"}
_REST_TIMER = ("rest timer", "휴식 타이머", "휴식")


@lru_cache(maxsize=4096)  # every set row of a workout repeats its start time
def when(text: str) -> tuple[date, str]:
    """The workout's day and its normalized start (``2024-01-15T18:30:00``), from 24- or 12-hour times.

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


class StrongRows:
    """Reads Strong rows into sets.

    Args:
        index: Field -> column (:data:`~engine.importers.strong.columns.HEADERS`).
        namer: For the unit columns' spellings.
        default_unit: Weight unit when the file has no unit column.
    """

    def __init__(self, index: dict[str, int], namer: ExerciseNamer, default_unit: WeightUnit) -> None:
        self._index = index
        self._namer = namer
        self._default_unit = default_unit
        self._weight_units: dict[str, WeightUnit] = {}

    def _get(self, values: list[str], fld: str) -> str:
        i = self._index.get(fld)
        return values[i].strip() if i is not None and i < len(values) else ""

    def workout_of(self, values: list[str]) -> tuple[str, str]:
        try:
            start = when(self._get(values, "date"))[1]
        except ValueError:
            start = ""
        return start, clean(self._get(values, "workout"))

    def read(self, line: int, values: list[str]) -> SetRow | NotASet | list[str]:
        get = self._get
        raw_date, exercise, order_text = get(values, "date"), clean(get(values, "exercise")), get(values, "set_order")
        fields = ("weight", "reps", "distance", "seconds", "rpe")
        numbers, problems = read_numbers({fld: get(values, fld) for fld in fields}, keep_negative=False)
        if not problems and (order_text.casefold() in _REST_TIMER or exercise.casefold() in _REST_TIMER):
            rest = numbers.get("seconds")
            return NotASet(f"a rest timer ({clock(rest)}), not a set" if rest else "a rest timer, not a set")
        weight, reps_value = numbers.get("weight") or None, numbers.get("reps")
        # Strong writes 0 for "not filled in" (and 0 kg means bodyweight); 0 reps
        # under a weight is a failed attempt, kept as one.
        if reps_value == 0 and weight is None:
            reps_value = None
        distance, seconds = numbers.get("distance") or None, numbers.get("seconds") or None
        if not problems and weight is None and reps_value is None and distance is None and seconds is None:
            return NotASet("no weight, reps, distance or time (an empty set)")
        try:
            day, start = when(raw_date)
        except ValueError:
            problems.insert(0, f"bad date {raw_date!r}" if raw_date else "missing date")
            day, start = date.min, ""
        if not exercise:
            problems.insert(0, "missing exercise name")
        reps: int | None = None
        if reps_value is not None:
            if reps_value != int(reps_value):
                problems.append(f"reps {get(values, 'reps')!r} is not a whole number")
            elif reps_value > MAX_REPS:
                problems.append(f"reps {get(values, 'reps')!r} is more than {MAX_REPS}")
            else:
                reps = int(reps_value)
        unit: WeightUnit = self._default_unit
        if unit_text := get(values, "weight_unit"):
            found = self._weight_units.get(unit_text)
            if found is None and (found := self._namer.weight_unit(unit_text)) is not None:
                self._weight_units[unit_text] = found  # the same few spellings on every row
            if found is None:
                problems.append(f"unknown weight unit {unit_text!r}")
            else:
                unit = found
        distance_unit = "km"
        if distance_text := get(values, "distance_unit"):
            found_distance = self._namer.distance_unit(distance_text)
            if found_distance is None:
                problems.append(f"unknown distance unit {distance_text!r}")
            else:
                distance_unit = found_distance
        if problems:
            return problems
        order, set_num, label = _order(order_text)
        kind = _LETTER_KINDS.get(order, "failure" if reps == 0 and weight is not None else "normal")
        return SetRow(
            line=line,
            day=day,
            start=start,
            workout=clean(get(values, "workout")),
            exercise=exercise,
            order=order,
            set_num=set_num,
            label=label,
            kind=kind,
            weight=weight,
            unit=unit,
            reps=reps,
            distance=distance,
            distance_unit=distance_unit,
            seconds=seconds,
            rpe=numbers.get("rpe"),
            notes=clean(get(values, "notes")),
            workout_notes=clean(get(values, "workout_notes")),
            duration=clean(get(values, "duration")),
        )


def _order(text: str) -> tuple[str, int | None, str]:
    """(the order normalized as Strong imports have always hashed it, its number, its label if no number)."""
    try:
        value = number(text)
    except ValueError:
        value = None
    if value is None:
        return text.casefold(), None, text
    order = num(value)
    return order, (int(value) if value >= 1 and value == int(value) else None), ""
