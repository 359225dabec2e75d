"""Runs the graph for one recorded turn, and reads where a conversation's thread is paused.

`Runner.invoke` is the one place a turn meets the graph: the inbox item is
recorded before it runs, marked done with its outcomes after, or — on a
failure — the thread goes back to where it was (`runtime.threads.roll_back`)
and the item is marked failed, so an answer that failed keeps its question open.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import structlog
from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import TypeAdapter

from engine import texts
from engine.conversation.admission import Pending
from engine.errors import UserFacingError
from engine.graph.state import fresh_turn
from engine.interrupts import closing, read_payload, to_outcome
from engine.language.dates import today_in
from engine.outcomes import Closed, Failure, Outcome
from engine.runtime.failures import hide_credentials, storage_failure
from engine.runtime.threads import keep_latest, latest_checkpoint, roll_back
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import events_of_turn
from engine.turns import Message

log = structlog.get_logger("engine")
PRUNE_EVERY_TURNS = 500
"""How often finished inbox rows are pruned in a long-running process."""
_outcomes = TypeAdapter(list[Outcome])


class Runner:
    """The graph, its checkpoints and the inbox, as a turn runs through them.

    Args:
        graph: the compiled LangGraph graph.
        default_timezone: the zone of a person who set none with /timezone.
    """

    def __init__(
        self,
        graph: Any,
        checkpointer: BaseCheckpointSaver[str],
        inbox: Inbox,
        conversations: Conversations,
        default_timezone: str,
    ) -> None:
        self.graph = graph
        self.checkpointer = checkpointer
        self.inbox = inbox
        self.conversations = conversations
        self.default_timezone = default_timezone
        self._turns = 0

    async def run_message(self, item: int, turn: Message, thread: str, timezone: str | None = None) -> list[Outcome]:
        """Start a new turn of the graph for a recorded message (in ``timezone``, or the person's)."""
        tz = timezone or await self.timezone(turn.user)
        state = fresh_turn(
            turn_id=str(item),
            conversation=turn.conversation,
            user=turn.user,
            text=turn.text,
            today=today_in(tz, turn.at).isoformat(),
            timezone=tz,
        )
        return await self.invoke(item, thread, state)

    @staticmethod
    def thread_config(thread: str, item: int | None = None) -> Any:
        """The graph config that selects a thread (and tags its checkpoints with the inbox item that ran)."""
        config: dict[str, Any] = {"configurable": {"thread_id": thread}}
        if item is not None:
            config["metadata"] = {"inbox_item": item}
        return config

    async def paused_on(self, thread: str) -> Pending | None:
        """The question or plan the thread is paused on, if any."""
        snapshot = await self.graph.aget_state(self.thread_config(thread))
        for intr in snapshot.interrupts:
            payload = read_payload(intr.value)
            if payload is not None:
                return Pending(id=intr.id, payload=payload)
        return None

    async def invoke(self, item: int, thread: str, graph_input: Any, closes: Closed | None = None) -> list[Outcome]:
        """Run the graph for the inbox item ``item`` and mark the item done or failed.

        ``closes``: the pause this run resumes; its `Closed` leads the outcomes once it is not shown
        again (`interrupts.closing`). On failure the thread goes back to where it was before the run,
        and an answer's question is shown again after the `Failure`.
        """
        before = await latest_checkpoint(self.checkpointer, thread)
        try:
            with events_of_turn(str(item)):
                # "exit": one checkpoint per turn (or per interrupt) instead of one per
                # step; a crash mid-turn leaves the thread as it was, and the inbox row
                # says the turn is still to run.
                result = await self.graph.ainvoke(graph_input, self.thread_config(thread, item), durability="exit")
        except UserFacingError as exc:
            log.warning("turn.failed", code=exc.code)
            failure = Failure(text=hide_credentials(exc.message), code=exc.code, retryable=exc.retryable)
            return await self._failed(item, thread, before, failure)
        except (sqlite3.Error, OSError) as exc:
            log.error("turn.storage_failed", error=str(exc))
            return await self._failed(item, thread, before, storage_failure(exc))
        except Exception:
            log.exception("turn.crashed")
            return await self._failed(item, thread, before, Failure(text=texts.INTERNAL_ERROR, code="internal"))
        except asyncio.CancelledError:
            # Shutdown or Ctrl-C: the item stays pending (run again at the next start);
            # the half-run state LangGraph saved on the way out must not linger.
            await asyncio.shield(roll_back(self.checkpointer, thread, before))
            raise
        outcomes = closing(closes, self.outcomes_of(result.get("outcomes"), result.get("__interrupt__")))
        await self.inbox.mark(item, "done", outcomes=outcomes_json(outcomes))
        await keep_latest(self.checkpointer, thread)
        self._turns += 1
        if self._turns % PRUNE_EVERY_TURNS == 0:
            await self.inbox.prune()
        return outcomes

    async def _failed(self, item: int, thread: str, before: str | None, failure: Failure) -> list[Outcome]:
        await roll_back(self.checkpointer, thread, before)
        outcomes: list[Outcome] = [failure]
        still = await self.paused_on(thread)
        if still is not None:  # the answer that failed is kept; its question stays open
            outcomes.append(to_outcome(still.id, still.payload))
        await self.inbox.mark(item, "failed", failure.code, outcomes_json(outcomes))
        return outcomes

    @staticmethod
    def outcomes_of(values: Any, interrupts: Any) -> list[Outcome]:
        """A run's outcomes, then its pending question or plan."""
        outcomes = _outcomes.validate_python(values or [])
        for intr in interrupts or ():
            payload = read_payload(intr.value)
            if payload is not None:
                outcomes.append(to_outcome(intr.id, payload))
        return outcomes

    async def timezone(self, user: str) -> str:
        """The user's time zone: set with /timezone, or the default."""
        return await self.conversations.timezone(user) or self.default_timezone


def outcomes_json(outcomes: Sequence[Outcome]) -> str:
    """Outcomes as JSON (kept with finished turns; handy for logs and tests)."""
    return json.dumps([o.model_dump(mode="json") for o in outcomes], ensure_ascii=False)
