"""How the grounding check reads numbers, dates and times out of an answer
(the rules are listed in :mod:`engine.query.grounding`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Literal

# ---------------------------------------------------------------- reading

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_TOKEN = re.compile(
    rf"""
    (?P<iso>(?<![\d.,])(?P<iso_y>\d{{4}})(?P<iso_sep>[-./])(?P<iso_m>\d{{1,2}})(?P=iso_sep)(?P<iso_d>\d{{1,2}})(?!\d))
    |(?P<ko>(?:(?P<ko_y>\d{{4}})\s*년\s*)?(?P<ko_m>\d{{1,2}})\s*월\s*(?P<ko_d>\d{{1,2}})\s*일)
    |(?P<md>\b(?P<md_mon>{_MONTH})\b\.?\s+(?P<md_d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<md_y>\d{{4}})\b)?)
    |(?P<dm>(?<![\d.,])(?P<dm_d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<dm_mon>{_MONTH})\b\.?(?:,?\s+(?P<dm_y>\d{{4}})\b)?)
    |(?P<slash>(?<![\d/.,])(?P<sl_a>\d{{1,2}})/(?P<sl_b>\d{{1,2}})(?:/(?P<sl_y>\d{{4}}|\d{{2}}))?(?![\d/]))
    |(?P<clock>(?<![\d:.,])(?P<c1>\d{{1,3}}):(?P<c2>\d{{2}})(?::(?P<c3>\d{{2}}))?(?![\d:]))
    |(?P<kt>(?:(?P<kt_h>\d{{1,2}})\s*시간\s*)?(?P<kt_m>\d{{1,3}})\s*분\s*(?P<kt_s>\d{{1,2}})\s*초
        |(?P<kt_h2>\d{{1,2}})\s*시간\s*(?P<kt_m2>\d{{1,2}})\s*분)
    |(?P<apos>(?P<ap_m>\d{{1,2}})\s*['′]\s*(?P<ap_s>\d{{2}})(?:\s*(?:"|″|''))?)
    |(?P<per100>(?:/|\bper\s*)\s*100\s*(?:m|yd|meters?|metres?|yards?)\b|100\s*(?:m|미터|야드)\s*당)
    |(?P<num>[+\-−]?\d+(?:[.,]\d+)*)
     (?:(?P<pct>\s*(?:%|퍼센트|프로|percent\b|per\s*cent\b))
       |(?P<day_part>st|nd|rd|th|\s*(?:일|월|년))(?![a-z])
       |(?P<time_part>\s*(?:hours?|hrs?|h|시간|minutes?|mins?|min|분|seconds?|secs?|sec|s|초))(?![a-z]))?
    """,
    re.IGNORECASE | re.VERBOSE,
)
# "5x5", "55kg×10", "3 * 10": the x would glue the numbers to a letter.
_TIMES_SIGN = re.compile(r"(\d\s*(?:kgs?|lbs?|키로|킬로|회|reps?)?)\s*[x×*]\s*(?=[+\-]?\d)", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d\d")
_LIST_MARKER = re.compile(r"[.)](?:\s|$)")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d+")

_Value = tuple[float, float]
"""A number and half a unit of its last digit (how far a source may be from it)."""
_Reading = tuple[_Value, ...]
"""One way to read a token: numbers that must all be backed."""
_Day = tuple[int, int, int]
"""Year (0 when not written), month, day."""


_Part = Literal["", "date", "time"]


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    kind: Literal["number", "percent", "time", "date"]
    readings: tuple[_Reading, ...] = ()
    days: tuple[_Day, ...] = ()
    part: _Part = ""
    """A number written as part of a date ("20th", "20일", "2026") or of a time ("25 min")."""


def _value(text: str) -> _Value:
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return abs(float(text)), 0.5 * 10.0**-decimals


def _number_readings(text: str) -> tuple[_Reading, ...]:
    digits = text.lstrip("+-−")
    if "," not in digits and digits.count(".") <= 1:
        return ((_value(digits),),)
    readings: list[_Reading] = []
    if _THOUSANDS.fullmatch(digits):
        readings.append((_value(digits.replace(",", "")),))
    if _DOT_THOUSANDS.fullmatch(digits):
        readings.append((_value(digits.replace(".", "").replace(",", ".")),))
    if _DECIMAL_COMMA.fullmatch(digits):
        readings.append((_value(digits.replace(",", ".")),))
    if not readings:
        readings.append(tuple(_value(p) for p in re.split(r"[.,]", digits)))
    return tuple(readings)


def _valid(day: _Day) -> bool:
    year, month, dom = day
    try:
        date(year or 2000, month, dom)  # 2000 is a leap year, so 2/29 without a year passes
    except ValueError:
        return False
    return True


def _date_token(text: str, candidates: Iterable[_Day]) -> Token:
    days = tuple(d for d in candidates if _valid(d))
    if days:
        return Token(text, "date", days=days)
    # Date-shaped but no date ("3/45"): plain numbers, each to be backed.
    return Token(text, "number", readings=(tuple(_value(n) for n in re.findall(r"\d+", text)),))


def _year(text: str | None) -> int:
    if not text:
        return 0
    return int(text) + 2000 if len(text) == 2 else int(text)


def _clock(text: str, a: int, b: int, c: int | None) -> Token:
    if c is not None:
        seconds: tuple[float, ...] = (a * 3600 + b * 60 + c,)
    else:
        # Two groups: minutes:seconds as the log schemas write them, or hours:minutes.
        seconds = (a * 60 + b, a * 3600 + b * 60)
    return Token(text, "time", readings=tuple(((s, 0.5),) for s in seconds))


def _skipped(text: str, m: re.Match[str]) -> bool:
    start, end = m.span("num")
    before = text[start - 1] if start else ""
    if before.isascii() and before.isalpha():
        return True  # e1RM, W47, RPE8
    if text[end : end + 2].lower() == "rm":
        return True  # 1RM, 5RM
    line_start = text.rfind("\n", 0, start) + 1
    return (
        not text[line_start:start].strip(" \t(-*")
        and len(m.group("num")) <= 2
        and m.group("num").isdigit()
        and _LIST_MARKER.match(text, end) is not None
    )


def tokens(text: str) -> Iterator[Token]:
    """The number tokens of a text, harmless ones left out."""
    text = _TIMES_SIGN.sub(r"\1 x ", text)
    for m in _TOKEN.finditer(text):
        g = m.group
        if g("iso"):
            yield _date_token(g("iso"), [(int(g("iso_y")), int(g("iso_m")), int(g("iso_d")))])
        elif g("ko"):
            yield _date_token(g("ko"), [(_year(g("ko_y")), int(g("ko_m")), int(g("ko_d")))])
        elif g("md"):
            yield _date_token(g("md"), [(_year(g("md_y")), _MONTHS[g("md_mon")[:3].lower()], int(g("md_d")))])
        elif g("dm"):
            yield _date_token(g("dm"), [(_year(g("dm_y")), _MONTHS[g("dm_mon")[:3].lower()], int(g("dm_d")))])
        elif g("slash"):
            a, b, y = int(g("sl_a")), int(g("sl_b")), _year(g("sl_y"))
            yield _date_token(g("slash"), [(y, a, b), (y, b, a)])
        elif g("clock"):
            yield _clock(g("clock"), int(g("c1")), int(g("c2")), int(g("c3")) if g("c3") else None)
        elif g("kt"):
            if g("kt_s") is not None:
                seconds = int(g("kt_h") or 0) * 3600 + int(g("kt_m")) * 60 + int(g("kt_s"))
            else:
                seconds = int(g("kt_h2")) * 3600 + int(g("kt_m2")) * 60
            yield Token(g("kt"), "time", readings=(((seconds, 0.5),),))
        elif g("apos"):
            yield Token(g("apos"), "time", readings=(((int(g("ap_m")) * 60 + int(g("ap_s")), 0.5),),))
        elif g("num") and not _skipped(text, m):
            kind: Literal["number", "percent"] = "percent" if g("pct") else "number"
            part: _Part = "time" if g("time_part") else "date" if g("day_part") or _YEAR.fullmatch(g("num")) else ""
            yield Token(g("num") + ("%" if g("pct") else ""), kind, _number_readings(g("num")), part=part)


