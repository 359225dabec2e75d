"""Settings: one reader, bad values stop the process with one line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "TELEGRAM_", "SLACK_", "LOG_"))}
    clean.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "xdg"), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env there
        env={**clean, "PYTHONPATH": str(ROOT)},
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("OLLAMA_TIMEOUT_S", "abc"),
        ("LOG_FORMAT", "xml"),
        ("DEFAULT_TIMEZONE", "Mars/Olympus"),
        ("OLLAMA_HOST", "localhost:11434"),
        ("MAX_MESSAGE_CHARS", "-1"),
    ],
)
def test_bad_setting_exits_2_with_one_line(tmp_path: Path, key: str, value: str) -> None:
    result = run_bot(tmp_path, "console", **{key: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert key in lines[0] and "Traceback" not in result.stderr


def test_unwritable_data_dir_is_a_clear_startup_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run_bot(tmp_path, "console", DATA_DIR=str(blocker / "data"))
    assert result.returncode == 2
    assert "DATA_DIR" in result.stderr and "Traceback" not in result.stderr


def test_token_for_missing_adapter_says_so(tmp_path: Path) -> None:
    result = run_bot(tmp_path, TELEGRAM_BOT_TOKEN="123456:" + "A" * 35)
    assert result.returncode == 2
    assert "telegram" in result.stderr and "A" * 35 not in result.stderr


def test_console_starts_and_quits_on_end_of_input(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "console", DATA_DIR=str(tmp_path / "d"))
    assert result.returncode == 0, result.stderr
    assert "Almanac" in result.stdout and "bye" in result.stdout
    assert (tmp_path / "d" / "almanac.db").exists()


def test_defaults_and_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("OLLAMA_AGENT_MODELS", '{"parser": "qwen2.5:14b-instruct"}')
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "")
    s = load_settings()
    assert s.data_dir == tmp_path / "xdg" / "almanac"
    assert s.telegram_bot_token is None
    cfg = s.engine_config()
    assert cfg.llm.model_for("parser") == "qwen2.5:14b-instruct"
    assert cfg.llm.model_for("router") == "qwen2.5:7b-instruct"


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    keys = {line.lstrip("# ").split("=", 1)[0] for line in example.splitlines() if "=" in line}
    for field in Settings.model_fields:
        assert field.upper() in keys, f"{field.upper()} missing from .env.example"
