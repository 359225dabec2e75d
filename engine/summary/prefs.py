"""The weekly summary's opt-in, kept durably, and the scheduler's side of it: what is due, claimed once.

For the scheduler (one loop for every platform):

1. ``for due in await prefs.due_summaries(now)``: each person whose summary time has come (``next_due <= now``).
2. Make it: ``summary = await weekly_summary(db, registry, due.user, due.week_start, due.language, charts)``
   (reads only; safe to repeat).
3. ``if await prefs.mark_sent(due, now, also=record)``: the claim row ``(user, week)`` is inserted and
   ``next_due`` advanced in one transaction, and ``also(conn)`` runs inside it before the commit, so the
   scheduler records the outgoing message (its outbox row of ``summary.outcomes``) atomically with the claim:
   a crash before the commit leaves the summary due (made again on restart), after it leaves one recorded
   message to send. False: claimed before (a second scheduler, or a restart after the commit), or the
   person turned it off meanwhile: send nothing.

A summary due while the bot was down is still due at start-up (``next_due`` stays in the past until
claimed); ``due.due_at`` says how late it is, for the scheduler's grace rule. ``next_due`` always moves
past ``now``, so weeks missed while down are not sent one after another.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Literal, cast

import aiosqlite

from engine.query.render import Language
from engine.reminders.schedule import Schedule, next_due
from engine.store.db import Conn, Database
from engine.summary.weekly import last_week

NudgeMode = Literal["on", "off", "behind"]
"""Nudges about planned sessions: ``on`` (the default), ``off`` (``/quiet``), ``behind`` (only when the week's
logged sessions fall short of the plan)."""

Also = Callable[[Conn], Awaitable[None]]
"""Work the caller does inside the claiming transaction (record the message to send); no commit of its own."""


@dataclass(frozen=True, slots=True)
class Prefs:
    """A person's summary and nudge settings."""

    user: str
    conversation: str
    weekly: bool
    weekday: int
    at: time
    tz: str
    language: Language
    next_due: datetime | None
    nudges: NudgeMode

    @property
    def schedule(self) -> Schedule:
        return Schedule(repeat="weekly", days=(self.weekday,), at=self.at, tz=self.tz)


@dataclass(frozen=True, slots=True)
class DueSummary:
    """A weekly summary whose time has come."""

    user: str
    conversation: str
    """Where to send it: the conversation it was turned on in."""
    due_at: datetime
    """When it was due (UTC); earlier than now by as much as it is late."""
    week_start: date
    """The Monday of the week to summarise: the week before the one ``due_at`` falls in, in ``tz``."""
    language: Language
    tz: str


def _prefs(r: aiosqlite.Row) -> Prefs:
    return Prefs(
        user=r["user_key"],
        conversation=r["conversation"],
        weekly=bool(r["weekly"]),
        weekday=int(r["weekday"]),
        at=time.fromisoformat(r["at"]),
        tz=r["tz"],
        language=cast(Language, r["language"]),
        next_due=datetime.fromisoformat(r["next_due"]) if r["next_due"] else None,
        nudges=cast(NudgeMode, r["nudges"]),
    )


class SummaryPrefs:
    """Reads and writes ``summary_prefs`` and the claims (:mod:`engine.store.summary_prefs`)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user: str) -> Prefs | None:
        async with self._db.conn.execute("SELECT * FROM summary_prefs WHERE user_key = ?", (user,)) as cur:
            row = await cur.fetchone()
        return _prefs(row) if row is not None else None

    async def weekly_on(
        self, user: str, conversation: str, weekday: int, at: time, tz: str, lang: Language, now: datetime
    ) -> datetime:
        """Turn the weekly summary on (or move it): every ``weekday`` at ``at`` in ``tz``; returns when it is next due."""
        due = weekly_due(Schedule(repeat="weekly", days=(weekday,), at=at, tz=tz), now)
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO summary_prefs (user_key, conversation, weekly, weekday, at, tz, language, next_due, "
                "updated_at) VALUES (:u, :c, 1, :d, :at, :tz, :l, :n, :now) ON CONFLICT (user_key) DO UPDATE SET "
                "conversation = :c, weekly = 1, weekday = :d, at = :at, tz = :tz, language = :l, next_due = :n, "
                "updated_at = :now",
                {"u": user, "c": conversation, "d": weekday, "at": at.strftime("%H:%M"), "tz": tz, "l": lang,
                 "n": _utc(due), "now": now.isoformat()},
            )  # fmt: skip
            await self._db.conn.commit()
        return due

    async def weekly_off(self, user: str, now: datetime) -> None:
        async with self._db.lock:
            await self._db.conn.execute(
                "UPDATE summary_prefs SET weekly = 0, next_due = NULL, updated_at = ? WHERE user_key = ?",
                (now.isoformat(), user),
            )
            await self._db.conn.commit()

    async def set_nudges(self, user: str, conversation: str, mode: NudgeMode, lang: Language, now: datetime) -> None:
        """``/quiet``: nudges off, back on, or only when behind the plan (the conversation is where they go)."""
        async with self._db.lock:
            await self._db.conn.execute(
                "INSERT INTO summary_prefs (user_key, conversation, nudges, language, updated_at) "
                "VALUES (:u, :c, :m, :l, :now) ON CONFLICT (user_key) DO UPDATE SET nudges = :m, conversation = :c, "
                "language = :l, updated_at = :now",
                {"u": user, "c": conversation, "m": mode, "l": lang, "now": now.isoformat()},
            )
            await self._db.conn.commit()

    async def due_summaries(self, now: datetime) -> list[DueSummary]:
        """Every weekly summary due at ``now`` (aware), the longest waiting first (the partial index)."""
        async with self._db.conn.execute(
            "SELECT * FROM summary_prefs WHERE next_due IS NOT NULL AND next_due <= ? ORDER BY next_due",
            (_utc(now),),
        ) as cur:
            rows = list(await cur.fetchall())
        out = []
        for r in rows:
            p = _prefs(r)
            assert p.next_due is not None
            out.append(DueSummary(p.user, p.conversation, p.next_due, last_week(p.tz, p.next_due), p.language, p.tz))
        return out

    async def mark_sent(self, due: DueSummary, now: datetime, also: Also | None = None) -> bool:
        """Claim ``due`` once ever and move its ``next_due`` past ``now``, in one transaction with ``also``.

        Returns:
            True when this call claimed it (send it); False when it was claimed before or turned off.
        """
        conn = self._db.conn
        async with self._db.lock:
            try:
                async with conn.execute(
                    "SELECT * FROM summary_prefs WHERE user_key = ? AND next_due = ?", (due.user, _utc(due.due_at))
                ) as cur:
                    row = await cur.fetchone()
                if row is None:  # turned off, moved, or advanced by an earlier claim
                    return False
                after = weekly_due(_prefs(row).schedule, max(now, due.due_at))
                await conn.execute(
                    "UPDATE summary_prefs SET next_due = ? WHERE user_key = ?", (after.isoformat(), due.user)
                )
                cur2 = await conn.execute(
                    "INSERT INTO summary_sent (user_key, week_start, claimed_at) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (due.user, due.week_start.isoformat(), _utc(now)),
                )
                claimed = cur2.rowcount == 1
                if claimed and also is not None:
                    await also(conn)
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
        return bool(claimed)

    async def forget_user(self, user: str) -> None:
        """``/forget``: nothing of the person's settings or claims is kept."""
        async with self._db.lock:
            for table in ("summary_prefs", "summary_sent", "nudge_sent"):
                await self._db.conn.execute(f"DELETE FROM {table} WHERE user_key = ?", (user,))
            await self._db.conn.commit()


def weekly_due(schedule: Schedule, after: datetime) -> datetime:
    """The next time of a weekly ``schedule`` strictly after ``after``.

    :func:`engine.reminders.schedule.next_due` reads eight days from the day before ``after``, so a weekly
    time on ``after``'s own weekday but already past today (Monday 08:00, asked Monday evening) is not in its
    window and it returns None; a day later the window holds next week's. Nothing due falls in between, or
    the first window would have held it.
    """
    due = next_due(schedule, after) or next_due(schedule, after + timedelta(days=1))
    assert due is not None  # a weekly schedule is always due again within eight days
    return due


def _utc(at: datetime) -> str:
    """The instant as ``next_due`` stores it (``next_due`` returns UTC; ISO strings then order as instants)."""
    return at.astimezone(timezone.utc).isoformat()
