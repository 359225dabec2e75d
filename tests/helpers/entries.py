"""Entries built by hand for fact and grounding tests: a month of mixed training."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from engine.entries.model import Entry, EntryKind, EntryStatus

TODAY = date(2026, 11, 30)


def nov(day: int) -> date:
    return date(2026, 11, day)


def entry(
    on: date,
    domain: str,
    data: dict[str, Any],
    *,
    key: str = "",
    kind: EntryKind = "parsed",
    status: EntryStatus = "active",
) -> Entry:
    source_key = key or f"{domain}:{on.isoformat()}"
    return Entry(
        entry_id="e-" + source_key,
        user_key="u1",
        occurred_on=on,
        domain=domain,
        activity_type=domain,
        kind=kind,
        status=status,
        summary="",
        data=data,
        raw_text="",
        terms=[],
        source="chat",
        source_key=source_key,
        supersedes=None,
        created_at=datetime(2026, 11, 30, tzinfo=timezone.utc),
    )


def lift(name: str, unit: str | None, sets: list[tuple[float | None, int]]) -> dict[str, Any]:
    return {
        "name": name,
        "sets": len(sets),
        "weight_unit": unit,
        "set_details": [{"set_num": i, "weight": w, "reps": r} for i, (w, r) in enumerate(sets, start=1)],
    }


def strength(on: date, *exercises: dict[str, Any], **kw: Any) -> Entry:
    data = {"activity_type": "strength", "domain": "strength", "exercises": list(exercises), "metrics": [], "notes": ""}
    return entry(on, "strength", data, **kw)


def metrics(on: date, domain: str, **values: str) -> Entry:
    data = {
        "activity_type": domain,
        "domain": domain,
        "exercises": [],
        "metrics": [{"name": k, "value": v, "unit": ""} for k, v in values.items()],
        "notes": "",
    }
    return entry(on, domain, data)


# A month: bench press in kg, squat in lb, deadlift in both, pull-ups with no weight, runs, swims.
MONTH = [
    metrics(nov(1), "running", distance_km="5", duration="25:30"),
    strength(nov(2), lift("bench press", "kg", [(50, 10)] * 5)),
    strength(nov(3), lift("squat", "lb", [(135, 5)] * 5)),
    strength(nov(4), lift("deadlift", "kg", [(100, 5)])),
    strength(nov(5), lift("pull-up", None, [(None, 10), (None, 8), (None, 6)])),
    strength(nov(6), lift("bench press", "kg", [(50, 8), (52.5, 6), (55, 5)])),
    metrics(nov(7), "swimming", distance_m="1500", duration="32:00", stroke="freestyle", pool_length_m="25"),
    metrics(nov(8), "running", distance_km="10", duration="52분"),
    strength(nov(10), lift("squat", "lb", [(185, 3)] * 3)),
    strength(nov(13), lift("bench press", "kg", [(52.5, 8)] * 4)),
    metrics(nov(14), "swimming", distance_m="1000", duration="20 min", stroke="freestyle"),
    metrics(nov(15), "running", distance_km="21.1", duration="1:52:40"),
    strength(nov(17), lift("squat", "lb", [(225, 1), (185, 5), (185, 5)])),
    strength(nov(18), lift("deadlift", "lb", [(225, 5)])),
    # 11-20 was first logged as 60 kg, then corrected to 55 kg: only the correction counts.
    strength(nov(20), lift("bench press", "kg", [(60, 10)] * 5), key="old", status="superseded"),
    strength(nov(20), lift("bench press", "kg", [(55, 10)] * 5)),
    # Plans and notes are not things done.
    strength(nov(21), lift("bench press", "kg", [(100, 1)]), key="note", kind="note"),
    strength(nov(25), lift("bench press", "kg", [(100, 1)]), key="plan", kind="planned"),
]
