"""Resolve when something happened from the person's own words.

Date arithmetic is done here, in code, because small models get weekday and
month arithmetic wrong. The caller supplies ``today`` in the person's time
zone (see :func:`today_in`); nothing here reads the clock except
``today_in`` when no ``now`` is given.

Rules, in English and Korean:

* today / tonight / this morning|afternoon|evening, 오늘 (아침/저녁/...) -> today.
* yesterday (morning/...), last night, 어제, 어저께, 어젯밤 -> today - 1.
* (the) day before yesterday, 그저께, 그제, 엊그제 -> today - 2.
* "N days|weeks ago" (N a number, a/an, one..ten, a couple of),
  "N일 전", "N주 전", "N주일 전", 하루/이틀/사흘/나흘/닷새/일주일/한 주 전.
* Weekdays (``wd``; English full names anywhere, three-letter forms only
  after last/on/this/next because "sat" and "sun" are ordinary words; Korean
  ``X요일`` only, since one-syllable forms like 월/화 are ordinary words):

  - "last wd", "this past wd", "지난 wd": the latest wd strictly before
    today. When today is Wednesday "last Monday" is two days ago; when
    today is Monday it is seven days ago.
  - "wd", "on wd", "this wd", "wd에": the latest wd on or before today,
    so "Monday" said on a Monday is today.
  - "지난주 wd", "저번 주 wd", "last week wd", "wd last week": wd of the
    previous calendar week (weeks run Monday to Sunday); 지지난주 goes two
    weeks back; "이번 주 wd" is this calendar week (may be future).
* Explicit dates: 2026-11-20, 2026/11/20, 2026.11.20, 11/20/2026 (month
  first), 20.11.2026 (day first), Nov 20, 20 Nov, November 20th, 2026,
  11월 20일, 2026년 11월 20일, 11.20 (month.day, day written with two digits).
* A date without a year is the latest such date not after today, so "12/25"
  said on 2026-01-03 is 2025-12-25; yearless dates are never future.
* Impossible dates (Feb 30, 2월 30일, 2026-13-01) -> status "invalid", on=None.
* tomorrow, day after tomorrow, 내일, 모레, next wd, 다음 주 wd, and explicit
  dates after today -> status "future" with the date.
* The first expression in the text wins; at the same position the longest.

Workout numbers are not dates. Bare "M/D" and "M.D" are read as dates only
when month is 1-12 and day 1-31, when they are not part of a longer run of
numbers ("5/3/1", "52.5", "5:30/km"), when no unit, rep/set word or
x-notation touches them ("55kg 10/5", "10/5 sets", "x 10/5", "8/10 RPE"),
and when they are no fraction, score or ratio: "1/2 marathon", "3/4 squats",
"a 1/3 …" (a fraction with 2, 3, 4 or 8 below), "10/10 laps", "5/5" (the
same number twice). "bench 10/5" alone is still October 5th, but such a
mention is marked ``ambiguous`` (unless "on 10/5" or "10/5에" says it is a
date): whoever stores it says which date it used.
Korean 그제야 / 그제서야 ("only then") are not 그제 (the day before yesterday).
"""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict

from engine.language.date_rules import PATTERNS, Status, is_guess


class DateMention(BaseModel):
    """A date expression found in text and what it resolves to."""

    model_config = ConfigDict(frozen=True)

    on: date | None
    """The resolved day; None when the phrase names an impossible date."""
    phrase: str
    """The words that named the date, as written (NFC)."""
    status: Status
    """``ok``; ``invalid`` for impossible dates; ``future`` for dates after today."""
    ambiguous: bool = False
    """The words may not mean a date at all (a bare ``10/5``): whoever uses it should say which date it took."""


def resolve_date(text: str, today: date) -> DateMention | None:
    """Find the first date expression in ``text`` and resolve it.

    Args:
        text: Free text in English and/or Korean.
        today: The person's current day, in their time zone.

    Returns:
        The mention, or None when the text names no date. See the module
        docstring for the expressions understood and the tie rules.
    """
    source = unicodedata.normalize("NFC", text)
    candidates = sorted(
        (
            (hit.start(), hit.start() - hit.end(), order, hit, handler)
            for order, (pattern, handler) in enumerate(PATTERNS)
            for hit in pattern.finditer(source)
        ),
        key=lambda candidate: candidate[:3],
    )
    for _, _, _, hit, handler in candidates:
        resolved = handler(hit, source, today)
        if resolved is not None:
            on, status = resolved
            guess = status == "ok" and is_guess(handler, source, hit.start(), hit.end())
            return DateMention(on=on, phrase=hit.group(), status=status, ambiguous=guess)
    return None


def today_in(tz_name: str, now: datetime | None = None) -> date:
    """Return the current day in an IANA time zone.

    Args:
        tz_name: IANA zone name such as ``Asia/Seoul``.
        now: The instant to convert (defaults to the current time). A naive
            value is taken as UTC, the usual meaning of a server timestamp.

    Returns:
        The calendar day at ``now`` in ``tz_name``.

    Raises:
        ValueError: ``tz_name`` is not a known IANA zone.
    """
    try:
        zone = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:
        raise ValueError(f"unknown time zone {tz_name!r}; use an IANA name such as 'Asia/Seoul'") from error
    moment = datetime.now(timezone.utc) if now is None else now
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(zone).date()


def date_range_back(today: date, days: int) -> tuple[date, date]:
    """Return the inclusive range covering the last ``days`` days up to today.

    Args:
        today: The last day of the range.
        days: How many days the range covers; 1 means just today.

    Returns:
        ``(first, today)`` with ``today - first == days - 1`` days.

    Raises:
        ValueError: ``days`` is less than 1.
    """
    if days < 1:
        raise ValueError(f"days must be at least 1, got {days}")
    return today - timedelta(days=days - 1), today
