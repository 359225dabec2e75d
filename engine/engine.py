"""The engine boundary: ``await engine.handle(turn, progress=…) -> list[Outcome]``.

Adapters call ``handle`` for every turn, and the intake methods (`receive`,
`unfinished`, `finish`, `note`) to keep what their platform delivered until it
is handled. The engine orders turns per conversation, records every turn
before the model sees it, maps LangGraph interrupts to ``Ask`` outcomes and
``Resume`` turns back to ``Command(resume=…)``, and turns every user-facing
error into a ``Failure``.

Once only: a turn that carries the platform's delivery id (``message_id``) is
run once; the same id again returns what the first run showed, or runs it
when a crash cut the first run off. The same log sent again under a new
id soon after it was stored gets a notice instead of a second entry
(`engine.runtime.repeats`). A failed run leaves the conversation's
thread as it was before the turn (`engine.runtime.threads.roll_back`), so an
answer that failed keeps its question open.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import structlog
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Command
from pydantic import TypeAdapter

from engine import texts
from engine.admission import (
    AnswerPending, Hold, Pending, Read, check_feedback, check_message, check_resume, check_text, reader,
)
from engine.assembly import Parts, assemble
from engine.boundary import Progress
from engine.config import EngineConfig
from engine.controls import run_control
from engine.errors import UserFacingError
from engine.graph.state import fresh_turn
from engine.graph.steps import current_progress
from engine.interrupts import closed_by, closing, read_payload, resume_value, to_outcome
from engine.language.dates import today_in
from engine.language.text import clean
from engine.outcomes import ApprovalRequest, Ask, Closed, Failure, Outcome
from engine.runtime import backlog, repeats
from engine.runtime.failures import hide_credentials, storage_failure
from engine.runtime.intake import Intake
from engine.runtime.locks import KeyedLocks, UserGate
from engine.runtime.threads import keep_latest, latest_checkpoint, roll_back
from engine.store.db import check_writable
from engine.store.entries import EntryStore
from engine.store.inbox import Arrival, Conversations, Deliveries, Inbox, InboxItem, InboxStatus
from engine.store.patches import PatchStore, events_of_turn
from engine.turns import Control, Message, Resume, Turn

log = structlog.get_logger("engine")
PRUNE_EVERY_TURNS = 500
"""How often finished inbox rows are pruned in a long-running process."""
_outcomes = TypeAdapter(list[Outcome])
_LOOKS = frozenset({"status", "history", "export"})
"""Commands that only look: held messages wait for a real turn."""


class Engine(Intake):
    """Almanac's domain expert, as adapters see it (its intake methods: `Intake`)."""

    def __init__(self, config: EngineConfig, parts: Parts) -> None:
        self.config = config
        self.graph = parts.graph
        self.checkpointer = parts.checkpointer
        self.db = db = parts.db
        self.llm = parts.llm
        self.selector = parts.selector
        self.library = parts.library
        """The knowledge base (``await engine.library.ready()`` waits for the start-up ingest)."""
        self.entries = EntryStore(db)
        self.inbox = Inbox(db)
        self.deliveries = Deliveries(db)
        self.conversations = Conversations(db)
        self.patches = PatchStore(db)
        self._locks = KeyedLocks()
        self.users = UserGate()
        """Lets /forget wait for the person's running turns (see `UserGate`)."""
        self._turns = 0

    @classmethod
    @asynccontextmanager
    async def open(
        cls, config: EngineConfig, checkpointer: BaseCheckpointSaver[str] | None = None
    ) -> AsyncIterator[Engine]:
        """Open the databases, load domains and compile the graph; close all on exit.

        Turns that a crash cut off (still ``pending``) are marked ``interrupted``:
        their deliveries run them when they arrive again, and ``/retry`` does too.

        Args:
            config: the engine's settings.
            checkpointer: a saver to use instead of the SQLite one (tests pass an
                in-memory saver). One saver per process: the bot opens one engine.

        Raises:
            DataDirError: the data directory cannot be used.
            DomainFileError: a domain file is broken.
        """
        check_writable(config.data_dir)
        async with AsyncExitStack() as stack:
            engine = cls(config, await assemble(config, checkpointer, stack))
            engine.library.start_ingest()  # answers use what is in while the built-in articles go in
            cut_off = await engine.inbox.interrupt_pending()
            if cut_off:
                log.warning("engine.interrupted_turns", count=cut_off)
            await engine.inbox.prune()
            yield engine

    async def interrupted(self, conversation: str) -> list[Turn]:
        """Turns of a conversation that a crash cut off, oldest first; ``handle`` each to resume it."""
        return await backlog.interrupted_turns(self, conversation)

    # ------------------------------------------------------------------ boundary

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        """The conversation's open question or plan, as ``handle`` showed it; no turn runs, no model call.

        ``user`` is who asks (an adapter reading a typed line); the question may be someone
        else's (``asked_by``), and the adapter decides what that means. Waits for the
        conversation's running turn, as a turn would. Storage that fails reads as nothing open.
        """
        try:
            async with self._locks.hold(conversation):
                paused = await self.paused_on(await self.conversations.thread_id(conversation))
        except (sqlite3.Error, OSError) as exc:
            log.error("pending.storage_failed", error=str(exc), conversation=conversation, user=user)
            return None
        return to_outcome(paused.id, paused.payload) if paused is not None else None

    async def handle(self, turn: Turn, progress: Progress | None = None) -> list[Outcome]:
        """Run one turn and return what the person should see.

        Turns of one conversation run one at a time in arrival order; other
        conversations run concurrently. Messages held while a decision was
        open run right after it, and their outcomes follow the decision's.
        """
        token = current_progress.set(progress)
        structlog.contextvars.bind_contextvars(conversation=turn.conversation)
        try:
            async with self._locks.hold(turn.conversation), self.users.turn(turn.user):
                outcomes, held = await self._dispatch(turn)
                if held and not (isinstance(turn, Control) and turn.action in _LOOKS):
                    outcomes += await backlog.run_held(self, turn.conversation)
                return outcomes
        except (sqlite3.Error, OSError) as exc:
            log.error("turn.storage_failed", error=str(exc))
            return [storage_failure(exc)]
        finally:
            current_progress.reset(token)
            structlog.contextvars.unbind_contextvars("conversation")

    async def _dispatch(self, turn: Turn) -> tuple[list[Outcome], bool]:
        """Run the turn; also whether messages held for a decision may be waiting (`handle` runs them then)."""
        if isinstance(turn, Control):
            if turn.message_id is not None and (seen := await self.inbox.find(turn.conversation, turn.message_id)):
                return await self._again(turn, seen), True
            return await run_control(self, turn), True
        # One query for what every message and answer needs to know before it runs.
        arrival = await self.conversations.arrival(turn.conversation, turn.user, turn.message_id)
        if arrival.seen is not None and (seen := await self.inbox.get(arrival.seen)) is not None:
            return await self._again(turn, seen), True
        if isinstance(turn, Message):
            return await self._message(turn, arrival)
        return await self._resume(turn, arrival, await self.paused_on(arrival.thread))

    async def _again(self, turn: Turn, seen: InboxItem) -> list[Outcome]:
        log.info("turn.again", message_id=turn.message_id, status=seen.status)
        return await backlog.again(self, seen)

    # ------------------------------------------------------------------ turns
    # Each returns its outcomes and whether held messages may be waiting: they were
    # when the turn arrived (`Arrival.held`), or the turn held one of its own.

    async def _message(self, turn: Message, arrival: Arrival) -> tuple[list[Outcome], bool]:
        text = clean(turn.text)
        refused = check_text(text, self.config.max_message_chars)
        if refused is not None:
            return [refused], arrival.held
        # What waited runs before what is new.
        held = await backlog.run_held(self, turn.conversation) if arrival.held else []
        thread, tz = arrival.thread, arrival.timezone or self.config.default_timezone
        pending = await self.paused_on(thread)
        verdict = check_message(turn, text, pending, self._reader(turn, tz)) if pending is not None else None
        if isinstance(verdict, AnswerPending):
            outcomes, waiting = await self._resume(verdict.resume, arrival, pending)
            return held + outcomes, waiting
        cleaned = turn.model_copy(update={"text": text})
        # A log sent again under a new id (its reply went missing) is stored once (`repeats`).
        again = await repeats.repeated(self.inbox, self.entries, cleaned) if verdict is None else None
        status: InboxStatus = "deferred" if isinstance(verdict, Hold) else "pending"
        item = await self.inbox.record(
            turn.conversation, turn.user, "message", cleaned.model_dump_json(), turn.message_id, status,
            words=repeats.words(text),
        )
        if item is None:  # the same delivery raced in; `find` shows what became of it
            return held, arrival.held
        if again is not None:
            await self.inbox.mark(item, "done", outcomes=outcomes_json([again]))
            return [*held, again], arrival.held
        if isinstance(verdict, Hold):
            return [*held, verdict.notice], True
        return held + await self.run_message(item, cleaned, thread, tz), arrival.held

    async def _resume(self, turn: Resume, arrival: Arrival, pending: Pending | None) -> tuple[list[Outcome], bool]:
        refused = check_resume(turn, pending)
        if refused is not None:
            return [refused], arrival.held
        aside = check_feedback(turn, self._reader(turn, arrival.timezone or self.config.default_timezone))
        if aside is not None:  # a workout or a question sent after Revise: held as a message of its own
            record, said = aside.message.model_dump_json(), repeats.words(aside.message.text)
            item = await self.inbox.record(
                turn.conversation, turn.user, "message", record, turn.message_id, "deferred", words=said
            )
            return ([aside.notice] if item is not None else []), True
        item = await self.inbox.record(turn.conversation, turn.user, "resume", turn.model_dump_json(), turn.message_id)
        if item is None:
            return [], arrival.held
        assert pending is not None  # check_resume refuses an answer to nothing
        resume: Command[Any] = Command(resume=resume_value(turn.answer))
        return await self.invoke(item, arrival.thread, resume, closed_by(pending.id, turn.answer)), arrival.held

    # ------------------------------------------------------------------ the graph (also used by controls)

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
        again (`interrupts.closing`). On failure the thread goes back to where it was before the run, and an
        answer's question is shown again after the `Failure`.
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

    def _reader(self, turn: Turn, timezone: str) -> Read:
        """Code's reading of a message on the person's day: admission tells an answer from a message of its own."""
        return reader(self.selector, today_in(timezone, turn.at))

    async def timezone(self, user: str) -> str:
        """The user's time zone: set with /timezone, or the default."""
        return await self.conversations.timezone(user) or self.config.default_timezone


def outcomes_json(outcomes: Sequence[Outcome]) -> str:
    """Outcomes as JSON (kept with finished turns; handy for logs and tests)."""
    return json.dumps([o.model_dump(mode="json") for o in outcomes], ensure_ascii=False)
