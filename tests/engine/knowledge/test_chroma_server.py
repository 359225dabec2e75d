"""CHROMA_HOST/CHROMA_PORT: the same code against a real ``chroma run`` server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import BuiltinEmbedder
from engine.knowledge.store import KnowledgeStoreError
from tests.engine.knowledge.conftest import GRAPH, write_articles
from tests.helpers.chroma import chroma_server as running_chroma
from tests.helpers.chroma import free_port


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[int]:
    with running_chroma(tmp_path / "server") as port:
        yield port


def test_a_chroma_server_serves_two_replicas(tmp_path: Path, chroma_server: int, embedder: BuiltinEmbedder) -> None:
    def replica(name: str) -> KnowledgeBase:
        config = KnowledgeConfig(data_dir=tmp_path / name, chroma_host="127.0.0.1", chroma_port=chroma_server)
        return KnowledgeBase.open(config, embedder)

    first = replica("one")
    first.ingest(write_articles(tmp_path / "kb", GRAPH))
    result = first.retrieve("squats and leg strength", top_k=1, expansion_depth=1)
    assert [c.article_title for c in result.chunks][:1] == ["Alpha"] and result.added
    assert not (tmp_path / "one" / "chroma").exists()  # vectors live on the server
    first.close()

    # Another replica with an empty local BM25 index: rebuilt from the server's chunks on open.
    second = replica("two")
    assert second.count() == len(GRAPH) + 2  # Beta has three chunks
    hit = second.search("deadlift technique", top_k=1)[0]
    assert hit.article_title == "Zeta" and hit.lexical_rank == 1
    second.close()


def test_an_unreachable_chroma_server_is_a_clear_error(tmp_path: Path, embedder: BuiltinEmbedder) -> None:
    config = KnowledgeConfig(data_dir=tmp_path, chroma_host="127.0.0.1", chroma_port=free_port())
    with pytest.raises(KnowledgeStoreError, match=f"127.0.0.1:{config.chroma_port}"):
        KnowledgeBase.open(config, embedder)
