"""The application database: one SQLite file (entries, inbox, conversations), WAL, one connection;
or, with ``DATABASE_URL``, one Postgres connection per process (`engine.store.pg_conn`), same stores and SQL.

Durability is chosen per table. Most commits run with ``synchronous=NORMAL``:
in WAL mode a process crash (even SIGKILL) loses nothing committed, and a
power cut loses at most the last commits — and, because the WAL is replayed
only up to its first torn frame, it loses a *suffix* of them, never a commit
from the middle. Commits that record what a platform is about to be told was
received (`Database.synced`, used by the ``received`` table) run with
``synchronous=FULL``: they are on disk, with everything committed before them,
before the platform gets its acknowledgement.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, Protocol

import aiosqlite
import psycopg

from engine.store import announced, derived, reminder_tables, summary_prefs
from engine.store.pg_conn import PgConnection

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    rowid        INTEGER PRIMARY KEY,
    entry_id     TEXT NOT NULL UNIQUE,
    user_key     TEXT NOT NULL,
    occurred_on  TEXT NOT NULL,          -- YYYY-MM-DD in the user's time zone
    domain       TEXT NOT NULL,
    activity_type TEXT NOT NULL,
    kind         TEXT NOT NULL,          -- parsed | note | planned
    status       TEXT NOT NULL,          -- active | superseded | deleted | completed (a planned one, done)
    summary      TEXT NOT NULL,
    data         TEXT NOT NULL,          -- JSON of the parsed entry
    raw_text     TEXT NOT NULL,
    terms        TEXT NOT NULL,          -- vocabulary-normalized canonical terms
    source       TEXT NOT NULL,          -- chat | import | correction | plan
    source_key   TEXT NOT NULL,          -- idempotency: one source stores once per user
    supersedes   TEXT,
    created_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_source ON entries (user_key, source_key);
CREATE INDEX IF NOT EXISTS entries_user_day ON entries (user_key, status, occurred_on);
CREATE INDEX IF NOT EXISTS entries_supersedes ON entries (supersedes) WHERE supersedes IS NOT NULL;
CREATE INDEX IF NOT EXISTS entries_chat_logs ON entries (user_key, created_at) WHERE source = 'chat' AND status = 'active';
-- Every person's planned sessions of a few days, read by the scheduler each pass (nudges, planned days).
CREATE INDEX IF NOT EXISTS entries_planned_day ON entries (occurred_on) WHERE kind = 'planned' AND status = 'active';
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5 (
    owner, raw_text, terms, content='entries', content_rowid='rowid', tokenize='unicode61'
);
CREATE TRIGGER IF NOT EXISTS entries_fts_ai AFTER INSERT ON entries BEGIN
    INSERT INTO entries_fts (rowid, owner, raw_text, terms)
    VALUES (new.rowid, 'u' || hex(new.user_key), new.raw_text, new.terms);
END;
CREATE TRIGGER IF NOT EXISTS entries_fts_ad AFTER DELETE ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, owner, raw_text, terms)
    VALUES ('delete', old.rowid, 'u' || hex(old.user_key), old.raw_text, old.terms);
END;

CREATE TABLE IF NOT EXISTS inbox (
    id           INTEGER PRIMARY KEY,
    conversation TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    kind         TEXT NOT NULL,          -- message | resume | control
    payload      TEXT NOT NULL,          -- JSON of the turn
    message_id   TEXT,                   -- the platform's delivery id (message, press, command)
    status       TEXT NOT NULL,          -- pending | deferred | done | failed | interrupted
    error        TEXT,
    received_at  TEXT NOT NULL,
    outcomes     TEXT,                   -- JSON of what the person was shown (done, failed)
    words        TEXT                    -- a message's text as a resend is compared (engine/runtime/repeats.py)
);
CREATE UNIQUE INDEX IF NOT EXISTS inbox_platform_id ON inbox (conversation, message_id)
    WHERE message_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS inbox_conversation ON inbox (conversation, status, id);

-- What a platform delivered, recorded before the platform is told it arrived
-- (the next getUpdates offset, a webhook's 200, Slack's ack); `done` once handled.
CREATE TABLE IF NOT EXISTS received (
    id           INTEGER PRIMARY KEY,
    source       TEXT NOT NULL,          -- telegram | slack | …
    delivery_id  TEXT NOT NULL,          -- update_id, event_id
    user_key     TEXT NOT NULL,          -- for /forget ('' when the platform named nobody)
    payload      TEXT NOT NULL,          -- the platform's own JSON, to dispatch again after a crash
    status       TEXT NOT NULL,          -- new | done
    note         TEXT NOT NULL DEFAULT '',  -- the adapter's own (e.g. a status line to clean up)
    received_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS received_delivery ON received (source, delivery_id);
CREATE INDEX IF NOT EXISTS received_open ON received (source, status, id);

-- Who took part in which conversation: /forget clears every history that carries the person's words.
CREATE TABLE IF NOT EXISTS participants (
    conversation TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    PRIMARY KEY (user_key, conversation)
) WITHOUT ROWID;
-- A recorded turn makes its author a participant, in the statement that records it.
CREATE TRIGGER IF NOT EXISTS inbox_participant AFTER INSERT ON inbox BEGIN
    INSERT OR IGNORE INTO participants (conversation, user_key) VALUES (new.conversation, new.user_key);
END;

CREATE TABLE IF NOT EXISTS patches (
    patch_id     TEXT PRIMARY KEY,
    user_key     TEXT NOT NULL,
    conversation TEXT NOT NULL,
    ops          TEXT NOT NULL,          -- JSON of the approved ops
    undo         TEXT NOT NULL,          -- JSON: what to revert (created/superseded entries, goals)
    status       TEXT NOT NULL,          -- committed | undone
    committed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS patches_user ON patches (user_key, status, committed_at);

CREATE TABLE IF NOT EXISTS goals (
    id           INTEGER PRIMARY KEY,
    user_key     TEXT NOT NULL,
    domain       TEXT NOT NULL,
    goal         TEXT NOT NULL,
    status       TEXT NOT NULL,          -- active | replaced | undone
    patch_id     TEXT NOT NULL,
    set_at       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS goals_user ON goals (user_key, domain, status);

CREATE TABLE IF NOT EXISTS events (
    id           INTEGER PRIMARY KEY,
    conversation TEXT NOT NULL,
    user_key     TEXT NOT NULL,
    kind         TEXT NOT NULL,          -- CLARIFY | PLAN_PROGRESS | PLAN_APPROVAL_REQUIRED | DECISION | COMMITTED | UNDONE
    detail       TEXT NOT NULL,
    at           TEXT NOT NULL,
    turn_key     TEXT                    -- turn, kind and ordinal: a retried turn records each event once
);
CREATE INDEX IF NOT EXISTS events_conversation ON events (conversation, id);

CREATE TABLE IF NOT EXISTS conversations (
    conversation TEXT PRIMARY KEY,
    epoch        INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    user_key     TEXT PRIMARY KEY,
    timezone     TEXT
);
"""

# Columns added after the first release: (table, column, declaration), then what needs them.
_ADDED_COLUMNS = (
    ("inbox", "outcomes", "TEXT"),
    ("events", "turn_key", "TEXT"),
    ("inbox", "words", "TEXT"),
    ("received", "conversation", "TEXT NOT NULL DEFAULT ''"),
)
_AFTER_COLUMNS = """
CREATE UNIQUE INDEX IF NOT EXISTS events_turn ON events (turn_key) WHERE turn_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS inbox_words ON inbox (conversation, user_key, words);
"""


class DataDirError(Exception):
    """The data directory (or the database of ``DATABASE_URL``) cannot be used; the message says which and why."""


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def check_writable(data_dir: Path) -> None:
    """Fail early and clearly when the data directory cannot hold our files."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataDirError(f"cannot create DATA_DIR {data_dir}: {exc.strerror}") from None
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise DataDirError(f"DATA_DIR {data_dir} is not writable; choose another with DATA_DIR=…")


Dialect = Literal["sqlite", "postgres"]


class Conn(Protocol):
    """What the stores call on a connection: aiosqlite's, or `engine.store.pg_conn.PgConnection`."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...
    async def execute_fetchall(self, sql: str, parameters: Any = ..., /) -> Iterable[Any]: ...
    async def executemany(self, sql: str, parameters: Any, /) -> Any: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    async def close(self) -> None: ...


class Database:
    """One connection; ``lock`` serialises multi-statement transactions.

    On Postgres too, one connection per process: the stores' transactions are
    the same as on SQLite (a few statements under ``lock``), and what several
    processes share is ordered by Postgres, not by this lock.
    """

    def __init__(self, conn: Conn, dialect: Dialect = "sqlite") -> None:
        self.conn = conn
        self.dialect: Dialect = dialect
        self.lock = asyncio.Lock()

    @classmethod
    async def open_either(cls, url: str | None, path: Path) -> Database:
        """Postgres when a URL is given (``DATABASE_URL``), else the SQLite file at ``path``."""
        return await (cls.open_postgres(url) if url else cls.open(path))

    @classmethod
    async def open_postgres(cls, url: str) -> Database:
        """Connect to Postgres and bring its schema up to date (`engine.store.migrate`; safe when many start)."""
        from engine.store.migrate import migrate

        try:
            conn = await PgConnection.connect(url)
        except psycopg.OperationalError as exc:
            raise DataDirError(f"cannot reach the database at DATABASE_URL: {_first_line(exc)}") from None
        try:
            await migrate(conn.raw)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, "postgres")

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating if needed) and migrate the database.

        Raises:
            DataDirError: the file cannot be opened or written.
        """
        check_writable(path.parent)
        try:
            conn = await aiosqlite.connect(path)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA journal_size_limit=4194304")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.executescript(SCHEMA)
            await _add_columns(conn)
            await conn.executescript(_AFTER_COLUMNS)
            await derived.migrate(conn)  # whole-history tables (engine/store/derived.py)
            await conn.executescript(announced.SCHEMA)  # records said when logging (engine/store/records.py)
            await conn.executescript(summary_prefs.SCHEMA)  # weekly summaries and nudges (engine/summary)
            await conn.executescript(reminder_tables.SCHEMA)  # reminders and their sends (engine/reminders/store.py)
            await conn.commit()
        except sqlite3.OperationalError as exc:
            raise DataDirError(f"cannot write the database {path}: {exc}") from None
        conn.row_factory = aiosqlite.Row
        return cls(conn, "sqlite")

    @asynccontextmanager
    async def synced(self) -> AsyncIterator[Conn]:
        """A transaction that is on disk when it commits (``synchronous=FULL``), under `lock`.

        Use it for what a platform is told was received: a power cut right after
        the commit keeps it. Everything else stays on NORMAL (see the module doc).
        """
        async with self.lock:
            postgres = isinstance(self.conn, PgConnection)
            if isinstance(self.conn, PgConnection):
                # On disk before the platform is told, whatever the server's default (a server tuned for
                # throughput may run with synchronous_commit off).
                await self.conn.begin()
                await self.conn.execute("SET LOCAL synchronous_commit TO on")
            else:
                await self.conn.execute("PRAGMA synchronous=FULL")
            try:
                yield self.conn
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise
            finally:
                if not postgres:
                    await self.conn.execute("PRAGMA synchronous=NORMAL")

    async def purge_deleted_text(self) -> None:
        """Take deleted entries' words out of the full-text index, not only out of reach (``/forget``).

        FTS5 records a deletion in a new index segment and keeps the older
        segment, words and all, until segments merge; ``optimize`` merges them
        now (its cost grows with the index, and forget is rare).
        """
        if self.dialect == "postgres":
            return  # an expression index: a deleted row's words go with the row (and VACUUM)
        async with self.lock:
            await self.conn.execute("INSERT INTO entries_fts (entries_fts) VALUES ('optimize')")
            await self.conn.commit()

    async def close(self) -> None:
        await self.conn.close()


async def _add_columns(conn: aiosqlite.Connection) -> None:
    """Bring a database made by an older version up to the current columns."""
    for table, column, declaration in _ADDED_COLUMNS:
        async with conn.execute(f"PRAGMA table_info({table})") as cur:
            present = {row[1] for row in await cur.fetchall()}
        if column not in present:
            await conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
