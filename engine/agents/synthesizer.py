"""The Synthesizer: write the answer, referring to values code computed by id ({F3})."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agents.briefing import fenced, responses_text, rules_text
from engine.agents.llm import LLM
from engine.agents.prompts import render
from engine.agents.schemas import SynthesizerOutput
from engine.domains.registry import ActiveDomainContext

LANGUAGES = {"en": "English", "ko": "Korean (한국어)"}


async def synthesize(
    llm: LLM,
    ctx: ActiveDomainContext,
    question: str,
    values: str,
    responses: Mapping[str, str],
    notes: Sequence[str],
    feedback: str,
    language: str,
    articles: str = "",
) -> SynthesizerOutput:
    """Ask for an answer whose values are references into ``values`` (the table's prompt lines).

    Args:
        articles: Knowledge-base sections (:func:`engine.query.articles.prompt`), their values as ids.
    """
    return await llm.structured(
        "synthesizer",
        SynthesizerOutput,
        render(
            "synthesizer.system",
            language=LANGUAGES.get(language, "the language of the question"),
            rules=rules_text(ctx),
            expertise=ctx.expertise,
        ),
        render(
            "synthesizer.user",
            question=question,
            values=fenced(values),
            articles=fenced(articles) if articles else "(none)",
            responses=responses_text(responses),
            notes="; ".join(notes) or "(none)",
            feedback=feedback or "(first attempt)",
        ),
    )
