"""Named periods, resolved in code: "February 2019", "first week of March", "the last two weeks".

The one reader of spans of days: retrieval, facts, the answer's wording and
``python -m bot search`` all take what it reads. A named day ("last
Monday", "어제") is :func:`engine.language.dates.resolve_date`'s job, and
:func:`read_when` puts the two together, so a day inside a period ("between
2019-02-01 and 2019-02-15") is never read as that one day.

Spans understood, in English and Korean (today's date is given; weeks run
Monday to Sunday):

* whole history: ever, all time, since I started, 역대, 지금까지, 평생, 통틀어;
* ranges: "between A and B", "from A to B", "A to B", "A부터 B까지", "A ~ B",
  where A and B are days (2019-02-01, Feb 1, 2월 1일) or months (March,
  March 2019, 2019년 3월); a side without a year takes the other's;
* a week of a month: "first week of March 2019" (days 1-7), "second week
  of …" (8-14), "last week of February" (its last 7 days), "3월 첫째 주";
* since: "since March" (to today), "since 2025", "3월부터", "3월 이후";
* a month: "March 2021", "in March" / "from March" / "last March" (the
  latest March not after today), "2021년 3월", "3월에", "올해 9월", "작년 9월";
* a year: "in 2021", "from 2019", "2021년", last year / 작년, this year / 올해;
* calendar months and weeks: last month / 지난달, this month / 이번 달,
  last week / 지난주, this week / 이번 주 (up to today);
* rolling spans up to today: "the last 30 days", "past two weeks", "the
  past month", "in the last week", "지난 2주", "최근 한 달", "최근 일주일".

Month names need a preposition, a year or a range ("in May", "May 2021"),
because "may" and "march" are ordinary words. What looks like a period but
is not read ("the last few weeks", "over the summer") is returned by
:func:`read_when` as ``unread``, so the answer can say how it read it
instead of silently answering for all time.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from datetime import date, timedelta

from pydantic import BaseModel, ConfigDict, Field

from engine.language.dates import DateMention, resolve_date

EVER = (date(1, 1, 1), date(9999, 12, 31))
"""The whole history, as a period."""

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?:19|20)\d\d"
_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2, "a couple": 2,
    "한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10,
}  # fmt: skip
_COUNT_EN = r"\d{1,4}|a couple of|couple of|a couple|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_COUNT_KO = r"\d{1,4}|다섯|여섯|일곱|여덟|아홉|한|두|세|석|네|넉|열"
_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1,
    "final": -1, "첫": 1, "첫째": 1, "첫번째": 1, "첫 번째": 1, "둘째": 2, "두번째": 2, "두 번째": 2, "셋째": 3,
    "세번째": 3, "세 번째": 3, "넷째": 4, "네번째": 4, "네 번째": 4, "마지막": -1,
}  # fmt: skip
_ORDINAL_EN = r"first|1st|second|2nd|third|3rd|fourth|4th|last|final"
_ORDINAL_KO = r"첫\s?번째|첫째|첫|두\s?번째|둘째|세\s?번째|셋째|네\s?번째|넷째|마지막"

# The ends of a range: a day or a month, with or without a year.
_DAY_EN = (
    rf"\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|(?:{_MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\.?(?:,?\s+{_YEAR})?|\d{{1,2}}/\d{{1,2}}(?:/\d{{4}})?"
)
_SIDE_EN = rf"(?:{_DAY_EN}|(?:{_MONTH})\.?(?:,?\s+{_YEAR})?|{_YEAR})"
_SIDE_KO = (
    rf"(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|(?:(?:{_YEAR}|\d\d)\s*년\s*|(?:올해|금년|작년|지난해|재작년)\s*)?"
    rf"\d{{1,2}}\s*월(?:\s*\d{{1,2}}\s*일)?|{_YEAR}\s*년)"
)
_MONTH_EN = rf"(?P<mon>{_MONTH})\.?(?:,?\s+(?P<y>{_YEAR}))?"
_MONTH_KO = rf"(?:(?P<y>{_YEAR})\s*년\s*|(?P<rel>올해|금년|작년|지난해|재작년)\s*)?(?P<m>1[0-2]|0?[1-9])\s*월"

Span = tuple[date, date]
_YEARS_BACK = {"올해": 0, "금년": 0, "작년": 1, "지난해": 1, "재작년": 2}


class Period(BaseModel):
    """A span of days a question names."""

    model_config = ConfigDict(frozen=True)

    phrase: str
    """The words that named it, as written (NFC)."""
    start: date
    end: date

    @property
    def ever(self) -> bool:
        return (self.start, self.end) == EVER


class When(BaseModel):
    """Everything a message says about when: a named day, the periods it names, what was not read."""

    model_config = ConfigDict(frozen=True)

    day: DateMention | None = None
    """A named day outside every period ("last Monday", "어제")."""
    periods: list[Period] = Field(default_factory=list)
    """Named periods, in the order written."""
    unread: list[str] = Field(default_factory=list)
    """Words that look like a period but were not read (said aloud, never taken as all time)."""


# --------------------------------------------------------------------------- arithmetic


def _month(year: int, month: int) -> Span:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _latest_month(month: int, today: date) -> Span:
    return _month(today.year if month <= today.month else today.year - 1, month)


def _back(today: date, n: int, unit: str) -> Span:
    """The last ``n`` units up to today: 2 weeks is 14 days, a month runs from the day after today's date a month ago."""
    if unit.startswith(("month", "개월", "달")):
        year, month = divmod(today.year * 12 + today.month - 1 - n, 12)
        start = date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1])) + timedelta(days=1)
    elif unit.startswith(("year", "년", "해")):
        start = date(today.year - n, today.month, min(today.day, 28)) + timedelta(days=1)
    else:
        per = 7 if unit.startswith(("week", "주")) else 1
        start = today - timedelta(days=n * per - 1)
    return start, today


def _week(today: date, weeks_back: int) -> Span:
    monday = today - timedelta(days=today.weekday() + 7 * weeks_back)
    return monday, min(monday + timedelta(days=6), today)


def _week_of(span: Span, ordinal: int) -> Span | None:
    first, last = span
    if ordinal < 0:
        return last - timedelta(days=6), last
    start = first + timedelta(days=7 * (ordinal - 1))
    return (start, min(start + timedelta(days=6), last)) if start <= last else None


def _count(word: str) -> int | None:
    folded = " ".join(word.casefold().split())
    return int(folded) if folded.isdecimal() else _COUNTS.get(folded)


# --------------------------------------------------------------------------- one side of a range


def _side(text: str, today: date, year: int | None = None) -> tuple[Span, bool] | None:
    """A range's end read alone: its span and whether it named its year."""
    text = text.strip()
    m = re.fullmatch(_MONTH_EN, text, re.I)
    if m is not None:
        month = _MONTHS[m["mon"].lower()]
        if m["y"]:
            return _month(int(m["y"]), month), True
        return (_month(year, month) if year else _latest_month(month, today)), False
    m = re.fullmatch(
        rf"(?:(?P<y>{_YEAR}|\d\d)\s*년\s*|(?P<rel>올해|금년|작년|지난해|재작년)\s*)?(?P<m>1[0-2]|0?[1-9])\s*월", text
    )
    if m is not None:
        month = int(m["m"])
        if m["y"]:
            y = int(m["y"])
            return _month(y + 2000 if y < 100 else y, month), True
        if m["rel"]:
            return _month(today.year - _YEARS_BACK[m["rel"]], month), True
        return (_month(year, month) if year else _latest_month(month, today)), False
    m = re.fullmatch(rf"({_YEAR})\s*년?", text)
    if m is not None:
        y = int(m[1])
        return (date(y, 1, 1), date(y, 12, 31)), True
    has_year = re.search(rf"{_YEAR}|\d\d\s*년", text) is not None
    if year is not None and not has_year:
        if re.search(r"[가-힣]", text):
            text = f"{year}년 {text}"
        else:
            text = f"{text}/{year}" if re.fullmatch(r"\d{1,2}/\d{1,2}", text) else f"{text} {year}"
    mention = resolve_date(text, date(9999, 12, 31) if year is not None else today)
    if mention is None or mention.on is None or mention.status == "invalid" or len(mention.phrase) < len(text) - 1:
        return None
    return (mention.on, mention.on), has_year or year is not None


def _range(a: str, b: str, today: date) -> Span | None:
    first, second = _side(a, today), _side(b, today)
    if first is None or second is None:
        return None
    (start, _), a_year = first
    (_, end), b_year = second
    if a_year and not b_year:
        # "from March 2019 to May", "2019년 3월부터 5월까지": the end takes the start's year.
        later = _side(b, today, start.year)
        if later is None:
            return None
        end = later[0][1]
        if end < start:
            end = (_side(b, today, start.year + 1) or later)[0][1]
    elif b_year and not a_year:
        earlier = _side(a, today, end.year)
        if earlier is None:
            return None
        start = earlier[0][0]
        if start > end:
            start = (_side(a, today, end.year - 1) or earlier)[0][0]
    elif not a_year and not b_year and end < start:
        # "from November to February": the start is in the year before.
        start = (_side(a, today, end.year - 1) or first)[0][0]
    return (start, end) if start <= end else None


# --------------------------------------------------------------------------- the rules

_Rule = Callable[[re.Match[str], date], Span | None]


def _ever(m: re.Match[str], today: date) -> Span:
    return EVER


def _between(m: re.Match[str], today: date) -> Span | None:
    return _range(m["a"], m["b"], today)


def _since(m: re.Match[str], today: date) -> Span | None:
    side = _side(m["a"], today)
    return (side[0][0], today) if side is not None and side[0][0] <= today else None


def _week_of_en(m: re.Match[str], today: date) -> Span | None:
    span = _month_en_span(m, today)
    return _week_of(span, _ORDINALS[m["ord"].lower()]) if span else None


def _week_of_ko(m: re.Match[str], today: date) -> Span | None:
    span = _month_ko_span(m, today)
    return _week_of(span, _ORDINALS[" ".join(m["ord"].split())]) if span else None


def _month_en_span(m: re.Match[str], today: date) -> Span:
    month = _MONTHS[m["mon"].lower()]
    return _month(int(m["y"]), month) if m["y"] else _latest_month(month, today)


def _month_ko_span(m: re.Match[str], today: date) -> Span:
    month = int(m["m"])
    if m["y"]:
        return _month(int(m["y"]), month)
    if m["rel"]:
        return _month(today.year - _YEARS_BACK[m["rel"]], month)
    return _latest_month(month, today)


def _month_en(m: re.Match[str], today: date) -> Span:
    return _month_en_span(m, today)


def _month_ko(m: re.Match[str], today: date) -> Span:
    return _month_ko_span(m, today)


def _year(m: re.Match[str], today: date) -> Span | None:
    year = int(m["y"])
    return (date(year, 1, 1), min(date(year, 12, 31), today)) if year <= today.year else None


def _relative_year(back: int) -> _Rule:
    def rule(m: re.Match[str], today: date) -> Span:
        year = today.year - back
        return date(year, 1, 1), min(date(year, 12, 31), today)

    return rule


def _last_month(m: re.Match[str], today: date) -> Span:
    previous = today.replace(day=1) - timedelta(days=1)
    return _month(previous.year, previous.month)


def _this_month(m: re.Match[str], today: date) -> Span:
    return today.replace(day=1), today


def _weeks_back(back: int) -> _Rule:
    def rule(m: re.Match[str], today: date) -> Span:
        return _week(today, back)

    return rule


def _rolling(m: re.Match[str], today: date) -> Span | None:
    n = _count(m["n"]) if m["n"] else 1
    if not n:
        return None
    unit = m["u"].lower()
    return _back(today, 7 if unit == "일주일" else n, "day" if unit == "일주일" else unit)


_NOT_A_DAY = r"(?!\s*\d+\s*일)(?!요일)"
_WEEKDAY_KO = r"(?!\s*[월화수목금토일]요일)"
_RULES: tuple[tuple[re.Pattern[str], _Rule], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), rule)
    for pattern, rule in (
        (r"\b(?:ever|all[- ]time|of all time|since i (?:started|began)|my whole history)\b", _ever),
        (r"역대|지금까지|평생|전체\s?기간|통틀어|이제까지", _ever),
        # ranges and weeks of a month first: they hold days and months the rules below would take alone
        (rf"\bbetween\s+(?P<a>{_SIDE_EN})\s+and\s+(?P<b>{_SIDE_EN})", _between),
        (rf"\bfrom\s+(?P<a>{_SIDE_EN})\s+(?:to|until|till|through|thru|-)\s+(?P<b>{_SIDE_EN})", _between),
        (rf"(?<![\w-])(?P<a>{_DAY_EN})\s*(?:~|–|—|\bto\b|\bthrough\b|\s-\s)\s*(?P<b>{_SIDE_EN})", _between),
        (rf"(?P<a>{_SIDE_KO})\s*(?:부터|에서|~|–|\s-\s)\s*(?P<b>{_SIDE_KO})\s*(?:까지|사이)?", _between),
        (rf"\b(?:the\s+)?(?P<ord>{_ORDINAL_EN})\s+week\s+(?:of|in)\s+{_MONTH_EN}", _week_of_en),
        (rf"{_MONTH_KO}\s*(?:의\s*)?(?P<ord>{_ORDINAL_KO})\s*주", _week_of_ko),
        (rf"\bsince\s+(?P<a>{_SIDE_EN})", _since),
        (rf"(?P<a>{_SIDE_KO})\s*(?:부터|이후|이래)", _since),
        (rf"\b(?:(?:in|during|for|of)\s+)?(?P<mon>{_MONTH})\.?,?\s+(?P<y>{_YEAR})\b", _month_en),
        (rf"\blast\s+(?P<mon>{_MONTH})\b(?P<y>)", _month_en),
        (rf"\b(?:in|during|for|of|over)\s+(?P<mon>{_MONTH})\b(?P<y>)", _month_en),
        # "my squats from May", "from 2019" (a range's "from … to …" was read above)
        (rf"\bfrom\s+(?P<mon>{_MONTH})\b(?P<y>)", _month_en),
        (rf"\bfrom\s+(?P<y>{_YEAR})\b", _year),
        (_MONTH_KO + _NOT_A_DAY, _month_ko),
        (rf"(?<![\d.])(?P<y>{_YEAR})\s*년(?!\s*\d+\s*월)", _year),
        (rf"\b(?:in|during|for|of|since)\s+(?P<y>{_YEAR})\b", _year),
        (r"\blast year\b|작년|지난\s?해", _relative_year(1)),
        (r"\bthis year\b|올해|금년", _relative_year(0)),
        (rf"\b(?:in\s+|over\s+|for\s+|during\s+)?(?:the\s+)?(?:last|past|previous)\s+(?P<n>{_COUNT_EN})\s+(?P<u>days?|weeks?|months?|years?)\b", _rolling),
        (r"\b(?:in|over|for|during|within)\s+the\s+(?:last|past)\s+(?P<n>)(?P<u>week|month|year)\b", _rolling),
        (r"\b(?:the\s+)?past\s+(?P<n>)(?P<u>week|month|year)\b", _rolling),
        (rf"(?:지난|최근|요)\s*(?P<n>{_COUNT_KO})\s*(?P<u>일|주일|주|개월|달|년|해)(?:\s*(?:동안|간|사이))?", _rolling),
        (r"(?:지난|최근)\s*(?P<n>)(?P<u>일주일)(?:\s*(?:동안|간))?", _rolling),
        (r"\blast month\b|지난\s?달|저번\s?달", _last_month),
        (r"\bthis month\b|이번\s?달", _this_month),
        (r"\blast week\b|지난\s?주" + _WEEKDAY_KO + r"|저번\s?주" + _WEEKDAY_KO, _weeks_back(1)),
        (r"\bthis week\b|이번\s?주" + _WEEKDAY_KO, _weeks_back(0)),
    )
)  # fmt: skip

# Words that say "when" without a rule above reading them: said aloud, never taken as all time.
_PERIODISH = re.compile(
    r"\b(?:(?:in|during|over|for|within|since|from|between|until|till)\s+(?:the\s+)?(?:\w+\s+){0,2}?"
    r"(?:days?|weeks?|months?|years?|quarters?|summer|winter|spring|autumn|fall|holidays?)\b"
    r"|since\s+\w+|between\s+\w+(?:\s+\w+)?\s+and\s+\w+)"
    r"|\S*\s*(?:동안|부터|까지|이후|이래)",
    re.IGNORECASE,
)


def read_periods(text: str, today: date, limit: int = 2) -> list[Period]:
    """The periods a message names, in the order written (at most ``limit``; overlapping phrases count once)."""
    return _read(unicodedata.normalize("NFC", text), today)[:limit]


def _read(source: str, today: date) -> list[Period]:
    found: list[tuple[int, int, Period]] = []
    for pattern, rule in _RULES:
        for m in pattern.finditer(source):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            span = rule(m, today)
            if span is not None and span[0] <= span[1]:
                found.append((m.start(), m.end(), Period(phrase=m.group().strip(), start=span[0], end=span[1])))
    return [p for _, _, p in sorted(found, key=lambda f: f[0])]


def read_when(text: str, today: date, limit: int = 2) -> When:
    """Everything ``text`` says about when, read once: a named day, the periods, and what was not read.

    A day written inside a period ("between 2019-02-01 and 2019-02-15") belongs to the period.
    """
    source = unicodedata.normalize("NFC", text)
    periods = _read(source, today)
    spans = [(source.find(p.phrase), source.find(p.phrase) + len(p.phrase)) for p in periods]
    day = resolve_date(source, today)
    if day is not None:
        at = source.find(day.phrase)
        if any(s <= at and at + len(day.phrase) <= e for s, e in spans) or any(
            day.phrase in p.phrase or p.phrase in day.phrase for p in periods
        ):
            day = None
        else:
            spans.append((at, at + len(day.phrase)))
    unread = [
        m.group().strip()
        for m in _PERIODISH.finditer(source)
        if not any(s < m.end() and m.start() < e for s, e in spans)
    ]
    return When(day=day, periods=periods[:limit], unread=unread)
