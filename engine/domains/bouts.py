"""One bout (a run, a swim) read from an entry's metrics, as its domain's ``[bout]`` says.

Facts over a window of entries and the whole-history bout store read bouts the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from engine.domains.model import Bout
from engine.language.values import parse_duration, parse_number


@dataclass(slots=True)
class ReadBout:
    """One bout. Distance in its domain's ``distance_unit``; pace in s per ``pace_per`` of it."""

    day: date
    entry_id: str
    distance: float | None
    seconds: float | None
    pace: float | None
    kind: str


def metrics_of(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """An entry's metrics: name -> (value, unit)."""
    return {
        str(m.get("name", "")): (str(m.get("value", "")), str(m.get("unit") or "")) for m in data.get("metrics") or ()
    }


def _metric_number(metrics: dict[str, tuple[str, str]], name: str) -> float | None:
    got = metrics.get(name)
    return parse_number(got[0]) if got else None


def read_bout(sport: Bout, day: date, entry_id: str, metrics: dict[str, tuple[str, str]]) -> ReadBout:
    """One bout, read as its domain's measures say (distance in km or m, pace per ``pace_per`` of them)."""
    distance = _km(metrics) if sport.distance_unit == "km" else _metres(metrics)
    seconds = parse_duration(*metrics["duration"]) if "duration" in metrics else None
    pace = None
    if distance and seconds:
        pace = seconds / distance * sport.pace_per
    elif sport.pace_metric in metrics:
        pace = parse_duration(metrics[sport.pace_metric][0])
    kind = metrics.get(sport.kind_metric, ("", ""))[0].strip() if sport.kind_metric else ""
    return ReadBout(day, entry_id, distance, seconds, pace, kind.lower() if sport.pace_by_kind else kind)


def _km(metrics: dict[str, tuple[str, str]]) -> float | None:
    km = _metric_number(metrics, "distance_km")
    if km is None and "distance" in metrics:
        # Tolerate a generic distance; the schema asks for km but models drift.
        value, unit = metrics["distance"]
        n = parse_number(value)
        scale = {"m": 0.001, "mi": 1.609344}.get(unit.strip().lower(), 1.0)
        km = n * scale if n is not None else None
    return km


def _metres(metrics: dict[str, tuple[str, str]]) -> float | None:
    metres = _metric_number(metrics, "distance_m")
    if metres is None:
        km = _metric_number(metrics, "distance_km")
        lengths, pool = _metric_number(metrics, "lengths"), _metric_number(metrics, "pool_length_m")
        metres = km * 1000 if km is not None else (lengths * pool if lengths and pool else None)
    return metres
