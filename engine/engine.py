"""The engine boundary: ``await engine.handle(turn, progress=…) -> list[Outcome]``.

Adapters call ``handle`` for every turn, ``pending`` to know what is open, and
the intake methods (`receive`, `unfinished`, `finish`, `note`) to keep what
their platform delivered until it is handled (`engine.boundary` lists every
promise). The engine orders turns per conversation, records every turn before
the model sees it, maps LangGraph interrupts to ``Ask`` outcomes and
``Resume`` turns back to ``Command(resume=…)``, and turns every user-facing
error into a ``Failure``.

The turn core lives in `engine.conversation` (dispatch, admission, runner,
backlog, commands) and never imports this module: here it is assembled, and
each turn runs under its conversation's lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import structlog
from langgraph.checkpoint.base import BaseCheckpointSaver

from engine.assembly import Parts, assemble
from engine.boundary import Progress, Push
from engine.charts.files import charts_dir
from engine.config import EngineConfig
from engine.conversation.controls import Controls
from engine.conversation.dispatch import Dispatch
from engine.conversation.runner import Runner, outcomes_json
from engine.graph.steps import current_progress
from engine.interrupts import to_outcome
from engine.outcomes import ApprovalRequest, Ask, Outcome
from engine.reminders.scheduler import Scheduler
from engine.reminders.store import ReminderStore
from engine.runtime.failures import storage_failure
from engine.runtime.intake import Intake
from engine.runtime.locks import KeyedLocks, UserGate
from engine.runtime.shared import REMINDERS, SharedWork
from engine.store.db import check_writable
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Deliveries, Inbox
from engine.store.patches import PatchStore
from engine.summary.chores import Chores
from engine.turns import Turn

__all__ = ["Engine", "outcomes_json"]

log = structlog.get_logger("engine")


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
        self.work: SharedWork | None = None
        self.conversations = Conversations(db)
        self.patches = PatchStore(db)
        self._locks = KeyedLocks()
        self.users = UserGate()
        """Lets /forget wait for the person's running turns (see `UserGate`)."""
        self._runner = Runner(self.graph, self.checkpointer, self.inbox, self.conversations, config.default_timezone)
        self.reminders = ReminderStore(db)
        registry = self.selector.registry
        chores = Chores(
            db,
            registry,
            charts_dir(config.data_dir),
            config.default_timezone,
            spellings=lambda: self.selector.build_active_context(registry.names).vocabulary_map,
        )
        self.scheduler = Scheduler(self.reminders, grace=config.reminder_grace, claims=chores)
        """Sends due reminders, weekly summaries, nudges and planned days through the adapters' pushes
        (`deliver_reminders`)."""
        self._scheduling = asyncio.Lock()
        controls = Controls(
            self._runner,
            self.entries,
            self.patches,
            self.users,
            db,
            self.selector,
            charts_dir(config.data_dir),
            self.reminders,
        )
        self._backlog = controls.backlog
        self._dispatch = Dispatch(self._runner, controls, self.entries, self.selector, config.max_message_chars)

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
            if config.database:
                # Other workers may be running turns: only those of conversations no live worker runs are
                # cut off (engine/runtime/shared.py); the rest are found when their conversation is claimed.
                engine.work = await SharedWork.open(config.database, engine.db)
                stack.push_async_callback(engine.work.close)
                # A reminder set on another worker wakes this one's scheduler, if it is the one elected.
                await engine.work.watch(engine.reminders.changed.set, REMINDERS)
                cut_off = await engine.work.interrupt_unowned()
            else:
                cut_off = await engine.inbox.interrupt_pending()
            if cut_off:
                log.warning("engine.interrupted_turns", count=cut_off)
            await engine.inbox.prune()
            yield engine

    # ------------------------------------------------------------------ boundary

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
                return await self._dispatch.turn(turn)
        except (sqlite3.Error, OSError) as exc:
            log.error("turn.storage_failed", error=str(exc))
            return [storage_failure(exc)]
        finally:
            current_progress.reset(token)
            structlog.contextvars.unbind_contextvars("conversation")

    async def pending(self, conversation: str, user: str) -> Ask | ApprovalRequest | None:
        """The conversation's open question or plan, as ``handle`` showed it; no turn runs, no model call.

        ``user`` is who asks (an adapter reading a typed line); the question may be someone
        else's (``asked_by``), and the adapter decides what that means. Waits for the
        conversation's running turn, as a turn would. Storage that fails reads as nothing open.
        """
        try:
            async with self._locks.hold(conversation):
                paused = await self._runner.paused_on(await self.conversations.thread_id(conversation))
        except (sqlite3.Error, OSError) as exc:
            log.error("pending.storage_failed", error=str(exc), conversation=conversation, user=user)
            return None
        return to_outcome(paused.id, paused.payload) if paused is not None else None

    async def deliver_reminders(self, platform: str, push: Push) -> None:
        """Push ``platform``'s reminders as they fall due, until cancelled (`engine.boundary.Reminding`).

        One scheduler serves every platform: the first caller runs it, later ones only register their
        push (and take the scheduler over if the first stops).
        """
        self.scheduler.register(platform, push)
        try:
            async with self._scheduling:
                await self.scheduler.run()
        finally:
            self.scheduler.unregister(platform)

    async def interrupted(self, conversation: str) -> list[Turn]:
        """Turns of a conversation that a crash cut off, oldest first; ``handle`` each to resume it."""
        return await self._backlog.interrupted_turns(conversation)
