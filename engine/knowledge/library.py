"""The knowledge base as the engine's flows use it: opened at start, filled in the background, never in the way.

A person's question must not wait for the first ingest (30–90 s with the
built-in model on two cores) nor fail because Chroma is unreachable: while
the built-in articles go in, searches see what is there already; when the
knowledge base cannot be opened or searched, the answer is written from the
person's data alone and the log says why.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import structlog

from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.model import Chunk
from engine.knowledge.terms import query_keywords

if TYPE_CHECKING:
    from engine.domains.registry import DomainRegistry
    from engine.knowledge.base import KnowledgeBase

log = structlog.get_logger("engine.knowledge")


class _Stopped(Exception):
    """Raised between files to end a start-up ingest when the engine closes."""


class Library:
    """Finds articles for a question; empty-handed (never failing) when there is no knowledge base."""

    def __init__(self, kb: KnowledgeBase | None, registry: DomainRegistry) -> None:
        self._kb = kb
        self._registry = registry
        self._stop = threading.Event()
        self._ingest: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, config: KnowledgeConfig | None, registry: DomainRegistry) -> Library:
        """Open the knowledge base of ``config`` (none when None, or when it cannot be opened: logged)."""
        if config is None:
            return cls(None, registry)
        # Chroma loads only when a knowledge base is wanted.
        from engine.knowledge.base import KnowledgeBase
        from engine.knowledge.store import KnowledgeStoreError

        try:
            kb = await KnowledgeBase.aopen(config)
        except KnowledgeStoreError as exc:
            log.error("knowledge.unavailable", error=str(exc))
            return cls(None, registry)
        return cls(kb, registry)

    @property
    def available(self) -> bool:
        return self._kb is not None

    def start_ingest(self) -> asyncio.Task[None] | None:
        """Bring the built-in articles in (all of them on first start) in the background."""
        if self._kb is None or self._ingest is not None:
            return self._ingest
        self._ingest = asyncio.create_task(self._builtin(self._kb), name="knowledge-ingest")
        return self._ingest

    async def ready(self) -> None:
        """Wait for the start-up ingest (tests and the ``retrieve`` command; answers do not wait)."""
        if self._ingest is not None:
            await asyncio.shield(self._ingest)

    async def _builtin(self, kb: KnowledgeBase) -> None:
        from engine.knowledge.embedding import EmbeddingError
        from engine.knowledge.store import KnowledgeStoreError

        def stop_between_files(done: int, total: int, path: str) -> None:
            if self._stop.is_set():
                raise _Stopped

        started = time.perf_counter()
        try:
            report = await asyncio.to_thread(kb.ensure_builtin_ingested, stop_between_files)
        except _Stopped:
            log.info("knowledge.ingest_stopped", reason="closing; the rest goes in at the next start")
            return
        except (EmbeddingError, KnowledgeStoreError, sqlite3.Error, OSError) as exc:
            log.error("knowledge.ingest_failed", error=str(exc))
            return
        log.info(
            "knowledge.ingested", added=report.added, updated=report.updated, unchanged=report.unchanged,
            removed=report.removed, chunks=report.chunks_written, ms=round((time.perf_counter() - started) * 1000),
        )

    async def close(self) -> None:
        """Stop the start-up ingest after its current file, then close the stores."""
        self._stop.set()
        if self._ingest is not None:
            await asyncio.gather(self._ingest, return_exceptions=True)
        if self._kb is not None:
            await asyncio.to_thread(self._kb.close)
            self._kb = None

    async def find(self, query: str, domains: Sequence[str], top_k: int | None, *, also: str = "") -> list[Chunk]:
        """Hybrid search plus link expansion for ``query`` in ``domains`` (all when empty).

        Args:
            top_k: Sections before expansion; None takes ``KNOWLEDGE_TOP_K``.
            also: More text whose vocabulary terms join the BM25 side (the question,
                when ``query`` is the Planner's rewording).

        Returns:
            The chunks found, then those expansion added; empty without a knowledge
            base or when the search failed (logged: the answer goes on without articles).
        """
        if self._kb is None or not query.strip():
            return []
        from engine.knowledge.embedding import EmbeddingError
        from engine.knowledge.store import KnowledgeStoreError

        keywords = query_keywords(self._registry, f"{query}\n{also}", domains)
        try:
            result = await self._kb.aretrieve(query, list(domains) or None, top_k, keywords=keywords, topics=keywords)
        except (EmbeddingError, KnowledgeStoreError, sqlite3.Error, OSError) as exc:
            log.warning("knowledge.search_failed", error=str(exc))
            return []
        return list(result.chunks)
