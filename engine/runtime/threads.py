"""Conversation threads: the SQLite saver, bounded storage, and rolling back a failed turn.

Keeping checkpoint storage bounded:

LangGraph writes a full checkpoint per run and neither the SQLite nor the
in-memory saver prunes. All our state lives in a thread's latest checkpoint
(we use no delta channels, whose history would need the ancestors), so:

- in SQLite a trigger prunes with the save: inserting a thread's checkpoint
  deletes those older than its parent, with their writes, in the same
  transaction. The parent stays until the next save, because a turn that
  fails rolls its thread back to it (`roll_back`); so a thread keeps at most
  two checkpoints, and pruning costs no round trip of its own;
- other savers (the in-memory one of the tests) are pruned after each turn
  (`keep_latest`).

Reading a thread once per turn:

A turn looks at its thread before it runs (is a question or plan open?) and
LangGraph reads the same checkpoint again when the run starts. `ThreadSaver`
keeps the checkpoint it read for the next read of that thread, until anything
is written to the thread, so the run starts from what the look read.
"""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
)
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.checkpoint.sqlite.utils import load_pending_writes, pending_writes_sql

from engine.runtime.pg_threads import PgThreadSaver
from engine.store.db import DataDirError

WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""The WAL file is truncated back to this after a checkpoint instead of keeping its peak size."""
KEPT_READS = 256
"""Threads whose last read `ThreadSaver` keeps at most (a read is normally used by the run right after it)."""

PRUNE_WITH_THE_SAVE = """
CREATE TRIGGER IF NOT EXISTS almanac_prune_checkpoints AFTER INSERT ON checkpoints
WHEN new.checkpoint_ns = '' AND new.parent_checkpoint_id IS NOT NULL
BEGIN
    DELETE FROM writes WHERE thread_id = new.thread_id AND checkpoint_ns = ''
        AND checkpoint_id < new.parent_checkpoint_id;
    DELETE FROM checkpoints WHERE thread_id = new.thread_id AND checkpoint_ns = ''
        AND checkpoint_id < new.parent_checkpoint_id;
END;
"""
"""Checkpoint ids are time-ordered (uuid6), so "older than the parent" is "smaller than the parent's id"."""


@dataclass(frozen=True)
class _Read:
    """A thread's latest checkpoint as read from the database, not yet loaded."""

    checkpoint_id: str
    parent_id: str | None
    type: str
    checkpoint: bytes
    metadata: bytes | None
    writes: list[Any]
    """Its pending writes' rows (``pending_writes_sql``)."""


class ThreadSaver(AsyncSqliteSaver):
    """LangGraph's SQLite saver, reading a thread's latest checkpoint once per turn.

    A read of a thread's latest checkpoint is kept, as the rows read, for the
    next read of that thread: the engine's look at the thread (``aget_state``)
    and then the run's own read cost one query. The rows are loaded afresh for
    each reader (LangGraph updates a loaded checkpoint in place). Any write to
    the thread (a checkpoint, its writes, deleting the thread, `roll_back`)
    drops what was kept, and so does the read that uses it, so no read is
    older than the last write. Only this process writes a conversation's
    thread (its turns run one at a time, under the engine's per-conversation lock).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: OrderedDict[str, _Read] = OrderedDict()

    def forget(self, thread_id: str) -> None:
        """Drop the kept read of a thread (call after writing it other than through the saver)."""
        self._kept.pop(thread_id, None)

    def kept_id(self, thread_id: str) -> str | None:
        """The id of the thread's latest checkpoint if a read of it is kept (without using it up)."""
        kept = self._kept.get(thread_id)
        return None if kept is None else kept.checkpoint_id

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        configurable = config.get("configurable") or {}
        if get_checkpoint_id(config) or configurable.get("checkpoint_ns", ""):
            return await super().aget_tuple(config)
        thread_id = str(configurable["thread_id"])
        read = self._kept.pop(thread_id, None)
        if read is None:
            read = await self._read_latest(thread_id)
            if read is None:
                return None
            self._kept[thread_id] = read
            while len(self._kept) > KEPT_READS:
                self._kept.popitem(last=False)
        return self._load(thread_id, read)

    async def _read_latest(self, thread_id: str) -> _Read | None:
        """What `AsyncSqliteSaver.aget_tuple` reads for the latest checkpoint, in two round trips instead of six.

        The same queries; each runs and returns its rows in one call to
        aiosqlite's thread (``execute_fetchall``) instead of opening a cursor,
        executing, fetching and closing in four.
        """
        await self.setup()
        async with self.lock:
            rows = list(
                await self.conn.execute_fetchall(
                    "SELECT checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM checkpoints "
                    "WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1",
                    (thread_id,),
                )
            )
            if not rows:
                return None
            checkpoint_id, parent_id, type_, checkpoint, metadata = rows[0]
            writes = await self.conn.execute_fetchall(
                pending_writes_sql(self._has_task_path), (thread_id, "", checkpoint_id)
            )
        return _Read(checkpoint_id, parent_id, type_, checkpoint, metadata, list(writes))

    def _load(self, thread_id: str, read: _Read) -> CheckpointTuple:
        """The checkpoint tuple, as `AsyncSqliteSaver.aget_tuple` builds it."""

        def at(checkpoint_id: str) -> RunnableConfig:
            return {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}

        return CheckpointTuple(
            at(read.checkpoint_id),
            self.serde.loads_typed((read.type, read.checkpoint)),
            cast(CheckpointMetadata, json.loads(read.metadata) if read.metadata is not None else {}),
            at(read.parent_id) if read.parent_id else None,
            load_pending_writes(read.writes, self.serde),
        )

    # Each write drops the thread's kept read before it and again after it: a read that was
    # under way while the write waited for the saver's lock keeps what it read just before.

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        thread_id = str(config["configurable"]["thread_id"])
        self.forget(thread_id)
        try:
            return await super().aput(config, checkpoint, metadata, new_versions)
        finally:
            self.forget(thread_id)

    async def aput_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        thread_id = str(config["configurable"]["thread_id"])
        self.forget(thread_id)
        try:
            await super().aput_writes(config, writes, task_id, task_path)
        finally:
            self.forget(thread_id)

    async def adelete_thread(self, thread_id: str) -> None:
        self.forget(str(thread_id))
        try:
            await super().adelete_thread(thread_id)
        finally:
            self.forget(str(thread_id))


async def keep_latest(saver: BaseCheckpointSaver[str], thread_id: str) -> None:
    """Delete every checkpoint of ``thread_id`` but the newest, with their writes (savers without the trigger).

    A SQLite saver set up by `sqlite_saver` prunes with each save instead (see the module doc).
    """
    if isinstance(saver, PgThreadSaver):
        await saver.keep_latest(thread_id)
    elif isinstance(saver, AsyncSqliteSaver):
        if isinstance(saver, ThreadSaver):
            return
        async with saver.lock:
            # Checkpoint ids are time-ordered (uuid6), so "older" is "smaller".
            latest = "(SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '')"
            await saver.conn.execute(
                f"DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id < {latest}",
                (thread_id, thread_id),
            )
            await saver.conn.execute(
                f"DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id < {latest}",
                (thread_id, thread_id),
            )
            await saver.conn.commit()
    elif isinstance(saver, InMemorySaver):
        _keep_latest_in_memory(saver, thread_id)


def _keep_latest_in_memory(saver: InMemorySaver, thread_id: str) -> None:
    namespaces = saver.storage.get(thread_id)
    if not namespaces:
        return
    for ns, checkpoints in namespaces.items():
        if len(checkpoints) <= 1:
            continue
        latest = max(checkpoints)
        for old in [c for c in checkpoints if c != latest]:
            del checkpoints[old]
            saver.writes.pop((thread_id, ns, old), None)
        # Channel values live in blobs keyed by version; keep only the latest's.
        checkpoint, _, _ = checkpoints[latest]
        live = saver.serde.loads_typed(checkpoint)["channel_versions"]
        for key in [k for k in saver.blobs if k[0] == thread_id and k[1] == ns]:
            if live.get(key[2]) != key[3]:
                del saver.blobs[key]


async def latest_checkpoint(saver: BaseCheckpointSaver[str], thread_id: str) -> str | None:
    """The id of the thread's newest checkpoint, or None for a thread never run (read without loading it)."""
    if isinstance(saver, ThreadSaver) and (kept := saver.kept_id(thread_id)) is not None:
        return kept  # the turn's look at the thread just read it
    if isinstance(saver, PgThreadSaver):
        return await saver.latest_id(thread_id)
    if isinstance(saver, AsyncSqliteSaver):
        async with saver.lock:
            rows = list(
                await saver.conn.execute_fetchall(
                    "SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
                    (thread_id,),
                )
            )
        return None if not rows or rows[0][0] is None else str(rows[0][0])
    if isinstance(saver, InMemorySaver):
        checkpoints = saver.storage.get(thread_id, {}).get("", {})
        return max(checkpoints) if checkpoints else None
    found = await saver.aget_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    return None if found is None else str(found.checkpoint["id"])


async def roll_back(saver: BaseCheckpointSaver[str], thread_id: str, to: str | None) -> None:
    """Delete the thread's checkpoints newer than ``to`` (all of them when None).

    A turn that failed leaves the thread exactly as it was before the turn:
    a question it was answering is open again with the same interrupt id (so
    its buttons still work), and nothing half-done lingers for the next
    message to trip over. Ids are time-ordered (uuid6), so "newer" is "greater".
    """
    if isinstance(saver, PgThreadSaver):
        await saver.roll_back(thread_id, to)
    elif isinstance(saver, AsyncSqliteSaver):
        if isinstance(saver, ThreadSaver):
            saver.forget(thread_id)
        async with saver.lock:
            for table in ("writes", "checkpoints"):
                await saver.conn.execute(
                    f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id > ?",
                    (thread_id, to or ""),
                )
            await saver.conn.commit()
        if isinstance(saver, ThreadSaver):
            saver.forget(thread_id)  # and what a read under way meanwhile kept
    elif isinstance(saver, InMemorySaver):
        checkpoints = saver.storage.get(thread_id, {}).get("", {})
        for newer in [c for c in checkpoints if to is None or c > to]:
            del checkpoints[newer]
            saver.writes.pop((thread_id, "", newer), None)
    elif to is None:
        await saver.adelete_thread(thread_id)


@asynccontextmanager
async def sqlite_saver(path: Path) -> AsyncIterator[ThreadSaver]:
    """The SQLite checkpointer, set up; a database that cannot be written is a `DataDirError`."""
    async with ThreadSaver.from_conn_string(str(path)) as saver:
        assert isinstance(saver, ThreadSaver)
        try:
            await saver.setup()
            await saver.conn.executescript(PRUNE_WITH_THE_SAVE)
            # WAL + NORMAL: a crash loses nothing; a power cut can lose the last
            # turns' conversation state (README, "What a power cut can cost").
            # FULL cost 2–5 ms a turn.
            await saver.conn.execute("PRAGMA synchronous=NORMAL")
            await saver.conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        except sqlite3.Error as exc:
            raise DataDirError(f"cannot write the database {path}: {exc}") from None
        yield saver
