"""Progress on screen while a turn runs: a typing action and, for long turns, the turn's steps.

In a private chat the steps stream as a message draft (``sendMessageDraft``): the chat shows a
message being composed, one line per step, that the answer then supersedes (a draft is an
ephemeral preview of about 30 seconds, never a message of the chat: nothing to delete, nothing left
behind by a crash). Drafts are for private chats only; in groups one status line is edited as the
steps pass and deleted once the answer is out.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from types import TracebackType

import structlog
from telegram import Bot, Message
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, TelegramError

from adapters.common import Budget
from adapters.telegram.chat import Chat
from adapters.telegram.render import esc
from adapters.telegram.send import delete, edit_html, send_html
from engine import Step

log = structlog.get_logger("adapters.telegram")

DRAFT_LINES = 8
"""Steps a draft shows, the latest last: older ones scroll off."""
DRAFT_KEEP_S = 20.0
"""A draft is a preview of about 30 seconds: one shown this long ago is sent again, so it stays."""


def draft_html(steps: list[str]) -> str:
    """The steps so far as a draft: done ones ticked, the current one in progress."""
    shown = steps[-DRAFT_LINES:]
    done = [f"✓ {esc(text)}" for text in shown[:-1]]
    return "\n".join([*done, f"⏳ <i>{esc(shown[-1])}…</i>"])


class Working:
    """Signs that a turn is running: a typing action renewed every few seconds,
    and for a long turn its steps: in a private chat a draft, elsewhere one status
    line, either updated as steps pass (at most once per ``status_every`` seconds;
    a draft shows every step since, so none is lost to the throttle). The status
    line is deleted once the answer is out; the answer supersedes a draft.

    The first typing action waits ``typing_after`` seconds: a reply that comes
    sooner needs no sign (Telegram's advice), and a busy bot saves a request per turn.

    Both draw on a shared `Budget`; the status line's deletion does not. ``on_status``
    hears of the status line as soon as it is sent (the adapter notes it with the
    update, and deletes it at the next start if a crash came before `clear`).

    A private chat whose draft Telegram refuses (an old client, a bot without drafts) gets the
    status line instead, for the rest of the turn.

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
        self._steps: list[str] = []
        self._drafting = not chat.group
        self._draft_id = secrets.randbelow(2**31 - 1) + 1  # non-zero; one per turn, so its changes animate
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._status: asyncio.Task[Message | None] | None = None

    async def stage(self, step: Step) -> None:
        """The engine's progress callback: remember the step and wake the sign task."""
        if not self._steps or self._steps[-1] != step.text:
            self._steps.append(step.text)
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
        shown = 0  # steps on screen
        shown_at = started
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
            # A draft fades after about 30 s: one shown that long ago is due again, as a new step is.
            refresh_at = shown_at + DRAFT_KEEP_S if self._drafting and shown else float("inf")
            if (len(self._steps) > shown or now >= refresh_at) and now >= next_status:
                next_status = now + self._status_every
                if self._budget.take():
                    shown, shown_at = len(self._steps), now
                    await self._show(self._steps[:shown])
                    refresh_at = shown_at + DRAFT_KEEP_S if self._drafting else float("inf")
            # Sleep until the next typing renewal, or the next status slot if a step (or a refresh) waits for it.
            due = len(self._steps) > shown or loop.time() >= refresh_at
            wake = min(next_typing, next_status if due else refresh_at)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, wake - loop.time())):
                    await self._wake.wait()

    async def _show(self, steps: list[str]) -> None:
        if self._drafting and await self._draft(draft_html(steps)):
            return
        text = f"⏳ <i>{esc(steps[-1])}…</i>"
        if self._status is None:
            # Shielded: cancelling the sign task must not lose the id of a line being sent.
            self._status = asyncio.ensure_future(self._first_status(text))
            await asyncio.shield(self._status)
            return
        message = await asyncio.shield(self._status)
        if message is not None:
            await self._quietly(edit_html(self._bot, message.chat_id, message.message_id, text))

    async def _draft(self, html: str) -> bool:
        """Show the steps as the chat's draft; False (and the status line from now on) when refused."""
        chat = self._chat
        try:
            await self._bot.send_message_draft(
                chat.chat_id, self._draft_id, html, message_thread_id=chat.topic, parse_mode=ParseMode.HTML
            )
        except BadRequest as exc:  # drafts refused here: the status line shows the steps instead
            log.info("telegram.draft_refused", chat_id=chat.chat_id, reason=str(exc))
            self._drafting = False
            return False
        except TelegramError as exc:  # flood control, a dropped connection: this update is skipped
            log.info("telegram.sign_failed", chat_id=chat.chat_id, reason=str(exc))
        return True

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
