"""Telegram adapter: updates in, ``engine.handle(...)``, outcomes out (ARCHITECTURE §6–7).

How an update travels:

1. python-telegram-bot hands updates to the handlers below one at a time (the
   application is built without ``concurrent_updates``). Every update is in
   the engine's durable inbox by then (``intake.py``). A gate admits each
   ``update_id`` once and drops people outside ``ALLOWED_USERS``. A handler
   works out what the update means and puts a job in its conversation's queue
   *before it awaits anything*, then returns. So turns of one chat keep their
   arrival order, while other chats run concurrently in their own workers
   (`adapters.common.ChatQueues`).
2. The job runs the turn (`Turns`): ``engine.handle(turn, progress=...)`` with a
   typing action and, for long turns, a status line; then the outcomes go out
   as HTML messages, questions and plans with inline keyboards.
3. Button presses are answered at once when the handler can tell they are
   foreign (the owner is in the callback data) or repeated; otherwise they
   wait their turn like messages (`Presses`).
4. When every job an update started has ended, the update is marked done in
   the inbox; one a crash cut off is dispatched again at the next start.

Keys: conversation ``tg:<chat id>`` (plus ``:<topic id>`` in forum topics, and
``:<user id>`` in groups: each member's exchange is its own), user
``tg:<user id>``, message id = Telegram's message id in the chat.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any

import structlog
from telegram import Bot, BotCommand, InlineKeyboardMarkup, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from adapters.common import (
    ALIASES,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    Budget,
    DeliveryStore,
    Intake,
    MemoryDeliveries,
    command_name,
    command_turn,
)
from adapters.telegram import texts
from adapters.telegram.chat import Chat, addressed, answers_revise_prompt
from adapters.telegram.edits import edited_message_handler
from adapters.telegram.errors import on_error
from adapters.telegram.gate import Gate
from adapters.telegram.intake import SOURCE, delivery_of, update_of
from adapters.telegram.jobs import Job, Jobs
from adapters.telegram.keyboards import Press, forget_keyboard
from adapters.telegram.presses import Presses
from adapters.telegram.render import esc
from adapters.telegram.send import answer_query
from adapters.telegram.turns import Turns
from engine import Control, Delivery, Handler, Message, Outcome, Reminding, SharedDeliveries, Turn

log = structlog.get_logger("adapters.telegram")

Ctx = ContextTypes.DEFAULT_TYPE
App = Application[Any, Any, Any, Any, Any, Any]

_COMMANDS = ("start", "help", *MESSAGE_COMMANDS, *CONTROLS, *ALIASES)


class TelegramAdapter:
    """Maps Telegram messages, commands and button presses onto engine turns.

    Args:
        engine: anything with ``handle(turn, progress)`` (`engine.Handler`), normally `engine.Engine`,
            whose intake methods keep every update until it is handled (a stand-in without
            them gets an in-memory intake: once-only, but not durable).
        allowed_users: Telegram user ids allowed to use the bot; empty = everyone.
        typing_after / typing_every / status_after / status_every: timing of the signs of work, in seconds.
        signs_per_second: typing actions and status lines allowed per second across all chats;
            beyond that they are skipped (replies never are).
        forget_ttl: how long a /forget confirmation button stays valid, in seconds.
        keep_replies_s: how long a reply that flood control holds back is kept and sent when the
            wait ends; past that the person hears their message was handled (never "try again").
    """

    def __init__(
        self,
        engine: Handler,
        *,
        allowed_users: Iterable[str] = (),
        typing_after: float = 0.3,
        typing_every: float = 4.0,
        status_after: float = 2.0,
        status_every: float = 1.0,
        signs_per_second: float = 10.0,
        forget_ttl: float = 600.0,
        keep_replies_s: float = 600.0,
    ) -> None:
        self.intake = Intake(engine if isinstance(engine, DeliveryStore) else MemoryDeliveries(), SOURCE)
        """Recorded before confirmed; admitted once; done when handled (``intake.py``)."""
        self._gate = Gate(allowed_users, self.intake, self._say, self._detach)
        self._jobs = Jobs(self.intake, self._job_failed)
        self._turns = Turns(
            engine,
            budget=Budget(per_second=signs_per_second, burst=2 * signs_per_second),
            typing_after=typing_after,
            typing_every=typing_every,
            status_after=status_after,
            status_every=status_every,
            on_status=self._jobs.status_shown,
            keep_replies_s=keep_replies_s,
        )
        self._presses = Presses(self._turns, forget_ttl)
        self._app: App | None = None
        self._reminding: asyncio.Task[None] | None = None

    def install(self, app: App) -> None:
        """Register the handlers and the one error handler on an application."""
        self._app = app
        only_new = filters.UpdateType.MESSAGE  # an edit of an old message is not a new turn
        app.add_handler(TypeHandler(Update, self._gate), group=-1)  # who may, and each update once
        app.add_handler(CommandHandler(list(_COMMANDS), self._on_command, filters=only_new))
        app.add_handler(MessageHandler(filters.COMMAND & only_new, self._on_unknown_command))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND & only_new, self._on_text))
        app.add_handler(MessageHandler(filters.ATTACHMENT & filters.ChatType.PRIVATE & only_new, self._on_attachment))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_handler(edited_message_handler(self._say))  # edits are not applied: say so and how to correct
        app.add_handler(TypeHandler(Update, self._dispatched), group=99)  # after every other group
        app.add_error_handler(on_error)

    @staticmethod
    async def register_commands(bot: Bot) -> None:
        """Publish the command menu (setMyCommands)."""
        await bot.set_my_commands([BotCommand(name, about) for name, about in texts.COMMANDS])

    def start_reminders(self, bot: Bot, when_leading: str | None = None, every_s: float = 5.0) -> None:
        """Send the engine's reminders into their chats as they fall due (an engine without them: nothing).

        Args:
            when_leading: with several workers, start only once this process leads that role (one
                scheduler among them; another takes over when it dies).
        """
        engine = self._turns.engine
        if isinstance(engine, Reminding) and self._reminding is None:

            async def push(conversation: str, outcomes: Sequence[Outcome]) -> None:
                # Straight out, not behind the chat's queued turns: a reminder is not an answer to any of
                # them, and a turn of a minute must not hold it back. A failed send raises: sent again later.
                await self._turns.deliver(bot, Chat.from_key(conversation), list(outcomes))

            async def remind() -> None:
                if when_leading is not None and isinstance(engine, SharedDeliveries):
                    while not await engine.lead(when_leading):
                        await asyncio.sleep(every_s)
                await engine.deliver_reminders("tg", push)

            self._reminding = asyncio.create_task(remind(), name="telegram.reminders")

    async def dispatch_recorded(self, delivery: Delivery) -> None:
        """Dispatch a delivery a receiver recorded (claimed by this worker), as a replay after a crash is."""
        assert self._app is not None, "install() the adapter on an application first"
        update = await update_of(delivery, self._app.bot)
        if update is not None:
            await self._app.process_update(update)

    async def stop_reminders(self) -> None:
        if self._reminding is not None:
            self._reminding.cancel()
            await asyncio.gather(self._reminding, return_exceptions=True)
            self._reminding = None

    async def drain(self, timeout: float | None = None) -> None:
        """Let queued turns and quick replies finish (before the application stops)."""
        await self._jobs.drain(timeout)

    # ------------------------------------------------------------------ handlers: no await before submit

    async def record(self, updates: Sequence[Update]) -> None:
        """Record updates before Telegram hears they arrived — only those of people allowed:
        of anyone else nothing is stored (they get one refusal)."""
        await self.intake.record([delivery_of(u) for u in updates if self._gate.allows(u)])

    async def _dispatched(self, update: Update, context: Ctx) -> None:
        """Every handler has queued its jobs: the update is done once they are."""
        await self.intake.dispatched(str(update.update_id))

    async def _on_text(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        chat, bot = Chat.of(message, message.from_user), context.bot
        if chat.group and not addressed(message, bot):
            return
        text = message.text
        if chat.group:
            text = re.sub(rf"@{re.escape(bot.username)}\b", "", text, flags=re.IGNORECASE).strip()
        user = f"tg:{message.from_user.id}"
        turn = Message(
            conversation=chat.conversation, user=user, at=message.date, text=text, message_id=str(message.message_id)
        )
        reply_to = message.message_id if chat.group else None
        replied = message.reply_to_message.message_id if message.reply_to_message is not None else None
        to_prompt = answers_revise_prompt(message, bot)

        async def job() -> None:
            # Decided in the job, behind the chat's earlier jobs (a Revise press among them):
            # the words are the change to the plan only when they reply to "What should
            # change?" or that question is the last thing Almanac said here.
            await self._presses.feedback_or_message(bot, chat, turn, reply_to, replied, to_prompt)

        self._submit(chat.conversation, job, update)

    async def _on_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        token, arg = re.split(r"\s+", message.text.strip() + " ", maxsplit=1)  # "/log\nbench…" too
        name, arg = command_name(token.split("@")[0]), arg.strip()
        chat, bot, user = Chat.of(message, message.from_user), context.bot, f"tg:{message.from_user.id}"
        reply_to = message.message_id if chat.group else None
        if name in ("start", "help"):
            self._say(bot, chat, texts.START if name == "start" else texts.HELP, update, reply_to)
        elif name in NEEDS_ARGUMENT and not arg:
            self._say(bot, chat, texts.usage(name), update, reply_to)
        elif name == "forget":  # in CONFIRM_FIRST: a button confirms it (`Presses`)
            self._say(bot, chat, texts.FORGET_CONFIRM, update, reply_to, forget_keyboard(message.from_user.id))
        else:
            conv = chat.conversation
            # /log and /ask become messages; the controls take their argument along ("/export json").
            turn = command_turn(
                name,
                arg,
                conversation=conv,
                user=user,
                at=message.date,
                message_id=str(message.message_id),
            )
            assert turn is not None  # CommandHandler only lets through the names in _COMMANDS
            if isinstance(turn, Control):  # a redelivered command returns what it did, instead of doing it twice
                turn = turn.model_copy(update={"message_id": str(message.message_id)})
            if name in ("cancel", "reset"):
                self._presses.feedback.pop((conv, user), None)
            self._run(bot, chat, turn, update, reply_to)

    async def _on_unknown_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None
        name, _, to = message.text.split()[0][1:].partition("@")
        chat, ours = Chat.of(message, message.from_user), to.lower() == context.bot.username.lower()
        if (to and not ours) or (chat.group and not ours and not addressed(message, context.bot)):
            return  # another bot's command
        self._say(context.bot, chat, esc(texts.unknown(name)), update, message.message_id if chat.group else None)

    async def _on_attachment(self, update: Update, context: Ctx) -> None:
        assert update.message is not None
        self._say(context.bot, Chat.of(update.message, update.message.from_user), texts.ATTACHMENT_HINT, update)

    async def _on_press(self, update: Update, context: Ctx) -> None:
        query = update.callback_query
        assert query is not None
        press, message = Press.parse(query.data), query.message
        if press is None or message is None:
            self._detach(answer_query(query, texts.BROKEN_BUTTON, alert=True), update)
        elif (press.owner is not None and press.owner != query.from_user.id) or self._turns.asked_in(
            message.chat.id, message.message_id
        ) not in (None, Chat.of(message, query.from_user).conversation):
            # The owner is in the callback data; for an ownerless button, the conversation it was asked in.
            self._detach(answer_query(query, texts.NOT_YOURS, alert=True), update)
        elif not self._presses.claim(message.chat.id, message.message_id):
            self._detach(answer_query(query, texts.ALREADY, alert=True), update)
        else:
            chat, bot = Chat.of(message, query.from_user), context.bot
            early = self._jobs.queues.busy(chat.conversation)
            if early:  # it waits behind a running turn: answer now rather than let the button spin
                self._detach(answer_query(query, texts.QUEUED), update)

            async def job() -> None:
                await self._presses.run(bot, chat, query, press, early)

            self._submit(chat.conversation, job, update)

    # ------------------------------------------------------------------ queueing (see ``jobs.py``)

    def _submit(self, key: str, job: Job, update: Update) -> None:
        self._jobs.submit(key, job, update)

    def _detach(self, call: Coroutine[Any, Any, None], update: Update) -> None:
        self._jobs.detach(call, update)

    def _run(self, bot: Bot, chat: Chat, turn: Turn, update: Update, reply_to: int | None = None) -> None:
        async def job() -> None:
            await self._turns.run(bot, chat, turn, reply_to)

        self._submit(chat.conversation, job, update)

    def _say(
        self,
        bot: Bot,
        chat: Chat,
        html: str,
        update: Update,
        reply_to: int | None = None,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> None:
        """Queue a message of the adapter's own, in order with the chat's turns."""

        async def job() -> None:
            await self._turns.send(bot, chat, html, keyboard, reply_to)

        self._submit(chat.conversation, job, update)

    # ------------------------------------------------------------------ errors (reported by `errors.on_error`)

    async def _job_failed(self, update: object, exc: Exception) -> None:
        if self._app is not None:
            await self._app.process_error(update, exc)
        else:  # pragma: no cover - install() always ran in practice
            log.error("telegram.job_failed", exc_info=exc)
