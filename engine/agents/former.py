"""Task formation's model call: a request, the evidence so far -> a proposed plan."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine.agents.briefing import entries_text
from engine.agents.prompts import render
from engine.agents.task_schemas import TaskFormationOutput
from engine.domains.registry import ActiveDomainContext
from engine.agents.llm import LLM
from engine.entries.model import Entry


async def form(
    llm: LLM,
    ctx: ActiveDomainContext,
    *,
    intent: str,
    request: str,
    today: date,
    allowed_ops: Sequence[str],
    entries: Sequence[Entry],
    facts: str,
    goals: str,
    answers: str,
    previous: str,
    feedback: str,
    problems: Sequence[str],
) -> TaskFormationOutput:
    return await llm.structured(
        "former",
        TaskFormationOutput,
        render(
            "former.system",
            today=today.isoformat(),
            weekday=today.strftime("%A"),
            domains=", ".join(ctx.domains_loaded) or "(none)",
            expertise=ctx.expertise,
            allowed_ops=", ".join(allowed_ops) or "(none: only a plan to show)",
        ),
        render(
            "former.user",
            intent=intent,
            request=request,
            entries=entries_text(entries),
            facts=facts or "(none)",
            goals=goals or "(none)",
            answers=answers or "(none)",
            previous=previous or "(none)",
            feedback=feedback or "(none)",
            problems="; ".join(problems) or "(none)",
        ),
    )
