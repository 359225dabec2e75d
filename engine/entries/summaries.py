"""One-line summaries of parsed entries, written by code so that every number
in a confirmation comes from the parsed data, never from the model's prose."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from engine.agents.schemas import ParserOutput
from engine.entries.model import ExerciseLog, Metric


def _num(x: float) -> str:
    return f"{x:g}"


def exercise_line(ex: ExerciseLog) -> str:
    """``bench press 55 kg × 10 reps × 5 sets`` or ``squat 100×5, 105×5, 110×3 kg``."""
    details = ex.set_details
    unit = f" {ex.weight_unit}" if ex.weight_unit else ""
    if not details:
        return f"{ex.name} {ex.sets} sets" if ex.sets else ex.name
    weights = {d.weight for d in details}
    reps = {d.reps for d in details}
    if len(weights) == 1 and len(reps) == 1:
        (w,), (r,) = weights, reps
        parts = [ex.name]
        if w is not None:
            parts.append(f"{_num(w)}{unit}")
        if r is not None:
            parts.append(f"× {r} reps")
        parts.append(f"× {len(details)} set{'s' if len(details) != 1 else ''}")
        return " ".join(parts)
    sets = ", ".join(
        f"{_num(d.weight) if d.weight is not None else 'BW'}×{d.reps if d.reps is not None else '?'}" for d in details
    )
    return f"{ex.name} {sets}{unit}"


_TIME_UNITS = frozenset({"min", "mins", "minutes", "s", "sec", "secs", "seconds", "h", "hr", "hours"})


def metric_text(m: Metric) -> str:
    """``distance 5 km``, ``duration 25:30``: a unit the name already spells is said once, and a clock
    time carries no unit ("25:30 min" reads as minutes and seconds anyway)."""
    name, unit, value = m.name.replace("_", " "), m.unit, str(m.value)
    if unit and name.endswith(f" {unit}"):
        name = name[: -len(unit) - 1]
    if ":" in value and unit.lower() in _TIME_UNITS:
        unit = ""
    return f"{name} {value}{' ' + unit if unit else ''}"


def summarize(parsed: ParserOutput) -> str:
    """A one-line summary of an entry."""
    if parsed.exercises:
        return "; ".join(exercise_line(e) for e in parsed.exercises)
    if parsed.metrics:
        return f"{parsed.activity_type}: {', '.join(metric_text(m) for m in parsed.metrics)}"
    return parsed.summary.strip()[:120] or parsed.activity_type


def summary_of(data: Mapping[str, Any], fallback: str = "") -> str:
    """The summary of stored data (as after a correction): its exercises, then its cardio, else ``fallback``.

    Written the way the parser's and the importers' entries are summarized, so
    a corrected entry reads like one logged that way.
    """
    parts: list[str] = []
    for ex in data.get("exercises") or []:
        try:
            parts.append(exercise_line(ExerciseLog.model_validate(ex)))
        except ValidationError:
            continue  # a shape this version cannot read is left out of the line, never a crash
    for c in data.get("cardio") or []:
        if not isinstance(c, Mapping):
            continue
        metrics = [Metric(name="distance_km", value=f"{c['distance_km']:g}", unit="km")] if c.get("distance_km") else []
        if c.get("duration"):
            metrics.append(Metric(name="duration", value=str(c["duration"])))
        cardio = ParserOutput.model_construct(
            activity_type=str(c.get("name", "")), domain="", exercises=[], metrics=metrics, date_text="",
            notes="", summary="", missing=[], status="parsed",
        )  # fmt: skip
        parts.append(summarize(cardio))
    return "; ".join(parts) or fallback
