"""Button presses: choices, Skip, Approve / Revise / Cancel, and the /forget confirmation.

A press has already passed the cheap checks in the handler (right person,
not pressed before) and waited its turn in the chat's queue. Here a
``status`` look-up tells whether its question is still the open one. If so,
the callback query is answered *first* (Telegram spins the button until
then, and gives up after some 15 s), the message is edited to show the
decision without its keyboard, and only then does the slow resume run. If
not, the press goes to the engine anyway — it refuses stale and foreign
answers without changing anything — and the engine's Notice becomes the
alert — unless the engine knows the press already (the same callback query
delivered again after a crash), in which case its outcomes are shown.

Every turn a press makes carries the press's id (``press:<query id>``), so the
engine runs it once however often Telegram delivers it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import cast

from telegram import Bot, CallbackQuery, ForceReply
from telegram import Message as TgMessage

from adapters.common import REVISE_PROMPT, Pick, Recent, decide, decide_plan
from adapters.telegram import texts
from adapters.telegram.chat import Chat
from adapters.telegram.keyboards import Press
from adapters.telegram.render import decided, esc
from adapters.telegram.send import answer_query, edit_html
from adapters.telegram.turns import Turns
from adapters.telegram.typed import run_typed
from engine import ApprovalRequest, ClarificationAnswer, Control, Message, Notice, Resume

_REFUSALS = frozenset({"stale", "not_yours"})
"""Notice codes with which the engine refuses a press."""


@dataclass(frozen=True)
class Revising:
    """A plan whose Revise was pressed: the person's next words may be the change."""

    plan: str
    """The plan's interrupt id."""
    prompt: int
    """The message id of "What should change?"."""


def press_id(query: CallbackQuery) -> str:
    """The engine's delivery id for a press."""
    return f"press:{query.id}"


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
        self.feedback: dict[tuple[str, str], Revising] = {}
        """(conversation, user) → the plan whose Revise that user pressed, and the prompt asked."""

    async def feedback_or_message(
        self, bot: Bot, chat: Chat, message: Message, reply_to: int | None, replied: int | None, to_prompt: bool
    ) -> None:
        """Run a message, or take it as the change to a plan after Revise.

        It is the change when it replies to "What should change?" (``to_prompt``;
        after a restart the open plan is looked up), or when that question is
        the last thing Almanac said in the conversation. Otherwise it is a
        message of its own (the engine keeps it until the plan is decided); so
        is a change that is a log or a question ("5k in 25:30"): the engine
        holds it and says so (`engine.conversation.admission.check_feedback`).
        """
        key = (chat.conversation, message.user)
        revising = self.feedback.get(key)
        plan: str | None = None
        if revising is not None and (
            replied == revising.prompt or self._turns.last_sent.get(chat.conversation) == revising.prompt
        ):
            plan = revising.plan
        elif to_prompt:
            pending = await self._turns.pending(chat, message.user)
            if isinstance(pending, ApprovalRequest) and pending.asked_by in ("", message.user):
                plan = pending.interrupt_id
        if plan is None:
            # A typed "2", "skip", "approved" or "revise" means what the button would (adapters.common.read_typed).
            await run_typed(
                self._turns, bot, chat, message, reply_to, lambda p, m: self.feedback.__setitem__(key, Revising(p, m))
            )
            return
        self.feedback.pop(key, None)
        feedback = decide_plan("revise", feedback=message.text).answer
        turn = Resume(
            conversation=chat.conversation,
            user=message.user,
            at=message.at,
            interrupt_id=plan,
            answer=feedback,
            message_id=message.message_id,
        )
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
        if kind.startswith("rem_"):
            assert press.reminder is not None
            await self._reminder(bot, chat, query, press.reminder[1], answered)
            return
        pick = cast(Pick, kind)  # the rest of the press kinds: a choice, Skip, Approve / Revise / Cancel
        user = f"tg:{query.from_user.id}"
        pending = await self._turns.pending(chat, user)
        current = pending if pending is not None and pending.interrupt_id == press.interrupt_id else None
        decision = decide(pick, current, index=press.index)
        if current is None or (current.asked_by and current.asked_by != user):
            probe = Resume(
                conversation=chat.conversation,
                user=user,
                interrupt_id=press.interrupt_id,
                answer=decision.answer if decision is not None else ClarificationAnswer(answers=[]),
                message_id=press_id(query),
            )
            outcomes = await self._turns.engine.handle(probe)
            if outcomes and not all(isinstance(o, Notice) and o.code in _REFUSALS for o in outcomes):
                # This press was applied before a crash; what it brought was never shown.
                await self._turns.deliver(bot, chat, outcomes)
                return
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
            # The plan stays open; the person's next words are the change (see `feedback_or_message`).
            who = query.from_user
            mention = f'<a href="tg://user?id={who.id}">{esc(who.first_name)}</a>, ' if chat.group else ""
            force = ForceReply(selective=True, input_field_placeholder=REVISE_PROMPT)
            (prompt, *_) = await self._turns.send(bot, chat, mention + esc(REVISE_PROMPT), force)
            self.feedback[(chat.conversation, user)] = Revising(press.interrupt_id, prompt.message_id)
            return
        turn = Resume(
            conversation=chat.conversation,
            user=user,
            interrupt_id=press.interrupt_id,
            answer=decision.answer,
            message_id=press_id(query),
        )
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
            forget = Control(conversation=chat.conversation, user=user, action="forget", message_id=press_id(query))
            await self._turns.run(bot, chat, forget)

    async def _reminder(self, bot: Bot, chat: Chat, query: CallbackQuery, argument: str, answered: bool) -> None:
        """A reminder's button: its keyboard goes, and the engine acts (once per press; a stale one says so)."""
        if not answered:
            await answer_query(query)
        await self._mark(bot, chat, query, _pressed_label(query))
        user = f"tg:{query.from_user.id}"
        turn = Control(
            conversation=chat.conversation, user=user, action="reminders", argument=argument, message_id=press_id(query)
        )
        await self._turns.run(bot, chat, turn)

    async def _refuse(self, bot: Bot, chat: Chat, query: CallbackQuery, reason: str, answered: bool) -> None:
        if query.message is not None:  # let the right person press it after all
            self._claimed.discard((query.message.chat.id, query.message.message_id))
        if answered:  # the query was answered early, so the reason goes out as a message
            await self._turns.send(bot, chat, esc(reason))
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


def _pressed_label(query: CallbackQuery) -> str:
    """The label of the button that was pressed, as the message showed it."""
    message = query.message
    markup = message.reply_markup if isinstance(message, TgMessage) else None
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            if button.callback_data == query.data:
                return button.text
    return "✓"
