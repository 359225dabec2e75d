"""A post read as what it answers, the same way on every platform (`adapters.common.read_typed`).

A typed ``2`` picks the second choice, ``skip`` skips, ``approve.`` approves
and ``revise smaller jumps`` revises — as the buttons would. A number that is
not on the list gets a hint. A bare ``revise`` gets a hint too: the Revise
modal opens only from a press (it needs the press's ``trigger_id``). Anything
else is a message for the engine, which reads whether it answers the open
question or is a message of its own, kept until the question or plan is decided.
"""

from __future__ import annotations

from adapters.common import read_typed
from adapters.slack import texts
from adapters.slack.place import Place
from adapters.slack.worker.turns import Turns
from engine import Message, Notice, Resume


async def run_typed(turns: Turns, place: Place, post: Message, source_ts: str | None) -> None:
    """Run ``post`` as the answer or decision it types, else as itself."""
    # Only a conversation that shows a question or plan can be answered: most posts skip the look-up.
    pending = await turns.pending(place) if await turns.store.prompt(place.conversation) is not None else None
    typed = read_typed(post.text, pending, post.user)
    if pending is None or typed is None:
        await turns.run(place, post, source_ts=source_ts)
        return
    if typed.answer is None:  # a number off the list, or a bare "revise"
        await turns.deliver(place, [Notice(text=typed.hint or texts.REVISE_BY_PRESS, code="hint")])
        return
    turn = Resume(
        conversation=post.conversation,
        user=post.user,
        at=post.at,
        interrupt_id=pending.interrupt_id,
        answer=typed.answer,
        message_id=post.message_id,
    )
    await turns.run(place, turn, source_ts=source_ts)
