"""What platforms delivered, kept until handled: the engine's intake methods, platform-neutral.

Recorded before confirmed: an adapter records what its platform delivered
(`receive`) *before* telling the platform it arrived (Telegram's next
``getUpdates`` offset or a webhook's 200, Slack's ``ack()``), marks it done
once handled (`finish`), and after a crash dispatches again what is not done
(`unfinished`). ``adapters/common/intake.py`` drives these for an adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.boundary import Delivery
from engine.runtime.shared import SharedWork
from engine.store.inbox import Deliveries


class Intake:
    """Mixed into `engine.Engine`."""

    deliveries: Deliveries
    work: SharedWork | None
    """Set when several workers share the database (Postgres)."""

    @property
    def shared(self) -> bool:
        """Whether deliveries are claimed from the shared database rather than dispatched by their receiver."""
        return self.work is not None

    async def claim(self, source: str, limit: int) -> list[Delivery]:
        """Deliveries to run now (`engine.runtime.shared.SharedWork.claim`); none when not shared."""
        return [] if self.work is None else await self.work.claim(source, limit)

    async def release(self, delivery: Delivery) -> None:
        """A claimed delivery is done or given up."""
        if self.work is not None:
            await self.work.release(delivery)

    async def watch(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` when a receiver anywhere records deliveries (nothing when not shared)."""
        if self.work is not None:
            await self.work.watch(wake)

    async def lead(self, role: str) -> bool:
        """Whether this process leads ``role``; alone on its database it leads everything."""
        return True if self.work is None else await self.work.lead(role)

    async def receive(self, source: str, deliveries: Sequence[Delivery]) -> list[str]:
        """Record deliveries before the platform is told they arrived; returns the ids not seen before.

        One transaction for the batch, on disk (``synchronous=FULL``) when this
        returns: acknowledge to the platform only after it.
        """
        return await self.deliveries.receive(source, deliveries)

    async def unfinished(self, source: str) -> list[Delivery]:
        """Deliveries recorded but not finished (a crash came between): dispatch them again, in this order."""
        return await self.deliveries.unfinished(source)

    async def finish(self, source: str, delivery_ids: Sequence[str]) -> None:
        """Mark deliveries handled (their turns ran and the person saw the outcomes)."""
        await self.deliveries.finish(source, delivery_ids)

    async def note(self, source: str, delivery_id: str, note: str) -> None:
        """Keep an adapter's note with a delivery, e.g. a status line to delete if a crash leaves it behind."""
        await self.deliveries.note(source, delivery_id, note)
