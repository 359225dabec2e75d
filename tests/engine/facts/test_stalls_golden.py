"""Stall verdicts on the imported Strong export (tests/data/strong_history.csv), read off the file by hand.

Each session's best estimated 1RM (Epley over its work sets: no W warm-ups, no F or 0-rep failures):

* bench press: 95 × 5 = 110.8 on 2025-08-16, 2025-11-24, 2026-02-17, 2026-05-03, 2026-07-22, 2026-10-10;
  the best before the last three: 110.8 on 2025-06-07 (heaviest set 100 × 3 on 2025-06-12, 110) → plateau;
  the last four are flat (slope 0) → no decline.
* squat: 137.5 × 5 = 160.4 on 2026-03-19, 06-07, 08-21, 11-14 → plateau since 2026-03-19.
* deadlift: 170 × 3 = 187 (2026-01-13), then 172.5 × 3 = 189.75 (04-13, 06-27, 09-15): the last three beat
  187 → progress, not a stall (the F set of 185 kg on 2024-09-15 is not counted; 175 × 2 = 186.7 that day is).
* incline bench press: 75 × 5 = 87.5 from 2025-06-07 on → plateau since 2025-06-07.

Deload weights (90 % of the last work weight, down to 2.5 kg): bench 95 → 85.5 → 85; squat 137.5 → 123.75
→ 122.5; deadlift 172.5 → 155.25 → 155; incline 75 → 67.5 → 67.5; 100 lb → 90 (5 lb plates).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date

import pytest

from engine.domains.registry import DomainRegistry
from engine.facts.model import Progress, Stall
from engine.facts.stalls import lift_stall
from engine.store.db import Database
from engine.store.lift_sessions import SessionStore
from engine.tasks.coded import deload_weight
from tests.conftest import OpenDb
from tests.engine.facts.test_history import import_history
from tests.helpers.domains import BUILTIN

USER = "tg:42"
RULES = DomainRegistry.load().get("strength").progression  # type: ignore[union-attr]


@pytest.fixture
async def db(open_db: OpenDb) -> AsyncIterator[Database]:
    database = await open_db()
    await import_history(database, USER)
    yield database
    await database.close()


@pytest.mark.parametrize(
    ("lift", "window", "best_on", "best"),
    [
        ("bench press", [date(2026, 5, 3), date(2026, 7, 22), date(2026, 10, 10)], date(2025, 6, 7), 110.833),
        ("squat", [date(2026, 6, 7), date(2026, 8, 21), date(2026, 11, 14)], date(2026, 3, 19), 160.417),
        ("incline bench press", [date(2026, 5, 3), date(2026, 7, 22), date(2026, 10, 10)], date(2025, 6, 7), 87.5),
    ],
)
async def test_plateaus_in_the_strong_history(
    db: Database, lift: str, window: list[date], best_on: date, best: float
) -> None:
    found = await lift_stall(SessionStore(db), BUILTIN, USER, lift)
    assert found is not None
    stall = found[0]
    assert isinstance(stall, Stall) and stall.rule == "plateau"
    assert [p.on for p in stall.sessions] == window
    assert all(p.e1rm == pytest.approx(best, abs=1e-3) for p in stall.sessions)  # ties are no progress
    assert (stall.best.on, stall.since, stall.unit) == (best_on, best_on, "kg")
    assert stall.best.e1rm == pytest.approx(best, abs=1e-3)


async def test_the_deadlift_is_progressing(db: Database) -> None:
    found = await lift_stall(SessionStore(db), BUILTIN, USER, "deadlift")
    assert found is not None
    progress = found[0]
    assert isinstance(progress, Progress) and progress.latest_best and progress.before_best
    assert (progress.latest_best.on, progress.latest_best.e1rm) == (date(2026, 4, 13), 189.75)
    assert (progress.before_best.on, progress.before_best.e1rm) == (date(2026, 1, 13), 187.0)


async def test_the_sessions_read_leave_out_warm_ups_and_failures(db: Database) -> None:
    # Deadlift before 2026-04-13 (the last 3 of 4 read): best 187 on 2026-01-13, heaviest 175 (2024-09-15, not
    # the F set of 185); 2025-07-01's bench of 105 × 0 is no session top either.
    lift = await SessionStore(db).recent(USER, "deadlift", 3)
    assert [s.on for s in lift.recent] == [date(2026, 4, 13), date(2026, 6, 27), date(2026, 9, 15)]
    assert lift.best_before is not None and (lift.best_before.on, round(lift.best_before.e1rm_kg, 6)) == (
        date(2026, 1, 13),
        187,
    )
    assert lift.top_before == 175
    bench = await SessionStore(db).recent(USER, "bench press", 4)
    assert bench.recent[0].on == date(2026, 2, 17) and bench.top_before == 100  # 100 × 3 on 2025-06-12


@pytest.mark.parametrize(
    ("last", "unit", "weight"),
    [(95, "kg", 85), (137.5, "kg", 122.5), (172.5, "kg", 155), (75, "kg", 67.5), (100, "lb", 90)],
)
def test_deload_weights(last: float, unit: str, weight: float) -> None:
    assert RULES is not None and deload_weight(last, unit, RULES) == weight
