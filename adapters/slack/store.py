"""What the Slack adapter must remember across restarts, in its own SQLite file (``slack.db`` in DATA_DIR).

- **seen**: event ids and ``(team, channel, ts)`` of handled posts, so a
  retried event, a Socket Mode redelivery or the ``app_mention`` twin of a
  ``message`` runs once. Written, together with the intake row, *before* the
  request is acknowledged.
- **intake**: each accepted post or slash command until the engine has
  handled it (then the row goes, and the person's words with it); rows a
  crash left run again at start-up.
- **threads**: threads Almanac owns (it started them, or was mentioned in
  them): follow-ups there need no mention, also after a restart.
- **latest**: each member's latest conversation per channel, which a
  ``/almanac status`` or ``cancel`` typed in the channel applies to.
- **prompts**: the open question or plan each conversation shows with
  buttons, so that a typed answer or ``cancel`` can take the buttons away.
- **claims**: messages whose buttons were pressed: a compare-and-set that
  lets exactly one press (of a double press, or of two workers) decide.

The engine's own stores are not touched: this is platform state only.

Every write is one transaction on the store's own thread, committed in groups
(`adapters.slack.sqlite_thread`).

Two processes open the file (WAL; every write transaction is ``BEGIN
IMMEDIATE``, so they take turns): the gateway writes what arrives (``seen``,
``intake``, owned threads from mentions, ``claims``) and the engine's process
what turns do (deleting handled rows, ``prompts``, ``latest``, threads it
starts, released claims).

Each trip to the store's thread costs a wake-up, so a turn makes one trip,
the durable `accept`: owned threads (only ever added; a miss reads the table,
where the other process may have added one) and, in the engine's process,
the conversations that show buttons (only that process writes them) are also
kept in memory, and a handled request's row is deleted without waiting
(`done`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from adapters.slack.sqlite_thread import SqliteThread

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
    interrupt_id TEXT NOT NULL, blocks TEXT NOT NULL, user TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS claims (channel TEXT, ts TEXT, at REAL NOT NULL, PRIMARY KEY (channel, ts));
"""
STORE_FILE = "slack.db"
"""Its name in DATA_DIR."""
OWNED_IN_MEMORY = 100_000
KEEP_SEEN_S = 3 * 24 * 3600
"""Slack retries for about 5 minutes and Socket Mode redelivers soon after a reconnect; days is plenty."""


@dataclass(frozen=True)
class Prompt:
    """An open question or plan on screen with its buttons."""

    channel: str
    ts: str
    interrupt_id: str
    blocks: list[dict[str, Any]]
    user: str = ""
    """The engine's user key of the member asked (their ``forget`` removes it)."""


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


class Store(Protocol):
    """What both processes ask of the platform state: `SlackStore` (``slack.db``, one Slack process) or
    `adapters.slack.pg_store.PgSlackStore` (Postgres, several replicas)."""

    async def accept(
        self, keys: list[str], queue: str, spec: dict[str, Any], thread: Thread | None = None
    ) -> int | None: ...
    def done(self, intake_id: int) -> None: ...
    async def pending(self) -> list[Pending]: ...
    async def own(self, team: str, channel: str, thread_ts: str) -> None: ...
    async def owns(self, team: str, channel: str, thread_ts: str) -> bool: ...
    async def set_latest(self, team: str, channel: str, user: str, conversation: str) -> None: ...
    async def latest(self, team: str, channel: str, user: str) -> str | None: ...
    async def set_prompt(self, conversation: str, prompt: Prompt) -> None: ...
    async def prompt(self, conversation: str) -> Prompt | None: ...
    async def drop_prompt(self, conversation: str, ts: str) -> None: ...
    async def forget_member(self, user_key: str) -> None: ...
    async def claim(self, channel: str, ts: str) -> bool: ...
    async def release(self, channel: str, ts: str) -> None: ...
    async def close(self) -> None: ...


class SlackStore:
    """The adapter's durable state; every write is committed before its method returns."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._db = SqliteThread("slack-store")
        self._owned: set[tuple[str, str, str]] = set()
        """Threads known to be owned (ownership is never taken back): no trip to the store for a follow-up."""
        self._prompted: set[str] = set()
        """Conversations that may have a prompt row: any other has none, and needs no trip to learn it."""

    @classmethod
    async def open(cls, path: Path) -> SlackStore:
        """Open (and create) the database file."""
        store = cls(path)
        await store._db.open(path, store._setup)
        return store

    def _setup(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged post must survive a power cut (Slack will not send it again).
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(_SCHEMA)
        if "user" not in {row[1] for row in db.execute("PRAGMA table_info(prompts)")}:  # made by an older version
            db.execute("ALTER TABLE prompts ADD COLUMN user TEXT NOT NULL DEFAULT ''")
        db.execute("DELETE FROM seen WHERE at < ?", (time.time() - KEEP_SEEN_S,))
        db.execute("DELETE FROM intake WHERE status = 'done'")  # rows of older versions
        self._prompted = {str(row[0]) for row in db.execute("SELECT conversation FROM prompts")}

    async def close(self) -> None:
        """Close the connection and the store's thread."""
        await self._db.close()

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
            if any(
                db.execute("INSERT OR IGNORE INTO seen (key, at) VALUES (?, ?)", (k, now)).rowcount == 0 for k in keys
            ):
                raise _Seen
            cur = db.execute("INSERT INTO intake (queue, spec, at) VALUES (?, ?, ?)", (queue, json.dumps(spec), now))
            if thread is not None:
                db.execute(
                    "INSERT OR IGNORE INTO threads (team, channel, thread_ts, at) VALUES (?, ?, ?, ?)",
                    (thread.team, thread.channel, thread.thread_ts, now),
                )
                db.execute(
                    "INSERT OR REPLACE INTO latest (team, channel, user, conversation) VALUES (?, ?, ?, ?)",
                    (thread.team, thread.channel, thread.user, thread.conversation),
                )
            return cur.lastrowid

        try:
            intake = await self._db.tx(accept)
        except _Seen:
            return None
        if thread is not None:
            self._remember_owned(thread.team, thread.channel, thread.thread_ts)
        return intake

    def done(self, intake_id: int) -> None:
        """The engine handled it: delete the row (and the person's words in it), so it never runs again.

        Nobody waits: the delete joins the next group commit, which is on disk
        before anything written after it. A crash before that runs the request
        again at start-up, and the engine, which knows the delivery id, gives
        back what it showed the first time.
        """
        self._db.write_soon("DELETE FROM intake WHERE id = ?", intake_id)

    async def pending(self) -> list[Pending]:
        """Accepted requests a crash interrupted, oldest first."""
        rows = await self._db.read("SELECT id, queue, spec FROM intake WHERE status = 'pending' ORDER BY id")
        return [Pending(row[0], row[1], json.loads(row[2])) for row in rows]

    # ------------------------------------------------------------------ threads and conversations

    async def own(self, team: str, channel: str, thread_ts: str) -> None:
        """Almanac takes part in this thread from now on."""
        await self._db.write(
            "INSERT OR IGNORE INTO threads (team, channel, thread_ts, at) VALUES (?, ?, ?, ?)",
            team,
            channel,
            thread_ts,
            time.time(),
        )
        self._remember_owned(team, channel, thread_ts)

    async def owns(self, team: str, channel: str, thread_ts: str) -> bool:
        """Whether Almanac takes part in this thread."""
        if (team, channel, thread_ts) in self._owned:
            return True
        sql = "SELECT 1 FROM threads WHERE team = ? AND channel = ? AND thread_ts = ?"
        owned = bool(await self._db.read(sql, team, channel, thread_ts))
        if owned:
            self._remember_owned(team, channel, thread_ts)
        return owned

    def _remember_owned(self, team: str, channel: str, thread_ts: str) -> None:
        if len(self._owned) >= OWNED_IN_MEMORY:
            self._owned.clear()  # the oldest are the least likely to be written in again; the table has them all
        self._owned.add((team, channel, thread_ts))

    async def set_latest(self, team: str, channel: str, user: str, conversation: str) -> None:
        """Remember a member's latest conversation in a channel."""
        await self._db.write(
            "INSERT OR REPLACE INTO latest (team, channel, user, conversation) VALUES (?, ?, ?, ?)",
            team,
            channel,
            user,
            conversation,
        )

    async def latest(self, team: str, channel: str, user: str) -> str | None:
        """A member's latest conversation in a channel, if any."""
        sql = "SELECT conversation FROM latest WHERE team = ? AND channel = ? AND user = ?"
        rows = await self._db.read(sql, team, channel, user)
        return str(rows[0][0]) if rows else None

    # ------------------------------------------------------------------ prompts and presses

    async def set_prompt(self, conversation: str, prompt: Prompt) -> None:
        """The conversation's question or plan now on screen."""
        sql = (
            "INSERT OR REPLACE INTO prompts (conversation, channel, ts, interrupt_id, blocks, user) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        self._prompted.add(conversation)
        await self._db.write(
            sql, conversation, prompt.channel, prompt.ts, prompt.interrupt_id, json.dumps(prompt.blocks), prompt.user
        )

    async def prompt(self, conversation: str) -> Prompt | None:
        """The conversation's question or plan on screen, if any."""
        if conversation not in self._prompted:
            return None
        sql = "SELECT channel, ts, interrupt_id, blocks, user FROM prompts WHERE conversation = ?"
        rows = await self._db.read(sql, conversation)
        return Prompt(rows[0][0], rows[0][1], rows[0][2], json.loads(rows[0][3]), rows[0][4]) if rows else None

    async def drop_prompt(self, conversation: str, ts: str) -> None:
        """Forget the prompt if it is still this message."""
        if await self._db.write("DELETE FROM prompts WHERE conversation = ? AND ts = ?", conversation, ts):
            self._prompted.discard(conversation)  # one row per conversation, and it is gone

    async def forget_member(self, user_key: str) -> None:
        """``forget``: drop the member's open prompts, whose blocks may quote them (thread ownership stays)."""
        await self._db.write("DELETE FROM prompts WHERE user = ?", user_key)

    async def claim(self, channel: str, ts: str) -> bool:
        """Take a message's buttons for one press; False when another press already took them."""
        sql = "INSERT OR IGNORE INTO claims (channel, ts, at) VALUES (?, ?, ?)"
        return await self._db.write(sql, channel, ts, time.time()) == 1

    async def release(self, channel: str, ts: str) -> None:
        """Give the buttons back (the press was refused, so the right press may still come)."""
        await self._db.write("DELETE FROM claims WHERE channel = ? AND ts = ?", channel, ts)


class _Seen(Exception):
    """A de-duplication key was there already: roll the transaction back."""
