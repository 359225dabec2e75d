"""The shapes of stored entries: what a log becomes, whoever wrote it (the parser, an importer, a plan).

Field descriptions on the set and exercise shapes reach the model through the
parser's schema, so they are written for it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer
from pydantic.json_schema import SkipJsonSchema

SetKind = Literal["normal", "warmup", "drop", "failure"]
"""What a set was: a working set, a warm-up, a drop set, or a failure (a failed attempt has 0 reps)."""

# Spellings stored by earlier versions and other apps' words for the same kinds.
_KIND_SPELLINGS: dict[str, SetKind] = {
    "warm-up": "warmup", "warm up": "warmup", "w": "warmup", "drop set": "drop", "dropset": "drop",
    "d": "drop", "f": "failure", "failed": "failure", "": "normal",
}  # fmt: skip
# Optional per-set fields written only when they say something (old data has none of them).
_OPTIONAL_SET_FIELDS = ("order", "rpe", "distance_km", "seconds", "notes")


class SetDetail(BaseModel):
    """One set of an exercise."""

    # Only set_num, weight and reps are always stored; kind when it is not
    # "normal" and the other fields when set, so entries stay as small as
    # before and entries stored before these fields existed load unchanged.
    # Fields the parser never fills stay out of its schema (SkipJsonSchema).

    set_num: int = Field(ge=1, description="1, 2, 3, …")
    weight: float | None = Field(default=None, ge=0, description="Weight lifted; null for bodyweight.")
    reps: int | None = Field(default=None, ge=0, le=1000, description="Repetitions in this set.")
    kind: SetKind = Field(default="normal", description="normal; warmup; drop (drop set); failure (0 reps: missed).")
    order: SkipJsonSchema[str | None] = None
    """The set's label in the app it came from when it is not its number (Strong's ``W``, ``D``, ``F``)."""
    rpe: SkipJsonSchema[float | None] = None
    distance_km: SkipJsonSchema[float | None] = None
    seconds: SkipJsonSchema[float | None] = None
    """Time of a timed set (a plank, a carry), in seconds."""
    notes: SkipJsonSchema[str] = ""

    @field_validator("kind", mode="before")
    @classmethod
    def _known_kind(cls, v: Any) -> Any:
        if isinstance(v, str):
            folded = v.strip().casefold()
            kind = _KIND_SPELLINGS.get(folded, folded)
            # An unknown word from a model or an old file is a plain set, not a failed load.
            return kind if kind in ("normal", "warmup", "drop", "failure") else "normal"
        return "normal"

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if out.get("kind") == "normal":
            out.pop("kind")
        for name in _OPTIONAL_SET_FIELDS:
            if out.get(name) in (None, ""):
                out.pop(name, None)
        return out


class ExerciseLog(BaseModel):
    """One exercise with its sets."""

    name: str = Field(description="Exercise name, canonical English if known (bench press).")
    sets: int = Field(ge=0, le=100, description="Number of sets; equals the length of set_details.")
    weight_unit: Literal["kg", "lb"] | None = Field(default=None, description="kg or lb; null for bodyweight.")
    set_details: list[SetDetail] = Field(description="One item per set, in order.")
    source_name: SkipJsonSchema[str | None] = None
    """The name as the person or the app wrote it (``Bench Press (Dumbbell)``), kept beside the canonical one."""

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if out.get("source_name") is None:
            out.pop("source_name", None)
        return out


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
