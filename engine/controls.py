"""Commands that work on a person's data rather than talk to the expert:
``/timezone``, ``/export``, ``/undo``, ``/history``, ``/forget``."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.language.dates import today_in
from engine.entries.export import ExportFormat, all_entries
from engine.entries.export import render as render_export
from engine.outcomes import Document, Notice, Outcome
from engine.store.entries import EntryStore
from engine.store.inbox import Conversations, Inbox
from engine.store.patches import PatchStore
from engine.turns import Control


async def set_timezone(conversations: Conversations, turn: Control) -> list[Outcome]:
    name = turn.argument.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return [
            Notice(
                text=f"“{name}” is not a time zone I know. Use a name like Asia/Seoul or Europe/Berlin.",
                code="bad_timezone",
            )
        ]
    await conversations.set_timezone(turn.user, name)
    return [Notice(text=f"Time zone set to {name}. “Yesterday” now means yesterday there.", code="timezone")]


async def export(entries: EntryStore, turn: Control, tz: str) -> list[Outcome]:
    found = await all_entries(entries, turn.user)
    if not found:
        return [Notice(text="You have no entries yet, so there is nothing to export.", code="nothing")]
    fmt: ExportFormat = "json" if turn.argument.strip().lower() == "json" else "csv"
    today = today_in(tz, turn.at).isoformat()
    return [
        Document(
            filename=f"almanac-entries-{today}.{fmt}",
            mime="application/json" if fmt == "json" else "text/csv",
            content=render_export(found, fmt),
            caption=f"{len(found)} {'entry' if len(found) == 1 else 'entries'}",
        )
    ]


async def undo(patches: PatchStore, turn: Control) -> list[Outcome]:
    undone = await patches.undo_last(turn.user)
    if undone is None:
        return [Notice(text="Nothing to undo: no approved plan or correction of yours is in effect.", code="nothing")]
    patch_id, lines = undone
    await patches.record_event(turn.conversation, turn.user, "UNDONE", patch_id)
    body = "\n".join(f"- {line}" for line in lines[:10])
    return [Notice(text="Undone:\n" + body if body else "Undone.", code="undone")]


async def history(patches: PatchStore, turn: Control) -> list[Outcome]:
    events = await patches.events(turn.conversation)
    if not events:
        return [Notice(text="No planning events in this conversation yet.", code="nothing")]
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
