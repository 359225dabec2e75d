"""Entries written as a Strong app CSV export, which the Strong importer (and Strong's readers) read back.

The columns are Strong's (``Date, Workout Name, Duration, Exercise Name, Set
Order, Weight, Reps, Distance, Seconds, Notes, Workout Notes, RPE``) plus the
unit columns of its older exports (``Weight Unit``, ``Distance Unit``), so a
person whose log mixes kg and lb loses nothing. Strong's conventions hold: 0
for "not filled in", ``W`` / ``D`` / ``F`` in the set order for warm-up, drop
and failure sets, and a weight with 0 reps for a failed attempt. A workout
imported from an app keeps its start time and name; an entry logged in chat
starts at midnight of its day and is named after its domain.

Left out: planned sessions (not done) and entries with no sets or distance or
time (meals, notes).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.entries.model import Entry
from engine.entries.sets import SetLine, clock_seconds, number, set_lines, text

STRONG_COLUMNS = (
    "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Weight Unit", "Reps",
    "Distance", "Distance Unit", "Seconds", "Notes", "Workout Notes", "RPE",
)  # fmt: skip
_LETTERS = {"warmup": "W", "drop": "D"}


def _start(entry: Entry) -> str:
    imported = entry.data.get("import")
    started = text(imported.get("started_at")) if isinstance(imported, Mapping) else ""
    if len(started) > 10:
        return started.replace("T", " ")[:19]
    return f"{entry.occurred_on.isoformat()} 00:00:00"


def _order(line: SetLine) -> str:
    if line.order and not line.order.isdigit():
        return line.order  # Strong's own label, as the file had it
    if line.kind in _LETTERS:
        return _LETTERS[line.kind]
    if line.kind == "failure" and line.reps:
        return "F"  # a set taken to failure; a failed attempt (0 reps) keeps its number
    return line.order or "1"


def _zero(value: float | int | None) -> str:
    return text(value) if value is not None else "0"


def _metric_line(entry: Entry) -> SetLine | None:
    """A run or ride logged in chat (metrics, no sets) as one cardio set."""
    metrics = {m.get("name"): m.get("value") for m in entry.data.get("metrics") or [] if isinstance(m, Mapping)}
    km, seconds = number(metrics.get("distance_km")), clock_seconds(metrics.get("duration"))
    if km is None and seconds is None:
        return None
    name = text(metrics.get("activity")) or entry.activity_type
    return SetLine(entry, name, name, set_num=1, order="1", kind="normal", distance=km,
                   distance_unit="km" if km is not None else "", seconds=seconds, is_set=True)  # fmt: skip


def _lines(entries: Sequence[Entry]) -> Iterator[tuple[str, str, SetLine]]:
    """(start, workout name, line) for every set Strong's format can hold."""
    named: dict[str, int] = {}
    for entry in entries:
        if entry.kind == "planned":
            continue
        lines = [line for line in set_lines(entry) if line.is_set]
        if not lines and (metric := _metric_line(entry)) is not None:
            lines = [metric]
        if not lines:
            continue
        imported = entry.data.get("import")
        name = text(imported.get("workout_name")) if isinstance(imported, Mapping) else ""
        start = _start(entry)
        if not isinstance(imported, Mapping):
            # Two chat entries of one day must not become one workout when read back.
            count = named[start] = named.get(start, 0) + 1
            name = f"Almanac {entry.domain}" + (f" {count}" if count > 1 else "")
        for line in lines:
            yield start, name, line


def _row(start: str, name: str, line: SetLine) -> list[Any]:
    imported = line.imported
    return [
        start,
        name,
        text(imported.get("duration")),
        line.exercise,
        _order(line),
        _zero(line.weight),
        line.unit,
        _zero(line.reps),
        _zero(line.distance),
        line.distance_unit,
        _zero(line.seconds),
        line.notes,
        text(imported.get("workout_notes")),
        text(line.rpe),
    ]


def to_strong(entries: Sequence[Entry]) -> str:
    """The entries as a Strong CSV export (see the module docstring for what is left out)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STRONG_COLUMNS)
    writer.writerows(_row(start, name, line) for start, name, line in _lines(entries))
    return out.getvalue()


def strong_left_out(entries: Sequence[Entry]) -> int:
    """How many entries Strong's format cannot hold (planned sessions, meals, notes)."""
    kept = {id(line.entry) for _, _, line in _lines(entries)}
    return sum(1 for e in entries if id(e) not in kept)
