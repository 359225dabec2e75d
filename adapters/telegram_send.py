"""Putting text in front of the person: send, edit, delete, and the "working" signs.

Every message goes out as HTML split under Telegram's limit; when Telegram
rejects the markup ("can't parse entities") the same part is sent again as
plain text. Retries for flood control and network errors happen below this,
in `adapters.telegram_retry`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from dataclasses import dataclass
from types import TracebackType

import structlog
from telegram import (
    Bot,
    CallbackQuery,
    ForceReply,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    MaybeInaccessibleMessage,
    Message,
    ReplyParameters,
)
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import BadRequest, TelegramError

from adapters.telegram_render import MESSAGE_LIMIT, esc, split_html, to_plain, utf16_len

log = structlog.get_logger("adapters.telegram")
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


@dataclass(frozen=True)
class Chat:
    """Where a turn happens and where its replies go: a chat, or a topic of a forum."""

    chat_id: int
    topic: int | None = None
    """The forum topic's ``message_thread_id``; ``None`` outside forum topics."""
    group: bool = False

    @property
    def conversation(self) -> str:
        """The engine's conversation key: one checkpointed thread per chat and topic."""
        return f"tg:{self.chat_id}" + (f":{self.topic}" if self.topic is not None else "")

    @classmethod
    def of(cls, message: MaybeInaccessibleMessage) -> Chat:
        """The chat of a message (a message older than 48 h has lost its topic)."""
        topic = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
        return cls(message.chat.id, topic, message.chat.type != ChatType.PRIVATE)


def _entity_error(exc: BadRequest) -> bool:
    return "parse entities" in str(exc).lower()


def _harmless(exc: BadRequest) -> bool:
    text = str(exc).lower()
    return any(s in text for s in ("not modified", "message to edit not found", "message to delete not found", "query is too old"))


async def send_html(
    bot: Bot,
    chat: Chat,
    html: str,
    keyboard: InlineKeyboardMarkup | ForceReply | None = None,
    reply_to: int | None = None,
) -> list[Message]:
    """Send HTML as one or more messages; the keyboard goes on the last part."""
    parts = split_html(html)
    sent: list[Message] = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        sent.append(await _send_part(bot, chat, part, keyboard if last else None, reply_to if i == 0 else None))
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


class Working:
    """Signs that a turn is running: a typing action renewed every few seconds,
    and for a long turn one status line, edited as stages pass (at most once per
    ``status_every`` seconds) and deleted once the answer is out.

    Use as ``async with Working(...) as w: await engine.handle(turn, progress=w.stage)``,
    then deliver the outcomes, then ``await w.clear()``. The signs run in their own
    task, so a slow Bot API never holds up the turn.
    """

    def __init__(
        self,
        bot: Bot,
        chat: Chat,
        *,
        typing_every: float = 4.0,
        status_after: float = 2.0,
        status_every: float = 1.0,
    ) -> None:
        self._bot = bot
        self._chat = chat
        self._typing_every = typing_every
        self._status_after = status_after
        self._status_every = status_every
        self._stage: str | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._status: asyncio.Task[Message | None] | None = None

    async def stage(self, name: str) -> None:
        """The engine's progress callback: remember the stage; the sign task shows it."""
        self._stage = name

    async def __aenter__(self) -> Working:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def clear(self) -> None:
        """Delete the status line, if one was shown."""
        if self._status is None:
            return
        message = await self._status
        if message is not None:
            await delete(self._bot, message.chat_id, message.message_id)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        next_typing = started
        next_status = started + self._status_after
        shown: str | None = None
        while not self._stop.is_set():
            now = loop.time()
            if now >= next_typing:
                next_typing = now + self._typing_every
                await self._quietly(
                    self._bot.send_chat_action(self._chat.chat_id, ChatAction.TYPING, message_thread_id=self._chat.topic)
                )
            if now >= next_status and self._stage is not None and self._stage != shown:
                shown = self._stage
                next_status = now + self._status_every
                await self._show(shown)
            wake = min(next_typing, next_status) - loop.time()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=max(wake, 0.05))

    async def _show(self, stage: str) -> None:
        text = f"⏳ <i>{esc(stage.capitalize())}…</i>"
        if self._status is None:
            # Shielded: cancelling the sign task must not lose the id of a line being sent.
            self._status = asyncio.ensure_future(self._first_status(text))
            await asyncio.shield(self._status)
            return
        message = await asyncio.shield(self._status)
        if message is not None:
            await self._quietly(edit_html(self._bot, message.chat_id, message.message_id, text))

    async def _first_status(self, text: str) -> Message | None:
        try:
            return (await send_html(self._bot, self._chat, text))[0]
        except TelegramError as exc:
            log.info("telegram.status_failed", chat_id=self._chat.chat_id, reason=str(exc))
            return None

    async def _quietly(self, call: Awaitable[object]) -> None:
        try:
            await call
        except TelegramError as exc:
            log.info("telegram.sign_failed", chat_id=self._chat.chat_id, reason=str(exc))
