"""The date expressions :func:`engine.language.dates.resolve_date` understands:
one pattern and one handler each, English and Korean (the rules are listed in
that module's docstring)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Literal

Status = Literal["ok", "invalid", "future"]
_Resolved = tuple[date | None, Status]
_Handler = Callable[[re.Match[str], str, date], _Resolved | None]

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
# Denominators of the fractions people write in logs (1/2 marathon, 3/4 squats, 1/8 mile).
_FRACTION_BOTTOMS = frozenset({2, 3, 4, 8})
_ARTICLE_BEFORE = re.compile(r"(?<![a-z])(?:an?|the)\s+$", re.IGNORECASE)
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


WEEKDAY_FULL_NAMES = _FULL_DAYS
"""English weekday names in full ("thursday"), a regex alternation."""
WEEKDAY_NAMES = _ANY_DAY
"""English weekday names and their short forms ("thursday", "thurs", "thu"), a regex alternation."""
KOREAN_WEEKDAYS = _KOREAN_DAYS
"""The Korean weekday syllables, Monday first (월 … 일): ``X요일``, or ``X`` alone where a reader knows
the word is a weekday ("매주 월,목")."""


def weekday_number(word: str) -> int | None:
    """The weekday (0 = Monday) a word names: an English name or short form matched by
    :data:`WEEKDAY_NAMES` (a plural "mondays" too), or a Korean ``월요일`` or its syllable ``월``."""
    word = word.strip().lower()
    if word[:1] in _KOREAN_DAYS and word[1:] in ("", "요일"):
        return _KOREAN_DAYS.index(word[0])
    if re.fullmatch(rf"(?:{_ANY_DAY})s?", word):
        return _DAY_ABBREVIATIONS.index(word[:3]) // 3
    return None


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


def _fraction_or_score(match: re.Match[str], text: str) -> bool:
    """``1/2``, ``3/4`` (fractions), ``10/10``, ``5/5`` (scores, ratios), ``a 1/3 …``: not dates."""
    if match.group()[len(match["m"])] != "/":
        return False
    top, bottom = int(match["m"]), int(match["d"])
    return (
        top == bottom
        or (bottom in _FRACTION_BOTTOMS and top < bottom)
        or bool(_ARTICLE_BEFORE.search(text, 0, match.start()))
    )


def _bare_month_day(match: re.Match[str], text: str, today: date) -> _Resolved | None:
    month, day = int(match["m"]), int(match["d"])
    # Out-of-range pairs ("25/30", "52.5") are scores or decimals, not dates.
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if _WORKOUT_BEFORE.search(text, 0, match.start()) or _WORKOUT_AFTER.match(text, match.end()):
        return None
    if _fraction_or_score(match, text):
        return None
    return _yearless(month, day, today)


_DATE_CUE_BEFORE = re.compile(r"(?<![a-z])(?:on|date|dated|since|until)\s*:?\s*$|날짜\s*:?\s*$", re.IGNORECASE)
_DATE_CUE_AFTER = re.compile(r"\s*(?:에|일에)")


def is_guess(handler: _Handler, text: str, start: int, end: int) -> bool:
    """Whether the date a handler read at ``text[start:end]`` is a guess the person should hear about.

    A bare ``10/5`` may be a date or two numbers, unless the words around it
    say it is a date (``on 10/5``, ``10/5에``).
    """
    if handler is not _bare_month_day:
        return False
    return not (_DATE_CUE_BEFORE.search(text, 0, start) or _DATE_CUE_AFTER.match(text, end))


PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), handler)
    for pattern, handler in (
        (r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b", _fixed(0)),
        (r"\b(?:yesterday(?:\s+(?:morning|afternoon|evening|night))?|last\s+night)\b", _fixed(-1)),
        (r"\b(?:the\s+)?day\s+before\s+yesterday\b", _fixed(-2)),
        (r"\btomorrow\b", _fixed(1)),
        (r"\b(?:the\s+)?day\s+after\s+tomorrow\b", _fixed(2)),
        ("오늘" + _PART_OF_DAY_KO, _fixed(0)),
        ("(?:어제|어저께)" + _PART_OF_DAY_KO + r"|어젯\s*밤", _fixed(-1)),
        # 그제야 and 그제서야 mean "only then", not a day.
        (r"엊?그(?:저께|제)(?![서야])", _fixed(-2)),
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
