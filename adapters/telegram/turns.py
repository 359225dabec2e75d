"""One turn in a Telegram chat: ``engine.handle(...)`` with signs of work, then the outcomes on screen.

`Turns` also remembers which question or plan of a conversation is on screen
with buttons, so that when something else answers it (a typed reply,
/cancel, /reset) its buttons go away and the decision shows, and what it said
last in each conversation (a Revise prompt takes the next message as the
change only while it is the last thing said). In a group, ``/export`` goes to
the person privately; a chart goes where the answer goes, as a photo.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog
from telegram import Bot, ForceReply, InlineKeyboardMarkup, InputFile, ReplyParameters
from telegram import Message as TgMessage
from telegram.error import BadRequest, Forbidden

from adapters.common import Budget, Pending, closing_label, open_prompt
from adapters.common.charts import caption_text, cut, filename, gone_text, read_png
from adapters.telegram import texts
from adapters.telegram.chat import Chat
from adapters.telegram.errors import after_the_turn
from adapters.telegram.keyboards import owner_id
from adapters.telegram.progress import Working
from adapters.telegram.render import CAPTION_LIMIT, decided, esc, render
from adapters.telegram.send import edit_html, kept, send_html
from adapters.telegram.splitting import split_html, utf16_len
from engine import ApprovalRequest, Ask, Chart, Closed, Document, Handler, Outcome, ReminderCard, Turn

log = structlog.get_logger("adapters.telegram")


def _picture_refused(exc: BadRequest) -> bool:
    """Telegram refused the picture itself (``PHOTO_INVALID_DIMENSIONS``, ``IMAGE_PROCESS_FAILED``, …)."""
    text = str(exc).upper()
    return "PHOTO" in text or "IMAGE" in text


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
        keep_replies_s: how long a reply that flood control holds back is kept and sent when the wait
            ends (`adapters.telegram.send.kept`); past that the person hears the turn was handled.
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
        on_status: Callable[[TgMessage], Awaitable[None]] | None = None,
        keep_replies_s: float = 600.0,
    ) -> None:
        self.engine = engine
        self._keep_s = keep_replies_s
        self._on_status = on_status
        self._budget = budget
        self._signs = {
            "typing_after": typing_after,
            "typing_every": typing_every,
            "status_after": status_after,
            "status_every": status_every,
        }
        self.prompts: dict[str, Prompt] = {}
        """Conversation key → its open question or plan, as far as this process showed it."""
        self.last_sent: dict[str, int] = {}
        """Conversation key → the id of the last message Almanac sent there."""

    async def run(self, bot: Bot, chat: Chat, turn: Turn, reply_to: int | None = None) -> None:
        """Run one turn and put its outcomes on screen (the first one quoting ``reply_to``)."""
        started = time.perf_counter()
        async with Working(bot, chat, budget=self._budget, on_status=self._on_status, **self._signs) as working:
            outcomes = await self.engine.handle(turn, progress=working.stage)
        with after_the_turn(outcomes):  # done: from here on a failure must not ask to try again
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

    async def send(
        self,
        bot: Bot,
        chat: Chat,
        html: str,
        keyboard: InlineKeyboardMarkup | ForceReply | None = None,
        reply_to: int | None = None,
    ) -> list[TgMessage]:
        """`send_html`, kept through flood control, remembering it as the last thing said in the conversation."""
        sent = await send_html(bot, chat, html, keyboard, reply_to, keep_s=self._keep_s)
        if sent:
            self.last_sent[chat.conversation] = sent[-1].message_id
        return sent

    async def deliver(self, bot: Bot, chat: Chat, outcomes: list[Outcome], reply_to: int | None = None) -> None:
        """Send outcomes in order: messages (split, with keyboards) and documents.

        Raises:
            ReplyNotShown: a send failed; the turn itself was handled.
        """
        with after_the_turn(outcomes):
            await self._deliver(bot, chat, outcomes, reply_to)

    async def _deliver(self, bot: Bot, chat: Chat, outcomes: list[Outcome], reply_to: int | None) -> None:
        for outcome in outcomes:
            if isinstance(outcome, Document):
                await self._document(bot, chat, outcome, reply_to)
                continue
            if isinstance(outcome, Chart):
                await self._chart(bot, chat, outcome, reply_to)
                reply_to = None
                continue
            owner = owner_id(outcome.asked_by) if isinstance(outcome, (Ask, ApprovalRequest, ReminderCard)) else None
            rendered = render(outcome, owner)
            if rendered is None:
                continue
            sent = await self.send(bot, chat, rendered.html, rendered.keyboard, reply_to)
            reply_to = None  # only the first reply quotes the message it answers
            if isinstance(outcome, (Ask, ApprovalRequest)) and sent:
                last_part = split_html(rendered.html)[-1]
                self.prompts[chat.conversation] = Prompt(sent[-1].message_id, outcome.interrupt_id, last_part)

    async def _document(self, bot: Bot, chat: Chat, doc: Document, reply_to: int | None) -> None:
        """A file; in a group it goes to the person's private chat, never into the group."""
        private = chat.group and chat.member is not None
        to = chat.member if private and chat.member is not None else chat.chat_id
        try:
            await kept(
                lambda: bot.send_document(
                    to,
                    InputFile(doc.content.encode("utf-8"), filename=doc.filename),
                    caption=doc.caption[:CAPTION_LIMIT] or None,
                    message_thread_id=None if private else chat.topic,
                ),
                self._keep_s,
                chat.chat_id,
            )
        except (Forbidden, BadRequest) as exc:
            if not private:
                raise
            # The person never opened a private chat with the bot (or blocked it).
            log.info("telegram.private_file_refused", chat_id=chat.chat_id, reason=str(exc))
            await self.send(bot, chat, texts.export_private_first(bot.username), reply_to=reply_to)
            return
        if private:
            await self.send(bot, chat, texts.EXPORT_SENT_PRIVATELY, reply_to=reply_to)

    async def _chart(self, bot: Bot, chat: Chat, chart: Chart, reply_to: int | None) -> None:
        """A photo with its caption, where the answer goes (a chart shows figures the person asked for here).

        Read from its path at every delivery, so a turn given back after a restart sends it again;
        a file gone by then sends the caption as text instead.
        """
        png = await read_png(chart)
        if png is None:
            await self.send(bot, chat, esc(gone_text(chart)), reply_to=reply_to)
            return
        # Plain text, no parse mode: nothing in the figures can break markup, and nothing needs escaping.
        caption = cut(caption_text(chart), CAPTION_LIMIT, utf16_len) or None
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
        as_photo = True

        async def send() -> TgMessage:
            file = InputFile(png, filename=filename(chart))
            if as_photo:
                return await bot.send_photo(
                    chat.chat_id, file, caption=caption, message_thread_id=chat.topic, reply_parameters=reply
                )
            return await bot.send_document(
                chat.chat_id, file, caption=caption, message_thread_id=chat.topic, reply_parameters=reply
            )

        try:
            sent = await kept(send, self._keep_s, chat.chat_id)
        except BadRequest as exc:
            if not _picture_refused(exc):
                raise
            # Telegram would not take it as a photo (too large, odd dimensions): the file still arrives.
            log.warning("telegram.chart_as_document", chat_id=chat.chat_id, reason=str(exc))
            as_photo = False
            sent = await kept(send, self._keep_s, chat.chat_id)
        self.last_sent[chat.conversation] = sent.message_id

    async def pending(self, chat: Chat, user: str) -> Pending | None:
        """The conversation's open question or plan (the engine's ``pending`` read: no turn, no model call)."""
        return await open_prompt(self.engine, chat.conversation, user)

    def asked_in(self, chat_id: int, message_id: int) -> str | None:
        """The conversation whose open question or plan is this message, as far as this process showed it."""
        return next(
            (c for c, p in self.prompts.items() if p.message_id == message_id and c.split(":")[1] == str(chat_id)), None
        )

    def take_prompt(self, chat: Chat, message_id: int) -> Prompt | None:
        """Forget the open prompt if it is this message, and return it."""
        prompt = self.prompts.get(chat.conversation)
        if prompt is None or prompt.message_id != message_id:
            return None
        return self.prompts.pop(chat.conversation)

    async def _close_answered(self, bot: Bot, chat: Chat, turn: Turn, outcomes: list[Outcome]) -> None:
        """Drop the buttons of a question that this turn answered without them (the engine says so: `Closed`)."""
        prompt = self.prompts.get(chat.conversation)
        if prompt is None or not any(isinstance(o, Closed) and o.interrupt_id == prompt.interrupt_id for o in outcomes):
            return  # e.g. someone else typed in a group: the question is still open
        self.prompts.pop(chat.conversation, None)
        await edit_html(bot, chat.chat_id, prompt.message_id, decided(prompt.html, closing_label(turn)))
