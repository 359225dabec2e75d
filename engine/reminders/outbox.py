"""Messages Almanac sends first, other than reminders (a weekly summary, a nudge, today's planned session):
recorded before sent, like reminder occurrences (:mod:`engine.reminders.store`).

A row is inserted in the same transaction that claims the occasion (``key`` is unique, so a second claim
of one occasion inserts nothing), pushed by the scheduler, and marked sent after the platform took it. A
crash between the claim and the send leaves the row claimed, and the next pass sends it once; a crash
between the send and the mark sends it again (no chat platform takes an idempotency key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from pydantic import TypeAdapter

from engine.outcomes import Outcome
from engine.store.db import Conn, Database

# The table is created with the reminder tables (engine/store/reminder_tables.py).


_OUTCOMES: TypeAdapter[list[Outcome]] = TypeAdapter(list[Outcome])


def _utc(at: datetime) -> str:
    return at.astimezone(timezone.utc).isoformat()


@dataclass(frozen=True, slots=True)
class Pending:
    """A claimed message waiting to be pushed."""

    id: int
    key: str
    conversation: str
    outcomes: list[Outcome]
    due_at: datetime


async def insert(
    conn: Conn, key: str, user: str, conversation: str, outcomes: Sequence[Outcome], due: datetime
) -> bool:
    """Record a claimed message inside the caller's transaction (no commit); False when ``key`` was claimed."""
    cur = await conn.execute(
        "INSERT INTO outbox (key, user_key, conversation, platform, outcomes, due_at, status) "
        "VALUES (?, ?, ?, ?, ?, ?, 'claimed') ON CONFLICT DO NOTHING",
        (
            key,
            user,
            conversation,
            conversation.split(":", 1)[0],
            _OUTCOMES.dump_json(list(outcomes)).decode(),
            _utc(due),
        ),
    )
    return bool(cur.rowcount == 1)


class Outbox:
    """The claimed messages of the registered platforms, and their marks."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, key: str, user: str, conversation: str, outcomes: Sequence[Outcome], due: datetime) -> bool:
        """Claim an occasion no other table claims (one transaction of its own)."""
        async with self._db.lock:
            claimed = await insert(self._db.conn, key, user, conversation, outcomes, due)
            await self._db.conn.commit()
        return claimed

    async def pending(self, platforms: Sequence[str]) -> list[Pending]:
        if not platforms:
            return []
        marks = ", ".join("?" for _ in platforms)
        async with self._db.conn.execute(
            f"SELECT id, key, conversation, outcomes, due_at FROM outbox WHERE status = 'claimed' "
            f"AND platform IN ({marks}) ORDER BY due_at, id",
            tuple(platforms),
        ) as cur:
            rows = list(await cur.fetchall())
        return [
            Pending(r["id"], r["key"], r["conversation"], _OUTCOMES.validate_json(r["outcomes"]),
                    datetime.fromisoformat(r["due_at"]))
            for r in rows
        ]  # fmt: skip

    async def mark(self, pending: Pending, status: str, now: datetime) -> None:
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE outbox SET status = ?, sent_at = ? WHERE id = ? AND status = 'claimed'",
                (status, _utc(now), pending.id),
            )
            await self._db.conn.commit()

    async def forget_user(self, user: str) -> None:
        async with self._db.lock:
            await self._db.conn.execute("DELETE FROM outbox WHERE user_key = ?", (user,))
            await self._db.conn.commit()
