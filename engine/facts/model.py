"""The :class:`Fact` handed to the answer, and the constants every fact module shares."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

LB_TO_KG = 0.45359237
RECENT_SESSIONS = 5
"""Per-session facts (volume, per run) cover only this many latest sessions, to keep the prompt small."""
RECENT_WEEKS = 4
"""Weekly volume facts cover this many latest weeks that have data."""


class Fact(BaseModel):
    """One number the answer may use, with where it comes from."""

    model_config = ConfigDict(frozen=True)

    key: str
    """Stable id, e.g. ``bench press.best_e1rm``."""
    label: str
    """What it is, in words, e.g. ``best estimated 1RM for bench press``."""
    value: float
    unit: str
    display: str
    """The exact text the answer should use, e.g. ``73.3 kg`` or ``5:06/km``."""
    on: date | None = None
    """The date of the entry it comes from, when it comes from one."""
    dates: list[date] = Field(default_factory=list)
    entry_ids: list[str] = Field(default_factory=list)
    scope: tuple[date, date] | None = None
    """The days a whole-history or period fact covers (first, last); None for facts over retrieved entries."""
    found: int | None = None
    """For a fact over retrieved entries that is true of them only (a best, a count, the last session,
    days since it, how often, a total distance): how many entries it was computed over (active, parsed),
    and its label ends "in the 38 entries found (first to last)". None for whole-history and period
    facts (they carry ``scope``) and for facts about one dated session, one week, or the latest
    session against the previous one, which read the same whatever else was fetched."""
    found_span: tuple[date, date] | None = None
    """With ``found``: the first and last day of those entries."""
    change: bool = False
    """A difference between two values (latest vs previous, first vs latest): direction words follow its sign."""
    lower_is_better: bool = False
    """A fall is an improvement (pace, time)."""


TargetRule = Literal["linear", "double", "repeat", "reps"]
"""How a next-session target was made: linear (every work set completed: the region's jump), double (a rep
range: a rep more, or the smallest increment at the top), repeat (a missed set: the same weight), reps
(a bodyweight lift: a rep more on every set)."""


class Target(BaseModel):
    """A lift's next-session target, computed by code from its last session (``/next bench``)."""

    model_config = ConfigDict(frozen=True)

    exercise: str
    """The canonical lift (``bench press``)."""
    rule: TargetRule
    weight: float | None
    """The target weight, in ``unit``; None for a bodyweight lift."""
    unit: str
    """The unit the last session was logged in (``kg``, ``lb``); empty for bodyweight."""
    reps: list[int]
    """The reps of each target set."""
    last_on: date
    """The day of the last session it was computed from."""
    last_weight: float | None
    """The last session's work weight."""
    last_reps: list[int]
    """The reps of each of the last session's work sets (0 for a missed one)."""
    added: float = 0.0
    """The weight added to ``last_weight`` (0 when repeated)."""
    region: Literal["upper", "lower", ""] = ""
    """For a linear jump, the body region whose jump was added."""
    rep_range: tuple[int, int] | None = None
    """For double progression, the range (low, high)."""
    missed: int = 0
    """Missed work sets in the last session (a repeat)."""
    entry_ids: list[str] = Field(default_factory=list)
    """The entries of the last session."""


StallRule = Literal["plateau", "decline"]
"""How a stall was found (:mod:`engine.facts.stalls`): no progress in ``stall_sessions`` (plateau), or a falling
fitted estimated 1RM over ``trend_sessions`` (decline)."""


class SessionPoint(BaseModel):
    """One session as a stall names it, in the lift's unit."""

    model_config = ConfigDict(frozen=True)

    on: date
    e1rm: float
    """Best estimated 1RM of the session, in ``Stall.unit``."""


class Stall(BaseModel):
    """A lift's stall, with the numbers that show it (every one computed here)."""

    model_config = ConfigDict(frozen=True)

    exercise: str
    rule: StallRule
    unit: str
    """The unit the latest session was logged in (``kg``, ``lb``): every value below is in it."""
    sessions: list[SessionPoint]
    """The sessions the rule looked at, oldest first (``stall_sessions`` or ``trend_sessions`` of them)."""
    best: SessionPoint
    """The best estimated 1RM they are measured against: before the window (``plateau``), or the best up to now
    (``decline``)."""
    since: date
    """The stall's identity: the day of the best estimated 1RM so far (a new best ends the stall)."""
    slope: float = 0.0
    """``decline``: the fitted change a session, in ``unit`` (negative)."""
    fall: float = 0.0
    """``decline``: the fitted fall over the sessions (``-slope × (K - 1)``), in ``unit``."""


class Progress(BaseModel):
    """Why a lift is not stalled, in numbers: the best of its latest sessions against the best before them."""

    model_config = ConfigDict(frozen=True)

    exercise: str
    unit: str
    sessions: int
    """The latest sessions looked at (``stall_sessions``, or fewer when it has fewer)."""
    latest_best: SessionPoint | None
    """The best estimated 1RM among them (None: no weighted session)."""
    before_best: SessionPoint | None
    """The best before them (None: nothing before them, too soon to tell)."""
