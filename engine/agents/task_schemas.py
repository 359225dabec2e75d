"""Task formation's output model: what the model writes (its class name is the
schema title the fake answers by). The plan shapes code builds from it live in
:mod:`engine.tasks.model`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from engine.tasks.model import EvidenceStatus


class ProposedOp(BaseModel):
    """One change the plan would make. Flat on purpose: small models flatten nesting anyway."""

    op: str = Field(description="add_planned_session, set_goal or correct_entry.")
    date: str | None = Field(default=None, description="add_planned_session: the day, YYYY-MM-DD.")
    exercise: str | None = Field(default=None, description="Exercise or activity name.")
    sets: int | None = Field(default=None, ge=0, le=100)
    reps: int | None = Field(default=None, ge=0, le=1000)
    weight: float | None = Field(default=None, ge=0)
    unit: str | None = Field(default=None, description="kg or lb.")
    goal: str | None = Field(default=None, description="set_goal: the goal in one line; values as ids like {Q1}.")
    field: str | None = Field(default=None, description="correct_entry: weight, reps or sets.")
    old_value: str | None = Field(default=None, description="correct_entry: the value as logged.")
    new_value: str | None = Field(default=None, description="correct_entry: the right value.")


class ProposedAssumption(BaseModel):
    claim: str = Field(description="Something the plan relies on, e.g. 'current bench working weight is 55 kg'.")
    critical: bool = Field(default=True, description="True when the plan is wrong if this is wrong.")
    status: EvidenceStatus = Field(
        default="unresolved", description="validated only when an entry or the domain knowledge shows it."
    )
    source: str = Field(
        default="",
        description=(
            'The id of what shows it: an entry (E3) or fact (F2), a value they wrote (Q1) or "answer", '
            "an expertise or rule line (R4), an article (K1)."
        ),
    )


class TaskFormationOutput(BaseModel):
    """Turn a request into a plan."""

    reasoning: str = Field(description="One or two sentences.")
    goal: str = Field(default="", description="What the person wants, in one line; values only as ids like {F2}.")
    inputs: list[str] = Field(default_factory=list, description="What the plan is based on.")
    steps: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="The plan, one short step per item; values only as ids like {Q1}.",
    )
    tools_required: list[str] = Field(default_factory=list)
    expected_output: str = Field(default="")
    risk_flags: list[str] = Field(default_factory=list)
    assumptions: list[ProposedAssumption] = Field(default_factory=list, max_length=8)
    operations: list[ProposedOp] = Field(
        default_factory=list, max_length=60, description="Changes to the person's data."
    )
    questions_for_user: list[str] = Field(default_factory=list, max_length=3, description="Only what only they know.")
    next_step: Literal["ready", "investigate", "ask_user", "no_task"] = Field(
        description="ready: plan complete; investigate: needs more of their entries; ask_user; no_task: nothing to do."
    )
