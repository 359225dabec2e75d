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
numbers ("5/3/1", "52.5", "5:30/km"), and when no unit, rep/set word or
x-notation touches them ("55kg 10/5", "10/5 sets", "x 10/5", "8/10 RPE").
"bench 10/5" alone is still October 5th: the number has nothing marking it
as a load, and a person typing a bare M/D after an exercise more likely means
a date.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict

Status = Literal["ok", "invalid", "future"]
_Resolved = tuple[date | None, Status]
_Handler = Callable[[re.Match[str], str, date], _Resolved | None]


class DateMention(BaseModel):
    """A date expression found in text and what it resolves to."""

    model_config = ConfigDict(frozen=True)

    on: date | None
    """The resolved day; None when the phrase names an impossible date."""
    phrase: str
    """The words that named the date, as written (NFC)."""
    status: Status
    """``ok``; ``invalid`` for impossible dates; ``future`` for dates after today."""


_DAY_ABBREVIATIONS = "montuewedthufrisatsun"
_MONTH_ABBREVIATIONS = "janfebmaraprmayjunjulaugsepoctnovdec"
_KOREAN_DAYS = "월화수목금토일"
_WORD_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_KOREAN_COUNTS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "일주일": 7}
_KOREAN_WEEKS = {
    "지지난": -2, "저저번": -2, "지난": -1, "저번": -1, "이번": 0, "다음": 1, "담": 1,
}  # fmt: skip
# Leap-year month lengths: a yearless Feb 29 is possible, Feb 30 never is.
_MAX_DAY = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

_FULL_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ANY_DAY = _FULL_DAYS + "|tues|tue|weds|wed|thurs|thur|thu|mon|fri|sat|sun"
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec"
)
_PART_OF_DAY_KO = r"(?:\s*(?:아침|오전|점심|오후|저녁|밤|새벽))?"

# Text right before / after a bare M/D that marks the numbers as a workout.
_WORKOUT_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:kgs?|lbs?|reps?|sets?|rpe)|키로|킬로|파운드|회|세트|[x×*@])\s*$",
    re.IGNORECASE,
)
_WORKOUT_AFTER = re.compile(
    r"\s*(?:(?:kgs?|lbs?|reps?|sets?|rpe|km|mi)(?![a-z])"
    r"|키로|킬로|파운드|회|세트|개|[x×*%])",
    re.IGNORECASE,
)


def _status(on: date, today: date) -> _Resolved:
    return on, "future" if on > today else "ok"


def _shift(today: date, days: int) -> _Resolved:
    try:
        return _status(today + timedelta(days=days), today)
    except OverflowError:
        return None, "invalid"


def _explicit(year: int, month: int, day: int, today: date) -> _Resolved:
    try:
        return _status(date(year, month, day), today)
    except ValueError:
        return None, "invalid"


def _yearless(month: int, day: int, today: date) -> _Resolved:
    if not (1 <= month <= 12 and 1 <= day <= _MAX_DAY[month - 1]):
        return None, "invalid"
    # Eight years back always reaches a Feb 29 (1900 and 2100 skip one).
    for year in range(today.year, today.year - 9, -1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= today:
            return candidate, "ok"
    return None, "invalid"


def _on_or_before(today: date, weekday: int) -> date:
    return today - timedelta(days=(today.weekday() - weekday) % 7)


def _strictly_before(today: date, weekday: int) -> date:
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _strictly_after(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _in_week(today: date, weeks: int, weekday: int) -> date:
    return today + timedelta(days=weekday - today.weekday() + 7 * weeks)


def _english_day(match: re.Match[str]) -> int:
    return _DAY_ABBREVIATIONS.index(match["wd"][:3].lower()) // 3


def _korean_day(match: re.Match[str]) -> int:
    return _KOREAN_DAYS.index(match["wd"])


def _fixed(days: int) -> _Handler:
    def handle(match: re.Match[str], text: str, today: date) -> _Resolved:
        return _shift(today, days)

    return handle


def _ago_english(match: re.Match[str], text: str, today: date) -> _Resolved:
    word = match["n"].lower()
    count = 2 if "couple" in word else _WORD_NUMBERS.get(word) or int(word)
    per = 7 if match["unit"].lower().startswith("week") else 1
    return _shift(today, -count * per)


def _ago_korean(match: re.Match[str], text: str, today: date) -> _Resolved:
    per = 1 if match["unit"] == "일" else 7
    return _shift(today, -int(match["n"]) * per)


def _ago_korean_word(match: re.Match[str], text: str, today: date) -> _Resolved:
    word = match["w"]
    return _shift(today, -_KOREAN_COUNTS.get(word, 7))


def _last_english(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _strictly_before(today, _english_day(match)), "ok"


def _last_korean(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _strictly_before(today, _korean_day(match)), "ok"


def _next_english(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _strictly_after(today, _english_day(match)), "future"


def _recent_english(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _on_or_before(today, _english_day(match)), "ok"


def _recent_korean(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _on_or_before(today, _korean_day(match)), "ok"


def _previous_week_english(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _in_week(today, -1, _english_day(match)), "ok"


def _week_korean(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _status(_in_week(today, _KOREAN_WEEKS[match["rel"]], _korean_day(match)), today)


def _full_numeric(match: re.Match[str], text: str, today: date) -> _Resolved:
    return _explicit(int(match["y"]), int(match["m"]), int(match["d"]), today)


def _korean_date(match: re.Match[str], text: str, today: date) -> _Resolved:
    month, day = int(match["m"]), int(match["d"])
    if match["y"] is None:
        return _yearless(month, day, today)
    year = int(match["y"])
    return _explicit(year + 2000 if year < 100 else year, month, day, today)


def _month_name(match: re.Match[str], text: str, today: date) -> _Resolved:
    month = _MONTH_ABBREVIATIONS.index(match["mon"][:3].lower()) // 3 + 1
    day = int(match["d"])
    if match["y"] is None:
        return _yearless(month, day, today)
    return _explicit(int(match["y"]), month, day, today)


def _bare_month_day(match: re.Match[str], text: str, today: date) -> _Resolved | None:
    month, day = int(match["m"]), int(match["d"])
    # Out-of-range pairs ("25/30", "52.5") are scores or decimals, not dates.
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if _WORKOUT_BEFORE.search(text, 0, match.start()) or _WORKOUT_AFTER.match(text, match.end()):
        return None
    return _yearless(month, day, today)


_PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), handler)
    for pattern, handler in (
        (r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b", _fixed(0)),
        (r"\b(?:yesterday(?:\s+(?:morning|afternoon|evening|night))?|last\s+night)\b", _fixed(-1)),
        (r"\b(?:the\s+)?day\s+before\s+yesterday\b", _fixed(-2)),
        (r"\btomorrow\b", _fixed(1)),
        (r"\b(?:the\s+)?day\s+after\s+tomorrow\b", _fixed(2)),
        ("오늘" + _PART_OF_DAY_KO, _fixed(0)),
        ("(?:어제|어저께)" + _PART_OF_DAY_KO + r"|어젯\s*밤", _fixed(-1)),
        # 그제서야 means "only then", not a day.
        (r"엊?그(?:저께|제)(?!서)", _fixed(-2)),
        ("내일", _fixed(1)),
        ("모레", _fixed(2)),
        (
            r"\b(?P<n>\d{1,6}|an?|one|two|three|four|five|six|seven|eight|nine|ten"
            r"|(?:a\s+)?couple(?:\s+of)?)\s+(?P<unit>days?|weeks?)\s+ago\b",
            _ago_english,
        ),
        (r"(?<!\d)(?P<n>\d{1,6})\s*(?P<unit>일|주일|주)\s*전", _ago_korean),
        (r"(?P<w>하루|이틀|사흘|나흘|닷새|일주일|한\s*주)\s*전", _ago_korean_word),
        (rf"\b(?:last|this\s+past|past)\s+(?P<wd>{_ANY_DAY})\b", _last_english),
        (rf"\bnext\s+(?P<wd>{_ANY_DAY})\b", _next_english),
        (rf"\blast\s+week(?:\s+on)?\s+(?P<wd>{_ANY_DAY})\b", _previous_week_english),
        (rf"\b(?:on\s+)?(?P<wd>{_ANY_DAY})\s+(?:of\s+)?last\s+week\b", _previous_week_english),
        (rf"\b(?:on|this)\s+(?P<wd>{_ANY_DAY})\b", _recent_english),
        (rf"\b(?P<wd>{_FULL_DAYS})\b", _recent_english),
        (
            r"(?P<rel>지지난|저저번|지난|저번|이번|다음|담)\s*주\s*(?:에\s*)?"
            r"(?P<wd>[월화수목금토일])요일",
            _week_korean,
        ),
        (r"(?:지난|저번)\s*(?P<wd>[월화수목금토일])요일", _last_korean),
        (r"(?P<wd>[월화수목금토일])요일", _recent_korean),
        (
            r"(?<![\d./-])(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)",
            _full_numeric,
        ),
        (r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?!\d)", _full_numeric),
        (r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})(?!\d)", _full_numeric),
        (r"(?<![\d/.:,])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/]|[.,]\d)", _bare_month_day),
        (r"(?<![\d/.:,])(?P<m>\d{1,2})\.(?P<d>\d{2})(?![\d/]|[.,]\d)", _bare_month_day),
        (
            r"(?:(?<!\d)(?P<y>\d{4}|\d{2})\s*년\s*)?(?<!\d)(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일",
            _korean_date,
        ),
        (
            rf"\b(?P<mon>{_MONTHS})\.?\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
            r"(?:,?\s*(?P<y>\d{4})\b)?",
            _month_name,
        ),
        (
            rf"(?<![\d.])(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s*(?:of\s+)?(?P<mon>{_MONTHS})\b\.?"
            rf"(?:,?\s*(?P<y>\d{{4}})\b)?",
            _month_name,
        ),
    )
)


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
            for order, (pattern, handler) in enumerate(_PATTERNS)
            for hit in pattern.finditer(source)
        ),
        key=lambda candidate: candidate[:3],
    )
    for _, _, _, hit, handler in candidates:
        resolved = handler(hit, source, today)
        if resolved is not None:
            on, status = resolved
            return DateMention(on=on, phrase=hit.group(), status=status)
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
        raise ValueError(
            f"unknown time zone {tz_name!r}; use an IANA name such as 'Asia/Seoul'"
        ) from error
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
