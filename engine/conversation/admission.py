"""What a turn must pass before it reaches the graph, decided in code.

A message is refused when it is empty or too long (nothing to keep); a
message that arrives while a question is open answers it when it comes from
the person asked — unless it is clearly a message of its own (`taken_as`: a
log or a question code reads as such, which no "yes", choice, number, skip or
correction is). Any other message that arrives while a question or plan
awaits a decision is *held*: kept in the inbox and run right after the
decision, and the person is told how it was taken — nothing is thrown away.
The change given after Revise is held the same way when it is a log or a
question (`check_feedback`). A resume must match the pending interrupt and
come from the person asked.

A typed pick reads as on every platform (`typed.read_typed`, the one
reading): while a question is open "2" picks its second choice and "skip"
declines; while a plan is open "approve", "cancel" or "revise <what should
change>" decide it. Adapters read their lines the same way before they send
them, so this matters for a message that reaches the engine as typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from engine import texts
from engine.conversation.typed import read_typed
from engine.domains.registry import DomainSelector
from engine.interrupts import ApprovalPayload, AskPayload, to_outcome
from engine.language.text import clean
from engine.outcomes import Notice
from engine.query.asking import asks_about_data, asks_for_knowledge
from engine.reading.message import Reading, read_message
from engine.turns import ApprovalDecision, ClarificationAnswer, Message, Resume

Taken = Literal["log", "question"]
"""What a message that is clearly no answer is: a log or a question of its own."""
Read = Callable[[str], Reading]
"""Code's reading of a message on the person's day (see `reader`)."""


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


@dataclass(frozen=True)
class Aside:
    """Admission's verdict on the change given after Revise: it is a message of its own; hold it."""

    message: Message
    """The change's text as a message, kept and run after the decision."""
    notice: Notice
    """What the person is told now."""


def reader(selector: DomainSelector, today: date) -> Read:
    """Code's reading of a message on ``today``, over every domain (as the graph's first reading)."""
    registry = selector.registry
    return lambda text: read_message(text, registry, selector.build_active_context(registry.names), today)


def taken_as(text: str, reading: Reading, choices: Sequence[str] = ()) -> Taken | None:
    """What a message is when it is clearly not an answer; ``None`` when it may be one.

    A log: code reads it whole and it says what was done — exercises with
    their sets, or a distance *and* a time ("5k in 25:30"; a bare "5k" may
    answer "how far?"). A question: it asks (a question mark or word) about
    the person's own log ("what's my heaviest bench?", "내 벤치 최고 기록은?")
    or for knowledge about something a domain names ("what's a deload?"), not
    about the question itself ("what do you mean?"). "yes", a choice, a
    number, "skip", a correction and a fragment are none of these, and a line
    that names one of the question's ``choices`` answers it whatever else it
    looks like ("squat 100kg 5x5" to "Bench press / Squat / Deadlift").
    """
    folded = text.casefold()
    if any(re.search(rf"(?<!\w){re.escape(c.casefold().strip())}(?!\w)", folded) for c in choices if c.strip()):
        return None
    log, shape = reading.log, reading.shape
    if reading.kind == "log" and log is not None and log.complete and (log.exercises or len(log.metrics) >= 2):
        return "log"
    if reading.kind == "query" and shape is not None:
        if asks_about_data(text, shape) or (asks_for_knowledge(text) and shape.terms):
            return "question"
    return None


def check_text(text: str, limit: int) -> Notice | None:
    """A notice when a cleaned message is empty or longer than ``limit`` characters."""
    if not text:
        return Notice(text=texts.EMPTY_MESSAGE, code="empty")
    if len(text) > limit:
        return Notice(text=texts.too_long(len(text), limit), code="too_long")
    return None


def check_message(turn: Message, text: str, pending: Pending | None, read: Read) -> Hold | AnswerPending | None:
    """What a message means while something may be pending: ``None`` means a new turn.

    Args:
        read: code's reading of a message (`reader`), to tell an answer from a message of its own.
    """
    if pending is None:
        return None
    payload = pending.payload
    if payload.asked_by and payload.asked_by != turn.user:
        return Hold(Notice(text=texts.HELD_FOR_OTHERS_QUESTION, code="held"))
    typed = read_typed(text, to_outcome(pending.id, payload), turn.user)
    if typed is not None and typed.answer is not None:  # a choice's number, skip, or a decision on the plan
        return AnswerPending(_resume(turn, pending.id, typed.answer))
    if isinstance(payload, AskPayload):
        choices = payload.questions[0].options if payload.questions else []
        if (taken := taken_as(text, read(text), choices)) is not None:
            return Hold(Notice(text=texts.held_not_an_answer(taken), code="held"))
        # A plain reply while the person's own question is open answers it.
        return AnswerPending(_resume(turn, pending.id, ClarificationAnswer(answers=[text])))
    return Hold(Notice(text=texts.HELD_FOR_PLAN, code="held"))


def _resume(turn: Message, interrupt_id: str, answer: ClarificationAnswer | ApprovalDecision) -> Resume:
    return Resume(
        conversation=turn.conversation,
        user=turn.user,
        at=turn.at,
        interrupt_id=interrupt_id,
        answer=answer,
        message_id=turn.message_id,
    )


def check_feedback(turn: Resume, read: Read) -> Aside | None:
    """The change given after Revise held as a message of its own when it is a log or a question.

    On chat platforms the change is the person's next message after Revise
    (or a reply to "What should change?"); a workout or a question sent then
    is not meant as a change to the plan.
    """
    decision = turn.answer
    if not isinstance(decision, ApprovalDecision) or decision.decision != "revise" or not decision.feedback.strip():
        return None
    taken = taken_as(decision.feedback, read(decision.feedback))
    if taken is None:
        return None
    text = clean(decision.feedback)
    message = Message(conversation=turn.conversation, user=turn.user, at=turn.at, text=text, message_id=turn.message_id)
    return Aside(message, Notice(text=texts.held_not_a_change(taken), code="held"))


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
