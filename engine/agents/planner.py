"""The Planner: how to answer a question (what to fetch, whether to widen the domains)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from engine.agents.briefing import fenced, other_domains, responses_text
from engine.agents.prompts import render
from engine.agents.schemas import Gap, PlannerOutput
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.agents.llm import LLM
from engine.query.questions import QuestionShape


def _shape_text(shape: QuestionShape) -> str:
    parts = [f"intents={','.join(shape.intents) or '-'}", f"terms={','.join(shape.terms) or '-'}"]
    if shape.date is not None:
        parts.append(f"named day={shape.date.phrase} ({shape.date.status})")
    return "; ".join(parts)


async def plan(
    llm: LLM,
    ctx: ActiveDomainContext,
    registry: DomainRegistry,
    question: str,
    shape: QuestionShape,
    today: date,
    responses: Mapping[str, str],
    attempts: Sequence[str],
    gaps: Sequence[Gap],
) -> PlannerOutput:
    return await llm.structured(
        "planner",
        PlannerOutput,
        render(
            "planner.system",
            today=today.isoformat(),
            weekday=today.strftime("%A"),
            domains=", ".join(ctx.domains_loaded) or "(none)",
            other_domains=other_domains(ctx, registry),
            expertise=ctx.expertise,
        ),
        render(
            "planner.user",
            question=question,
            shape=fenced(_shape_text(shape)),
            responses=responses_text(responses),
            attempts="; ".join(attempts) or "(nothing yet)",
            gaps="; ".join(g.description for g in gaps) or "(none)",
        ),
    )
