"""One line, never a traceback: what stops the process says what to fix (issue 22, item 8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from tests.bot.test_config import ROOT


def run_bot(tmp_path: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "TELEGRAM_", "SLACK_", "LOG_"))}
    clean.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "xdg"), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # where .env is read from
        env={**clean, "PYTHONPATH": str(ROOT)},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_an_env_file_saved_as_cp949_is_named_with_the_fix(tmp_path: Path) -> None:
    # A Korean Windows editor's "ANSI": the comment is CP949, not UTF-8.
    (tmp_path / ".env").write_bytes("DEFAULT_TIMEZONE=Asia/Seoul\n# 한국어 설정\n".encode("cp949"))
    result = run_bot(tmp_path, "console")
    assert result.returncode == 2
    assert one_line(result) == "almanac: .env is not UTF-8 text (line 2); save it as UTF-8 and start again"


def test_an_env_file_with_a_byte_order_mark_is_read_without_a_false_warning(tmp_path: Path) -> None:
    # Notepad's "UTF-8 with BOM": the settings source reads LOG_LEVEL; the check of key names must too.
    (tmp_path / ".env").write_bytes("LOG_LEVEL=loud\n".encode("utf-8-sig"))
    result = run_bot(tmp_path, "console")
    assert result.returncode == 2
    assert one_line(result).startswith("almanac: bad setting LOG_LEVEL:")


def test_an_env_that_is_a_folder_is_not_ignored(tmp_path: Path) -> None:
    (tmp_path / ".env").mkdir()
    result = run_bot(tmp_path, "console")
    assert result.returncode == 2
    line = one_line(result)
    assert line.startswith("almanac: .env is a folder, not a file") and "rename" in line


def test_an_absurd_number_is_refused(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "console", MAX_MESSAGE_CHARS="99999999999999999999")
    assert result.returncode == 2
    line = one_line(result)
    assert line.startswith("almanac: bad setting MAX_MESSAGE_CHARS: Input should be less than or equal to")


def test_every_numeric_setting_has_a_lower_and_an_upper_bound() -> None:
    unbounded = []
    for name, info in Settings.model_fields.items():
        if info.annotation not in (int, float):
            continue
        kinds = {
            attr for rule in info.metadata for attr in ("ge", "gt", "le", "lt") if getattr(rule, attr, None) is not None
        }
        if not (kinds & {"ge", "gt"} and kinds & {"le", "lt"}):
            unbounded.append(name.upper())
    assert not unbounded, f"bound these in bot/config.py: {unbounded}"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_quit_after_the_disk_filled_up_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "almanac.log").symlink_to("/dev/full")  # every write: "No space left on device"
    result = run_bot(tmp_path, "console", stdin="/quit\n", DATA_DIR=str(data))
    assert result.returncode == 2
    assert (
        one_line(result)
        == f"almanac: cannot write the log {data / 'almanac.log'} (No space left on device); free some space"
    )
