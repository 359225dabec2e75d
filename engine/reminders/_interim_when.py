"""A stand-in reading of "when" until ``engine/reminders/when.py`` lands (issue 25): the same two
functions, for three forms only — "in 10m" / "in 2h", "at 18:30", "every Monday 7:00".

The integrator replaces the one import of this module (``engine/reminders/commands.py``) with
``engine.reminders.when`` and deletes this file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.reminders.schedule import Schedule

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_IN = re.compile(r"in\s+(\d{1,4})\s*(m|min|mins|minutes?|h|hr|hrs|hours?)\b", re.IGNORECASE)
_AT = re.compile(r"at\s+(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_EVERY = re.compile(rf"every\s+({'|'.join(_DAYS)})\s+(?:at\s+)?(\d{{1,2}}):(\d{{2}})\b", re.IGNORECASE)


@dataclass(frozen=True)
class ReminderRequest:
    """A reminder as read from words: when, and what to say."""

    schedule: Schedule
    what: str


def _read(words: str, now: datetime, tz: str) -> tuple[Schedule, int] | None:
    """The schedule the words start with, and how many characters it took."""
    local = now.astimezone(ZoneInfo(tz))
    if m := _IN.match(words):
        amount = int(m.group(1))
        delta = timedelta(hours=amount) if m.group(2).lower().startswith("h") else timedelta(minutes=amount)
        due = (local + delta).replace(microsecond=0)
        return Schedule(repeat="once", at=due.time(), on=due.date(), tz=tz), m.end()
    if m := _AT.match(words):
        at = time(int(m.group(1)), int(m.group(2)))
        day = local.date() if at > local.time() else local.date() + timedelta(days=1)
        return Schedule(repeat="once", at=at, on=day, tz=tz), m.end()
    if m := _EVERY.match(words):
        day_index = _DAYS.index(m.group(1).lower())
        at = time(int(m.group(2)), int(m.group(3)))
        return Schedule(repeat="weekly", at=at, days=(day_index,), tz=tz), m.end()
    return None


def read_when(words: str, now: datetime, tz: str) -> Schedule | None:
    """The schedule ``words`` name (all of them), or None."""
    try:
        found = _read(words.strip(), now, tz)
    except ValueError:  # 25:00, a day past the calendar
        return None
    return found[0] if found is not None and found[1] == len(words.strip()) else None


def read_reminder(text: str, now: datetime, tz: str) -> ReminderRequest | None:
    """``in 1m stretch`` → when and what; None when no time leads or nothing follows it."""
    text = text.strip()
    try:
        found = _read(text, now, tz)
    except ValueError:
        return None
    if found is None:
        return None
    schedule, end = found
    what = text[end:].strip(" ,:-")
    return ReminderRequest(schedule, what) if what else None
