"""The plan shapes code builds after checking evidence, limits and the tool profile.

``WorkPlan`` is shown and stores nothing; ``TaskSheet`` adds assumptions,
evidence and the ``Patch`` that runs only after Approve.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.outcomes import Citation

EvidenceStatus = Literal["validated", "unresolved", "conflicting"]


class Evidence(BaseModel):
    claim: str
    status: EvidenceStatus
    critical: bool = True
    sources: list[Citation] = Field(default_factory=list)
    notes: str = ""


class PatchOp(BaseModel):
    """A checked operation, ready to commit."""

    op: Literal["add_planned_session", "set_goal", "correct_entry"]
    date: str | None = None
    domain: str = ""
    exercise: str | None = None
    sets: int | None = None
    reps: int | None = None
    weight: float | None = None
    unit: str | None = None
    goal: str | None = None
    entry_id: str | None = None
    """correct_entry: the entry meant (found by code)."""
    field: str | None = None
    old_value: str | None = None
    new_value: str | None = None
    detail: str | None = None
    """correct_entry: the entry meant and which of its sets change, shown for approval (found by code)."""
    purpose: Literal["", "deload"] = ""
    """add_planned_session: a deload session (planned by code): once done, stall detection leaves it out."""


class Patch(BaseModel):
    patch_id: str
    """Deterministic per turn and plan version: committing it twice commits once."""
    ops: list[PatchOp]


class WorkPlan(BaseModel):
    """Ephemeral: shown, nothing stored."""

    kind: Literal["work_plan"] = "work_plan"
    goal: str
    inputs: list[str] = Field(default_factory=list)
    steps: list[str] = Field(default_factory=list)
    tools_required: list[str] = Field(default_factory=list)
    expected_output: str = ""
    risk_flags: list[str] = Field(default_factory=list)
    note: str = ""
    """Why this is only a plan (e.g. downgraded: evidence missing)."""


class TaskSheet(WorkPlan):
    """Stateful: a WorkPlan plus what it assumes, its evidence and the changes it will make."""

    kind: Literal["task_sheet"] = "task_sheet"  # type: ignore[assignment]
    assumptions: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    patch: Patch
    confidence: float
