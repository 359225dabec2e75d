"""What a pick means: a press or a typed word becomes the engine's `ClarificationAnswer` or `ApprovalDecision`.

Platforms show an open question or plan their own way (Telegram inline
buttons, Slack Block Kit buttons, numbered lines in the console) and read
the person's pick their own way (callback data, an action id, a typed
word). Once they know *which* pick it was, `decide` says what it answers
and how the decision reads on the message it closes; `closing_label` says
the same for a question that something else closed (a typed reply,
/cancel, /reset). `read_typed` reads a typed line as a pick or a decision:
the console, Telegram and Slack all call it, so a typed "2", "skip",
"approved" or "revise" means the same on every platform. Its rules are the
engine's (`engine.conversation.typed`), which reads a `Message` that reaches
it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine import (
    ApprovalDecision,
    ApprovalRequest,
    Ask,
    ClarificationAnswer,
    Handler,
    Message,
    Resume,
    Turn,
    Typed,
    read_typed,
    visible,
)

__all__ = [
    "EDIT_HINT",
    "REVISE_PROMPT",
    "Decision",
    "Pending",
    "Pick",
    "PlanPick",
    "Reply",
    "Typed",
    "closing_label",
    "decide",
    "decide_plan",
    "open_prompt",
    "read_typed",
    "visible",
]

Pick = Literal["choice", "skip", "approve", "revise", "cancel"]
"""What a person can pick: one of a question's choices, Skip, or a decision on a plan."""
PlanPick = Literal["approve", "revise", "cancel"]
Reply = ClarificationAnswer | ApprovalDecision
"""What a `Resume` carries."""
Pending = Ask | ApprovalRequest
"""An open question or plan."""

REVISE_PROMPT = "What should change?"
"""Asked after Revise; the person's next words are the feedback on the plan."""
_PLAN_LABELS: dict[PlanPick, str] = {
    "approve": "✓ Approved",
    "revise": f"✎ Revise: {REVISE_PROMPT}",
    "cancel": "✗ Cancelled",
}


@dataclass(frozen=True)
class Decision:
    """A pick read against what is open."""

    answer: Reply
    """What goes to the engine in a `Resume`."""
    label: str
    """How the decision reads, in plain text, on the question or plan it closes."""


def decide_plan(pick: PlanPick, feedback: str = "") -> Decision:
    """Approve, Revise or Cancel on a plan.

    Args:
        pick: the decision.
        feedback: what should change; the console takes it from the same line
            (``revise smaller jumps``), chat platforms from the next message.
    """
    return Decision(ApprovalDecision(decision=pick, feedback=feedback), _PLAN_LABELS[pick])


def decide(pick: Pick, pending: Pending | None, *, index: int = -1, feedback: str = "") -> Decision | None:
    """The answer a pick gives to the open question or plan.

    Args:
        pick: what was picked.
        pending: the open question or plan (needed for ``choice`` only: the
            choice's text is what the engine receives).
        index: for ``choice``, the 0-based index into the first question's options.
        feedback: for a plan decision, see `decide_plan`.

    Returns:
        None for a choice that is not among the first question's options (a
        stale button, a number out of range).
    """
    if pick == "skip":
        return Decision(ClarificationAnswer(declined=True), "Skipped")
    if pick == "choice":
        options = pending.questions[0].options if isinstance(pending, Ask) else []
        if 0 <= index < len(options):
            return Decision(ClarificationAnswer(answers=[options[index]]), f"✓ {options[index]}")
        return None
    return decide_plan(pick, feedback)


EDIT_HINT = (
    "I saw that you edited a message. Edits aren't applied: I already worked with the first version. "
    "To fix a logged entry, send the correction as a new message (e.g. “that was 60kg, not 55”), or /undo the last change."
)
"""Said when a person edits a message they sent (every platform says the same)."""


def closing_label(turn: Turn) -> str:
    """How a question or plan reads once ``turn`` closed it without its buttons."""
    if isinstance(turn, Message):
        return _said(turn.text)
    if isinstance(turn, Resume):
        # A typed answer reads like the button it stands for (read_typed makes these from typed lines).
        reply = turn.answer
        if isinstance(reply, ApprovalDecision):
            return _PLAN_LABELS[reply.decision]
        if reply.declined:
            return "Skipped"
        return _said("; ".join(reply.answers)) if any(a.strip() for a in reply.answers) else "✓ Answered"
    return {"cancel": "✗ Cancelled", "reset": "✗ Closed: fresh conversation", "forget": "✗ Closed"}.get(
        turn.action, "✓ Done"
    )


def _said(text: str) -> str:
    text = " ".join(text.split())
    return "✓ " + (text if len(text) <= 100 else text[:99] + "…")


async def open_prompt(engine: Handler, conversation: str, user: str) -> Pending | None:
    """The conversation's open question or plan: the engine's ``pending`` read, no turn and no model call."""
    return await engine.pending(conversation, user)
