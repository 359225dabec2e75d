"""Reminders kept in the database, and each occurrence of one recorded before it is sent (issue 25).

Two tables. ``reminders`` holds what the person asked for, with its next due instant (the one
reading of a schedule is `engine.reminders.schedule.next_due`). ``reminder_sends`` is keyed by
(reminder, due instant): the scheduler *claims* an occurrence by inserting its row and advancing
``next_due`` in one transaction, before anything is sent; then it sends, then marks the row sent.
A crash between claim and send leaves the row ``claimed``: the next start sends it (once). A crash
between a send returning and its mark leaves it ``claimed`` too, and it is sent again — the one
window where a reminder can arrive twice (no platform has an idempotent send; ``bench/reminder_crash.py``
measures it).

An occurrence claimed later than the grace period after its due instant is not sent: it is
``missed`` and the next ``/reminders`` lists it once. A repeating reminder claims only its latest
occurrence, never the burst it missed while the bot was down.

Instants are stored as fixed-width UTC text (`stamp`), so text order is time order and indexes
serve every comparison.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

from engine.reminders.model import (
    OCCURRENCE_COLUMNS,
    REMINDER_COLUMNS,
    Occurrence,
    Reminder,
    SendStatus,
    Status,
    occurrence_of,
    reminder_of,
    stamp,
    unstamp,
)
from engine.reminders.schedule import Schedule, next_due
from engine.store.db import Database

__all__ = ["Occurrence", "Reminder", "ReminderStore", "SendStatus", "Status", "due_after", "latest_due", "stamp"]

_MAX_STEPS = 10_000
"""Occurrences walked to find a repeating reminder's latest one (daily for 27 years)."""


def _platform_filter(platforms: Sequence[str]) -> str:
    """SQL keeping the conversations of these platforms (``tg`` in ``tg:123``); the values are bound."""
    marks = ",".join("?" * len(platforms))
    # A key with no ':' is no platform's: SQLite's substr(…, -1) gives '' there, Postgres's raises an error.
    prefix = "CASE WHEN instr(conversation, ':') > 0 THEN substr(conversation, 1, instr(conversation, ':') - 1) END"
    return f"{prefix} IN ({marks})"


def due_after(schedule: Schedule, after: datetime) -> datetime | None:
    """The reminder's next time after ``after``: `next_due`, the one reading (None: a once that passed)."""
    return next_due(schedule, after)


def latest_due(schedule: Schedule, due: datetime, now: datetime) -> datetime:
    """The latest occurrence at or before ``now``, from a due one: a repeating reminder that missed several
    sends only the last (a reminder is a nudge, not a backlog)."""
    latest = due
    for _ in range(_MAX_STEPS):
        following = due_after(schedule, latest)
        if following is None or following > now:
            break
        latest = following
    return latest


class ReminderStore:
    """The ``reminders`` and ``reminder_sends`` tables; `changed` is set by every write the scheduler must see."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.changed = asyncio.Event()
        """Set when a reminder is made, changed or claimed: the scheduler wakes and reads the due times again."""

    async def propose(
        self, user: str, conversation: str, what: str, schedule: Schedule, due: datetime, language: str, now: datetime
    ) -> Reminder:
        """Keep a reminder waiting for the person's yes (``proposed``: it never fires until `confirm`)."""
        async with self._db.lock:
            rows = list(
                await self._db.conn.execute_fetchall(
                    "INSERT INTO reminders (user_key, conversation, what, schedule, next_due, status, language, "
                    f"created_at) VALUES (?, ?, ?, ?, ?, 'proposed', ?, ?) RETURNING {REMINDER_COLUMNS}",
                    (user, conversation, what, schedule.model_dump_json(), stamp(due), language, stamp(now)),
                )
            )
            await self._db.conn.commit()
        return reminder_of(rows[0])

    async def get(self, reminder_id: int) -> Reminder | None:
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {REMINDER_COLUMNS} FROM reminders WHERE id = ?", (reminder_id,)
        )
        return next((reminder_of(r) for r in rows), None)

    async def of_user(self, user: str, statuses: Sequence[Status] = ("active",)) -> list[Reminder]:
        """The person's reminders in these states, soonest first."""
        marks = ",".join("?" * len(statuses))
        rows = await self._db.conn.execute_fetchall(
            # NULLS FIRST: where SQLite puts a reminder with no next due; Postgres would put it last.
            f"SELECT {REMINDER_COLUMNS} FROM reminders WHERE user_key = ? AND status IN ({marks}) "
            "ORDER BY next_due NULLS FIRST, id",
            (user, *statuses),
        )
        return [reminder_of(r) for r in rows]

    async def update(self, reminder_id: int, *, was: Reminder, status: Status, due: datetime | None) -> bool:
        """Set status and next due only if the reminder is still as ``was`` read it (a second press of the
        same button, or one racing the scheduler, changes nothing); True when it changed."""
        async with self._db.lock:
            cur = await self._db.conn.execute(
                # "IS ?" is SQLite's alone; this reads the same on both engines (and on SQLite before 3.39).
                "UPDATE reminders SET status = ?, next_due = ? WHERE id = ? AND status = ? "
                "AND (next_due = ? OR (next_due IS NULL AND CAST(? AS TEXT) IS NULL))",
                (
                    status,
                    stamp(due) if due else None,
                    reminder_id,
                    was.status,
                    stamp(was.next_due) if was.next_due else None,
                    stamp(was.next_due) if was.next_due else None,
                ),
            )
            if status == "deleted":  # claimed but not yet sent: not sent after all
                await self._db.conn.execute(
                    "UPDATE reminder_sends SET status = 'missed', shown = 1 WHERE reminder_id = ? AND status = 'claimed'",
                    (reminder_id,),
                )
            await self._db.conn.commit()
        await self._changed()
        return bool(cur.rowcount == 1)

    async def earliest(self, platforms: Sequence[str]) -> datetime | None:
        """The soonest due instant of an active reminder of these platforms (the ``reminders_due`` index)."""
        rows = list(
            await self._db.conn.execute_fetchall(
                f"SELECT min(next_due) FROM reminders WHERE status = 'active' AND next_due IS NOT NULL "
                f"AND {_platform_filter(platforms)}",
                tuple(platforms),
            )
        )
        value = rows[0][0] if rows else None
        return unstamp(str(value)) if value else None

    async def claim_due(
        self, now: datetime, platforms: Sequence[str], grace: timedelta, late_after: timedelta, limit: int = 100
    ) -> int:
        """Claim every occurrence due by ``now``: its send row and the reminder's next due instant, in one
        transaction, before anything is sent. Older than ``grace``: recorded ``missed``, never sent.

        Returns:
            How many occurrences were claimed (to send or missed).
        """
        async with self._db.lock:
            rows = list(
                await self._db.conn.execute_fetchall(
                    "SELECT id, user_key, schedule, next_due FROM reminders WHERE status = 'active' AND next_due <= ? "
                    f"AND {_platform_filter(platforms)} ORDER BY next_due LIMIT ?",
                    (stamp(now), *platforms, limit),
                )
            )
            for rid, user, raw, due_text in rows:
                schedule = Schedule.model_validate_json(str(raw))
                due = latest_due(schedule, unstamp(str(due_text)), now)
                missed = now - due > grace
                await self._db.conn.execute(
                    "INSERT INTO reminder_sends (reminder_id, due, user_key, status, late, claimed_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (rid, stamp(due), user, "missed" if missed else "claimed", int(now - due > late_after), stamp(now)),
                )
                following = due_after(schedule, max(due, now))
                await self._db.conn.execute(
                    "UPDATE reminders SET next_due = ?, status = ?, last_fired = ? WHERE id = ?",
                    (stamp(following) if following else None, "active" if following else "done", stamp(due), rid),
                )
            await self._db.conn.commit()
        return len(rows)

    async def claimed(self, platforms: Sequence[str]) -> list[Occurrence]:
        """Occurrences claimed and not yet sent, oldest first (after a crash: those the kill cut off)."""
        filter_ = _platform_filter(platforms).replace("conversation", "r.conversation")
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {OCCURRENCE_COLUMNS} FROM reminder_sends s JOIN reminders r ON r.id = s.reminder_id "
            f"WHERE s.status = 'claimed' AND {filter_} ORDER BY s.due",
            tuple(platforms),
        )
        return [occurrence_of(r) for r in rows]

    async def mark(self, occurrence: Occurrence, status: SendStatus, now: datetime) -> None:
        """Record that an occurrence was sent (or, past the grace period at its send, missed)."""
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE reminder_sends SET status = ?, sent_at = ? WHERE reminder_id = ? AND due = ? "
                "AND status = 'claimed'",
                (status, stamp(now) if status == "sent" else None, occurrence.reminder_id, stamp(occurrence.due)),
            )
            await self._db.conn.commit()

    async def occurrence(self, reminder_id: int, due: datetime) -> Occurrence | None:
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {OCCURRENCE_COLUMNS} FROM reminder_sends s JOIN reminders r ON r.id = s.reminder_id "
            "WHERE s.reminder_id = ? AND s.due = ?",
            (reminder_id, stamp(due)),
        )
        return next((occurrence_of(r) for r in rows), None)

    async def latest_sent(self, reminder_id: int) -> Occurrence | None:
        """The reminder's latest sent occurrence no button has answered yet (a typed ``done 3``)."""
        rows = await self._db.conn.execute_fetchall(
            f"SELECT {OCCURRENCE_COLUMNS} FROM reminder_sends s JOIN reminders r ON r.id = s.reminder_id "
            "WHERE s.reminder_id = ? AND s.status = 'sent' AND s.answer IS NULL ORDER BY s.due DESC LIMIT 1",
            (reminder_id,),
        )
        return next((occurrence_of(r) for r in rows), None)

    async def answer(self, occurrence: Occurrence, answer: Literal["done", "snoozed"]) -> bool:
        """Record a button's answer to a sent occurrence, once; False when it was answered before."""
        async with self._db.lock:
            cur = await self._db.conn.execute(
                "UPDATE reminder_sends SET answer = ? WHERE reminder_id = ? AND due = ? AND answer IS NULL",
                (answer, occurrence.reminder_id, stamp(occurrence.due)),
            )
            await self._db.conn.commit()
        return bool(cur.rowcount == 1)

    async def take_missed(self, user: str) -> list[Occurrence]:
        """The person's missed occurrences not listed yet, marked listed (shown once, at ``/reminders``)."""
        async with self._db.lock:
            rows = list(
                await self._db.conn.execute_fetchall(
                    f"SELECT {OCCURRENCE_COLUMNS} FROM reminder_sends s JOIN reminders r ON r.id = s.reminder_id "
                    "WHERE s.user_key = ? AND s.status = 'missed' AND s.shown = 0 ORDER BY s.due",
                    (user,),
                )
            )
            await self._db.conn.execute(
                "UPDATE reminder_sends SET shown = 1 WHERE user_key = ? AND status = 'missed' AND shown = 0", (user,)
            )
            await self._db.conn.commit()
        return [occurrence_of(r) for r in rows]

    async def forget_user(self, user: str) -> None:
        """Drop the person's reminders and their sends (``/forget``)."""
        async with self._db.lock:
            await self._db.conn.execute("DELETE FROM reminder_sends WHERE user_key = ?", (user,))
            await self._db.conn.execute("DELETE FROM reminders WHERE user_key = ?", (user,))
            await self._db.conn.commit()
        await self._changed()

    async def _changed(self) -> None:
        """Wake the scheduler: this process's, and with several workers the one elected (``NOTIFY``)."""
        self.changed.set()
        if self._db.dialect == "postgres":
            await self._db.conn.execute("SELECT pg_notify('almanac_reminders', '')")
