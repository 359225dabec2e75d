"""The Analyzer: do the facts and entries answer the question, and what is missing?"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agents.briefing import entries_text, fenced, other_domains, responses_text
from engine.agents.prompts import render
from engine.agents.schemas import AnalyzerOutput
from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.agents.llm import LLM
from engine.entries.model import Entry


async def analyze(
    llm: LLM,
    ctx: ActiveDomainContext,
    registry: DomainRegistry,
    question: str,
    facts: str,
    entries: Sequence[Entry],
    responses: Mapping[str, str],
    notes: Sequence[str],
) -> AnalyzerOutput:
    return await llm.structured(
        "analyzer",
        AnalyzerOutput,
        render(
            "analyzer.system",
            domains=", ".join(ctx.domains_loaded) or "(none)",
            expertise=ctx.expertise,
            other_domains=other_domains(ctx, registry),
        ),
        render(
            "analyzer.user",
            question=question,
            facts=fenced(facts) if facts else "(none)",
            entries=entries_text(entries),
            responses=responses_text(responses),
            notes="; ".join(notes) or "(none)",
        ),
    )
