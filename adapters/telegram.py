"""Telegram adapter: updates in, ``engine.handle(...)``, outcomes out (ARCHITECTURE §6–7).

How an update travels:

1. python-telegram-bot hands updates to the handlers below one at a time (the
   application is built without ``concurrent_updates``). A handler works out
   what the update means and puts a job in its conversation's queue *before it
   awaits anything*, then returns; so turns of one chat keep their arrival
   order while other chats run concurrently in their own workers
   (`ChatQueues`). A gate in front drops duplicate ``update_id`` s and people
   outside ``ALLOWED_USERS``.
2. The job calls ``engine.handle(turn, progress=...)`` while a typing action
   and, for long turns, a status line show that Almanac works (`Working`).
3. The outcomes are rendered as HTML (`adapters.telegram_render`) and sent
   (`adapters.telegram_send`). Questions and plans carry inline keyboards.

Button presses are answered at once: a foreign press (the owner is in the
callback data) or a second press on the same message gets its alert straight
from the handler. Otherwise the press waits its turn in the queue, where a
cheap ``status`` look-up tells whether its question is still the open one;
the callback query is answered *before* the slow resume runs. A press that is
stale or foreign is sent to the engine as well — it refuses without changing
anything — and its Notice becomes the alert.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Protocol

import structlog
from telegram import Bot, BotCommand, CallbackQuery, ForceReply, InputFile, MessageEntity, Update
from telegram import Message as TgMessage
from telegram.error import Forbidden, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from adapters import telegram_texts as texts
from adapters.telegram_ordering import ChatQueues, Recent
from adapters.telegram_render import (
    CAPTION_LIMIT,
    REVISE_PROMPT,
    Press,
    decided,
    esc,
    forget_keyboard,
    owner_id,
    render,
    split_html,
)
from adapters.telegram_send import Chat, Working, answer_query, edit_html, send_html
from engine.outcomes import ApprovalRequest, Ask, Document, Notice, Outcome
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, ControlAction, Message, Resume, Turn

log = structlog.get_logger("adapters.telegram")

Progress = Callable[[str], Awaitable[None]]
Ctx = ContextTypes.DEFAULT_TYPE
App = Application[Any, Any, Any, Any, Any, Any]

_CONTROLS: dict[str, ControlAction] = {
    "reset": "reset",
    "cancel": "cancel",
    "retry": "retry",
    "status": "status",
    "export": "export",
    "undo": "undo",
}
_COMMANDS = ("start", "help", "log", "ask", "timezone", "tz", "forget", *_CONTROLS)


class Engine(Protocol):
    """The one engine method an adapter uses."""

    async def handle(self, turn: Turn, progress: Progress | None = None) -> list[Outcome]: ...


@dataclass(frozen=True)
class _Prompt:
    """An open question or plan on screen, so that answering it elsewhere can drop its buttons."""

    message_id: int
    interrupt_id: str
    html: str


class TelegramAdapter:
    """Maps Telegram messages, commands and button presses onto engine turns.

    Args:
        engine: anything with ``handle(turn, progress)``, normally `engine.engine.Engine`.
        allowed_users: Telegram user ids allowed to use the bot; empty = everyone.
        typing_every / status_after / status_every: timing of the "working" signs, in seconds.
        forget_ttl: how long a /forget confirmation button stays valid, in seconds.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        allowed_users: Iterable[str] = (),
        typing_every: float = 4.0,
        status_after: float = 2.0,
        status_every: float = 1.0,
        forget_ttl: float = 600.0,
    ) -> None:
        self._engine = engine
        self._allowed = {u.strip().removeprefix("tg:") for u in allowed_users if u.strip()}
        self._signs = {"typing_every": typing_every, "status_after": status_after, "status_every": status_every}
        self._forget_ttl = forget_ttl
        self._queues = ChatQueues(self._job_failed)
        self._seen = Recent()  # update ids
        self._claimed = Recent()  # (chat id, message id) of prompts already pressed
        self._refused = Recent()  # user ids that got their refusal
        self._prompts: dict[str, _Prompt] = {}  # conversation -> open question or plan
        self._feedback: dict[tuple[str, str], str] = {}  # (conversation, user) -> plan waiting for Revise feedback
        self._app: App | None = None

    # ------------------------------------------------------------------ wiring

    def install(self, app: App) -> None:
        """Register the handlers and the one error handler on an application."""
        self._app = app
        only_new = filters.UpdateType.MESSAGE  # edits of old messages are not new turns
        app.add_handler(TypeHandler(Update, self._gate), group=-1)
        app.add_handler(CommandHandler(list(_COMMANDS), self._on_command, filters=only_new))
        app.add_handler(MessageHandler(filters.COMMAND & only_new, self._on_unknown_command))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND & only_new, self._on_text))
        app.add_handler(MessageHandler(filters.ATTACHMENT & filters.ChatType.PRIVATE & only_new, self._on_attachment))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_error_handler(self._on_error)

    @staticmethod
    async def register_commands(bot: Bot) -> None:
        """Publish the command menu (setMyCommands)."""
        await bot.set_my_commands([BotCommand(name, about) for name, about in texts.COMMANDS])

    async def drain(self, timeout: float | None = None) -> None:
        """Let queued turns finish (before the application stops)."""
        await self._queues.drain(timeout)

    # ------------------------------------------------------------------ entry points (no await before submit)

    async def _gate(self, update: Update, context: Ctx) -> None:
        if not self._seen.add(update.update_id):
            log.info("telegram.duplicate_update", update_id=update.update_id)
            raise ApplicationHandlerStop
        user = update.effective_user
        if user is None or user.is_bot:
            raise ApplicationHandlerStop
        if self._allowed and str(user.id) not in self._allowed:
            log.info("telegram.refused", user_id=user.id, chat_id=update.effective_chat and update.effective_chat.id)
            if update.callback_query is not None:
                self._detach(context, answer_query(update.callback_query, texts.REFUSAL, alert=True), update)
            elif (message := update.message) is not None and self._refused.add(user.id):
                if self._addressed(message, context.bot) or (message.text or "").startswith("/"):
                    self._say(context.bot, Chat.of(message), esc(texts.REFUSAL), update)
                else:
                    self._refused.discard(user.id)  # chatter in a group, not meant for Almanac
            raise ApplicationHandlerStop

    async def _on_text(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        chat, bot = Chat.of(message), context.bot
        if chat.group and not self._addressed(message, bot):
            return
        text = re.sub(rf"@{re.escape(bot.username)}\b", "", message.text, flags=re.I).strip() if chat.group else message.text
        user = f"tg:{message.from_user.id}"
        plan = self._feedback.pop((chat.conversation, user), None)
        turn: Turn
        if plan is not None:
            decision = ApprovalDecision(decision="revise", feedback=text)
            turn = Resume(conversation=chat.conversation, user=user, at=message.date, interrupt_id=plan, answer=decision)
        else:
            turn = Message(
                conversation=chat.conversation, user=user, at=message.date, text=text, message_id=str(message.message_id)
            )
        self._submit_turn(bot, chat, turn, update, reply_to=message.message_id if chat.group else None)

    async def _on_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        token, _, arg = message.text.strip().partition(" ")
        name, arg = token[1:].split("@")[0].lower(), arg.strip()
        chat, bot, user = Chat.of(message), context.bot, f"tg:{message.from_user.id}"
        reply_to = message.message_id if chat.group else None
        if name in ("start", "help"):
            self._say(bot, chat, texts.START if name == "start" else texts.HELP, update, reply_to)
            return
        name = "timezone" if name == "tz" else name
        if name in ("log", "ask", "timezone") and not arg:
            self._say(bot, chat, texts.usage(name), update, reply_to)
            return
        if name == "forget":
            owner = message.from_user.id
            self._say(bot, chat, texts.FORGET_CONFIRM, update, reply_to, forget_keyboard(owner))
            return
        turn: Turn
        conv, at = chat.conversation, message.date
        if name in ("log", "ask"):
            turn = Message(conversation=conv, user=user, at=at, text=arg, message_id=str(message.message_id))
        elif name == "timezone":
            turn = Control(conversation=conv, user=user, at=at, action="timezone", argument=arg)
        else:
            if name in ("cancel", "reset"):
                self._feedback.pop((conv, user), None)
            turn = Control(conversation=conv, user=user, at=at, action=_CONTROLS[name])
        self._submit_turn(bot, chat, turn, update, reply_to)

    async def _on_unknown_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None
        name, _, to = message.text.split()[0][1:].partition("@")
        chat = Chat.of(message)
        ours = to.lower() == context.bot.username.lower()
        if (to and not ours) or (chat.group and not ours and not self._addressed(message, context.bot)):
            return  # another bot's command
        self._say(context.bot, chat, esc(texts.unknown(name)), update, message.message_id if chat.group else None)

    async def _on_attachment(self, update: Update, context: Ctx) -> None:
        assert update.message is not None
        self._say(context.bot, Chat.of(update.message), texts.ATTACHMENT_HINT, update)

    async def _on_press(self, update: Update, context: Ctx) -> None:
        query = update.callback_query
        assert query is not None
        press, message = Press.parse(query.data), query.message
        if press is None or message is None:
            self._detach(context, answer_query(query, texts.BROKEN_BUTTON, alert=True), update)
            return
        if press.owner is not None and press.owner != query.from_user.id:
            self._detach(context, answer_query(query, texts.NOT_YOURS, alert=True), update)
            return
        if not self._claimed.add((message.chat.id, message.message_id)):
            self._detach(context, answer_query(query, texts.ALREADY, alert=True), update)
            return
        chat = Chat.of(message)
        early = self._queues.busy(chat.conversation)
        if early:
            # The press waits behind a running turn: answer now rather than let the button spin.
            self._detach(context, answer_query(query, texts.QUEUED), update)
        bot = context.bot

        async def job() -> None:
            if press.kind in ("forget_yes", "forget_no"):
                await self._run_forget(bot, chat, query, press, early)
            else:
                await self._run_press(bot, chat, query, press, early)

        self._queues.submit(chat.conversation, job, update)

    # ------------------------------------------------------------------ jobs

    def _submit_turn(self, bot: Bot, chat: Chat, turn: Turn, update: Update, reply_to: int | None = None) -> None:
        async def job() -> None:
            await self._run_turn(bot, chat, turn, reply_to)

        self._queues.submit(chat.conversation, job, update)

    def _say(
        self,
        bot: Bot,
        chat: Chat,
        html: str,
        update: Update,
        reply_to: int | None = None,
        keyboard: Any = None,
    ) -> None:
        """Queue a message of the adapter's own, in order with the chat's turns."""

        async def job() -> None:
            await send_html(bot, chat, html, keyboard, reply_to)

        self._queues.submit(chat.conversation, job, update)

    async def _run_turn(self, bot: Bot, chat: Chat, turn: Turn, reply_to: int | None) -> None:
        started = time.perf_counter()
        async with Working(bot, chat, **self._signs) as working:
            outcomes = await self._engine.handle(turn, progress=working.stage)
        await self._close_answered(bot, chat, turn, outcomes)
        await self._deliver(bot, chat, outcomes, reply_to)
        await working.clear()
        log.info(
            "telegram.turn",
            conversation=chat.conversation,
            turn=turn.kind,
            outcomes=[o.kind for o in outcomes],
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
        )

    async def _deliver(self, bot: Bot, chat: Chat, outcomes: list[Outcome], reply_to: int | None) -> None:
        for outcome in outcomes:
            if isinstance(outcome, Document):
                await bot.send_document(
                    chat.chat_id,
                    InputFile(outcome.content.encode("utf-8"), filename=outcome.filename),
                    caption=esc(outcome.caption)[:CAPTION_LIMIT] or None,
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
                self._prompts[chat.conversation] = _Prompt(
                    sent[-1].message_id, outcome.interrupt_id, split_html(rendered.html)[-1]
                )

    async def _pending(self, chat: Chat, user: str) -> Ask | ApprovalRequest | None:
        """The conversation's open question or plan (a read-only ``status`` turn)."""
        outcomes = await self._engine.handle(Control(conversation=chat.conversation, user=user, action="status"))
        return next((o for o in outcomes if isinstance(o, (Ask, ApprovalRequest))), None)

    async def _close_answered(self, bot: Bot, chat: Chat, turn: Turn, outcomes: list[Outcome]) -> None:
        """Drop the buttons of a question that this turn answered (a typed reply, /cancel, /reset…)."""
        prompt = self._prompts.get(chat.conversation)
        if prompt is None or any(
            isinstance(o, (Ask, ApprovalRequest)) and o.interrupt_id == prompt.interrupt_id for o in outcomes
        ):
            return
        still = await self._pending(chat, turn.user)
        if still is not None and still.interrupt_id == prompt.interrupt_id:
            return
        self._prompts.pop(chat.conversation, None)
        await edit_html(bot, chat.chat_id, prompt.message_id, decided(prompt.html, _decision(turn)))

    async def _run_press(self, bot: Bot, chat: Chat, query: CallbackQuery, press: Press, answered: bool) -> None:
        user = f"tg:{query.from_user.id}"
        pending = await self._pending(chat, user)
        current = pending if pending is not None and pending.interrupt_id == press.interrupt_id else None
        answer, label = _answer_for(press, current)
        if current is None or (current.asked_by and current.asked_by != user):
            # Stale or foreign: the engine refuses without changing anything and says why.
            probe = Resume(
                conversation=chat.conversation,
                user=user,
                interrupt_id=press.interrupt_id,
                answer=answer or ClarificationAnswer(answers=[]),
            )
            outcomes = await self._engine.handle(probe)
            notice = next((o.text for o in outcomes if isinstance(o, Notice)), texts.BROKEN_BUTTON)
            await self._refuse_press(bot, chat, query, notice, answered)
            return
        if answer is None:
            await self._refuse_press(bot, chat, query, texts.BROKEN_BUTTON, answered)
            return
        if not answered:
            await answer_query(query, label)
        await self._mark_decided(bot, chat, query, label)
        if press.kind == "revise":
            # The plan stays open; the person's next message is the feedback.
            self._feedback[(chat.conversation, user)] = press.interrupt_id
            mention = f'<a href="tg://user?id={query.from_user.id}">{esc(query.from_user.first_name)}</a>, ' if chat.group else ""
            placeholder = ForceReply(selective=True, input_field_placeholder=REVISE_PROMPT)
            await send_html(bot, chat, mention + esc(REVISE_PROMPT), placeholder)
            return
        turn = Resume(conversation=chat.conversation, user=user, interrupt_id=press.interrupt_id, answer=answer)
        await self._run_turn(bot, chat, turn, None)

    async def _run_forget(self, bot: Bot, chat: Chat, query: CallbackQuery, press: Press, answered: bool) -> None:
        message = query.message
        sent_at = message.date if isinstance(message, TgMessage) else datetime.fromtimestamp(0, timezone.utc)
        if (datetime.now(timezone.utc) - sent_at).total_seconds() > self._forget_ttl:
            await self._refuse_press(bot, chat, query, texts.FORGET_EXPIRED, answered)
            await self._mark_decided(bot, chat, query, "Expired.")
            return
        label = "Deleting everything…" if press.kind == "forget_yes" else "Kept everything."
        if not answered:
            await answer_query(query, label)
        await self._mark_decided(bot, chat, query, label)
        if press.kind == "forget_yes":
            user = f"tg:{query.from_user.id}"
            self._feedback.pop((chat.conversation, user), None)
            await self._run_turn(bot, chat, Control(conversation=chat.conversation, user=user, action="forget"), None)

    async def _refuse_press(self, bot: Bot, chat: Chat, query: CallbackQuery, text: str, answered: bool) -> None:
        if query.message is not None:
            self._claimed.discard((query.message.chat.id, query.message.message_id))
        if answered:  # the query was answered early, so the reason goes out as a message
            await send_html(bot, chat, esc(text))
        else:
            await answer_query(query, text, alert=True)

    async def _mark_decided(self, bot: Bot, chat: Chat, query: CallbackQuery, decision: str) -> None:
        """Show the decision on the pressed message and drop its keyboard."""
        message = query.message
        if not isinstance(message, TgMessage):
            return
        prompt = self._prompts.get(chat.conversation)
        if prompt is not None and prompt.message_id == message.message_id:
            self._prompts.pop(chat.conversation)
            original = prompt.html
        else:  # after a restart: rebuild the HTML from the message's entities
            original = message.text_html if message.text else ""
        await edit_html(bot, message.chat_id, message.message_id, decided(original, decision))

    # ------------------------------------------------------------------ errors and helpers

    async def _job_failed(self, update: object, exc: Exception) -> None:
        if self._app is not None:
            await self._app.process_error(update, exc)
        else:  # pragma: no cover - install() always ran in practice
            log.error("telegram.job_failed", exc_info=exc)

    async def _on_error(self, update: object, context: Ctx) -> None:
        """The one error handler: log with chat and user id, apologise briefly, never show a traceback."""
        chat_id = user_id = topic = None
        if isinstance(update, Update):
            chat_id = update.effective_chat.id if update.effective_chat else None
            user_id = update.effective_user.id if update.effective_user else None
            if update.effective_message is not None:
                topic = Chat.of(update.effective_message).topic
        log.error("telegram.error", chat_id=chat_id, user_id=user_id, exc_info=context.error)
        if chat_id is None or isinstance(context.error, Forbidden):
            return
        try:
            if isinstance(update, Update) and update.callback_query is not None:
                await answer_query(update.callback_query)
            await context.bot.send_message(chat_id, texts.APOLOGY, message_thread_id=topic)
        except TelegramError as exc:
            log.warning("telegram.apology_failed", chat_id=chat_id, reason=str(exc))

    def _detach(self, context: Ctx, call: Coroutine[Any, Any, None], update: Update) -> None:
        """Run a quick reply (a callback alert) outside the chat's queue."""
        context.application.create_task(call, update=update)

    @staticmethod
    def _addressed(message: TgMessage, bot: Bot) -> bool:
        """In groups Almanac hears only what is meant for it: replies to it and mentions of it."""
        if message.chat.type == "private":
            return True
        reply = message.reply_to_message
        if reply is not None and reply.from_user is not None and reply.from_user.id == bot.id:
            if reply.forum_topic_created is None:  # in forums every message "replies" to the topic's first one
                return True
        name = f"@{bot.username}".lower()
        for entity, text in message.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION]).items():
            if entity.type == MessageEntity.MENTION and text.lower() == name:
                return True
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None and entity.user.id == bot.id:
                return True
        return False


def _answer_for(press: Press, pending: Ask | ApprovalRequest | None) -> tuple[ClarificationAnswer | ApprovalDecision | None, str]:
    """The answer a press gives to the open question or plan, and a short label for it."""
    if press.kind == "skip":
        return ClarificationAnswer(declined=True), "Skipped"
    if press.kind == "choice":
        options = pending.questions[0].options if isinstance(pending, Ask) else []
        if 0 <= press.index < len(options):
            return ClarificationAnswer(answers=[options[press.index]]), f"✓ {options[press.index]}"
        return None, ""
    labels = {"approve": "✓ Approved", "revise": "✎ Revise: " + REVISE_PROMPT, "cancel": "✗ Cancelled"}
    decision = {"approve": "approve", "revise": "revise", "cancel": "cancel"}[press.kind]
    return ApprovalDecision(decision=decision), labels[press.kind]


def _decision(turn: Turn) -> str:
    """How a question closed by something other than its buttons is marked."""
    if isinstance(turn, Message):
        text = " ".join(turn.text.split())
        return "✓ " + (text if len(text) <= 100 else text[:99] + "…")
    if isinstance(turn, Resume):
        return "✓ Answered"
    return {"cancel": "✗ Cancelled", "reset": "✗ Closed: fresh conversation", "forget": "✗ Closed"}.get(
        turn.action, "✓ Done"
    )
