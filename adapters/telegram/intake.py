"""Recorded before confirmed, for Telegram: updates reach the durable inbox before Telegram hears they arrived.

Telegram considers updates received when the bot asks for the next offset
(long polling) or answers the webhook's POST with 200. python-telegram-bot's
updater asks for the next offset as soon as it has put a batch on the
application's queue, long before the batch's turns run. So:

- `RecordingBot.get_updates` records each batch in one fsynced transaction
  *before* returning it to the updater, which only then moves the offset on;
- `RecordingQueue.put` records an update before it is queued, and the webhook
  handler answers 200 only after ``put`` returned;
- the adapter's gate admits each update once (`adapters.common.Intake`) and
  marks it done when its jobs finished; at start-up `replay` hands back what
  was recorded but not done, after deleting the status lines it left behind.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import structlog
from telegram import Bot, Update
from telegram.error import TelegramError
from telegram.ext import ExtBot

from adapters.common.intake import Intake
from adapters.telegram.chat import Chat
from engine import Delivery

log = structlog.get_logger("adapters.telegram")
SOURCE = "telegram"


def delivery_of(update: Update) -> Delivery:
    """An update as the engine records it: its id, its JSON, its sender, and its conversation."""
    user = update.effective_user
    message = update.effective_message
    conversation = Chat.of(message, user).conversation if message is not None else ""
    return Delivery(
        id=str(update.update_id),
        payload=update.to_json(),
        user=f"tg:{user.id}" if user else "",
        conversation=conversation,
    )


Record = Callable[[Sequence[Update]], Awaitable[None]]
"""Records a batch of updates (`TelegramAdapter.record`: only those of people allowed)."""


class RecordingBot(ExtBot[None]):
    """An ``ExtBot`` whose ``getUpdates`` records each batch before the updater may confirm it."""

    __slots__ = ("_record",)

    def __init__(self, *args: Any, record: Record, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._record = record  # protected: TelegramObject freezes public attributes

    async def get_updates(self, *args: Any, **kwargs: Any) -> tuple[Update, ...]:
        updates = await super().get_updates(*args, **kwargs)
        # If recording fails, this raises and the updater keeps the old offset:
        # Telegram delivers the batch again.
        await self._record(updates)
        return updates


class RecordingQueue(asyncio.Queue[object]):
    """The application's update queue: an update is recorded before it is queued (webhook mode).

    With several workers (``shared``) a recorded update is not queued here at all: a worker claims it
    from the database (`adapters.common.claims`); ``recorded`` wakes this process's own worker.
    """

    def __init__(self, record: Record, *, shared: bool = False, recorded: Callable[[], None] | None = None) -> None:
        super().__init__()
        self._record, self._shared, self._recorded = record, shared, recorded

    async def put(self, item: object) -> None:
        if isinstance(item, Update):
            await self._record([item])
            if self._shared:
                if self._recorded is not None:
                    self._recorded()
                return
        await super().put(item)


async def replay(intake: Intake, bot: Bot) -> list[Update]:
    """Updates received but not handled before the last stop, oldest first; their stale status lines are deleted."""
    updates = []
    for d in await intake.replay():
        update = await update_of(d, bot)
        if update is not None:
            updates.append(update)
    return updates


async def update_of(d: Delivery, bot: Bot) -> Update | None:
    """A recorded delivery as an update to dispatch again, after deleting a status line a crash left."""
    for chat_id, message_id in json.loads(d.note or "{}").get("status", []):
        try:
            await bot.delete_message(chat_id, message_id)
        except TelegramError as exc:
            log.info("telegram.stale_status_left", chat_id=chat_id, reason=str(exc))
    return Update.de_json(json.loads(d.payload), bot)


def status_note(chat_id: int, message_id: int) -> str:
    """The note that lets `replay` delete a status line a crash left behind."""
    return json.dumps({"status": [[chat_id, message_id]]})
