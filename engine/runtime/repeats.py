"""A log sent again is stored once: the same words from the same person, soon after, get a notice.

A person whose reply went missing (flood control, a dropped connection, an
error shown after the entry was stored) sends the same text again. The
platform gives the new message a new id, so the inbox's once-per-id rule
(`engine.store.inbox`) cannot see that it is the same log. This rule does,
and it lives here, in the engine's intake of a new message, rather than in an
adapter: every platform loses replies in its own way, and only the engine
knows whether the earlier message was stored as a log and is still there.

Narrow on purpose, since doing the same set twice is real training: the same
conversation, the same person, the same text (after cleaning, ignoring case and
spacing), within `REPEAT_WINDOW` of the earlier message, and only when that
earlier message was a log whose entries are still kept (not undone or
deleted). Anything else — a question, a chat line, an answer to an open
question, a held message — runs as before. The notice says how to log it a
second time on purpose ("… again", which is no longer the same text).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pydantic import TypeAdapter, ValidationError

from engine import texts
from engine.outcomes import Logged, Notice, Outcome
from engine.store.entries import EntryStore
from engine.store.inbox import Inbox
from engine.turns import Message

REPEAT_WINDOW = timedelta(minutes=10)
"""How soon after a stored log the same text counts as sent again rather than done again."""
_CLOCK_SLACK = timedelta(hours=1)
"""Inbox rows carry the engine's clock and turns the platform's: look this much further back."""
_outcomes: TypeAdapter[list[Outcome]] = TypeAdapter(list[Outcome])


def _utc(at: datetime) -> datetime:
    return at.replace(tzinfo=timezone.utc) if at.tzinfo is None else at


def words(text: str) -> str:
    """The text as compared: retyped with other spacing or capitals, it is still the same.

    Recorded with each message (``Inbox.record``), so the earlier messages with the same words are found by index.
    """
    return " ".join(text.split()).casefold()


async def repeated(inbox: Inbox, entries: EntryStore, turn: Message) -> Notice | None:
    """The notice for a log sent again (``turn.text`` already cleaned), or None to run it.

    Args:
        inbox: where the earlier messages and what they showed are recorded.
        entries: to check that the earlier log's entries are still kept.
        turn: the new message, its text cleaned as it will be recorded.
    """
    at, said = _utc(turn.at), words(turn.text)
    since = at - REPEAT_WINDOW - _CLOCK_SLACK
    for item in await inbox.recent_messages(turn.conversation, turn.user, since, said):
        try:
            earlier = Message.model_validate_json(item.payload)
        except ValidationError:
            continue
        if words(earlier.text) != said or abs(at - _utc(earlier.at)) > REPEAT_WINDOW:
            continue
        try:
            shown = _outcomes.validate_json(item.outcomes or "[]")
        except ValidationError:
            continue
        logged = [e for o in shown if isinstance(o, Logged) for e in o.entries]
        if not logged:
            continue  # a notice for an earlier repeat, or a question: look further back for the log itself
        kept = await entries.by_ids(turn.user, [e.entry_id for e in logged])
        if any(e.status != "deleted" for e in kept):
            return Notice(text=texts.already_logged([e.summary for e in logged], turn.text), code="repeat")
        return None  # the log was undone: this one is meant
    return None
