"""An edited message: not applied (Almanac already worked with the first version), but never ignored in silence.

Telegram sends an ``edited_message`` update whenever a person changes a
message they sent. Running it again would log a workout twice or answer a
question twice, so the person is told once per message that edits are not
applied and how to correct an entry instead (`adapters.common.EDIT_HINT`).
"""

from __future__ import annotations

from typing import Any, Protocol

from telegram import Bot, Update
from telegram.ext import BaseHandler, ContextTypes, MessageHandler, filters

from adapters.common import EDIT_HINT, Recent
from adapters.telegram.chat import Chat, addressed
from adapters.telegram.render import esc


class Say(Protocol):
    """Queues a message of the adapter's own in the chat's order (``TelegramAdapter._say``)."""

    def __call__(self, bot: Bot, chat: Chat, html: str, update: Update, reply_to: int | None = None) -> None: ...


def edited_message_handler(say: Say) -> BaseHandler[Update, Any, None]:
    """The handler that answers edits of text messages meant for Almanac with the hint, once per message."""
    hinted = Recent()

    async def on_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.edited_message
        if message is None or message.from_user is None or message.from_user.is_bot:
            return
        chat = Chat.of(message, message.from_user)
        if chat.group and not addressed(message, context.bot):
            return
        if hinted.add((message.chat.id, message.message_id)):
            say(context.bot, chat, esc(EDIT_HINT), update, message.message_id)

    return MessageHandler(filters.UpdateType.EDITED_MESSAGE & filters.TEXT, on_edit)
