"""``python -m bot ingest`` and ``retrieve`` (bot/knowledge_cli.py), on the fake Ollama's embeddings for speed."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.knowledge_cli import add_commands, run
from tests.engine.knowledge.conftest import _words, write_articles
from tests.fakes.ollama_server import FakeOllama


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot")
    add_commands(parser.add_subparsers(dest="mode"))
    return parser.parse_args(argv)


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


def test_ingest_reports_what_it_did_and_the_files_it_skipped(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_articles(
        env / "kb", {"strength/a.md": f"# A\n\n{_words('squats')}\n", "strength/b.md": f"# B\n\n{_words('benching')}\n"}
    )
    (root / "strength" / "bad.md").write_bytes(b"\xff\xfe\x00bad")
    assert run(parse("ingest", str(root))) == 0
    out = capsys.readouterr().out
    assert "2 files read: 2 added, 0 updated, 0 unchanged, 0 removed" in out
    assert f"{root / 'strength' / 'bad.md'}: not UTF-8 text" in out

    assert run(parse("ingest", str(root), "--domain", "strength")) == 0
    assert "0 added, 0 updated, 2 unchanged" in capsys.readouterr().out


def test_ingest_refuses_a_missing_path_and_an_unknown_domain(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as missing:
        run(parse("ingest", str(env / "nowhere")))
    with pytest.raises(SystemExit) as unknown:
        run(parse("ingest", str(env), "--domain", "chess"))
    assert missing.value.code == unknown.value.code == 2
    err = capsys.readouterr().err
    assert "nowhere" in err and "unknown domain 'chess'" in err


def test_retrieve_shows_found_and_added_chunks_and_the_statistics(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(parse("retrieve", "what is a deload week", "--domain", "strength", "--top-k", "2")) == 0
    out = capsys.readouterr().out
    found, _, added = out.partition("added by link expansion:")
    assert "found:" in found and " 1. " in found and "[strength]" in found and "score " in found
    assert "engine/domains/knowledge/strength/" in found
    assert " + " in added and "depth 1 via " in added
    assert "vocabulary terms added to the word search: deload" in out
    assert "expansion: 2 found; depth 1:" in out

    # The built-in articles are in now; depth 0 shows the search alone.
    assert run(parse("retrieve", "protein", "--depth", "0")) == 0
    out = capsys.readouterr().out
    assert "added by link expansion" not in out and "expansion: depth 0; 5 chunks" in out


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("CONTEXT_EXPANSION_DEPTH", "3"),
        ("EMBEDDING_BACKEND", "torch"),
        ("CHROMA_PORT", "0"),
        ("CONTEXT_EXPANSION_MAX_CHUNKS", "zero"),
    ],
)
def test_bad_knowledge_settings_exit_2_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as stop:
        load_settings()
    assert stop.value.code == 2 and key in capsys.readouterr().err


def test_knowledge_settings_reach_the_knowledge_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for key, value in {
        "DATA_DIR": str(tmp_path),
        "CHROMA_HOST": "chroma.internal",
        "CHROMA_PORT": "9000",
        "CONTEXT_EXPANSION_DEPTH": "2",
        "CONTEXT_EXPANSION_ENABLED": "false",
        "CONTEXT_EXPANSION_MAX_CHUNKS": "12",
        "KNOWLEDGE_TOP_K": "7",
    }.items():
        monkeypatch.setenv(key, value)
    config = load_settings().knowledge_config()
    assert (config.chroma_host, config.chroma_port, config.top_k) == ("chroma.internal", 9000, 7)
    assert (config.expansion_enabled, config.expansion_depth, config.expansion_max_chunks) == (False, 2, 12)
    assert config.lexical_db == tmp_path / "knowledge.db" and config.embedding_backend == "builtin"
