"""What the Slack adapter must remember across restarts, in its own SQLite file (``slack.db`` in DATA_DIR).

- **seen**: event ids and ``(team, channel, ts)`` of handled posts, so a
  retried event, a Socket Mode redelivery or the ``app_mention`` twin of a
  ``message`` runs once. Written, together with the intake row, *before* the
  request is acknowledged.
- **intake**: each accepted post or slash command until the engine has
  handled it; rows left ``pending`` by a crash run again at start-up.
- **threads**: threads Almanac owns (it started them, or was mentioned in
  them): follow-ups there need no mention, also after a restart.
- **latest**: each member's latest conversation per channel, which a
  ``/almanac status`` or ``cancel`` typed in the channel applies to.
- **prompts**: the open question or plan each conversation shows with
  buttons, so that a typed answer or ``cancel`` can take the buttons away.
- **claims**: messages whose buttons were pressed: a compare-and-set that
  lets exactly one press (of a double press, or of two workers) decide.

The engine's own stores are not touched: this is platform state only.

Every method is one whole transaction run on the store's own thread
(standard ``sqlite3``, one connection). With aiosqlite a transaction spans
several awaits, and on a busy event loop the gap between an INSERT and its
COMMIT grows to seconds while the write lock is held; here a transaction
never waits for a loop, and both loops (intake and turns) share the store.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS intake (
    id INTEGER PRIMARY KEY AUTOINCREMENT, queue TEXT NOT NULL, spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS intake_pending ON intake (status, id);
CREATE TABLE IF NOT EXISTS threads (team TEXT, channel TEXT, thread_ts TEXT, at REAL NOT NULL,
    PRIMARY KEY (team, channel, thread_ts));
CREATE TABLE IF NOT EXISTS latest (team TEXT, channel TEXT, user TEXT, conversation TEXT NOT NULL,
    PRIMARY KEY (team, channel, user));
CREATE TABLE IF NOT EXISTS prompts (conversation TEXT PRIMARY KEY, channel TEXT NOT NULL, ts TEXT NOT NULL,
    interrupt_id TEXT NOT NULL, blocks TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS claims (channel TEXT, ts TEXT, at REAL NOT NULL, PRIMARY KEY (channel, ts));
"""
KEEP_SEEN_S = 3 * 24 * 3600
"""Slack retries for about 5 minutes and Socket Mode redelivers soon after a reconnect; days is plenty."""


@dataclass(frozen=True)
class Prompt:
    """An open question or plan on screen with its buttons."""

    channel: str
    ts: str
    interrupt_id: str
    blocks: list[dict[str, Any]]


@dataclass(frozen=True)
class Thread:
    """A member's conversation in a channel thread."""

    team: str
    channel: str
    thread_ts: str
    user: str
    conversation: str


@dataclass(frozen=True)
class Pending:
    """An accepted request the engine has not finished."""

    id: int
    queue: str
    spec: dict[str, Any]


class SlackStore:
    """The adapter's durable state; every write is committed before its method returns."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="slack-store")
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._batch: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.AbstractEventLoop, asyncio.Future[Any]]] = []
        self._flushing = False

    @classmethod
    async def open(cls, path: Path) -> SlackStore:
        """Open (and create) the database file."""
        store = cls(path)
        await store._run(store._open)
        return store

    def _open(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self._path, isolation_level=None)  # transactions are explicit below
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged post must survive a power cut (Slack will not send it again).
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(_SCHEMA)
        db.execute("DELETE FROM seen WHERE at < ?", (time.time() - KEEP_SEEN_S,))
        db.execute("DELETE FROM intake WHERE status = 'done'")
        self._db = db

    async def close(self) -> None:
        """Close the connection and the store's thread."""
        if self._db is not None:
            await self._run(self._db.close)
            self._db = None
        self._pool.shutdown(wait=True)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def _tx(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in a write transaction, committed before this returns.

        Group commit: writes that arrive while the store's thread is busy
        (an fsync takes a while) wait and then share one transaction and one
        fsync, each in its own savepoint, so a burst of events is acknowledged
        in one disk write instead of hundreds in a row.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._batch.append((fn, loop, done))
            start, self._flushing = not self._flushing, True
        if start:
            self._pool.submit(self._flush)
        return await done

    def _flush(self) -> None:
        with self._lock:
            batch, self._batch, self._flushing = self._batch, [], False
        db = self._db
        settled: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            assert db is not None, "the store is closed"
            db.execute("BEGIN IMMEDIATE")
            for fn, loop, done in batch:
                db.execute("SAVEPOINT one")
                try:
                    settled.append((loop, done, fn(db), None))
                    db.execute("RELEASE one")
                except Exception as exc:  # this write alone is undone (e.g. a seen key)
                    db.execute("ROLLBACK TO one")
                    db.execute("RELEASE one")
                    settled.append((loop, done, None, exc))
            db.execute("COMMIT")
        except BaseException as exc:  # nothing of the batch is stored: every writer hears so
            if db is not None and db.in_transaction:
                db.execute("ROLLBACK")
            settled = [(loop, done, None, exc) for _, loop, done in batch]
        for loop, done, result, error in settled:
            loop.call_soon_threadsafe(_settle, done, result, error)

    async def _write(self, sql: str, *args: Any) -> int:
        """One statement, committed; the number of rows it changed."""
        return await self._tx(lambda db: db.execute(sql, args).rowcount)

    def _read(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        assert self._db is not None, "the store is closed"
        return self._db.execute(sql, args).fetchall()

    # ------------------------------------------------------------------ intake

    async def accept(
        self, keys: list[str], queue: str, spec: dict[str, Any], thread: Thread | None = None
    ) -> int | None:
        """Record a request once: its de-duplication keys and its intake row, in one transaction (one fsync).

        Args:
            thread: a channel thread the request takes place in: Almanac owns it from now on, and it
                is the member's latest conversation in that channel.

        Returns:
            The intake id, or None when any key was seen before (a retry, a redelivery, a twin).
        """

        def accept(db: sqlite3.Connection) -> int | None:
            now = time.time()
            if any(db.execute("INSERT OR IGNORE INTO seen (key, at) VALUES (?, ?)", (k, now)).rowcount == 0
                   for k in keys):
                raise _Seen
            cur = db.execute("INSERT INTO intake (queue, spec, at) VALUES (?, ?, ?)", (queue, json.dumps(spec), now))
            if thread is not None:
                db.execute("INSERT OR IGNORE INTO threads (team, channel, thread_ts, at) VALUES (?, ?, ?, ?)",
                           (thread.team, thread.channel, thread.thread_ts, now))
                db.execute("INSERT OR REPLACE INTO latest (team, channel, user, conversation) VALUES (?, ?, ?, ?)",
                           (thread.team, thread.channel, thread.user, thread.conversation))
            return cur.lastrowid

        try:
            return await self._tx(accept)
        except _Seen:
            return None

    async def done(self, intake_id: int) -> None:
        """The engine handled it: do not run it again after a restart."""
        await self._write("UPDATE intake SET status = 'done' WHERE id = ?", intake_id)

    async def pending(self) -> list[Pending]:
        """Accepted requests a crash interrupted, oldest first."""
        rows = await self._run(self._read, "SELECT id, queue, spec FROM intake WHERE status = 'pending' ORDER BY id")
        return [Pending(row[0], row[1], json.loads(row[2])) for row in rows]

    # ------------------------------------------------------------------ threads and conversations

    async def own(self, team: str, channel: str, thread_ts: str) -> None:
        """Almanac takes part in this thread from now on."""
        await self._write("INSERT OR IGNORE INTO threads (team, channel, thread_ts, at) VALUES (?, ?, ?, ?)",
                        team, channel, thread_ts, time.time())

    async def owns(self, team: str, channel: str, thread_ts: str) -> bool:
        """Whether Almanac takes part in this thread."""
        sql = "SELECT 1 FROM threads WHERE team = ? AND channel = ? AND thread_ts = ?"
        return bool(await self._run(self._read, sql, team, channel, thread_ts))

    async def set_latest(self, team: str, channel: str, user: str, conversation: str) -> None:
        """Remember a member's latest conversation in a channel."""
        await self._write("INSERT OR REPLACE INTO latest (team, channel, user, conversation) VALUES (?, ?, ?, ?)",
                        team, channel, user, conversation)

    async def latest(self, team: str, channel: str, user: str) -> str | None:
        """A member's latest conversation in a channel, if any."""
        sql = "SELECT conversation FROM latest WHERE team = ? AND channel = ? AND user = ?"
        rows = await self._run(self._read, sql, team, channel, user)
        return str(rows[0][0]) if rows else None

    # ------------------------------------------------------------------ prompts and presses

    async def set_prompt(self, conversation: str, prompt: Prompt) -> None:
        """The conversation's question or plan now on screen."""
        sql = "INSERT OR REPLACE INTO prompts (conversation, channel, ts, interrupt_id, blocks) VALUES (?, ?, ?, ?, ?)"
        await self._write(sql, conversation, prompt.channel, prompt.ts, prompt.interrupt_id,
                        json.dumps(prompt.blocks))

    async def prompt(self, conversation: str) -> Prompt | None:
        """The conversation's question or plan on screen, if any."""
        sql = "SELECT channel, ts, interrupt_id, blocks FROM prompts WHERE conversation = ?"
        rows = await self._run(self._read, sql, conversation)
        return Prompt(rows[0][0], rows[0][1], rows[0][2], json.loads(rows[0][3])) if rows else None

    async def drop_prompt(self, conversation: str, ts: str) -> None:
        """Forget the prompt if it is still this message."""
        await self._write("DELETE FROM prompts WHERE conversation = ? AND ts = ?", conversation, ts)

    async def claim(self, channel: str, ts: str) -> bool:
        """Take a message's buttons for one press; False when another press already took them."""
        sql = "INSERT OR IGNORE INTO claims (channel, ts, at) VALUES (?, ?, ?)"
        return await self._write(sql, channel, ts, time.time()) == 1

    async def release(self, channel: str, ts: str) -> None:
        """Give the buttons back (the press was refused, so the right press may still come)."""
        await self._write("DELETE FROM claims WHERE channel = ? AND ts = ?", channel, ts)


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


class _Seen(Exception):
    """A de-duplication key was there already: roll the transaction back."""
