"""Runs and swims: the sports, and one run or swim read from an entry's metrics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from engine.facts.values import parse_duration, parse_number


@dataclass(slots=True)
class _Bout:
    """One run or swim. Distance in km (runs) or m (swims); pace in s per km or per 100 m."""

    day: date
    entry_id: str
    distance: float | None
    seconds: float | None
    pace: float | None
    kind: str


@dataclass(frozen=True, slots=True)
class _Sport:
    noun: str
    distance_unit: str
    pace_unit: str
    pace_suffix: str


_SPORTS = {
    "running": _Sport("run", "km", "min/km", "/km"),
    "swimming": _Sport("swim", "m", "min/100m", "/100m"),
}


def _metrics(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        str(m.get("name", "")): (str(m.get("value", "")), str(m.get("unit") or ""))
        for m in data.get("metrics") or ()
    }


def _metric_number(metrics: dict[str, tuple[str, str]], name: str) -> float | None:
    got = metrics.get(name)
    return parse_number(got[0]) if got else None


def _run(day: date, entry_id: str, metrics: dict[str, tuple[str, str]]) -> _Bout:
    km = _metric_number(metrics, "distance_km")
    if km is None and "distance" in metrics:
        # Tolerate a generic distance; the schema asks for km but models drift.
        value, unit = metrics["distance"]
        n = parse_number(value)
        scale = {"m": 0.001, "mi": 1.609344}.get(unit.strip().lower(), 1.0)
        km = n * scale if n is not None else None
    seconds = parse_duration(*metrics["duration"]) if "duration" in metrics else None
    pace = None
    if km and seconds:
        pace = seconds / km
    elif "pace" in metrics:
        pace = parse_duration(metrics["pace"][0])
    kind = metrics.get("run_type", ("", ""))[0].strip()
    return _Bout(day, entry_id, km, seconds, pace, kind)


def _swim(day: date, entry_id: str, metrics: dict[str, tuple[str, str]]) -> _Bout:
    metres = _metric_number(metrics, "distance_m")
    if metres is None:
        km = _metric_number(metrics, "distance_km")
        lengths, pool = _metric_number(metrics, "lengths"), _metric_number(metrics, "pool_length_m")
        metres = km * 1000 if km is not None else (lengths * pool if lengths and pool else None)
    seconds = parse_duration(*metrics["duration"]) if "duration" in metrics else None
    pace = None
    if metres and seconds:
        pace = seconds / metres * 100
    elif "pace_per_100m" in metrics:
        pace = parse_duration(metrics["pace_per_100m"][0])
    stroke = metrics.get("stroke", ("", ""))[0].strip().lower()
    return _Bout(day, entry_id, metres, seconds, pace, stroke)
