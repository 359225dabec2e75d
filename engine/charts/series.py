"""The numbers of each chart, computed from rows the store read (:mod:`engine.charts.reads`).

Pure: rows in, a series out, so a hand-made table can check every number.
A lift's rows are its *working sets* as records judge them (:mod:`engine.store.bests`:
completed, not a warm-up, not a failed attempt; planned sessions never reach
``entry_sets``), and each set's estimated 1RM is the one the ``entry_sets``
trigger stored (Epley, :func:`engine.language.values.epley`): one reading of a
set, one formula, here and in the records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from engine.charts.model import (
    BodyweightSeries,
    BoutPoint,
    CardioSeries,
    DaysSeries,
    LiftSeries,
    LiftSession,
    VolumeSeries,
    Week,
    WeighIn,
)
from engine.store.bests import LB

_EPS = 1e-9
"""As the records judge a beat (:mod:`engine.store.bests`)."""


@dataclass(frozen=True, slots=True)
class SetRow:
    """One working set as ``entry_sets`` holds it."""

    lift: str
    on: date
    weight_kg: float
    unit: str
    reps: int
    e1rm_kg: float


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_starts(start: date, end: date) -> list[date]:
    """Every week's Monday from the week of ``start`` to the week of ``end``."""
    first, last = monday(start), monday(end)
    return [first + timedelta(weeks=i) for i in range((last - first).days // 7 + 1)]


def per_week(start: date, end: date, values: Iterable[tuple[date, float]]) -> tuple[Week, ...]:
    """The sum of ``values`` per week over the whole period (0 for a week with none)."""
    sums = dict.fromkeys(week_starts(start, end), 0.0)
    for day, value in values:
        if start <= day <= end:
            sums[monday(day)] += value
    return tuple(Week(w, v) for w, v in sums.items())


def unit_of(units: Iterable[str]) -> str:
    """The unit a series is shown in: the one every set was logged in, or kg."""
    found = set(units)
    return "lb" if found == {"lb"} else "kg"


def _shown(kg: float, unit: str) -> float:
    return kg / LB if unit == "lb" else kg


def lift_series(lift: str, rows: Sequence[SetRow], start: date, end: date) -> LiftSeries:
    """The sessions of ``lift`` in ``[start, end]``, with PRs judged over every earlier session.

    Args:
        rows: The lift's working sets from its first session up to ``end``, oldest first.
    """
    unit = unit_of(r.unit for r in rows)
    days: dict[date, tuple[SetRow, SetRow]] = {}  # day -> (its best estimate's set, its top set)
    for r in rows:
        best = days.get(r.on)
        if best is None:
            days[r.on] = (r, r)
            continue
        e1, top = best
        # Strictly better only: ties keep the set logged first, as the records do.
        days[r.on] = (
            r if r.e1rm_kg > e1.e1rm_kg + _EPS else e1,
            r if (r.weight_kg, r.reps) > (top.weight_kg, top.reps) else top,
        )
    out: list[LiftSession] = []
    bar: float | None = None
    for day in sorted(days):
        e1, top = days[day]
        pr = bar is not None and e1.e1rm_kg > bar + _EPS
        bar = e1.e1rm_kg if bar is None else max(bar, e1.e1rm_kg)
        if start <= day <= end:
            out.append(
                LiftSession(
                    on=day,
                    e1rm=_shown(e1.e1rm_kg, unit),
                    top_weight=_shown(top.weight_kg, unit),
                    top_reps=top.reps,
                    e1rm_weight=_shown(e1.weight_kg, unit),
                    e1rm_reps=e1.reps,
                    pr=pr,
                )
            )
    return LiftSeries(lift, unit, tuple(out))


def volume_series(
    lifts: Sequence[str], days: Sequence[tuple[str, date, float]], units: Iterable[str], start: date, end: date
) -> VolumeSeries:
    """Each lift's weight × reps per week, biggest total first.

    Args:
        days: (lift, day, its working sets' weight × reps in kg).
        units: The units those sets were logged in.
    """
    unit = unit_of(units)
    out = []
    for lift in lifts:
        weeks = per_week(start, end, ((on, _shown(kg, unit)) for x, on, kg in days if x == lift))
        if any(w.value for w in weeks):
            out.append((lift, weeks))
    out.sort(key=lambda p: -sum(w.value for w in p[1]))
    return VolumeSeries(unit, tuple(out))


def days_series(days: Iterable[date], start: date, end: date) -> DaysSeries:
    """The training days of the period and their count per week."""
    inside = sorted({d for d in days if start <= d <= end})
    return DaysSeries(start, end, tuple(inside), per_week(start, end, ((d, 1.0) for d in inside)))


def cardio_series(
    sport: str, distance_unit: str, pace_per: int, bouts: Sequence[BoutPoint], start: date, end: date
) -> CardioSeries:
    """A sport's bouts in the period (oldest first) and its distance per week."""
    inside = tuple(sorted((b for b in bouts if start <= b.on <= end), key=lambda b: b.on))
    weeks = per_week(start, end, ((b.on, b.distance) for b in inside if b.distance is not None))
    return CardioSeries(sport, distance_unit, pace_per, inside, weeks)


def bodyweight_series(readings: Sequence[tuple[date, float, str]], start: date, end: date) -> BodyweightSeries:
    """Weigh-ins in the period, one a day (its last), in the unit of the latest (lb and kg converted)."""
    inside = [r for r in readings if start <= r[0] <= end]
    if not inside:
        return BodyweightSeries("kg", ())
    unit = "lb" if inside[-1][2] == "lb" else "kg"
    by_day: dict[date, float] = {}
    for on, value, logged in inside:
        kg = value * LB if logged == "lb" else value
        by_day[on] = _shown(kg, unit)
    return BodyweightSeries(unit, tuple(WeighIn(d, v) for d, v in sorted(by_day.items())))
