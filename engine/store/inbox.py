"""Every incoming turn is written here before the model sees it, so nothing is lost.

A turn that failed (model down) stays ``failed`` and ``/retry`` runs it again.
Finished rows are pruned after a while; the entries they produced stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from engine.store.db import Database

InboxStatus = Literal["pending", "done", "failed"]


@dataclass(frozen=True)
class InboxItem:
    id: int
    conversation: str
    user_key: str
    kind: str
    payload: str
    status: str


class Inbox:
    """The durable record of incoming turns."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(
        self, conversation: str, user_key: str, kind: str, payload: str, message_id: str | None
    ) -> int | None:
        """Record a turn; ``None`` when the platform message id was seen before (a duplicate)."""
        now = datetime.now(timezone.utc).isoformat()
        async with self._db.lock:
            cur = await self._db.conn.execute(
                "INSERT OR IGNORE INTO inbox (conversation, user_key, kind, payload, message_id, "
                "status, received_at) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
                (conversation, user_key, kind, payload, message_id, now),
            )
            await self._db.conn.commit()
            return cur.lastrowid if cur.rowcount == 1 else None

    async def mark(self, item_id: int, status: InboxStatus, error: str | None = None) -> None:
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE inbox SET status = ?, error = ? WHERE id = ?", (status, error, item_id)
            )
            await self._db.conn.commit()

    async def failed(self, conversation: str, limit: int = 10) -> list[InboxItem]:
        """The conversation's failed turns, oldest first (``/retry`` runs them in order)."""
        async with self._db.conn.execute(
            "SELECT id, conversation, user_key, kind, payload, status FROM inbox "
            "WHERE conversation = ? AND status = 'failed' ORDER BY id LIMIT ?",
            (conversation, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [InboxItem(*r) for r in rows]

    async def prune(self, older_than: timedelta = timedelta(days=7)) -> int:
        """Delete finished rows older than ``older_than``; returns how many."""
        cutoff = (datetime.now(timezone.utc) - older_than).isoformat()
        async with self._db.lock:
            cur = await self._db.conn.execute(
                "DELETE FROM inbox WHERE status = 'done' AND received_at < ?", (cutoff,)
            )
            await self._db.conn.commit()
            return cur.rowcount


    async def forget_user(self, user_key: str) -> None:
        """Drop a user's recorded turns (``/forget``)."""
        async with self._db.lock:
            await self._db.conn.execute("DELETE FROM inbox WHERE user_key = ?", (user_key,))
            await self._db.conn.commit()


class Conversations:
    """Conversation epochs (``reset`` starts a new thread) and per-user settings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def thread_id(self, conversation: str) -> str:
        """The LangGraph thread of a conversation's current epoch."""
        async with self._db.conn.execute(
            "SELECT epoch FROM conversations WHERE conversation = ?", (conversation,)
        ) as cur:
            row = await cur.fetchone()
        return f"{conversation}#{row[0] if row else 0}"

    async def new_epoch(self, conversation: str) -> str:
        """Start a new thread for the conversation; returns its id."""
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO conversations (conversation, epoch) VALUES (?, 1) "
                "ON CONFLICT (conversation) DO UPDATE SET epoch = epoch + 1",
                (conversation,),
            )
            await self._db.conn.commit()
        return await self.thread_id(conversation)

    async def timezone(self, user_key: str) -> str | None:
        async with self._db.conn.execute(
            "SELECT timezone FROM users WHERE user_key = ?", (user_key,)
        ) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row and row[0] else None

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
