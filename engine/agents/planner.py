"""The Planner: how to answer a question (what to fetch, whether to widen the domains)."""

from __future__ import annotations

from typing import Annotated

from engine.agents.base import Agent, Data, Dated, Names, Shown
from engine.agents.schemas import PlannerOutput
from engine.query.questions import QuestionShape


def shape_text(shape: QuestionShape) -> str:
    """What code read the question to ask, in one line."""
    parts = [f"intents={','.join(shape.intents) or '-'}", f"terms={','.join(shape.terms) or '-'}"]
    if shape.date is not None:
        parts.append(f"named day={shape.date.phrase} ({shape.date.status})")
    return "; ".join(parts)


class PlannerInput(Dated):
    """What the Planner is shown."""

    domains: Names
    """The domains loaded for this question."""
    other_domains: Names
    """The domains it may ask to widen to."""
    expertise: str
    """The loaded domains' expertise."""
    question: str
    """The person's question."""
    shape: Data
    """What code read the question to ask (:func:`shape_text`)."""
    responses: dict[str, str]
    """The person's answers to earlier questions, by the gap they answered."""
    attempts: Annotated[list[str], Shown(empty="(nothing yet)")]
    """The retrievals tried so far, one line each."""
    gaps: list[str]
    """What the Analyzer found missing."""


PLANNER = Agent("planner", PlannerInput, PlannerOutput)
