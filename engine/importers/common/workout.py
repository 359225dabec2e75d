"""One workout's rows built into one entry: exercises, cardio, summary and source key.

Every importer hands its rows here, so a set imported from any app is stored
the same way: the exercise's canonical name beside the name as written, each
set with the app's own number (never renumbered), its kind (warm-up, drop,
failure), RPE, time, distance and notes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.agents.schemas import ParserOutput
from engine.entries.model import ExerciseLog, Metric, NewEntry, SetDetail
from engine.entries.summaries import summarize
from engine.importers.common.numbers import clock, num
from engine.importers.common.rows import App, SetRow

if TYPE_CHECKING:  # importing it for real would run engine.importers.strong, which imports this module
    from engine.importers.strong.names import ExerciseNamer

APP_TITLES: dict[str, str] = {"strong": "Strong", "hevy": "Hevy", "fitnotes": "FitNotes"}
KM_PER_UNIT = {"km": 1.0, "mi": 1.609344, "m": 0.001}
_KIND_MARKS = {"warmup": " (warm-up)", "drop": " (drop)", "failure": " (failed)"}


def source_key(app: App, user_key: str, rows: Sequence[SetRow]) -> str:
    """``<app>:<sha256>`` of the user, the workout's start and name, and its rows in any order."""
    first = rows[0]
    body = sorted(json.dumps(r.fingerprint(), ensure_ascii=False) for r in rows)
    material = json.dumps([1, user_key, first.start, first.workout, body], ensure_ascii=False)
    return f"{app}:" + hashlib.sha256(material.encode()).hexdigest()


def _ordered(rows: list[SetRow]) -> list[SetRow]:
    """Sets in the app's set order when every row has a number, else as the file lists them."""
    if all(r.set_num is not None for r in rows):
        return sorted(rows, key=lambda r: r.set_num or 0)
    return rows


def _km(r: SetRow) -> float | None:
    return round(r.distance * KM_PER_UNIT[r.distance_unit], 3) if r.distance is not None else None


def _set_text(r: SetRow, unit: str, km: float | None, seconds: float | None) -> str:
    parts: list[str] = []
    if r.weight is not None or r.reps is not None:
        load = f"{num(r.weight)}{unit}" if r.weight is not None else "BW"
        parts.append(load + (f"×{r.reps}" if r.reps is not None else ""))
    if km is not None:
        parts.append(f"{num(km)} km")
    if seconds is not None:
        parts.append(clock(seconds))
    return " ".join(parts) + _KIND_MARKS.get(r.kind, "")


@dataclass
class _Cardio:
    name: str
    source_name: str
    bout: bool
    """A bout of the cardio domain (a run), not some other activity."""
    km: float | None = None
    seconds: float | None = None
    sets: list[dict[str, Any]] = field(default_factory=list)

    def metrics(self) -> list[Metric]:
        out: list[Metric] = []
        if self.km is not None:
            out.append(Metric(name="distance_km", value=num(round(self.km, 3)), unit="km"))
        if self.seconds is not None:
            out.append(Metric(name="duration", value=clock(self.seconds)))
        return out


def _add(total: float | None, value: float | None) -> float | None:
    return value if total is None else total + (value or 0.0)


def _detail(r: SetRow, n: int) -> dict[str, Any]:
    """A strength set as stored: what ``SetDetail(...).model_dump(mode="json")`` gives, written out.

    A pydantic model per set cost more than the rest of the import together; the
    row was checked when it was read (weight and reps within ``SetDetail``'s
    bounds, the kind one of its kinds), and the summary validates the sets once
    more as a whole (:func:`_log`).
    """
    detail: dict[str, Any] = {"set_num": r.set_num or n, "weight": r.weight, "reps": r.reps}
    if r.kind != "normal":
        detail["kind"] = r.kind
    # The optional fields, as SetDetail's compact form leaves them out when None or empty.
    for key, value in (("order", r.label), ("rpe", r.rpe), ("distance_km", _km(r)), ("seconds", r.seconds)):
        if value is not None and value != "":
            detail[key] = value
    if r.notes:
        detail["notes"] = r.notes
    return detail


def _cardio_detail(r: SetRow, n: int) -> dict[str, Any]:
    km = _km(r)
    detail: dict[str, Any] = {"set_num": r.set_num or n, "distance_km": km, "seconds": r.seconds}
    if r.distance is not None and r.distance_unit != "km":
        detail["distance"], detail["distance_unit"] = r.distance, r.distance_unit
    for key, value in (("order", r.label), ("kind", "" if r.kind == "normal" else r.kind), ("rpe", r.rpe)):
        if value:
            detail[key] = value
    if r.weight is not None or r.reps is not None:
        detail["weight"], detail["reps"] = r.weight, r.reps
    if r.notes:
        detail["notes"] = r.notes
    return detail


def build_entry(app: App, user_key: str, rows: list[SetRow], namer: ExerciseNamer, **extra: Any) -> NewEntry:
    """The entry of one workout.

    Args:
        app: The app the rows come from (part of the source key and the workout's identity).
        rows: The workout's set rows, in file order.
        extra: More facts about the workout for ``data["import"]`` (Hevy's end time).
    """
    first = rows[0]
    by_exercise: dict[str, list[SetRow]] = {}
    for row in rows:
        by_exercise.setdefault(row.exercise, []).append(row)

    exercises: list[dict[str, Any]] = []
    cardio: list[_Cardio] = []
    terms: list[str] = []
    title = APP_TITLES[app]
    lines = [" · ".join(p for p in (title, first.start.replace("T", " ")[:16], first.workout) if p)]
    notes: list[str] = list(dict.fromkeys(r.workout_notes for r in rows if r.workout_notes))

    for source_name, ex_rows in by_exercise.items():
        canonical = namer.canonical(source_name)
        # An unknown name is kept as its own canonical term (normalized), searchable and listable.
        name = namer.name(source_name)
        terms.append(name)
        if canonical is None:
            terms.extend(namer.vocabulary.terms(namer.base_name(source_name)))
        sets = _ordered(ex_rows)
        has_weight = any(r.weight is not None for r in sets)
        has_reps = any(r.reps is not None for r in sets)
        is_cardio = canonical in namer.cardio_terms or (
            not has_weight
            and not has_reps
            and (
                canonical in namer.activity_terms or ex_rows[0].cardio_hint or any(r.distance is not None for r in sets)
            )
        )
        texts: list[str] = []
        if is_cardio:
            item = _Cardio(name=name, source_name=source_name, bout=canonical in namer.cardio_terms)
            for n, r in enumerate(sets, 1):
                item.km, item.seconds = _add(item.km, _km(r)), _add(item.seconds, r.seconds)
                item.sets.append(_cardio_detail(r, n))
                texts.append(_set_text(r, "", _km(r), r.seconds))
            cardio.append(item)
        else:
            # One exercise per unit: a weight unit belongs to the exercise, not the set.
            by_unit: dict[str, list[SetRow]] = {}
            for r in sets:
                by_unit.setdefault(r.unit, []).append(r)
            for unit, unit_rows in by_unit.items():
                details = [_detail(r, n) for n, r in enumerate(unit_rows, 1)]
                texts.extend(_set_text(r, unit, _km(r), r.seconds) for r in unit_rows)
                exercises.append(
                    {
                        "name": name,
                        "source_name": source_name,
                        "sets": len(details),
                        "weight_unit": unit if any(d["weight"] is not None for d in details) else None,
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

    domain, summary, metrics = _summary(exercises, cardio, namer)
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
                "duration": clock(c.seconds) if c.seconds is not None else None,
                "set_details": c.sets,
            }
            for c in cardio
        ]
    data["import"] = {
        "app": app,
        "workout_id": f"{first.start}|{first.workout}",
        "started_at": first.start,
        "workout_name": first.workout,
        "duration": first.duration or None,
        "workout_notes": "; ".join(dict.fromkeys(r.workout_notes for r in rows if r.workout_notes)) or None,
        **extra,
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
        source_key=source_key(app, user_key, rows),
    )


def _summary(
    exercises: list[dict[str, Any]], cardio: list[_Cardio], namer: ExerciseNamer
) -> tuple[str, str, list[Metric]]:
    """The entry's domain, its summary line and (for a cardio-only workout) its metrics."""
    metrics: list[Metric] = []
    lifts = namer.lift_domain
    if exercises:
        summary = summarize(_parsed(lifts, lifts, exercises, []))
        if cardio:
            summary += "; " + "; ".join(summarize(_parsed(c.name, lifts, [], c.metrics())) for c in cardio)
        return lifts, summary, metrics
    runs = namer.cardio_domain
    domain = runs if runs and all(c.bout for c in cardio) else namer.fallback_domain
    kms = [c.km for c in cardio if c.km is not None]
    times = [c.seconds for c in cardio if c.seconds is not None]
    km, seconds = (sum(kms) if kms else None), (sum(times) if times else None)
    if domain == namer.fallback_domain:
        metrics.append(Metric(name="activity", value=", ".join(dict.fromkeys(c.name for c in cardio))))
    metrics.extend(_Cardio("", "", False, km, seconds).metrics())
    bout = namer.cardio_bout
    if domain == runs and bout is not None and km and seconds:
        distance = km if bout.distance_unit == "km" else km * 1000
        metrics.append(
            Metric(name=bout.pace_metric, value=clock(seconds / distance * bout.pace_per), unit=bout.pace_unit)
        )
    return domain, summarize(_parsed(domain, domain, [], metrics)), metrics


def _log(exercise: dict[str, Any]) -> ExerciseLog:
    """An exercise as :func:`summarize` reads it."""
    try:
        # Validated by pydantic-core in one call: far cheaper than a model built in Python per set.
        return ExerciseLog.model_validate(exercise)
    except ValidationError:
        # More than a logged exercise may hold (over 100 sets): the summary reads only the sets.
        sets = [SetDetail.model_construct(**d) for d in exercise["set_details"]]
        return ExerciseLog.model_construct(
            name=exercise["name"], sets=exercise["sets"], weight_unit=exercise["weight_unit"], set_details=sets
        )


def _parsed(activity: str, domain: str, exercises: list[dict[str, Any]], metrics: list[Metric]) -> ParserOutput:
    """A ParserOutput for :func:`summarize`: its exercises validated, the rest given as is."""
    # Every field is given: model_construct would otherwise call the default factories, slowly.
    return ParserOutput.model_construct(
        activity_type=activity,
        domain=domain,
        exercises=[_log(e) for e in exercises],
        metrics=metrics,
        date_text="",
        notes="",
        summary="",
        missing=[],
        status="parsed",
    )


def workout_identity(entry: NewEntry) -> str | None:
    """``<app>:<start>|<workout name>`` for an imported workout, else None."""
    imported = entry.data.get("import")
    if not isinstance(imported, Mapping):
        return None
    app, workout = imported.get("app"), imported.get("workout_id")
    return f"{app}:{workout}" if isinstance(app, str) and isinstance(workout, str) else None
