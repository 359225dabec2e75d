"""When a question or a plan reads the knowledge base, and where.

The Planner may ask for articles (``knowledge_query``); code also reads a
what / why / how question ("what is a deload", "왜 정체됐어") as one that
needs them, whatever the Planner chose. A question about numbers alone ("is
that better than last week?") reads none: articles it does not need only
crowd a small model's prompt. General fitness (recovery, sleep, warm-ups) is
searched beside the active domains, as any question may touch it.
"""

from __future__ import annotations

from engine.domains.registry import ActiveDomainContext, DomainRegistry
from engine.knowledge.library import Library
from engine.knowledge.model import Chunk
from engine.knowledge.terms import query_keywords
from engine.query.asking import asks_for_knowledge, domains_holding


def answers_from_articles(library: Library | None, registry: DomainRegistry, text: str) -> bool:
    """Whether a chat message is a what / why / how question about a term of the domains, with articles to answer it."""
    return (
        library is not None and library.available and asks_for_knowledge(text) and bool(query_keywords(registry, text))
    )


def domains_named(registry: DomainRegistry, text: str) -> list[str]:
    """The domains whose vocabulary holds a term of ``text`` (``디로드`` -> strength)."""
    return domains_holding(query_keywords(registry, text), registry)


async def articles_for(
    library: Library | None, ctx: ActiveDomainContext, text: str, knowledge_query: str = ""
) -> list[Chunk]:
    """Knowledge-base sections for ``text``: searched for ``knowledge_query``, else for ``text`` when it asks what, why or how.

    Returns:
        The sections found and those link expansion added; empty without a knowledge base.
    """
    if library is None:
        return []
    # A search is tried even while the knowledge base is away (an ingest elsewhere holds it): the
    # library records that this answer went without it, and tells the person once (Library.notice).
    query = knowledge_query.strip() or (text if asks_for_knowledge(text) else "")
    if not query:
        return []
    # The fallback domain's articles are always searched too (general training advice).
    always = ctx.registry.fallback
    domains = list(dict.fromkeys([*ctx.domains_loaded, *([always] if always else [])]))
    tops = [d.retrieval_profile.knowledge_top_k for d in ctx.domains if d.retrieval_profile.knowledge_top_k]
    return await library.find(query, domains, max(tops) if tops else None, also=text)
