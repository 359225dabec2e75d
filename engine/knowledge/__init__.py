"""Domain knowledge: articles in Chroma, hybrid retrieval, link-following context expansion.

Start-up opens a :class:`KnowledgeBase` and brings the built-in articles in::

    kb = await KnowledgeBase.aopen(config)
    await kb.aensure_builtin_ingested()
    result = await kb.aretrieve("what is a deload?", domains=["strength"])
    result.chunks, result.stats

Importing this package loads neither Chroma nor a model; ``open`` does the
former, the first search or ingest the latter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.errors import KnowledgeStoreError
from engine.knowledge.model import Chunk, ExpansionResult, ExpansionStats, IngestReport

if TYPE_CHECKING:
    from engine.knowledge.base import KnowledgeBase
    from engine.knowledge.embedding import EmbeddingError

__all__ = [
    "Chunk",
    "EmbeddingError",
    "ExpansionResult",
    "ExpansionStats",
    "IngestReport",
    "KnowledgeBase",
    "KnowledgeConfig",
    "KnowledgeStoreError",
    "ensure_builtin_ingested",
]

_LAZY = {
    "KnowledgeBase": "engine.knowledge.base",
    "EmbeddingError": "engine.knowledge.embedding",
}


def __getattr__(name: str) -> Any:
    # Chroma takes most of a second to import; only code that opens the
    # knowledge base pays for it.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)


def ensure_builtin_ingested(kb: KnowledgeBase) -> IngestReport:
    """Ingest the built-in articles when new or changed (all of them on first start); blocking."""
    return kb.ensure_builtin_ingested()
