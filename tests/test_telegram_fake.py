"""The fake Telegram Bot API itself, and the harness every Telegram test shares.

`running` starts the real python-telegram-bot application — built and started
by ``bot.run_telegram`` exactly as in production — against `FakeTelegram`
through ``base_url``, with the adapter in front of a real engine on the fake
Ollama. Most tests feed updates with ``Application.process_update`` (the same
path polling and webhooks end in) and wait with ``adapter.drain()``; the
transport tests go through getUpdates and the webhook server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from telegram import Update
from telegram.error import BadRequest, InvalidToken, RetryAfter
from telegram.ext import Application

from adapters.telegram import TelegramAdapter
from adapters.telegram_retry import Retrying
from bot.run_telegram import build_application, start, stop
from tests.fakes.telegram_api import BotMessage, FakeTelegram, html_to_text

CHAT = USER = 42  # a private chat's id is the user's id


@pytest.fixture
def tg() -> Iterator[FakeTelegram]:
    with FakeTelegram() as server:
        yield server


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
        return [m for m in self.tg.sent(chat_id) if m.message_id > message_id]


@asynccontextmanager
async def running(tg: FakeTelegram, engine: Any, retrying: Retrying | None = None, **options: Any) -> AsyncIterator[Harness]:
    """The application and adapter, started against the fake; stopped (drained) on exit."""
    adapter = TelegramAdapter(engine, **options)
    app = build_application(tg.token, tg.base_url, adapter, retrying)
    await start(app, adapter, tg.base_url)
    try:
        yield Harness(app, adapter, tg)
    finally:
        await stop(app, adapter)


# --------------------------------------------------------------------------- the fake itself


def test_html_check_matches_telegram_rules() -> None:
    assert html_to_text("<b>a &amp; b</b> &lt;3") == "a & b <3"
    for bad in ("<b>open", "a < b", "AT&T", "<div>x</div>", "<b><i>x</b></i>"):
        with pytest.raises(Exception, match="can't parse entities"):
            html_to_text(bad)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # PTB's own RetryAfter message, v22.2
async def test_fake_speaks_the_bot_api_to_the_real_client(tg: FakeTelegram) -> None:
    app = Application.builder().token(tg.token).base_url(tg.base_url).build()
    async with app:
        me = await app.bot.get_me()
        assert me.username == tg.username
        sent = await app.bot.send_message(7, "<b>hi</b> &amp; bye", parse_mode="HTML")
        assert tg.get(7, sent.message_id).text == "hi & bye"
        with pytest.raises(BadRequest, match="(?i)can't parse entities"):
            await app.bot.send_message(7, "<b>unclosed", parse_mode="HTML")
        with pytest.raises(BadRequest, match="too long"):
            await app.bot.send_message(7, "😀" * 2049)  # 4098 UTF-16 units
        tg.fail("sendMessage", 429, "Too Many Requests: retry after 3", retry_after=3)
        with pytest.raises(RetryAfter):
            await app.bot.send_message(7, "x")
        tg.enqueue(tg.message(7, 7, "hello"))
        updates = await app.bot.get_updates(timeout=1)
        assert [u.message.text for u in updates if u.message] == ["hello"]
        assert await app.bot.get_updates(timeout=5) == ()  # the fake long-polls only briefly
    bad = Application.builder().token("1:wrong").base_url(tg.base_url).build()
    with pytest.raises(InvalidToken):
        await bad.bot.get_me()
