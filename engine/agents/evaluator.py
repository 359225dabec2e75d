"""The Evaluator's language part; the number check is deterministic (engine.grounding)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agents.briefing import entries_text, responses_text, rules_text
from engine.agents.prompts import render
from engine.agents.schemas import EvaluatorOutput
from engine.domains.registry import ActiveDomainContext
from engine.agents.llm import LLM
from engine.entries.model import Entry


async def evaluate(
    llm: LLM,
    ctx: ActiveDomainContext,
    question: str,
    answer: str,
    facts: str,
    entries: Sequence[Entry],
    responses: Mapping[str, str],
) -> EvaluatorOutput:
    return await llm.structured(
        "evaluator",
        EvaluatorOutput,
        render("evaluator.system", rules=rules_text(ctx)),
        render(
            "evaluator.user",
            question=question,
            answer=answer,
            facts=facts or "(none)",
            entries=entries_text(entries),
            responses=responses_text(responses),
        ),
    )
