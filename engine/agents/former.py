"""Task formation's model call: a request, the evidence so far -> a proposed plan.

The model sees only what the domain's ``investigation_tools`` let the loop
read (entries, facts, expertise), each value with an id it cites as a source
and refers to in the plan's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.agents.briefing import fenced
from engine.agents.llm import LLM
from engine.agents.prompts import render
from engine.agents.task_schemas import TaskFormationOutput
from engine.domains.registry import ActiveDomainContext


async def form(
    llm: LLM,
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
) -> TaskFormationOutput:
    """Ask for a plan.

    Args:
        lines: The expertise and rule lines it may cite (``R1: …``), or a note that none may be read.
        values: Facts, entries and the request's own values (``F1: …``, ``E1: …``, ``Q1: …``).
        articles: Knowledge-base sections it may cite (``K1``), their values as ids (``{A2}``).
    """
    return await llm.structured(
        "former",
        TaskFormationOutput,
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
            answers=answers or "(none)",
            previous=fenced(previous) if previous else "(none)",
            feedback=feedback or "(none)",
            problems="; ".join(problems) or "(none)",
        ),
    )
