"""Task formation's model call: a request, the evidence so far -> a proposed plan.

The model sees only what the domain's ``investigation_tools`` let the loop
read (entries, facts, expertise), each value with an id it cites as a source
and refers to in the plan's text.

The input is built apart from the call (:class:`FormerInput`), so the loop can
tell that a round would ask exactly what the last one did (the model, at
temperature 0, would answer the same) and skip it. The stable part comes
first: the system prompt is the same in every round of a formation, and the
user message begins with the request and its values, so Ollama's prompt
cache reuses them; what changes between rounds (the previous plan, the
feedback, the problems found) comes last.
"""

from __future__ import annotations

from typing import Annotated

from engine.agents.base import Agent, AlwaysData, Data, Dated, Names, Note, Shown
from engine.agents.task_schemas import TaskFormationOutput


class FormerInput(Dated):
    """What task formation's model call is shown: two equal inputs get the same answer."""

    domains: Names
    """The domains loaded for the request."""
    lines: str
    """The expertise and rule lines it may cite (``R1: …``), or a note that none may be read."""
    allowed_ops: Annotated[list[str], Shown(join=", ", empty="(none: only a plan to show)")]
    """The operations the domain lets a plan make."""
    intent: str
    """The Router's intent (``TASK``)."""
    request: str
    """The person's message."""
    values: AlwaysData
    """Facts, entries and the person's own values (``F1: …``, ``E1: …``, ``Q1: …``)."""
    articles: Data
    """Knowledge-base sections it may cite (``K1``), their values as ids (``{A2}``)."""
    goals: Data
    """The person's active goals, ``domain: goal`` each."""
    answers: Data
    """The questions asked this turn and the person's answers."""
    previous: Data
    """The previous plan, as text."""
    feedback: Note
    """What the person said of the previous plan."""
    problems: list[str]
    """What code found wrong with the previous round's plan."""


FORMER = Agent("former", FormerInput, TaskFormationOutput)
