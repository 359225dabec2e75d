"""What a pick means: a press or a typed word becomes the engine's `ClarificationAnswer` or `ApprovalDecision`.

Platforms show an open question or plan their own way (Telegram inline
buttons, Slack Block Kit buttons, numbered lines in the console) and read
the person's pick their own way (callback data, an action id, a typed
word). Once they know *which* pick it was, `decide` says what it answers
and how the decision reads on the message it closes; `closing_label` says
the same for a question that something else closed (a typed reply,
/cancel, /reset). `typed_reply` reads a typed line as a pick, as the
console does (Telegram and Slack send typed replies to the engine as a
`Message`, which answers an open question in the person's own words).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine import ApprovalDecision, ApprovalRequest, Ask, ClarificationAnswer, Control, Handler, Message, Resume, Turn

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


def typed_reply(line: str, pending: Pending | None) -> Reply | None:
    """Read a typed line as the answer to what is open.

    For a question: ``skip`` declines, a number picks that choice (``1`` is the
    first), anything else answers in the person's own words. For a plan: a line
    that starts with approve, revise or cancel is that decision, the rest of
    the line its feedback.

    Returns:
        None when the line answers nothing (nothing is open, or a plan is open
        and the line is no decision): send it as a `Message`.
    """
    text = line.strip()
    lowered = text.lower()
    if isinstance(pending, Ask):
        options = pending.questions[0].options
        picked: Decision | None = None
        if lowered == "skip":
            picked = decide("skip", pending)
        elif lowered.isdecimal() and options and 1 <= int(lowered) <= len(options):
            picked = decide("choice", pending, index=int(lowered) - 1)
        return picked.answer if picked is not None else ClarificationAnswer(answers=[text])
    if isinstance(pending, ApprovalRequest):
        word, _, rest = text.partition(" ")
        plan_pick = next((p for p in _PLAN_LABELS if p == word.lower()), None)
        if plan_pick is not None:
            return decide_plan(plan_pick, rest.strip()).answer
    return None


def closing_label(turn: Turn) -> str:
    """How a question or plan reads once ``turn`` closed it without its buttons."""
    if isinstance(turn, Message):
        text = " ".join(turn.text.split())
        return "✓ " + (text if len(text) <= 100 else text[:99] + "…")
    if isinstance(turn, Resume):
        return "✓ Answered"
    return {"cancel": "✗ Cancelled", "reset": "✗ Closed: fresh conversation", "forget": "✗ Closed"}.get(
        turn.action, "✓ Done"
    )


async def open_prompt(engine: Handler, conversation: str, user: str) -> Pending | None:
    """The conversation's open question or plan: a read-only ``status`` turn, no model call."""
    outcomes = await engine.handle(Control(conversation=conversation, user=user, action="status"))
    return next((o for o in outcomes if isinstance(o, (Ask, ApprovalRequest))), None)
