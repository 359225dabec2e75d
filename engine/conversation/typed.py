"""The one reading of a typed line while a question or plan is open: a choice's number, skip, or a decision.

Every platform reads typed lines with `read_typed` (``adapters.common`` re-exports
it), and admission reads a `Message` that reaches the engine with it too
(`admission.check_message`), so a typed "2", "skip", "approved" or
"revise smaller jumps" means the same whoever sent it. Light on purpose: the
turn and outcome types only, so an adapter process imports it cheaply.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from engine import texts
from engine.outcomes import ApprovalRequest, Ask
from engine.turns import ApprovalDecision, ClarificationAnswer

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
    r"(?:revise|수정(?:해줘|해주세요|해요|해)?)(?=$|[\s:,.!\-–—])[\s:,.!\-–—]*(?P<feedback>.*)",
    re.IGNORECASE | re.DOTALL,
)
"""A line starting with revise (수정) revises the plan; the rest of the line is the feedback."""
SKIP_WORDS: Final = frozenset({"skip", "skip it", "pass", "건너뛰기", "건너뛸게", "스킵", "패스"})

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))
_CHOICE = re.compile(r"(\d{1,3})\s*(?:번|\.|\))?", re.ASCII)
_EDGES = ".,!?~…。:;-–—\"'“”‘’() "


@dataclass(frozen=True)
class Typed:
    """What a typed line means while a question or plan is open (see `read_typed`)."""

    answer: ClarificationAnswer | ApprovalDecision | None = None
    """Send it in a `Resume` to the open question or plan."""
    ask_feedback: bool = False
    """A bare "revise": ask what should change; the person's next message is the feedback."""
    hint: str = ""
    """Say this and send nothing (a choice number that is not on the list)."""


def visible(text: str) -> str:
    """The text without zero-width characters (a line of only those is empty), trimmed."""
    return unicodedata.normalize("NFC", text.translate(_INVISIBLE)).strip()


def _folded(text: str) -> str:
    return " ".join(visible(text).casefold().strip(_EDGES).split())


def read_typed(line: str, pending: Ask | ApprovalRequest | None, user: str = "") -> Typed | None:
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
            index = int(m[1]) - 1
            if 0 <= index < len(options):
                return Typed(ClarificationAnswer(answers=[options[index]]))
            return Typed(hint=texts.choose_hint(len(options)))
        return None  # the engine reads whether it answers (admission) or is a log or question of its own
    if folded in APPROVE_WORDS:
        return Typed(ApprovalDecision(decision="approve"))
    if folded in CANCEL_WORDS:
        return Typed(ApprovalDecision(decision="cancel"))
    if (m := _REVISE.match(text)) is not None:
        feedback = m["feedback"].strip()
        if feedback.strip(_EDGES):
            return Typed(ApprovalDecision(decision="revise", feedback=feedback))
        return Typed(ask_feedback=True)
    return None
