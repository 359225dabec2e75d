"""Series against the hand-computed tables of :mod:`tests.engine.charts.seeded`: warm-ups, failed sets and
planned sessions never count, and a record is judged over the whole history."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date

import pytest

from engine.charts.reads import ChartReads
from engine.charts.series import bodyweight_series, cardio_series, days_series, lift_series, volume_series
from tests.conftest import OpenDb
from tests.engine.charts.seeded import TRAINING_DAYS, USER, seed
from tests.helpers.domains import BUILTIN

START, END = date(2026, 9, 1), date(2026, 10, 31)


@pytest.fixture
async def reads(open_db: OpenDb) -> AsyncIterator[ChartReads]:
    db = await open_db()
    await seed(db)
    yield ChartReads(db, BUILTIN)
    await db.close()


async def test_a_lift_per_session_with_records(reads: ChartReads) -> None:
    rows = await reads.work_sets(USER, ["bench press"], END)
    s = lift_series("bench press", rows, START, END)
    got = [(x.on.isoformat(), round(x.e1rm, 4), x.top_weight, x.top_reps, x.pr) for x in s.sessions]
    assert s.unit == "kg"
    assert got == [
        ("2026-09-01", 70.0, 62.5, 3, False),
        ("2026-09-08", 75.8333, 65.0, 5, True),
        ("2026-09-15", 77.0, 70.0, 3, True),
        ("2026-09-22", 78.75, 67.5, 5, True),
        ("2026-10-06", 75.8333, 65.0, 5, False),
    ]
    assert [(x.e1rm_weight, x.e1rm_reps) for x in s.sessions][:2] == [(60.0, 5), (65.0, 5)]


async def test_records_are_judged_over_the_history_before_the_period(reads: ChartReads) -> None:
    rows = await reads.work_sets(USER, ["bench press"], END)
    s = lift_series("bench press", rows, date(2026, 9, 15), END)
    assert [(x.on.day, x.pr) for x in s.sessions] == [(15, True), (22, True), (6, False)]


async def test_weekly_volume_of_working_sets(reads: ChartReads) -> None:
    days, units = await reads.daily_volumes(USER, ["bench press"], date(2026, 8, 31), date(2026, 10, 11))
    s = volume_series(["bench press"], days, units, date(2026, 8, 31), date(2026, 10, 11))
    ((lift, weeks),) = s.lifts
    assert lift == "bench press" and s.unit == "kg"
    assert [(w.start.isoformat(), w.value) for w in weeks] == [
        ("2026-08-31", 787.5),
        ("2026-09-07", 325.0),
        ("2026-09-14", 210.0),
        ("2026-09-21", 337.5),
        ("2026-09-28", 0.0),
        ("2026-10-05", 325.0),
    ]


async def test_training_days_leave_meals_out(reads: ChartReads) -> None:
    s = days_series(await reads.training_days(USER, START, END), START, END)
    assert list(s.days) == TRAINING_DAYS
    assert [w.value for w in s.weeks] == [1, 2, 2, 1, 1, 1, 0, 0, 0]  # weeks of 08-31 … 10-26


async def test_runs_per_week_and_pace(reads: ChartReads) -> None:
    bouts = await reads.bouts(USER, "running", START, END)
    s = cardio_series("running", "km", 1, bouts, START, END)
    assert [(b.on.day, b.distance, b.pace) for b in s.bouts] == [(10, 5.0, 300.0), (17, 10.0, 330.0)]
    assert [w.value for w in s.weeks][:3] == [0.0, 5.0, 10.0]


async def test_bodyweight_one_a_day(reads: ChartReads) -> None:
    s = bodyweight_series(await reads.weigh_ins(USER, START, END), START, END)
    assert [(p.on.isoformat(), p.value) for p in s.points] == [
        ("2026-09-01", 80.0),
        ("2026-09-15", 79.0),
        ("2026-10-01", 78.2),
    ]
    assert s.unit == "kg"


async def test_another_person_sees_nothing(reads: ChartReads) -> None:
    assert await reads.work_sets("console:lee", ["bench press"], END) == []
    assert await reads.training_days("console:lee", START, END) == []
