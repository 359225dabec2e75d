"""Putting text in front of the person: send, edit, delete, answer a press.

Every message goes out as HTML split under Telegram's limit; when Telegram
rejects the markup ("can't parse entities") the same part is sent again as
plain text. Retries for flood control and network errors happen below this,
in `adapters.telegram.retry`, for every call alike. A reply is worth more
than that: `kept` holds a part that flood control still refuses after those
retries and sends it when the wait Telegram names is over (the caller says for
how long), so that a busy bot answers late rather than not at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

import structlog
from telegram import Bot, CallbackQuery, ForceReply, InlineKeyboardMarkup, LinkPreviewOptions, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, RetryAfter, TelegramError

from adapters.telegram.chat import Chat
from adapters.telegram.retry import retry_after_seconds
from adapters.telegram.splitting import MESSAGE_LIMIT, split_html, to_plain, utf16_len

log = structlog.get_logger("adapters.telegram")
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
T = TypeVar("T")


async def kept(send: Callable[[], Awaitable[T]], keep_s: float, chat_id: int) -> T:
    """Run ``send``; while flood control refuses it, wait as Telegram asks and send again, for up to ``keep_s``.

    Raises:
        RetryAfter: the next wait would end more than ``keep_s`` seconds after the first refusal.
    """
    loop = asyncio.get_running_loop()
    until: float | None = None
    while True:
        try:
            return await send()
        except RetryAfter as exc:
            wait = retry_after_seconds(exc)
            until = until if until is not None else loop.time() + keep_s
            if loop.time() + wait > until:
                raise
            log.warning("telegram.reply_kept", chat_id=chat_id, wait_s=wait)
            await asyncio.sleep(wait)


def _entity_error(exc: BadRequest) -> bool:
    return "parse entities" in str(exc).lower()


def _harmless(exc: BadRequest) -> bool:
    text = str(exc).lower()
    return any(
        s in text
        for s in ("not modified", "message to edit not found", "message to delete not found", "query is too old")
    )


async def send_html(
    bot: Bot,
    chat: Chat,
    html: str,
    keyboard: InlineKeyboardMarkup | ForceReply | None = None,
    reply_to: int | None = None,
    keep_s: float = 0.0,
) -> list[Message]:
    """Send HTML as one or more messages; the keyboard goes on the last part.

    Args:
        keep_s: how long a part that flood control refuses is kept and sent again (`kept`);
            0 for what may be dropped, such as a status line.
    """
    parts = split_html(html)
    sent: list[Message] = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        markup, quoted = keyboard if last else None, reply_to if i == 0 else None
        # Per part: a part already sent is never sent again.
        sent.append(await kept(partial(_send_part, bot, chat, part, markup, quoted), keep_s, chat.chat_id))
    return sent


async def _send_part(
    bot: Bot,
    chat: Chat,
    part: str,
    markup: InlineKeyboardMarkup | ForceReply | None,
    reply_to: int | None,
) -> Message:
    reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
    try:
        return await bot.send_message(
            chat.chat_id,
            part,
            parse_mode=ParseMode.HTML,
            message_thread_id=chat.topic,
            reply_markup=markup,
            reply_parameters=reply,
            link_preview_options=_NO_PREVIEW,
        )
    except BadRequest as exc:
        if not _entity_error(exc):
            raise
        log.warning("telegram.plain_fallback", chat_id=chat.chat_id, error=str(exc))
        return await bot.send_message(
            chat.chat_id,
            to_plain(part),
            message_thread_id=chat.topic,
            reply_markup=markup,
            reply_parameters=reply,
            link_preview_options=_NO_PREVIEW,
        )


async def edit_html(
    bot: Bot, chat_id: int, message_id: int, html: str, keyboard: InlineKeyboardMarkup | None = None
) -> None:
    """Replace a message's text (and drop its keyboard unless one is given).

    Text that no longer fits in one message keeps its old text and only loses
    the keyboard.
    """
    try:
        if utf16_len(html) > MESSAGE_LIMIT:
            await bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=keyboard)
            return
        try:
            await bot.edit_message_text(
                html,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
                link_preview_options=_NO_PREVIEW,
            )
        except BadRequest as exc:
            if not _entity_error(exc):
                raise
            await bot.edit_message_text(to_plain(html), chat_id=chat_id, message_id=message_id, reply_markup=keyboard)
    except BadRequest as exc:
        if not _harmless(exc):
            raise
        log.info("telegram.edit_skipped", chat_id=chat_id, message_id=message_id, reason=str(exc))


async def delete(bot: Bot, chat_id: int, message_id: int) -> None:
    """Delete a message; one that is already gone is fine."""
    try:
        await bot.delete_message(chat_id, message_id)
    except TelegramError as exc:
        log.info("telegram.delete_failed", chat_id=chat_id, message_id=message_id, reason=str(exc))


async def answer_query(query: CallbackQuery, text: str | None = None, alert: bool = False) -> None:
    """Answer a button press; Telegram keeps the button spinning until this is done."""
    try:
        await query.answer(text[:200] if text else None, show_alert=alert)
    except BadRequest as exc:
        if not _harmless(exc):
            raise
        log.info("telegram.answer_late", reason=str(exc))
