"""Link expansion: add the articles that the found chunks link to.

Depth 1 follows every link of the initial chunks and adds at most 2 chunks of
each linked article; depth 2 follows the links of the chunks depth 1 added, at
most 1 chunk per article. Chunks are never repeated (by ``chunk_id``), but
only the chunks already in the result are skipped, not their article: a
search that found one section of an article does not keep its lead out. A
link whose article has nothing left to add is not followed (so back-links and
cycles end there), one article gives at most its per-depth share however
many names its links use (title or file), and the result never exceeds the
total limit. The added chunks come after the initial ones, in the order their
links were found.

Which chunks of a linked article: those most similar to the query when its
vector is known, otherwise the article's first chunks (its lead defines it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import structlog

from engine.knowledge.embedding import Vectors
from engine.knowledge.lexical import LexicalIndex
from engine.knowledge.links import article_key
from engine.knowledge.model import Chunk, ExpansionResult, ExpansionStats
from engine.knowledge.store import ChromaStore

log = structlog.get_logger("engine.knowledge")

PER_ARTICLE = {1: 2, 2: 1}
"""Depth -> most chunks taken from one linked article."""
MAX_DEPTH = 2


@dataclass(frozen=True)
class _Link:
    title: str
    key: str
    source: Chunk
    """The chunk whose link this is."""


@dataclass(frozen=True)
class _Candidate:
    chunk: Chunk
    keys: tuple[str, str]
    """The article's title key and file key."""
    vector: Vectors | None


class ContextExpander:
    """Follows article links from a set of chunks: articles found by key in the chunk table, vectors from Chroma."""

    def __init__(
        self,
        store: ChromaStore,
        lexical: LexicalIndex,
        *,
        enabled: bool = True,
        default_depth: int = 1,
        max_chunks: int = 30,
    ) -> None:
        self._store = store
        self._lexical = lexical
        self._enabled = enabled
        self._default_depth = default_depth
        self._max_chunks = max_chunks

    def expand(
        self, chunks: Sequence[Chunk], expansion_depth: int | None = None, query_vector: Vectors | None = None
    ) -> ExpansionResult:
        """Expand ``chunks`` along their links.

        Args:
            chunks: The initial chunks (search results), kept first and in order.
            expansion_depth: 0-2; None takes the configured default.
            query_vector: The query's embedding, to pick the most relevant chunks of a linked article.

        Returns:
            The initial chunks followed by the added ones, and the statistics.
        """
        depth = self._default_depth if expansion_depth is None else max(0, min(MAX_DEPTH, expansion_depth))
        if not self._enabled or depth == 0:
            stats = ExpansionStats(
                enabled=self._enabled,
                depth=depth if self._enabled else 0,
                initial_count=len(chunks),
                final_count=len(chunks),
            )
            self._log(stats)
            return ExpansionResult(chunks=list(chunks), stats=stats)

        result = list(chunks[: self._max_chunks])
        truncated = len(chunks) > self._max_chunks
        seen_ids = {c.chunk_id for c in result}
        links_per_depth: dict[int, int] = {}
        added_per_depth: dict[int, int] = {}
        missing: list[str] = []
        skipped = 0
        frontier = result
        for level in range(1, depth + 1):
            links = _links_of(frontier)
            links_per_depth[level] = len(links)
            added: list[Chunk] = []
            # Articles this depth already took from: a title link and a file link name one article twice.
            followed: set[tuple[str, str]] = set()
            candidates = self._candidates([link.key for link in links], query_vector is not None) if links else []
            for link in links:
                group = _article_for(link, candidates)
                if not group:
                    missing.append(link.title)
                    continue
                article = (group[0].chunk.domain, group[0].chunk.source)
                # Skip the chunks already there, not their article: a section the search found
                # must not keep the article's lead out.
                fresh = [c for c in group if c.chunk.chunk_id not in seen_ids]
                if not fresh or article in followed:
                    skipped += 1
                    continue
                followed.add(article)
                for cand, sim in _ranked(fresh, query_vector)[: PER_ARTICLE[level]]:
                    if len(result) >= self._max_chunks:
                        truncated = True
                        break
                    chunk = cand.chunk.model_copy(
                        update={
                            "depth": level,
                            "via": link.source.article_title,
                            "score": sim,
                            "vector_similarity": sim if query_vector is not None else None,
                        }
                    )
                    seen_ids.add(chunk.chunk_id)
                    result.append(chunk)
                    added.append(chunk)
                if truncated:
                    break
            added_per_depth[level] = len(added)
            frontier = added
            if truncated or not added:
                # Nothing new to follow further (or no room): deeper levels add nothing.
                for deeper in range(level + 1, depth + 1):
                    links_per_depth.setdefault(deeper, 0)
                    added_per_depth.setdefault(deeper, 0)
                break

        stats = ExpansionStats(
            enabled=True,
            depth=depth,
            initial_count=len(chunks),
            links_extracted=links_per_depth,
            added_per_depth=added_per_depth,
            final_count=len(result),
            missing_links=missing,
            skipped_seen=skipped,
            truncated=truncated,
        )
        self._log(stats)
        return ExpansionResult(chunks=result, stats=stats)

    def _candidates(self, keys: list[str], with_vectors: bool) -> list[_Candidate]:
        found = self._lexical.by_keys(keys)
        vectors = self._store.vectors([c.chunk_id for c, _, _ in found]) if with_vectors else {}
        return [_Candidate(chunk, (akey, fkey), vectors.get(chunk.chunk_id)) for chunk, akey, fkey in found]

    @staticmethod
    def _log(stats: ExpansionStats) -> None:
        log.info(
            "knowledge.expand",
            enabled=stats.enabled,
            depth=stats.depth,
            initial=stats.initial_count,
            links=stats.links_extracted,
            added=stats.added_per_depth,
            final=stats.final_count,
            missing=stats.missing_links,
            skipped_seen=stats.skipped_seen,
            truncated=stats.truncated,
        )


def _links_of(chunks: Sequence[Chunk]) -> list[_Link]:
    """Every distinct article link of ``chunks``, in order, except a chunk's links to its own article."""
    links: list[_Link] = []
    keys: set[str] = set()
    for chunk in chunks:
        own = article_key(chunk.article_title)
        for title in chunk.links:
            key = article_key(title)
            if key and key != own and key not in keys:
                keys.add(key)
                links.append(_Link(title, key, chunk))
    return links


def _article_for(link: _Link, candidates: list[_Candidate]) -> list[_Candidate]:
    """The chunks of the one article a link names: the linking chunk's domain first, then any."""
    matching = [c for c in candidates if link.key in c.keys]
    if not matching:
        return []
    articles = sorted({(c.chunk.domain != link.source.domain, c.chunk.domain, c.chunk.source) for c in matching})
    _, domain, source = articles[0]
    return [c for c in matching if c.chunk.domain == domain and c.chunk.source == source]


def _ranked(group: list[_Candidate], query_vector: Vectors | None) -> list[tuple[_Candidate, float]]:
    if query_vector is None or any(c.vector is None for c in group):
        return [(c, 0.0) for c in sorted(group, key=lambda c: c.chunk.ordinal)]
    sims = [float(np.dot(c.vector, query_vector)) for c in group if c.vector is not None]
    order = sorted(range(len(group)), key=lambda i: (-sims[i], group[i].chunk.ordinal))
    return [(group[i], sims[i]) for i in order]
