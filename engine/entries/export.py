"""Writing a person's entries back out, so they can leave with their data.

* CSV: one row per set (:mod:`engine.entries.sets`): date and start time, the
  workout's name and length, the exercise as originally written beside its
  canonical name, the set's order as the source wrote it (``W``, ``3``), its
  kind, weight and unit, reps, distance and unit, seconds, RPE, notes, and
  whether the row was ``done`` or only ``planned``; an entry without sets is
  one row, its measures in ``metrics``. A Strong import exported gives back
  every set row of the file.
* Strong: the Strong app's CSV (:mod:`engine.entries.strong_format`), which
  :mod:`engine.importers.strong` (and anything that reads Strong's exports)
  reads back; planned sessions and entries without sets are left out.
* JSON: a list of entries, each ``Entry.model_dump(mode="json")``; reading it
  back with ``Entry.model_validate`` gives the same entries.

Only active entries are written (not superseded or deleted ones), oldest first.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from engine.entries.model import Entry
from engine.entries.sets import SetLine, set_lines, text
from engine.entries.strong_format import strong_left_out, to_strong
from engine.store.entries import ALL_KINDS, EntryStore

ExportFormat = Literal["csv", "json", "strong"]

CSV_COLUMNS = (
    "date", "time", "workout", "duration", "exercise", "canonical", "set_order", "kind", "weight", "unit", "reps",
    "distance", "distance_unit", "seconds", "rpe", "notes", "status", "domain", "metrics", "summary", "entry_id",
)  # fmt: skip


async def all_entries(store: EntryStore, user_key: str) -> list[Entry]:
    """Every active entry of ``user_key``, planned ones too, ordered by ``occurred_on`` (then by when it was stored)."""
    count = await store.count(user_key, kinds=ALL_KINDS)
    if count == 0:
        return []
    return await store.between(user_key, date.min, date.max, limit=count, kinds=ALL_KINDS)


def _row(line: SetLine) -> list[str]:
    e, imported = line.entry, line.imported
    started = text(imported.get("started_at"))
    return [
        e.occurred_on.isoformat(),
        started[11:19] if len(started) > 10 else "",
        text(imported.get("workout_name")),
        text(imported.get("duration")),
        line.exercise,
        line.canonical,
        line.order,
        line.kind,
        text(line.weight),
        line.unit,
        text(line.reps),
        text(line.distance),
        line.distance_unit,
        text(line.seconds),
        text(line.rpe),
        line.notes,
        "planned" if e.kind == "planned" else "done",
        e.domain,
        line.metrics,
        e.summary,
        e.entry_id,
    ]


def csv_rows(entry: Entry) -> Iterator[list[str]]:
    """The CSV rows of one entry (see the module docstring)."""
    return (_row(line) for line in set_lines(entry))


def to_csv(entries: Sequence[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        writer.writerows(csv_rows(entry))
    return out.getvalue()


def to_json(entries: Sequence[Entry]) -> str:
    return json.dumps([e.model_dump(mode="json") for e in entries], ensure_ascii=False, indent=2) + "\n"


def render(entries: Sequence[Entry], fmt: ExportFormat) -> str:
    """The export file's text."""
    if fmt == "json":
        return to_json(entries)
    if fmt == "strong":
        return to_strong(entries)
    return to_csv(entries)


@dataclass(frozen=True, slots=True)
class Export:
    """A person's entries written out."""

    text: str
    entries: int
    left_out: int = 0
    """Entries the format cannot hold (Strong's: planned sessions, meals, notes)."""


def written_out(entries: Sequence[Entry], fmt: str = "csv") -> Export:
    """``entries`` as ``csv`` (a row per set), ``json`` or ``strong`` (Strong's CSV; what it cannot hold is counted)."""
    chosen: ExportFormat = "json" if fmt == "json" else "strong" if fmt == "strong" else "csv"
    left = strong_left_out(entries) if chosen == "strong" else 0
    return Export(text=render(entries, chosen), entries=len(entries), left_out=left)
