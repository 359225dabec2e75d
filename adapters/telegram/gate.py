"""Who may use the bot, and each update once: the handler group that runs before every other.

People outside ``ALLOWED_USERS`` get one refusal and nothing of theirs is
recorded (their update ids are remembered in memory only, so a retried
update is not refused twice); an update already admitted (a redelivery after
a crash or a restart) goes no further.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from typing import Any

import structlog
from telegram import Bot, InlineKeyboardMarkup, Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from adapters.common import Intake, Recent
from adapters.telegram import texts
from adapters.telegram.chat import Chat, addressed
from adapters.telegram.intake import delivery_of
from adapters.telegram.render import esc
from adapters.telegram.send import answer_query

log = structlog.get_logger("adapters.telegram")
Ctx = ContextTypes.DEFAULT_TYPE
Say = Callable[[Bot, Chat, str, Update, "int | None", "InlineKeyboardMarkup | None"], None]
Detach = Callable[[Coroutine[Any, Any, None], Update], None]


class Gate:
    """The first handler (``TypeHandler``, group -1): stops what must go no further.

    Args:
        allowed_users: Telegram user ids allowed (``tg:`` prefix optional); empty = everyone.
        intake: admits each update once.
        say: queues a message of the adapter's own in the chat's order (the refusal).
        detach: runs a quick reply outside the queues (answering a press).
    """

    def __init__(self, allowed_users: Iterable[str], intake: Intake, say: Say, detach: Detach) -> None:
        self._allowed = {u.strip().removeprefix("tg:") for u in allowed_users if u.strip()}
        self._intake, self._say, self._detach = intake, say, detach
        self._refused = Recent()  # user ids that got their one refusal
        self._strangers = Recent()  # update ids of people not allowed (not recorded anywhere)

    def allows(self, update: Update) -> bool:
        """Whether the update comes from a person allowed to use the bot."""
        user = update.effective_user
        return user is not None and not user.is_bot and (not self._allowed or str(user.id) in self._allowed)

    async def __call__(self, update: Update, context: Ctx) -> None:
        if not self.allows(update):
            if self._strangers.add(update.update_id):  # once, but kept nowhere
                await self._refuse(update, context)
            raise ApplicationHandlerStop
        if not await self._intake.admit(delivery_of(update)):
            log.info("telegram.duplicate_update", update_id=update.update_id)
            raise ApplicationHandlerStop

    async def _refuse(self, update: Update, context: Ctx) -> None:
        user = update.effective_user
        if user is None or user.is_bot:
            return
        log.info("telegram.refused", user_id=user.id)
        message = update.message
        if update.callback_query is not None:
            self._detach(answer_query(update.callback_query, texts.REFUSAL, alert=True), update)
        elif message is not None and (addressed(message, context.bot) or (message.text or "").startswith("/")):
            if self._refused.add(user.id):  # one refusal; after that, silence
                self._say(context.bot, Chat.of(message, user), esc(texts.REFUSAL), update, None, None)
