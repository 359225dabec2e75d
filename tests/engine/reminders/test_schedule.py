"""When a reminder is due: hand-computed instants, daylight-saving edges included."""

from __future__ import annotations

from datetime import date, datetime, time, timezone

import pytest
from pydantic import ValidationError

from engine.reminders.schedule import WEEKDAYS, Schedule, next_due

UTC = timezone.utc
BERLIN, SEOUL, NEW_YORK = "Europe/Berlin", "Asia/Seoul", "America/New_York"


def at(y: int, mo: int, d: int, h: int, mi: int = 0) -> datetime:
    return datetime(y, mo, d, h, mi, tzinfo=UTC)


def test_a_once_reminder_is_due_once_then_never() -> None:
    s = Schedule(repeat="once", at=time(18, 30), tz=SEOUL, on=date(2026, 11, 26))
    assert next_due(s, at(2026, 11, 26, 0)) == at(2026, 11, 26, 9, 30)  # 18:30 KST = 09:30 UTC
    assert next_due(s, at(2026, 11, 26, 9, 30)) is None  # strictly after


def test_weekly_monday_seven_from_a_thursday() -> None:
    s = Schedule(repeat="weekly", at=time(7), tz=SEOUL, days=(0,))
    # Thursday 2026-11-26 09:00 KST → Monday 2026-11-30 07:00 KST = Sunday 22:00 UTC.
    assert next_due(s, at(2026, 11, 26, 0)) == at(2026, 11, 29, 22)


def test_weekdays_skip_the_weekend() -> None:
    s = Schedule(repeat="weekly", at=time(6, 30), tz=SEOUL, days=WEEKDAYS)
    # Friday 2026-11-27 07:00 KST (past 06:30) → Monday 2026-11-30 06:30 KST.
    assert next_due(s, at(2026, 11, 26, 22)) == at(2026, 11, 29, 21, 30)


def test_daily_keeps_its_wall_clock_hour_across_both_changes() -> None:
    s = Schedule(repeat="daily", at=time(9), tz=NEW_YORK)
    # 2026-03-08 US spring forward: 09:00 EST (14:00 UTC) the day before, 09:00 EDT (13:00 UTC) that day.
    assert next_due(s, at(2026, 3, 7, 12)) == at(2026, 3, 7, 14)
    assert next_due(s, at(2026, 3, 7, 15)) == at(2026, 3, 8, 13)
    # 2026-11-01 fall back: 09:00 EDT (13:00 UTC) on 10-31, 09:00 EST (14:00 UTC) on 11-01.
    assert next_due(s, at(2026, 10, 31, 12)) == at(2026, 10, 31, 13)
    assert next_due(s, at(2026, 10, 31, 14)) == at(2026, 11, 1, 14)


def test_a_skipped_time_is_due_an_hour_on_and_a_repeated_time_once() -> None:
    s = Schedule(repeat="daily", at=time(2, 30), tz=BERLIN)
    # 2026-03-29: 02:30 does not exist in Berlin; due at 03:30 CEST = 01:30 UTC.
    assert next_due(s, at(2026, 3, 28, 12)) == at(2026, 3, 29, 1, 30)
    # 2026-10-25: 02:30 happens twice (CEST 00:30 UTC, CET 01:30 UTC); only the first is due.
    assert next_due(s, at(2026, 10, 24, 12)) == at(2026, 10, 25, 0, 30)
    assert next_due(s, at(2026, 10, 25, 0, 30)) == at(2026, 10, 26, 1, 30)


@pytest.mark.parametrize(
    "fields",
    [
        {"repeat": "once", "at": time(7), "tz": SEOUL},
        {"repeat": "daily", "at": time(7), "tz": SEOUL, "on": date(2026, 1, 1)},
        {"repeat": "weekly", "at": time(7), "tz": SEOUL},
        {"repeat": "weekly", "at": time(7), "tz": SEOUL, "days": (7,)},
        {"repeat": "weekly", "at": time(7), "tz": SEOUL, "days": (3, 1)},
        {"repeat": "daily", "at": time(7), "tz": "Mars/Olympus"},
        {"repeat": "daily", "at": time(7, tzinfo=UTC), "tz": SEOUL},
    ],
)
def test_inconsistent_schedules_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises((ValidationError, ValueError)):
        Schedule.model_validate(fields)


def test_naive_after_is_refused() -> None:
    with pytest.raises(ValueError):
        next_due(Schedule(repeat="daily", at=time(7), tz=SEOUL), datetime(2026, 1, 1))


def test_a_weekly_time_earlier_on_the_same_weekday_is_due_a_week_on() -> None:
    s = Schedule(repeat="weekly", at=time(8), tz=SEOUL, days=(0,))
    # Monday 2026-11-30 20:00 KST (11:00 UTC), past Monday's 08:00 → Monday 2026-12-07 08:00 KST.
    assert next_due(s, at(2026, 11, 30, 11)) == at(2026, 12, 6, 23)
