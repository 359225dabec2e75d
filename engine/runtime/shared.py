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

`SharedWork.lead` elects the one process that does what must happen once (the
Telegram long poll, the reminder scheduler) with the same kind of lock: held
while the process lives, taken over by another when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import psycopg
import structlog

from engine.boundary import Delivery
from engine.store.db import Database
from engine.store.pg_conn import KEEPALIVES, translate

log = structlog.get_logger(__name__)

LOCK_SPACE = 7413
"""Seed of ``hashtextextended``: our locks' keys, apart from other users of advisory locks in the database."""
CHANNEL = "almanac_work"
"""What receivers ``NOTIFY`` when they record deliveries (`engine.store.inbox.Deliveries.receive`)."""
REMINDERS = "almanac_reminders"
"""What the reminder store ``NOTIFY`` s when a reminder is set or changed: the elected scheduler wakes."""
# A worker cut off by the network (not killed: its socket stays open) must lose its locks too: keepalives end
# the session within about half a minute, and another worker takes its conversations.
_SESSION: dict[str, Any] = {"autocommit": True, **KEEPALIVES}

# Each conversation's oldest open delivery: the only one of it that may run.
_HEADS = """
SELECT r.delivery_id, r.payload, r.user_key, r.note, r.conversation FROM received r
WHERE r.source = ? AND r.status = 'new'
  AND r.id = (SELECT min(o.id) FROM received o WHERE o.source = r.source AND o.conversation = r.conversation
              AND o.status = 'new')
ORDER BY r.id LIMIT ?
"""
# The heads, each locked as it is read (on the lock session); one this worker holds is never tried again:
# advisory locks count, and a second hold would outlive the release.
_CLAIM = f"""
WITH heads AS MATERIALIZED ({translate(_HEADS).replace("%s", "%(s)s", 1).replace("%s", "%(n)s", 1)})
SELECT delivery_id, payload, user_key, note, conversation FROM heads
WHERE NOT (conversation = ANY(%(held)s::text[]))
  AND pg_try_advisory_lock(hashtextextended('conversation:' || conversation, %(k)s))
"""
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended('conversation:' || c, %(k)s)) FROM unnest(%(c)s::text[]) AS c"
_HEADS_OF = """
SELECT conversation, min(id) FROM received WHERE source = ? AND status = 'new' AND conversation = ANY(?)
GROUP BY conversation
"""
_CUT_OFF = """
WITH cut AS (UPDATE inbox SET status = 'interrupted' WHERE status = 'pending' AND conversation = ANY(?)
             RETURNING conversation)
SELECT conversation, count(*) FROM cut GROUP BY conversation
"""


def _stop_now() -> None:
    """A worker whose lock session is gone must not finish its turns: others have taken them (and run them
    again, once). Crash-only: stop at once, as a SIGKILL would, and let the supervisor start it again."""
    os._exit(70)


class SharedWork:
    """Claims deliveries per conversation and elects leaders; one per process, with its own connection.

    The locks live in this connection's session: they end with the process, whatever kills it.
    """

    def __init__(
        self,
        db: Database,
        locks: psycopg.AsyncConnection[Any],
        url: str = "",
        on_lost: Callable[[], None] | None = None,
        check_every_s: float = 5.0,
    ) -> None:
        self._db, self._locks, self._url = db, locks, url
        self._held: set[str] = set()
        self._leading: set[str] = set()
        self._listening: asyncio.Task[None] | None = None
        self._callbacks: dict[str, list[Callable[[], None]]] = {}
        self._on_lost = on_lost or _stop_now
        self._guard = asyncio.create_task(self._watch_locks(check_every_s), name="shared.locks")

    @classmethod
    async def open(
        cls, url: str, db: Database, on_lost: Callable[[], None] | None = None, check_every_s: float = 5.0
    ) -> SharedWork:
        locks = await psycopg.AsyncConnection.connect(url, **_SESSION)
        return cls(db, locks, url, on_lost, check_every_s)

    async def close(self) -> None:
        for task in (self._listening, self._guard):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await self._locks.close()  # every lock this process holds is released with it

    async def _watch_locks(self, every_s: float) -> None:
        """The locks live in one session: if it is lost, another worker may already run our conversations."""
        while True:
            await asyncio.sleep(every_s)
            try:
                await self._locks.execute("SELECT 1")
            except psycopg.Error as exc:
                if self._held or self._leading:
                    log.critical("shared.locks_lost", error=str(exc), held=len(self._held), leading=len(self._leading))
                    self._on_lost()
                    return
                log.warning("shared.session_lost", error=str(exc))  # it held nothing: open another
                with contextlib.suppress(psycopg.Error):
                    self._locks = await psycopg.AsyncConnection.connect(self._url, **_SESSION)

    async def watch(self, wake: Callable[[], None], channel: str = CHANNEL) -> None:
        """Call ``wake`` whenever any process notifies ``channel`` (receivers: deliveries recorded; the
        reminder store: a reminder set), so that no process polls tightly; a lost connection is reopened."""
        self._callbacks.setdefault(channel, []).append(wake)
        if self._listening is not None:
            self._listening.cancel()  # listen again, to every channel
            await asyncio.gather(self._listening, return_exceptions=True)
        self._listening = asyncio.create_task(self._listen(dict(self._callbacks)), name="shared.listen")

    async def _listen(self, callbacks: dict[str, list[Callable[[], None]]]) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._url, **_SESSION) as conn:
                    for channel in callbacks:
                        await conn.execute(f"LISTEN {channel}")
                    for wake in (w for ws in callbacks.values() for w in ws):
                        wake()  # whatever came while not listening
                    async for note in conn.notifies():
                        for wake in callbacks.get(note.channel, []):
                            wake()
            except psycopg.Error as exc:
                log.warning("shared.listen_lost", error=str(exc))
                await asyncio.sleep(1.0)

    async def claim(self, source: str, limit: int) -> list[Delivery]:
        """Up to ``limit`` deliveries to run now, each the oldest open one of a conversation no worker runs.

        Three round trips whatever the contention: the heads, locked in the statement that reads them
        (those another worker holds fail their try and are skipped); the heads read again under the locks
        (another worker may have finished one between the read and its lock); the cut-off turns of the
        conversations taken.
        """
        if limit <= 0:
            return []
        started = time.monotonic()
        rows = await self._on_locks(_CLAIM, {"s": source, "n": 4 * limit, "held": list(self._held), "k": LOCK_SPACE})
        locked = [Delivery(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]
        if not locked:
            return []
        heads = await self._db.conn.execute_fetchall(_HEADS_OF, (source, [d.conversation for d in locked]))
        current = {str(r[0]): str(r[1]) for r in heads}
        out = [d for d in locked if current.get(d.conversation) == d.id][:limit]
        taken = {d.conversation for d in out}
        extra = [d.conversation for d in locked if d.conversation not in taken]
        if extra:  # finished meanwhile, or more than asked for
            await self._on_locks(_UNLOCK, {"c": extra, "k": LOCK_SPACE})
        self._held.update(taken)
        # Turns of these conversations still "pending" belong to a worker that died: no live one holds the lock.
        async with self._db.lock:  # not inside another coroutine's transaction on the shared connection
            cut_off = await self._db.conn.execute_fetchall(_CUT_OFF, (list(taken),))
            await self._db.conn.commit()
        for r in cut_off:
            log.warning("shared.took_over", conversation=r[0], interrupted=r[1])
        log.debug("shared.claimed", source=source, count=len(out), ms=round(1000 * (time.monotonic() - started), 1))
        return out

    async def interrupt_unowned(self) -> int:
        """At start-up: mark ``interrupted`` the pending turns of conversations no live worker runs.

        A worker runs a conversation under its session lock; a transaction-level try of the same lock
        fails for those, and succeeds (ending with the statement's transaction) for a dead worker's.
        So a process that takes no claims (Slack's, alone with its platform) finds its cut-off turns.
        """
        async with self._db.lock:
            cur = await self._db.conn.execute(
                "UPDATE inbox SET status = 'interrupted' WHERE status = 'pending' "
                "AND pg_try_advisory_xact_lock(hashtextextended('conversation:' || conversation, ?))",
                (LOCK_SPACE,),
            )
            await self._db.conn.commit()
        return int(cur.rowcount)

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

    async def _on_locks(self, statement: str, params: dict[str, Any]) -> list[Any]:
        """A statement on the lock session; a session that held nothing and was lost is opened again."""
        try:
            cur = await self._locks.execute(statement, params)
        except psycopg.OperationalError:
            if self._held or self._leading:
                raise  # the guard stops this process (`_watch_locks`)
            self._locks = await psycopg.AsyncConnection.connect(self._url, **_SESSION)
            cur = await self._locks.execute(statement, params)
        return await cur.fetchall() if cur.description else []

    async def _try(self, key: str) -> bool:
        rows = await self._on_locks(
            "SELECT pg_try_advisory_lock(hashtextextended(%(key)s, %(k)s))", {"key": key, "k": LOCK_SPACE}
        )
        return bool(rows and rows[0][0])

    async def _unlock(self, key: str) -> None:
        await self._locks.execute("SELECT pg_advisory_unlock(hashtextextended(%s, %s))", (key, LOCK_SPACE))
