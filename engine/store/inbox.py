"""Every incoming turn is written here before the model sees it, so nothing is lost.

Two records, one per layer:

- ``received`` (`Deliveries`): what a platform delivered, as its own JSON,
  written in one fsynced transaction per batch *before* the platform is told
  it arrived (the next ``getUpdates`` offset, a webhook's 200, Slack's ack),
  and marked done once the adapter handled it. After a crash the adapter
  dispatches what is not done again; a delivery id seen before is not.
- ``inbox`` (`Inbox`): the engine's turns, keyed by the platform's delivery id
  where there is one. A turn is ``pending`` while it runs, then ``done`` or
  ``failed`` with what the person was shown. Rows still ``pending`` when the
  engine starts were cut off by a crash and become ``interrupted``: the same
  delivery arriving again runs them (once), ``/retry`` runs them too.
  ``deferred`` rows arrived while a question or plan awaited a decision and
  run after it.

Finished rows are pruned after a while; the entries they produced stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from engine.boundary import Delivery
from engine.store.db import Database

InboxStatus = Literal["pending", "deferred", "done", "failed", "interrupted"]
UNFINISHED: tuple[InboxStatus, ...] = ("failed", "interrupted")
"""Turns that did not complete: what ``/retry`` runs."""
_COLUMNS = "id, conversation, user_key, kind, payload, status, error, outcomes, message_id"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass(frozen=True)
class InboxItem:
    id: int
    conversation: str
    user_key: str
    kind: str
    payload: str
    status: str
    error: str | None = None
    outcomes: str | None = None
    """JSON of the outcomes the person was shown (done and failed turns)."""
    message_id: str | None = None


class Inbox:
    """The durable record of incoming turns."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(
        self,
        conversation: str,
        user_key: str,
        kind: str,
        payload: str,
        message_id: str | None,
        status: InboxStatus = "pending",
        words: str | None = None,
    ) -> int | None:
        """Record a turn; ``None`` when the platform message id was seen before (see `find`).

        The author becomes a participant of the conversation in the same statement (a trigger, ``db.SCHEMA``).

        Args:
            words: a message's text as a resend is compared (``engine.runtime.repeats.words``), so that
                `recent_messages` finds the same words by index.
        """
        async with self._db.lock:
            # RETURNING gives the new id, and nothing when the row was ignored: one call, no cursor to ask.
            rows = list(
                await self._db.conn.execute_fetchall(
                    "INSERT INTO inbox (conversation, user_key, kind, payload, message_id, status, received_at, words) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                    (conversation, user_key, kind, payload, message_id, status, _now(), words),
                )
            )
            await self._db.conn.commit()
        return int(rows[0][0]) if rows else None

    async def find(self, conversation: str, message_id: str) -> InboxItem | None:
        """The turn recorded for a platform delivery id, if any."""
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {_COLUMNS} FROM inbox WHERE conversation = ? AND message_id = ?", (conversation, message_id)
        )
        return next((InboxItem(*r) for r in rows), None)

    async def get(self, item_id: int) -> InboxItem | None:
        """A recorded turn by its id."""
        rows = await self._db.conn.execute_fetchall(f"SELECT {_COLUMNS} FROM inbox WHERE id = ?", (item_id,))
        return next((InboxItem(*r) for r in rows), None)

    async def mark(
        self, item_id: int, status: InboxStatus, error: str | None = None, outcomes: str | None = None
    ) -> None:
        """Set a turn's status; a finished turn keeps what the person was shown."""
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE inbox SET status = ?, error = ?, outcomes = coalesce(?, outcomes) WHERE id = ?",
                (status, error, outcomes, item_id),
            )
            await self._db.conn.commit()

    async def items(self, conversation: str, statuses: Sequence[InboxStatus], limit: int = 100) -> list[InboxItem]:
        """The conversation's turns in these states, oldest first."""
        marks = ",".join("?" * len(statuses))
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {_COLUMNS} FROM inbox WHERE conversation = ? AND status IN ({marks}) ORDER BY id LIMIT ?",
            (conversation, *statuses, limit),
        )
        return [InboxItem(*r) for r in rows]

    async def recent_messages(
        self, conversation: str, user_key: str, since: datetime, words: str | None = None
    ) -> list[InboxItem]:
        """The user's finished messages in a conversation recorded since ``since``, newest first.

        With ``words``, only those recorded with these words and those recorded without any (by
        versions before the column): the caller compares their text itself.
        """
        recent = "conversation = ? AND user_key = ? AND status = 'done' AND kind = 'message' AND received_at >= ?"
        args = (conversation, user_key, since.astimezone(timezone.utc).isoformat())
        if words is None:
            rows = await self._db.conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM inbox WHERE {recent} ORDER BY id DESC", args
            )
        else:
            # Two lookups of inbox_words rather than one "words = ? OR words IS NULL", which no index serves.
            rows = await self._db.conn.execute_fetchall(
                f"SELECT {_COLUMNS} FROM inbox WHERE words = ? AND {recent} UNION ALL "
                f"SELECT {_COLUMNS} FROM inbox WHERE words IS NULL AND {recent} ORDER BY id DESC",
                (words, *args, *args),
            )
        return [InboxItem(*r) for r in rows]

    async def failed(self, conversation: str, limit: int = 100) -> list[InboxItem]:
        """The conversation's turns that did not complete (failed or cut off), oldest first."""
        return await self.items(conversation, UNFINISHED, limit)

    async def interrupt_pending(self) -> int:
        """At start-up: turns still ``pending`` were cut off by a crash; returns how many.

        A process alone on its database only; with several (Postgres) see `engine.runtime.shared`.
        """
        async with self._db.lock:
            cur = await self._db.conn.execute("UPDATE inbox SET status = 'interrupted' WHERE status = 'pending'")
            await self._db.conn.commit()
            return int(cur.rowcount)

    async def prune(self, older_than: timedelta = timedelta(days=7)) -> int:
        """Delete finished rows older than ``older_than``; returns how many."""
        cutoff = (datetime.now(timezone.utc) - older_than).isoformat()
        async with self._db.lock:
            cur = await self._db.conn.execute("DELETE FROM inbox WHERE status = 'done' AND received_at < ?", (cutoff,))
            await self._db.conn.execute("DELETE FROM received WHERE status = 'done' AND received_at < ?", (cutoff,))
            await self._db.conn.commit()
            return int(cur.rowcount)

    async def conversations_of(self, user_key: str) -> list[str]:
        """Every conversation the user took part in."""
        async with self._db.conn.execute(
            "SELECT conversation FROM participants WHERE user_key = ?", (user_key,)
        ) as cur:
            return [str(r[0]) for r in await cur.fetchall()]

    async def forget_user(self, user_key: str) -> None:
        """Drop a user's recorded turns and deliveries (``/forget``)."""
        async with self._db.lock:
            for table in ("inbox", "received", "participants"):
                await self._db.conn.execute(f"DELETE FROM {table} WHERE user_key = ?", (user_key,))
            await self._db.conn.commit()


class Deliveries:
    """The ``received`` table: recorded before the platform is told, done once handled."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def receive(self, source: str, deliveries: Sequence[Delivery]) -> list[str]:
        """Record deliveries in one transaction that is on disk when this returns; the ids not seen before."""
        if not deliveries:
            return []
        fresh: list[str] = []
        now = _now()
        async with self._db.synced() as conn:
            for d in deliveries:
                cur = await conn.execute(
                    "INSERT INTO received (source, delivery_id, user_key, payload, status, received_at, conversation) "
                    "VALUES (?, ?, ?, ?, 'new', ?, ?) ON CONFLICT DO NOTHING",
                    (source, d.id, d.user, d.payload, now, d.conversation),
                )
                if cur.rowcount == 1:
                    fresh.append(d.id)
            if fresh and self._db.dialect == "postgres":  # wakes the workers (engine/runtime/shared.py), at commit
                await conn.execute("SELECT pg_notify('almanac_work', ?)", (source,))
        return fresh

    async def unfinished(self, source: str) -> list[Delivery]:
        """Deliveries recorded but not handled (a crash came between), in arrival order."""
        async with self._db.conn.execute(
            "SELECT delivery_id, payload, user_key, note, conversation FROM received "
            "WHERE source = ? AND status = 'new' ORDER BY id",
            (source,),
        ) as cur:
            rows = await cur.fetchall()
        return [Delivery(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]

    async def finish(self, source: str, ids: Sequence[str]) -> None:
        """Mark deliveries handled."""
        async with self._db.lock:
            await self._db.conn.executemany(
                "UPDATE received SET status = 'done' WHERE source = ? AND delivery_id = ?", [(source, i) for i in ids]
            )
            await self._db.conn.commit()

    async def note(self, source: str, delivery_id: str, note: str) -> None:
        """Keep the adapter's note with a delivery (read back with `unfinished`)."""
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE received SET note = ? WHERE source = ? AND delivery_id = ?", (note, source, delivery_id)
            )
            await self._db.conn.commit()


@dataclass(frozen=True)
class Arrival:
    """What the engine needs to know of a conversation when a turn arrives, read in one query."""

    thread: str
    """The LangGraph thread of the conversation's current epoch."""
    timezone: str | None
    """The person's time zone, if they set one."""
    held: bool
    """Messages held while a decision was open are waiting in this conversation."""
    seen: int | None
    """The inbox item already recorded under the turn's delivery id, if any."""


def _thread(conversation: str, epoch: object) -> str:
    return f"{conversation}#{epoch if epoch is not None else 0}"


class Conversations:
    """Conversation epochs (``reset`` starts a new thread) and per-user settings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def arrival(self, conversation: str, user_key: str, message_id: str | None) -> Arrival:
        """Thread, time zone, held messages and an earlier delivery of the same id, in one query."""
        rows = list(
            await self._db.conn.execute_fetchall(
                "SELECT (SELECT epoch FROM conversations WHERE conversation = :c), "
                "(SELECT timezone FROM users WHERE user_key = :u), "
                "EXISTS (SELECT 1 FROM inbox WHERE conversation = :c AND status = 'deferred'), "
                "(SELECT id FROM inbox WHERE conversation = :c AND message_id = :m)",
                {"c": conversation, "u": user_key, "m": message_id},
            )
        )
        epoch, tz, held, seen = rows[0]
        return Arrival(_thread(conversation, epoch), str(tz) if tz else None, bool(held), seen)

    async def thread_id(self, conversation: str) -> str:
        """The LangGraph thread of a conversation's current epoch."""
        rows = await self._db.conn.execute_fetchall(
            "SELECT epoch FROM conversations WHERE conversation = ?", (conversation,)
        )
        return _thread(conversation, next((r[0] for r in rows), None))

    async def new_epoch(self, conversation: str) -> str:
        """Start a new thread for the conversation; returns its id."""
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO conversations (conversation, epoch) VALUES (?, 1) "
                "ON CONFLICT (conversation) DO UPDATE SET epoch = conversations.epoch + 1",
                (conversation,),
            )
            await self._db.conn.commit()
        return await self.thread_id(conversation)

    async def timezone(self, user_key: str) -> str | None:
        rows = await self._db.conn.execute_fetchall("SELECT timezone FROM users WHERE user_key = ?", (user_key,))
        tz = next((r[0] for r in rows), None)
        return str(tz) if tz else None

    async def forget_user(self, user_key: str) -> None:
        async with self._db.lock:
            await self._db.conn.execute("DELETE FROM users WHERE user_key = ?", (user_key,))
            await self._db.conn.commit()

    async def set_timezone(self, user_key: str, tz: str) -> None:
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO users (user_key, timezone) VALUES (?, ?) "
                "ON CONFLICT (user_key) DO UPDATE SET timezone = excluded.timezone",
                (user_key, tz),
            )
            await self._db.conn.commit()
