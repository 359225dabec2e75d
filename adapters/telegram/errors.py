"""The adapter's one error handler: log with context, apologise briefly, never show a traceback."""

from __future__ import annotations

import structlog
from telegram import Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from adapters.telegram import texts
from adapters.telegram.chat import Chat
from adapters.telegram.send import answer_query

log = structlog.get_logger("adapters.telegram")


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the error with chat and user id, then tell the chat something went wrong.

    Registered with ``Application.add_error_handler``; jobs that fail inside the
    conversation queues end here too (through ``Application.process_error``).
    """
    chat_id = user_id = topic = None
    if isinstance(update, Update):
        chat_id = update.effective_chat.id if update.effective_chat else None
        user_id = update.effective_user.id if update.effective_user else None
        if update.effective_message is not None:
            topic = Chat.of(update.effective_message).topic
    log.error("telegram.error", chat_id=chat_id, user_id=user_id, exc_info=context.error)
    if chat_id is None or isinstance(context.error, Forbidden):
        return  # nobody to tell, or they blocked the bot
    try:
        if isinstance(update, Update) and update.callback_query is not None:
            await answer_query(update.callback_query)  # stop the spinner if nothing else did
        await context.bot.send_message(chat_id, texts.APOLOGY, message_thread_id=topic)
    except TelegramError as exc:
        log.warning("telegram.apology_failed", chat_id=chat_id, reason=str(exc))
