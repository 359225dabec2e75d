"""The per-session numbers an exercise is judged by: weight, e1RM and volume, or reps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Literal

from engine.facts.display import _fmt, _with_unit
from engine.facts.lifts import _set_text
from engine.facts.rows import _E1, _MAX_REPS, _REPS, _TOP, _TOP_R, _TOP_UNIT, _TOP_W, _VOLUME, _Row


@dataclass(frozen=True, slots=True)
class _Measure:
    """A per-session number: its best over all sessions, and compared between sessions."""

    key: str
    noun: str
    best_key: str
    best_label: str
    order: tuple[int, ...]
    """Row fields to maximise; the first is the value."""
    show: Callable[[_Row, str], str]
    kind: Literal["weight", "volume", "reps"]

    def get(self, row: _Row) -> float | None:
        value: float = row[self.order[0]]
        return value if value >= 0 else None

    def best(self, rows: Sequence[_Row]) -> _Row | None:
        """The highest value, earliest on ties (when the record was set)."""
        if not rows:
            return None
        # max() with a C key function: this runs over every session.
        top = max(rows, key=itemgetter(*self.order))
        return top if self.get(top) is not None else None

    def unit(self, unit: str) -> str:
        """The fact unit, given the exercise's weight unit."""
        if self.kind == "reps":
            return "reps"
        if self.kind == "volume":
            return f"{unit}·reps" if unit else "weight·reps"
        return unit

    def short_unit(self, unit: str) -> str:
        """The unit a value is shown in (volume reads as kg, not kg·reps)."""
        return "reps" if self.kind == "reps" else unit


def _reps_text(value: float) -> str:
    return f"{_fmt(value)} reps"


_WEIGHTED = (
    _Measure(
        "heaviest",
        "heaviest set",
        "heaviest_set",
        "heaviest set of",
        (_TOP, _TOP_R),
        lambda r, u: _set_text(r[_TOP_W], r[_TOP_R], r[_TOP_UNIT], u),
        "weight",
    ),
    _Measure(
        "e1rm",
        "estimated 1RM",
        "best_e1rm",
        "best estimated 1RM (Epley) for",
        (_E1,),
        lambda r, u: _with_unit(_fmt(r[_E1]), u),
        "weight",
    ),
    _Measure(
        "volume",
        "volume (weight × reps)",
        "best_volume",
        "biggest session volume (weight × reps) of",
        (_VOLUME,),
        lambda r, u: _with_unit(_fmt(r[_VOLUME]), u),
        "volume",
    ),
)
_BODYWEIGHT = (
    _Measure(
        "most_reps",
        "most reps in a set",
        "most_reps",
        "most reps in one set of",
        (_MAX_REPS,),
        lambda r, u: _reps_text(r[_MAX_REPS]),
        "reps",
    ),
    _Measure(
        "total_reps",
        "total reps",
        "best_total_reps",
        "most total reps in one session of",
        (_REPS,),
        lambda r, u: _reps_text(r[_REPS]),
        "reps",
    ),
)
