"""What a chart shows, as plain typed data: testable, and drawable, without a database or a figure.

A series holds the numbers code computed over the stored entries (:mod:`engine.charts.series`);
the caption's figures (:mod:`engine.charts.figures`) and the picture (:mod:`engine.charts.draw`)
are both made from it, so what the caption says is what the picture shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

ChartKind = Literal["lift", "volume", "days", "cardio", "bodyweight"]
"""A lift's estimated 1RM and top set per session; weekly volume per lift; training days per week (a
calendar heatmap); a run's or swim's weekly distance and pace; bodyweight."""


DENSE = 400
"""Sessions past which a lift's lines show each week's best, not every session (the records keep
their markers): thousands of points are a smear at 900 pixels."""


@dataclass(frozen=True, slots=True)
class ChartAsk:
    """What to draw, read in code from ``/chart bench 3 months`` or "show my bench progress this year"."""

    kind: ChartKind
    subjects: tuple[str, ...]
    """Canonical lift names (``lift``, ``volume``), the sport's domain (``cardio``: ``running``), or empty."""
    start: date
    end: date
    defaulted: bool = False
    """No period was named: the last 12 months (the caption says so)."""


@dataclass(frozen=True, slots=True)
class LiftSession:
    """One day a lift was trained: its working sets' best estimated 1RM and its top set."""

    on: date
    e1rm: float
    """Epley, as the ``entry_sets`` trigger stores it, in the series' unit."""
    top_weight: float
    """The heaviest working set's weight (most reps on ties), in the series' unit."""
    top_reps: int
    e1rm_weight: float
    """The set the best estimate came from."""
    e1rm_reps: int
    pr: bool
    """The estimate beat every earlier session's (of the whole history, not only the period); a lift's
    first session ever is no record, as when logging ("first time logged")."""


@dataclass(frozen=True, slots=True)
class LiftSeries:
    lift: str
    unit: str
    """``kg`` or ``lb`` when every set was logged in it; ``kg`` for a lift logged in both."""
    sessions: tuple[LiftSession, ...]
    """The period's sessions, oldest first."""


@dataclass(frozen=True, slots=True)
class Week:
    """One week (Monday first) and a number of it."""

    start: date
    value: float


@dataclass(frozen=True, slots=True)
class VolumeSeries:
    """Each lift's completed working sets' weight × reps per week; weeks without any are 0."""

    unit: str
    lifts: tuple[tuple[str, tuple[Week, ...]], ...]
    """(lift, its weeks over the whole period), biggest total first."""


@dataclass(frozen=True, slots=True)
class DaysSeries:
    """The days with any training (meals are no training) in the period."""

    start: date
    end: date
    days: tuple[date, ...]
    weeks: tuple[Week, ...]
    """Training days per week over the whole period (0 for a week with none)."""


@dataclass(frozen=True, slots=True)
class BoutPoint:
    """One run or swim."""

    on: date
    distance: float | None
    pace: float | None
    """Seconds per ``pace_per`` distance units (per km, per 100 m)."""


@dataclass(frozen=True, slots=True)
class CardioSeries:
    sport: str
    """The domain (``running``, ``swimming``)."""
    distance_unit: str
    pace_per: int
    bouts: tuple[BoutPoint, ...]
    weeks: tuple[Week, ...]
    """Distance per week over the whole period."""


@dataclass(frozen=True, slots=True)
class WeighIn:
    on: date
    value: float


@dataclass(frozen=True, slots=True)
class BodyweightSeries:
    unit: str
    points: tuple[WeighIn, ...]
    """Oldest first; one a day (the day's last)."""


Series = LiftSeries | VolumeSeries | DaysSeries | CardioSeries | BodyweightSeries


@dataclass(frozen=True, slots=True)
class Figures:
    """The words around the picture, each number written by code."""

    title: str
    caption: str
    alt: str
    labels: dict[str, str] = field(default_factory=dict)
    """The picture's own words (axis and legend labels) in the person's language."""
