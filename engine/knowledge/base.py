"""The knowledge base: hybrid search (vectors + BM25, fused by rank) and link expansion.

Every method here blocks (Chroma, SQLite, the embedding model); from async
code call the ``a…`` variants, which run them in a worker thread so the event
loop keeps serving other conversations.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import structlog

from engine.knowledge import lock
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import (
    Embedder,
    OllamaEmbedder,
    Vectors,
    builtin_embedder,
)
from engine.knowledge.expander import ContextExpander
from engine.knowledge.fusion import RRF_K, reciprocal_rank_fusion
from engine.knowledge.ingest import Ingestor, Progress
from engine.knowledge.lexical import LexicalIndex
from engine.knowledge.links import article_key
from engine.knowledge.model import Chunk, ExpansionResult, IngestReport
from engine.knowledge.store import ChromaStore

log = structlog.get_logger("engine.knowledge")

CANDIDATES_PER_RESULT = 4
"""Each side of the hybrid search ranks this many candidates per wanted result (at least 20)."""
PER_TOPIC = 2
"""Sections searched by words for each topic a question names, when it names several."""
MAX_TOPICS = 3
DOMAIN_OVERFETCH = 10
"""With a domain filter, unfiltered vector candidates fetched per wanted one (see ``_nearest``)."""


def make_embedder(config: KnowledgeConfig) -> Embedder:
    """The embedder the settings ask for (the built-in one is shared by the whole process)."""
    if config.embedding_backend == "ollama":
        return OllamaEmbedder(config.ollama_host, config.embedding_model, config.ollama_timeout_s)
    return builtin_embedder()


class KnowledgeBase:
    """Articles cut into chunks, in a Chroma collection and a BM25 index."""

    def __init__(self, config: KnowledgeConfig, embedder: Embedder, store: ChromaStore, lexical: LexicalIndex) -> None:
        self.config = config
        self._embedder = embedder
        self._store = store
        self._lexical = lexical
        self._ingestor = Ingestor(store, lexical, embedder)
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="knowledge-bm25")
        self._expander = ContextExpander(
            store,
            lexical,
            enabled=config.expansion_enabled,
            default_depth=config.expansion_depth,
            max_chunks=config.expansion_max_chunks,
        )

    @classmethod
    def open(cls, config: KnowledgeConfig, embedder: Embedder | None = None) -> KnowledgeBase:
        """Open both stores (creating them on first use); no model is loaded yet.

        Raises:
            KnowledgeStoreError: Chroma cannot be opened or reached.
        """
        embedder = embedder or make_embedder(config)
        embedded = config.chroma_host is None
        if embedded:
            lock.acquire(config.chroma_dir)  # another process on it: KnowledgeStoreError, saying so
        try:
            store, empty = ChromaStore.open(config, embedder)
        except BaseException:
            if embedded:
                lock.release(config.chroma_dir)
            raise
        lexical = LexicalIndex(config.lexical_db)
        if empty:
            # New collection, or the model changed: whatever the BM25 side and
            # the manifest remember has no vectors; ingest must redo it all.
            lexical.reset()
        elif lexical.count() != store.count():
            # A Chroma server filled by another replica, or a crash between the two writes.
            store.copy_into(lexical)
        return cls(config, embedder, store, lexical)

    @classmethod
    async def aopen(cls, config: KnowledgeConfig, embedder: Embedder | None = None) -> KnowledgeBase:
        """:meth:`open` in a worker thread."""
        return await asyncio.to_thread(cls.open, config, embedder)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._lexical.close()
        if self.config.chroma_host is None:
            lock.release(self.config.chroma_dir)

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    def count(self) -> int:
        """Chunks in the collection."""
        return self._store.count()

    @property
    def indexed_model_id(self) -> str | None:
        """The model the collection's vectors come from, as stored with the collection."""
        return self._store.model_id()

    def article_chunks(self, title: str) -> list[Chunk]:
        """Every chunk of the article with this title (or file name), in article order."""
        return [chunk for chunk, _, _ in self._lexical.by_keys([article_key(title)])]

    # -- search ------------------------------------------------------------

    def embed_query(self, query: str) -> Vectors:
        return self._embedder.embed_query(query)

    def search(
        self,
        query: str,
        domains: Sequence[str] | None = None,
        top_k: int | None = None,
        keywords: Sequence[str] = (),
    ) -> list[Chunk]:
        """Hybrid search: the chunks nearest in meaning and the best BM25 matches, fused by reciprocal rank.

        Args:
            query: The person's words, any language.
            domains: Only chunks of these domains; None or empty: all.
            top_k: How many chunks; None takes the configured default.
            keywords: More words for the BM25 side only, e.g. the canonical terms the
                domain vocabulary finds in the query (:func:`engine.knowledge.terms.query_keywords`).

        Returns:
            Up to ``top_k`` chunks, best first, ``score`` the fused score.
        """
        return self._hybrid(query, domains, top_k or self.config.top_k, keywords)[0]

    def search_words(self, text: str, domains: Sequence[str] | None = None, top_k: int | None = None) -> list[Chunk]:
        """The best BM25 matches alone, no vector: a few ms, for one topic's term (``deload``)."""
        return self._lexical.search(text, top_k or self.config.top_k, domains)

    def _hybrid(
        self, query: str, domains: Sequence[str] | None, top_k: int, keywords: Sequence[str] = ()
    ) -> tuple[list[Chunk], Vectors]:
        """The fused results and the query's vector (expansion ranks linked chunks by it)."""
        started = time.perf_counter()
        n = max(20, top_k * CANDIDATES_PER_RESULT)
        # BM25 needs no vector: it runs in another thread while the model embeds
        # the query and Chroma searches (SQLite and the C engine release the GIL).
        words = self._pool.submit(self._lexical.search, query, n, domains, keywords)
        vector = self.embed_query(query)
        by_vector = self._nearest(vector, n, domains)
        by_words = words.result()
        vector_rank = {c.chunk_id: (i, sim) for i, (c, sim) in enumerate(by_vector, start=1)}
        lexical_rank = {c.chunk_id: i for i, c in enumerate(by_words, start=1)}
        chunks = {c.chunk_id: c for c in by_words} | {c.chunk_id: c for c, _ in by_vector}
        fused = reciprocal_rank_fusion([[c.chunk_id for c, _ in by_vector], [c.chunk_id for c in by_words]])
        results = []
        for chunk_id, score in fused[:top_k]:
            rank, sim = vector_rank.get(chunk_id, (None, None))
            results.append(
                chunks[chunk_id].model_copy(
                    update={
                        "score": score,
                        "vector_rank": rank,
                        "vector_similarity": sim,
                        "lexical_rank": lexical_rank.get(chunk_id),
                    }
                )
            )
        log.info(
            "knowledge.search",
            domains=list(domains or []),
            vector=len(by_vector),
            bm25=len(by_words),
            results=len(results),
            ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return results, vector

    def _nearest(self, vector: Vectors, n: int, domains: Sequence[str] | None) -> list[tuple[Chunk, float]]:
        """The ``n`` nearest chunks in ``domains``, read from the chunk table.

        With domains, it asks Chroma for more neighbours than needed without a
        filter (a few ms) and filters here; only when that leaves too few (a
        small domain in a big collection) does it pay for Chroma's filter.
        """
        wanted = set(domains or ())
        hits = self._store.nearest(vector, n * DOMAIN_OVERFETCH if wanted else n)
        rows = self._lexical.get([cid for cid, _ in hits])
        found = [(rows[cid], sim) for cid, sim in hits if cid in rows and (not wanted or rows[cid].domain in wanted)]
        if wanted and len(found) < n and len(hits) == n * DOMAIN_OVERFETCH:
            hits = self._store.nearest(vector, n, domains)
            rows = self._lexical.get([cid for cid, _ in hits])
            found = [(rows[cid], sim) for cid, sim in hits if cid in rows]
        return found[:n]

    def expand_context(
        self, chunks: Sequence[Chunk], expansion_depth: int | None = None, *, query: str | None = None
    ) -> ExpansionResult:
        """Add the articles ``chunks`` link to (see :mod:`engine.knowledge.expander`).

        Args:
            chunks: Search results, kept first.
            expansion_depth: 0-2; None takes ``CONTEXT_EXPANSION_DEPTH``.
            query: When given, the linked articles' chunks nearest to it are taken.
        """
        vector = self.embed_query(query) if query else None
        return self._expander.expand(chunks, expansion_depth, vector)

    def retrieve(
        self,
        query: str,
        domains: Sequence[str] | None = None,
        top_k: int | None = None,
        expansion_depth: int | None = None,
        keywords: Sequence[str] = (),
        topics: Sequence[str] = (),
    ) -> ExpansionResult:
        """Search (see :meth:`search`), then expand along links: what RETRIEVE hands to the Synthesizer.

        Args:
            topics: The topics a question names (its vocabulary terms). With two or
                more, each one's best sections by words take turns with the whole
                question's: "벤치가 정체됐는데 디로드가 뭐야?" searched as one fills every
                place with bench press; by topic too, Deload gets one.
        """
        k = top_k or self.config.top_k
        found, vector = self._hybrid(query, domains, k, keywords)
        if len(topics) > 1:
            # By words alone: the question's vector already carries its meaning, and a
            # vector per topic would cost an embedding each.
            by_topic = [
                # Scored as one list in the fusion would score them, so the order reads plainly.
                [
                    c.model_copy(update={"score": 1 / (RRF_K + i), "lexical_rank": i})
                    for i, c in enumerate(hits, start=1)
                ]
                for hits in (self.search_words(t, domains, PER_TOPIC) for t in topics[:MAX_TOPICS])
            ]
            lists = [found, *by_topic]
            taken: dict[str, Chunk] = {}
            for rank in range(k):
                for ranked in lists:
                    if rank < len(ranked) and len(taken) < k:
                        taken.setdefault(ranked[rank].chunk_id, ranked[rank])
            found = list(taken.values())
        return self._expander.expand(found, expansion_depth, vector)

    async def asearch(
        self,
        query: str,
        domains: Sequence[str] | None = None,
        top_k: int | None = None,
        keywords: Sequence[str] = (),
    ) -> list[Chunk]:
        """:meth:`search` in a worker thread."""
        return await asyncio.to_thread(self.search, query, domains, top_k, keywords)

    async def aexpand_context(
        self, chunks: Sequence[Chunk], expansion_depth: int | None = None, *, query: str | None = None
    ) -> ExpansionResult:
        """:meth:`expand_context` in a worker thread."""
        return await asyncio.to_thread(self.expand_context, chunks, expansion_depth, query=query)

    async def aretrieve(
        self,
        query: str,
        domains: Sequence[str] | None = None,
        top_k: int | None = None,
        expansion_depth: int | None = None,
        keywords: Sequence[str] = (),
        topics: Sequence[str] = (),
    ) -> ExpansionResult:
        """:meth:`retrieve` in a worker thread."""
        return await asyncio.to_thread(self.retrieve, query, domains, top_k, expansion_depth, keywords, topics)

    # -- ingest ------------------------------------------------------------

    def ingest(
        self,
        path: Path,
        *,
        domain: str | None = None,
        known_domains: Collection[str] | None = None,
        progress: Progress | None = None,
    ) -> IngestReport:
        """Ingest a file or a folder (see :meth:`engine.knowledge.ingest.Ingestor.ingest_path`)."""
        return self._ingestor.ingest_path(path, domain=domain, known_domains=known_domains, progress=progress)

    def ensure_builtin_ingested(self, progress: Progress | None = None) -> IngestReport:
        """Bring the built-in articles up to date; cheap when nothing changed (files are hashed, not embedded)."""
        return self._ingestor.ingest_builtin(progress)

    async def aensure_builtin_ingested(self) -> IngestReport:
        """:meth:`ensure_builtin_ingested` in a worker thread (for start-up)."""
        return await asyncio.to_thread(self.ensure_builtin_ingested)
