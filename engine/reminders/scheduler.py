"""One scheduler in the bot process sends every platform's reminders when they fall due (issue 25).

Nothing is kept only in memory: each pass reads the due times from the database, claims what is
due (`ReminderStore.claim_due`: recorded before sent), pushes each claimed occurrence through the
adapter's `Push`, and marks it sent. The first pass also sends what a crash left claimed. Between
passes it sleeps until the earliest due time, woken early when a reminder is made or changed
(`ReminderStore.changed`), and at most `max_sleep` (a wall clock that jumps is read again soon).

Tests drive it without sleeping: a ``now`` function for the clock and an explicit `tick`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Protocol

import structlog

from engine.boundary import Push
from engine.reminders import texts
from engine.reminders.commands import card
from engine.reminders.outbox import Outbox, Pending
from engine.reminders.store import Occurrence, ReminderStore

log = structlog.get_logger("engine.reminders")

Clock = Callable[[], datetime]


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Claims(Protocol):
    """What else is due besides reminders (`engine.summary.chores.Chores`): claimed into its outbox."""

    outbox: Outbox

    async def claim(self, now: datetime, platforms: Sequence[str]) -> int: ...


@dataclass
class Tick:
    """What one pass did."""

    sent: list[Occurrence] = field(default_factory=list)
    missed: list[Occurrence] = field(default_factory=list)
    failed: list[Occurrence] = field(default_factory=list)
    """Pushes that raised: left claimed, tried again at the next pass."""
    others: list[Pending] = field(default_factory=list)
    """Summaries, nudges and planned days sent from the outbox."""
    others_failed: int = 0


class Scheduler:
    """Claims due reminders and pushes them to the adapters registered by platform.

    Args:
        store: the reminders.
        grace: an occurrence older than this when it could be sent is listed as missed instead.
        late_after: one sent later than this after its due time says "late".
        now: the clock (tests pass a fake one).
        max_sleep: the longest sleep between passes, in seconds.
        retry_after: the sleep after a push failed, in seconds.
        finish_s: how long a pass may go on once the scheduler is stopped, in seconds.
        claims: what else is due (weekly summaries, nudges, planned days), sent through the same pushes.
    """

    def __init__(
        self,
        store: ReminderStore,
        *,
        grace: timedelta = timedelta(hours=2),
        late_after: timedelta = timedelta(minutes=1),
        now: Clock = _utcnow,
        max_sleep: float = 60.0,
        retry_after: float = 10.0,
        finish_s: float = 20.0,
        claims: Claims | None = None,
    ) -> None:
        self._store = store
        self._grace = grace
        self._late_after = late_after
        self._now = now
        self._max_sleep = max_sleep
        self._retry_after = retry_after
        self._finish_s = finish_s
        self._claims = claims
        self._pushes: dict[str, Push] = {}
        self._passing = asyncio.Lock()
        """One pass at a time: a claimed occurrence is pushed by one pass only (a test's `tick` beside the loop)."""

    def register(self, platform: str, push: Push) -> None:
        """Send ``platform``'s reminders (conversation keys ``<platform>:…``) through ``push``."""
        self._pushes[platform] = push
        self._store.changed.set()

    def unregister(self, platform: str) -> None:
        self._pushes.pop(platform, None)

    async def tick(self) -> Tick:
        """One pass: claim what is due now, then push every claimed occurrence (oldest first) and mark it."""
        async with self._passing:
            return await self._tick()

    async def _tick(self) -> Tick:
        done = Tick()
        platforms = list(self._pushes)
        if not platforms:
            return done
        now = self._now()
        await self._store.claim_due(now, platforms, self._grace, self._late_after)
        for occurrence in await self._store.claimed(platforms):
            now = self._now()
            if now - occurrence.due > self._grace:  # claimed before a long outage: too old to send now
                await self._store.mark(occurrence, "missed", now)
                done.missed.append(occurrence)
                log.info("reminder.missed", reminder=occurrence.reminder_id, due=occurrence.due.isoformat())
                continue
            late = occurrence.late or now - occurrence.due > self._late_after
            if await self._push(occurrence, late=late):
                # Marked at once: a kill between the push returning and this commit sends it again.
                await self._store.mark(occurrence, "sent", self._now())
                done.sent.append(occurrence)
                log.info("reminder.sent", reminder=occurrence.reminder_id, due=occurrence.due.isoformat(), late=late)
            else:
                done.failed.append(occurrence)
        if self._claims is not None:
            await self._others(self._claims, platforms, done)
        return done

    async def _others(self, claims: Claims, platforms: list[str], done: Tick) -> None:
        """Claim what else is due, then push every claimed outbox message (the same rules as reminders)."""
        await claims.claim(self._now(), platforms)
        for pending in await claims.outbox.pending(platforms):
            now = self._now()
            if now - pending.due_at > self._grace:
                await claims.outbox.mark(pending, "missed", now)
                log.info("outbox.missed", key=pending.key)
                continue
            push = self._pushes[pending.conversation.split(":", 1)[0]]
            try:
                await push(pending.conversation, pending.outcomes)
            except Exception as exc:  # noqa: BLE001 - any platform error: not sent, tried again
                log.warning("outbox.push_failed", key=pending.key, error=str(exc))
                done.others_failed += 1
                continue
            await claims.outbox.mark(pending, "sent", self._now())
            done.others.append(pending)
            log.info("outbox.sent", key=pending.key)

    async def _push(self, occurrence: Occurrence, *, late: bool) -> bool:
        reminder = await self._store.get(occurrence.reminder_id)
        if reminder is None:
            return False
        language = texts.lang(occurrence.language)
        text = texts.due_now(occurrence.what, occurrence.due if late else None, reminder.schedule.tz, language)
        outcome = card(reminder, text, occurrence.due, ["done", "snooze"])
        push = self._pushes[occurrence.conversation.split(":", 1)[0]]
        try:
            await push(occurrence.conversation, [outcome])
        except Exception as exc:  # noqa: BLE001 - any platform error: not sent, tried again
            log.warning("reminder.push_failed", reminder=occurrence.reminder_id, error=str(exc))
            return False
        return True

    async def sleep_for(self, result: Tick) -> float:
        """Seconds until the next pass: the earliest due time, sooner after a failed push, never over `max_sleep`."""
        if result.failed or result.others_failed:
            return min(self._retry_after, self._max_sleep)
        earliest = await self._store.earliest(list(self._pushes)) if self._pushes else None
        if earliest is None:
            return self._max_sleep
        return max(0.0, min(self._max_sleep, (earliest - self._now()).total_seconds()))

    async def run(self) -> None:
        """Pass after pass until cancelled; a failing pass is logged and tried again, never ends the loop."""
        while True:
            self._store.changed.clear()
            passing = asyncio.ensure_future(self.tick())
            try:
                result = await asyncio.shield(passing)
                delay = await self.sleep_for(result)
            except asyncio.CancelledError:
                # Stopping (SIGTERM): the pass finishes first, or a push done but not yet marked sent would
                # be sent again at the next start. A SIGKILL gives no such chance (see the store's docstring).
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(passing, timeout=self._finish_s)
                raise
            except Exception:  # noqa: BLE001 - storage trouble: log, wait, read again
                log.exception("reminder.pass_failed")
                delay = self._retry_after
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._store.changed.wait(), timeout=delay)
