"""The :class:`Fact` handed to the answer, and the constants every fact module shares."""

from __future__ import annotations

from datetime import date

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
