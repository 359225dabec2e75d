"""The engine boundary: ``await engine.handle(turn, progress=…) -> list[Outcome]``.

Adapters call nothing else. The engine orders turns per conversation, records
every turn before the model sees it, maps LangGraph interrupts to ``Ask``
outcomes and ``Resume`` turns back to ``Command(resume=…)``, and turns every
user-facing error into a ``Failure``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import structlog
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from pydantic import TypeAdapter

from engine import texts
from engine.admission import AnswerPending, Pending, check_message, check_resume, check_text
from engine.config import EngineConfig
from engine.language.dates import today_in
from engine.domains.registry import DomainRegistry, DomainSelector
from engine.errors import UserFacingError
from engine.graph.build import build_graph
from engine.graph.deps import Deps
from engine.graph.state import fresh_turn
from engine.boundary import Progress
from engine.graph.steps import current_progress
from engine.agents.llm import LLM
from engine.runtime.locks import KeyedLocks
from engine.controls import run_control
from engine.interrupts import read_payload, resume_value, to_outcome
from engine.outcomes import Failure, Outcome
from engine.store.db import Database, check_writable
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import PatchStore
from engine.language.text import clean
from engine.runtime.threads import keep_latest
from engine.turns import Message, Resume, Turn

log = structlog.get_logger("engine")
WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""The WAL file is truncated back to this after a checkpoint instead of keeping its peak size."""
PRUNE_EVERY_TURNS = 500
"""How often finished inbox rows are pruned in a long-running process."""
_outcomes = TypeAdapter(list[Outcome])


class Engine:
    """Almanac's domain expert, as adapters see it."""

    def __init__(
        self,
        *,
        config: EngineConfig,
        graph: CompiledStateGraph[Any, Any, Any, Any],
        checkpointer: BaseCheckpointSaver[str],
        db: Database,
        llm: LLM,
        selector: DomainSelector,
    ) -> None:
        self.config = config
        self.graph = graph
        self.checkpointer = checkpointer
        self.db = db
        self.llm = llm
        self.selector = selector
        self.entries = EntryStore(db)
        self.inbox = Inbox(db)
        self.conversations = Conversations(db)
        self.patches = PatchStore(db)
        self._locks = KeyedLocks()
        self._turns = 0

    @classmethod
    @asynccontextmanager
    async def open(
        cls, config: EngineConfig, checkpointer: BaseCheckpointSaver[str] | None = None
    ) -> AsyncIterator[Engine]:
        """Open the databases, load domains and compile the graph; close all on exit.

        Args:
            config: the engine's settings.
            checkpointer: a saver to use instead of the SQLite one (tests pass an
                in-memory saver). One saver per process: the bot opens one engine.

        Raises:
            DataDirError: the data directory cannot be used.
            DomainFileError: a domain file is broken.
        """
        check_writable(config.data_dir)
        registry = DomainRegistry.load(config.domains_dir)
        async with AsyncExitStack() as stack:
            db = await Database.open(config.entries_db)
            stack.push_async_callback(db.close)
            if checkpointer is None:
                saver = await stack.enter_async_context(
                    AsyncSqliteSaver.from_conn_string(str(config.checkpoints_db))
                )
                await saver.setup()
                # WAL + NORMAL: a crash loses nothing, a power cut at most the last
                # turn, which the inbox and /retry cover; FULL cost 2–5 ms a turn.
                await saver.conn.execute("PRAGMA synchronous=NORMAL")
                await saver.conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
                checkpointer = saver
            llm = LLM(config.llm)
            stack.push_async_callback(llm.aclose)
            selector = DomainSelector(registry)
            deps = Deps(
                llm=llm,
                entries=EntryStore(db),
                selector=selector,
                patches=PatchStore(db),
                history_turns=config.history_turns,
                max_retries=config.max_answer_retries,
            )
            graph = build_graph(deps).compile(checkpointer=checkpointer)
            engine = cls(config=config, graph=graph, checkpointer=checkpointer, db=db, llm=llm, selector=selector)
            await engine.inbox.prune()
            yield engine

    # ------------------------------------------------------------------ boundary

    async def handle(self, turn: Turn, progress: Progress | None = None) -> list[Outcome]:
        """Run one turn and return what the person should see.

        Turns of one conversation run one at a time in arrival order; other
        conversations run concurrently.
        """
        token = current_progress.set(progress)
        structlog.contextvars.bind_contextvars(conversation=turn.conversation)
        try:
            async with self._locks.hold(turn.conversation):
                if isinstance(turn, Message):
                    return await self._message(turn)
                if isinstance(turn, Resume):
                    return await self._resume(turn)
                return await run_control(self, turn)
        finally:
            current_progress.reset(token)
            structlog.contextvars.unbind_contextvars("conversation")

    # ------------------------------------------------------------------ turns

    async def _message(self, turn: Message) -> list[Outcome]:
        text = clean(turn.text)
        refused = check_text(text, self.config.max_message_chars)
        if refused is not None:
            return [refused]
        thread = await self.conversations.thread_id(turn.conversation)
        verdict = check_message(turn, text, await self.pending(thread))
        if isinstance(verdict, AnswerPending):
            return await self._resume(verdict.resume, message_id=turn.message_id)
        if verdict is not None:
            return [verdict]
        cleaned = turn.model_copy(update={"text": text})
        item = await self.inbox.record(turn.conversation, turn.user, "message", cleaned.model_dump_json(), turn.message_id)
        if item is None:
            log.info("turn.duplicate", message_id=turn.message_id)
            return []
        return await self.run_message(item, cleaned, thread)

    async def _resume(self, turn: Resume, message_id: str | None = None) -> list[Outcome]:
        thread = await self.conversations.thread_id(turn.conversation)
        refused = check_resume(turn, await self.pending(thread))
        if refused is not None:
            return [refused]
        item = await self.inbox.record(turn.conversation, turn.user, "resume", turn.model_dump_json(), message_id)
        if item is None:
            return []
        return await self.invoke(item, thread, Command(resume=resume_value(turn.answer)))

    # ------------------------------------------------------------------ the graph (also used by controls)

    async def run_message(self, item: int, turn: Message, thread: str) -> list[Outcome]:
        """Start a new turn of the graph for a recorded message."""
        tz = await self.timezone(turn.user)
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
    def thread_config(thread: str) -> Any:
        """The graph config that selects a thread."""
        return {"configurable": {"thread_id": thread}}

    async def pending(self, thread: str) -> Pending | None:
        """The question or plan the thread is paused on, if any."""
        snapshot = await self.graph.aget_state(self.thread_config(thread))
        for intr in snapshot.interrupts:
            payload = read_payload(intr.value)
            if payload is not None:
                return Pending(id=intr.id, payload=payload)
        return None

    async def invoke(self, item: int, thread: str, graph_input: Any) -> list[Outcome]:
        """Run the graph for the inbox item ``item`` and mark the item done or failed."""
        try:
            # "exit": one checkpoint per turn (or per interrupt) instead of one per
            # step; a crash mid-turn is covered by the inbox and /retry.
            result = await self.graph.ainvoke(graph_input, self.thread_config(thread), durability="exit")
        except UserFacingError as exc:
            await self.inbox.mark(item, "failed", exc.code)
            log.warning("turn.failed", code=exc.code)
            return [Failure(text=exc.message, code=exc.code, retryable=exc.retryable)]
        except Exception:
            await self.inbox.mark(item, "failed", "internal")
            log.exception("turn.crashed")
            return [Failure(text=texts.INTERNAL_ERROR, code="internal", retryable=True)]
        await self.inbox.mark(item, "done")
        await keep_latest(self.checkpointer, thread)
        self._turns += 1
        if self._turns % PRUNE_EVERY_TURNS == 0:
            await self.inbox.prune()
        outcomes = _outcomes.validate_python(result.get("outcomes") or [])
        for intr in result.get("__interrupt__") or ():
            payload = read_payload(intr.value)
            if payload is not None:
                outcomes.append(to_outcome(intr.id, payload))
        return outcomes

    async def timezone(self, user: str) -> str:
        """The user's time zone: set with /timezone, or the default."""
        return await self.conversations.timezone(user) or self.config.default_timezone


def outcomes_json(outcomes: Sequence[Outcome]) -> str:
    """Outcomes as JSON (handy for logs and tests)."""
    return json.dumps([o.model_dump(mode="json") for o in outcomes], ensure_ascii=False)
