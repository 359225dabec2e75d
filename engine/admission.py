"""What a turn must pass before it reaches the graph, decided in code.

A message is refused when it is empty or too long (nothing to keep); a
message that arrives while a question is open answers it when it comes from
the person asked. Any other message that arrives while a question or plan
awaits a decision is *held*: kept in the inbox and run right after the
decision, and the person is told so — nothing is thrown away. A resume must
match the pending interrupt and come from the person asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import texts
from engine.interrupts import ApprovalPayload, AskPayload
from engine.outcomes import Notice
from engine.turns import ApprovalDecision, ClarificationAnswer, Message, Resume


@dataclass(frozen=True)
class Pending:
    """The interrupt a conversation's thread is paused on."""

    id: str
    payload: AskPayload | ApprovalPayload


@dataclass(frozen=True)
class AnswerPending:
    """Admission's verdict: the message is the answer to the open question."""

    resume: Resume


@dataclass(frozen=True)
class Hold:
    """Admission's verdict: keep the message and run it after the open decision."""

    notice: Notice
    """What the person is told now."""


def check_text(text: str, limit: int) -> Notice | None:
    """A notice when a cleaned message is empty or longer than ``limit`` characters."""
    if not text:
        return Notice(text=texts.EMPTY_MESSAGE, code="empty")
    if len(text) > limit:
        return Notice(text=texts.too_long(len(text), limit), code="too_long")
    return None


def check_message(turn: Message, text: str, pending: Pending | None) -> Hold | AnswerPending | None:
    """What a message means while something may be pending: ``None`` means a new turn."""
    if pending is None:
        return None
    payload = pending.payload
    if payload.asked_by and payload.asked_by != turn.user:
        return Hold(Notice(text=texts.HELD_FOR_OTHERS_QUESTION, code="held"))
    if isinstance(payload, AskPayload):
        # A plain reply while the person's own question is open answers it.
        return AnswerPending(
            Resume(
                conversation=turn.conversation,
                user=turn.user,
                at=turn.at,
                interrupt_id=pending.id,
                answer=ClarificationAnswer(answers=[text]),
                message_id=turn.message_id,
            )
        )
    return Hold(Notice(text=texts.HELD_FOR_PLAN, code="held"))


def check_resume(turn: Resume, pending: Pending | None) -> Notice | None:
    """A notice when a resume is stale, foreign or of the wrong kind; ``None`` when it may run."""
    if pending is None or pending.id != turn.interrupt_id:
        return Notice(text=texts.STALE, code="stale")
    if pending.payload.asked_by and pending.payload.asked_by != turn.user:
        return Notice(text=texts.NOT_YOURS, code="not_yours")
    expected = ApprovalDecision if isinstance(pending.payload, ApprovalPayload) else ClarificationAnswer
    if not isinstance(turn.answer, expected):
        return Notice(text=texts.WRONG_BUTTON, code="stale")
    return None
