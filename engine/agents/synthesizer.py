"""The Synthesizer: write the answer from facts computed in code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agents.briefing import entries_text, responses_text, rules_text
from engine.agents.prompts import render
from engine.agents.schemas import SynthesizerOutput
from engine.domains.registry import ActiveDomainContext
from engine.agents.llm import LLM
from engine.entries.model import Entry


async def synthesize(
    llm: LLM,
    ctx: ActiveDomainContext,
    question: str,
    facts: str,
    entries: Sequence[Entry],
    responses: Mapping[str, str],
    notes: Sequence[str],
    feedback: str,
) -> SynthesizerOutput:
    return await llm.structured(
        "synthesizer",
        SynthesizerOutput,
        render("synthesizer.system", rules=rules_text(ctx), expertise=ctx.expertise),
        render(
            "synthesizer.user",
            question=question,
            facts=facts or "(none)",
            entries=entries_text(entries),
            responses=responses_text(responses),
            notes="; ".join(notes) or "(none)",
            feedback=feedback or "(first attempt)",
        ),
    )
