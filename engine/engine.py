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
from langgraph.types import Command, Interrupt
from pydantic import TypeAdapter

from engine import controls
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
from engine.outcomes import ApprovalRequest, Ask, Citation, Failure, Notice, Outcome, Question
from engine.store.db import Database, check_writable
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import PatchStore
from engine.language.text import clean
from engine.runtime.threads import keep_latest
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, Message, Resume, Turn

log = structlog.get_logger("engine")
WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""The WAL file is truncated back to this after a checkpoint instead of keeping its peak size."""
PRUNE_EVERY_TURNS = 500
"""How often finished inbox rows are pruned in a long-running process."""
_outcomes = TypeAdapter(list[Outcome])
_turn = TypeAdapter(Turn)


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
                return await self._control(turn)
        finally:
            current_progress.reset(token)
            structlog.contextvars.unbind_contextvars("conversation")

    # ------------------------------------------------------------------ turns

    async def _message(self, turn: Message) -> list[Outcome]:
        text = clean(turn.text)
        if not text:
            return [Notice(text="That message was empty. Tell me what you did, e.g. “bench 55kg 10x5”.", code="empty")]
        limit = self.config.max_message_chars
        if len(text) > limit:
            return [
                Notice(
                    text=f"That message is {len(text):,} characters long; I take at most {limit:,}. "
                    "Please send it in shorter parts. Nothing was stored.",
                    code="too_long",
                )
            ]
        thread = await self.conversations.thread_id(turn.conversation)
        pending = await self._pending(thread)
        if pending is not None and pending.value.get("kind") == "ask":
            # A plain reply while a question is open answers it.
            asked_by = pending.value.get("asked_by")
            if asked_by and asked_by != turn.user:
                return [
                    Notice(
                        text="I'm waiting for an answer to a question I asked someone else here. "
                        "They can answer it, or anyone can /cancel it.",
                        code="busy",
                    )
                ]
            resume = Resume(
                conversation=turn.conversation,
                user=turn.user,
                at=turn.at,
                interrupt_id=pending.id,
                answer=ClarificationAnswer(answers=[text]),
            )
            return await self._resume(resume, message_id=turn.message_id)
        if pending is not None:
            return [
                Notice(
                    text="A plan is waiting for your decision: approve, revise or cancel it first (/cancel drops it).",
                    code="pending_approval",
                )
            ]
        item = await self.inbox.record(
            turn.conversation, turn.user, "message", turn.model_copy(update={"text": text}).model_dump_json(), turn.message_id
        )
        if item is None:
            log.info("turn.duplicate", message_id=turn.message_id)
            return []
        return await self._run_message(item, turn.model_copy(update={"text": text}), thread)

    async def _run_message(self, item: int, turn: Message, thread: str) -> list[Outcome]:
        tz = await self._timezone(turn.user)
        state = fresh_turn(
            turn_id=str(item),
            conversation=turn.conversation,
            user=turn.user,
            text=turn.text,
            today=today_in(tz, turn.at).isoformat(),
            timezone=tz,
        )
        return await self._invoke(item, thread, state)

    async def _resume(self, turn: Resume, message_id: str | None = None) -> list[Outcome]:
        thread = await self.conversations.thread_id(turn.conversation)
        pending = await self._pending(thread)
        if pending is None or pending.id != turn.interrupt_id:
            return [Notice(text="That question is no longer open (already answered or replaced).", code="stale")]
        asked_by = pending.value.get("asked_by")
        if asked_by and asked_by != turn.user:
            return [Notice(text="Only the person who was asked can answer that.", code="not_yours")]
        kind = pending.value.get("kind") if isinstance(pending.value, dict) else None
        expected = ApprovalDecision if kind == "approval" else ClarificationAnswer
        if not isinstance(turn.answer, expected):
            return [Notice(text="That button does not belong to what is pending.", code="stale")]
        item = await self.inbox.record(turn.conversation, turn.user, "resume", turn.model_dump_json(), message_id)
        if item is None:
            return []
        return await self._invoke(item, thread, Command(resume=turn.answer.model_dump(mode="json")))

    async def _control(self, turn: Control) -> list[Outcome]:
        thread = await self.conversations.thread_id(turn.conversation)
        action = turn.action
        if action == "reset":
            await self.conversations.new_epoch(turn.conversation)
            await self.checkpointer.adelete_thread(thread)
            return [Notice(text="Started a fresh conversation. Your logged entries are kept.", code="reset")]
        if action == "cancel":
            pending = await self._pending(thread)
            if pending is None:
                return [Notice(text="Nothing to cancel.", code="nothing")]
            item = await self.inbox.record(turn.conversation, turn.user, "control", turn.model_dump_json(), None)
            assert item is not None
            return await self._invoke(item, thread, Command(resume={"cancelled": True}))
        if action == "status":
            pending = await self._pending(thread)
            if pending is None:
                return [Notice(text="Nothing is waiting for you.", code="nothing")]
            return [self._ask(pending)]
        if action == "retry":
            return await self._retry(turn, thread)
        if action == "timezone":
            return await controls.set_timezone(self.conversations, turn)
        if action == "export":
            return await controls.export(self.entries, turn, await self._timezone(turn.user))
        if action == "undo":
            return await controls.undo(self.patches, turn)
        if action == "history":
            return await controls.history(self.patches, turn)
        if action == "forget":
            removed = await controls.forget(self.entries, self.inbox, self.conversations, self.patches, turn)
            # A private conversation is the person's own and goes too; a group's
            # thread belongs to everyone in it and stays.
            private = turn.conversation == turn.user
            if private:
                await self.checkpointer.adelete_thread(thread)
                await self.conversations.new_epoch(turn.conversation)
            what = "entries and this conversation" if private else "entries"
            return [
                Notice(
                    text=f"Done: deleted {removed} {what}. Nothing of yours is kept.",
                    code="forgotten",
                )
            ]
        return [Notice(text=f"/{action} is not available in this version of Almanac.", code="not_available")]

    async def _retry(self, turn: Control, thread: str) -> list[Outcome]:
        failed = await self.inbox.failed(turn.conversation)
        if not failed:
            return [Notice(text="Nothing to retry: every message so far was handled.", code="nothing")]
        outcomes: list[Outcome] = []
        for item in failed:
            original = _turn.validate_json(item.payload)
            snapshot = await self.graph.aget_state(self._config(thread))
            pending = snapshot.interrupts[0] if snapshot.interrupts else None
            # A run that stopped on an error mid-way (its state says what is next)
            # continues from the failed node; nodes before it are not run again.
            stopped_here = bool(snapshot.next) and pending is None and (
                not isinstance(original, Message) or snapshot.values.get("turn_id") == str(item.id)
            )
            if stopped_here:
                result = await self._invoke(item.id, thread, None)
            elif isinstance(original, Message):
                if pending is not None:
                    outcomes.append(
                        Notice(text="Answer or /cancel the open question first, then /retry.", code="busy")
                    )
                    break
                result = await self._run_message(item.id, original, thread)
            elif isinstance(original, Resume) and pending is not None and pending.id == original.interrupt_id:
                result = await self._invoke(item.id, thread, Command(resume=original.answer.model_dump(mode="json")))
            elif isinstance(original, Control) and pending is not None:
                result = await self._invoke(item.id, thread, Command(resume={"cancelled": True}))
            else:
                await self.inbox.mark(item.id, "done", "stale")
                continue
            outcomes.extend(result)
            if any(isinstance(o, Failure) for o in result):
                break
        return outcomes

    # ------------------------------------------------------------------ graph

    def _config(self, thread: str) -> Any:
        return {"configurable": {"thread_id": thread}}

    async def _pending(self, thread: str) -> Interrupt | None:
        snapshot = await self.graph.aget_state(self._config(thread))
        interrupts = snapshot.interrupts
        return interrupts[0] if interrupts else None

    async def _invoke(self, item: int, thread: str, graph_input: Any) -> list[Outcome]:
        try:
            # "exit": one checkpoint per turn (or per interrupt) instead of one per
            # step; a crash mid-turn is covered by the inbox and /retry.
            result = await self.graph.ainvoke(graph_input, self._config(thread), durability="exit")
        except UserFacingError as exc:
            await self.inbox.mark(item, "failed", exc.code)
            log.warning("turn.failed", code=exc.code)
            return [Failure(text=exc.message, code=exc.code, retryable=exc.retryable)]
        except Exception:
            await self.inbox.mark(item, "failed", "internal")
            log.exception("turn.crashed")
            return [
                Failure(
                    text="Something went wrong on my side (it is logged). Your message is kept; send /retry to try again.",
                    code="internal",
                    retryable=True,
                )
            ]
        await self.inbox.mark(item, "done")
        await keep_latest(self.checkpointer, thread)
        self._turns += 1
        if self._turns % PRUNE_EVERY_TURNS == 0:
            await self.inbox.prune()
        outcomes = _outcomes.validate_python(result.get("outcomes") or [])
        for intr in result.get("__interrupt__") or ():
            outcomes.append(self._ask(intr))
        return outcomes

    @staticmethod
    def _ask(intr: Interrupt) -> Outcome:
        value: dict[str, Any] = intr.value if isinstance(intr.value, dict) else {}
        if value.get("kind") == "approval":
            return ApprovalRequest(
                interrupt_id=intr.id,
                title=str(value.get("title", "")),
                plan=dict(value.get("plan") or {}),
                summary=str(value.get("summary", "")),
                confidence=float(value.get("confidence", 0.0)),
                evidence=[Citation(title=str(e.get("title", "")), source=str(e.get("source", ""))) for e in value.get("evidence", [])],
                asked_by=str(value.get("asked_by", "")),
            )
        questions = [
            Question(text=str(q.get("text", "")), options=[str(o) for o in q.get("options", [])][:5])
            for q in value.get("questions", [])
        ][:3] or [Question(text="Could you say more?")]
        return Ask(
            interrupt_id=intr.id,
            questions=questions,
            why=str(value.get("why", "")),
            if_declined=str(value.get("if_declined", "")),
            asked_by=str(value.get("asked_by", "")),
        )

    async def _timezone(self, user: str) -> str:
        return await self.conversations.timezone(user) or self.config.default_timezone


def outcomes_json(outcomes: Sequence[Outcome]) -> str:
    """Outcomes as JSON (handy for logs and tests)."""
    return json.dumps([o.model_dump(mode="json") for o in outcomes], ensure_ascii=False)
