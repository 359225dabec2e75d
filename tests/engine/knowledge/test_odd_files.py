"""Odd files never hang an ingest: a named pipe, a socket or a device with an article's name is skipped
without being opened (opening a pipe blocks until something writes to it, while the ingest holds the
knowledge base's lock), a broken link is skipped, a link to an article is read; an article over the
size limit is skipped before anything is embedded. Each skip is reported with its reason."""

from __future__ import annotations

import argparse
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.knowledge_cli import add_commands, run
from engine.knowledge.files import MAX_ARTICLE_BYTES
from tests.engine.knowledge.conftest import _words, write_articles
from tests.fakes.ollama_server import FakeOllama

ROOT = Path(__file__).resolve().parents[3]


def ingest_in_a_process(tmp_path: Path, fake: FakeOllama, path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "EMBEDDING_", "CHROMA_"))}
    env.update(
        DATA_DIR=str(tmp_path / "data"),
        EMBEDDING_BACKEND="ollama",
        EMBEDDING_MODEL="bge-m3",
        OLLAMA_HOST=fake.url,
        PYTHONPATH=str(ROOT),
        HOME=str(tmp_path),
    )
    # The timeout is the test: before, the pipe's open() never returned.
    return subprocess.run(
        [sys.executable, "-m", "bot", "ingest", str(path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_pipes_sockets_devices_and_broken_links_are_skipped_unopened(tmp_path: Path, fake: FakeOllama) -> None:
    fake.models.add("bge-m3")
    root = write_articles(tmp_path / "kb", {"strength/a.md": f"# A\n\n{_words('squats')}\n"})
    outside = write_articles(tmp_path / "elsewhere", {"b.md": f"# B\n\n{_words('benching')}\n"})
    folder = root / "strength"
    os.mkfifo(folder / "x.md")
    os.mknod(folder / "socket.md", stat.S_IFSOCK | 0o600)
    (folder / "null.md").symlink_to("/dev/null")
    (folder / "broken.md").symlink_to(tmp_path / "nowhere.md")
    (folder / "linked.md").symlink_to(outside / "b.md")

    done = ingest_in_a_process(tmp_path, fake, root)
    assert done.returncode == 0, done.stderr
    assert "2 files read: 2 added" in done.stdout  # a.md, and b.md through its link
    assert f"{folder / 'x.md'}: a named pipe (FIFO), not a regular file; not opened" in done.stdout
    assert f"{folder / 'socket.md'}: a socket, not a regular file; not opened" in done.stdout
    assert f"{folder / 'null.md'}: a device, not a regular file; not opened" in done.stdout
    assert f"{folder / 'broken.md'}: a broken link" in done.stdout
    assert "skipped 4 files:" in done.stdout

    alone = ingest_in_a_process(tmp_path, fake, folder / "x.md")  # the pipe named on its own
    assert alone.returncode == 0, alone.stderr
    assert "0 files read" in alone.stdout and "a named pipe (FIFO)" in alone.stdout


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


def test_an_article_over_the_size_limit_is_skipped_before_it_is_embedded(
    env: Path, fake: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_articles(env / "kb", {"strength/a.md": f"# A\n\n{_words('squats')}\n"})
    big = root / "strength" / "big.md"
    paragraph = _words("a very long article about deadlifts") + "\n\n"
    big.write_text("# Big\n\n" + paragraph * (MAX_ARTICLE_BYTES // len(paragraph) + 10), encoding="utf-8")
    size = big.stat().st_size
    assert size > MAX_ARTICLE_BYTES == 1_000_000

    assert run(parse("ingest", str(root))) == 0
    out = capsys.readouterr().out
    assert "1 file read: 1 added" in out
    assert f"{big}: too big for an article ({size:,} bytes; the limit is 1,000,000): not read" in out
    embedded = [r for r in fake.requests if r.path == "/api/embed"]
    assert not any("deadlifts" in str(r.body) for r in embedded)


def test_an_article_at_the_size_limit_is_read(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_articles(env / "kb", {})
    head = "# Edge\n\n"
    paragraph = _words("long runs") + "\n\n"
    text = head + paragraph * ((MAX_ARTICLE_BYTES - len(head)) // len(paragraph))
    (root / "running").mkdir(parents=True)
    (root / "running" / "edge.md").write_text(text + "x" * (MAX_ARTICLE_BYTES - len(text)), encoding="utf-8")
    assert (root / "running" / "edge.md").stat().st_size == MAX_ARTICLE_BYTES

    assert run(parse("ingest", str(root))) == 0
    out = capsys.readouterr().out
    assert "1 file read: 1 added" in out and "skipped" not in out
    assert re.search(r"\(\d{3,} chunks written", out), out
