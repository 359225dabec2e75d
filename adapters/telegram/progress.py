"""Progress on screen while a turn runs: a typing action and, for long turns, a status line."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from types import TracebackType

import structlog
from telegram import Bot, Message
from telegram.constants import ChatAction
from telegram.error import TelegramError

from adapters.common import Budget
from adapters.telegram.chat import Chat
from adapters.telegram.render import esc
from adapters.telegram.send import delete, edit_html, send_html

log = structlog.get_logger("adapters.telegram")


class Working:
    """Signs that a turn is running: a typing action renewed every few seconds,
    and for a long turn one status line, edited as stages pass (at most once per
    ``status_every`` seconds) and deleted once the answer is out.

    The first typing action waits ``typing_after`` seconds: a reply that comes
    sooner needs no sign (Telegram's advice), and a busy bot saves a request per turn.

    Both draw on a shared `Budget`; the status line's deletion does not. ``on_status``
    hears of the status line as soon as it is sent (the adapter notes it with the
    update, and deletes it at the next start if a crash came before `clear`).

    Use as ``async with Working(...) as w: await engine.handle(turn, progress=w.stage)``,
    then deliver the outcomes, then ``await w.clear()``. The signs run in their own
    task, so a slow Bot API never holds up the turn.
    """

    def __init__(
        self,
        bot: Bot,
        chat: Chat,
        *,
        budget: Budget | None = None,
        typing_after: float = 0.3,
        typing_every: float = 4.0,
        status_after: float = 2.0,
        status_every: float = 1.0,
        on_status: Callable[[Message], Awaitable[None]] | None = None,
    ) -> None:
        self._bot = bot
        self._on_status = on_status
        self._chat = chat
        self._budget = budget or Budget()
        self._typing_after = typing_after
        self._typing_every = typing_every
        self._status_after = status_after
        self._status_every = status_every
        self._stage: str | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._status: asyncio.Task[Message | None] | None = None

    async def stage(self, name: str) -> None:
        """The engine's progress callback: remember the stage and wake the sign task."""
        self._stage = name
        self._wake.set()

    async def __aenter__(self) -> Working:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
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
        next_typing = started + self._typing_after
        next_status = started + self._status_after
        shown: str | None = None
        while True:
            self._wake.clear()  # before reading the stage, so a new one always wakes the loop
            now = loop.time()
            if now >= next_typing:
                next_typing = now + self._typing_every
                if self._budget.take():
                    chat = self._chat
                    await self._quietly(
                        self._bot.send_chat_action(chat.chat_id, ChatAction.TYPING, message_thread_id=chat.topic)
                    )
            if self._stage not in (None, shown) and now >= next_status:
                next_status = now + self._status_every
                if self._budget.take():
                    shown = self._stage
                    await self._show(shown)
            # Sleep until the next typing renewal, or the next status slot if a new stage waits for it.
            wake = min(next_typing, next_status) if self._stage not in (None, shown) else next_typing
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, wake - loop.time())):
                    await self._wake.wait()

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
            message = (await send_html(self._bot, self._chat, text))[0]
        except TelegramError as exc:
            log.info("telegram.status_failed", chat_id=self._chat.chat_id, reason=str(exc))
            return None
        if self._on_status is not None:  # kept, so that a crash before `clear` does not leave it behind
            await self._on_status(message)
        return message

    async def _quietly(self, call: Awaitable[object]) -> None:
        try:
            await call
        except TelegramError as exc:
            log.info("telegram.sign_failed", chat_id=self._chat.chat_id, reason=str(exc))
