"""A typed line read as what it answers, the same way on every platform (`adapters.common.read_typed`).

A typed ``2`` picks the second choice, ``skip`` skips, ``approved`` approves
and a bare ``revise`` asks what should change — as the buttons would. A number
that is not on the list gets a hint; anything else is a message for the
engine (which reads it as the answer to an open question in the person's own
words, or keeps it until the question or plan is decided when it is a log or a
question of its own, and says so).
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import Bot, ForceReply

from adapters.common import REVISE_PROMPT, read_typed
from adapters.telegram.chat import Chat
from adapters.telegram.render import esc
from adapters.telegram.turns import Turns
from engine import Message, Resume


async def run_typed(
    turns: Turns,
    bot: Bot,
    chat: Chat,
    message: Message,
    reply_to: int | None,
    on_revise: Callable[[str, int], None],
) -> None:
    """Run ``message`` as the answer or decision it types, else as itself.

    Args:
        on_revise: Called with (plan's interrupt id, id of the "What should change?" message)
            after a bare "revise", as after a Revise press: the next words are the change.
    """
    pending = await turns.pending(chat, message.user)
    typed = read_typed(message.text, pending, message.user)
    if pending is None or typed is None:
        await turns.run(bot, chat, message, reply_to)
        return
    if typed.hint:
        await turns.send(bot, chat, esc(typed.hint), None, reply_to)
        return
    if typed.answer is None:  # a bare "revise"
        force = ForceReply(selective=True, input_field_placeholder=REVISE_PROMPT)
        (prompt, *_) = await turns.send(bot, chat, esc(REVISE_PROMPT), force, reply_to)
        on_revise(pending.interrupt_id, prompt.message_id)
        return
    turn = Resume(
        conversation=chat.conversation,
        user=message.user,
        at=message.at,
        interrupt_id=pending.interrupt_id,
        answer=typed.answer,
        message_id=message.message_id,
    )
    await turns.run(bot, chat, turn, reply_to)
