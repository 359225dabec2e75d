"""The commands that steer a conversation rather than talk to the expert:
``reset``, ``cancel``, ``status``, ``retry``, ``timezone``, ``export``, ``undo``,
``history`` and ``forget`` (the adapters' command map names them), ``next``, a
lift's next-session target computed by code (no model call, nothing changed), and
``chart``, a progress chart drawn by code (:mod:`engine.charts`), ``summary``, last week's
summary or its weekly opt-in, and ``quiet``, the nudges' setting (:mod:`engine.summary`).

A command that changes something and carries the platform's delivery id is
recorded in the inbox like any turn, so a second delivery of it (a redelivery
after a crash) returns what the first showed instead of, say, undoing twice.

`Controls` makes the `Backlog` (handing it `Controls.run` for the commands it
runs again), so /retry and the backlog share one import, this one's.
"""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from langgraph.types import Command
from pydantic import TypeAdapter

from engine import progress_texts, texts
from engine.charts import ChartAsk, ChartReads, chart, chart_for_words, year_before
from engine.conversation.backlog import Backlog
from engine.conversation.runner import Runner
from engine.domains.registry import DomainSelector
from engine.entries.export import ExportFormat, all_entries
from engine.entries.export import render as render_export
from engine.entries.strong_format import strong_left_out
from engine.interrupts import CANCEL, closed_by, to_outcome
from engine.language.dates import today_in
from engine.outcomes import Answer, Chart, Closed, Document, Failure, Notice, Outcome
from engine.query.questions import read_question
from engine.query.render import language_of
from engine.query.targets import target_lifts, target_text
from engine.reminders.commands import ReminderCommands
from engine.reminders.outbox import Outbox
from engine.reminders.store import ReminderStore
from engine.runtime.locks import UserGate
from engine.store.db import Database
from engine.store.entries import EntryStore
from engine.store.history import HistoryStore
from engine.store.inbox import Conversations
from engine.store.patches import PatchStore
from engine.summary import SummaryPrefs
from engine.summary.command import quiet_command, summary_command
from engine.tasks.coded import OFFERED
from engine.turns import ApprovalDecision, ClarificationAnswer, Control, Resume, Turn

_turn: TypeAdapter[Turn] = TypeAdapter(Turn)
_outcomes: TypeAdapter[list[Outcome]] = TypeAdapter(list[Outcome])
_NOT_RECORDED = frozenset({"status", "history", "export", "next", "chart", "summary", "quiet", "retry", "cancel"})
"""Read-only commands (and /summary, /quiet: setting a setting twice sets it once), /retry (each turn it runs
is recorded) and /cancel (recorded when it resumes the graph)."""


class Controls:
    """The commands, for every conversation (and, through `backlog`, the turns run again or later)."""

    def __init__(
        self,
        runner: Runner,
        entries: EntryStore,
        patches: PatchStore,
        users: UserGate,
        db: Database,
        selector: DomainSelector,
        charts: Path | None = None,
        reminders: ReminderStore | None = None,
    ) -> None:
        """``charts``: where /chart writes its PNGs (``DATA_DIR/charts``); None: a temporary folder's.
        ``reminders``: the store the scheduler watches (None: one of its own, for tests without a scheduler)."""
        self._runner = runner
        self._selector = selector
        self._inbox = runner.inbox
        self._conversations = runner.conversations
        self._entries = entries
        self._patches = patches
        self._users = users
        self._db = db
        self._charts = charts if charts is not None else Path(tempfile.gettempdir()) / "almanac-charts"
        self._reminders = ReminderCommands(reminders or ReminderStore(db), runner.timezone)
        self.backlog = Backlog(runner, self.run)
        """Turns held, cut off, failed or delivered twice; runs a recorded command through `run`."""

    async def run(self, turn: Control, recorded: int | None = None) -> list[Outcome]:
        """Carry out one command for ``turn.user`` in ``turn.conversation``.

        Args:
            recorded: the command's inbox item when it is already recorded (a run cut off by a crash).
        """
        item = recorded
        if item is None and turn.message_id is not None and turn.action not in _NOT_RECORDED:
            item = await self._inbox.record(
                turn.conversation, turn.user, "control", turn.model_dump_json(), turn.message_id
            )
        outcomes = await self._run(turn)
        if item is not None:
            await self._inbox.mark(item, "done", outcomes=_outcomes.dump_json(outcomes).decode())
        return outcomes

    async def _run(self, turn: Control) -> list[Outcome]:
        thread = await self._conversations.thread_id(turn.conversation)
        action = turn.action
        if action == "reset":
            dropped = await self._dropped(thread, "Closed: fresh conversation")
            await self._conversations.new_epoch(turn.conversation)
            await self._runner.checkpointer.adelete_thread(thread)
            return [*dropped, Notice(text=texts.RESET, code="reset")]
        if action == "cancel":
            return await self.cancel(turn, thread)
        if action == "status":
            return await self.status(turn, thread)
        if action == "retry":
            return await self.retry(turn, thread)
        if action == "timezone":
            return await set_timezone(self._conversations, turn)
        if action == "export":
            return await export(self._entries, turn, await self._runner.timezone(turn.user))
        if action == "undo":
            return await undo(self._entries, self._patches, turn)
        if action == "history":
            return await history(self._patches, turn)
        if action == "next":
            return await next_session(
                HistoryStore(self._db, self._selector.registry), self._selector, self._patches, turn
            )
        if action in ("remind", "reminders"):
            return await self._reminders.run(turn)
        if action == "chart":
            today = today_in(await self._runner.timezone(turn.user), turn.at)
            reads = ChartReads(self._db, self._selector.registry)
            return [await chart_command(reads, self._selector, turn, today, self._charts)]
        if action == "summary":
            registry = self._selector.registry
            spellings = self._selector.build_active_context(registry.names).vocabulary_map
            tz = await self._runner.timezone(turn.user)
            return await summary_command(
                self._db, registry, turn.user, turn.conversation, turn.argument, turn.at, tz, self._charts, spellings
            )
        if action == "quiet":
            return await quiet_command(self._db, turn.user, turn.conversation, turn.argument, turn.at)
        dropped = await self._dropped(thread, "Closed")
        removed = await self.forget(turn)
        return [*dropped, Notice(text=texts.forgotten(removed, with_conversation=True), code="forgotten")]

    async def _dropped(self, thread: str, label: str) -> list[Outcome]:
        """The `Closed` of the question or plan that a command about to drop the thread takes with it."""
        pending = await self._runner.paused_on(thread)
        return [Closed(interrupt_id=pending.id, label=label)] if pending is not None else []

    async def cancel(self, turn: Control, thread: str) -> list[Outcome]:
        """Drop the open question or plan — only the person it was asked of may."""
        pending = await self._runner.paused_on(thread)
        if pending is None:
            return [Notice(text=texts.NOTHING_TO_CANCEL, code="nothing")]
        if pending.payload.asked_by and pending.payload.asked_by != turn.user:
            return [Notice(text=texts.NOT_YOURS, code="not_yours")]
        item = await self._inbox.record(
            turn.conversation, turn.user, "control", turn.model_dump_json(), turn.message_id
        )
        if item is None:
            return []
        return await self._runner.invoke(item, thread, Command(resume=CANCEL), closed_by(pending.id, None))

    async def status(self, turn: Control, thread: str) -> list[Outcome]:
        """The open question or plan, shown again last, after what is kept: a failed answer, turns to retry, held ones."""
        pending = await self._runner.paused_on(thread)
        unfinished = await self._inbox.failed(turn.conversation)
        notes: list[Outcome] = []
        for item in unfinished:
            original = _turn.validate_json(item.payload)
            if isinstance(original, Resume) and pending is not None and original.interrupt_id == pending.id:
                notes.append(Notice(text=texts.answer_kept(_answer_text(original)), code="answer_kept"))
        others = len(unfinished) - len(notes)
        if others:
            notes.append(Notice(text=texts.waiting_for_retry(others), code="retry"))
        held = await self._inbox.items(turn.conversation, ("deferred",))
        if held:
            notes.append(Notice(text=texts.held_until_decided(len(held)), code="held"))
        if pending is not None:
            return [*notes, to_outcome(pending.id, pending.payload)]
        return notes or [Notice(text=texts.NOTHING_WAITING, code="nothing")]

    async def retry(self, turn: Control, thread: str) -> list[Outcome]:
        """Run again, in order, every turn of this conversation that did not complete (failed or cut off)."""
        unfinished = await self._inbox.failed(turn.conversation)
        if not unfinished:
            held = await self._inbox.items(turn.conversation, ("deferred",))
            if held:
                return [Notice(text=texts.held_until_decided(len(held)), code="held")]
            return [Notice(text=texts.NOTHING_TO_RETRY, code="nothing")]
        outcomes: list[Outcome] = []
        for done, item in enumerate(unfinished):
            if item.kind == "message" and await self._runner.paused_on(thread) is not None:
                outcomes.append(Notice(text=texts.retry_paused(len(unfinished) - done), code="busy"))
                break
            result = await self.backlog.run_item(item)
            outcomes += result
            if any(isinstance(o, Failure) for o in result):
                break
        return outcomes

    async def forget(self, turn: Control) -> int:
        """Delete everything kept about the user (the adapter asks for confirmation first); returns entries removed.

        Waits for the person's turns still running in other conversations (so
        nothing they store lands afterwards), then deletes the entries, recorded
        turns and deliveries, planning events, settings, and every conversation
        thread that carries the person's words — the model never sees them again.
        A conversation shared with others (in groups every member has their own,
        so only threads from older versions) starts afresh for everyone in it.
        """
        user = turn.user
        async with self._users.alone(user, but=1):  # this turn itself is one of theirs
            # The entries they have, not the rows: a corrected entry keeps its earlier versions.
            removed = await self._entries.count(user, kinds=("parsed", "note", "planned"))
            await self._entries.delete_all(user)
            await self._db.purge_deleted_text()
            for conversation in {turn.conversation, *await self._inbox.conversations_of(user)}:
                await self._runner.checkpointer.adelete_thread(await self._conversations.thread_id(conversation))
                await self._conversations.new_epoch(conversation)
            await self._inbox.forget_user(user)
            await self._patches.forget_user(user)
            await self._conversations.forget_user(user)
            await SummaryPrefs(self._db).forget_user(user)
            await Outbox(self._db).forget_user(user)
            await self._reminders.store.forget_user(user)
        return removed


def _answer_text(turn: Resume) -> str:
    answer = turn.answer
    if isinstance(answer, ClarificationAnswer):
        return "skip" if answer.declined else "; ".join(answer.answers)
    assert isinstance(answer, ApprovalDecision)
    return f"{answer.decision} {answer.feedback}".strip()


async def set_timezone(conversations: Conversations, turn: Control) -> list[Outcome]:
    name = turn.argument.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return [Notice(text=texts.bad_timezone(name), code="bad_timezone")]
    await conversations.set_timezone(turn.user, name)
    return [Notice(text=texts.timezone_set(name), code="timezone")]


_EXPORTS: dict[str, tuple[ExportFormat, str, str]] = {
    "csv": ("csv", "almanac-entries-{}.csv", "text/csv"),
    "json": ("json", "almanac-entries-{}.json", "application/json"),
    "strong": ("strong", "almanac-strong-{}.csv", "text/csv"),
}
"""``/export [csv|json|strong]``: the format, the file's name (with today's date) and its type; csv by default."""


async def export(entries: EntryStore, turn: Control, tz: str) -> list[Outcome]:
    found = await all_entries(entries, turn.user)
    if not found:
        return [Notice(text=texts.NO_ENTRIES_TO_EXPORT, code="nothing")]
    asked = turn.argument.strip().lower() or "csv"
    if asked not in _EXPORTS:
        return [Notice(text=texts.unknown_export_format(asked, list(_EXPORTS)), code="bad_format")]
    fmt, filename, mime = _EXPORTS[asked]
    # Strong's format holds workouts only (no meals, notes or planned sessions): count what it holds.
    left_out = strong_left_out(found) if fmt == "strong" else 0
    today = today_in(tz, turn.at).isoformat()
    return [
        Document(
            filename=filename.format(today),
            mime=mime,
            content=render_export(found, fmt),
            caption=texts.export_caption(len(found) - left_out, left_out),
        )
    ]


async def undo(entries: EntryStore, patches: PatchStore, turn: Control) -> list[Outcome]:
    """Take back the latest change: an entry just logged in a chat, or else the last approved plan or correction.

    A log is taken back only when nothing was planned, decided or committed since: after
    a cancelled plan, /undo has nothing of that plan to undo and leaves the earlier log alone.
    """
    logged = await entries.last_logged(turn.user)
    since = [
        t for t in (await patches.last_committed_at(turn.user), await patches.last_event_at(turn.conversation)) if t
    ]
    if logged is not None and all(logged.created_at > t for t in since):
        await entries.remove(turn.user, logged.entry_id)
        return [Notice(text=texts.log_removed(logged.summary, logged.occurred_on), code="undone")]
    undone = await patches.undo_last(turn.user)
    if undone is None:
        return [Notice(text=texts.NOTHING_TO_UNDO, code="nothing")]
    patch_id, lines = undone
    await patches.record_event(turn.conversation, turn.user, "UNDONE", patch_id)
    return [Notice(text=texts.undone(lines), code="undone")]


async def history(patches: PatchStore, turn: Control) -> list[Outcome]:
    events = await patches.events(turn.conversation)
    if not events:
        return [Notice(text=texts.NO_PLANNING_EVENTS, code="nothing")]
    lines = [texts.history_line(at, kind, detail) for at, kind, _user, detail in events]
    return [Notice(text="\n".join(lines), code="history")]


async def next_session(
    history_store: HistoryStore, selector: DomainSelector, patches: PatchStore, turn: Control
) -> list[Outcome]:
    """``/next bench``: the lift's next-session target, read with every domain's words ("벤치" is bench press)."""
    said = turn.argument.strip()
    lang = language_of(said)
    registry = selector.registry
    # The day only matters to a date the words might name; the lift is all that is read here.
    everything = selector.build_active_context(registry.names)
    shape = read_question(said, everything, turn.at.date())
    lifts = target_lifts(shape.terms, registry)
    if not lifts:
        return [Notice(text=progress_texts.unknown_target_lift(said, lang), code="unknown_lift")]
    text = await target_text(history_store, everything, turn.user, lifts, lang)
    # "Add that to my plan" then means this lift's target (engine.tasks.coded).
    await patches.record_event(turn.conversation, turn.user, OFFERED, f"next {lifts[0]}")
    return [Answer(text=text, language=lang)]


async def chart_command(
    reads: ChartReads, selector: DomainSelector, turn: Control, today: date, out_dir: Path
) -> Chart | Notice:
    """``/chart bench 3 months``: the chart the words name, read with every domain's words; ``/chart``
    alone: training days over the last 12 months."""
    said = turn.argument.strip()
    lang = language_of(said)
    registry = selector.registry
    if not said:
        ask = ChartAsk("days", (), year_before(today), today, defaulted=True)
        return await chart(ask, reads, registry, turn.user, out_dir, lang)
    everything = selector.build_active_context(registry.names)
    return await chart_for_words(said, reads, everything, registry, turn.user, today, out_dir, lang)
