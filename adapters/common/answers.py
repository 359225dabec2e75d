"""What a pick means: a press or a typed word becomes the engine's `ClarificationAnswer` or `ApprovalDecision`.

Platforms show an open question or plan their own way (Telegram inline
buttons, Slack Block Kit buttons, numbered lines in the console) and read
the person's pick their own way (callback data, an action id, a typed
word). Once they know *which* pick it was, `decide` says what it answers
and how the decision reads on the message it closes; `closing_label` says
the same for a question that something else closed (a typed reply,
/cancel, /reset). `read_typed` reads a typed line as a pick or a decision:
the console, Telegram and Slack all call it, so a typed "2", "skip",
"approved" or "revise" means the same on every platform.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final, Literal

from engine import ApprovalDecision, ApprovalRequest, Ask, ClarificationAnswer, Handler, Message, Resume, Turn

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


# Words that are a whole decision on a plan (compared casefolded, trailing punctuation and zero-width characters gone).
APPROVE_WORDS: Final = frozenset(
    {"approve", "approved", "approve it", "ok", "okay", "yes", "y", "yep", "yeah", "sure", "go", "go ahead",
     "do it", "lgtm", "승인", "승인해", "승인해요", "승인합니다", "좋아", "좋아요", "네", "예", "응", "오케이", "ㅇㅋ", "ㅇㅇ"}
)  # fmt: skip
CANCEL_WORDS: Final = frozenset(
    {"cancel", "cancelled", "canceled", "cancel it", "no", "nope", "n", "stop", "취소", "취소해", "취소해요",
     "취소합니다", "아니", "아니요", "아뇨"}
)  # fmt: skip
_REVISE = re.compile(
    r"(?:revise|수정(?:해줘|해주세요|해요|해)?)(?=$|[\s:,.!\-–—])[\s:,.!\-–—]*(?P<feedback>.*)", re.IGNORECASE | re.DOTALL
)
"""A line starting with revise (수정) revises the plan; the rest of the line is the feedback."""
SKIP_WORDS: Final = frozenset({"skip", "skip it", "pass", "건너뛰기", "건너뛸게", "스킵", "패스"})
EDIT_HINT = (
    "I saw that you edited a message. Edits aren't applied: I already worked with the first version. "
    "To fix a logged entry, send the correction as a new message (e.g. “that was 60kg, not 55”), or /undo the last change."
)
"""Said when a person edits a message they sent (every platform says the same)."""

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))
_CHOICE = re.compile(r"(\d{1,3})\s*(?:번|\.|\))?", re.ASCII)
_EDGES = ".,!?~…。:;-–—\"'“”‘’() "


@dataclass(frozen=True)
class Typed:
    """What a typed line means while a question or plan is open (see `read_typed`)."""

    answer: Reply | None = None
    """Send it in a `Resume` to the open question or plan."""
    ask_feedback: bool = False
    """A bare "revise": ask `REVISE_PROMPT`; the person's next message is the feedback."""
    hint: str = ""
    """Say this and send nothing (a choice number that is not on the list)."""


def visible(text: str) -> str:
    """The text without zero-width characters (a line of only those is empty), trimmed."""
    return unicodedata.normalize("NFC", text.translate(_INVISIBLE)).strip()


def _folded(text: str) -> str:
    return " ".join(visible(text).casefold().strip(_EDGES).split())


def choose_hint(count: int) -> str:
    return f"Pick a number from 1 to {count}, type your own answer, or type skip."


def read_typed(line: str, pending: Pending | None, user: str = "") -> Typed | None:
    """Read a typed line as the answer to what is open: the one reading every platform uses.

    For a question: ``skip`` (건너뛰기) declines; a number picks that choice
    (``2``, ``2.``, ``2번``); a number not on the list gets a hint instead of
    being sent as an answer; anything else is sent as a `Message`, and the
    engine tells an answer in the person's own words from a message of its
    own (a log or a question it holds until the question is answered). Words
    are compared casefolded, trailing punctuation gone. For a plan: a whole
    line of approve / approved / ok / yes / 승인 approves, cancel / no / 취소
    cancels, ``revise <what should change>`` (수정 …) revises with that
    feedback and a bare ``revise`` asks what should change; any other line is
    no decision.

    Args:
        user: Who typed it; a question or plan asked of someone else is not theirs to answer.

    Returns:
        None when the line is no pick (nothing is open, it is someone else's,
        the line is empty, it is the person's own words to a question, or a
        plan is open and the line is no decision): send it as a `Message`.
    """
    text = visible(line)
    if pending is None or not text or (user and pending.asked_by and pending.asked_by != user):
        return None
    folded = _folded(text)
    if isinstance(pending, Ask):
        options = pending.questions[0].options if pending.questions else []
        if folded in SKIP_WORDS:
            return Typed(ClarificationAnswer(declined=True))
        if options and (m := _CHOICE.fullmatch(folded)) is not None:
            picked = decide("choice", pending, index=int(m[1]) - 1)
            return Typed(picked.answer) if picked is not None else Typed(hint=choose_hint(len(options)))
        return None  # the engine reads whether it answers (admission) or is a log or question of its own
    if folded in APPROVE_WORDS:
        return Typed(decide_plan("approve").answer)
    if folded in CANCEL_WORDS:
        return Typed(decide_plan("cancel").answer)
    if (m := _REVISE.match(text)) is not None:
        feedback = m["feedback"].strip()
        return Typed(decide_plan("revise", feedback).answer) if feedback.strip(_EDGES) else Typed(ask_feedback=True)
    return None


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
