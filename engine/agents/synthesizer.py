"""The Synthesizer: choose the answer's claims from the values code computed (code writes the sentences)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agents.briefing import fenced, responses_text, rules_text
from engine.agents.llm import LLM
from engine.agents.prompts import render
from engine.agents.schemas import SynthesizerOutput
from engine.domains.registry import ActiveDomainContext
from engine.query.claims import schema_for
from engine.query.references import RefTable

LANGUAGES = {"en": "English", "ko": "Korean (한국어)"}


def system_prompt(ctx: ActiveDomainContext, language: str) -> str:
    """The stable part, first, so Ollama's prompt cache reuses it across questions in one language."""
    return render(
        "synthesizer.system",
        language=LANGUAGES.get(language, "the language of the question"),
        rules=rules_text(ctx),
        expertise=ctx.expertise,
    )


def user_prompt(
    question: str,
    offered: RefTable,
    responses: Mapping[str, str],
    notes: Sequence[str],
    feedback: str,
    articles: str = "",
) -> str:
    return render(
        "synthesizer.user",
        question=question,
        values=fenced(offered.prompt(["fact", "entry", "question", "date", "gap", "source", "article"])),
        articles=fenced(articles) if articles else "(none)",
        responses=responses_text(responses),
        notes="; ".join(notes) or "(none)",
        feedback=feedback or "(first attempt)",
    )


async def synthesize(
    llm: LLM,
    ctx: ActiveDomainContext,
    question: str,
    offered: RefTable,
    responses: Mapping[str, str],
    notes: Sequence[str],
    feedback: str,
    language: str,
    articles: str = "",
) -> SynthesizerOutput:
    """Ask for the answer's claims, each citing ids of ``offered`` (sent as an ``enum``).

    Args:
        offered: The values this prompt offers (:func:`engine.query.offer.offer`).
        articles: Knowledge-base sections (:func:`engine.query.articles.prompt`), their values as ids.
    """
    return await llm.structured(
        "synthesizer",
        SynthesizerOutput,
        system_prompt(ctx, language),
        user_prompt(question, offered, responses, notes, feedback, articles),
        schema=schema_for(offered),
    )
