"""Button presses: choices, Skip, Approve / Revise / Cancel, and the /forget confirmation.

A press has already passed the cheap checks in the handler (right person,
not pressed before) and waited its turn in the chat's queue. Here a
``status`` look-up tells whether its question is still the open one. If so,
the callback query is answered *first* (Telegram spins the button until
then, and gives up after some 15 s), the message is edited to show the
decision without its keyboard, and only then does the slow resume run. If
not, the press goes to the engine anyway — it refuses stale and foreign
answers without changing anything — and the engine's Notice becomes the
alert.
"""

from __future__ import annotations

from datetime import datetime, timezone

from telegram import Bot, CallbackQuery, ForceReply
from telegram import Message as TgMessage

from adapters.common import REVISE_PROMPT, Recent, decide, decide_plan
from adapters.telegram import texts
from adapters.telegram.chat import Chat
from adapters.telegram.keyboards import Press
from adapters.telegram.render import decided, esc
from adapters.telegram.send import answer_query, edit_html, send_html
from adapters.telegram.turns import Turns
from engine import ApprovalRequest, ClarificationAnswer, Control, Message, Notice, Resume


class Presses:
    """Turns presses into resumes (or refusals) and remembers what was pressed.

    Args:
        turns: runs the resulting turns and knows which prompt is on screen.
        forget_ttl: seconds a /forget confirmation stays valid.
    """

    def __init__(self, turns: Turns, forget_ttl: float) -> None:
        self._turns = turns
        self._forget_ttl = forget_ttl
        self._claimed = Recent()
        self.feedback: dict[tuple[str, str], str] = {}
        """(conversation, user) → the plan whose Revise was pressed: that user's next message is the feedback."""

    async def feedback_or_message(
        self, bot: Bot, chat: Chat, message: Message, plan: str | None, reply_to: int | None
    ) -> None:
        """Send a message as Revise feedback on ``plan`` (or, if unknown, on the user's pending plan)."""
        if plan is None:
            pending = await self._turns.pending(chat, message.user)
            if isinstance(pending, ApprovalRequest) and pending.asked_by in ("", message.user):
                plan = pending.interrupt_id
        if plan is None:
            await self._turns.run(bot, chat, message, reply_to)
            return
        feedback = decide_plan("revise", feedback=message.text).answer
        turn = Resume(conversation=chat.conversation, user=message.user, at=message.at, interrupt_id=plan, answer=feedback)
        await self._turns.run(bot, chat, turn, reply_to)

    def claim(self, chat_id: int, message_id: int) -> bool:
        """Take a message's buttons for one press; False if another press already has them."""
        return self._claimed.add((chat_id, message_id))

    async def run(self, bot: Bot, chat: Chat, query: CallbackQuery, press: Press, answered: bool) -> None:
        """Apply a press. ``answered``: the query was already answered (it had to wait in the queue)."""
        kind = press.kind
        if kind == "forget_yes" or kind == "forget_no":
            await self._forget(bot, chat, query, press, answered)
            return
        user = f"tg:{query.from_user.id}"
        pending = await self._turns.pending(chat, user)
        current = pending if pending is not None and pending.interrupt_id == press.interrupt_id else None
        decision = decide(kind, current, index=press.index)
        if current is None or (current.asked_by and current.asked_by != user):
            probe = Resume(
                conversation=chat.conversation,
                user=user,
                interrupt_id=press.interrupt_id,
                answer=decision.answer if decision is not None else ClarificationAnswer(answers=[]),
            )
            outcomes = await self._turns.engine.handle(probe)
            reason = next((o.text for o in outcomes if isinstance(o, Notice)), texts.BROKEN_BUTTON)
            await self._refuse(bot, chat, query, reason, answered)
            return
        if decision is None:
            await self._refuse(bot, chat, query, texts.BROKEN_BUTTON, answered)
            return
        if not answered:
            await answer_query(query, decision.label)
        await self._mark(bot, chat, query, decision.label)
        if kind == "revise":
            # The plan stays open; the person's next message is the feedback.
            self.feedback[(chat.conversation, user)] = press.interrupt_id
            who = query.from_user
            mention = f'<a href="tg://user?id={who.id}">{esc(who.first_name)}</a>, ' if chat.group else ""
            force = ForceReply(selective=True, input_field_placeholder=REVISE_PROMPT)
            await send_html(bot, chat, mention + esc(REVISE_PROMPT), force)
            return
        turn = Resume(conversation=chat.conversation, user=user, interrupt_id=press.interrupt_id, answer=decision.answer)
        await self._turns.run(bot, chat, turn)

    async def _forget(self, bot: Bot, chat: Chat, query: CallbackQuery, press: Press, answered: bool) -> None:
        message = query.message
        sent_at = message.date if isinstance(message, TgMessage) else datetime.fromtimestamp(0, timezone.utc)
        if (datetime.now(timezone.utc) - sent_at).total_seconds() > self._forget_ttl:
            await self._refuse(bot, chat, query, texts.FORGET_EXPIRED, answered)
            await self._mark(bot, chat, query, "Expired.")
            return
        label = "Deleting everything…" if press.kind == "forget_yes" else "Kept everything."
        if not answered:
            await answer_query(query, label)
        await self._mark(bot, chat, query, label)
        if press.kind == "forget_yes":
            user = f"tg:{query.from_user.id}"
            self.feedback.pop((chat.conversation, user), None)
            await self._turns.run(bot, chat, Control(conversation=chat.conversation, user=user, action="forget"))

    async def _refuse(self, bot: Bot, chat: Chat, query: CallbackQuery, reason: str, answered: bool) -> None:
        if query.message is not None:  # let the right person press it after all
            self._claimed.discard((query.message.chat.id, query.message.message_id))
        if answered:  # the query was answered early, so the reason goes out as a message
            await send_html(bot, chat, esc(reason))
        else:
            await answer_query(query, reason, alert=True)

    async def _mark(self, bot: Bot, chat: Chat, query: CallbackQuery, decision: str) -> None:
        """Show the decision on the pressed message and drop its keyboard."""
        message = query.message
        if not isinstance(message, TgMessage):
            return  # older than 48 hours: it can no longer be edited
        prompt = self._turns.take_prompt(chat, message.message_id)
        # After a restart the sent HTML is gone: rebuild it from the message's entities.
        original = prompt.html if prompt is not None else (message.text_html if message.text else "")
        await edit_html(bot, message.chat_id, message.message_id, decided(original, decision))

