"""The knowledge base as the engine's flows use it: opened at start, filled in the background, never in the way.

A person's question must not wait for the first ingest (30–90 s with the
built-in model on two cores) nor fail because Chroma is unreachable: while
the built-in articles go in, searches see what is there already; when the
knowledge base cannot be opened or searched, the answer is written from the
person's data alone, the log says why, and the person is told once
(:meth:`Library.notice`): a bot started while ``python -m bot ingest`` holds
the knowledge base would otherwise answer without articles, silently.

Nor does the start wait for Chroma: importing it takes most of a second and
tens of MB. ``open`` only takes the folder (another process holding it is
found at once); Chroma is imported and opened in a worker thread by the
start-up ingest or by the first search, whichever comes first.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import structlog

from engine import texts
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.errors import KnowledgeStoreError
from engine.knowledge.model import Chunk
from engine.knowledge.terms import query_keywords
from engine.outcomes import Notice

if TYPE_CHECKING:
    from engine.domains.registry import DomainRegistry
    from engine.knowledge.base import KnowledgeBase

log = structlog.get_logger("engine.knowledge")

PROGRESS_LOG_EVERY_S = 10.0
"""How often the start-up ingest logs how far it is (the first start takes a minute or more)."""

Missing = Literal["in_use", "not_opened", "search_failed", "not_loaded"]
"""Why answers go without (some) articles: the knowledge base is held by another process, cannot be
opened, a search failed, or the start-up ingest failed."""

_TOLD: dict[Missing, str] = {
    "in_use": texts.ARTICLES_IN_USE,
    "not_opened": texts.ARTICLES_NOT_OPENED,
    "search_failed": texts.ARTICLES_SEARCH_FAILED,
    "not_loaded": texts.ARTICLES_NOT_LOADED,
}


class _Stopped(Exception):
    """Raised between files to end a start-up ingest when the engine closes."""


class Library:
    """Finds articles for a question; empty-handed (never failing) when there is no knowledge base."""

    def __init__(
        self,
        config: KnowledgeConfig | None,
        registry: DomainRegistry,
        missing: Missing | None = None,
        *,
        holds_folder: bool = False,
    ) -> None:
        self._config = config
        """The knowledge base still to open; None: there is none (switched off, or it could not be had)."""
        self._kb: KnowledgeBase | None = None
        self._opening: asyncio.Task[KnowledgeBase | None] | None = None
        self._folder = config.chroma_dir if config is not None and holds_folder else None
        """The embedded store's folder, which this library holds from `open` to `close`."""
        self._registry = registry
        self._stop = threading.Event()
        self._ingest: asyncio.Task[None] | None = None
        self._missing = missing
        self._owed = False
        """A search went without the knowledge base: the person is owed a notice."""
        self._told = False

    @classmethod
    async def open(cls, config: KnowledgeConfig | None, registry: DomainRegistry) -> Library:
        """The library of ``config`` (none when None, or when another process holds its folder: logged).

        Chroma is not loaded here: the start-up ingest or the first search opens it.
        """
        if config is None:
            return cls(None, registry)
        if config.chroma_host is not None:  # a server takes any number of clients: nothing to hold
            return cls(config, registry)
        from engine.knowledge import lock

        try:
            lock.acquire(config.chroma_dir)
        except KnowledgeStoreError as exc:
            log.error("knowledge.unavailable", error=str(exc))
            return cls(None, registry, "in_use" if isinstance(exc, lock.FolderInUse) else "not_opened")
        return cls(config, registry, holds_folder=True)

    @property
    def available(self) -> bool:
        """Whether there is a knowledge base to search (opened, or still to open)."""
        return self._kb is not None or self._config is not None

    async def _opened(self) -> KnowledgeBase | None:
        """The knowledge base, opened on first use (once; a failure is logged and leaves none)."""
        if self._kb is not None or self._config is None:
            return self._kb
        if self._opening is None:
            self._opening = asyncio.create_task(self._open(self._config), name="knowledge-open")
        # Shielded: a search cancelled while Chroma opens must not cancel the opening others wait for.
        return await asyncio.shield(self._opening)

    async def _open(self, config: KnowledgeConfig) -> KnowledgeBase | None:
        try:
            kb = await asyncio.to_thread(_open_blocking, config)
        except (KnowledgeStoreError, sqlite3.Error, OSError) as exc:
            # Opened lazily, a knowledge base that cannot be opened no longer stops the start:
            # answers go without articles, the log says why and the person is told (`notice`).
            log.error("knowledge.unavailable", error=str(exc))
            self._config = None
            self._missing = self._missing or "not_opened"
            return None
        self._kb = kb
        return kb

    def start_ingest(self) -> asyncio.Task[None] | None:
        """Open the knowledge base and bring the built-in articles in (all of them on first start), in the background."""
        if not self.available or self._ingest is not None:
            return self._ingest
        self._ingest = asyncio.create_task(self._builtin(), name="knowledge-ingest")
        return self._ingest

    async def ready(self) -> None:
        """Wait for the start-up ingest (tests and the ``retrieve`` command; answers do not wait)."""
        if self._ingest is not None:
            await asyncio.shield(self._ingest)

    async def _builtin(self) -> None:
        kb = await self._opened()
        if kb is None or self._stop.is_set():
            return
        from engine.knowledge.embedding import EmbeddingError

        logged = time.monotonic()

        def between_files(done: int, total: int, path: str) -> None:
            nonlocal logged
            if self._stop.is_set():
                raise _Stopped
            if time.monotonic() - logged >= PROGRESS_LOG_EVERY_S:
                logged = time.monotonic()
                log.info("knowledge.ingesting", done=done, total=total, file=path)

        started = time.perf_counter()
        try:
            report = await asyncio.to_thread(kb.ensure_builtin_ingested, between_files)
        except _Stopped:
            log.info("knowledge.ingest_stopped", reason="closing; the rest goes in at the next start")
            return
        except (EmbeddingError, KnowledgeStoreError, sqlite3.Error, OSError) as exc:
            log.error("knowledge.ingest_failed", error=str(exc))
            self._missing = self._missing or "not_loaded"
            return
        log.info(
            "knowledge.ingested",
            added=report.added,
            updated=report.updated,
            unchanged=report.unchanged,
            removed=report.removed,
            chunks=report.chunks_written,
            ms=round((time.perf_counter() - started) * 1000),
        )

    async def close(self) -> None:
        """Stop the start-up ingest after its current file, then close the stores and give the folder back."""
        self._stop.set()
        if self._ingest is not None:
            await asyncio.gather(self._ingest, return_exceptions=True)
        if self._opening is not None:
            await asyncio.gather(self._opening, return_exceptions=True)
        self._config = None
        if self._kb is not None:
            await asyncio.to_thread(self._kb.close)
            self._kb = None
        if self._folder is not None:
            from engine.knowledge import lock

            lock.release(self._folder)
            self._folder = None

    async def find(self, query: str, domains: Sequence[str], top_k: int | None, *, also: str = "") -> list[Chunk]:
        """Hybrid search plus link expansion for ``query`` in ``domains`` (all when empty).

        Args:
            top_k: Sections before expansion; None takes ``KNOWLEDGE_TOP_K``.
            also: More text whose vocabulary terms join the BM25 side (the question,
                when ``query`` is the Planner's rewording).

        Returns:
            The chunks found, then those expansion added; empty without a knowledge
            base or when the search failed (logged: the answer goes on without articles,
            and :meth:`notice` has what to tell the person).
        """
        if not query.strip():
            return []
        kb = await self._opened()
        if kb is None:
            self._owed = self._owed or self._missing is not None
            return []
        from engine.knowledge.embedding import EmbeddingError

        keywords = query_keywords(self._registry, f"{query}\n{also}", domains)
        try:
            result = await kb.aretrieve(query, list(domains) or None, top_k, keywords=keywords, topics=keywords)
        except (EmbeddingError, KnowledgeStoreError, sqlite3.Error, OSError) as exc:
            log.warning("knowledge.search_failed", error=str(exc))
            self._missing = self._missing or "search_failed"
            self._owed = True
            return []
        self._owed = self._owed or self._missing is not None
        return list(result.chunks)

    def notice(self) -> Notice | None:
        """What to tell the person, once: that an answer went without (some of) the articles, and why.

        Call it after a turn's searches. Without a knowledge base by choice
        (``KNOWLEDGE_ENABLED=false``) there is nothing to tell.

        Returns:
            A ``no_articles`` notice the first time a search went without the knowledge base
            (held by another process, e.g. an ingest; unreadable; the start-up ingest failed);
            None before that and ever after.
        """
        if not self._owed or self._told or self._missing is None:
            return None
        self._told = True
        return Notice(text=_TOLD[self._missing], code="no_articles")


def _open_blocking(config: KnowledgeConfig) -> KnowledgeBase:
    """Import Chroma and open the knowledge base (in a worker thread: both take a while)."""
    from engine.knowledge.base import KnowledgeBase

    return KnowledgeBase.open(config)
