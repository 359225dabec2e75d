"""Task formation's output model and the plan shapes built from it.

``TaskFormationOutput`` is what the model writes (its class name is the schema
title the fake answers by). ``WorkPlan``, ``TaskSheet`` and ``Patch`` are what
code builds from it after checking evidence, limits and the tool profile.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EvidenceStatus = Literal["validated", "unresolved", "conflicting"]


class ProposedOp(BaseModel):
    """One change the plan would make. Flat on purpose: small models flatten nesting anyway."""

    op: str = Field(description="add_planned_session, set_goal or correct_entry.")
    date: str | None = Field(default=None, description="add_planned_session: the day, YYYY-MM-DD.")
    exercise: str | None = Field(default=None, description="Exercise or activity name.")
    sets: int | None = Field(default=None, ge=0, le=100)
    reps: int | None = Field(default=None, ge=0, le=1000)
    weight: float | None = Field(default=None, ge=0)
    unit: str | None = Field(default=None, description="kg or lb.")
    goal: str | None = Field(default=None, description="set_goal: the goal in one line.")
    field: str | None = Field(default=None, description="correct_entry: weight, reps or sets.")
    old_value: str | None = Field(default=None, description="correct_entry: the value as logged.")
    new_value: str | None = Field(default=None, description="correct_entry: the right value.")


class ProposedAssumption(BaseModel):
    claim: str = Field(description="Something the plan relies on, e.g. 'current bench working weight is 55 kg'.")
    critical: bool = Field(default=True, description="True when the plan is wrong if this is wrong.")
    status: EvidenceStatus = Field(
        default="unresolved", description="validated only when an entry or the domain knowledge shows it."
    )
    source: str = Field(default="", description="The entry date (YYYY-MM-DD) or 'domain' that shows it.")


class TaskFormationOutput(BaseModel):
    """Turn a request into a plan."""

    reasoning: str = Field(description="One or two sentences.")
    goal: str = Field(default="", description="What the person wants, in one line.")
    inputs: list[str] = Field(default_factory=list, description="What the plan is based on.")
    steps: list[str] = Field(default_factory=list, max_length=20, description="The plan, one short step per item.")
    tools_required: list[str] = Field(default_factory=list)
    expected_output: str = Field(default="")
    risk_flags: list[str] = Field(default_factory=list)
    assumptions: list[ProposedAssumption] = Field(default_factory=list, max_length=8)
    operations: list[ProposedOp] = Field(default_factory=list, max_length=60, description="Changes to the person's data.")
    questions_for_user: list[str] = Field(default_factory=list, max_length=3, description="Only what only they know.")
    next_step: Literal["ready", "investigate", "ask_user", "no_task"] = Field(
        description="ready: plan complete; investigate: needs more of their entries; ask_user; no_task: nothing to do."
    )


class Source(BaseModel):
    title: str
    """An entry's date and summary, or ``<domain> expertise``."""
    ref: str
    """``entry:<id>`` or ``domain:<name>``."""
    retrieved_at: str


class Evidence(BaseModel):
    claim: str
    status: EvidenceStatus
    critical: bool = True
    sources: list[Source] = Field(default_factory=list)
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
