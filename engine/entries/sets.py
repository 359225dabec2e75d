"""An entry read back as set lines: what every export format writes, one line per set.

Strength sets come from ``data["exercises"]``, cardio sets (imported) from
``data["cardio"]``; an exercise logged without set details, and an entry with
no sets at all (a run logged in chat, a meal, a note), is one line without a
set, its measures in ``metrics``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.entries.model import Entry, SetDetail

_KNOWN_SET_KEYS = frozenset(
    {"set_num", "weight", "reps", "kind", "order", "rpe", "distance_km", "seconds", "notes", "duration",
     "distance", "distance_unit"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SetLine:
    """One set of an entry (or the entry itself when it has no sets), as exports write it."""

    entry: Entry
    exercise: str = ""
    """The exercise's name as originally written (the app's, or the canonical one for chat logs)."""
    canonical: str = ""
    set_num: int | None = None
    order: str = ""
    """The set's place as the source wrote it: its label (``W``) or its number."""
    kind: str = ""
    weight: float | None = None
    unit: str = ""
    reps: int | None = None
    distance: float | None = None
    distance_unit: str = ""
    seconds: float | None = None
    rpe: float | None = None
    notes: str = ""
    metrics: str = ""
    """Whatever has no column of its own (``distance_km=5 km; duration=25:30``)."""
    is_set: bool = False

    @property
    def imported(self) -> Mapping[str, Any]:
        found = self.entry.data.get("import")
        return found if isinstance(found, Mapping) else {}


def number(value: Any) -> float | None:
    """A stored number, or None when it is none (old data may hold strings)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value).replace(",", "."))
    except ValueError:
        return None


def clock_seconds(text: Any) -> float | None:
    """``0:45`` / ``1:02:03`` (the time earlier versions stored as ``duration``) in seconds."""
    if not isinstance(text, str) or ":" not in text:
        return number(text)
    try:
        parts = [float(p) for p in text.split(":")]
    except ValueError:
        return None
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


def text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def pairs(items: Any) -> str:
    return "; ".join(f"{k}={text(v)}" for k, v in items if v is not None and v != "")


def metrics_text(metrics: Any) -> str:
    if not isinstance(metrics, list):
        return ""
    parts: list[str] = []
    for m in metrics:
        if isinstance(m, Mapping) and m.get("name"):
            unit = f" {m['unit']}" if m.get("unit") else ""
            parts.append(f"{m['name']}={text(m.get('value'))}{unit}")
    return "; ".join(parts)


def _kind(value: Any) -> str:
    """The set's kind in today's words (earlier versions stored ``warm-up``, ``drop set``)."""
    return SetDetail.model_validate({"set_num": 1, "kind": value}).kind


def _int(value: Any) -> int | None:
    n = number(value)
    return int(n) if n is not None else None


def _set(entry: Entry, ex: Mapping[str, Any], d: Mapping[str, Any], unit: str) -> SetLine:
    distance, distance_unit = number(d.get("distance")), text(d.get("distance_unit"))
    if distance is None and (km := number(d.get("distance_km"))) is not None:
        distance, distance_unit = km, "km"
    seconds = number(d.get("seconds"))
    if seconds is None:
        seconds = clock_seconds(d.get("duration"))
    weight = number(d.get("weight"))
    extras = pairs((k, v) for k, v in d.items() if k not in _KNOWN_SET_KEYS)
    return SetLine(
        entry=entry,
        exercise=text(ex.get("source_name") or ex.get("name")),
        canonical=text(ex.get("name")),
        set_num=_int(d.get("set_num")),
        order=text(d.get("order")) or text(_int(d.get("set_num"))),
        kind=_kind(d.get("kind")),
        weight=weight,
        unit=unit if weight is not None else "",
        reps=_int(d.get("reps")),
        distance=distance,
        distance_unit=distance_unit if distance is not None else "",
        seconds=seconds,
        rpe=number(d.get("rpe")),
        notes=text(d.get("notes")),
        metrics=extras,
        is_set=True,
    )


def set_lines(entry: Entry) -> Iterator[SetLine]:
    """The lines of one entry, in stored order: strength sets, then cardio sets, else one line."""
    wrote = False
    for key in ("exercises", "cardio"):
        items = entry.data.get(key)
        for ex in items if isinstance(items, list) else []:
            if not isinstance(ex, Mapping):
                continue
            unit = text(ex.get("weight_unit"))
            details = [d for d in ex.get("set_details") or [] if isinstance(d, Mapping)]
            wrote = True
            if not details:
                measures = [
                    ("sets", ex.get("sets")),
                    ("distance_km", ex.get("distance_km")),
                    ("duration", ex.get("duration")),
                ]
                yield SetLine(
                    entry, text(ex.get("source_name") or ex.get("name")), text(ex.get("name")), metrics=pairs(measures)
                )
                continue
            for d in details:
                yield _set(entry, ex, d, unit)
    if not wrote:
        notes = entry.raw_text if entry.kind == "note" else text(entry.data.get("notes"))
        yield SetLine(entry, metrics=metrics_text(entry.data.get("metrics")), notes=notes)
