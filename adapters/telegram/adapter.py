"""Telegram adapter: updates in, ``engine.handle(...)``, outcomes out (ARCHITECTURE §6–7).

How an update travels:

1. python-telegram-bot hands updates to the handlers below one at a time (the
   application is built without ``concurrent_updates``). A gate drops
   duplicate ``update_id`` s and people outside ``ALLOWED_USERS``. A handler
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

Keys: conversation ``tg:<chat id>`` (plus ``:<topic id>`` in forum topics),
user ``tg:<user id>``, message id = Telegram's message id in the chat.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine, Iterable
from typing import Any

import structlog
from telegram import Bot, BotCommand, InlineKeyboardMarkup, Update
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

from adapters.common import (
    ALIASES,
    CONTROLS,
    MESSAGE_COMMANDS,
    NEEDS_ARGUMENT,
    Budget,
    ChatQueues,
    Recent,
    command_name,
    command_turn,
)
from adapters.telegram import texts
from adapters.telegram.chat import Chat, addressed, answers_revise_prompt
from adapters.telegram.errors import on_error
from adapters.telegram.keyboards import Press, forget_keyboard
from adapters.telegram.presses import Presses
from adapters.telegram.render import esc
from adapters.telegram.send import answer_query, send_html
from adapters.telegram.turns import Turns
from engine import Handler, Message, Turn

log = structlog.get_logger("adapters.telegram")

Ctx = ContextTypes.DEFAULT_TYPE
App = Application[Any, Any, Any, Any, Any, Any]

_COMMANDS = ("start", "help", *MESSAGE_COMMANDS, *CONTROLS, *ALIASES)


class TelegramAdapter:
    """Maps Telegram messages, commands and button presses onto engine turns.

    Args:
        engine: anything with ``handle(turn, progress)`` (`engine.Handler`), normally `engine.Engine`.
        allowed_users: Telegram user ids allowed to use the bot; empty = everyone.
        typing_after / typing_every / status_after / status_every: timing of the signs of work, in seconds.
        signs_per_second: typing actions and status lines allowed per second across all chats;
            beyond that they are skipped (replies never are).
        forget_ttl: how long a /forget confirmation button stays valid, in seconds.
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
    ) -> None:
        self._allowed = {u.strip().removeprefix("tg:") for u in allowed_users if u.strip()}
        self._turns = Turns(
            engine,
            budget=Budget(per_second=signs_per_second, burst=2 * signs_per_second),
            typing_after=typing_after,
            typing_every=typing_every,
            status_after=status_after,
            status_every=status_every,
        )
        self._presses = Presses(self._turns, forget_ttl)
        self._queues = ChatQueues(self._job_failed)
        self._seen = Recent()  # update ids
        self._refused = Recent()  # user ids that got their one refusal
        self._detached: set[asyncio.Task[None]] = set()
        self._app: App | None = None

    def install(self, app: App) -> None:
        """Register the handlers and the one error handler on an application."""
        self._app = app
        only_new = filters.UpdateType.MESSAGE  # an edit of an old message is not a new turn
        app.add_handler(TypeHandler(Update, self._gate), group=-1)
        app.add_handler(CommandHandler(list(_COMMANDS), self._on_command, filters=only_new))
        app.add_handler(MessageHandler(filters.COMMAND & only_new, self._on_unknown_command))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND & only_new, self._on_text))
        app.add_handler(MessageHandler(filters.ATTACHMENT & filters.ChatType.PRIVATE & only_new, self._on_attachment))
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_error_handler(on_error)

    @staticmethod
    async def register_commands(bot: Bot) -> None:
        """Publish the command menu (setMyCommands)."""
        await bot.set_my_commands([BotCommand(name, about) for name, about in texts.COMMANDS])

    async def drain(self, timeout: float | None = None) -> None:
        """Let queued turns and quick replies finish (before the application stops)."""
        await self._queues.drain(timeout)
        while self._detached:
            await asyncio.gather(*list(self._detached), return_exceptions=True)

    # ------------------------------------------------------------------ handlers: no await before submit

    async def _gate(self, update: Update, context: Ctx) -> None:
        if not self._seen.add(update.update_id):
            log.info("telegram.duplicate_update", update_id=update.update_id)
            raise ApplicationHandlerStop
        user = update.effective_user
        if user is None or user.is_bot:
            raise ApplicationHandlerStop
        if not self._allowed or str(user.id) in self._allowed:
            return
        log.info("telegram.refused", user_id=user.id)
        message = update.message
        if update.callback_query is not None:
            self._detach(answer_query(update.callback_query, texts.REFUSAL, alert=True), update)
        elif message is not None and (addressed(message, context.bot) or (message.text or "").startswith("/")):
            if self._refused.add(user.id):  # one refusal; after that, silence
                self._say(context.bot, Chat.of(message), esc(texts.REFUSAL), update)
        raise ApplicationHandlerStop

    async def _on_text(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        chat, bot = Chat.of(message), context.bot
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
        plan = self._presses.feedback.pop((chat.conversation, user), None)
        if plan is None and not answers_revise_prompt(message, bot):
            self._run(bot, chat, turn, update, reply_to)
            return

        async def job() -> None:
            # The person's words after Revise are the feedback on the plan (looked up again
            # when the process restarted in between and only the reply shows what it answers).
            await self._presses.feedback_or_message(bot, chat, turn, plan, reply_to)

        self._queues.submit(chat.conversation, job, update)

    async def _on_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None and message.from_user is not None
        token, arg = re.split(r"\s+", message.text.strip() + " ", maxsplit=1)  # "/log\nbench…" too
        name, arg = command_name(token.split("@")[0]), arg.strip()
        chat, bot, user = Chat.of(message), context.bot, f"tg:{message.from_user.id}"
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
                message_commands=True,
            )
            assert turn is not None  # CommandHandler only lets through the names in _COMMANDS
            if name in ("cancel", "reset"):
                self._presses.feedback.pop((conv, user), None)
            self._run(bot, chat, turn, update, reply_to)

    async def _on_unknown_command(self, update: Update, context: Ctx) -> None:
        message = update.message
        assert message is not None and message.text is not None
        name, _, to = message.text.split()[0][1:].partition("@")
        chat, ours = Chat.of(message), to.lower() == context.bot.username.lower()
        if (to and not ours) or (chat.group and not ours and not addressed(message, context.bot)):
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
            self._detach(answer_query(query, texts.BROKEN_BUTTON, alert=True), update)
        elif press.owner is not None and press.owner != query.from_user.id:
            self._detach(answer_query(query, texts.NOT_YOURS, alert=True), update)
        elif not self._presses.claim(message.chat.id, message.message_id):
            self._detach(answer_query(query, texts.ALREADY, alert=True), update)
        else:
            chat, bot = Chat.of(message), context.bot
            early = self._queues.busy(chat.conversation)
            if early:  # it waits behind a running turn: answer now rather than let the button spin
                self._detach(answer_query(query, texts.QUEUED), update)

            async def job() -> None:
                await self._presses.run(bot, chat, query, press, early)

            self._queues.submit(chat.conversation, job, update)

    # ------------------------------------------------------------------ queueing

    def _run(self, bot: Bot, chat: Chat, turn: Turn, update: Update, reply_to: int | None = None) -> None:
        async def job() -> None:
            await self._turns.run(bot, chat, turn, reply_to)

        self._queues.submit(chat.conversation, job, update)

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
            await send_html(bot, chat, html, keyboard, reply_to)

        self._queues.submit(chat.conversation, job, update)

    def _detach(self, call: Coroutine[Any, Any, None], update: Update) -> None:
        """Run a quick reply (a callback alert) outside the chat's queue; `drain` waits for it too."""

        async def guarded() -> None:
            try:
                await call
            except Exception as exc:
                await self._job_failed(update, exc)

        task = asyncio.create_task(guarded())
        self._detached.add(task)
        task.add_done_callback(self._detached.discard)

    # ------------------------------------------------------------------ errors (reported by `errors.on_error`)

    async def _job_failed(self, update: object, exc: Exception) -> None:
        if self._app is not None:
            await self._app.process_error(update, exc)
        else:  # pragma: no cover - install() always ran in practice
            log.error("telegram.job_failed", exc_info=exc)
