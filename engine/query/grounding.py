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

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from pydantic import BaseModel, ConfigDict

from engine.facts import Fact
from engine.entries.model import Entry
from engine.query.number_reading import Token
from engine.query.number_reading import tokens as read_tokens


class GroundingReport(BaseModel):
    """Whether every number in an answer is backed."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    ungrounded: list[str]
    """The number tokens nothing backs, as written (without units)."""
    checked: int
    """How many number tokens were checked."""


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
        for t in read_tokens(text):
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

    def backs(self, token: Token) -> bool:
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
    tokens = list(read_tokens(answer))
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
