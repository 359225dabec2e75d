"""What adapters hand to the engine: one turn at a time (ARCHITECTURE §2)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


def _now() -> datetime:
    return datetime.now(timezone.utc)


class _Turn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    conversation: str
    """Conversation key: ``tg:<chat>[:<topic>]``, ``slack:<team>:<channel>:<ts>``, ``console:<name>``."""
    user: str
    """User key: ``tg:<user>``, ``slack:<team>:<user>``, ``console:<name>``; owns the entries."""
    at: datetime = Field(default_factory=_now)
    """When the platform received it (UTC)."""


class Message(_Turn):
    """A chat message, a slash command's text, or a console line."""

    kind: Literal["message"] = "message"
    text: str
    """What the person wrote, as received."""
    message_id: str | None = None
    """The platform's id for the message; a second delivery of the same id is not run twice (its outcomes come back)."""


class ClarificationAnswer(BaseModel):
    """The person's reply to an ``Ask``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answers: list[str] = Field(default_factory=list)
    """One answer per question, in order (a choice's text or free text)."""
    declined: bool = False
    """The person skipped the question; the engine uses the stated fallback."""


class ApprovalDecision(BaseModel):
    """The person's decision on an ``ApprovalRequest``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decision: Literal["approve", "revise", "cancel"]
    feedback: str = ""
    """What should change (``revise`` only)."""


class Resume(_Turn):
    """A button press, a modal submission or a reply to a pending question."""

    kind: Literal["resume"] = "resume"
    interrupt_id: str
    """The pending question's or plan's id, as carried by the ``Ask``/``ApprovalRequest``."""
    answer: ClarificationAnswer | ApprovalDecision
    message_id: str | None = None
    """The platform's id for the press or reply; the same id again is not run twice (its outcomes come back)."""


ControlAction = Literal[
    "reset",
    "cancel",
    "undo",
    "export",
    "status",
    "retry",
    "timezone",
    "forget",
    "history",
    "next",
    "chart",
    "summary",
    "quiet",
    "remind",
    "reminders",
]


class Control(_Turn):
    """A command that steers the conversation rather than talking to the expert."""

    kind: Literal["control"] = "control"
    action: ControlAction
    argument: str = ""
    """The command's argument, e.g. the zone name for ``timezone``."""
    message_id: str | None = None
    """The platform's id for the command; the same id again is not run twice (its outcomes come back)."""


Turn = Annotated[Message | Resume | Control, Field(discriminator="kind")]
