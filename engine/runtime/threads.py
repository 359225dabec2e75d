"""Keeping checkpoint storage bounded.

LangGraph writes a full checkpoint per run and neither the SQLite nor the
in-memory saver prunes, so after each turn we keep only a thread's latest
checkpoint (all our state lives in it; we use no delta channels, whose history
would need the ancestors).
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver


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
