"""Conversation threads on Postgres: LangGraph's saver on a pool we build, kept to one checkpoint per thread.

``AsyncPostgresSaver.from_conn_string`` opens one connection with no pool
settings; managed databases close idle connections, so the saver gets a pool
(autocommit, no prepared statements — poolers such as PgBouncer in transaction
mode can't keep them —, dict rows as the saver reads them, connections
recycled before a server or a proxy drops them).

Bounded storage, as on SQLite (`engine.runtime.threads`): after a turn the
thread keeps only its newest checkpoint, with its writes and the channel
values (blobs) that checkpoint names; a failed turn rolls back to the one
before. The tables are made by `engine.store.migrate`, under its lock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from engine.store.pg_conn import KEEPALIVES

POOL_MAX = 4
"""Connections per process: a process runs few turns at once, and each saves in one short transaction."""

# Channel values no checkpoint of the thread names any more (Postgres keeps one row per channel version).
_ORPHAN_BLOBS = """
DELETE FROM checkpoint_blobs b WHERE b.thread_id = %(t)s AND b.checkpoint_ns = ''
AND NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = ''
                AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)
"""


class PgThreadSaver(AsyncPostgresSaver):
    """LangGraph's Postgres saver, with the thread upkeep the engine does after a turn."""

    async def keep_latest(self, thread_id: str) -> None:
        latest = "(SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = %(t)s AND checkpoint_ns = '')"
        await self._delete(
            [
                f"DELETE FROM checkpoint_writes WHERE thread_id = %(t)s AND checkpoint_ns = '' "
                f"AND checkpoint_id < {latest}",
                f"DELETE FROM checkpoints WHERE thread_id = %(t)s AND checkpoint_ns = '' AND checkpoint_id < {latest}",
                _ORPHAN_BLOBS,
            ],
            {"t": thread_id},
        )

    async def roll_back(self, thread_id: str, to: str | None) -> None:
        await self._delete(
            [
                "DELETE FROM checkpoint_writes WHERE thread_id = %(t)s AND checkpoint_ns = '' AND checkpoint_id > %(to)s",
                "DELETE FROM checkpoints WHERE thread_id = %(t)s AND checkpoint_ns = '' AND checkpoint_id > %(to)s",
                _ORPHAN_BLOBS,
            ],
            {"t": thread_id, "to": to or ""},
        )

    async def latest_id(self, thread_id: str) -> str | None:
        async with self._cursor() as cur:
            await cur.execute(
                "SELECT max(checkpoint_id) AS id FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = ''",
                (thread_id,),
            )
            row = await cur.fetchone()
        return None if row is None or row["id"] is None else str(row["id"])

    async def _delete(self, statements: list[str], params: dict[str, Any]) -> None:
        async with self._cursor(pipeline=False) as cur, cur.connection.transaction():
            for statement in statements:
                await cur.execute(statement, params)


@asynccontextmanager
async def postgres_saver(url: str) -> AsyncIterator[PgThreadSaver]:
    """The Postgres checkpointer on its own pool (its tables already made by `engine.store.migrate`)."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=POOL_MAX,
        max_idle=120.0,
        max_lifetime=1800.0,
        kwargs={"autocommit": True, "prepare_threshold": None, "row_factory": dict_row, **KEEPALIVES},
        open=False,
    )
    await pool.open(wait=True, timeout=30.0)
    try:
        yield PgThreadSaver(pool)
    finally:
        await pool.close()
