"""The Postgres connection the stores use as aiosqlite's: SQLite's placeholders, transactions and values."""

from __future__ import annotations

from datetime import date

import pytest

from engine.store.pg_conn import PgConnection, translate


@pytest.mark.parametrize(
    ("sqlite", "psycopg"),
    [
        ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = %s AND b = %s"),
        ("SELECT * FROM t WHERE a = :u AND b = :b1", "SELECT * FROM t WHERE a = %(u)s AND b = %(b1)s"),
        # Quoted text keeps its ? and :name; a cast keeps its ::; a literal % is doubled.
        ("SELECT '?', ':x', instr(c, ':') FROM t WHERE d = ?", "SELECT '?', ':x', instr(c, ':') FROM t WHERE d = %s"),
        (
            "SELECT x::jsonb, 'it''s ?' FROM t WHERE y LIKE '50%' AND z = :z",
            "SELECT x::jsonb, 'it''s ?' FROM t WHERE y LIKE '50%%' AND z = %(z)s",
        ),
        ('SELECT "odd?col" FROM t WHERE a = ?', 'SELECT "odd?col" FROM t WHERE a = %s'),
    ],
)
def test_placeholders_are_translated_outside_quoted_text(sqlite: str, psycopg: str) -> None:
    assert translate(sqlite) == psycopg


async def test_values_come_back_as_sqlite_gives_them(pg_url: str) -> None:
    conn = await PgConnection.connect(pg_url)
    try:
        rows = await conn.execute_fetchall(
            "SELECT sum(x) AS whole, sum(x) / 4.0 AS part, ? AS day, ? AS flag FROM (VALUES (1), (2)) AS v (x)",
            (date(2026, 11, 26), True),
        )
        (row,) = rows
        assert (row["whole"], row[1], row["day"], row["flag"]) == (3, 0.75, "2026-11-26", "1")
        assert type(row["whole"]) is int and type(row["part"]) is float  # never Decimal
    finally:
        await conn.close()


async def test_writes_open_a_transaction_that_commit_or_rollback_ends(pg_url: str) -> None:
    conn = await PgConnection.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)")
        await conn.execute("INSERT INTO t VALUES (1)")
        assert conn.in_transaction
        await conn.rollback()
        assert await conn.execute_fetchall("SELECT count(*) FROM t") == [(0,)]
        await conn.execute("INSERT INTO t VALUES (1)")
        await conn.commit()
        with pytest.raises(Exception, match="duplicate key"):
            await conn.execute("INSERT INTO t VALUES (1)")
        assert not conn.in_transaction  # a failed statement ends its transaction: the next one is not refused
        assert await conn.execute_fetchall("SELECT count(*) FROM t") == [(1,)]
    finally:
        await conn.close()


async def test_a_connection_the_server_closed_is_opened_again(pg_url: str) -> None:
    """A managed database or a proxy closes idle connections; the next statement must not fail for it."""
    conn = await PgConnection.connect(pg_url)
    watcher = await PgConnection.connect(pg_url)
    try:
        await watcher.execute_fetchall("SELECT pg_terminate_backend(?)", (conn.raw.info.backend_pid,))
        assert await conn.execute_fetchall("SELECT 1") == [(1,)]
    finally:
        await conn.close()
        await watcher.close()
