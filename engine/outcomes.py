"""What the engine hands back for adapters to render (ARCHITECTURE §2).

The engine never formats for a platform: these carry plain text and data,
and each adapter decides how they look.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Outcome(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Citation(BaseModel):
    """Something an answer or a plan rests on: an entry today, an article tomorrow."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    """An entry's date and summary, an article's title, or a domain's expertise."""
    ref: str = ""
    """What it is in Almanac: ``entry:<id>``, ``domain:<name>``, ``article:<chunk id>``."""
    url: str | None = None
    """Where a person can read it (an article's URL or path); none for entries."""
    retrieved_at: datetime | None = None
    """When it was read for this answer or plan."""
    on: date | None = None
    """The entry's date, when the citation is an entry."""


class Answer(_Outcome):
    """A final answer."""

    kind: Literal["answer"] = "answer"
    text: str
    citations: list[Citation] = Field(default_factory=list)
    partial: bool = False
    """True when the engine could not fully answer (evaluation failed at its limit, domain missing)."""
    language: Literal["en", "ko"] = "en"
    """The person's language: adapters write their notes around the answer (partial, sources) in it."""


RecordKind = Literal["first", "heaviest", "reps_at", "e1rm", "volume", "longest", "pace", "stall"]
"""What a logged entry set: the first time a lift or sport was logged, a personal record (a PR), or — not a
record, said in the same place — that the lift has stalled (``stall``, once per stall)."""


class Record(BaseModel):
    """A record an entry set when it was logged, compared by code with the person's earlier history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: RecordKind
    """``first`` (first time logged, no PR), ``heaviest`` (weight), ``reps_at`` (most reps at a weight),
    ``e1rm`` (best estimated 1RM), ``volume`` (best session volume), ``longest`` (distance), ``pace``
    (fastest pace at about this distance), ``stall`` (no progress or a falling estimate: ``value`` is the best
    estimated 1RM it is measured against, ``previous_on`` its day)."""
    subject: str
    """The lift (``bench press``, a variation is its own lift) or the sport (``running``)."""
    value: float
    """The new best, in ``unit``; 0 for ``first``."""
    unit: str
    """``kg``, ``lb``, ``reps``, ``km``, ``m``, or a pace's ``s/km``, ``s/100m``."""
    shown: str
    """The new best as a person reads it (``60 kg × 5``; an estimate names its set)."""
    previous: float | None = None
    """The best before it, as it was logged (a weight in its own unit, as ``previous_shown`` says);
    None for ``first``."""
    previous_shown: str = ""
    previous_on: date | None = None
    """The day the previous best was set."""
    text: str
    """The whole line in the person's language, e.g. ``New heaviest bench press: 60 kg × 5 (before: …)``."""


class LoggedEntry(BaseModel):
    """One stored entry, as the person should see it confirmed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entry_id: str
    on: date
    domain: str
    summary: str
    """One line, e.g. ``bench press 55 kg × 10 × 5 sets``."""
    action: Literal["logged", "corrected", "planned"] = "logged"
    """What happened to it: logged now, a correction of an earlier entry, or a session planned ahead."""
    records: list[Record] = Field(default_factory=list)
    """Records it set (or ``first``), each said once ever: adapters show them under the confirmation."""


class Logged(_Outcome):
    """Entries were stored."""

    kind: Literal["logged"] = "logged"
    entries: list[LoggedEntry]


class Question(BaseModel):
    """One clarification question."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    options: list[str] = Field(default_factory=list)
    """Suggested answers; adapters show them as buttons. Free text is always allowed."""


class Ask(_Outcome):
    """A pending clarification: the conversation waits for a ``Resume``."""

    kind: Literal["ask"] = "ask"
    interrupt_id: str
    questions: list[Question] = Field(min_length=1, max_length=3)
    why: str
    """Why the engine asks."""
    if_declined: str
    """What happens when the person skips."""
    asked_by: str = ""
    """User key of the person who is asked; only they may answer in a group."""


class ApprovalRequest(_Outcome):
    """A pending plan that changes nothing until approved."""

    kind: Literal["approval"] = "approval"
    interrupt_id: str
    title: str
    plan: dict[str, Any]
    """The WorkPlan or TaskSheet + Patch, as data."""
    summary: str
    """The plan in a few plain lines."""
    confidence: float
    evidence: list[Citation] = Field(default_factory=list)
    asked_by: str = ""


class Notice(_Outcome):
    """Anything else the person must know (cancelled, stale button, not available yet)."""

    kind: Literal["notice"] = "notice"
    text: str
    code: str = ""
    """Machine-readable reason, e.g. ``stale``, ``too_long``, ``empty``, ``not_available``."""


class Document(_Outcome):
    """A file for the person (an export); adapters send it as an attachment."""

    kind: Literal["document"] = "document"
    filename: str
    mime: str
    content: str
    caption: str = ""


class Chart(_Outcome):
    """A progress chart drawn by code (a PNG file); adapters send it as a photo, upload it, or print its path.

    The picture is a file, not bytes in the outcome: outcomes are kept in checkpoints and held replies
    as plain JSON, and a file can be re-sent after a restart.
    """

    kind: Literal["chart"] = "chart"
    path: str
    """The PNG, written under ``DATA_DIR/charts/``."""
    title: str
    """What it shows, one line (``Bench press: estimated 1RM per session``), in the person's language."""
    caption: str
    """The figures shown (first, latest, best, change) as code wrote them; at most 1,000 characters
    (Telegram's photo caption limit is 1,024)."""
    alt: str
    """The picture in words, for screen readers (Slack's ``alt_txt``)."""
    language: Literal["en", "ko"] = "en"


ReminderAction = Literal["confirm", "cancel", "done", "snooze", "delete"]
"""What a reminder's button does: set a proposed one or not (``confirm``/``cancel``), mark it done, snooze it an
hour, delete it."""


class ReminderCard(_Outcome):
    """A reminder with its buttons: proposed by ``/remind`` (confirm, cancel), listed by ``/reminders`` (done,
    snooze, delete), or due now (done, snooze) — the last one sent by the scheduler, without a turn.

    Each button is the control ``reminders`` with `command` as its argument (a typed
    ``/reminders snooze 3`` does the same).
    """

    kind: Literal["reminder"] = "reminder"
    text: str
    """The whole message, in the person's language (``⏰ stretch``, ``⏰ late: stretch (due 21:00)``)."""
    reminder_id: int
    at: datetime
    """The instant the buttons act on: the occurrence sent, or the next due one listed; a press that no
    longer matches is refused as stale."""
    actions: list[ReminderAction] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    """The buttons' labels, one per action, in the person's language."""
    asked_by: str = ""
    """User key of the reminder's owner: only they may press its buttons."""

    def command(self, action: ReminderAction) -> str:
        """The ``reminders`` control's argument for a button: ``snooze 3 1764129600``."""
        return f"{action} {self.reminder_id} {int(self.at.timestamp())}"


class Failure(_Outcome):
    """A user-facing error: what went wrong and what to do; never a traceback."""

    kind: Literal["failure"] = "failure"
    text: str
    code: str = ""
    """``model_unreachable``, ``model_timeout``, ``model_missing``, ``model_invalid``, …"""
    retryable: bool = False
    """True when ``/retry`` will process the message once the cause is fixed."""


class Closed(_Outcome):
    """The open question or plan was answered or dropped by this turn: adapters take its buttons off.

    Comes first in the turn's outcomes. An answer that failed keeps its question open
    (it is shown again), so it closes nothing.
    """

    kind: Literal["closed"] = "closed"
    interrupt_id: str
    """The `Ask` or `ApprovalRequest` it closes."""
    label: str
    """How it was closed, in plain words: ``Answered``, ``Skipped``, ``Approved``, ``Revised``, ``Cancelled``, …"""


Outcome = Annotated[
    Answer | Logged | Ask | ApprovalRequest | Notice | Document | Chart | ReminderCard | Failure | Closed,
    Field(discriminator="kind"),
]
