"""The shapes of stored entries: what a log becomes, whoever wrote it (the parser, an importer, a plan).

Field descriptions on the set and exercise shapes reach the model through the
parser's schema, so they are written for it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class SetDetail(BaseModel):
    """One set of an exercise."""

    set_num: int = Field(ge=1, description="1, 2, 3, …")
    weight: float | None = Field(default=None, ge=0, description="Weight lifted; null for bodyweight.")
    reps: int | None = Field(default=None, ge=0, le=1000, description="Repetitions in this set.")


class ExerciseLog(BaseModel):
    """One exercise with its sets."""

    name: str = Field(description="Exercise name, canonical English if known (bench press).")
    sets: int = Field(ge=0, le=100, description="Number of sets; equals the length of set_details.")
    weight_unit: Literal["kg", "lb"] | None = Field(default=None, description="kg or lb; null for bodyweight.")
    set_details: list[SetDetail] = Field(description="One item per set, in order.")


class Metric(BaseModel):
    """A measured value outside strength sets (distance, duration, calories, …)."""

    name: str = Field(description="Field name from the domain's log schema, e.g. distance_km.")
    value: str = Field(description="The value as written, e.g. 5, 25:30, 200.")
    unit: str = Field(default="", description="Canonical unit, e.g. km, min, kcal, g.")


EntryKind = Literal["parsed", "note", "planned"]
EntryStatus = Literal["active", "superseded", "deleted", "completed"]


class NewEntry(BaseModel):
    """An entry about to be stored."""

    model_config = ConfigDict(frozen=True)

    occurred_on: date
    domain: str
    activity_type: str
    kind: EntryKind = "parsed"
    summary: str
    data: dict[str, Any] = Field(default_factory=dict)
    """The parsed entry (for strength: ``exercises[name, sets, weight_unit, set_details]``)."""
    raw_text: str
    terms: list[str] = Field(default_factory=list)
    """Canonical vocabulary terms found in the text (``bench press`` for ``벤치프레스``)."""
    source: Literal["chat", "import", "correction", "plan"] = "chat"
    source_key: str
    """Unique per user and origin (``turn:<inbox id>:<n>``, ``strong:<sha256 of the workout>``)."""


class Entry(NewEntry):
    """A stored entry."""

    entry_id: str
    user_key: str
    status: EntryStatus
    supersedes: str | None
    created_at: datetime


