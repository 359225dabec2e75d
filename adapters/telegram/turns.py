"""One turn in a Telegram chat: ``engine.handle(...)`` with signs of work, then the outcomes on screen.

`Turns` also remembers which question or plan of a conversation is on screen
with buttons, so that when something else answers it (a typed reply,
/cancel, /reset) its buttons go away and the decision shows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import structlog
from telegram import Bot, InputFile

from adapters.common import Budget, Pending, closing_label, open_prompt
from adapters.telegram.chat import Chat
from adapters.telegram.keyboards import owner_id
from adapters.telegram.progress import Working
from adapters.telegram.render import CAPTION_LIMIT, decided, render
from adapters.telegram.send import edit_html, send_html
from adapters.telegram.splitting import split_html
from engine import ApprovalRequest, Ask, Document, Handler, Outcome, Turn

log = structlog.get_logger("adapters.telegram")


@dataclass(frozen=True)
class Prompt:
    """An open question or plan on screen, with its buttons."""

    message_id: int
    interrupt_id: str
    html: str
    """The text as sent, to show it again with the decision below."""


class Turns:
    """Runs turns against the engine and shows their outcomes.

    Args:
        engine: anything with ``handle(turn, progress)``.
        budget: shared by all chats' signs of work, so that a busy bot sheds them.
        typing_after / typing_every / status_after / status_every: timing of the signs of work (`Working`).
    """

    def __init__(
        self,
        engine: Handler,
        *,
        budget: Budget,
        typing_after: float,
        typing_every: float,
        status_after: float,
        status_every: float,
    ) -> None:
        self.engine = engine
        self._budget = budget
        self._signs = {
            "typing_after": typing_after,
            "typing_every": typing_every,
            "status_after": status_after,
            "status_every": status_every,
        }
        self.prompts: dict[str, Prompt] = {}
        """Conversation key → its open question or plan, as far as this process showed it."""

    async def run(self, bot: Bot, chat: Chat, turn: Turn, reply_to: int | None = None) -> None:
        """Run one turn and put its outcomes on screen (the first one quoting ``reply_to``)."""
        started = time.perf_counter()
        async with Working(bot, chat, budget=self._budget, **self._signs) as working:
            outcomes = await self.engine.handle(turn, progress=working.stage)
        await self._close_answered(bot, chat, turn, outcomes)
        await self.deliver(bot, chat, outcomes, reply_to)
        await working.clear()
        log.info(
            "telegram.turn",
            conversation=chat.conversation,
            turn=turn.kind,
            outcomes=[o.kind for o in outcomes],
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
        )

    async def deliver(self, bot: Bot, chat: Chat, outcomes: list[Outcome], reply_to: int | None = None) -> None:
        """Send outcomes in order: messages (split, with keyboards) and documents."""
        for outcome in outcomes:
            if isinstance(outcome, Document):
                await bot.send_document(
                    chat.chat_id,
                    InputFile(outcome.content.encode("utf-8"), filename=outcome.filename),
                    caption=outcome.caption[:CAPTION_LIMIT] or None,
                    message_thread_id=chat.topic,
                )
                continue
            owner = owner_id(outcome.asked_by) if isinstance(outcome, (Ask, ApprovalRequest)) else None
            rendered = render(outcome, owner)
            if rendered is None:
                continue
            sent = await send_html(bot, chat, rendered.html, rendered.keyboard, reply_to)
            reply_to = None  # only the first reply quotes the message it answers
            if isinstance(outcome, (Ask, ApprovalRequest)) and sent:
                last_part = split_html(rendered.html)[-1]
                self.prompts[chat.conversation] = Prompt(sent[-1].message_id, outcome.interrupt_id, last_part)

    async def pending(self, chat: Chat, user: str) -> Pending | None:
        """The conversation's open question or plan (a read-only ``status`` turn, no model call)."""
        return await open_prompt(self.engine, chat.conversation, user)

    def take_prompt(self, chat: Chat, message_id: int) -> Prompt | None:
        """Forget the open prompt if it is this message, and return it."""
        prompt = self.prompts.get(chat.conversation)
        if prompt is None or prompt.message_id != message_id:
            return None
        return self.prompts.pop(chat.conversation)

    async def _close_answered(self, bot: Bot, chat: Chat, turn: Turn, outcomes: list[Outcome]) -> None:
        """Drop the buttons of a question that this turn answered without them."""
        prompt = self.prompts.get(chat.conversation)
        if prompt is None or any(
            isinstance(o, (Ask, ApprovalRequest)) and o.interrupt_id == prompt.interrupt_id for o in outcomes
        ):
            return
        still = await self.pending(chat, turn.user)
        if still is not None and still.interrupt_id == prompt.interrupt_id:
            return  # e.g. someone else typed in a group: the question is still open
        self.prompts.pop(chat.conversation, None)
        await edit_html(bot, chat.chat_id, prompt.message_id, decided(prompt.html, closing_label(turn)))

