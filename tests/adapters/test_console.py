"""The console adapter over a real engine: lines in, plain text out."""

from __future__ import annotations

import asyncio
import errno
import io
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from adapters.console import ConsoleChat
from engine.language.dates import today_in
from engine.store.inbox import Inbox
from tests.conftest import OpenEngine
from tests.fakes.ollama_server import Delay, FakeOllama
from tests.helpers import scripts

# These scenarios script the Router and Parser (and Planner) for every turn: they drive the model's
# path, as READ_IN_CODE=false does and as any message code cannot read does (tests/engine/test_code_first.py
# drives the default).
pytestmark = pytest.mark.model_reads


async def chat(open_engine: OpenEngine, lines: list[str]) -> str:
    out = io.StringIO()
    async with open_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out).run()
    return out.getvalue()


async def test_log_clarify_by_number_and_commands(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"), scripts.router("LOG"))
    fake.script(
        scripts.strength("bench press", 55, 10, 5),
        scripts.needs_exercise(),
        scripts.strength("squat", 100, 5, 5),
    )
    fake.script(scripts.clarifier())
    text = await chat(
        open_engine,
        ["bench 55kg 10x5", "did 5x5 today", "2", "/frobnicate", "/reset", "/help", "/quit", "never read"],
    )
    assert "✓ logged" in text and "bench press 55 kg × 10 reps × 5 sets" in text
    assert "? Which exercise was that?" in text and "   2) Squat" in text
    assert "squat 100 kg × 5 reps × 5 sets" in text
    assert "Unknown command '/frobnicate'" in text
    assert "Started a fresh conversation" in text
    assert "/retry" in text  # help text
    assert text.rstrip().endswith("bye")
    # "2" picked the second option; the parser saw it as the answer.
    assert "-> Squat" in fake.calls("ParserOutput")[2]["messages"][1]["content"]


async def test_skip_and_restart_shows_open_question(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.script(scripts.router("LOG"))
    fake.script(scripts.needs_exercise())
    fake.script(scripts.clarifier())
    first = await chat(open_engine, ["did 5x5 today"])
    assert "? Which exercise was that?" in first
    second = await chat(open_engine, ["skip"])
    assert "You left this open:" in second
    assert "✓ logged" in second and "note: did 5x5 today" in second


async def test_model_down_then_retry(open_engine: OpenEngine, fake: FakeOllama) -> None:
    fake.stop()
    down = await chat(open_engine, ["bench 55kg 10x5"])
    assert "! I can't reach the language model" in down
    fake.start()
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))
    back = await chat(open_engine, ["/retry", "/retry"])
    assert back.count("✓ logged") == 1
    assert "Nothing to retry" in back


async def test_plan_approval_undo_export_and_forget(open_engine: OpenEngine, fake: FakeOllama, tmp_path: Path) -> None:
    # The console runs on the real clock: the log is dated yesterday where the engine is
    # (Asia/Seoul in these tests), and the plan's sessions follow it.
    logged_on = today_in("Asia/Seoul") - timedelta(days=1)
    fake.script(scripts.router("LOG"), scripts.router("TASK", ["strength"]))
    fake.script(scripts.strength("bench press", 55, 10, 5, date_text=logged_on.isoformat()))
    fake.script(scripts.good_plan(logged_on=logged_on))
    out = io.StringIO()
    lines = [
        f"bench 55kg 10x5 {logged_on.isoformat()}",
        "plan my week",
        "approve",
        "/history",
        "/undo",
        "/export",
        "/forget",
        "/forget yes",
        "/quit",
    ]
    async with open_engine() as engine:
        chat_ = ConsoleChat(engine, "kim", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out, export_dir=tmp_path)
        await chat_.run()
        assert await engine.entries.count("console:kim") == 0
    text = out.getvalue()
    assert "Plan: " in text and "nothing changes until you type: approve" in text
    assert "Done." in text and "approved" in text and "carried out" in text and "Reverted:" in text
    exported = list(tmp_path.glob("almanac-entries-*.csv"))
    assert len(exported) == 1 and "bench press" in exported[0].read_text()
    assert "Type /forget yes to confirm" in text and "deleted 1 entry " in text


async def test_ctrl_c_mid_turn_keeps_the_message_for_the_next_start(
    sqlite_engine: OpenEngine, fake: FakeOllama
) -> None:
    """Before: Ctrl-C while a turn ran printed "bye" and the message was gone."""
    fake.script("RouterOutput", Delay(5, scripts.router("LOG")), scripts.router("LOG"))
    fake.default(scripts.strength("bench press", 55, 10, 5))
    out = io.StringIO()
    async with sqlite_engine() as engine:
        chat_ = ConsoleChat(engine, "kim", stdin=io.StringIO("bench 55kg 10x5\n"), stdout=out)
        task = asyncio.create_task(chat_.run())
        while not fake.requests:
            await asyncio.sleep(0.01)
        task.cancel()  # what asyncio.run does on Ctrl-C
        with pytest.raises(asyncio.CancelledError):
            await task
    assert "kept and runs when you start Almanac again" in out.getvalue()
    again = io.StringIO()
    async with sqlite_engine() as engine:
        await ConsoleChat(engine, "kim", stdin=io.StringIO(""), stdout=again).run()
        assert await engine.entries.count("console:kim") == 1
    text = again.getvalue()
    assert "Picking up what was cut off" in text and "> bench 55kg 10x5" in text and "✓ logged" in text


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (OSError(errno.EROFS, "Read-only file system"), "Read-only file system"),
        (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
        (PermissionError(errno.EACCES, "Permission denied"), "Permission denied"),
    ],
)
async def test_export_that_cannot_be_written_is_one_line(
    open_engine: OpenEngine,
    fake: FakeOllama,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: OSError,
    says: str,
) -> None:
    """Before: /export in a read-only folder or on a full disk ended the console with a traceback."""
    fake.script(scripts.router("LOG"))
    fake.script(scripts.strength("bench press", 55, 10, 5))

    opened = Path.open

    def refuse(self: Path, *args: Any, **kw: Any) -> Any:
        if self.parent == tmp_path:  # the export; everything else opens as it would
            raise error
        return opened(self, *args, **kw)

    monkeypatch.setattr(Path, "open", refuse)
    out = io.StringIO()
    async with open_engine() as engine:
        lines = io.StringIO("bench 55kg 10x5\n/export\n/status\n")
        await ConsoleChat(engine, "kim", stdin=lines, stdout=out, export_dir=tmp_path).run()
        assert await engine.entries.count("console:kim") == 1
    text = out.getvalue()
    (line,) = [t for t in text.splitlines() if "Could not write" in t]
    assert says in line and "entries are unchanged" in line
    assert "Traceback" not in text and "Nothing is waiting for you." in text  # the chat went on


async def test_storage_failure_is_one_line_and_the_chat_goes_on(
    open_engine: OpenEngine, fake: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def full(*args: Any, **kw: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    out = io.StringIO()
    async with open_engine() as engine:
        monkeypatch.setattr(Inbox, "record", full)
        await ConsoleChat(engine, "kim", stdin=io.StringIO("bench 55kg 10x5\n/help\n"), stdout=out).run()
    text = out.getvalue()
    assert "! The disk where I keep your data is full" in text and "Traceback" not in text and "/retry" in text
