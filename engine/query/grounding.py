"""The Evaluator's code part: every number in an answer must come from the data.

Reading the answer (first match wins at each position):

* Dates: ``2026-11-20`` (also ``.`` or ``/`` between), ``11월 20일``,
  ``2026년 11월 20일``, ``Nov 20``, ``November 20, 2026``, ``20 Nov``, and
  ``11/20`` or ``20/11`` (optionally ``/2026``; either order is tried).
* Times: ``5:10``, ``1:52:40``, ``5'10"``, ``5분 10초``, ``1시간 5분``.
  ``1:52`` may be minutes:seconds or hours:minutes.
* Numbers: an optional sign, digits with ``,``/``.`` groups, an optional
  percent (``%``, ``percent``, ``퍼센트``, ``프로``). Units after a number
  (``55kg``, ``55 kg``, ``55키로``, ``10회``) do not matter. ``5x5``,
  ``55kg×10`` are separate numbers, each checked.
* Not checked: list markers at a line start (``1.``, ``2)``), numbers glued
  to a letter before them (``e1RM``, ``W47``, ``RPE8``) or followed by ``RM``
  (``1RM``), and the 100 of ``/100m``, ``per 100 m``, ``100m당``.
  Counts are checked: "3 sessions" needs a fact or entry with 3.

What backs them:

* Facts: the value, and every number, time, percent and date written in
  the display and the label; a fact in ``s`` or ``min/…`` also backs its time.
* Active entries: dates, set weights, reps, set counts, and what metric
  values say.
* ``extra_allowed``: any text the answer may quote (the question, the
  person's clarification answers), read like the answer.

Matching:

* A number matches when it equals a source rounded (half up) to the
  answer's own precision: "64" and "64.2" both match 64.1667; 17.5 backs
  "18", not "17". Signs are ignored, so a change of -2.5 backs "2.5 kg less".
* ``2,750`` reads as 2750 or 2.75, ``64,2`` as 64.2, ``1,2,3`` as three
  numbers: a token is backed when any reading is wholly backed.
* A percent needs a percent source (a fact with unit ``%`` or a percent in
  fact text or ``extra_allowed``).
* A time needs a time source, to the second. The hours, minutes, seconds
  and totals of source times back only numbers written with a time unit
  ("52분", "25 min 30 s", "112.7 minutes"): the 40 of 1:52:40 is no weight.
* Years, months and days of known dates back only numbers written as date
  parts ("the 20th", "20일", "11월", a year like "2026"): otherwise every
  count up to 31 would pass.
* A date needs a known date: with a year exactly, without one by month and
  day. Something shaped like a date that is no calendar date ("3/45") is
  read as plain numbers.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.facts import Fact
from engine.entries.model import Entry


class GroundingReport(BaseModel):
    """Whether every number in an answer is backed."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    ungrounded: list[str]
    """The number tokens nothing backs, as written (without units)."""
    checked: int
    """How many number tokens were checked."""


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
class _Token:
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


def _date_token(text: str, candidates: Iterable[_Day]) -> _Token:
    days = tuple(d for d in candidates if _valid(d))
    if days:
        return _Token(text, "date", days=days)
    # Date-shaped but no date ("3/45"): plain numbers, each to be backed.
    return _Token(text, "number", readings=(tuple(_value(n) for n in re.findall(r"\d+", text)),))


def _year(text: str | None) -> int:
    if not text:
        return 0
    return int(text) + 2000 if len(text) == 2 else int(text)


def _clock(text: str, a: int, b: int, c: int | None) -> _Token:
    if c is not None:
        seconds: tuple[float, ...] = (a * 3600 + b * 60 + c,)
    else:
        # Two groups: minutes:seconds as the log schemas write them, or hours:minutes.
        seconds = (a * 60 + b, a * 3600 + b * 60)
    return _Token(text, "time", readings=tuple(((s, 0.5),) for s in seconds))


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


def _tokens(text: str) -> Iterator[_Token]:
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
            yield _Token(g("kt"), "time", readings=(((seconds, 0.5),),))
        elif g("apos"):
            yield _Token(g("apos"), "time", readings=(((int(g("ap_m")) * 60 + int(g("ap_s")), 0.5),),))
        elif g("num") and not _skipped(text, m):
            kind: Literal["number", "percent"] = "percent" if g("pct") else "number"
            part: _Part = "time" if g("time_part") else "date" if g("day_part") or _YEAR.fullmatch(g("num")) else ""
            yield _Token(g("num") + ("%" if g("pct") else ""), kind, _number_readings(g("num")), part=part)


# ---------------------------------------------------------------- sources


_POOLS = {"number": "numbers", "percent": "percents", "time": "times"}


@dataclass(slots=True)
class _Pool:
    """Everything that may back a token."""

    numbers: set[float] = field(default_factory=set)
    percents: set[float] = field(default_factory=set)
    times: set[float] = field(default_factory=set)
    """Seconds."""
    time_parts: set[float] = field(default_factory=set)
    """Hours, minutes, seconds and totals of times, for "25 min 30 s" or "52분"."""
    date_parts: set[float] = field(default_factory=set)
    """Years, months and days of dates, for "the 20th" or "2026"."""
    dates: set[date] = field(default_factory=set)
    month_days: set[tuple[int, int]] = field(default_factory=set)
    _sorted: dict[str, list[float]] = field(default_factory=dict)

    def add_date(self, day: date) -> None:
        self.dates.add(day)
        self.month_days.add((day.month, day.day))
        self.date_parts.update((day.year, day.month, day.day))

    def add_text(self, text: str) -> None:
        """What a text says: its numbers, percents, times and dates."""
        for t in _tokens(text):
            if t.kind == "date":
                for year, month, dom in t.days:
                    if year:
                        self.add_date(date(year, month, dom))
                    else:
                        self.month_days.add((month, dom))
                        self.date_parts.update((month, dom))
            elif t.kind == "time":
                seconds = t.readings[0][0][0]  # a source's M:SS is minutes:seconds, as logged
                self.times.add(seconds)
                hours, rest = divmod(int(seconds), 3600)
                self.time_parts.update((hours, rest // 60, rest % 60, seconds / 60, seconds))
            else:
                values = {v for reading in t.readings for v, _ in reading}
                self.numbers.update(values)
                if t.kind == "percent":
                    self.percents.update(values)

    def add_fact(self, fact: Fact) -> None:
        value = abs(fact.value)
        self.numbers.add(value)
        if fact.unit == "%":
            self.percents.add(value)
        elif fact.unit == "s":
            self.times.add(value)
        elif fact.unit == "min" or fact.unit.startswith("min/"):
            self.times.add(value * 60)
        self.add_text(fact.display)
        self.add_text(fact.label)
        for day in [*fact.dates, *([fact.on] if fact.on else [])]:
            self.add_date(day)

    def add_entry(self, entry: Entry) -> None:
        self.add_date(entry.occurred_on)
        numbers, data = self.numbers, entry.data
        for ex in data.get("exercises") or ():
            details = ex.get("set_details") or ()
            numbers.update((ex.get("sets") or 0, len(details)))
            for s in details:
                # Not set_num: it would back every small count up to the number of sets.
                numbers.update(abs(v) for v in (s.get("weight"), s.get("reps")) if v is not None)
        for m in data.get("metrics") or ():
            self.add_text(str(m.get("value", "")))

    def _list(self, *kinds: str) -> list[float]:
        key = "+".join(kinds)
        size = sum(len(getattr(self, k)) for k in kinds)
        got = self._sorted.get(key)
        if got is None or len(got) != size:  # a stale list is shorter: pools only grow
            got = self._sorted[key] = sorted(v for k in kinds for v in getattr(self, k))
        return got

    def backs(self, token: _Token) -> bool:
        if token.kind == "date":
            return any(
                (date(y, m, d) in self.dates) if y else ((m, d) in self.month_days) for y, m, d in token.days
            )
        kinds = [_POOLS[token.kind]] + ([f"{token.part}_parts"] if token.part else [])
        pool = self._list(*kinds)
        return any(all(_near(pool, v, tol) for v, tol in reading) for reading in token.readings)


def _near(pool: list[float], value: float, half: float) -> bool:
    """Whether a source rounds to ``value``: lies in [value - half, value + half).

    Half up, so 17.5 backs "18" and not "17"; the epsilon absorbs binary
    noise (0.15 is stored as 0.1499…).
    """
    i = bisect_left(pool, value - half - 1e-9)
    return i < len(pool) and pool[i] < value + half - 1e-9


# ---------------------------------------------------------------- entry point


def check_numbers(
    answer: str,
    facts: Sequence[Fact],
    entries: Sequence[Entry],
    *,
    extra_allowed: Iterable[str] = (),
) -> GroundingReport:
    """Check that every number in ``answer`` is backed by a fact, an entry or ``extra_allowed``.

    Args:
        answer: The model's answer.
        facts: The facts it was given.
        entries: The entries the facts came from; only active ones back numbers.
        extra_allowed: Other texts the answer may quote (the question, clarification answers).

    Returns:
        The report; ``ungrounded`` lists unbacked tokens in answer order.
    """
    tokens = list(_tokens(answer))
    pool = _Pool()
    for fact in facts:
        pool.add_fact(fact)
    for text in extra_allowed:
        pool.add_text(text)
    pending = [t for t in tokens if not pool.backs(t)]
    if pending:
        # Entries are read only when facts do not settle it: they are the bulk of the work.
        for entry in entries:
            if entry.status == "active":
                pool.add_entry(entry)
        pending = [t for t in pending if not pool.backs(t)]
    return GroundingReport(ok=not pending, ungrounded=[t.text for t in pending], checked=len(tokens))
