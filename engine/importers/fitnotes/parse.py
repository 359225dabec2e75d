"""A FitNotes export read: one entry per day, sets numbered per exercise in the order the file lists them."""

from __future__ import annotations

from datetime import date

from engine.importers.common import (
    ImportResult,
    MissingColumnsError,
    NotASet,
    Progress,
    SetRow,
    WeightUnit,
    clean,
    find_columns,
    fold,
    read_table,
    read_workouts,
    seconds_of,
)
from engine.importers.common.numbers import read_numbers
from engine.importers.strong.names import ExerciseNamer

HEADERS: dict[str, tuple[str, ...]] = {
    "date": ("date",),
    "exercise": ("exercise",),
    "category": ("category",),
    "weight_kg": ("weight (kgs)", "weight (kg)"),
    "weight_lb": ("weight (lbs)", "weight (lb)"),
    "reps": ("reps",),
    "distance": ("distance",),
    "distance_unit": ("distance unit",),
    "time": ("time",),
    "comment": ("comment",),
}
_CARDIO = ("cardio", "유산소")
MAX_REPS = 1000


class FitNotesRows:
    """Reads FitNotes rows into sets; FitNotes has no set numbers, so they count per day and exercise."""

    def __init__(self, index: dict[str, int], namer: ExerciseNamer) -> None:
        self._index = index
        self._namer = namer
        self._unit: WeightUnit = "lb" if "weight_lb" in index and "weight_kg" not in index else "kg"
        self._counts: dict[tuple[str, str], int] = {}

    def _get(self, values: list[str], fld: str) -> str:
        i = self._index.get(fld)
        return values[i].strip() if i is not None and i < len(values) else ""

    def workout_of(self, values: list[str]) -> tuple[str, str]:
        try:
            return date.fromisoformat(self._get(values, "date")).isoformat(), ""
        except ValueError:
            return "", ""

    def read(self, line: int, values: list[str]) -> SetRow | NotASet | list[str]:
        get = self._get
        # The place in the day's list is counted over every row, so a bad row
        # reported below does not renumber the sets after it.
        key = (get(values, "date"), clean(get(values, "exercise")))
        self._counts[key] = n = self._counts.get(key, 0) + 1
        fields = ("weight_kg", "weight_lb", "reps", "distance")
        numbers, problems = read_numbers({fld: get(values, fld) for fld in fields}, lambda fld: fld.split("_")[0])
        time_text = get(values, "time")
        seconds = seconds_of(time_text) if time_text else None
        if time_text and seconds is None:
            problems.append(f"time {time_text!r} is not a time")
        exercise = clean(get(values, "exercise"))
        if not exercise:
            problems.insert(0, "missing exercise")
        raw_date = get(values, "date")
        try:
            day = date.fromisoformat(raw_date)
        except ValueError:
            problems.insert(0, f"bad date {raw_date!r}" if raw_date else "missing date")
            day = date.min
        distance_unit = "km"
        distance = numbers.get("distance") or None
        if distance is not None and (unit_text := get(values, "distance_unit")):
            found = self._namer.distance_unit(unit_text)
            if found is None:
                problems.append(f"unknown distance unit {unit_text!r}")
            else:
                distance_unit = found
        if problems:
            return problems
        weight = (numbers.get("weight_kg") if self._unit == "kg" else numbers.get("weight_lb")) or None
        reps_value = numbers.get("reps")
        if reps_value == 0 and weight is None:
            reps_value = None
        seconds = seconds or None
        if weight is None and reps_value is None and distance is None and seconds is None:
            return NotASet("no weight, reps, distance or time (an empty set)")
        if reps_value is not None and (reps_value != int(reps_value) or reps_value > MAX_REPS):
            return [f"reps {get(values, 'reps')!r} is not a whole number up to {MAX_REPS}"]
        reps = int(reps_value) if reps_value is not None else None
        return SetRow(
            line=line,
            day=day,
            start=day.isoformat(),
            workout="",
            exercise=exercise,
            order=str(n),
            set_num=n,
            label="",
            kind="failure" if reps == 0 else "normal",
            weight=weight,
            unit=self._unit,
            reps=reps,
            distance=distance,
            distance_unit=distance_unit,
            seconds=seconds,
            rpe=None,
            notes=clean(get(values, "comment")),
            cardio_hint=fold(get(values, "category")) in _CARDIO,
        )


def fitnotes_reader(header: list[str], *, namer: ExerciseNamer) -> tuple[FitNotesRows, dict[str, str]]:
    """The reader of a FitNotes file with this header, and field -> the header it reads.

    Raises:
        MissingColumnsError: Date, Exercise, or every measure column is missing.
    """
    index, names = find_columns(header, HEADERS)
    missing = [f.capitalize() for f in ("date", "exercise") if f not in index]
    if not any(f in index for f in ("reps", "distance", "time")):
        missing.append("Reps, Distance or Time")
    if missing:
        raise MissingColumnsError(missing, [h.strip() for h in header if h.strip()])
    return FitNotesRows(index, namer), names


def parse_fitnotes_csv(
    text: str, *, user_key: str, namer: ExerciseNamer, progress: Progress | None = None
) -> ImportResult:
    """Read a FitNotes export into one entry per day.

    Raises:
        MissingColumnsError: Date, Exercise, or every measure column is missing.
        ImportFormatError: the file is empty.
    """
    table = read_table(text)
    reader, names = fitnotes_reader(table.header, namer=namer)
    return read_workouts("fitnotes", table, reader, user_key=user_key, namer=namer, columns=names, progress=progress)
