"""Writing a person's entries back out, so they can leave with their data.

* CSV: one row per set for strength entries (``date, domain, exercise, set,
  weight, unit, reps, metrics, summary, entry_id``); cardio done inside a
  strength workout gets one row per cardio exercise; any other entry gets one
  row with its metrics in the ``metrics`` column
  (``distance_km=5 km; duration=25:30``).
  Per-set extras (``rpe``, ``duration`` of a timed hold) go there too.
* JSON: a list of entries, each ``Entry.model_dump(mode="json")``; reading it
  back with ``Entry.model_validate`` gives the same entries.

Only active entries are written (not superseded or deleted ones), oldest first.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import Any, Literal

from engine.entries.model import Entry
from engine.store.entries import EntryStore

ExportFormat = Literal["csv", "json"]

CSV_COLUMNS = ("date", "domain", "exercise", "set", "weight", "unit", "reps", "metrics", "summary", "entry_id")
_SET_KEYS = {"set_num", "weight", "reps"}


async def all_entries(store: EntryStore, user_key: str) -> list[Entry]:
    """Every active entry of ``user_key``, ordered by ``occurred_on`` (then by when it was stored)."""
    count = await store.count(user_key)
    if count == 0:
        return []
    return await store.between(user_key, date.min, date.max, limit=count)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _pairs(items: Iterable[tuple[str, Any]]) -> str:
    return "; ".join(f"{k}={_text(v)}" for k, v in items if v is not None and v != "")


def _metrics(metrics: Any) -> str:
    if not isinstance(metrics, list):
        return ""
    parts: list[str] = []
    for m in metrics:
        if isinstance(m, Mapping) and m.get("name"):
            unit = f" {m['unit']}" if m.get("unit") else ""
            parts.append(f"{m['name']}={_text(m.get('value'))}{unit}")
    return "; ".join(parts)


def csv_rows(entry: Entry) -> Iterator[list[str]]:
    """The CSV rows of one entry (see the module docstring)."""
    head = [entry.occurred_on.isoformat(), entry.domain]
    tail = [entry.summary, entry.entry_id]
    exercises = entry.data.get("exercises")
    cardio = entry.data.get("cardio")
    wrote = False
    if isinstance(exercises, list) and exercises:
        for ex in exercises:
            if not isinstance(ex, Mapping):
                continue
            name, unit = _text(ex.get("name")), _text(ex.get("weight_unit"))
            details = ex.get("set_details") if isinstance(ex.get("set_details"), list) else []
            if not details:
                yield [*head, name, "", "", unit, "", _pairs([("sets", ex.get("sets"))]), *tail]
                wrote = True
                continue
            for d in details:
                if not isinstance(d, Mapping):
                    continue
                extras = _pairs((k, v) for k, v in d.items() if k not in _SET_KEYS)
                row = [_text(d.get("set_num")), _text(d.get("weight")), unit, _text(d.get("reps")), extras]
                yield [*head, name, *row, *tail]
                wrote = True
    if wrote and isinstance(cardio, list):
        # Cardio inside a strength workout; a cardio-only entry is one row with its metrics.
        for c in cardio:
            if isinstance(c, Mapping):
                extras = _pairs([("distance_km", c.get("distance_km")), ("duration", c.get("duration"))])
                yield [*head, _text(c.get("name")), "", "", "", "", extras, *tail]
                wrote = True
    if not wrote:
        yield [*head, "", "", "", "", "", _metrics(entry.data.get("metrics")), *tail]


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
    return to_csv(entries) if fmt == "csv" else to_json(entries)
