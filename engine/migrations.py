"""Bring the storage up to date without starting anything (``python -m bot migrate``)."""

from __future__ import annotations

import psycopg

from engine.config import EngineConfig
from engine.store.db import Database, DataDirError
from engine.store.migrate import migrate


async def migrate_storage(config: EngineConfig) -> list[int] | None:
    """Postgres (``database_url``): apply the migrations it lacks, the versions applied now (none: up to date).
    SQLite: make the tables the files lack, and return None.

    Raises:
        DataDirError: the database cannot be reached or written.
    """
    if config.database is None:
        db = await Database.open(config.entries_db)
        await db.close()
        return None
    try:
        conn = await psycopg.AsyncConnection.connect(config.database, autocommit=True)
    except psycopg.OperationalError as exc:
        raise DataDirError(f"cannot reach the database at DATABASE_URL: {str(exc).strip().splitlines()[0]}") from None
    async with conn:
        return await migrate(conn)
