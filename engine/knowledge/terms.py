"""Words for the BM25 side of a search, from the domains' vocabularies.

The articles are written in English; a question in Korean shares no words
with them. The domain vocabularies already map what people write to
canonical terms (``벤치`` -> ``bench press``, ``디로드`` -> ``deload``), so
those terms join the question's own words in the BM25 query. The vector
side needs no help: the model is multilingual.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domains.registry import DomainRegistry


def query_keywords(registry: DomainRegistry, query: str, domains: Sequence[str] | None = None) -> list[str]:
    """The canonical terms of ``query`` in the given domains' vocabularies (all domains when None).

    Args:
        registry: The loaded domains.
        query: The person's words, any language.
        domains: Domain names to take vocabularies from; unknown names are ignored.

    Returns:
        Canonical terms, each once, in order of appearance.
    """
    return registry.vocabulary(list(domains) if domains else None).terms(query)
