"""The work an update starts: jobs queued in its conversation, and the update done in the inbox when they end.

Every job goes through `Jobs.submit` (in the conversation's queue, in arrival
order) or `Jobs.detach` (a quick reply outside the queue, such as a callback
alert). Each holds its update open in the intake (`adapters.common.Intake`):
once the handlers have queued everything (`dispatched`) and every job has
ended, the update is marked done — and one a crash cut off is dispatched
again at the next start.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from typing import Any

from telegram import Message, Update

from adapters.common import ChatQueues, Intake
from adapters.telegram.intake import status_note

Job = Callable[[], Awaitable[None]]
OnError = Callable[[object, Exception], Awaitable[None]]
_delivery: ContextVar[str | None] = ContextVar("telegram_delivery", default=None)
"""The update id a running job works for (so a status line it shows can be noted with it)."""


class Jobs:
    """Per-conversation queues whose jobs keep their update open in the intake until they end.

    Args:
        intake: where updates are recorded and marked done.
        on_error: called with the update and the exception when a job raises.
    """

    def __init__(self, intake: Intake, on_error: OnError) -> None:
        self._intake = intake
        self._on_error = on_error
        self.queues = ChatQueues(on_error)
        self._detached: set[asyncio.Task[None]] = set()

    def submit(self, key: str, job: Job, update: Update) -> None:
        """Queue a job behind the conversation's earlier ones. Synchronous: call it before any ``await``."""
        delivery = str(update.update_id)
        self._intake.hold(delivery)

        async def tracked() -> None:
            token = _delivery.set(delivery)
            try:
                await job()
            finally:
                _delivery.reset(token)
                # Failed or not, the person was answered (the error handler apologises):
                # dispatching it again after a restart would not do better.
                await self._intake.release(delivery)

        self.queues.submit(key, tracked, update)

    def detach(self, call: Coroutine[Any, Any, None], update: Update) -> None:
        """Run a quick reply (a callback alert) outside the conversation's queue; `drain` waits for it too."""
        delivery = str(update.update_id)
        self._intake.hold(delivery)

        async def guarded() -> None:
            try:
                await call
            except Exception as exc:
                await self._on_error(update, exc)
            finally:
                await self._intake.release(delivery)

        task = asyncio.create_task(guarded())
        self._detached.add(task)
        task.add_done_callback(self._detached.discard)

    async def status_shown(self, message: Message) -> None:
        """A status line went out: note it with the update, so that a crash does not leave it behind."""
        delivery = _delivery.get()
        if delivery is not None:
            await self._intake.note(delivery, status_note(message.chat_id, message.message_id))

    async def drain(self, timeout: float | None = None) -> None:
        """Let queued jobs and quick replies finish."""
        await self.queues.drain(timeout)
        while self._detached:
            await asyncio.gather(*list(self._detached), return_exceptions=True)
