"""The Evaluator's language part; the number check is code (engine.query.grounding)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.agents.briefing import fenced, responses_text, rules_text
from engine.agents.llm import LLM
from engine.agents.prompts import render
from engine.agents.schemas import EvaluatorOutput
from engine.domains.registry import ActiveDomainContext


async def evaluate(
    llm: LLM,
    ctx: ActiveDomainContext,
    question: str,
    answer: str,
    values: str,
    responses: Mapping[str, str],
) -> EvaluatorOutput:
    """Judge an answer (with its values rendered by code) for relevance, safety and completeness."""
    return await llm.structured(
        "evaluator",
        EvaluatorOutput,
        render("evaluator.system", rules=rules_text(ctx)),
        render(
            "evaluator.user",
            question=question,
            answer=fenced(answer),  # its values were rendered from entries, names and all
            values=fenced(values),
            responses=responses_text(responses),
        ),
    )
