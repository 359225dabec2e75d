"""Fresh Postgres databases for the engine's tests, each a copy of one already migrated (a file copy, no DDL)."""

from __future__ import annotations

import asyncio

import psycopg
from psycopg import sql

from engine.store.migrate import migrate
from tests.helpers.postgres import with_database

TEMPLATE = "almanac_template"


def make_template(server_url: str) -> None:
    """Create the migrated template database (made again each session, so a schema change is always in it)."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(TEMPLATE)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))

    async def _migrate() -> None:
        url = with_database(server_url, TEMPLATE)
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await migrate(conn)

    asyncio.run(_migrate())
