"""Answers that go without the knowledge base say so once (`Library.notice`): when it could not be opened
because another process holds it (an ingest), when a search failed, when the start-up ingest failed.
A knowledge base switched off is a choice, not a failure: nothing to tell."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.domains.registry import DomainRegistry
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.library import Library
from engine.outcomes import Notice
from tests.fakes.ollama_server import EMBED_TITLE, Fail, FakeOllama

ROOT = Path(__file__).resolve().parents[3]
HOLD = (
    "import sys; from pathlib import Path; from engine.knowledge import lock; "
    "lock.acquire(Path(sys.argv[1])); print('held', flush=True); sys.stdin.read()"
)


def config(data_dir: Path, fake: FakeOllama) -> KnowledgeConfig:
    return KnowledgeConfig(
        data_dir=data_dir,
        embedding_backend="ollama",
        embedding_model="bge-m3",
        ollama_host=fake.url,
        ollama_timeout_s=2,
    )


@pytest.fixture
def held_elsewhere(tmp_path: Path) -> Iterator[Path]:
    """Another process holding the knowledge base's folder, as ``python -m bot ingest`` does while it runs."""
    data = tmp_path / "data"
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data / "chroma")],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        yield data
    finally:
        other.kill()
        other.wait()


async def test_a_knowledge_base_held_by_an_ingest_elsewhere_is_told_once(
    held_elsewhere: Path, fake: FakeOllama
) -> None:
    fake.models.add("bge-m3")
    library = await Library.open(config(held_elsewhere, fake), DomainRegistry.load())
    assert not library.available and library.start_ingest() is None
    assert library.notice() is None  # nothing went without articles yet

    assert await library.find("what is a deload?", ["strength"], 4) == []
    notice = library.notice()
    assert isinstance(notice, Notice) and notice.code == "no_articles"
    assert "without my articles" in notice.text and "another Almanac process" in notice.text

    assert await library.find("and a warm-up?", ["strength"], 4) == []
    assert library.notice() is None  # once
    await library.close()


async def test_a_failed_search_is_told_once(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    library = await Library.open(config(tmp_path, fake), DomainRegistry.load())
    library.start_ingest()
    await library.ready()
    assert await library.find("what is a deload?", ["strength"], 4)
    assert library.notice() is None  # articles were found: nothing to tell

    fake.default(EMBED_TITLE, Fail(500, "model crashed"))
    assert await library.find("what is a deload?", ["strength"], 4) == []
    notice = library.notice()
    assert notice is not None and "could not be searched" in notice.text
    assert await library.find("what is a deload?", ["strength"], 4) == []
    assert library.notice() is None
    await library.close()


async def test_a_failed_start_up_ingest_is_told_at_the_next_search(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    fake.default(EMBED_TITLE, Fail(500, "model crashed"))
    library = await Library.open(config(tmp_path, fake), DomainRegistry.load())
    library.start_ingest()
    await library.ready()
    await library.find("what is a deload?", ["strength"], 4)
    notice = library.notice()
    assert notice is not None and "could not be loaded" in notice.text and notice.code == "no_articles"
    assert library.notice() is None
    await library.close()


async def test_a_knowledge_base_switched_off_has_nothing_to_tell() -> None:
    library = await Library.open(None, DomainRegistry.load())
    assert await library.find("what is a deload?", ["strength"], 4) == []
    assert library.notice() is None
    await library.close()
