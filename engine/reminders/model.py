"""A reminder and an occurrence of one as the store keeps them, and the stored form of an instant."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal

from engine.reminders.schedule import Schedule

Status = Literal["proposed", "active", "done", "deleted"]
SendStatus = Literal["claimed", "sent", "missed"]


def stamp(at: datetime) -> str:
    """An aware instant as fixed-width UTC text (``2026-11-26T04:00:00.000000Z``): text order is time order."""
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def unstamp(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class Reminder:
    """One reminder as kept."""

    id: int
    user: str
    conversation: str
    what: str
    schedule: Schedule
    next_due: datetime | None
    status: Status
    language: str
    created: datetime
    last_fired: datetime | None


@dataclass(frozen=True)
class Occurrence:
    """One due instant of a reminder, claimed: to send, sent, or missed."""

    reminder_id: int
    due: datetime
    user: str
    conversation: str
    what: str
    language: str
    status: SendStatus
    late: bool
    answer: str | None
    repeats: bool


REMINDER_COLUMNS = "id, user_key, conversation, what, schedule, next_due, status, language, created_at, last_fired"
OCCURRENCE_COLUMNS = (
    "s.reminder_id, s.due, s.user_key, r.conversation, r.what, r.language, s.status, s.late, s.answer, r.schedule"
)


def reminder_of(row: Sequence[object]) -> Reminder:
    rid, user, conv, what, schedule, due, status, lang, created, fired = row
    return Reminder(
        int(str(rid)),
        str(user),
        str(conv),
        str(what),
        Schedule.model_validate_json(str(schedule)),
        unstamp(str(due)) if due else None,
        status,  # type: ignore[arg-type]  # written by this module only
        str(lang),
        unstamp(str(created)),
        unstamp(str(fired)) if fired else None,
    )


def occurrence_of(row: Sequence[object]) -> Occurrence:
    rid, due, user, conv, what, lang, status, late, answer, schedule = row
    repeats = Schedule.model_validate_json(str(schedule)).repeat != "once"
    return Occurrence(
        reminder_id=int(str(rid)),
        due=unstamp(str(due)),
        user=str(user),
        conversation=str(conv),
        what=str(what),
        language=str(lang),
        status=status,  # type: ignore[arg-type]  # written by this module only
        late=bool(late),
        answer=str(answer) if answer else None,
        repeats=repeats,
    )
