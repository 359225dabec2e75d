"""The labelled reading corpus (tests/data/reading/) and code's readings, in one shape to compare."""

from __future__ import annotations

from typing import Any


def _num(x: Any) -> Any:
    return int(x) if isinstance(x, float) and x == int(x) else x


def entries_of(reading: Any) -> list[dict[str, Any]]:
    """A log reading in the corpus's shape."""
    log = reading.log
    out: list[dict[str, Any]] = []
    for e in log.exercises:
        item: dict[str, Any] = {
            "exercise": e.name,
            "unit": e.weight_unit,
            "sets": [[_num(s.weight), s.reps] for s in e.set_details],
        }
        if e.set_details and e.set_details[0].rpe is not None:
            item["rpe"] = float(e.set_details[0].rpe)
        out.append(item)
    if log.sport:
        values = {m.name: m.value for m in log.metrics}
        item = {"sport": log.sport}
        if "distance_km" in values:
            item["distance_km"] = float(values["distance_km"])
        if "distance_m" in values:
            item["distance_m"] = float(values["distance_m"])
        if "duration" in values:
            parts = [int(p) for p in values["duration"].split(":")]
            item["seconds"] = (
                parts[0] * 3600 + parts[1] * 60 + parts[2] if len(parts) == 3 else parts[0] * 60 + parts[1]
            )
        out.append(item)
    return out


def expected_entries(expect: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for e in expect["entries"]:
        e = {k: v for k, v in e.items() if k != "added"}  # a "+20kg" is stored as the load, as Strong does
        if "sets" in e:
            e["sets"] = [[_num(w), r] for w, r in e["sets"]]
        for key in ("distance_m", "distance_km", "rpe"):
            if key in e:
                e[key] = float(e[key])
        out.append(e)
    return out
