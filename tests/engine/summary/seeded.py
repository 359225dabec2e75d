"""A history for the weekly summary, with its figures read off by hand (every lift in kg).

Last week is Monday 2026-11-16 to Sunday 2026-11-22. Working sets' weight × reps per week:

  week of      sessions                                                     volume
  10-19 (W-4)  ohp 50×5×2 = 500 (10-21); deadlift 100×5×5 = 2500 (10-23)     3,000
  10-26 (W-3)  bench 60×5×4 = 1200 (10-27); squat 80×5×6 = 2400 (10-29)      3,600
  11-02 (W-2)  ohp 500 (11-04); bench 70×5×2 = 700 (11-05);
               deadlift 120×5×5 = 3000 (11-06)                               4,200
  11-09 (W-1)  ohp 500 (11-11); bench 75×4×2 = 600 (11-12);
               squat 100×5×5 = 2500 (11-13)                                  3,600
  11-16 (W)    squat warm-up 60×5 (never counts) + 100×5×5 = 2500 (11-16);
               ohp 500 (11-18); bench 80×5×3 = 1200 (11-22)                  4,200

The 4 weeks before average (3000 + 3600 + 4200 + 3600) / 4 = 3,600; last week is 4,200: +16.7 %.

Planned (approved plans): 11-16 squat, 11-18 overhead press, 11-20 squat, 11-22 bench press. Logs completed
11-16, 11-18 and 11-22; 11-20 went unlogged: 3 of 4 planned done, 3 training days.

Records last week (said when logged, bench on 11-22 only): heaviest 80 kg (before: 75 kg × 4) and estimated 1RM
80 × (1 + 5/30) = 93.3 kg (before: 75 × (1 + 4/30) = 85). Its session volume 1,200 kg only ties 10-27's
(60 × 5 × 4): no record. Squat and overhead press tie their bests: none. 2 PRs.

Overhead press stalls (plateau): its last 3 sessions (11-04, 11-11, 11-18) each estimate 50 × (1 + 5/30) =
58.3 kg, no better than 10-21's 58.3 kg, and no heavier set than 50 kg; no decline (4 equal sessions).
Bench press rises every session; squat has 3 sessions, none before them: no stall.

Targets (linear progression: every work set done): squat 5 × 5 at 105 kg (+5, lower body), bench press 3 × 5
at 82.5 kg (+2.5), overhead press 2 × 5 at 52.5 kg (+2.5); in order of last week's volume.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from engine.domains.registry import DomainRegistry
from engine.entries.model import EntryKind, NewEntry
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.records import RecordStore

USER = "console:kim"
WEEK = date(2026, 11, 16)
Set = tuple[float, int, str]
N = "normal"


def lift(on: date, name: str, sets: list[Set], kind: EntryKind = "parsed", key: str = "") -> NewEntry:
    details = [{"set_num": i, "weight": w, "reps": r, "kind": k} for i, (w, r, k) in enumerate(sets, start=1)]
    data: dict[str, Any] = {
        "activity_type": "strength",
        "domain": "strength",
        "exercises": [{"name": name, "sets": len(sets), "weight_unit": "kg", "set_details": details}],
        "metrics": [],
        "notes": "",
    }
    return NewEntry(
        occurred_on=on, domain="strength", activity_type="strength", kind=kind, summary=name, data=data,
        raw_text=name, terms=[name], source_key=key or f"{kind}:{name}:{on.isoformat()}",
    )  # fmt: skip


def sets(weight: float, reps: int, count: int) -> list[Set]:
    return [(weight, reps, N)] * count


def d(month: int, day: int) -> date:
    return date(2026, month, day)


BEFORE = [
    lift(d(10, 21), "overhead press", sets(50, 5, 2)),
    lift(d(10, 23), "deadlift", sets(100, 5, 5)),
    lift(d(10, 27), "bench press", sets(60, 5, 4)),
    lift(d(10, 29), "squat", sets(80, 5, 6)),
    lift(d(11, 4), "overhead press", sets(50, 5, 2)),
    lift(d(11, 5), "bench press", sets(70, 5, 2)),
    lift(d(11, 6), "deadlift", sets(120, 5, 5)),
    lift(d(11, 11), "overhead press", sets(50, 5, 2)),
    lift(d(11, 12), "bench press", sets(75, 4, 2)),
    lift(d(11, 13), "squat", sets(100, 5, 5)),
]
PLANNED = [
    lift(d(11, 16), "squat", sets(100, 5, 5), kind="planned"),
    lift(d(11, 18), "overhead press", sets(50, 5, 2), kind="planned"),
    lift(d(11, 20), "squat", sets(105, 5, 5), kind="planned"),
    lift(d(11, 22), "bench press", sets(80, 5, 3), kind="planned"),
]
LOGGED = [
    lift(d(11, 16), "squat", [(60, 5, "warmup"), *sets(100, 5, 5)], key="chat:squat"),
    lift(d(11, 18), "overhead press", sets(50, 5, 2), key="chat:ohp"),
]
SUNDAY = lift(d(11, 22), "bench press", sets(80, 5, 3), key="chat:bench")
"""Logged as a chat log (it sets the records); the engine test logs it as a message instead."""


async def seed(db: Database, registry: DomainRegistry, *, sunday: bool = True, user: str = USER) -> None:
    """The history, the plans, and last week's logs through the records' path (which completes plans)."""
    await EntryStore(db).add(user, [*BEFORE, *PLANNED])
    records = RecordStore(db, registry)
    for entry in [*LOGGED, SUNDAY] if sunday else LOGGED:
        await records.log(user, entry, "en")
