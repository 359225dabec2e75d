"""The harness every Telegram test shares: the real application against the fake Bot API.

`running` starts the real python-telegram-bot application — built and started
by ``adapters.telegram.app`` exactly as in production — against `FakeTelegram`
through ``base_url``, with the adapter in front of a real engine on the fake
Ollama. Most tests feed updates with ``Application.process_update`` (the same
path polling and webhooks end in) and wait with ``adapter.drain()``; the
transport tests go through getUpdates and the webhook server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import Application

from adapters.telegram import TelegramAdapter
from adapters.telegram.app import build_application, start, stop
from adapters.telegram.retry import Retrying
from tests.fakes.telegram_api import BotMessage, FakeTelegram

CHAT = USER = 42  # a private chat's id is the user's id


@dataclass
class Harness:
    """A running bot and the fake it talks to, with shortcuts for whole exchanges."""

    app: Application[Any, Any, Any, Any, Any, Any]
    adapter: TelegramAdapter
    tg: FakeTelegram

    async def feed(self, *updates: dict[str, Any]) -> None:
        """Dispatch updates one by one, as the updater does, then wait for every reply."""
        for update in updates:
            await self.app.process_update(Update.de_json(update, self.app.bot))
        await self.adapter.drain()

    async def say(self, text: str, chat_id: int = CHAT, user_id: int = USER, **kw: Any) -> list[BotMessage]:
        """A user's message; returns the bot's messages that followed it (still visible)."""
        update = self.tg.message(chat_id, user_id, text, **kw)
        await self.feed(update)
        return self.after(chat_id, update["message"]["message_id"])

    async def press(self, message: BotMessage, button: str, user_id: int = USER) -> list[BotMessage]:
        """A press on one of a message's buttons; returns the bot's messages sent after it."""
        last = max((m.message_id for m in self.tg.sent(message.chat_id, deleted=True)), default=0)
        await self.feed(self.tg.press(message.chat_id, message.message_id, user_id, button))
        return self.after(message.chat_id, last)

    def after(self, chat_id: int, message_id: int) -> list[BotMessage]:
        """The bot's messages in a chat sent after ``message_id``, still visible."""
        return [m for m in self.tg.sent(chat_id) if m.message_id > message_id]


@asynccontextmanager
async def running(
    tg: FakeTelegram, engine: Any, retrying: Retrying | None = None, **options: Any
) -> AsyncIterator[Harness]:
    """The application and adapter, started against the fake; stopped (drained) on exit."""
    adapter = TelegramAdapter(engine, **options)
    app = build_application(tg.token, tg.base_url, adapter, retrying)
    await start(app, adapter, tg.base_url)
    try:
        yield Harness(app, adapter, tg)
    finally:
        await stop(app, adapter)
