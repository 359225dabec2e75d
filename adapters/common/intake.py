"""Recorded before confirmed: the platform-neutral half of "nothing a person sent is lost".

A platform delivers events (Telegram updates, Slack events) and wants to be
told they arrived (the next ``getUpdates`` offset, a webhook's 200, Slack's
``ack()``). `Intake` puts each delivery in the engine's durable ``received``
table *before* that acknowledgement, admits each one to dispatch once, and
marks it done once every job it started has finished — so after a crash,
`replay` hands back exactly what was received but not handled, in order.

How an adapter uses it (Telegram: ``adapters/telegram/intake.py``):

1. ``await intake.record(batch)`` before acknowledging a batch (one fsynced
   transaction for all of it);
2. ``await intake.admit(delivery)`` when dispatching: False for a redelivery
   or a duplicate (records it first when step 1 had no hook, e.g. tests);
3. ``intake.hold(id)`` per job started for it, ``await intake.release(id)``
   when the job ends, and ``await intake.dispatched(id)`` once the dispatch
   code has started all its jobs;
4. at start-up, before taking new deliveries: ``for d in await intake.replay(): dispatch(d)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import structlog

from adapters.common.ordering import Recent
from engine import Delivery, DeliveryStore

log = structlog.get_logger("adapters.intake")

__all__ = ["DeliveryStore", "Intake", "MemoryDeliveries"]
"""`DeliveryStore` is the engine's promise (`engine.boundary`), named here as before."""


class MemoryDeliveries:
    """A `DeliveryStore` in memory, for stand-in engines (benchmarks): once-only, but nothing survives a restart."""

    def __init__(self) -> None:
        self._open: dict[str, dict[str, Delivery]] = {}
        self._known: dict[str, set[str]] = {}

    async def receive(self, source: str, deliveries: Sequence[Delivery]) -> list[str]:
        known, fresh = self._known.setdefault(source, set()), []
        for d in deliveries:
            if d.id not in known:
                known.add(d.id)
                self._open.setdefault(source, {})[d.id] = d
                fresh.append(d.id)
        return fresh

    async def unfinished(self, source: str) -> list[Delivery]:
        return list(self._open.get(source, {}).values())

    async def finish(self, source: str, delivery_ids: Sequence[str]) -> None:
        for i in delivery_ids:
            self._open.get(source, {}).pop(i, None)

    async def note(self, source: str, delivery_id: str, note: str) -> None:
        """Notes matter only across restarts, which this store does not survive."""


class Intake:
    """Durable, once-only intake of one platform's deliveries.

    Args:
        store: where deliveries are recorded (the engine; `MemoryDeliveries` for a stand-in).
        source: the platform's name in the record (``telegram``, ``slack``).
    """

    def __init__(self, store: DeliveryStore, source: str) -> None:
        self._store = store
        self._source = source
        self._ready: set[str] = set()  # recorded, not dispatched yet
        self._seen = Recent(50_000)  # dispatched (or refused as seen) in this process
        self._jobs: dict[str, int] = {}  # in dispatch or with jobs running → jobs not finished
        self._dispatching: set[str] = set()
        self._done: dict[str, asyncio.Event] = {}  # claimed by a worker loop: set when finished

    def expect(self, delivery_id: str) -> asyncio.Event:
        """A delivery claimed from the shared database is about to be dispatched: admit it, and say when done."""
        self._ready.add(delivery_id)
        return self._done.setdefault(delivery_id, asyncio.Event())

    async def record(self, deliveries: Sequence[Delivery]) -> None:
        """Record a batch before the platform is told it arrived (one transaction, on disk when this returns)."""
        fresh = [d for d in deliveries if d.id not in self._ready and d.id not in self._seen]
        if fresh:
            self._ready.update(await self._store.receive(self._source, fresh))

    async def admit(self, delivery: Delivery) -> bool:
        """Whether to dispatch a delivery: once per id, ever (False for a redelivery of a handled one)."""
        if delivery.id in self._ready:
            self._ready.discard(delivery.id)
        elif delivery.id in self._seen:
            return False
        elif not await self._store.receive(self._source, [delivery]):
            self._seen.add(delivery.id)
            log.info("intake.duplicate", source=self._source, delivery=delivery.id)
            return False
        self._seen.add(delivery.id)
        self._jobs[delivery.id] = 0
        self._dispatching.add(delivery.id)
        return True

    def hold(self, delivery_id: str) -> None:
        """A job for the delivery starts (it is finished only when its jobs are)."""
        if delivery_id in self._jobs:
            self._jobs[delivery_id] += 1

    async def release(self, delivery_id: str) -> None:
        """A job for the delivery ended (done or failed: either way the person was answered)."""
        if delivery_id in self._jobs:
            self._jobs[delivery_id] -= 1
            await self._finish_if_done(delivery_id)

    async def dispatched(self, delivery_id: str) -> None:
        """The dispatch code has started every job the delivery needs."""
        self._dispatching.discard(delivery_id)
        await self._finish_if_done(delivery_id)

    async def note(self, delivery_id: str, note: str) -> None:
        """Keep a note with the delivery until it is done (e.g. a status line to delete after a crash)."""
        await self._store.note(self._source, delivery_id, note)

    async def replay(self) -> list[Delivery]:
        """What was recorded but not handled before the last stop, in arrival order; dispatch it first."""
        left = await self._store.unfinished(self._source)
        self._ready.update(d.id for d in left)
        if left:
            log.warning("intake.replay", source=self._source, count=len(left))
        return left

    async def _finish_if_done(self, delivery_id: str) -> None:
        if delivery_id in self._dispatching or self._jobs.get(delivery_id, 1) > 0:
            return
        del self._jobs[delivery_id]
        await self._store.finish(self._source, [delivery_id])
        done = self._done.pop(delivery_id, None)
        if done is not None:
            done.set()
