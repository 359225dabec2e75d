"""One process at a time on the embedded Chroma folder (`engine.knowledge.lock`): ``python -m bot ingest``
beside a running bot is refused with one clear line instead of racing Chroma's index writers; within one
process opens are counted, and the folder is free again once the last one closes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.knowledge.base import KnowledgeBase
from engine.knowledge.config import KnowledgeConfig
from tests.engine.knowledge.conftest import _words, write_articles
from tests.fakes.ollama_server import FakeOllama

ROOT = Path(__file__).resolve().parents[3]


def config(data: Path, fake: FakeOllama) -> KnowledgeConfig:
    return KnowledgeConfig(
        data_dir=data, embedding_backend="ollama", embedding_model="bge-m3", ollama_host=fake.url, ollama_timeout_s=5
    )


def ingest_in_another_process(
    tmp_path: Path, data: Path, fake: FakeOllama, articles: Path
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "EMBEDDING_", "CHROMA_"))}
    env.update(
        DATA_DIR=str(data),
        EMBEDDING_BACKEND="ollama",
        EMBEDDING_MODEL="bge-m3",
        OLLAMA_HOST=fake.url,
        PYTHONPATH=str(ROOT),
        HOME=str(tmp_path),
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", "ingest", str(articles)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_second_process_is_refused_while_the_first_holds_the_folder(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    data = tmp_path / "data"
    articles = write_articles(tmp_path / "kb", {"strength/a.md": f"# A\n\n{_words('squats')}\n"})
    first = KnowledgeBase.open(config(data, fake))
    second = KnowledgeBase.open(config(data, fake))  # the same process: counted, not refused
    refused = ingest_in_another_process(tmp_path, data, fake, articles)
    assert refused.returncode == 2, refused.stderr
    [line] = refused.stderr.strip().splitlines()
    assert "is open in another Almanac process" in line and "CHROMA_HOST" in line
    first.close()
    assert ingest_in_another_process(tmp_path, data, fake, articles).returncode == 2  # one open is left
    second.close()
    done = ingest_in_another_process(tmp_path, data, fake, articles)
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout
