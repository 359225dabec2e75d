"""Ollama embeddings through the fake server, re-indexing on a model change, and the built-in articles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.embedding import BuiltinEmbedder, EmbeddingError
from engine.knowledge.ingest import BUILTIN_KNOWLEDGE_DIR
from tests.engine.knowledge.conftest import _words, open_kb, write_articles
from tests.fakes.ollama_server import FakeOllama

NOTES = {"strength/notes.md": f"# My Notes\n\n{_words('my own squat cues')}\n"}


def ollama_config(data_dir: Path, fake: FakeOllama, model: str = "bge-m3") -> KnowledgeConfig:
    return KnowledgeConfig(
        data_dir=data_dir, embedding_backend="ollama", embedding_model=model, ollama_host=fake.url, ollama_timeout_s=5
    )


def test_the_ollama_backend_embeds_through_api_embed(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    kb = KnowledgeBase.open(ollama_config(tmp_path / "data", fake))
    kb.ingest(write_articles(tmp_path / "kb", NOTES))
    found = kb.search("my own squat cues", top_k=1)
    assert found[0].article_title == "My Notes"
    embeds = [r for r in fake.requests if r.path == "/api/embed"]
    assert embeds and {r.body["model"] for r in embeds} == {"bge-m3"}
    assert embeds[-1].body["input"] == ["my own squat cues"]
    kb.close()


def test_a_missing_ollama_model_is_a_clear_error(tmp_path: Path, fake: FakeOllama) -> None:
    kb = KnowledgeBase.open(ollama_config(tmp_path / "data", fake, model="nomic-embed-text"))
    with pytest.raises(EmbeddingError, match="nomic-embed-text"):
        kb.ingest(write_articles(tmp_path / "kb", NOTES))
    kb.close()


def test_a_model_change_reindexes_everything(tmp_path: Path, fake: FakeOllama, embedder: BuiltinEmbedder) -> None:
    fake.models.add("bge-m3")
    notes = write_articles(tmp_path / "kb", NOTES)
    first = open_kb(tmp_path / "data", embedder)
    first.ingest(notes)
    assert first.count() == 1
    first.close()

    kb = KnowledgeBase.open(ollama_config(tmp_path / "data", fake))
    assert kb.count() == 0  # the old model's vectors are gone
    report = kb.ensure_builtin_ingested()
    builtin_files = len(list(BUILTIN_KNOWLEDGE_DIR.rglob("*.md")))
    assert report.files == builtin_files + 1 and report.added == builtin_files + 1  # the notes came back too
    assert kb.search("my own squat cues", top_k=1)[0].article_title == "My Notes"
    assert kb.indexed_model_id == kb.model_id == "ollama/bge-m3"
    kb.close()

    again = KnowledgeBase.open(ollama_config(tmp_path / "data", fake))
    unchanged = again.ensure_builtin_ingested()
    assert (unchanged.added, unchanged.unchanged, unchanged.chunks_written) == (0, builtin_files, 0)
    again.close()


def test_the_bm25_index_is_rebuilt_from_chroma_when_lost(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    kb = KnowledgeBase.open(ollama_config(tmp_path / "data", fake))
    kb.ingest(write_articles(tmp_path / "kb", {**NOTES, "running/zones.md": f"# Zones\n\n{_words('zone two')}\n"}))
    kb.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp_path / 'data' / 'knowledge.db'}{suffix}").unlink(missing_ok=True)

    kb = KnowledgeBase.open(ollama_config(tmp_path / "data", fake))
    hit = kb.search("cues", top_k=1)[0]
    assert hit.article_title == "My Notes" and hit.lexical_rank == 1
    kb.close()


@pytest.fixture(scope="module")
def builtin_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    # The fake's hashed embeddings keep this fast; what is checked here is the articles and their links.
    with FakeOllama(models=["bge-m3"]) as server:
        kb = KnowledgeBase.open(ollama_config(tmp_path_factory.mktemp("builtin") / "data", server))
        kb.ensure_builtin_ingested()
        yield kb
        kb.close()


def test_every_built_in_link_reaches_an_article(builtin_kb: KnowledgeBase) -> None:
    for path in sorted(BUILTIN_KNOWLEDGE_DIR.rglob("*.md")):
        chunks = builtin_kb.article_chunks(path.stem)
        assert chunks, path
        result = builtin_kb.expand_context(chunks, 1)
        assert result.stats.missing_links == [], (path, result.stats.missing_links)
        assert all(c.references for c in chunks), path


def test_built_in_sources_are_repository_paths(builtin_kb: KnowledgeBase) -> None:
    chunk = builtin_kb.article_chunks("deload")[0]
    assert chunk.source == "engine/domains/knowledge/strength/deload.md"
    assert chunk.citation().ref == f"article:{chunk.chunk_id}" and chunk.citation().title == "Deload"
    assert any("https://" in r for r in chunk.references)
