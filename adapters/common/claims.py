"""A worker's loop with several workers on one database: claim deliveries, dispatch each as a replay, release.

With Postgres (``DATABASE_URL``) a receiver records what its platform delivered
and acknowledges it, exactly as a lone process does, but does not dispatch it:
any worker's `ClaimLoop` claims it (`engine.SharedDeliveries.claim`: each
conversation's oldest open delivery, no other worker running that
conversation), hands it to the adapter's own dispatch as a crash's replay is
handed, waits until the adapter's `Intake` marks it done, and releases it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import structlog

from adapters.common.intake import Intake
from engine import Delivery, SharedDeliveries

log = structlog.get_logger("adapters.claims")

Dispatch = Callable[[Delivery], Awaitable[None]]


class ClaimLoop:
    """Claims a platform's deliveries and runs up to ``slots`` conversations at once.

    Args:
        engine: the engine's shared deliveries.
        intake: the adapter's intake (it marks a delivery done when its jobs end).
        source: the platform (``telegram``).
        dispatch: the adapter's dispatch of a recorded delivery (what a replay after a crash calls).
        slots: conversations run at once by this worker.
        idle_s: how often an idle worker looks for work anyway (a receiver anywhere wakes it at once).
        give_up_s: a delivery not done by then is released, so its conversation is not stuck behind it.
    """

    def __init__(
        self,
        engine: SharedDeliveries,
        intake: Intake,
        source: str,
        dispatch: Dispatch,
        *,
        slots: int = 8,
        idle_s: float = 1.0,
        give_up_s: float = 900.0,
    ) -> None:
        self._engine, self._intake, self._source, self._dispatch = engine, intake, source, dispatch
        self._slots, self._idle_s, self._give_up_s = slots, idle_s, give_up_s
        self._running: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=f"claims:{self._source}")

    def wake(self) -> None:
        """New work was recorded in this process: look now rather than at the next tick."""
        self._wake.set()

    async def stop(self, drain_s: float = 30.0) -> None:
        """Claim nothing more; let what runs finish (up to ``drain_s``); the rest is released by the exit."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._running:
            await asyncio.wait(self._running, timeout=drain_s)

    async def _loop(self) -> None:
        await self._engine.watch(self.wake)
        while not self._stopping:
            batch: list[Delivery] = []
            free = self._slots - len(self._running)
            if free > 0:
                try:
                    batch = await self._engine.claim(self._source, free)
                except Exception as exc:  # the database is away: keep trying, slower
                    log.warning("claims.failed", source=self._source, error=str(exc))
                    await asyncio.sleep(1.0)
                    continue
            for d in batch:
                task = asyncio.create_task(self._run(d), name=f"claimed:{d.conversation}")
                self._running.add(task)
                task.add_done_callback(self._ended)
            if not batch:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._idle_s)

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._wake.set()  # a slot is free, and its conversation may have more

    async def _run(self, delivery: Delivery) -> None:
        done = self._intake.expect(delivery.id)
        try:
            await self._dispatch(delivery)
            await asyncio.wait_for(done.wait(), self._give_up_s)
        except TimeoutError:
            log.error("claims.gave_up", source=self._source, delivery=delivery.id, conversation=delivery.conversation)
        except Exception:
            log.exception("claims.dispatch_failed", source=self._source, delivery=delivery.id)
        finally:
            try:
                await self._engine.release(delivery)
            except Exception as exc:  # the lock goes with the connection if it is lost
                log.warning("claims.release_failed", delivery=delivery.id, error=str(exc))
