"""Several workers on one Postgres: each conversation's deliveries run one at a time, in order, on any worker.

Receivers record what a platform delivered in ``received`` before acknowledging
it (as a lone process does). Workers then claim work there, with no queue of
its own to keep in step: a claim is a conversation's *oldest* open delivery,
taken with a session-level advisory lock on the conversation key, held until
that delivery is done. So:

* one conversation runs on one worker at a time, in the order recorded
  (a newer delivery is never claimed while an older one is open);
* a worker killed mid-turn (SIGKILL) loses nothing: its connection closes,
  Postgres releases its locks, and the delivery, still open, is claimed by
  another worker, which first marks the dead worker's unfinished turn of that
  conversation ``interrupted`` (the redelivery then runs it once, as after a
  restart);
* other conversations run concurrently on every worker.

Why not a job queue (procrastinate, …): the deliveries are already durable
rows written before the platform's acknowledgement; a queue would be a second
write of each, and its ordering lock is what the advisory lock is here.

`Leadership` elects the one process that does what must happen once (the
Telegram long poll, the reminder scheduler) with the same kind of lock: held
while the process lives, taken over by another when it dies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import psycopg
import structlog

from engine.boundary import Delivery
from engine.store.db import Database
from engine.store.inbox import Inbox

log = structlog.get_logger(__name__)

LOCK_SPACE = 7413
"""Seed of ``hashtextextended``: our locks' keys, apart from other users of advisory locks in the database."""

# Each conversation's oldest open delivery: the only one of it that may run.
_HEADS = """
SELECT r.delivery_id, r.payload, r.user_key, r.note, r.conversation FROM received r
WHERE r.source = ? AND r.status = 'new'
  AND r.id = (SELECT min(o.id) FROM received o WHERE o.source = r.source AND o.conversation = r.conversation
              AND o.status = 'new')
ORDER BY r.id LIMIT ?
"""
_HEAD_OF = """
SELECT delivery_id FROM received WHERE source = ? AND conversation = ? AND status = 'new' ORDER BY id LIMIT 1
"""


@dataclass(frozen=True)
class Claimed:
    """A delivery this worker runs; release it when done."""

    source: str
    delivery: Delivery


class SharedWork:
    """Claims deliveries per conversation and elects leaders; one per process, with its own connection.

    The locks live in this connection's session: they end with the process, whatever kills it.
    """

    def __init__(self, db: Database, inbox: Inbox, locks: psycopg.AsyncConnection[Any]) -> None:
        self._db, self._inbox, self._locks = db, inbox, locks
        self._held: set[str] = set()
        self._leading: set[str] = set()

    @classmethod
    async def open(cls, url: str, db: Database, inbox: Inbox) -> SharedWork:
        return cls(db, inbox, await psycopg.AsyncConnection.connect(url, autocommit=True))

    async def close(self) -> None:
        await self._locks.close()  # every lock this process holds is released with it

    async def claim(self, source: str, limit: int) -> list[Delivery]:
        """Up to ``limit`` deliveries to run now, each the oldest open one of a conversation no worker runs."""
        if limit <= 0:
            return []
        started = time.monotonic()
        rows = await self._db.conn.execute_fetchall(_HEADS, (source, 4 * limit))
        out: list[Delivery] = []
        for r in rows:
            if len(out) >= limit:
                break
            d = Delivery(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]))
            if d.conversation in self._held or not await self._try(f"conversation:{d.conversation}"):
                continue
            # Another worker may have finished it between the read and the lock: read the head again.
            head = await self._db.conn.execute_fetchall(_HEAD_OF, (source, d.conversation))
            if not head or str(next(iter(head))[0]) != d.id:
                await self._unlock(f"conversation:{d.conversation}")
                continue
            self._held.add(d.conversation)
            # Turns of this conversation still "pending" belong to a worker that died: no live one holds the lock.
            cut_off = await self._inbox.interrupt_pending(d.conversation)
            if cut_off:
                log.warning("shared.took_over", conversation=d.conversation, interrupted=cut_off)
            out.append(d)
        if out:
            log.debug("shared.claimed", source=source, count=len(out), ms=round(1000 * (time.monotonic() - started), 1))
        return out

    async def release(self, delivery: Delivery) -> None:
        """The delivery is done (or given up): its conversation may run elsewhere."""
        if delivery.conversation in self._held:
            self._held.discard(delivery.conversation)
            await self._unlock(f"conversation:{delivery.conversation}")

    async def lead(self, role: str) -> bool:
        """Whether this process leads ``role`` (``telegram-poll``, ``scheduler``): taken if free, kept till exit."""
        if role in self._leading:
            return True
        if await self._try(f"lead:{role}"):
            self._leading.add(role)
            log.info("shared.leading", role=role)
            return True
        return False

    async def _try(self, key: str) -> bool:
        cur = await self._locks.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, %s))", (key, LOCK_SPACE))
        row = await cur.fetchone()
        return bool(row and row[0])

    async def _unlock(self, key: str) -> None:
        await self._locks.execute("SELECT pg_advisory_unlock(hashtextextended(%s, %s))", (key, LOCK_SPACE))
