"""Named periods in a question, resolved in code: "March 2021", "last year", "2월에", "ever".

A named day ("last Monday", "어제") is :func:`engine.language.dates.resolve_date`'s
job; this module reads spans of days, for counts, frequency and records:

* whole history: ever, all time, of all time, since I started, 역대,
  지금까지, 평생, 전체 기간, 통틀어;
* a month: "March 2021", "in March" / "last March" (the latest March not
  after today), "2021년 3월", "3월에" / "3월" (not "3월 5일", which is a day);
* a year: "in 2021", "2021년", last year / 작년 / 지난해, this year / 올해;
* a month or week relative to today: last month / 지난달, this month / 이번 달,
  last week / 지난주 / 저번 주, this week / 이번 주 (a period up to today);
* the last N days, weeks, months or years: "in the last 30 days",
  "past 2 weeks", "지난 30일", "최근 3개월".

Month names need a preposition or a year ("in May", "May 2021"), because
"may" and "march" are ordinary words.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from datetime import date, timedelta

from pydantic import BaseModel, ConfigDict

from engine.store.history import EVER

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "일": 1, "주": 7, "주일": 7}


class Period(BaseModel):
    """A span of days a question names."""

    model_config = ConfigDict(frozen=True)

    phrase: str
    start: date
    end: date

    @property
    def ever(self) -> bool:
        return (self.start, self.end) == EVER


def _month(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _latest_month(month: int, today: date) -> tuple[date, date]:
    return _month(today.year if month <= today.month else today.year - 1, month)


def _back(today: date, n: int, unit: str) -> tuple[date, date]:
    if unit.startswith(("month", "개월", "달")):
        year, month = divmod(today.year * 12 + today.month - 1 - n, 12)
        start = date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1])) + timedelta(days=1)
    elif unit.startswith(("year", "년", "해")):
        start = date(today.year - n, today.month, min(today.day, 28)) + timedelta(days=1)
    else:
        start = today - timedelta(days=n * _UNITS.get(unit, 1) - 1)
    return start, today


def _week(today: date, weeks_back: int) -> tuple[date, date]:
    monday = today - timedelta(days=today.weekday() + 7 * weeks_back)
    return monday, min(monday + timedelta(days=6), today)


_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(?:ever|all[- ]time|of all time|since i (?:started|began)|my whole history)\b", re.I), "ever"),
    (re.compile(r"역대|지금까지|평생|전체 기간|통틀어|이제까지"), "ever"),
    (re.compile(rf"\b(?:(?:in|during|for|of|since)\s+)?({_MONTH})\.?,?\s+((?:19|20)\d\d)\b", re.I), "month_year"),
    (re.compile(rf"\blast\s+({_MONTH})\b", re.I), "month"),
    (re.compile(rf"\b(?:in|during|for|of)\s+({_MONTH})\b", re.I), "month"),
    (re.compile(r"((?:19|20)\d\d)\s*년\s*(1[0-2]|0?[1-9])\s*월(?!\s*\d+\s*일)"), "ko_month_year"),
    (re.compile(r"(?<![\d.])(1[0-2]|0?[1-9])\s*월(?!\s*\d+\s*일)(?!요일)"), "ko_month"),
    (re.compile(r"(?<![\d.])((?:19|20)\d\d)\s*년(?!\s*\d+\s*월)"), "year"),
    (re.compile(r"\b(?:in|during|for|of)\s+((?:19|20)\d\d)\b", re.I), "year"),
    (re.compile(r"\blast year\b|작년|지난\s?해", re.I), "last_year"),
    (re.compile(r"\bthis year\b|올해|금년", re.I), "this_year"),
    (re.compile(r"\blast month\b|지난\s?달|저번\s?달", re.I), "last_month"),
    (re.compile(r"\bthis month\b|이번\s?달", re.I), "this_month"),
    (re.compile(r"\b(?:last|past)\s+(\d{1,4})\s+(days?|weeks?|months?|years?)\b", re.I), "back"),
    (re.compile(r"(?:지난|최근)\s*(\d{1,4})\s*(일|주일|주|개월|달|년)"), "back"),
    (re.compile(r"\blast week\b|지난\s?주(?!\s*[월화수목금토일]요일)|저번\s?주(?!\s*[월화수목금토일]요일)", re.I), "last_week"),
    (re.compile(r"\bthis week\b|이번\s?주(?!\s*[월화수목금토일]요일)", re.I), "this_week"),
]


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
    if kind == "ever":
        return EVER
    if kind == "month_year":
        return _month(int(m[2]), _MONTHS[m[1].lower()])
    if kind == "month":
        return _latest_month(_MONTHS[m[1].lower()], today)
    if kind == "ko_month_year":
        return _month(int(m[1]), int(m[2]))
    if kind == "ko_month":
        return _latest_month(int(m[1]), today)
    if kind == "year":
        year = int(m[1])
        return (date(year, 1, 1), date(year, 12, 31)) if year <= today.year else None
    if kind == "last_year":
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if kind == "this_year":
        return date(today.year, 1, 1), today
    if kind == "last_month":
        first_of_this = today.replace(day=1)
        return _month((first_of_this - timedelta(days=1)).year, (first_of_this - timedelta(days=1)).month)
    if kind == "this_month":
        return today.replace(day=1), today
    if kind == "back":
        return _back(today, int(m[1]), m[2].lower()) if int(m[1]) > 0 else None
    if kind == "last_week":
        return _week(today, 1)
    return _week(today, 0)


def read_periods(text: str, today: date, limit: int = 2) -> list[Period]:
    """The periods a question names, in the order written (at most ``limit``; overlapping phrases count once)."""
    source = unicodedata.normalize("NFC", text)
    found: list[tuple[int, int, Period]] = []
    for pattern, kind in _RULES:
        for m in pattern.finditer(source):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            span = _resolve(kind, m, today)
            if span is not None and span[0] <= span[1]:
                found.append((m.start(), m.end(), Period(phrase=m.group().strip(), start=span[0], end=span[1])))
    return [p for _, _, p in sorted(found, key=lambda f: f[0])][:limit]
