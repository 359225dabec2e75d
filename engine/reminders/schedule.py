"""When a reminder is due: one reading of a schedule, in the person's time zone.

A schedule is wall-clock time in an IANA zone ("every Monday 7:00" in Asia/Seoul), never a fixed
UTC offset, so a repeating reminder keeps its hour across daylight-saving changes. The two edges of a
change are decided here, once:

* a wall time that does not exist (02:30 on a spring-forward night in Europe/Berlin) is due at the
  same instant one hour on, as the clock reads after the jump (03:30), like the zone's own rule;
* a wall time that happens twice (02:30 on a fall-back night) is due at its first occurrence only.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, model_validator

Repeat = Literal["once", "daily", "weekly"]

WEEKDAYS = (0, 1, 2, 3, 4)
"""Monday to Friday (``date.weekday()``)."""


class Schedule(BaseModel):
    """When a reminder is due, as the person said it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    repeat: Repeat
    at: time
    """The wall-clock time of day (no tzinfo), in ``tz``."""
    tz: str
    """The IANA zone the time is read in (the person's ``/tz``)."""
    on: date | None = None
    """The day of a ``once`` reminder."""
    days: tuple[int, ...] = Field(default=())
    """Weekdays of a ``weekly`` reminder (0 = Monday), sorted, at least one."""

    @model_validator(mode="after")
    def _consistent(self) -> Schedule:
        if self.at.tzinfo is not None:
            raise ValueError("at is a wall-clock time: no tzinfo")
        try:
            ZoneInfo(self.tz)
        except (ZoneInfoNotFoundError, ValueError) as e:
            raise ValueError(f"unknown time zone: {self.tz}") from e
        if self.repeat == "once" and self.on is None:
            raise ValueError("a once reminder needs its day")
        if self.repeat != "once" and self.on is not None:
            raise ValueError("only a once reminder has a day")
        if self.repeat == "weekly" and (not self.days or any(d not in range(7) for d in self.days)):
            raise ValueError("a weekly reminder needs weekdays 0-6")
        if self.repeat != "weekly" and self.days:
            raise ValueError("only a weekly reminder has weekdays")
        if tuple(sorted(set(self.days))) != self.days:
            raise ValueError("weekdays are sorted and unique")
        return self


def instant(day: date, at: time, tz: str) -> datetime:
    """``day`` at wall time ``at`` in ``tz`` as an aware UTC instant (see the module docstring for DST)."""
    # fold=0 (PEP 495) gives both rules: a repeated time is its first occurrence, and a skipped time is
    # read with the offset before the jump, which lands one hour on (02:30 CET is 03:30 CEST).
    return datetime.combine(day, at, tzinfo=ZoneInfo(tz)).astimezone(timezone.utc)


def _days_from(start: date, schedule: Schedule) -> list[date]:
    if schedule.repeat == "once":
        assert schedule.on is not None
        return [schedule.on]
    # Nine days from the day before: every weekday after ``after``, including its own weekday a week on
    # (a weekly time earlier that same day is due next week).
    span = [start + timedelta(days=i) for i in range(9)]
    if schedule.repeat == "daily":
        return span
    return [d for d in span if d.weekday() in schedule.days]


def next_due(schedule: Schedule, after: datetime) -> datetime | None:
    """The first instant strictly after ``after`` (aware) when ``schedule`` is due, in UTC;
    None for a ``once`` reminder whose time has passed."""
    if after.tzinfo is None:
        raise ValueError("after must be timezone-aware")
    start = after.astimezone(ZoneInfo(schedule.tz)).date() - timedelta(days=1)
    for day in _days_from(start, schedule):
        due = instant(day, schedule.at, schedule.tz)
        if due > after:
            return due
    return None
