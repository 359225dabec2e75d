"""A small history for chart tests, with the answers read off it by hand.

Bench press (kg):
  2026-09-01  warm-up 40 × 10; 60 × 5, 60 × 5, 62.5 × 3      e1RM 70 (60 × 5)       top 62.5 × 3   first ever: no PR
  2026-09-08  warm-up 100 × 10 (never counts); 65 × 5;
              80 × 0 and 75 × 2 marked failure (never count)  e1RM 75.8333 (65 × 5)  top 65 × 5     PR
  2026-09-15  70 × 3                                          e1RM 77 (70 × 3)       top 70 × 3     PR
  2026-09-22  67.5 × 5                                        e1RM 78.75             top 67.5 × 5   PR
  2026-09-29  planned 100 × 5 (not done: never counts)
  2026-10-06  65 × 5                                          e1RM 75.8333           top 65 × 5     no PR
Weekly volume (working sets' weight × reps), weeks from Monday:
  08-31: 787.5, 09-07: 325, 09-14: 210, 09-21: 337.5, 09-28: 0, 10-05: 325
Runs: 09-10 5 km in 25:00 (5:00 /km), 09-17 10 km in 55:00 (5:30 /km).
Bodyweight: 09-01 80 kg, 09-15 79.5 then 79.0 kg (the day's last counts), 10-01 78.2 kg.
Meals on 09-03 (no training day). Training days: 09-01, 09-08, 09-10, 09-15, 09-17, 09-22, 10-01, 10-06.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from engine.entries.model import EntryKind, NewEntry
from engine.store.db import Database
from engine.store.entries import EntryStore

USER = "console:kim"
Set = tuple[float | None, int, str]


def _lift(on: date, name: str, sets: list[Set], kind: EntryKind = "parsed", unit: str = "kg") -> NewEntry:
    details = [{"set_num": i, "weight": w, "reps": r, "kind": k} for i, (w, r, k) in enumerate(sets, start=1)]
    data: dict[str, Any] = {
        "activity_type": "strength",
        "domain": "strength",
        "exercises": [{"name": name, "sets": len(sets), "weight_unit": unit, "set_details": details}],
        "metrics": [],
        "notes": "",
    }
    return NewEntry(
        occurred_on=on, domain="strength", activity_type="strength", kind=kind, summary=name, data=data,
        raw_text=name, terms=[name], source_key=f"{kind}:{name}:{on.isoformat()}",
    )  # fmt: skip


def _metrics(on: date, domain: str, key: str, **values: tuple[str, str]) -> NewEntry:
    data = {
        "activity_type": domain,
        "domain": domain,
        "exercises": [],
        "metrics": [{"name": k, "value": v, "unit": u} for k, (v, u) in values.items()],
        "notes": "",
    }
    return NewEntry(
        occurred_on=on, domain=domain, activity_type=domain, summary=domain, data=data, raw_text=domain,
        source_key=f"{domain}:{on.isoformat()}:{key}",
    )  # fmt: skip


N = "normal"
ENTRIES = [
    _lift(date(2026, 9, 1), "bench press", [(40, 10, "warmup"), (60, 5, N), (60, 5, N), (62.5, 3, N)]),
    _lift(date(2026, 9, 8), "bench press", [(100, 10, "warmup"), (65, 5, N), (80, 0, N), (75, 2, "failure")]),
    _lift(date(2026, 9, 15), "bench press", [(70, 3, N)]),
    _lift(date(2026, 9, 22), "bench press", [(67.5, 5, N)]),
    _lift(date(2026, 9, 29), "bench press", [(100, 5, N)], kind="planned"),
    _lift(date(2026, 10, 6), "bench press", [(65, 5, N)]),
    _metrics(date(2026, 9, 10), "running", "a", distance_km=("5", "km"), duration=("25:00", "")),
    _metrics(date(2026, 9, 17), "running", "a", distance_km=("10", "km"), duration=("55:00", "")),
    _metrics(date(2026, 9, 1), "general_fitness", "a", bodyweight=("80", "kg")),
    _metrics(date(2026, 9, 15), "general_fitness", "a", bodyweight=("79.5", "kg")),
    _metrics(date(2026, 9, 15), "general_fitness", "b", bodyweight=("79.0", "kg")),
    _metrics(date(2026, 10, 1), "general_fitness", "a", bodyweight=("78.2", "kg")),
    _metrics(date(2026, 9, 3), "nutrition", "a", calories=("700", "kcal")),
]
TRAINING_DAYS = [date(2026, 9, d) for d in (1, 8, 10, 15, 17, 22)] + [date(2026, 10, 1), date(2026, 10, 6)]


async def seed(db: Database, user: str = USER) -> None:
    await EntryStore(db).add(user, ENTRIES)
