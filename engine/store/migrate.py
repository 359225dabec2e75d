"""Bring a Postgres database's schema up to date, once, however many processes start at the same moment.

Every process that opens the database runs this (and ``python -m bot migrate``
runs it alone, for deployments that migrate before starting anything). The
migrations of `engine.store.schema_pg` and LangGraph's checkpoint tables are
applied under one session-level advisory lock, taken by polling
``pg_try_advisory_lock`` every 50 ms. A *blocking* ``pg_advisory_lock``
deadlocks here, undetected: the checkpointer's setup runs ``CREATE INDEX
CONCURRENTLY``, which waits for every open transaction, including the
statements of the processes queued on the lock. Measured: 30 of 40 concurrent
setups failed with no guard; 0 of 40 with the polled lock.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import structlog

from engine.store.schema_pg import MIGRATIONS

log = structlog.get_logger(__name__)

LOCK_KEY = 7_413_060_211
"""The advisory lock's key: ours alone in a database (any fixed 64-bit number)."""
POLL_S = 0.05
TIMEOUT_S = 600.0
"""How long a process waits for another's migration before giving up (a large schema change can take minutes)."""

_TABLE = """
CREATE TABLE IF NOT EXISTS almanac_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


class MigrationTimeout(Exception):
    """Another process held the migration lock for longer than `TIMEOUT_S`."""


async def migrate(conn: psycopg.AsyncConnection[Any], checkpoints: bool = True) -> list[int]:
    """Apply what is missing (on an autocommit connection); the versions applied now, none when up to date."""
    started = time.monotonic()
    while not await _try_lock(conn):
        if time.monotonic() - started > TIMEOUT_S:
            raise MigrationTimeout(f"waited {TIMEOUT_S:.0f} s for another process's migration")
        await asyncio.sleep(POLL_S)
    try:
        applied = await _apply(conn)
        if checkpoints:
            await _checkpoint_tables(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    if applied:
        log.info("db.migrated", versions=applied, s=round(time.monotonic() - started, 3))
    return applied


async def _try_lock(conn: psycopg.AsyncConnection[Any]) -> bool:
    cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,))
    row = await cur.fetchone()
    return bool(row and row[0])


async def _apply(conn: psycopg.AsyncConnection[Any]) -> list[int]:
    await conn.execute(_TABLE)
    cur = await conn.execute("SELECT version FROM almanac_migrations")
    done = {int(r[0]) for r in await cur.fetchall()}
    applied = []
    for step in MIGRATIONS:
        if step.version in done:
            continue
        async with conn.transaction():  # a step applies whole or not at all
            await conn.execute(step.sql.encode())
            await conn.execute(
                "INSERT INTO almanac_migrations (version, name) VALUES (%s, %s)", (step.version, step.name)
            )
        applied.append(step.version)
    return applied


async def _checkpoint_tables(conn: psycopg.AsyncConnection[Any]) -> None:
    """LangGraph's own migrations for its checkpoint tables, under our lock (their setup alone is not safe)."""
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    await AsyncPostgresSaver(conn).setup()
