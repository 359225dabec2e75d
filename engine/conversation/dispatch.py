"""One turn by its kind: a message, an answer to what is open, a command, or a delivery seen before.

Once only: a turn that carries the platform's delivery id (``message_id``) is
run once; the same id again returns what the first run showed, or runs it
when a crash cut the first run off (`backlog.Backlog.again`). The same log
sent again under a new id soon after it was stored gets a notice instead of a
second entry (`engine.runtime.repeats`).
"""

from __future__ import annotations

from typing import Any

import structlog
from langgraph.types import Command

from engine.conversation.admission import (
    AnswerPending,
    Hold,
    Pending,
    Read,
    check_feedback,
    check_message,
    check_resume,
    check_text,
    reader,
)
from engine.conversation.controls import Controls
from engine.conversation.runner import Runner, outcomes_json
from engine.domains.registry import DomainSelector
from engine.interrupts import closed_by, resume_value
from engine.language.dates import today_in
from engine.language.text import clean
from engine.outcomes import Outcome
from engine.reminders.request import is_reminder_request
from engine.runtime import repeats
from engine.store.entries import EntryStore
from engine.store.inbox import Arrival, InboxItem, InboxStatus
from engine.turns import Control, Message, Resume, Turn

log = structlog.get_logger("engine")
_LOOKS = frozenset({"status", "history", "export"})
"""Commands that only look: held messages wait for a real turn."""


class Dispatch:
    """Runs turns of every kind (the caller orders them per conversation and holds its lock).

    Args:
        selector: the domains, for code's reading of a message (admission).
        max_message_chars: longer messages are refused.
    """

    def __init__(
        self, runner: Runner, controls: Controls, entries: EntryStore, selector: DomainSelector, max_message_chars: int
    ) -> None:
        self._runner = runner
        self._inbox = runner.inbox
        self._conversations = runner.conversations
        self._controls = controls
        self._backlog = controls.backlog
        self._entries = entries
        self._selector = selector
        self._max_chars = max_message_chars

    async def turn(self, turn: Turn) -> list[Outcome]:
        """Run one turn; messages held while a decision was open run right after it (their outcomes follow)."""
        outcomes, held = await self._run(turn)
        if held and not (isinstance(turn, Control) and turn.action in _LOOKS):
            outcomes += await self._backlog.run_held(turn.conversation)
        return outcomes

    async def _run(self, turn: Turn) -> tuple[list[Outcome], bool]:
        """Run the turn; also whether messages held for a decision may be waiting (`turn` runs them then)."""
        if isinstance(turn, Control):
            if turn.message_id is not None and (seen := await self._inbox.find(turn.conversation, turn.message_id)):
                return await self._again(turn, seen), True
            return await self._controls.run(turn), True
        # One query for what every message and answer needs to know before it runs.
        arrival = await self._conversations.arrival(turn.conversation, turn.user, turn.message_id)
        if arrival.seen is not None and (seen := await self._inbox.get(arrival.seen)) is not None:
            return await self._again(turn, seen), True
        if isinstance(turn, Message):
            return await self._message(turn, arrival)
        return await self._resume(turn, arrival, await self._runner.paused_on(arrival.thread))

    async def _again(self, turn: Turn, seen: InboxItem) -> list[Outcome]:
        log.info("turn.again", message_id=turn.message_id, status=seen.status)
        return await self._backlog.again(seen)

    # Each returns its outcomes and whether held messages may be waiting: they were
    # when the turn arrived (`Arrival.held`), or the turn held one of its own.

    async def _message(self, turn: Message, arrival: Arrival) -> tuple[list[Outcome], bool]:
        text = clean(turn.text)
        refused = check_text(text, self._max_chars)
        if refused is not None:
            return [refused], arrival.held
        # What waited runs before what is new.
        held = await self._backlog.run_held(turn.conversation) if arrival.held else []
        if is_reminder_request(text):
            # "Remind me to stretch at 9pm", "매일 아침 7시에 운동 알려줘": the /remind command in words, read in
            # code (no model, never a log). It leaves an open question or plan as it was.
            remind = Control(
                conversation=turn.conversation,
                user=turn.user,
                action="remind",
                argument=text,
                at=turn.at,
                message_id=turn.message_id,
            )
            return held + await self._controls.run(remind), arrival.held
        thread, tz = arrival.thread, arrival.timezone or self._runner.default_timezone
        pending = await self._runner.paused_on(thread)
        verdict = check_message(turn, text, pending, self._reader(turn, tz)) if pending is not None else None
        if isinstance(verdict, AnswerPending):
            outcomes, waiting = await self._resume(verdict.resume, arrival, pending)
            return held + outcomes, waiting
        cleaned = turn.model_copy(update={"text": text})
        # A log sent again under a new id (its reply went missing) is stored once (`repeats`).
        again = await repeats.repeated(self._inbox, self._entries, cleaned) if verdict is None else None
        status: InboxStatus = "deferred" if isinstance(verdict, Hold) else "pending"
        item = await self._inbox.record(
            turn.conversation,
            turn.user,
            "message",
            cleaned.model_dump_json(),
            turn.message_id,
            status,
            words=repeats.words(text),
        )
        if item is None:  # the same delivery raced in; `find` shows what became of it
            return held, arrival.held
        if again is not None:
            await self._inbox.mark(item, "done", outcomes=outcomes_json([again]))
            return [*held, again], arrival.held
        if isinstance(verdict, Hold):
            return [*held, verdict.notice], True
        return held + await self._runner.run_message(item, cleaned, thread, tz), arrival.held

    async def _resume(self, turn: Resume, arrival: Arrival, pending: Pending | None) -> tuple[list[Outcome], bool]:
        refused = check_resume(turn, pending)
        if refused is not None:
            return [refused], arrival.held
        assert pending is not None  # check_resume refuses an answer to nothing
        aside = check_feedback(turn, self._reader(turn, arrival.timezone or self._runner.default_timezone))
        if aside is not None:  # a workout or a question sent after Revise: held as a message of its own
            record, said = aside.message.model_dump_json(), repeats.words(aside.message.text)
            item = await self._inbox.record(
                turn.conversation, turn.user, "message", record, turn.message_id, "deferred", words=said
            )
            return ([aside.notice] if item is not None else []), True
        item = await self._inbox.record(turn.conversation, turn.user, "resume", turn.model_dump_json(), turn.message_id)
        if item is None:
            return [], arrival.held
        resume: Command[Any] = Command(resume=resume_value(turn.answer))
        return await self._runner.invoke(item, arrival.thread, resume, closed_by(pending.id, turn.answer)), arrival.held

    def _reader(self, turn: Turn, timezone: str) -> Read:
        """Code's reading of a message on the person's day: admission tells an answer from a message of its own."""
        return reader(self._selector, today_in(timezone, turn.at))
