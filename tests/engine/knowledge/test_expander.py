"""Link expansion, the seed's cases plus a cycle, on a real Chroma collection and the real model."""

from __future__ import annotations

from collections import Counter

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.embedding import BuiltinEmbedder
from tests.engine.knowledge.conftest import open_kb


def titles(chunks: list) -> list[str]:
    return [c.article_title for c in chunks]


def test_disabled_returns_the_chunks_unchanged(graph_kb: KnowledgeBase, embedder: BuiltinEmbedder) -> None:
    off = open_kb(graph_kb.config.data_dir, embedder, expansion_enabled=False)
    alpha = off.article_chunks("Alpha")
    result = off.expand_context(alpha, 2)
    assert result.chunks == alpha
    assert not result.stats.enabled and result.stats.added_per_depth == {}
    assert result.stats.final_count == result.stats.initial_count == 1
    off.close()


def test_depth_0_adds_nothing(graph_kb: KnowledgeBase) -> None:
    alpha = graph_kb.article_chunks("Alpha")
    result = graph_kb.expand_context(alpha, 0)
    assert result.chunks == alpha
    assert result.stats.enabled and result.stats.depth == 0 and result.added == []


def test_depth_1_follows_every_link_with_at_most_two_chunks_per_article(graph_kb: KnowledgeBase) -> None:
    alpha = graph_kb.article_chunks("Alpha")
    result = graph_kb.expand_context(alpha, 1)

    assert titles(result.chunks) == ["Alpha", "Beta", "Beta", "Gamma", "Delta"]
    assert result.chunks[0] == alpha[0]
    beta = [c for c in result.added if c.article_title == "Beta"]
    # Without a query, a linked article gives its first chunks (its lead defines it).
    assert [c.ordinal for c in beta] == [0, 1] and len(graph_kb.article_chunks("Beta")) == 3
    assert all(c.depth == 1 and c.via == "Alpha" for c in result.added)
    stats = result.stats
    assert stats.links_extracted == {1: 4} and stats.added_per_depth == {1: 4}
    assert stats.missing_links == ["Nowhere"] and stats.final_count == 5 and not stats.truncated


def test_depth_2_follows_the_links_of_depth_1_with_one_chunk_per_article(graph_kb: KnowledgeBase) -> None:
    result = graph_kb.expand_context(graph_kb.article_chunks("Alpha"), 2)

    assert titles(result.chunks) == ["Alpha", "Beta", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
    depth_2 = [c for c in result.chunks if c.depth == 2]
    assert [(c.article_title, c.via) for c in depth_2] == [("Epsilon", "Beta"), ("Zeta", "Gamma")]
    # Gamma's back-link to Alpha is not followed again; Eta is three hops away.
    assert result.stats.skipped_seen == 1 and "Eta" not in titles(result.chunks)
    assert result.stats.added_per_depth == {1: 4, 2: 2}


def test_no_chunk_twice_when_links_overlap(graph_kb: KnowledgeBase) -> None:
    initial = graph_kb.article_chunks("Alpha") + graph_kb.article_chunks("Gamma")
    result = graph_kb.expand_context(initial, 2)

    ids = [c.chunk_id for c in result.chunks]
    assert len(ids) == len(set(ids))
    # Alpha and Gamma link to each other and both are already there: neither comes back.
    assert Counter(titles(result.chunks))["Alpha"] == 1 and Counter(titles(result.chunks))["Gamma"] == 1
    assert result.chunks[:2] == initial


def test_the_total_limit_stops_expansion(graph_kb: KnowledgeBase, embedder: BuiltinEmbedder) -> None:
    small = open_kb(graph_kb.config.data_dir, embedder, expansion_max_chunks=3)
    result = small.expand_context(small.article_chunks("Alpha"), 2)
    assert titles(result.chunks) == ["Alpha", "Beta", "Beta"]
    assert result.stats.truncated and result.stats.final_count == 3
    small.close()


def test_a_chunk_without_links_expands_to_itself(graph_kb: KnowledgeBase) -> None:
    delta = graph_kb.article_chunks("Delta")
    result = graph_kb.expand_context(delta, 2)
    assert result.chunks == delta
    assert result.stats.links_extracted == {1: 0, 2: 0} and result.stats.added_per_depth == {1: 0, 2: 0}


def test_a_missing_linked_article_is_reported_not_fatal(graph_kb: KnowledgeBase) -> None:
    result = graph_kb.expand_context(graph_kb.article_chunks("Alpha"), 1)
    assert "Nowhere" in result.stats.missing_links
    assert "Nowhere" not in titles(result.chunks)


def test_a_link_cycle_ends(graph_kb: KnowledgeBase) -> None:
    # Epsilon -> Beta -> Epsilon: the second hop finds Epsilon already there.
    result = graph_kb.expand_context(graph_kb.article_chunks("Epsilon"), 2)
    assert titles(result.chunks) == ["Epsilon", "Beta", "Beta", "Eta"]
    assert result.stats.skipped_seen >= 1 and result.stats.added_per_depth == {1: 3, 2: 0}


def test_with_a_query_the_linked_article_gives_its_most_relevant_chunks(graph_kb: KnowledgeBase) -> None:
    result = graph_kb.expand_context(graph_kb.article_chunks("Alpha"), 1, query="freestyle swimming drills in the pool")
    beta = [c for c in result.added if c.article_title == "Beta"]
    assert beta[0].section_path == "Swimming"
    assert beta[0].vector_similarity is not None and beta[0].vector_similarity >= beta[1].vector_similarity


async def test_retrieve_searches_then_expands_off_the_event_loop(graph_kb: KnowledgeBase) -> None:
    result = await graph_kb.aretrieve("squats and leg strength", top_k=1, expansion_depth=1)
    assert titles(result.initial) == ["Alpha"]
    assert {"Beta", "Gamma", "Delta"} <= set(titles(result.added))
    assert result.chunks[: len(result.initial)] == result.initial
