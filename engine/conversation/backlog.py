"""Turns that did not run straight through: held, cut off by a crash, failed, or delivered twice.

- `again`: a delivery id seen before. A finished turn returns what it showed
  (the reply may never have reached the person); a turn a crash cut off runs
  now, once; a held one says again that it is held.
- `run_item`: run a recorded turn (cut off, failed or held) by its kind. A run
  whose checkpoint was saved before the crash is not run twice: its
  checkpoint names the inbox item, and its outcomes come from there.
- `run_held`: messages kept while a question or plan awaited a decision run
  once nothing is pending any more, in arrival order.

A recorded command runs through the control runner handed in (`RunControl`,
`engine.conversation.controls.Controls.run`): this module never imports the
commands, which run /retry through it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from langgraph.types import Command
from pydantic import TypeAdapter

from engine import texts
from engine.conversation.runner import Runner
from engine.interrupts import CANCEL, closed_by, resume_value
from engine.outcomes import Failure, Notice, Outcome
from engine.runtime.threads import roll_back
from engine.store.inbox import InboxItem
from engine.turns import Control, Message, Resume, Turn

log = structlog.get_logger("engine")
_turn: TypeAdapter[Turn] = TypeAdapter(Turn)
_outcomes: TypeAdapter[list[Outcome]] = TypeAdapter(list[Outcome])

RunControl = Callable[[Control, int], Awaitable[list[Outcome]]]
"""Runs a recorded command (its inbox item given) once more: `Controls.run`."""


class Backlog:
    """Recorded turns that are run again, or later."""

    def __init__(self, runner: Runner, run_control: RunControl) -> None:
        self._runner = runner
        self._inbox = runner.inbox
        self._run_control = run_control

    async def again(self, item: InboxItem) -> list[Outcome]:
        """What a second delivery of a recorded turn gets."""
        if item.status in ("done", "failed"):
            return _outcomes.validate_json(item.outcomes) if item.outcomes else []
        if item.status == "deferred":
            return [Notice(text=texts.HELD_FOR_PLAN, code="held")]
        return await self.run_item(item)  # cut off by a crash (or still marked pending): run it now, once

    async def interrupted_turns(self, conversation: str) -> list[Turn]:
        """The turns of a conversation that a crash cut off, oldest first (each with its delivery id)."""
        return [_turn.validate_json(i.payload) for i in await self._inbox.items(conversation, ("interrupted",))]

    async def run_item(self, item: InboxItem) -> list[Outcome]:
        """Run a recorded turn that has not completed; it is marked done or failed as it ends."""
        runner = self._runner
        original = _turn.validate_json(item.payload)
        thread = await runner.conversations.thread_id(item.conversation)
        snapshot = await runner.graph.aget_state(runner.thread_config(thread))
        if (snapshot.metadata or {}).get("inbox_item") == item.id:
            if not snapshot.next or snapshot.interrupts:
                # The run completed and saved its checkpoint; only marking it done was cut off.
                outcomes = runner.outcomes_of(snapshot.values.get("outcomes"), snapshot.interrupts)
                await self._inbox.mark(item.id, "done", outcomes=_dump(outcomes))
                return outcomes
            # A run stopped half-way saved its state on the way out: back to where it started.
            parent = (snapshot.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            await roll_back(runner.checkpointer, thread, parent)
        pending = await runner.paused_on(thread)
        if isinstance(original, Message):
            if pending is not None:
                return [Notice(text=texts.retry_paused(1), code="busy")]
            return await runner.run_message(item.id, original, thread)
        if isinstance(original, Resume):
            if pending is None or pending.id != original.interrupt_id:
                await self._inbox.mark(item.id, "done", "stale", _dump([]))
                return [Notice(text=texts.ANSWER_TOO_LATE, code="stale")]
            resume: Command[Any] = Command(resume=resume_value(original.answer))
            return await runner.invoke(item.id, thread, resume, closed_by(pending.id, original.answer))
        assert isinstance(original, Control)
        if original.action == "cancel":
            if pending is None:
                await self._inbox.mark(item.id, "done", "stale", _dump([]))
                return [Notice(text=texts.NOTHING_TO_CANCEL, code="nothing")]
            return await runner.invoke(item.id, thread, Command(resume=CANCEL), closed_by(pending.id, None))
        return await self._run_control(original, item.id)

    async def run_held(self, conversation: str) -> list[Outcome]:
        """Run the messages held for a decision, once none is pending; stop at a new question or a failure."""
        outcomes: list[Outcome] = []
        while held := await self._inbox.items(conversation, ("deferred",), limit=1):  # cheap: usually none
            thread = await self._runner.conversations.thread_id(conversation)
            if await self._runner.paused_on(thread) is not None:
                break
            log.info("turn.held_runs", item=held[0].id)
            result = await self.run_item(held[0])
            outcomes += result
            if any(isinstance(o, Failure) for o in result):
                break
        return outcomes


def _dump(outcomes: list[Outcome]) -> str:
    return _outcomes.dump_json(outcomes).decode()
