"""Bring the storage up to date without starting anything (``python -m bot migrate``), and say how it stands."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from engine.config import EngineConfig
from engine.store.db import Database, DataDirError
from engine.store.migrate import migrate
from engine.store.schema_pg import MIGRATIONS


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


@dataclass(frozen=True)
class StorageReport:
    """Where the storage is and whether its schema is current (``python -m bot doctor``)."""

    ok: bool
    found: str
    fix: str = ""


async def storage_report(config: EngineConfig) -> StorageReport:
    """Postgres: reachable, its version, the schema's version against this release's; SQLite: the file."""
    if config.database is None:
        return StorageReport(True, f"storage: SQLite files under {config.data_dir} (DATABASE_URL not set)")
    latest = MIGRATIONS[-1].version
    try:
        conn = await psycopg.AsyncConnection.connect(config.database, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        return StorageReport(
            False,
            f"storage: cannot reach the database at DATABASE_URL ({str(exc).strip().splitlines()[0]})",
            "check the host, port and password in DATABASE_URL, and that the server is up",
        )
    async with conn:
        version = str((await (await conn.execute("SHOW server_version")).fetchone() or ("?",))[0])
        cur = await conn.execute("SELECT to_regclass('almanac_migrations') IS NOT NULL")
        made = bool((await cur.fetchone() or (False,))[0])
        applied = 0
        if made:
            row = await (await conn.execute("SELECT coalesce(max(version), 0) FROM almanac_migrations")).fetchone()
            applied = int(row[0]) if row else 0
    found = f"storage: PostgreSQL {version}, schema {applied} of {latest}"
    if applied < latest:
        return StorageReport(False, found, "run `python -m bot migrate` (every process also migrates as it starts)")
    if applied > latest:
        return StorageReport(False, found, "the database was migrated by a newer Almanac: upgrade this one")
    return StorageReport(True, found)
