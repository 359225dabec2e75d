"""Slow work is never silent: without a terminal (a pipe, a log file, systemd) ``python -m bot ingest``
prints a line every few seconds saying how far it is, and the bot's start-up ingest logs one."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import structlog
from structlog.testing import capture_logs

from bot import knowledge_cli
from bot.knowledge_cli import add_commands, run
from engine.domains.registry import DomainRegistry
from engine.knowledge import library as library_module
from engine.knowledge.config import KnowledgeConfig
from engine.knowledge.library import Library
from tests.engine.knowledge.conftest import _words, write_articles
from tests.fakes.ollama_server import FakeOllama


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: FakeOllama) -> Path:
    fake.models.add("bge-m3")
    monkeypatch.chdir(tmp_path)  # no .env here
    for key, value in {
        "DATA_DIR": str(tmp_path / "data"),
        "EMBEDDING_BACKEND": "ollama",
        "EMBEDDING_MODEL": "bge-m3",
        "OLLAMA_HOST": fake.url,
    }.items():
        monkeypatch.setenv(key, value)
    return tmp_path


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot")
    add_commands(parser.add_subparsers(dest="mode"))
    return parser.parse_args(argv)


def test_without_a_terminal_a_slow_ingest_prints_where_it_is_every_few_seconds(
    env: Path, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(knowledge_cli, "PROGRESS_EVERY_S", 0.2, raising=False)
    fake.delay_s = 0.3  # every file's embedding takes a while
    root = write_articles(env / "kb", {f"strength/a{i}.md": f"# A{i}\n\n{_words(f'topic {i}')}\n" for i in range(6)})

    assert run(parse("ingest", str(root))) == 0  # capsys: stdout and stderr are no terminal
    out = capsys.readouterr().out
    lines = re.findall(r"^ingesting: (\d)/6 files after \d+ s \((.+)\)$", out, re.MULTILINE)
    assert len(lines) >= 4, out
    assert {path for _, path in lines} >= {str(root / "strength" / f"a{i}.md") for i in (1, 2, 3, 4)}
    assert [int(done) for done, _ in lines] == sorted(int(done) for done, _ in lines)
    assert out.rindex("ingesting: ") < out.index("6 files read: 6 added")  # the lines end before the report


async def test_the_start_up_ingest_logs_how_far_it_is(
    tmp_path: Path, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(library_module, "PROGRESS_LOG_EVERY_S", 0.1, raising=False)
    structlog.reset_defaults()  # `run` above configured WARNING-level logs for its process; a bot logs INFO
    fake.models.add("bge-m3")
    fake.delay_s = 0.02
    config = KnowledgeConfig(
        data_dir=tmp_path,
        embedding_backend="ollama",
        embedding_model="bge-m3",
        ollama_host=fake.url,
        ollama_timeout_s=5,
    )
    with capture_logs() as logs:
        library = await Library.open(config, DomainRegistry.load())
        library.start_ingest()
        await library.ready()
        await library.close()
    steps = [e for e in logs if e["event"] == "knowledge.ingesting"]
    assert len(steps) >= 3, [e["event"] for e in logs]
    assert all(0 <= e["done"] <= e["total"] == 61 and e["file"].endswith(".md") for e in steps)
