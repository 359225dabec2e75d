"""Task formation's model call: a request, the evidence so far -> a proposed plan.

The model sees only what the domain's ``investigation_tools`` let the loop
read (entries, facts, expertise), each value with an id it cites as a source
and refers to in the plan's text.

The prompt is built apart from the call (:func:`prompt`), so the loop can
tell that a round would ask exactly what the last one did (the model, at
temperature 0, would answer the same) and skip it. The stable part comes
first: the system prompt is the same in every round of a formation, and the
user message begins with the request and its values, so Ollama's prompt
cache reuses them; what changes between rounds (the previous plan, the
feedback, the problems found) comes last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from engine.agents.briefing import fenced
from engine.agents.llm import LLM
from engine.agents.prompts import render
from engine.agents.task_schemas import TaskFormationOutput
from engine.domains.registry import ActiveDomainContext


@dataclass(frozen=True, slots=True)
class Prompt:
    """One round's messages; two equal prompts get the same answer."""

    system: str
    user: str


def prompt(
    ctx: ActiveDomainContext,
    *,
    intent: str,
    request: str,
    today: date,
    allowed_ops: Sequence[str],
    lines: str,
    values: str,
    goals: str,
    answers: str,
    previous: str,
    feedback: str,
    problems: Sequence[str],
    articles: str = "",
) -> Prompt:
    """The messages asking for a plan.

    Args:
        lines: The expertise and rule lines it may cite (``R1: …``), or a note that none may be read.
        values: Facts, entries and the person's own values (``F1: …``, ``E1: …``, ``Q1: …``).
        answers: The questions asked this turn and the person's answers.
        articles: Knowledge-base sections it may cite (``K1``), their values as ids (``{A2}``).
    """
    return Prompt(
        render(
            "former.system",
            today=today.isoformat(),
            weekday=today.strftime("%A"),
            domains=", ".join(ctx.domains_loaded) or "(none)",
            lines=lines,
            allowed_ops=", ".join(allowed_ops) or "(none: only a plan to show)",
        ),
        render(
            "former.user",
            intent=intent,
            request=request,
            values=fenced(values),
            articles=fenced(articles) if articles else "(none)",
            goals=fenced(goals) if goals else "(none)",
            answers=fenced(answers) if answers else "(none)",
            previous=fenced(previous) if previous else "(none)",
            feedback=feedback or "(none)",
            problems="; ".join(problems) or "(none)",
        ),
    )


async def form(llm: LLM, messages: Prompt) -> TaskFormationOutput:
    """Ask for a plan."""
    return await llm.structured("former", TaskFormationOutput, messages.system, messages.user)
