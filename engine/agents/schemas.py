"""Agent output models. Each class name is its JSON schema's ``title``: a contract
with the model server and with the test fake, which answers by title.

Field descriptions reach the model through the schema, so they are written for
it. The decision field comes last, after the findings it should follow from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Intent = Literal["LOG", "QUERY", "TASK", "CORRECTION", "CHAT"]


class RouterOutput(BaseModel):
    """Classify one message."""

    reasoning: str = Field(description="One short sentence: what the person wants.")
    domains: list[str] = Field(
        description="Names of the domains the message is about, from the list given. Empty for CHAT."
    )
    also_query: bool = Field(
        default=False,
        description="True when a LOG message also asks a question about the person's data.",
    )
    intent: Intent = Field(
        description=(
            "LOG: reports something done or eaten. QUERY: asks about their data or the domain. "
            "TASK: asks for a plan or a change. CORRECTION: fixes something logged earlier. "
            "CHAT: anything else (greetings, thanks)."
        )
    )


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


class ParserOutput(BaseModel):
    """Read one log message into a structured entry."""

    model_config = ConfigDict(title="ParserOutput")

    activity_type: str = Field(description="The domain's activity type, e.g. strength, running, nutrition.")
    domain: str = Field(description="The domain name this entry belongs to.")
    exercises: list[ExerciseLog] = Field(default_factory=list, description="Strength exercises; empty otherwise.")
    metrics: list[Metric] = Field(default_factory=list, description="Other measured values.")
    date_text: str = Field(default="", description="The words that say when (yesterday, 어제, 11/20); empty if none.")
    notes: str = Field(default="", description="Anything else worth keeping, in the person's words.")
    summary: str = Field(description="One short line describing the entry, in English.")
    missing: list[str] = Field(
        default_factory=list,
        description="What cannot be known without guessing (e.g. 'exercise name'). Empty when complete.",
    )
    status: Literal["parsed", "needs_clarification"] = Field(
        description="needs_clarification only when storing would require a guess."
    )


class ClarifierQuestion(BaseModel):
    """One question for the person."""

    question: str = Field(description="Short, friendly, in the person's language.")
    gap_addressed: str = Field(description="Which missing piece this resolves.")
    options: list[str] = Field(default_factory=list, max_length=5, description="Up to 5 short likely answers.")


class ClarifierOutput(BaseModel):
    """Ask the person only what only they can answer."""

    questions: list[ClarifierQuestion] = Field(min_length=1, max_length=3)
    context_explanation: str = Field(description="One sentence: why you ask.")
    fallback_action: str = Field(description="What happens if they skip, in one sentence.")


class ChatOutput(BaseModel):
    """A short conversational reply."""

    reply: str = Field(description="One to three sentences; say what Almanac can do if relevant.")
