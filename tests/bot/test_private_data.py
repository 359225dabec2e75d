"""Data is private on a shared machine: the data folder is 0700, every file in it 0600 (issue 22, item 6)."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
import time
from pathlib import Path

from tests.bot.test_config import ROOT


def _env(tmp_path: Path, data: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OLLAMA_", "TELEGRAM_", "SLACK_", "LOG_"))}
    return {**clean, "HOME": str(tmp_path), "DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}


def _modes(root: Path) -> dict[str, int]:
    """Permission bits of ``root`` and of everything under it, by path relative to ``root``."""
    found = {".": stat.S_IMODE(root.stat().st_mode)}
    for path in root.rglob("*"):
        found[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return found


def test_a_fresh_start_keeps_the_data_folder_and_every_file_private(tmp_path: Path) -> None:
    data = tmp_path / "new" / "almanac"
    chat = subprocess.Popen(
        [sys.executable, "-m", "bot", "console"],
        cwd=tmp_path,  # no .env; the export lands here
        env=_env(tmp_path, data),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert chat.stdin is not None
        chat.stdin.write("bench 55kg 10x5\n/export\n")
        chat.stdin.flush()
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("almanac-entries-*.csv")):
            assert chat.poll() is None and time.monotonic() < deadline, "no export was written"
            time.sleep(0.05)
        # Chroma opens in the background with the start-up ingest, which writes its first vectors a moment later.
        while not list((data / "chroma").rglob("*.bin")):
            assert chat.poll() is None and time.monotonic() < deadline, "the start-up ingest wrote nothing"
            time.sleep(0.05)
        open_modes = _modes(data)  # while the databases are open: their -wal and -shm files exist
        _out, err = chat.communicate("/quit\n", timeout=60)
    finally:
        if chat.poll() is None:
            chat.kill()
    assert chat.returncode == 0, err
    assert err == ""  # a folder made private at the start is not warned about
    modes = {**open_modes, **_modes(data)}
    assert {"almanac.db-wal", "almanac.db-shm", "almanac.log", "checkpoints.db", "knowledge.db"} <= set(modes)
    assert any(name.startswith("chroma/") and name.endswith(".bin") for name in modes)  # Chroma's own files
    wrong = {name: oct(mode) for name, mode in modes.items() if mode != (0o700 if (data / name).is_dir() else 0o600)}
    assert not wrong, wrong
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700  # folders made on the way, too
    (export,) = tmp_path.glob("almanac-entries-*.csv")
    assert stat.S_IMODE(export.stat().st_mode) == 0o600  # an export holds the same entries


def test_a_data_folder_others_can_read_is_warned_about_once_with_the_fix(tmp_path: Path) -> None:
    data = tmp_path / "shared"
    data.mkdir()
    data.chmod(0o755)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console"],
        cwd=tmp_path,
        env=_env(tmp_path, data),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    fix = f"chmod -R go-rwx {shlex.quote(str(data))}"
    assert done.stderr.splitlines() == [
        f"almanac: warning: DATA_DIR {data} can be read by other accounts on this machine; run: {fix}"
    ]
    logged = [line for line in (data / "almanac.log").read_text().splitlines() if "chmod" in line]
    assert len(logged) == 1 and "warning" in logged[0] and fix in logged[0]
    assert stat.S_IMODE(data.stat().st_mode) == 0o755  # told, not changed behind the owner's back
