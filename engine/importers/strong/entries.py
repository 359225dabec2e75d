"""One workout's rows built into one entry: exercises, cardio, summary and source key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.entries.model import ExerciseLog, Metric, SetDetail
from engine.agents.schemas import ParserOutput
from engine.importers.strong.names import _KM_PER_UNIT, ExerciseNamer
from engine.importers.strong.rows import _num, _Row
from engine.entries.model import NewEntry
from engine.entries.summaries import summarize

_SET_KINDS = {"w": "warm-up", "d": "drop set", "f": "failure"}


def _clock(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``."""
    total = int(round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _source_key(user_key: str, rows: Sequence[_Row]) -> str:
    """``strong:<sha256>`` of the user, the workout's start and name, and its rows in any order."""
    first = rows[0]
    body = sorted(json.dumps(r.fingerprint(), ensure_ascii=False) for r in rows)
    material = json.dumps([1, user_key, first.start, first.workout, body], ensure_ascii=False)
    return "strong:" + hashlib.sha256(material.encode()).hexdigest()


def _ordered(rows: list[_Row]) -> list[_Row]:
    """Sets in Strong's set order when every row has a number, else as the file lists them."""
    try:
        return sorted(rows, key=lambda r: float(r.set_order))
    except ValueError:
        return rows


def _set_text(weight: float | None, unit: str, reps: int | None, seconds: float | None, km: float | None) -> str:
    parts: list[str] = []
    if weight is not None or reps is not None:
        load = f"{_num(weight)}{unit}" if weight is not None else "BW"
        parts.append(load + (f"×{reps}" if reps is not None else ""))
    if km is not None:
        parts.append(f"{_num(round(km, 3))} km")
    if seconds is not None:
        parts.append(_clock(seconds))
    return " ".join(parts)


@dataclass
class _Cardio:
    name: str
    source_name: str
    running: bool
    km: float | None = None
    seconds: float | None = None
    sets: list[dict[str, Any]] = field(default_factory=list)

    def metrics(self) -> list[Metric]:
        out: list[Metric] = []
        if self.km is not None:
            out.append(Metric(name="distance_km", value=_num(round(self.km, 3)), unit="km"))
        if self.seconds is not None:
            out.append(Metric(name="duration", value=_clock(self.seconds)))
        return out


def _add(total: float | None, value: float | None) -> float | None:
    return value if total is None else total + (value or 0.0)


def _entry(user_key: str, rows: list[_Row], namer: ExerciseNamer) -> NewEntry:
    first = rows[0]
    by_exercise: dict[str, list[_Row]] = {}
    for row in rows:
        by_exercise.setdefault(row.exercise, []).append(row)

    exercises: list[dict[str, Any]] = []
    cardio: list[_Cardio] = []
    terms: list[str] = []
    lines = [" · ".join(p for p in ("Strong", first.start.replace("T", " ")[:16], first.workout) if p)]
    notes: list[str] = []
    for note in dict.fromkeys(r.workout_notes for r in rows if r.workout_notes):
        notes.append(note)

    for source_name, ex_rows in by_exercise.items():
        canonical = namer.canonical(source_name)
        # An unknown name is kept as its own canonical term (normalized), searchable and listable.
        name = namer.name(source_name)
        terms.append(name)
        if canonical is None:
            terms.extend(namer.vocabulary.terms(namer.base_name(source_name)))
        sets = _ordered(ex_rows)
        has_weight = any(r.weight is not None for r in sets)
        is_cardio = canonical in namer.running_terms or (
            not has_weight
            and (canonical in namer.fitness_terms or any(r.distance is not None for r in sets))
            and not any(r.reps is not None for r in sets)
        )
        texts: list[str] = []
        if is_cardio:
            item = _Cardio(name=name, source_name=source_name, running=canonical in namer.running_terms)
            for n, r in enumerate(sets, 1):
                km = r.distance * _KM_PER_UNIT[r.distance_unit] if r.distance is not None else None
                item.km, item.seconds = _add(item.km, km), _add(item.seconds, r.seconds)
                detail: dict[str, Any] = {"set_num": n, "distance_km": round(km, 3) if km is not None else None}
                detail["seconds"] = r.seconds
                if r.distance is not None and r.distance_unit != "km":
                    detail["distance"], detail["distance_unit"] = r.distance, r.distance_unit
                item.sets.append(detail)
                texts.append(_set_text(None, "", None, r.seconds, km))
            cardio.append(item)
        else:
            # One exercise per unit: a weight unit belongs to the exercise, not the set.
            by_unit: dict[str, list[_Row]] = {}
            for r in sets:
                by_unit.setdefault(r.unit, []).append(r)
            for unit, unit_rows in by_unit.items():
                details: list[dict[str, Any]] = []
                for n, r in enumerate(unit_rows, 1):
                    d: dict[str, Any] = {"set_num": n, "weight": r.weight, "reps": r.reps}
                    if r.seconds is not None:
                        d["duration"] = _clock(r.seconds)
                    if r.distance is not None:
                        d["distance_km"] = round(r.distance * _KM_PER_UNIT[r.distance_unit], 3)
                    if r.rpe is not None:
                        d["rpe"] = r.rpe
                    if (kind := _SET_KINDS.get(r.set_order)) is not None:
                        d["kind"] = kind
                    details.append(d)
                    km = r.distance * _KM_PER_UNIT[r.distance_unit] if r.distance is not None else None
                    texts.append(_set_text(r.weight, unit, r.reps, r.seconds, km))
                exercises.append(
                    {
                        "name": name,
                        "source_name": source_name,
                        "sets": len(details),
                        "weight_unit": unit if any(x["weight"] is not None for x in details) else None,
                        "set_details": details,
                    }
                )
        lines.append(f"{source_name}: {', '.join(texts)}")
        for note in dict.fromkeys(r.notes for r in ex_rows if r.notes):
            notes.append(f"{source_name}: {note}")

    notes_text = "; ".join(notes)
    if notes_text:
        lines.append(f"notes: {notes_text}")
        terms.extend(namer.vocabulary.terms(notes_text))

    metrics: list[Metric] = []
    if exercises:
        domain = "strength"
        summary = summarize(_parsed(domain, domain, exercises, []))
        if cardio:
            summary += "; " + "; ".join(summarize(_parsed(c.name, domain, [], c.metrics())) for c in cardio)
    else:
        domain = "running" if all(c.running for c in cardio) else "general_fitness"
        km = sum(c.km for c in cardio if c.km is not None) if any(c.km is not None for c in cardio) else None
        seconds = (
            sum(c.seconds for c in cardio if c.seconds is not None)
            if any(c.seconds is not None for c in cardio)
            else None
        )
        if domain == "general_fitness":
            metrics.append(Metric(name="activity", value=", ".join(dict.fromkeys(c.name for c in cardio))))
        metrics.extend(_Cardio("", "", False, km, seconds).metrics())
        if domain == "running" and km and seconds:
            metrics.append(Metric(name="pace", value=_clock(seconds / km), unit="min/km"))
        summary = summarize(_parsed(domain, domain, [], metrics))

    data: dict[str, Any] = {
        "activity_type": domain,
        "domain": domain,
        "exercises": exercises,
        "metrics": [m.model_dump(mode="json") for m in metrics],
        "notes": notes_text,
    }
    if cardio:
        data["cardio"] = [
            {
                "name": c.name,
                "source_name": c.source_name,
                "distance_km": round(c.km, 3) if c.km is not None else None,
                "duration": _clock(c.seconds) if c.seconds is not None else None,
                "set_details": c.sets,
            }
            for c in cardio
        ]
    data["import"] = {
        "app": "strong",
        "workout_id": f"{first.start}|{first.workout}",
        "started_at": first.start,
        "workout_name": first.workout,
        "duration": first.duration or None,
    }
    return NewEntry(
        occurred_on=first.day,
        domain=domain,
        activity_type=domain,
        summary=summary,
        data=data,
        raw_text="\n".join(lines),
        terms=list(dict.fromkeys(terms)),
        source="import",
        source_key=_source_key(user_key, rows),
    )


def _parsed(activity: str, domain: str, exercises: list[dict[str, Any]], metrics: list[Metric]) -> ParserOutput:
    """A ParserOutput for :func:`summarize` (built without validation: the numbers are already checked)."""
    logs = [
        ExerciseLog.model_construct(
            name=e["name"],
            sets=e["sets"],
            weight_unit=e["weight_unit"],
            set_details=[
                SetDetail.model_construct(set_num=d["set_num"], weight=d["weight"], reps=d["reps"])
                for d in e["set_details"]
            ],
        )
        for e in exercises
    ]
    # Every field is given: model_construct would otherwise call the default factories, slowly.
    return ParserOutput.model_construct(
        activity_type=activity,
        domain=domain,
        exercises=logs,
        metrics=metrics,
        date_text="",
        notes="",
        summary="",
        missing=[],
        status="parsed",
    )


def workout_identity(entry: NewEntry) -> str | None:
    """``strong:<start>|<workout name>`` for an imported workout, else None."""
    imported = entry.data.get("import")
    if not isinstance(imported, Mapping):
        return None
    app, workout = imported.get("app"), imported.get("workout_id")
    return f"{app}:{workout}" if isinstance(app, str) and isinstance(workout, str) else None
