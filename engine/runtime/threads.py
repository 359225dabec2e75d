"""Conversation threads: the SQLite saver, bounded storage, and rolling back a failed turn.

Keeping checkpoint storage bounded:

LangGraph writes a full checkpoint per run and neither the SQLite nor the
in-memory saver prunes, so after each turn we keep only a thread's latest
checkpoint (all our state lives in it; we use no delta channels, whose history
would need the ancestors).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from engine.store.db import DataDirError

WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""The WAL file is truncated back to this after a checkpoint instead of keeping its peak size."""


async def keep_latest(saver: BaseCheckpointSaver[str], thread_id: str) -> None:
    """Delete every checkpoint of ``thread_id`` but the newest, with their writes."""
    if isinstance(saver, AsyncSqliteSaver):
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
    if isinstance(saver, AsyncSqliteSaver):
        async with saver.lock, saver.conn.execute(
            "SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''", (thread_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else str(row[0])
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
    if isinstance(saver, AsyncSqliteSaver):
        async with saver.lock:
            for table in ("writes", "checkpoints"):
                await saver.conn.execute(
                    f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id > ?",
                    (thread_id, to or ""),
                )
            await saver.conn.commit()
    elif isinstance(saver, InMemorySaver):
        checkpoints = saver.storage.get(thread_id, {}).get("", {})
        for newer in [c for c in checkpoints if to is None or c > to]:
            del checkpoints[newer]
            saver.writes.pop((thread_id, "", newer), None)
    elif to is None:
        await saver.adelete_thread(thread_id)


@asynccontextmanager
async def sqlite_saver(path: Path) -> AsyncIterator[AsyncSqliteSaver]:
    """The SQLite checkpointer, set up; a database that cannot be written is a `DataDirError`."""
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver:
        try:
            await saver.setup()
            # WAL + NORMAL: a crash loses nothing; a power cut can lose the last
            # turns' conversation state (README, "What a power cut can cost").
            # FULL cost 2–5 ms a turn.
            await saver.conn.execute("PRAGMA synchronous=NORMAL")
            await saver.conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        except sqlite3.Error as exc:
            raise DataDirError(f"cannot write the database {path}: {exc}") from None
        yield saver
