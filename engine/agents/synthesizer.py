"""The Synthesizer: choose the answer's claims from the values code computed (code writes the sentences)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from engine.agents.base import Agent, AlwaysData, Data, Inputs, Shown
from engine.agents.briefing import rules_text
from engine.agents.schemas import SynthesizerOutput
from engine.domains.registry import ActiveDomainContext
from engine.query.references import RefKind, RefTable

LANGUAGES = {"en": "English", "ko": "Korean (한국어)"}
OFFERED: list[RefKind] = ["fact", "entry", "question", "date", "gap", "source", "article"]
"""The kinds of values a prompt offers, in the order it lists them."""


class SynthesizerInput(Inputs):
    """What the Synthesizer is shown. The stable part (its system prompt) comes first,
    so Ollama's prompt cache reuses it across questions in one language."""

    language: str
    """The language to answer in, named (:data:`LANGUAGES`)."""
    rules: str
    """The loaded domains' response rules, one ``- `` line each."""
    expertise: str
    """The loaded domains' expertise."""
    question: str
    """The person's question."""
    values: AlwaysData
    """The values offered, with their ids (:meth:`RefTable.prompt`, see :func:`engine.query.offer.offer`)."""
    articles: Data
    """Knowledge-base sections (:func:`engine.query.articles.prompt`), their values as ids."""
    responses: dict[str, str]
    """The person's answers to earlier questions, by the gap they answered."""
    notes: list[str]
    """What the answer must say besides the values (warnings, a skipped question)."""
    feedback: Annotated[str, Shown(empty="(first attempt)")]
    """Why the previous attempt was not used."""


SYNTHESIZER = Agent("synthesizer", SynthesizerInput, SynthesizerOutput)


def synthesizer_input(
    ctx: ActiveDomainContext,
    language: str,
    *,
    question: str,
    offered: RefTable,
    responses: dict[str, str],
    notes: Sequence[str],
    feedback: str,
    articles: str = "",
) -> SynthesizerInput:
    """The Synthesizer's input; the answer's ids are then sent as the schema's ``enum`` (:func:`schema_for`)."""
    return SynthesizerInput(
        language=LANGUAGES.get(language, "the language of the question"),
        rules=rules_text(ctx),
        expertise=ctx.expertise,
        question=question,
        values=offered.prompt(OFFERED),
        articles=articles,
        responses=responses,
        notes=list(notes),
        feedback=feedback,
    )
