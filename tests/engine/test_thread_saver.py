"""The SQLite saver keeps a thread's latest checkpoint and the one before it, and reads a thread once per turn
(`engine.runtime.threads`): what it keeps of a read never outlives a write to the thread."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import empty_checkpoint

from engine.runtime.threads import ThreadSaver, latest_checkpoint, roll_back, sqlite_saver

THREAD = "console:lee#0"
LATEST: Any = {"configurable": {"thread_id": THREAD}}


async def put(saver: ThreadSaver, parent: str | None, value: str) -> str:
    """Save a checkpoint of THREAD after ``parent``, as LangGraph does at the end of a run; its id."""
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"text": value}
    configurable = {"thread_id": THREAD, "checkpoint_ns": "", **({"checkpoint_id": parent} if parent else {})}
    saved = await saver.aput({"configurable": configurable}, checkpoint, {"step": 1}, {})
    return str(saved["configurable"]["checkpoint_id"])


def rows(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT checkpoint_id FROM checkpoints ORDER BY checkpoint_id")]
    finally:
        db.close()


async def test_each_save_prunes_all_but_the_checkpoint_a_failed_turn_rolls_back_to(tmp_path: Path) -> None:
    path = tmp_path / "checkpoints.db"
    async with sqlite_saver(path) as saver:
        a = await put(saver, None, "first")
        b = await put(saver, a, "second")
        c = await put(saver, b, "third")
        assert rows(path) == [b, c]
        await roll_back(saver, THREAD, b)  # the turn that saved c failed
        assert rows(path) == [b]
        found = await saver.aget_tuple(LATEST)
        assert found is not None and found.checkpoint["channel_values"] == {"text": "second"}
        d = await put(saver, b, "fourth")
        assert rows(path) == [b, d]


async def test_a_read_serves_the_next_read_once_and_never_outlives_a_write(tmp_path: Path) -> None:
    async with sqlite_saver(tmp_path / "checkpoints.db") as saver:
        a = await put(saver, None, "first")
        looked = await saver.aget_tuple(LATEST)  # the engine's look at the thread
        assert looked is not None and saver.kept_id(THREAD) == a
        assert await latest_checkpoint(saver, THREAD) == a  # peeked, not used up
        run = await saver.aget_tuple(LATEST)  # the run's own read: the kept one, loaded afresh
        assert run is not None and run.checkpoint == looked.checkpoint and run.checkpoint is not looked.checkpoint
        assert saver.kept_id(THREAD) is None
        await saver.aget_tuple(LATEST)
        b = await put(saver, a, "second")
        assert saver.kept_id(THREAD) is None
        after = await saver.aget_tuple(LATEST)
        assert after is not None and after.checkpoint["id"] == b


async def test_a_read_under_way_while_a_checkpoint_is_saved_is_not_kept_past_the_save(tmp_path: Path) -> None:
    async with sqlite_saver(tmp_path / "checkpoints.db") as saver:
        a = await put(saver, None, "first")
        for _ in range(20):
            reading = asyncio.create_task(saver.aget_tuple(LATEST))
            saving = asyncio.create_task(put(saver, a, "next"))
            _, a = await asyncio.gather(reading, saving)
            assert saver.kept_id(THREAD) in (None, a)
            found = await saver.aget_tuple(LATEST)
            assert found is not None and found.checkpoint["id"] == a
