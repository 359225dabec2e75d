"""The hour a person names, read in code: "6:30 pm", "18:30", "at 7", "오후 6시 반", "밤 9시", "아홉 시".

Only the words are read here; which day and which half of the day an hour with no am/pm falls in
is :mod:`engine.reminders.when`'s decision, because it depends on the moment the words are said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

Half = Literal["am", "pm", "night", "noon"]
"""What a period word says of the hour: morning (am), afternoon or evening (pm), the night (9 is 21:00,
1 is 01:00 after midnight), or midday (11 is 11:00, 1 is 13:00)."""

_PERIODS: dict[str, Half] = {
    "아침": "am", "오전": "am", "새벽": "am", "morning": "am",
    "오후": "pm", "저녁": "pm", "afternoon": "pm", "evening": "pm",
    "밤": "night", "night": "night", "tonight": "night",
    "점심": "noon", "낮": "noon",
}  # fmt: skip

_NATIVE_HOURS = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10,
    "열한": 11, "열두": 12,
}  # fmt: skip
_NATIVE = "열한|열두|다섯|여섯|일곱|여덟|아홉|한|두|세|네|열"
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, **_NATIVE_HOURS}
_COUNT_EN = r"\d{1,4}(?:\.\d+)?|an?|one|two|three|four|five|six|ten"

# Numbers that are a workout, not a clock: "at 7 reps", "7 sets", "for 10 minutes".
_NOT_A_CLOCK = (
    r"(?!\s*(?:(?:x|min|mins|minutes?|hours?|hrs?|h|seconds?|secs?|s|kg|kgs|lbs?|reps?|sets?|km|k|mi|miles?"
    r"|days?|weeks?)(?![a-z])|×|%|분|시간|초|회|세트|키로|킬로|개|번|일|주))"
)

EN_TIME = (
    r"(?:(?P<at>at|@|by|around)\s*)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?(?![\d:/.,])"
    r"(?:\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])|\s*(?P<oc>o'?clock)\b)?" + _NOT_A_CLOCK
)
"""An English clock time; ``at`` / ``@`` (or am/pm, a colon, "o'clock") is what marks a number a time."""
KO_TIME = rf"(?P<kh>\d{{1,2}}|{_NATIVE})\s*시(?!간)(?:\s*(?P<km>\d{{1,2}})\s*분|\s*(?P<half>반))?(?:\s*정각)?"
"""A Korean clock time: "7시", "6시 30분", "6시반", "아홉 시"."""
NOON = r"(?:at\s+)?(?P<noon>noon|midday|midnight)\b|(?P<kmid>자정|정오)"
EN_PERIOD = r"(?:in\s+the\s+|this\s+)?(?P<per>morning|afternoon|evening)\b|(?:at\s+)?(?P<per2>night)\b"
KO_PERIOD = r"(?P<kper>아침|오전|새벽|오후|저녁|밤|점심|낮)"

_UNIT_EN = r"d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?"
_PIECE_EN = rf"(?:{_COUNT_EN})\s*(?:{_UNIT_EN})(?![a-z])"
EN_DURATION = rf"(?P<dur>half\s+an?\s+hour|an?\s+hour\s+and\s+a\s+half|{_PIECE_EN}(?:\s*(?:and\s+|,\s*)?{_PIECE_EN})*)"
"""A span in English: "10m", "10 min", "1h30m", "2 hours", "an hour and a half", "1.5 hours"."""
_PIECE_KO = rf"(?:\d{{1,4}}|{_NATIVE})\s*(?:일|시간|분|초)(?:\s*반)?"
KO_DURATION = rf"(?P<kdur>{_PIECE_KO}(?:\s*{_PIECE_KO})*)"
"""A span in Korean: "10분", "1시간 30분", "한 시간 반", "3일"."""

_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1, "일": 86400, "시": 3600, "분": 60, "초": 1}
_PIECE = re.compile(
    rf"(?P<n>{_COUNT_EN}|{_NATIVE})\s*(?P<u>{_UNIT_EN}|일|시간|분|초)(?![a-z])(?P<half>\s*반)?", re.IGNORECASE
)


@dataclass(frozen=True)
class Clock:
    """An hour as written, before the day it falls on is known."""

    hour: int
    minute: int = 0
    meridiem: Literal["am", "pm"] | None = None
    """"am" / "pm" as written (English); None when not written."""
    padded: bool = False
    """Written with a leading zero ("07:00"): a 24-hour time, never the evening's."""
    midnight: bool = False
    """"midnight" / "자정": 00:00 of the day after the one named."""


def period_of(word: str) -> Half:
    """What a period word ("아침", "evening", "tonight") says of the hour."""
    return _PERIODS[word.lower()]


def clock_of(match: re.Match[str]) -> Clock | None:
    """The clock time an :data:`EN_TIME`, :data:`KO_TIME` or :data:`NOON` match names; None when the
    numbers are no time of day (minutes past 59, an hour past 23)."""
    found = match.groupdict()
    if found.get("noon") or found.get("kmid"):
        word = (found.get("noon") or found.get("kmid") or "").lower()
        return Clock(0, midnight=True) if word in ("midnight", "자정") else Clock(12, padded=True)
    if found.get("kh"):
        text = found["kh"]
        hour = int(text) if text.isdigit() else _NATIVE_HOURS[text]
        minute = 30 if found.get("half") else int(found.get("km") or 0)
        padded = text.startswith("0") or hour > 12
    else:
        hour, minute = int(found["h"]), int(found.get("m") or 0)
        padded = found["h"].startswith("0") and len(found["h"]) == 2
    meridiem: Literal["am", "pm"] | None = None
    if ap := found.get("ap"):
        meridiem = "am" if ap.lower().startswith("a") else "pm"
        if not 1 <= hour <= 12:
            return None  # "13pm", "0am"
    if hour > 23 or minute > 59:
        return None
    return Clock(hour, minute, meridiem, padded)


def hour_in(clock: Clock, half: Half | None) -> tuple[int, int] | None:
    """The 24-hour hour of ``clock`` and the days it falls after the day named (1 for "밤 1시", 01:00
    the night after), given am/pm or a period word; None for a contradiction ("아침 18시").

    With neither, the hour stays as written (the caller decides between 7:00 and 19:00)."""
    h = clock.hour
    if clock.midnight:
        return 0, 1
    if clock.meridiem is not None:
        return h % 12 + (12 if clock.meridiem == "pm" else 0), 0
    if half is None:
        return h, 0
    if h >= 13:
        # A 24-hour hour with a period word must agree with it ("오후 18시" yes, "아침 18시" no).
        return None if half == "am" else (h, 0)
    if h == 0:
        return (0, 0) if half == "am" else (0, 1) if half == "night" else None
    if half == "am":
        return h % 12, 0
    if half == "pm":
        return h % 12 + 12, 0
    if half == "night":
        # 밤 12시 is midnight and 밤 1-4시 the small hours, both after the day named; 밤 9시 is 21:00.
        return (h % 12, 1) if h == 12 or h <= 4 else (h + 12, 0)
    return (h + 12 if h <= 5 else h), 0  # midday: 점심 1시 is 13:00, 점심 11시 11:00


def span_of(text: str) -> timedelta | None:
    """The span an :data:`EN_DURATION` / :data:`KO_DURATION` match says ("1h30m" is 90 minutes)."""
    lowered = text.lower()
    if re.fullmatch(r"half\s+an?\s+hour", lowered):
        return timedelta(minutes=30)
    if re.fullmatch(r"an?\s+hour\s+and\s+a\s+half", lowered):
        return timedelta(minutes=90)
    seconds = 0.0
    for piece in _PIECE.finditer(lowered):
        n = piece["n"]
        count = float(n) if n[0].isdigit() else float(_COUNTS[n])
        unit = piece["u"]
        per = _SECONDS[unit[0]]
        seconds += count * per + (per / 2 if piece["half"] else 0)
    return timedelta(seconds=seconds) if seconds > 0 else None
