"""The nine commands that steer a conversation rather than talk to the expert:
``reset``, ``cancel``, ``status``, ``retry``, ``timezone``, ``export``, ``undo``,
``history`` and ``forget`` (the adapters' command map names them)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from langgraph.types import Command
from pydantic import TypeAdapter

from engine import texts
from engine.entries.export import ExportFormat, all_entries
from engine.entries.export import render as render_export
from engine.interrupts import CANCEL, resume_value, to_outcome
from engine.language.dates import today_in
from engine.outcomes import Document, Failure, Notice, Outcome
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import PatchStore
from engine.turns import Control, Message, Resume, Turn

if TYPE_CHECKING:
    from engine.engine import Engine

_turn: TypeAdapter[Turn] = TypeAdapter(Turn)


async def run_control(engine: Engine, turn: Control) -> list[Outcome]:
    """Carry out one command for ``turn.user`` in ``turn.conversation``."""
    thread = await engine.conversations.thread_id(turn.conversation)
    action = turn.action
    if action == "reset":
        await engine.conversations.new_epoch(turn.conversation)
        await engine.checkpointer.adelete_thread(thread)
        return [Notice(text=texts.RESET, code="reset")]
    if action == "cancel":
        if await engine.pending(thread) is None:
            return [Notice(text=texts.NOTHING_TO_CANCEL, code="nothing")]
        item = await engine.inbox.record(turn.conversation, turn.user, "control", turn.model_dump_json(), None)
        assert item is not None  # controls carry no platform id, so they are never duplicates
        return await engine.invoke(item, thread, Command(resume=CANCEL))
    if action == "status":
        pending = await engine.pending(thread)
        if pending is None:
            return [Notice(text=texts.NOTHING_WAITING, code="nothing")]
        return [to_outcome(pending.id, pending.payload)]
    if action == "retry":
        return await retry(engine, turn, thread)
    if action == "timezone":
        return await set_timezone(engine.conversations, turn)
    if action == "export":
        return await export(engine.entries, turn, await engine.timezone(turn.user))
    if action == "undo":
        return await undo(engine.patches, turn)
    if action == "history":
        return await history(engine.patches, turn)
    # forget
    removed = await forget(engine.entries, engine.inbox, engine.conversations, engine.patches, turn)
    # A private conversation is the person's own and goes too; a group's
    # thread belongs to everyone in it and stays.
    private = turn.conversation == turn.user
    if private:
        await engine.checkpointer.adelete_thread(thread)
        await engine.conversations.new_epoch(turn.conversation)
    return [Notice(text=texts.forgotten(removed, with_conversation=private), code="forgotten")]


async def retry(engine: Engine, turn: Control, thread: str) -> list[Outcome]:
    """Run again, in order, the turns of this conversation that failed."""
    failed = await engine.inbox.failed(turn.conversation)
    if not failed:
        return [Notice(text=texts.NOTHING_TO_RETRY, code="nothing")]
    outcomes: list[Outcome] = []
    for item in failed:
        original = _turn.validate_json(item.payload)
        snapshot = await engine.graph.aget_state(engine.thread_config(thread))
        pending = await engine.pending(thread)
        # A run that stopped on an error mid-way (its state says what is next)
        # continues from the failed node; nodes before it are not run again.
        stopped_here = bool(snapshot.next) and pending is None and (
            not isinstance(original, Message) or snapshot.values.get("turn_id") == str(item.id)
        )
        if stopped_here:
            result = await engine.invoke(item.id, thread, None)
        elif isinstance(original, Message):
            if pending is not None:
                outcomes.append(Notice(text=texts.ANSWER_FIRST, code="busy"))
                break
            result = await engine.run_message(item.id, original, thread)
        elif isinstance(original, Resume) and pending is not None and pending.id == original.interrupt_id:
            result = await engine.invoke(item.id, thread, Command(resume=resume_value(original.answer)))
        elif isinstance(original, Control) and pending is not None:
            result = await engine.invoke(item.id, thread, Command(resume=CANCEL))
        else:
            await engine.inbox.mark(item.id, "done", "stale")
            continue
        outcomes.extend(result)
        if any(isinstance(o, Failure) for o in result):
            break
    return outcomes


async def set_timezone(conversations: Conversations, turn: Control) -> list[Outcome]:
    name = turn.argument.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return [Notice(text=texts.bad_timezone(name), code="bad_timezone")]
    await conversations.set_timezone(turn.user, name)
    return [Notice(text=texts.timezone_set(name), code="timezone")]


async def export(entries: EntryStore, turn: Control, tz: str) -> list[Outcome]:
    found = await all_entries(entries, turn.user)
    if not found:
        return [Notice(text=texts.NO_ENTRIES_TO_EXPORT, code="nothing")]
    fmt: ExportFormat = "json" if turn.argument.strip().lower() == "json" else "csv"
    today = today_in(tz, turn.at).isoformat()
    return [
        Document(
            filename=f"almanac-entries-{today}.{fmt}",
            mime="application/json" if fmt == "json" else "text/csv",
            content=render_export(found, fmt),
            caption=texts.export_caption(len(found)),
        )
    ]


async def undo(patches: PatchStore, turn: Control) -> list[Outcome]:
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
    lines = [f"{at[:16].replace('T', ' ')} {kind} {detail}" for at, kind, _user, detail in events]
    return [Notice(text="\n".join(lines), code="history")]


async def forget(
    entries: EntryStore, inbox: Inbox, conversations: Conversations, patches: PatchStore, turn: Control
) -> int:
    """Delete everything kept about the user (the adapter asks for confirmation first); returns entries removed."""
    removed = await entries.delete_all(turn.user)
    await inbox.forget_user(turn.user)
    await patches.forget_user(turn.user)
    await conversations.forget_user(turn.user)
    return removed
