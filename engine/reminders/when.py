"""When a reminder is due, read from the person's words in code (no model), English and Korean.

One reading, decided here (``now`` is the moment the words are said; every time is wall-clock time
in the person's zone ``tz``; "ahead" means strictly after ``now``):

* **A span from now** ("in 10m", "in 1h30m", "in 2 hours", "10 minutes from now", "10분 뒤", "1시간
  30분 후", "한 시간 반 뒤") is a once reminder at ``now`` + the span, to the second (a fraction
  rounded up: 09:00:20.5 + 10m is 09:10:21), so "in 1m" is one minute, not up to two. Spans up to 366 days. On a fall-back night an instant in the repeated
  hour's second pass (01:30 EST) cannot be named by a :class:`Schedule`, which means the first pass;
  it is due at the first time after it that a schedule can name (02:00 EST): late, never lost.
* **A time with no day** ("9pm", "at 18:30", "6시 반") is today if still ahead, else tomorrow.
* **An hour with no am/pm and no period word** (1-12: "at 7", "6:30", "7시"):
  - with no day, or "today" / "오늘": the next of h:00 and (h+12):00 still ahead ("at 7" said at
    09:00 is 19:00 today; said at 06:00, 07:00 today);
  - with any other day or a repeat ("tomorrow at 7", "every day at 7", "weekdays 6:30", "매일 7시"):
    the 24-hour clock as written, 07:00 (a reminder for a morning session is the common one).
  An hour written with a leading zero ("07:00") or past 12 ("18:30", "18시") is always as written.
* **Period words**: 아침 / 오전 / 새벽 / morning → am (오전 12시 is 00:00); 오후 / 저녁 / afternoon /
  evening → pm; 밤 / night / tonight → 5-11 pm, but 12 and 1-4 are the small hours after the day
  named ("밤 12시", "밤 1시", "tonight at 1": the next day's 00:00, 01:00); 점심 / 낮 → 1-5 are pm.
  "midnight" / "자정" is 00:00 after the day named; "noon" / "정오" 12:00.
* **am / pm** need an hour 1-12: "13pm", "0am" are not read; nor are "25:00", "7:75", or a period
  word that contradicts the hour ("아침 18시").
* **Days**: today / tonight / 오늘, tomorrow / 내일, the day after tomorrow / 모레, a weekday
  ("on Friday", "Friday", "월요일"): the next such day, today if its time is still ahead; "next
  Friday" is strictly after today; "이번 주 / 다음 주 월요일" is that day of this / next calendar
  week (Monday to Sunday). A named day whose time has passed ("today at 8am" at 09:00) is not read.
* **Repeats**: every day / daily / 매일 / 날마다; every weekday / weekdays / 평일 / 주중 (Mon-Fri);
  weekends / 주말마다; "every Monday", "every Mon and Thu", "Mondays" (a plural), two weekdays
  named together ("Monday and Thursday"), "매주 월요일", "매주 월,목", "월요일마다". A repeat's
  small-hours time moves to the next weekday ("매주 금요일 밤 1시" is Saturday 01:00).
* Two things of one kind (two times, a span and a time) are not read.

Not read: dates by number ("on 12/3", "12월 3일"), "every 2 hours", "every other day", monthly
repeats, "this weekend" (once), "in the evening" without an hour, "at half past 6".
"""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from engine.reminders.clock import hour_in
from engine.reminders.schedule import Schedule, instant
from engine.reminders.words import Said, find_said

_LONGEST = timedelta(days=366)
_TRAILING = " \t\n.!?,~"


def read_when(words: str, now: datetime, tz: str) -> Schedule | None:
    """The schedule ``words`` say, when they are one when-phrase and nothing else.

    Args:
        words: "in 10m", "tomorrow 7am", "every Mon and Thu at 18:00", "매주 월요일 7시", ….
        now: The moment the words are said (timezone-aware).
        tz: The person's IANA zone; every wall-clock time is read in it.

    Returns:
        The schedule, or None when the words are not a when-phrase code reads (see the module
        docstring), name no real time, or name a once time already past.
    """
    text = unicodedata.normalize("NFC", words).strip(_TRAILING)
    found = find_said(text)
    if len(found) != 1 or found[0].start != 0 or found[0].end != len(text):
        return None
    return schedule_of(found[0], now, tz)


def schedule_of(said: Said, now: datetime, tz: str) -> Schedule | None:
    """The schedule one when-phrase says, said at ``now`` in ``tz``; None when it names no time."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    if said.bad or (said.span is None and said.clock is None):
        return None
    if said.span is not None:
        return _after(said.span, now, tz)
    assert said.clock is not None
    read = hour_in(said.clock, said.half)
    if read is None:
        return None
    hour, shift = read
    at = time(hour, said.clock.minute)
    if said.repeat == "daily":
        return Schedule(repeat="daily", at=at, tz=tz)
    if said.repeat == "weekly":
        return Schedule(repeat="weekly", at=at, tz=tz, days=tuple(sorted({(d + shift) % 7 for d in said.days})))
    today = now.astimezone(ZoneInfo(tz)).date()
    times = [at]
    clock = said.clock
    if said.offset in (None, 0) and not said.days and said.half is None and clock.meridiem is None:
        if not clock.padded and not clock.midnight and 1 <= clock.hour <= 12:
            times.append(time((hour + 12) % 24, clock.minute))  # the other half of the day
    candidates = [(day + timedelta(days=shift), t) for day in _days(said, today) for t in times if day is not None]
    ahead = [(instant(d, t, tz), d, t) for d, t in candidates if instant(d, t, tz) > now]
    if not ahead:
        return None
    _, day, at = min(ahead)
    return Schedule(repeat="once", at=at, tz=tz, on=day)


def _days(said: Said, today: date) -> list[date]:
    """The days a once phrase may fall on, earliest first (the first ahead is taken)."""
    if said.offset is not None:
        return [today + timedelta(days=said.offset)]
    if said.days:
        (weekday,) = said.days[:1]
        if said.week is not None:
            return [today + timedelta(days=weekday - today.weekday() + 7 * said.week)]
        first = today + timedelta(days=(weekday - today.weekday()) % 7)
        if said.strict and first == today:
            first += timedelta(days=7)
        return [first, first + timedelta(days=7)]
    # No day: today if still ahead, else tomorrow; yesterday too, for the small hours of tonight
    # ("밤 1시" said at 00:30 is 01:00 today, yesterday's night).
    return [today - timedelta(days=1), today, today + timedelta(days=1)]


def _after(span: timedelta, now: datetime, tz: str) -> Schedule | None:
    """A once schedule ``span`` from ``now``, to the second, rounded up (see the module docstring)."""
    if span <= timedelta(0) or span > _LONGEST:
        return None
    # In UTC: an aware datetime plus a timedelta is wall-clock arithmetic in its own zone, which would
    # make "in 24 hours" across a fall-back night 25 hours.
    due = now.astimezone(timezone.utc) + span
    if due.microsecond:
        due = due.replace(microsecond=0) + timedelta(seconds=1)
    zone = ZoneInfo(tz)
    # The loop runs more than once only in the second pass of a repeated hour (at most ~60 minutes).
    for _ in range(24 * 60):
        local = due.astimezone(zone)
        at = time(local.hour, local.minute, local.second)
        if instant(local.date(), at, tz) >= due:
            return Schedule(repeat="once", at=at, tz=tz, on=local.date())
        due += timedelta(minutes=1)
    return None
