"""The knowledge base as the flows use it (`engine.knowledge.library.Library`): the start-up ingest
in the background, stopped between files on close and resumed at the next start; searches that give
each topic of a question its place; nothing at all without a knowledge base."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.ingest import BUILTIN_ORIGIN
from engine.knowledge.library import Library
from tests.fakes.ollama_server import DEFAULT_MODEL, EMBED_TITLE, Delay, FakeOllama

BUILTIN_FILES = 61


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(models=[DEFAULT_MODEL, "bge-m3"]) as server:
        yield server


def config(data_dir: Path, fake: FakeOllama) -> KnowledgeConfig:
    return KnowledgeConfig(
        data_dir=data_dir,
        embedding_backend="ollama",
        embedding_model="bge-m3",
        ollama_host=fake.url,
        ollama_timeout_s=5,
    )


async def test_a_question_naming_several_topics_gets_each_ones_article(tmp_path: Path, fake: FakeOllama) -> None:
    registry = DomainRegistry.load()
    library = await Library.open(config(tmp_path, fake), registry)
    library.start_ingest()
    await library.ready()
    found = await library.find("벤치가 정체됐는데 디로드가 뭐야?", ["strength", "general_fitness"], 4)
    initial = {c.article_title for c in found if c.depth == 0}
    assert {"Bench Press", "Strength Plateaus", "Deload"} <= initial, initial
    assert len([c for c in found if c.depth == 0]) == 4
    assert any(c.depth == 1 for c in found)  # and the articles they link to
    await library.close()


async def test_closing_stops_the_first_ingest_between_files_and_the_next_start_goes_on(
    tmp_path: Path, fake: FakeOllama
) -> None:
    registry = DomainRegistry.load()
    fake.default(EMBED_TITLE, Delay(0.05, None))  # every file's embedding takes a moment
    library = await Library.open(config(tmp_path, fake), registry)
    library.start_ingest()
    while not [r for r in fake.requests if r.path == "/api/embed"]:
        await asyncio.sleep(0.01)
    await library.close()
    first = _ingested(tmp_path, fake)
    assert 0 < first < BUILTIN_FILES
    again = await Library.open(config(tmp_path, fake), registry)
    again.start_ingest()
    await again.ready()
    await again.close()
    assert _ingested(tmp_path, fake) == BUILTIN_FILES


async def test_without_a_knowledge_base_nothing_is_found_and_nothing_fails() -> None:
    library = await Library.open(None, DomainRegistry.load())
    assert not library.available and library.start_ingest() is None
    assert await library.find("what is a deload?", ["strength"], 4) == []
    await library.ready()
    await library.close()


def _ingested(data_dir: Path, fake: FakeOllama) -> int:
    from engine.knowledge.base import KnowledgeBase

    kb = KnowledgeBase.open(config(data_dir, fake))
    try:
        return len([s for s in kb._lexical.manifest.sources() if s.origin.startswith(BUILTIN_ORIGIN)])
    finally:
        kb.close()
