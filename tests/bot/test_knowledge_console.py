"""The whole path, in the real process: ``python -m bot console`` on a fresh data directory ingests
the built-in articles at start (embedded by the fake Ollama), and a question about a deload is
answered from the Deload article, cited with its source, in what the terminal shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.ollama_server import DEFAULT_MODEL, FakeOllama
from tests.helpers import scripts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(models=[DEFAULT_MODEL, "bge-m3"]) as server:
        yield server


def names_the_deload_article(body: dict[str, Any]) -> dict[str, Any]:
    prompt = str(body["messages"][-1]["content"])
    [k] = re.findall(r"^(K\d+): the article “Deload”$", prompt, re.MULTILINE)
    return scripts.claims(scripts.claim("article", k, note="A deload is a planned lighter week to let fatigue clear."))


def test_a_knowledge_question_in_the_console_cites_the_article(tmp_path: Path, fake: FakeOllama) -> None:
    fake.script(scripts.router("CHAT"))
    fake.script(scripts.planner().model_copy(update={"knowledge_query": "deload"}))
    fake.script(scripts.analyzer())
    fake.script("SynthesizerOutput", names_the_deload_article)
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "TELEGRAM_", "SLACK_", "EMBEDDING_"))}
    env.update(
        HOME=str(tmp_path),
        DATA_DIR=str(data),
        OLLAMA_HOST=fake.url,
        EMBEDDING_BACKEND="ollama",
        EMBEDDING_MODEL="bge-m3",
        KNOWLEDGE_ENABLED="true",
        PYTHONPATH=str(ROOT),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--name", "kim"],
        cwd=tmp_path,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        log = data / "almanac.log"
        deadline = time.monotonic() + 60
        while "knowledge.ingested" not in (log.read_text(encoding="utf-8") if log.exists() else ""):
            assert proc.poll() is None and time.monotonic() < deadline, "the built-in articles never went in"
            time.sleep(0.1)
        out, err = proc.communicate("what is a deload?\n/quit\n", timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "A deload is a planned lighter week to let fatigue clear. (“Deload”)" in out
    assert re.search(r"Sources: Deload \([^)]*strength/deload\.md\)", out), out
    assert "added=61" in log.read_text(encoding="utf-8")  # every built-in article, at the first start
