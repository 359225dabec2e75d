"""Link expansion skips repeated chunks, not whole articles (the seed's Context Expander story).

A search often finds one section of an article that another found chunk links to.
Only that section is already there: the article's lead (or its most relevant
other sections) must still come, within the per-depth limits.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.embedding import BuiltinEmbedder
from engine.knowledge.model import Chunk
from tests.engine.knowledge.conftest import GRAPH, _words, open_kb, write_articles


def section(kb: KnowledgeBase, title: str, ordinal: int) -> Chunk:
    (chunk,) = [c for c in kb.article_chunks(title) if c.ordinal == ordinal]
    return chunk


def test_a_linked_article_found_in_part_still_gives_its_lead(graph_kb: KnowledgeBase) -> None:
    # The search found Alpha and Beta's "Swimming" section; Alpha links to Beta.
    swimming = section(graph_kb, "Beta", 2)
    initial = [*graph_kb.article_chunks("Alpha"), swimming]
    result = graph_kb.expand_context(initial, 1)

    assert result.chunks[:2] == initial
    beta = [c for c in result.added if c.article_title == "Beta"]
    # Without a query: the lead first, then the next section; the section already there is not repeated.
    assert [c.ordinal for c in beta] == [0, 1]
    assert all(c.depth == 1 and c.via == "Alpha" for c in beta)
    ids = [c.chunk_id for c in result.chunks]
    assert len(ids) == len(set(ids))


def test_with_a_query_the_found_section_is_skipped_and_the_next_best_come(graph_kb: KnowledgeBase) -> None:
    swimming = section(graph_kb, "Beta", 2)
    initial = [*graph_kb.article_chunks("Alpha"), swimming]
    result = graph_kb.expand_context(initial, 1, query="freestyle swimming drills in the pool")

    beta = [c for c in result.added if c.article_title == "Beta"]
    assert sorted(c.ordinal for c in beta) == [0, 1]
    assert swimming.chunk_id not in {c.chunk_id for c in result.added}


def test_an_article_wholly_there_is_not_followed(graph_kb: KnowledgeBase) -> None:
    initial = [*graph_kb.article_chunks("Alpha"), *graph_kb.article_chunks("Beta")]
    result = graph_kb.expand_context(initial, 1)

    assert [c.article_title for c in result.added] == ["Gamma", "Delta", "Epsilon"]
    assert result.stats.skipped_seen == 1  # Alpha -> Beta: nothing of Beta left to add


@pytest.fixture()
def aliased_kb(tmp_path: Path, embedder: BuiltinEmbedder) -> KnowledgeBase:
    """Alpha links to "Beta Notes" twice in one chunk: by its title and by its file (``beta.md``), two keys."""
    articles = {
        **GRAPH,
        "strength/alpha.md": f"# Alpha\n\n{_words('squats and leg strength')} See [[Beta Notes]] and [more](beta.md).\n",
        "strength/beta.md": (
            f"# Beta Notes\n\n{_words('protein intake for muscle')}\n\n"
            f"## Sleep\n\n{_words('sleep and recovery at night')}\n\n"
            f"## Swimming\n\n{_words('freestyle swimming drills in the pool')}\n"
        ),
    }
    kb = open_kb(tmp_path / "data", embedder)
    kb.ingest(write_articles(tmp_path / "articles", articles))
    return kb


def test_one_article_gives_at_most_the_per_depth_limit_whatever_its_links_are_called(aliased_kb: KnowledgeBase) -> None:
    try:
        result = aliased_kb.expand_context(aliased_kb.article_chunks("Alpha"), 1)
        assert [(c.article_title, c.ordinal) for c in result.added] == [("Beta Notes", 0), ("Beta Notes", 1)]
        assert result.stats.links_extracted == {1: 2}
    finally:
        aliased_kb.close()
